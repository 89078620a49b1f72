"""The server's wire views of a game, kept current from its events, and its decision lines."""

from __future__ import annotations

from typing import Any, Final, Literal, final

import msgspec

from setback.engine import (
    CARD_TEXT,
    HAND_SIZE,
    MAX_PLAYERS,
    BidMade,
    CardPlayed,
    DealerChosen,
    Event,
    GameWon,
    HandDealt,
    HandResult,
    HandScored,
    HandThrownIn,
    Passed,
    PitcherChosen,
    Point,
    Rules,
    Suit,
    TrickWon,
    TrumpPitched,
    lead_strengths,
)
from setback.protocol.convert import (
    ACTION_TEXT,
    bid_to_wire,
    outcome_to_wire,
    result_to_wire,
    rules_to_wire,
    trick_to_wire,
)
from setback.protocol.messages import (
    DecisionClock,
    SeatCard,
    WireBid,
    WireHandResult,
    WireOutcome,
    WireRules,
    WireTrick,
    WireView,
)

_encoder: Final = msgspec.json.Encoder()
_CARD_TEXT: Final = CARD_TEXT
"""The engine's, held here: compiled, a name imported from a module that is not is looked up at each use."""

SMALL_INTS: Final = tuple(str(n).encode() for n in range(256))
"""The JSON of the numbers a view holds (seats, sizes, bids, hands dealt), made once."""
TWO_DIGITS: Final = tuple(b"%02d" % n for n in range(100))
"""The last two digits of a number from 100 up."""
ACTION_JSON: Final = tuple(_encoder.encode(text) for text in ACTION_TEXT)
"""Each action's text as a JSON string, by its code."""
CARD_JSON: Final = tuple(_encoder.encode(text) for text in CARD_TEXT)
"""Each card's text as a JSON string, by its index."""
SEAT_CARD_JSON: Final = tuple(
    tuple(b'{"seat":%d,"card":%b}' % (seat, card) for card in CARD_JSON) for seat in range(MAX_PLAYERS)
)
SEAT_CARD_AFTER_JSON: Final = tuple(tuple(b",%b" % card for card in cards) for cards in SEAT_CARD_JSON)
"""A card in the trick (a ``SeatCard``'s JSON), by seat and card index; and after another (a comma first)."""
POINT_JSON: Final = {point: _encoder.encode(point.value) for point in Point}
SUIT_JSON: Final = {suit: _encoder.encode(suit.letter) for suit in Suit}
TRUMP_JSON: Final = {suit.letter: json for suit, json in SUIT_JSON.items()}
"""Each point's and suit's text as a JSON string (a hand result's awards, its trump)."""
SUIT_LETTER: Final = {suit: suit.letter for suit in Suit}
"""Each suit's letter (``Suit.letter`` is a Python property: some 750 instructions a call, compiled)."""
assert HAND_SIZE < 10, "a hand's size is one digit in the decide line's hand sizes"
PHASE_JSON: Final = {phase: _encoder.encode(phase) for phase in ("bidding", "playing", "game_over")}


def _int_json(value: int | None) -> bytes:
    """``value`` as msgspec writes it."""
    if value is None:
        return b"null"
    if 0 <= value < 256:
        return SMALL_INTS[value]
    return str(value).encode()


def _card_json(card: int | None) -> bytes:
    return b"null" if card is None else CARD_JSON[card]


def _result_json(r: HandResult) -> bytes:
    """``encode(result_to_wire(r))``, without making the wire's result (its tuples of ints by msgspec:
    a join of each int's JSON cost about twice as much)."""
    awards = b",".join([
        b'{"point":%b,"value":%b,"side":%b,"seat":%b,"card":%b}' % (
            POINT_JSON[award.point], _int_json(award.value), _int_json(award.side), _int_json(award.seat),
            _card_json(award.card),
        )
        for award in r.awards
    ])
    return (
        b'{"hand_number":%b,"dealer":%b,"pitcher":%b,"bid":%b,"trump":%b,"high":%b,"high_card":%b,"low":%b,'
        b'"low_card":%b,"jack":%b,"game":%b,"game_pips":%b,"points":%b,"set_back":%b,"deltas":%b,'
        b'"scores":%b,"stolen":%b,"low_captured_by":%b,"awards":[%b]}'
    ) % (
        _int_json(r.hand_number), _int_json(r.dealer), _int_json(r.pitcher), _int_json(r.bid), SUIT_JSON[r.trump],
        _int_json(r.high), _card_json(r.high_card), _int_json(r.low), _card_json(r.low_card), _int_json(r.jack),
        _int_json(r.game), _encoder.encode(r.game_pips), _encoder.encode(r.points), b"true" if r.set_back else b"false",
        _encoder.encode(r.deltas), _encoder.encode(r.scores), b"true" if r.stolen else b"false",
        _int_json(r.low_captured_by),
        awards,
    )


