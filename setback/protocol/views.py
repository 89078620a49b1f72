"""The server's wire views of a game, kept current from its events, and its decision lines."""

from __future__ import annotations

from typing import Any, Final, Literal

import msgspec

from setback.engine import (
    CARD_TEXT,
    BidMade,
    CardPlayed,
    DealerChosen,
    Event,
    GameWon,
    HandDealt,
    HandScored,
    HandThrownIn,
    Passed,
    PitcherChosen,
    Rules,
    Suit,
    TrickWon,
    TrumpPitched,
    trick_strengths,
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
    Decide,
    DecisionClock,
    SeatCard,
    WireBid,
    WireHandResult,
    WireOutcome,
    WireTrick,
    WireView,
)

KEPT_ENCODED = ("rules", "bids", "tricks", "scores", "last_result", "outcome")
"""View fields that change a few times a hand at most: a decision line reuses their JSON."""

_encoder: Final = msgspec.json.Encoder()
_CARD_TEXT: Final = CARD_TEXT
"""The engine's, held here: compiled, a name imported from a module that is not is looked up at each use."""


def _encoded_form(struct: type[msgspec.Struct], swap: dict[str, Any]) -> Any:
    """A type that encodes just as ``struct`` does, whose fields named in ``swap`` take the
    type given there instead (``msgspec.Raw``: JSON encoded beforehand). Made from
    ``struct`` itself, so the two cannot drift apart; built positionally, in the order of
    ``struct``'s fields (with 18 fields, keywords cost more than the encoding)."""
    config = struct.__struct_config__
    fields = [(f.name, swap.get(f.name, f.type)) for f in msgspec.structs.fields(struct)]
    return msgspec.defstruct(f"Encoded{struct.__name__}", fields, tag=config.tag, tag_field=config.tag_field, gc=False)


_EncodedView: Final = _encoded_form(WireView, dict.fromkeys(KEPT_ENCODED, msgspec.Raw))
_EncodedDecide: Final = _encoded_form(Decide, {"view": _EncodedView})


