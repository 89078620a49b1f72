"""What happens in a game, as typed values.

The engine appends one event per thing that happens to the game's log. Only
:class:`HandDealt` holds hidden information (every seat's cards); use
:func:`setback.engine.redact` before showing an event to a seat or a spectator.
"""

from __future__ import annotations

from enum import Enum
from typing import ClassVar, Final

from setback.engine.cards import Card, Suit
from setback.engine.variants import Point


class Phase(Enum):
    """Where a game stands; the only phases in which an action is taken are BIDDING and PLAYING."""

    BIDDING = "bidding"
    """Seats bid in turn, eldest first, dealer last."""
    PLAYING = "playing"
    """Tricks are played; the pitcher leads the first and its suit is trump."""
    GAME_OVER = "game_over"
    """The game is decided; no action is legal."""


class WinReason(Enum):
    """Why a game ended."""

    PITCHER_REACHED_TARGET = "pitcher_reached_target"
    """The pitcher's side reached the target: it wins even if others did too."""
    HIGHEST_SCORE = "highest_score"
    """Other sides reached the target and this one has the highest score alone."""
    SMUDGE = "smudge"
    """(smudge option) The pitcher made the top bid (4; a variant's own) and made it."""
    SMUDGE_FAILED = "smudge_failed"
    """(smudge option, two sides) The pitcher made the top bid and failed, losing at once."""
    HAND_LIMIT = "hand_limit"
    """The table's hand limit was reached and this side has the highest score alone."""


class Value:
    """An immutable value made of the fields ``__match_args__`` names, in that order: equal to a
    value of its own class with equal fields, hashed by them, shown as its constructor's call
    (as a frozen dataclass is). Each subclass states its fields as ``Final`` attributes set
    once in its ``__init__``: compiled, the engine makes one with a native call (a dataclass's
    ``__init__`` would stay Python), and its fields cannot be assigned."""

    __slots__ = ()
    __match_args__: ClassVar[tuple[str, ...]] = ()

    def fields(self) -> tuple[object, ...]:
        """The fields' values, in the order of ``__match_args__``."""
        return tuple([getattr(self, name) for name in self.__match_args__])

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Value)
        return self.fields() == other.fields()

    def __hash__(self) -> int:
        return hash(self.fields())

    def __repr__(self) -> str:
        shown = ", ".join([f"{name}={getattr(self, name)!r}" for name in self.__match_args__])
        return f"{type(self).__qualname__}({shown})"


class Draw(Value):
    """One card drawn for the first deal."""

    __match_args__ = ("seat", "card")
    __slots__ = __match_args__
    seat: Final[int]
    card: Final[Card]

    def __init__(self, seat: int, card: Card) -> None:
        self.seat = seat
        self.card = card


class CardsDrawn(Value):
    """One public round of the draw for first dealer (ties draw again from a new deck)."""

    __match_args__ = ("draws",)
    __slots__ = __match_args__
    draws: Final[tuple[Draw, ...]]

    def __init__(self, draws: tuple[Draw, ...]) -> None:
        self.draws = draws


class DealerChosen(Value):
    """The highest draw deals the first hand."""

    __match_args__ = ("dealer",)
    __slots__ = __match_args__
    dealer: Final[int]

    def __init__(self, dealer: int) -> None:
        self.dealer = dealer


class HandDealt(Value):
    """Six cards to each seat, three at a time from the dealer's left, after the pone's cut.

    ``hands[s]`` is seat ``s``'s cards; a redacted copy holds only the viewer's own
    (the other seats' entries are empty). ``cut`` is how many cards the pone lifted.
    """

    __match_args__ = ("hand_number", "dealer", "pone", "cut", "hands")
    __slots__ = __match_args__
    hand_number: Final[int]
    dealer: Final[int]
    pone: Final[int]
    cut: Final[int]
    hands: Final[tuple[tuple[Card, ...], ...]]

    def __init__(
        self,
        hand_number: int,
        dealer: int,
        pone: int,
        cut: int,
        hands: tuple[tuple[Card, ...], ...],
    ) -> None:
        self.hand_number = hand_number
        self.dealer = dealer
        self.pone = pone
        self.cut = cut
        self.hands = hands


class Passed(Value):
    __match_args__ = ("seat",)
    __slots__ = __match_args__
    seat: Final[int]

    def __init__(self, seat: int) -> None:
        self.seat = seat


class BidMade(Value):
    __match_args__ = ("seat", "amount")
    __slots__ = __match_args__
    seat: Final[int]
    amount: Final[int]

    def __init__(self, seat: int, amount: int) -> None:
        self.seat = seat
        self.amount = amount


class HandThrownIn(Value):
    """Everyone passed with the forced bid off: no score changes, the deal passes left."""

    __match_args__ = ("hand_number", "dealer")
    __slots__ = __match_args__
    hand_number: Final[int]
    dealer: Final[int]

    def __init__(self, hand_number: int, dealer: int) -> None:
        self.hand_number = hand_number
        self.dealer = dealer


class PitcherChosen(Value):
    """Bidding is over; ``pitcher`` leads and must make ``bid`` points."""

    __match_args__ = ("pitcher", "bid")
    __slots__ = __match_args__
    pitcher: Final[int]
    bid: Final[int]

    def __init__(self, pitcher: int, bid: int) -> None:
        self.pitcher = pitcher
        self.bid = bid


class TrumpPitched(Value):
    """The pitcher's first lead names trump for the hand."""

    __match_args__ = ("seat", "trump")
    __slots__ = __match_args__
    seat: Final[int]
    trump: Final[Suit]

    def __init__(self, seat: int, trump: Suit) -> None:
        self.seat = seat
        self.trump = trump