def _added(items: bytes, item: bytes) -> bytes:
    """The items of a JSON array without its brackets (b"": none) with ``item`` (JSON) added at its end."""
    return b"%b,%b" % (items, item) if len(items) else item


CARD_AFTER_JSON: Final = tuple(b",%b" % card for card in CARD_JSON)
ACTION_AFTER_JSON: Final = tuple(b",%b" % action for action in ACTION_JSON)
"""A card's and an action's JSON after another item of an array (a comma first)."""


def _cards_json(codes: list[int]) -> bytes:
    """The JSON of the cards ``codes`` (an array's items, without brackets). A hand
    holds at most seven: one formatting of as many pieces, where a join costs a list and more."""
    n = len(codes)
    if n == 0:
        return b""
    first, rest = CARD_JSON[codes[0]], CARD_AFTER_JSON
    if n == 1:
        return first
    if n == 2:
        return b"%b%b" % (first, rest[codes[1]])
    if n == 3:
        return b"%b%b%b" % (first, rest[codes[1]], rest[codes[2]])
    if n == 4:
        return b"%b%b%b%b" % (first, rest[codes[1]], rest[codes[2]], rest[codes[3]])
    if n == 5:
        return b"%b%b%b%b%b" % (first, rest[codes[1]], rest[codes[2]], rest[codes[3]], rest[codes[4]])
    if n == 6:
        return b"%b%b%b%b%b%b" % (
            first, rest[codes[1]], rest[codes[2]], rest[codes[3]], rest[codes[4]], rest[codes[5]],
        )
    return b",".join([CARD_JSON[code] for code in codes])


def _actions_json(codes: tuple[int, ...]) -> bytes:
    """The JSON of the actions ``codes`` (an array's items, without brackets), as :func:`_cards_json`."""
    n = len(codes)
    if n == 0:
        return b""
    first, rest = ACTION_JSON[codes[0]], ACTION_AFTER_JSON
    if n == 1:
        return first
    if n == 2:
        return b"%b%b" % (first, rest[codes[1]])
    if n == 3:
        return b"%b%b%b" % (first, rest[codes[1]], rest[codes[2]])
    if n == 4:
        return b"%b%b%b%b" % (first, rest[codes[1]], rest[codes[2]], rest[codes[3]])
    if n == 5:
        return b"%b%b%b%b%b" % (first, rest[codes[1]], rest[codes[2]], rest[codes[3]], rest[codes[4]])
    if n == 6:
        return b"%b%b%b%b%b%b" % (
            first, rest[codes[1]], rest[codes[2]], rest[codes[3]], rest[codes[4]], rest[codes[5]],
        )
    return b",".join([ACTION_JSON[code] for code in codes])


def _sizes_of(sizes: list[int]) -> bytes:
    """The decide line's ``],"hand_sizes":[`` and the items of ``sizes`` (a piece fewer for the line's
    formatting to copy: some 40 instructions a decision)."""
    return b'],"hand_sizes":[%b' % b",".join([SMALL_INTS[size] for size in sizes])


_SIZES_JSON: Final = [b""] * ((MAX_PLAYERS + 1) * 10 << MAX_PLAYERS)
""":func:`_sizes_of` the hand sizes of ``players`` seats that each hold ``least`` cards,
or one more (the seats in the mask ``above``), at ``(players * 10 + least) << MAX_PLAYERS | above``:
as a hand is played, the seats of the trick in play hold one card fewer than the others. Each made
the first time it is asked for (b"": not yet)."""


