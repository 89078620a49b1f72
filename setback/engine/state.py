"""The fast core: a whole game as integers and bit masks.

:class:`GameState` is the inner loop of search bots and long evaluations. It
speaks action codes (see :mod:`setback.engine.actions`), trusts every action it is
given (check it against :meth:`GameState.legal_actions` first, or use the checking
facade :class:`setback.engine.Game`), and appends events to ``log`` only when
one is given. Its method names follow OpenSpiel's (``legal_actions``,
``apply_action``, ``is_terminal``) so search code reads the same.

The game is decided by the rules, the seed and the actions alone: the seed
drives a Mersenne Twister (``_random.Random``, the base of :class:`random.Random`, seeded by an
int exactly as it is) that makes the draw for first dealer, every shuffle and every cut, and
nothing else.
"""

from __future__ import annotations

import _random
from functools import cache
from typing import Final

from setback.engine.actions import PASS_CODE
from setback.engine.cards import CARD_AT, CARDS, SUITS, Card
from setback.engine.deck import below, cards_of, shuffled_deck
from setback.engine.events import (
    Award,
    BidMade,
    CardPlayed,
    CardsDrawn,
    DealerChosen,
    Draw,
    Event,
    GameWon,
    HandDealt,
    HandResult,
    HandScored,
    HandThrownIn,
    Outcome,
    Passed,
    Phase,
    PitcherChosen,
    TrickWon,
    TrumpPitched,
    WinReason,
)
from setback.engine.rules import HAND_SIZE, MAX_PLAYERS, LowRule, Rules
from setback.engine.tables import (
    JOKER_SHIFT,
    PIPS_BY_SUIT_BITS,
    PLAYS_BY_SUIT,
    SHIFT,
    SUIT_BITS,
    SUIT_MASK,
    TABLES,
    TrumpTables,
    VariantTables,
    codes_of,
)
from setback.engine.variants import Point

_BIDDING: Final = Phase.BIDDING
_PLAYING: Final = Phase.PLAYING
_OVER: Final = Phase.GAME_OVER
_CLUBS: Final = PLAYS_BY_SUIT[0]
_DIAMONDS: Final = PLAYS_BY_SUIT[1]
_HEARTS: Final = PLAYS_BY_SUIT[2]
_SPADES: Final = PLAYS_BY_SUIT[3]
_NO_ACTIONS: Final[tuple[int, ...]] = ()
_HIGH: Final = Point.HIGH
_LOW: Final = Point.LOW
_JACK: Final = Point.JACK
_GAME: Final = Point.GAME
_CAPTURED: Final = LowRule.CAPTURED
"""The points a hand's scoring names, and the Low rule it asks for, as the module's own (an enum's
member is looked up by name: some 800 instructions a hand for the Low rule's)."""
_PRINTED: Final[tuple[int, ...]] = (SUIT_MASK[0], SUIT_MASK[1], SUIT_MASK[2], SUIT_MASK[3])
CUT_MIN: Final = 4
"""The pone's cut leaves at least this many cards in each packet."""
_PLAYED: Final = tuple(
    tuple([CardPlayed(seat, CARD_AT[code]) if code in CARD_AT else None for code in range(max(CARD_AT) + 1)])
    for seat in range(MAX_PLAYERS)
)
_LAID: Final = tuple(
    tuple([Draw(seat, CARD_AT[code]) if code in CARD_AT else None for code in range(max(CARD_AT) + 1)])
    for seat in range(MAX_PLAYERS)
)
"""The events of the hot loop, made once: events are immutable, so a play's event is shared. By
seat, then by card code (None: no card), read natively where a dictionary would box the code."""

BidTable = tuple[tuple[int, ...], ...]
"""The legal bidding codes, indexed by the highest bid so far (0: none yet)."""


def _bids_above(high: int, lowest: int, top: int) -> tuple[int, ...]:
    return tuple(range(PASS_CODE + max(high + 1, lowest), PASS_CODE + top + 1))


@cache
def _bid_tables(lowest: int, top: int, forced: bool, steal: bool) -> tuple[BidTable, BidTable]:
    """RULES.md, "Bidding", "Club options" and "Variants": the legal bids of a seat before the
    dealer, and of the dealer, by the highest bid so far, when bids are ``lowest`` to ``top``.
    A forced dealer whom everyone passed bids ``lowest`` to ``top``; with the steal, a dealer
    after a bid may also bid the highest so far."""
    others = tuple((PASS_CODE, *_bids_above(high, lowest, top)) for high in range(top + 1))
    dealer = list(others)
    if forced:
        dealer[0] = _bids_above(0, lowest, top)
    if steal:
        for high in range(1, top + 1):
            dealer[high] = (PASS_CODE, PASS_CODE + high, *_bids_above(high, lowest, top))
    return others, tuple(dealer)