class CardPlayed(Value):
    __match_args__ = ("seat", "card")
    __slots__ = __match_args__
    seat: Final[int]
    card: Final[Card]

    def __init__(self, seat: int, card: Card) -> None:
        self.seat = seat
        self.card = card


class TrickWon(Value):
    """A completed trick; ``plays`` are in playing order, from the leader."""

    __match_args__ = ("trick_number", "winner", "plays")
    __slots__ = __match_args__
    trick_number: Final[int]
    winner: Final[int]
    plays: Final[tuple[Draw, ...]]

    def __init__(self, trick_number: int, winner: int, plays: tuple[Draw, ...]) -> None:
        self.trick_number = trick_number
        self.winner = winner
        self.plays = plays


class Award(Value):
    """One point of a hand won (RULES.md, "Scoring a hand" and "Variants"): ``value`` to ``side``.
    ``seat`` is the player dealt the card (High, and Low with ``low`` dealt) or the one who
    captured it in a trick (Low with ``low`` captured, and every card point); None for Game,
    which a side's count wins. ``card`` is the card that scored (None for Game)."""

    __match_args__ = ("point", "value", "side", "seat", "card")
    __slots__ = __match_args__
    point: Final[Point]
    value: Final[int]
    side: Final[int]
    seat: Final[int | None]
    card: Final[Card | None]

    def __init__(self, point: Point, value: int, side: int, seat: int | None, card: Card | None) -> None:
        self.point = point
        self.value = value
        self.side = side
        self.seat = seat
        self.card = card


class HandResult(Value):
    """The scoring of one played hand (RULES.md, "Scoring a hand" and "Variants").

    ``high`` and ``low`` are the seats that were dealt the highest and lowest natural trump
    (None, with their cards, when no natural trump was dealt: a pitched joker can do that);
    ``jack`` is the seat that captured the jack of trump (None when it was not dealt);
    ``game`` is the side that took Game (None when nobody did). ``points`` are what each
    side won, ``deltas`` what each side's score changed by, ``scores`` the scores after.

    ``stolen`` says the pitcher is the dealer who took the bid at the highest bid so far
    (``dealer_steal``). ``low_captured_by`` is the seat that captured the lowest trump in a
    trick (every dealt card is played, so some seat did); Low's point goes to its side with
    ``low`` captured, to the side of ``low`` otherwise. None only in a result read from a
    peer that does not report it.

    ``awards`` lists every point won, by name, in the order the variant lists its points
    (High, Low, the card points, Game); ``points`` are their sums by side. Empty only in a
    result read from a peer that does not report it.
    """

    __match_args__ = (
        "hand_number", "dealer", "pitcher", "bid", "trump", "high", "high_card", "low", "low_card", "jack",
        "game", "game_pips", "points", "set_back", "deltas", "scores", "stolen", "low_captured_by", "awards",
    )
    __slots__ = __match_args__
    hand_number: Final[int]
    dealer: Final[int]
    pitcher: Final[int]
    bid: Final[int]
    trump: Final[Suit]
    high: Final[int | None]
    high_card: Final[Card | None]
    low: Final[int | None]
    low_card: Final[Card | None]
    jack: Final[int | None]
    game: Final[int | None]
    game_pips: Final[tuple[int, ...]]
    points: Final[tuple[int, ...]]
    set_back: Final[bool]
    deltas: Final[tuple[int, ...]]
    scores: Final[tuple[int, ...]]
    stolen: Final[bool]
    low_captured_by: Final[int | None]
    awards: Final[tuple[Award, ...]]

    def __init__(
        self,
        hand_number: int,
        dealer: int,
        pitcher: int,
        bid: int,
        trump: Suit,
        high: int | None,
        high_card: Card | None,
        low: int | None,
        low_card: Card | None,
        jack: int | None,
        game: int | None,
        game_pips: tuple[int, ...],
        points: tuple[int, ...],
        set_back: bool,
        deltas: tuple[int, ...],
        scores: tuple[int, ...],
        stolen: bool = False,
        low_captured_by: int | None = None,
        awards: tuple[Award, ...] = (),
    ) -> None:
        self.hand_number = hand_number
        self.dealer = dealer
        self.pitcher = pitcher
        self.bid = bid
        self.trump = trump
        self.high = high
        self.high_card = high_card
        self.low = low
        self.low_card = low_card
        self.jack = jack
        self.game = game
        self.game_pips = game_pips
        self.points = points
        self.set_back = set_back
        self.deltas = deltas
        self.scores = scores
        self.stolen = stolen
        self.low_captured_by = low_captured_by
        self.awards = awards


class HandScored(Value):
    __match_args__ = ("result",)
    __slots__ = __match_args__
    result: Final[HandResult]

    def __init__(self, result: HandResult) -> None:
        self.result = result


class Outcome(Value):
    """How a game ended: the winning side, why, the hands dealt (thrown in too), the final scores."""

    __match_args__ = ("winner", "reason", "hands_dealt", "scores")
    __slots__ = __match_args__
    winner: Final[int]
    reason: Final[WinReason]
    hands_dealt: Final[int]
    scores: Final[tuple[int, ...]]

    def __init__(self, winner: int, reason: WinReason, hands_dealt: int, scores: tuple[int, ...]) -> None:
        self.winner = winner
        self.reason = reason
        self.hands_dealt = hands_dealt
        self.scores = scores


class GameWon(Value):
    __match_args__ = ("outcome",)
    __slots__ = __match_args__
    outcome: Final[Outcome]

    def __init__(self, outcome: Outcome) -> None:
        self.outcome = outcome


Event = (
    CardsDrawn
    | DealerChosen
    | HandDealt
    | Passed
    | BidMade
    | HandThrownIn
    | PitcherChosen
    | TrumpPitched
    | CardPlayed
    | TrickWon
    | HandScored
    | GameWon
)