def _sizes_json(players: int, least: int, above: int) -> bytes:
    """The hand sizes of :data:`_SIZES_JSON` (``least`` at most 9, so one digit with its one more)."""
    index = (players * 10 + least) << MAX_PLAYERS | above
    sizes = _SIZES_JSON[index]
    if not len(sizes):
        sizes = _SIZES_JSON[index] = _sizes_of([least + (above >> seat & 1) for seat in range(players)])
    return sizes


@final
class TableRules:
    """A table's rules as every game dealt under them has them on the wire (:attr:`wire`), as JSON
    (:attr:`json`) and as the records keep them (:attr:`saved`, msgspec's builtins: read, never
    changed), made once for all of them (each game's start made them again)."""

    __slots__ = ("json", "rules", "saved", "wire")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.wire: WireRules = rules_to_wire(rules)
        self.json: bytes = _encoder.encode(self.wire)
        self.saved: dict[str, Any] = msgspec.to_builtins(self.wire)

    @staticmethod
    def of(rules: Rules, kept: TableRules | None) -> TableRules:
        """``kept`` if it was made of ``rules`` (the same object), else a new one."""
        return kept if kept is not None and kept.rules is rules else TableRules(rules)


class WireViews:
    """Every seat's wire view of one game, kept current from the game's events.

    ``view(seat, ...)`` equals ``view_to_wire(game.view(seat))`` without building the
    engine's view first: the server's decision path. Feed :meth:`note` every event of
    the game, in order and unredacted, from the first (of a game dealt from its seed:
    the scores start at zero).

    Each view it hands out is made of lists of its own (the hands, the bids, the trick and
    the tricks are made for it from the events kept), so a view stays as it was made.
    :meth:`decide_line` is the server's hot path: the bytes of encoding a ``Decide`` with
    :meth:`view`, put together from pieces of JSON kept until what they hold next changes;
    it builds none of the view's objects.
    """

    __slots__ = (
        "_above", "_best", "_bids", "_bids_json", "_called", "_clock", "_hand_json", "_head", "_held", "_last",
        "_leads", "_least", "_opening", "_outcome_json", "_played", "_plays", "_result_json", "_results", "_rules_json",
        "_seat_heads", "_sizes_json", "_strengths", "_table", "_tails", "_taken", "_trick_cards", "_trick_json",
        "_tricks_json", "_variant", "bid", "dealer", "hand_number", "last_result_json", "outcome", "phase",
        "pitcher", "rules", "scores", "trump", "winning",
    )

    def __init__(self, rules: Rules, shared: TableRules | None = None) -> None:
        shared = TableRules.of(rules, shared)
        self.rules = shared.wire
        self._variant = rules.variant
        self.phase: Literal["bidding", "playing", "game_over"] = "bidding"
        self.hand_number = 0
        self.dealer = 0
        self._held: list[list[int]] = [[] for _ in range(rules.players)]
        """Each seat's cards (codes, as dealt), less those played: changed in place, never handed out."""
        self._bids: list[Passed | BidMade] = []
        self.pitcher: int | None = None
        self.bid: int | None = None
        self.trump: str | None = None
        self._plays: list[CardPlayed] = []
        """The cards of the trick in play, in playing order."""
        self._taken: list[TrickWon] = []
        """The tricks taken this hand."""
        self.winning: int | None = None
        """The seat whose card wins the trick in play so far (None while no card is in it)."""
        self._leads: tuple[tuple[int, ...], ...] = ()
        """How strongly each card plays in a trick led by each card, for the hand's trump (empty
        until trump is named: the first card names it)."""
        self._strengths: tuple[int, ...] = ()
        """How strongly each card plays in the trick in play (the rule's, from its first card)."""
        self._best = 0
        """The strength of the card that wins the trick in play so far."""
        self.scores = [0] * rules.sides
        self._last: HandResult | None = None
        """The last hand's result (None before the first, or after a hand thrown in)."""
        self.last_result_json = b"null"
        """:attr:`last_result` as msgspec writes it, made from the engine's result once a hand
        (the decide lines and the records use it; tests/test_remote_bots.py compares it)."""
        self.outcome: WireOutcome | None = None
        self._results: list[HandResult] = []
        """Every scored hand of the game, oldest first (a snapshot's score history)."""
        # The decision line's pieces of JSON, each as msgspec writes it; b"": to be made again.
        self._rules_json = shared.json
        self._table = ""
        self._opening = b""
        """The table's id the last line named, and the line's opening: ``{"type":"decide","table":…,"request":``"""
        self._head = b""
        """``,"rules":…,"phase":…,"hand_number":…,"dealer":…,"to_act":``"""
        self._seat_heads = [b""] * rules.players
        """Each seat's line after the request: ``,"seat":S,"view":{"seat":S`` (the head) ``S,"hand":[``
        (made again with the head)."""
        self._called = b""
        """``],"bids":…,"pitcher":…,"bid":…,"trump":…,"trick":[``"""
        self._played = b""
        """``],"tricks":…,"scores":…,"last_result":…,"legal":[``"""
        self._bids_json = b""
        self._trick_json = b""
        self._tricks_json = b""
        """The items of the bids, the trick in play and the tricks taken, without their brackets:
        each kept as it grows."""
        self._trick_cards = b""
        """The cards of the trick in play (a taken trick's ``cards``), as :attr:`_trick_json` grows."""
        self._result_json = b""
        """``,"scores":…,"last_result":…``"""
        self._least = 0
        self._above = 0
        """The fewest cards a seat holds, and the mask of the seats that hold one more (-1: the
        hands are not so, and the sizes are made from them at each card)."""
        self._sizes_json = _sizes_json(rules.players, 0, 0)
        """``],"hand_sizes":[`` and the sizes (:func:`_sizes_of`)."""
        self._hand_json = [b""] * rules.players
        """Each seat's hand; as the bids', without brackets (b"": to be made again; a seat whose
        hand is empty has it made again each time)."""
        self._outcome_json = b"null"
        self._clock: DecisionClock | None = None
        self._tails = [b""] * (rules.players + 1)
        """The line's end after ``legal``'s items, by the seat winning the trick (+1; 0: none):
        ``],"outcome":…,"winning":…},"clock":…}`` and the newline, for the clock the last line
        carried (:attr:`_clock`)."""

    @property
    def last_result(self) -> WireHandResult | None:
        """The last hand's result on the wire (None before the first, or after a hand thrown in)."""
        return None if self._last is None else result_to_wire(self._last)

    @property
    def results(self) -> list[WireHandResult]:
        """Every scored hand of the game on the wire, oldest first (a new list each time)."""
        return [result_to_wire(result) for result in self._results]

    @property
    def hands(self) -> list[list[str]]:
        """Each seat's hand, as the views give it (a new list each time)."""
        return [[_CARD_TEXT[code] for code in held] for held in self._held]

    @property
    def bids(self) -> list[WireBid]:
        """The bids of the hand so far (a new list each time)."""
        return [bid_to_wire(bid) for bid in self._bids]

    @property
    def trick(self) -> list[SeatCard]:
        """The trick in play (a new list each time)."""
        return [SeatCard(play.seat, _CARD_TEXT[play.card]) for play in self._plays]

    @property
    def tricks(self) -> list[WireTrick]:
        """The tricks taken this hand (a new list each time)."""
        return [trick_to_wire(trick) for trick in self._taken]

    def note(self, event: Event) -> None:
        kind = type(event)
        if kind is CardPlayed:
            assert isinstance(event, CardPlayed)
            code: int = event.card  # as an int, it indexes the tables below natively
            seat = event.seat
            held = self._held[seat]
            at = 0
            while held[at] != code:  # (a native loop: ``remove`` compares the cards as objects)
                at += 1
            held.pop(at)
            self._hand_json[seat] = b""
            above, bit, players = self._above, 1 << seat, len(self._held)
            if above >= 0 and above & bit:  # it held one more than the fewest: now as few
                self._above = above = above ^ bit
                self._sizes_json = _sizes_json(players, self._least, above)
            elif above == 0 and self._least > 0:  # all held as many: now the others hold one more
                self._least -= 1
                self._above = above = ((1 << players) - 1) ^ bit
                self._sizes_json = _sizes_json(players, self._least, above)
            else:
                self._above = -1
                self._sizes_json = _sizes_of([len(cards) for cards in self._held])
            plays = self._plays
            if not plays:  # it leads: how strongly each card plays follows from it (trump is named by now)
                self._strengths = self._leads[code]
                self._best = -2  # below any card's, which the leader's beats
            plays.append(event)
            trick = self._trick_json
            self._trick_json = trick + SEAT_CARD_AFTER_JSON[seat][code] if len(trick) else SEAT_CARD_JSON[seat][code]
            cards = self._trick_cards
            self._trick_cards = cards + CARD_AFTER_JSON[code] if len(cards) else CARD_JSON[code]
            strength = self._strengths[code]
            if strength > self._best:  # a card as strong as the best so far does not take it (winning_seat's rule)
                self._best = strength
                self.winning = seat
        elif kind is TrickWon:
            assert isinstance(event, TrickWon)
            self._taken.append(event)
            taken = b'{"number":%b,"leader":%b,"cards":[%b],"winner":%b}' % (
                _int_json(event.trick_number), SMALL_INTS[event.plays[0].seat], self._trick_cards,
                SMALL_INTS[event.winner],
            )
            self._plays = []
            self.winning = None
            self._tricks_json = _added(self._tricks_json, taken)
            self._trick_json = self._trick_cards = b""
            self._played = b""
        elif kind is Passed or kind is BidMade:
            assert isinstance(event, (Passed, BidMade))  # a tuple: Passed | BidMade would make a union each time
            self._bids.append(event)
            amount = _int_json(event.amount) if type(event) is BidMade else b"null"
            self._bids_json = _added(self._bids_json, b'{"seat":%b,"bid":%b}' % (SMALL_INTS[event.seat], amount))
            self._called = b""
        elif kind is TrumpPitched:
            assert isinstance(event, TrumpPitched)
            self.trump = SUIT_LETTER[event.trump]
            self._leads = lead_strengths(event.trump, self._variant)
            self._called = b""
        elif kind is PitcherChosen:
            assert isinstance(event, PitcherChosen)
            self.phase = "playing"
            self.pitcher = event.pitcher
            self.bid = event.bid
            self._head = self._called = b""
        elif kind is HandDealt:
            assert isinstance(event, HandDealt)
            self.phase = "bidding"
            self.hand_number = event.hand_number
            self.dealer = event.dealer
            self._held = [list(cards) for cards in event.hands]
            self._bids = []
            self.pitcher = self.bid = self.trump = self.winning = None
            self._leads = ()
            self._plays = []
            self._taken = []
            self._head = self._called = self._played = b""
            self._bids_json = self._trick_json = self._trick_cards = self._tricks_json = b""
            self._hand_json = [b""] * len(self._held)
            sizes = [len(cards) for cards in self._held]
            least = most = sizes[0]
            for size in sizes:  # (native loops: ``min``, ``max`` and ``sum`` are looked up and called as Python's)
                if size < least:
                    least = size
                elif size > most:
                    most = size
            if most <= least + 1:
                above = 0
                for seat in range(len(sizes)):
                    if sizes[seat] > least:
                        above |= 1 << seat
                self._least, self._above = least, above
                self._sizes_json = _sizes_json(len(sizes), least, above)
            else:
                self._above = -1
                self._sizes_json = _sizes_of(sizes)
        elif kind is HandScored:
            assert isinstance(event, HandScored)
            result = event.result
            self._last = result
            self._results.append(result)
            self.last_result_json = _result_json(result)
            self.scores = list(result.scores)
            self._played = self._result_json = b""
        elif kind is HandThrownIn:  # the previous hand has no result
            self._last = None
            self.last_result_json = b"null"
            self._played = self._result_json = b""
        elif kind is GameWon:
            assert isinstance(event, GameWon)
            self.phase = "game_over"
            self.outcome = outcome_to_wire(event.outcome)
            self._head = b""
            self._outcome_json = _encoder.encode(self.outcome)
            self._clock = None  # (the line's end, made again)
        elif kind is DealerChosen:
            assert isinstance(event, DealerChosen)
            self.dealer = event.dealer
            self._head = b""

    def view(self, seat: int | None, to_act: int | None, legal: tuple[int, ...]) -> WireView:
        """``seat``'s view (None: a spectator's); ``to_act`` and the ``legal`` codes are the game's."""
        hands = self.hands
        bids, trick, tricks = self.bids, self.trick, self.tricks
        return WireView(
            seat=seat,
            rules=self.rules,
            phase=self.phase,
            hand_number=self.hand_number,
            dealer=self.dealer,
            to_act=to_act,
            hand=hands[seat] if seat is not None else [],
            hand_sizes=list(map(len, hands)),
            bids=bids,
            pitcher=self.pitcher,
            bid=self.bid,
            trump=self.trump,
            trick=trick,
            tricks=tricks,
            scores=self.scores,
            last_result=self.last_result,
            legal=list(map(ACTION_TEXT.__getitem__, legal)) if seat is not None and seat == to_act else [],
            outcome=self.outcome,
            winning=self.winning,
        )

    def decide_line(self, table: str, request: int, seat: int, legal: tuple[int, ...], clock: DecisionClock) -> bytes:
        """The ``decide`` line asking ``seat`` (the seat to act) for one of the ``legal`` codes: the
        bytes of ``encode(Decide(table=..., view=self.view(seat, seat, legal), ...))``, made from
        the pieces kept since they last changed (tests/test_remote_bots.py compares them)."""
        if table != self._table:
            self._table = table
            self._opening = b'{"type":"decide","table":%b,"request":' % _encoder.encode(table)
        head = self._head
        if not len(head):  # (a native read of its size: compiled, the truth of bytes is a generic call)
            head = self._head = b',"rules":%b,"phase":%b,"hand_number":%d,"dealer":%d,"to_act":' % (
                self._rules_json, PHASE_JSON[self.phase], self.hand_number, self.dealer,
            )
            self._seat_heads = [b""] * len(self._seat_heads)
        seat_head = self._seat_heads[seat]
        if not len(seat_head):
            at = SMALL_INTS[seat]
            seat_head = self._seat_heads[seat] = b',"seat":%b,"view":{"seat":%b%b%b,"hand":[' % (at, at, head, at)
        called = self._called
        if not len(called):
            called = self._called = b'],"bids":[%b],"pitcher":%b,"bid":%b,"trump":%b,"trick":[' % (
                self._bids_json, _int_json(self.pitcher), _int_json(self.bid),
                b"null" if self.trump is None else TRUMP_JSON[self.trump],
            )
        played = self._played
        if not len(played):
            result = self._result_json
            if not len(result):
                result = self._result_json = b',"scores":%b,"last_result":%b' % (
                    _encoder.encode(self.scores), self.last_result_json,
                )
            played = self._played = b'],"tricks":[%b]%b,"legal":[' % (self._tricks_json, result)
        hand = self._hand_json[seat]
        if not len(hand):
            hand = self._hand_json[seat] = _cards_json(self._held[seat])
        if clock is not self._clock:
            self._clock = clock
            self._tails = [b""] * len(self._tails)
        winning = self.winning
        ending = 0 if winning is None else winning + 1
        tail = self._tails[ending]
        if not len(tail):
            tail = self._tails[ending] = (
                b'],"outcome":%b,"winning":%b},"clock":{"limit_ms":%b,"remaining_ms":%b}}\n' % (
                    self._outcome_json, _int_json(winning), _int_json(clock.limit_ms), _int_json(clock.remaining_ms),
                )
            )
        if request < 100:  # its digits from tables: formatting an int costs a string made first
            digits, more = SMALL_INTS[request], b""
        elif request < 25_600:
            digits, more = SMALL_INTS[request // 100], TWO_DIGITS[request % 100]
        else:
            digits, more = b"%d" % request, b""
        return b"%b%b%b%b%b%b%b%b%b%b%b" % (
            self._opening, digits, more, seat_head, hand, self._sizes_json, called, self._trick_json, played,
            _actions_json(legal), tail,
        )