class GameState:
    """A game in progress, from the draw for first dealer to its outcome."""

    rules: Rules
    players: int
    side_of: tuple[int, ...]
    next_seat: tuple[int, ...]
    rng: _random.Random
    log: list[Event] | None
    scores: list[int]
    hand_number: int
    dealer: int
    phase: Phase
    to_act: int
    hands: list[int]
    dealt: tuple[int, ...]
    high_bid: int
    stolen: bool
    open_bids: BidTable
    dealer_bids: BidTable
    pitcher: int | None
    trump: int | None
    tables: VariantTables
    trump_tables: TrumpTables | None
    suit_masks: tuple[int, ...]  # (of any length: see tables.SHIFT)
    trump_mask: int
    extras: int
    follow_mask: int
    lead_suit: tuple[int, ...]
    lead_strength: tuple[tuple[int, ...], ...]
    led: int
    takers: dict[int, int]
    watched: int
    trick: list[int]
    leader: int
    strength: tuple[int, ...]
    best: int
    winner: int
    tricks_done: int
    captured: list[int]
    high_card: int | None
    low_card: int | None
    outcome: Outcome | None

    __slots__ = (
        "best",
        "captured",
        "dealer",
        "dealer_bids",
        "dealt",
        "extras",
        "follow_mask",
        "hand_number",
        "hands",
        "high_bid",
        "high_card",
        "lead_strength",
        "lead_suit",
        "leader",
        "led",
        "log",
        "low_card",
        "next_seat",
        "open_bids",
        "outcome",
        "phase",
        "pitcher",
        "players",
        "rng",
        "rules",
        "scores",
        "side_of",
        "stolen",
        "strength",
        "suit_masks",
        "tables",
        "takers",
        "to_act",
        "trick",
        "tricks_done",
        "trump",
        "trump_mask",
        "trump_tables",
        "watched",
        "winner",
    )

    def __init__(self, rules: Rules, seed: int, log: list[Event] | None = None, *, _bare: bool = False) -> None:
        if _bare:  # for from_deal and clone, which set every field themselves
            return
        self._setup(rules, seed, log)
        self.dealer = self._draw_for_dealer()
        self._deal()

    def _setup(self, rules: Rules, seed: int, log: list[Event] | None) -> None:
        n = rules.players
        self.rules = rules
        self.players = n
        self.side_of = tuple(rules.side_of(s) for s in range(n))
        self.next_seat = tuple((s + 1) % n for s in range(n))
        self.rng = _random.Random(seed)  # as random.Random(seed) seeds it, without its Python __init__ and seed
        self.log = log
        self.scores = [0] * rules.sides
        self.hand_number = 0
        self.outcome = None
        self.hands = [0] * n
        self.dealt = ()
        self.trick = []
        self.captured = [0] * rules.sides
        self.leader = self.winner = self.best = 0
        self.strength = ()
        self.open_bids, self.dealer_bids = _bid_tables(
            rules.lowest_bid, rules.top_bid, rules.forced_dealer_bid, rules.dealer_steal
        )
        self.tables = TABLES[rules.variant]
        self.led = self.follow_mask = self.trump_mask = self.extras = 0
        self.suit_masks = _PRINTED
        self.lead_suit = self.lead_strength = ()

    @classmethod
    def from_deal(
        cls,
        rules: Rules,
        hands: list[int] | tuple[int, ...],
        dealer: int,
        seed: int = 0,
        scores: list[int] | tuple[int, ...] | None = None,
        log: list[Event] | None = None,
        *,
        hand_number: int = 1,
    ) -> GameState:
        """A game whose current hand was dealt ``hands`` (bit masks) by ``dealer``, in bidding.

        For set positions (rule tests, puzzles, search): no draw for dealer is made, the
        scores start from ``scores`` (zeros by default), the hand is number ``hand_number``
        and later hands are dealt from ``seed``.
        """
        if hand_number < 1:
            raise ValueError(f"hand_number must be at least 1, not {hand_number}")
        if not 0 <= dealer < rules.players:
            raise ValueError(f"no seat {dealer} to deal at a table of {rules.players}")
        if len(hands) != rules.players or any(h.bit_count() != HAND_SIZE for h in hands):
            raise ValueError(f"a deal is {HAND_SIZE} cards to each of {rules.players} seats")
        union = 0
        for mask in hands:
            if union & mask:
                raise ValueError("a card was dealt twice")
            union |= mask
        if union & ~TABLES[rules.variant].deck_mask:
            raise ValueError(f"a card not in the {rules.variant.value} deck was dealt")
        self = cls(rules, seed, _bare=True)
        self._setup(rules, seed, log)
        if scores is not None:
            if len(scores) != rules.sides:
                raise ValueError(f"{len(scores)} scores for {rules.sides} sides")
            self.scores = list(scores)
        self.dealer = dealer
        self.hand_number = hand_number
        self._start_hand(list(hands), cut=0)
        return self

    @classmethod
    def from_position(
        cls,
        rules: Rules,
        dealt: list[int] | tuple[int, ...],
        dealer: int,
        actions: list[int] | tuple[int, ...],
        *,
        scores: list[int] | tuple[int, ...] | None = None,
        hand_number: int = 1,
        seed: int = 0,
        log: list[Event] | None = None,
    ) -> GameState:
        """A game in the middle of a hand: ``dealt`` (bit masks) by ``dealer``, then ``actions``.

        ``actions`` are the codes taken so far in this hand, bids first, then plays in
        order; each is checked to be legal (ValueError otherwise) and the hand is played
        up to that point, so bids, pitcher, trump, the trick in progress, captured cards and
        the jack's capturer follow exactly as in the real game. ``scores`` are the scores
        before this hand and ``hand_number`` its number; hands after it are dealt from
        ``seed``. Search code calls this with sampled hidden hands (see
        :func:`setback.engine.state_from_view`).
        """
        self = cls.from_deal(rules, dealt, dealer, seed, scores, log, hand_number=hand_number)
        for code in actions:
            if self.hand_number != hand_number or code not in self.legal_actions():
                raise ValueError(f"action code {code} is not legal at this point of hand {hand_number}")
            self.apply_action(code)
        return self

    def clone(self, rng: _random.Random | None = None) -> GameState:
        """An independent copy of the position, with no log.

        Later hands are dealt from ``rng`` when given (a search that stops at the end of
        the hand can pass one generator to all its copies), else from a copy of this
        state's generator, so the copy deals exactly as the original would.
        """
        other = GameState(self.rules, 0, _bare=True)  # every field is set below (see __slots__)
        other.best = self.best
        other.dealer = self.dealer
        other.dealt = self.dealt
        other.hand_number = self.hand_number
        other.high_bid = self.high_bid
        other.stolen = self.stolen
        other.open_bids = self.open_bids
        other.dealer_bids = self.dealer_bids
        other.tables = self.tables
        other.trump_tables = self.trump_tables
        other.suit_masks = self.suit_masks
        other.trump_mask = self.trump_mask
        other.extras = self.extras
        other.follow_mask = self.follow_mask
        other.lead_suit = self.lead_suit
        other.lead_strength = self.lead_strength
        other.led = self.led
        other.takers = self.takers.copy()
        other.watched = self.watched
        other.high_card = self.high_card
        other.low_card = self.low_card
        other.leader = self.leader
        other.next_seat = self.next_seat
        other.outcome = self.outcome
        other.phase = self.phase
        other.pitcher = self.pitcher
        other.players = self.players
        other.rules = self.rules
        other.side_of = self.side_of
        other.strength = self.strength
        other.to_act = self.to_act
        other.tricks_done = self.tricks_done
        other.trump = self.trump
        other.winner = self.winner
        other.log = None
        other.scores = self.scores[:]
        other.hands = self.hands[:]
        other.trick = self.trick[:]
        other.captured = self.captured[:]
        if rng is None:
            rng = type(self.rng)(0)  # (a generator a clone was given may be a random.Random: its own state's form)
            rng.setstate(self.rng.getstate())
        other.rng = rng
        return other

    # -- the hot loop -------------------------------------------------------------

    def is_terminal(self) -> bool:
        return self.phase is _OVER

    def is_chance_node(self) -> bool:
        """Always False: the seed deals, so every action belongs to a seat (OpenSpiel's name)."""
        return False

    def legal_actions(self) -> tuple[int, ...]:
        """The codes the seat to act may play, ascending; empty once the game is over."""
        if self.phase is _PLAYING:
            hand = self.hands[self.to_act]
            if self.trick:
                follow = hand & self.follow_mask
                if follow:
                    led = self.led
                    trump = self.trump
                    assert trump is not None
                    if hand & self.extras:  # an off-card or a joker: trump, printed elsewhere or nowhere
                        return codes_of(follow if trump == led else follow | hand & self.trump_mask)
                    led_cards = PLAYS_BY_SUIT[led][follow >> SHIFT[led]]
                    if trump == led:
                        return led_cards
                    trumps = PLAYS_BY_SUIT[trump][hand >> SHIFT[trump] & SUIT_BITS]
                    return trumps + led_cards if trump < led else led_cards + trumps
            if hand >> JOKER_SHIFT:
                return codes_of(hand)
            return (
                _CLUBS[hand & SUIT_BITS]
                + _DIAMONDS[hand >> 13 & SUIT_BITS]
                + _HEARTS[hand >> 26 & SUIT_BITS]
                + _SPADES[hand >> 39]
            )
        if self.phase is _BIDDING:
            if self.to_act == self.dealer:
                return self.dealer_bids[self.high_bid]
            return self.open_bids[self.high_bid]
        return _NO_ACTIONS

    def apply_action(self, code: int) -> None:
        """Apply a legal action code for the seat to act (not checked)."""
        if self.phase is not _PLAYING:
            self._bid(code)
            return
        seat = self.to_act
        hands = self.hands
        hands[seat] = hands[seat] ^ 1 << code  # not ^=, which mypyc leaves generic on a list's item
        trick = self.trick
        if trick:
            strength = self.strength[code]
            if strength > self.best:
                self.best = strength
                self.winner = seat
        else:
            if self.trump is None:
                self._pitch(seat, self.tables.pitch_suit[code])
            led = self.led = self.lead_suit[code]
            self.follow_mask = self.suit_masks[led]
            led_strength = self.strength = self.lead_strength[code]
            self.best = led_strength[code]
            self.winner = self.leader = seat
        trick.append(code)
        if self.log is not None:
            played = _PLAYED[seat][code]
            assert played is not None
            self.log.append(played)
        if len(trick) == self.players:
            self._take_trick()
        else:
            self.to_act = self.next_seat[seat]

    # -- the rest of a hand -----------------------------------------------------

    def _take_trick(self) -> None:
        winner = self.winner
        taken = 0
        for card in self.trick:
            taken |= 1 << card
        captured = self.captured
        side = self.side_of[winner]
        captured[side] = captured[side] | taken
        scoring = taken & self.watched
        if scoring:
            for card in codes_of(scoring):
                self.takers[card] = winner
        self.tricks_done += 1
        if self.log is not None:
            leader = self.leader
            players = self.players
            laid: list[Draw] = []
            for i, c in enumerate(self.trick):
                draw = _LAID[(leader + i) % players][c]
                assert draw is not None
                laid.append(draw)
            self.log.append(TrickWon(self.tricks_done, winner, tuple(laid)))
        self.trick = []
        if self.tricks_done == HAND_SIZE:
            self._score_hand()
        else:
            self.to_act = winner

    def _bid(self, code: int) -> None:
        if self.phase is _OVER:
            raise ValueError("the game is over")
        seat = self.to_act
        if code != PASS_CODE:
            amount = code - PASS_CODE
            self.stolen = amount == self.high_bid  # only the dealer's steal may equal the highest bid
            self.high_bid = amount
            self.pitcher = seat
            if self.log is not None:
                self.log.append(BidMade(seat, self.high_bid))
        elif self.log is not None:
            self.log.append(Passed(seat))
        if seat != self.dealer:
            self.to_act = self.next_seat[seat]
        elif self.pitcher is None:
            if self.log is not None:
                self.log.append(HandThrownIn(self.hand_number, self.dealer))
            self.dealer = self.next_seat[self.dealer]
            self._deal()
        else:
            self.phase = _PLAYING
            self.to_act = self.pitcher
            if self.log is not None:
                self.log.append(PitcherChosen(self.pitcher, self.high_bid))

    def _pitch(self, seat: int, trump: int) -> None:
        """The pitcher's first lead names ``trump``: the suits' members, the highest and lowest
        natural trumps in play, and the cards whose capture scores are known."""
        self.trump = trump
        tables = self.trump_tables = self.tables.by_trump[trump]
        self.suit_masks = tables.suit_masks
        self.trump_mask = tables.members
        self.extras = tables.extras
        self.lead_suit = tables.lead_suit
        self.lead_strength = tables.lead_strength
        self.high_card, self.low_card, self.watched = trump_ends(tables, self.dealt)
        if self.log is not None:
            self.log.append(TrumpPitched(seat, SUITS[trump]))

    def _draw_for_dealer(self) -> int:
        contenders = list(range(self.players))
        while True:
            deck = shuffled_deck(self.rng)
            draws = [(seat, deck[i]) for i, seat in enumerate(contenders)]
            if self.log is not None:
                self.log.append(CardsDrawn(tuple(Draw(s, CARDS[c]) for s, c in draws)))
            top = max(card % 13 for _, card in draws)
            contenders = [seat for seat, card in draws if card % 13 == top]
            if len(contenders) == 1:
                if self.log is not None:
                    self.log.append(DealerChosen(contenders[0]))
                return contenders[0]

    def _deal(self) -> None:
        """Shuffle, let the pone cut, and deal six to each seat, three at a time."""
        self.hand_number += 1
        rng = self.rng
        fresh = self.tables.deck
        deck = shuffled_deck(rng, fresh)
        size = len(fresh)
        cut = CUT_MIN + below(rng, size + 1 - 2 * CUT_MIN)  # randrange(CUT_MIN, len(fresh) + 1 - CUT_MIN)
        n = self.players
        hands = [0] * n
        position = cut  # the cut deck is the shuffled one from ``cut`` on, then its first ``cut`` (not made)
        for _ in range(HAND_SIZE // 3):
            seat = self.dealer
            for _ in range(n):
                seat = self.next_seat[seat]
                hands[seat] = (
                    hands[seat] | 1 << deck[position % size] | 1 << deck[(position + 1) % size]
                    | 1 << deck[(position + 2) % size]
                )
                position += 3
        self._start_hand(hands, cut)

    def _start_hand(self, hands: list[int], cut: int) -> None:
        n = self.players
        self.hands = hands
        self.dealt = tuple(hands)
        self.phase = _BIDDING
        self.to_act = self.next_seat[self.dealer]
        self.high_bid = 0
        self.stolen = False
        self.pitcher = None
        self.trump = None
        self.trump_tables = None
        self.high_card = self.low_card = None  # set when trump is named
        self.takers = {}
        self.watched = 0
        self.trick = []
        self.tricks_done = 0
        self.captured = [0] * len(self.scores)
        if self.log is not None:
            pone = (self.dealer - 1) % n
            self.log.append(
                HandDealt(self.hand_number, self.dealer, pone, cut, tuple(cards_of(h) for h in hands))
            )

    def _score_hand(self) -> None:
        """Score the hand's points (High, Low, the variant's card points, Game), apply the
        set-back and check for a winner."""
        rules = self.rules
        tables = self.trump_tables
        pitcher = self.pitcher
        assert tables is not None and pitcher is not None
        side_of = self.side_of
        takers = self.takers
        keep = self.log is not None
        sides = len(self.scores)
        points = [0] * sides
        awards: list[Award] = []
        high_card = self.high_card
        low_card = self.low_card
        high = low = low_taker = None
        if high_card is not None and low_card is not None:
            high = _holder(self.dealt, high_card)
            low = _holder(self.dealt, low_card)
            low_taker = takers[low_card]
            low_seat = low_taker if rules.low is _CAPTURED else low
            high_side, low_side = side_of[high], side_of[low_seat]
            points[high_side] = points[high_side] + 1  # (not +=, which mypyc leaves generic on a list's item)
            points[low_side] = points[low_side] + 1
            if keep:
                awards.append(Award(_HIGH, 1, high_side, high, CARD_AT[high_card]))
                awards.append(Award(_LOW, 1, low_side, low_seat, CARD_AT[low_card]))
        jack = None
        for point, value, card in tables.point_cards:
            taker = takers.get(card)
            if taker is not None:
                taker_side = side_of[taker]
                points[taker_side] = points[taker_side] + value
                if point is _JACK:
                    jack = taker
                if keep:
                    awards.append(Award(point, value, taker_side, taker, CARD_AT[card]))
        pips = [
            PIPS_BY_SUIT_BITS[m & SUIT_BITS]
            + PIPS_BY_SUIT_BITS[m >> 13 & SUIT_BITS]
            + PIPS_BY_SUIT_BITS[m >> 26 & SUIT_BITS]
            + PIPS_BY_SUIT_BITS[m >> 39 & SUIT_BITS]
            for m in self.captured
        ]
        pitcher_side = side_of[pitcher]
        best = _most(pips)
        game: int | None = None
        if best:
            leaders = [side for side in range(sides) if pips[side] == best]
            if len(leaders) == 1:
                game = leaders[0]
            elif pitcher_side in leaders:
                game = pitcher_side
        if game is not None:
            points[game] = points[game] + 1
            if keep:
                awards.append(Award(_GAME, 1, game, None, None))
        bid = self.high_bid
        made = points[pitcher_side] >= bid
        deltas = [0] * sides if rules.no_junk else points.copy()
        deltas[pitcher_side] = points[pitcher_side] if made else -bid
        scores = self.scores
        for side in range(sides):
            scores[side] = scores[side] + deltas[side]
        outcome = self._decide(pitcher_side, bid, made)
        if self.log is not None:
            result = HandResult(
                hand_number=self.hand_number, dealer=self.dealer, pitcher=pitcher, bid=bid,
                trump=SUITS[tables.trump], high=high, high_card=_card(high_card), low=low,
                low_card=_card(low_card), jack=jack, game=game, game_pips=tuple(pips),
                points=tuple(points), set_back=not made, deltas=tuple(deltas), scores=tuple(scores),
                stolen=self.stolen, low_captured_by=low_taker, awards=tuple(awards),
            )
            self.log.append(HandScored(result))
        if outcome is None:
            self.dealer = self.next_seat[self.dealer]
            self._deal()
        else:
            self.outcome = outcome
            self.phase = _OVER
            if self.log is not None:
                self.log.append(GameWon(outcome))

    def _decide(self, pitcher_side: int, bid: int, made: bool) -> Outcome | None:
        """RULES.md, "Winning" and the smudge option: who has won after this hand, if anyone."""
        scores = self.scores
        final = tuple(scores)
        if self.rules.smudge and bid == self.tables.rules.top_bid:
            if made:
                return Outcome(pitcher_side, WinReason.SMUDGE, self.hand_number, final)
            if len(scores) == 2:
                return Outcome(1 - pitcher_side, WinReason.SMUDGE_FAILED, self.hand_number, final)
        target = self.rules.target
        if scores[pitcher_side] >= target:
            return Outcome(pitcher_side, WinReason.PITCHER_REACHED_TARGET, self.hand_number, final)
        top = _most(scores)
        leaders = [side for side, score in enumerate(scores) if score == top]
        if len(leaders) > 1:
            return None
        if top >= target:
            return Outcome(leaders[0], WinReason.HIGHEST_SCORE, self.hand_number, final)
        limit = self.rules.hand_limit
        if limit is not None and self.hand_number >= limit:
            return Outcome(leaders[0], WinReason.HAND_LIMIT, self.hand_number, final)
        return None


def trump_ends(tables: TrumpTables, dealt: tuple[int, ...]) -> tuple[int | None, int | None, int]:
    """With ``tables``' suit trump and ``dealt`` the hands dealt (bit masks): the highest and the
    lowest natural trump in play (None when none was dealt) and the cards whose capture scores."""
    shift = SHIFT[tables.trump]
    union = 0
    for mask in dealt:
        union |= mask
    printed = union >> shift & SUIT_BITS
    high = low = None
    if printed:
        high = shift + printed.bit_length() - 1
        low = shift + (printed & -printed).bit_length() - 1
    if union & tables.off_bit:  # the off-card ranks among the printed trumps
        off = tables.off_bit.bit_length() - 1
        below = tables.below_off
        if not printed & ~below:
            high = off
        if not printed & below:
            low = off
    return high, low, tables.watched if low is None else tables.watched | 1 << low


def _holder(dealt: tuple[int, ...], card: int) -> int:
    """The seat dealt ``card`` (one was): a native loop, where a generator is an object a call."""
    for seat in range(len(dealt)):
        if dealt[seat] >> card & 1:
            return seat
    raise ValueError(f"card {card} was not dealt")


def _most(values: list[int]) -> int:
    """The largest of ``values`` (at least one): a native loop, where compiled ``max`` is
    Python's, looked up and called (some 1,700 to 3,200 instructions a call)."""
    most = values[0]
    for value in values:
        if value > most:  # noqa: PLR1730 (``max`` is the call this avoids)
            most = value
    return most


def _card(code: int | None) -> Card | None:
    return None if code is None else CARD_AT[code]