class WireViews:
    """Every seat's wire view of one game, kept current from the game's events.

    ``view(seat, ...)`` equals ``view_to_wire(game.view(seat))`` without building the
    engine's view first: the server's decision path. Feed :meth:`note` every event of
    the game, in order and unredacted, from the first (of a game dealt from its seed:
    the scores start at zero).

    Its lists are never changed in place, only replaced, so the views it hands out share
    them: a view stays as it was made, and must not be changed by whoever holds it.
    :meth:`decide_line` is the server's hot path: the same line as encoding a ``Decide``
    with :meth:`view`, with the fields that change a few times a hand kept encoded.
    """

    __slots__ = (
        "_best", "_encoded", "_strengths", "_trump", "_variant", "bid", "bids", "dealer", "hand_number", "hands",
        "last_result", "outcome", "phase", "pitcher", "results", "rules", "scores", "trick", "tricks", "trump",
        "winning",
    )

    def __init__(self, rules: Rules) -> None:
        self.rules = rules_to_wire(rules)
        self._variant = rules.variant
        self.phase: Literal["bidding", "playing", "game_over"] = "bidding"
        self.hand_number = 0
        self.dealer = 0
        self.hands: list[list[str]] = [[] for _ in range(rules.players)]
        self.bids: list[WireBid] = []
        self.pitcher: int | None = None
        self.bid: int | None = None
        self.trump: str | None = None
        self.trick: list[SeatCard] = []
        self._trump: Suit | None = None
        self.winning: int | None = None
        """The seat whose card wins the trick in play so far (None while no card is in it)."""
        self._strengths: tuple[int, ...] = ()
        """How strongly each card plays in the trick in play (the rule's, from its first card)."""
        self._best = 0
        """The strength of the card that wins the trick in play so far."""
        self.tricks: list[WireTrick] = []
        self.scores = [0] * rules.sides
        self.last_result: WireHandResult | None = None
        self.outcome: WireOutcome | None = None
        self.results: list[WireHandResult] = []
        """Every scored hand of the game, oldest first (a snapshot's score history)."""
        self._encoded: dict[str, msgspec.Raw] = {}
        """The :data:`KEPT_ENCODED` fields as JSON, each until it next changes."""

    def note(self, event: Event) -> None:
        kind = type(event)
        if kind is CardPlayed:
            assert isinstance(event, CardPlayed)
            seat = event.seat
            card: int = event.card  # as an int, it indexes the tables below natively
            text = _CARD_TEXT[card]
            hands = self.hands
            hand = hands[seat][:]  # a new list: views already made share the old one
            hand.remove(text)
            hands[seat] = hand
            if not self.trick:  # it leads: how strongly each card plays follows from it
                assert self._trump is not None  # the first card of the hand names it
                self._strengths = trick_strengths(card, self._trump, self._variant)
                self._best = -2  # below any card's, which the leader's beats
            self.trick = [*self.trick, SeatCard(seat, text)]
            strength = self._strengths[card]
            if strength > self._best:  # a card as strong as the best so far does not take it (winning_seat's rule)
                self._best = strength
                self.winning = seat
        elif kind is TrickWon:
            assert isinstance(event, TrickWon)
            self.tricks = [*self.tricks, trick_to_wire(event)]
            self.trick = []
            self.winning = None
            self._changed("tricks")
        elif kind is Passed or kind is BidMade:
            assert isinstance(event, (Passed, BidMade))  # a tuple: Passed | BidMade would make a union each time
            self.bids = [*self.bids, bid_to_wire(event)]
            self._changed("bids")
        elif kind is TrumpPitched:
            assert isinstance(event, TrumpPitched)
            self.trump = event.trump.letter
            self._trump = event.trump
        elif kind is PitcherChosen:
            assert isinstance(event, PitcherChosen)
            self.phase = "playing"
            self.pitcher = event.pitcher
            self.bid = event.bid
        elif kind is HandDealt:
            assert isinstance(event, HandDealt)
            self.phase = "bidding"
            self.hand_number = event.hand_number
            self.dealer = event.dealer
            self.hands = [[_CARD_TEXT[c] for c in cards] for cards in event.hands]
            self.bids = []
            self.pitcher = self.bid = self.trump = self._trump = self.winning = None
            self.trick = []
            self.tricks = []
            self._changed("bids")
            self._changed("tricks")
        elif kind is HandScored:
            assert isinstance(event, HandScored)
            self.last_result = result_to_wire(event.result)
            self.results.append(self.last_result)
            self.scores = list(event.result.scores)
            self._changed("last_result")
            self._changed("scores")
        elif kind is HandThrownIn:  # the previous hand has no result
            self.last_result = None
            self._changed("last_result")
        elif kind is GameWon:
            assert isinstance(event, GameWon)
            self.phase = "game_over"
            self.outcome = outcome_to_wire(event.outcome)
            self._changed("outcome")
        elif kind is DealerChosen:
            assert isinstance(event, DealerChosen)
            self.dealer = event.dealer

    def _changed(self, name: str) -> None:
        """The field ``name`` (one of :data:`KEPT_ENCODED`) changed: it is encoded again when next sent."""
        if name in self._encoded:  # not dict.pop, a method call by name to compiled code
            del self._encoded[name]

    def view(self, seat: int | None, to_act: int | None, legal: tuple[int, ...]) -> WireView:
        """``seat``'s view (None: a spectator's); ``to_act`` and the ``legal`` codes are the game's."""
        hands = self.hands
        return WireView(
            seat=seat,
            rules=self.rules,
            phase=self.phase,
            hand_number=self.hand_number,
            dealer=self.dealer,
            to_act=to_act,
            hand=hands[seat] if seat is not None else [],
            hand_sizes=list(map(len, hands)),
            bids=self.bids,
            pitcher=self.pitcher,
            bid=self.bid,
            trump=self.trump,
            trick=self.trick,
            tricks=self.tricks,
            scores=self.scores,
            last_result=self.last_result,
            legal=list(map(ACTION_TEXT.__getitem__, legal)) if seat is not None and seat == to_act else [],
            outcome=self.outcome,
            winning=self.winning,
        )

    def decide_line(self, table: str, request: int, seat: int, legal: tuple[int, ...], clock: DecisionClock) -> bytes:
        """The ``decide`` line asking ``seat`` (the seat to act) for one of the ``legal`` codes:
        ``encode(Decide(table=..., view=self.view(seat, seat, legal), ...))``, a little faster."""
        encoded = self._encoded
        if len(encoded) < len(KEPT_ENCODED):
            for name in KEPT_ENCODED:
                if name not in encoded:
                    encoded[name] = msgspec.Raw(_encoder.encode(getattr(self, name)))
        hands = self.hands
        view = _EncodedView(  # WireView's fields, in its order (tests/test_remote_bots.py checks every field)
            seat, encoded["rules"], self.phase, self.hand_number, self.dealer, seat, hands[seat],
            [len(hand) for hand in hands], encoded["bids"], self.pitcher, self.bid, self.trump, self.trick,
            encoded["tricks"], encoded["scores"], encoded["last_result"], [ACTION_TEXT[code] for code in legal],
            encoded["outcome"], self.winning,
        )
        return _encoder.encode_lines((_EncodedDecide(table, request, seat, view, clock),))
