"""What happens in a game, as typed values.

The engine appends one event per thing that happens to the game's log. Only
:class:`HandDealt` holds hidden information (every seat's cards); use
:func:`setback.engine.redact` before showing an event to a seat or a spectator.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

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


@dataclass(frozen=True, slots=True)
class Draw:
    """One card drawn for the first deal."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class CardsDrawn:
    """One public round of the draw for first dealer (ties draw again from a new deck)."""

    draws: tuple[Draw, ...]


@dataclass(frozen=True, slots=True)
class DealerChosen:
    """The highest draw deals the first hand."""

    dealer: int


@dataclass(frozen=True, slots=True)
class HandDealt:
    """Six cards to each seat, three at a time from the dealer's left, after the pone's cut.

    ``hands[s]`` is seat ``s``'s cards; a redacted copy holds only the viewer's own
    (the other seats' entries are empty). ``cut`` is how many cards the pone lifted.
    """

    hand_number: int
    dealer: int
    pone: int
    cut: int
    hands: tuple[tuple[Card, ...], ...]


@dataclass(frozen=True, slots=True)
class Passed:
    seat: int


@dataclass(frozen=True, slots=True)
class BidMade:
    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class HandThrownIn:
    """Everyone passed with the forced bid off: no score changes, the deal passes left."""

    hand_number: int
    dealer: int


@dataclass(frozen=True, slots=True)
class PitcherChosen:
    """Bidding is over; ``pitcher`` leads and must make ``bid`` points."""

    pitcher: int
    bid: int


@dataclass(frozen=True, slots=True)
class TrumpPitched:
    """The pitcher's first lead names trump for the hand."""

    seat: int
    trump: Suit


@dataclass(frozen=True, slots=True)
class CardPlayed:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class TrickWon:
    """A completed trick; ``plays`` are in playing order, from the leader."""

    trick_number: int
    winner: int
    plays: tuple[Draw, ...]


@dataclass(frozen=True, slots=True)
class Award:
    """One point of a hand won (RULES.md, "Scoring a hand" and "Variants"): ``value`` to ``side``.
    ``seat`` is the player dealt the card (High, and Low with ``low`` dealt) or the one who
    captured it in a trick (Low with ``low`` captured, and every card point); None for Game,
    which a side's count wins. ``card`` is the card that scored (None for Game)."""

    point: Point
    value: int
    side: int
    seat: int | None
    card: Card | None


@dataclass(frozen=True, slots=True)
class HandResult:
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

    hand_number: int
    dealer: int
    pitcher: int
    bid: int
    trump: Suit
    high: int | None
    high_card: Card | None
    low: int | None
    low_card: Card | None
    jack: int | None
    game: int | None
    game_pips: tuple[int, ...]
    points: tuple[int, ...]
    set_back: bool
    deltas: tuple[int, ...]
    scores: tuple[int, ...]
    stolen: bool = False
    low_captured_by: int | None = None
    awards: tuple[Award, ...] = ()


@dataclass(frozen=True, slots=True)
class HandScored:
    result: HandResult


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: the winning side, why, the hands dealt (thrown in too), the final scores."""

    winner: int
    reason: WinReason
    hands_dealt: int
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameWon:
    outcome: Outcome


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
