"""The variants a table may play (RULES.md, "Variants"), each as data the engine reads.

A :class:`VariantRules` says a variant's deck (which jokers join the 52), the trump suit's
members and their order (the off-card, the jokers), the points a hand holds, the bid range,
the default target and which tables it refuses. Nothing else in the engine names a variant:
the tables of :mod:`setback.engine.tables` and the scoring of :mod:`setback.engine.state`
are built from these values.

A trump order is written high to low in slots: a rank name (``A`` .. ``2``) is that rank of
trump, ``off`` the off-card (the variant's ``off_rank`` in the other suit of trump's colour),
``JK``/``BJ``/``LJ`` a joker. A card point names the slot of the card that scores it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final

from setback.engine.cards import BIG_JOKER, CARDS, JOKER, LITTLE_JOKER, RANK_NAMES, Card, Suit

OFF: Final = "off"
"""The slot of the off-card in a trump order or a card point."""


class Variant(Enum):
    """The ``variant`` table option; the values are the wire's and the records' spelling."""

    STANDARD = "standard"
    """The seeds' four-point game (RULES.md, everything before "Variants")."""
    JOKER = "joker"
    """Hoyle's Auction Pitch with Joker: 53 cards, five points."""
    TEN_POINT = "ten_point"
    """Ten-point Pitch: 54 cards (big and little joker), the off-jack, ten points."""
    PEDRO = "pedro"
    """Partnership Pitch with fives: the off-five, nine points."""

    __hash__ = object.__hash__
    """By identity, as members compare (``Enum``'s own hashes the name in Python, and the
    engine's tables are looked up by variant)."""


class Point(Enum):
    """A point a hand may hold; the values are the wire's and the records' spelling (spec.md)."""

    HIGH = "high"
    LOW = "low"
    JACK = "jack"
    GAME = "game"
    JOKER = "joker"
    OFF_JACK = "off_jack"
    BIG_JOKER = "big_joker"
    LITTLE_JOKER = "little_joker"
    THREE = "three"
    FIVE = "five"
    OFF_FIVE = "off_five"

    __hash__ = object.__hash__
    """By identity, as :class:`Variant`'s."""

    @property
    def words(self) -> str:
        """The point for people: ``High``, ``Off-jack``, ``Big joker``, ``Three``."""
        return _WORDS[self]


_WORDS: Final = {
    Point.HIGH: "High", Point.LOW: "Low", Point.JACK: "Jack", Point.GAME: "Game",
    Point.JOKER: "Joker", Point.OFF_JACK: "Off-jack", Point.BIG_JOKER: "Big joker",
    Point.LITTLE_JOKER: "Little joker", Point.THREE: "Three", Point.FIVE: "Five",
    Point.OFF_FIVE: "Off-five",
}


@dataclass(frozen=True, slots=True)
class CardPoint:
    """``value`` points to the side that captures, in a trick, the card in ``slot``."""

    point: Point
    value: int
    slot: str


_NATURAL_ORDER: Final = tuple(reversed(RANK_NAMES))


@dataclass(frozen=True, slots=True)
class VariantRules:
    """What one variant changes (RULES.md, "Variants"); every other rule is the standard game's.

    ``jokers`` join the 52 natural cards (the deck is the 52 in index order, then these).
    ``trump_order`` is the trump suit's members high to low (see the module docstring);
    jokers are trump but never natural: they are never High or Low and count 0 for Game.
    ``card_points`` are the points won by capturing a card; High, Low and Game (1 each) are
    in every variant. ``lowest_bid`` is the lowest bid when the variant fixes it (the
    ``min_bid`` option is then refused), None when ``min_bid`` applies; ``top_bid`` is the
    highest bid and the smudge bid. ``partnerships_only`` refuses a cutthroat table.
    """

    variant: Variant
    jokers: tuple[Card, ...]
    off_rank: int | None
    trump_order: tuple[str, ...]
    card_points: tuple[CardPoint, ...]
    lowest_bid: int | None
    top_bid: int
    default_target: int
    partnerships_only: bool = False

    @property
    def deck(self) -> tuple[Card, ...]:
        """The variant's cards: the 52 in index order, then its jokers."""
        return (*CARDS, *self.jokers)

    @property
    def points_named(self) -> tuple[Point, ...]:
        """Every point a hand may hold, in the order results list them."""
        return (Point.HIGH, Point.LOW, *(p.point for p in self.card_points), Point.GAME)

    @property
    def most_points(self) -> int:
        """The points a hand holds when every point card is dealt."""
        return 3 + sum(p.value for p in self.card_points)

    def off_card(self, trump: Suit) -> Card | None:
        """The off-card when ``trump`` is trump: ``off_rank`` of the other suit of its colour."""
        if self.off_rank is None:
            return None
        return Card.of(self.off_rank, Suit(trump ^ 3))  # C<->S, D<->H

    def slot_card(self, slot: str, trump: Suit) -> Card:
        """The card in ``slot`` of the trump order when ``trump`` is trump."""
        if slot == OFF:
            off = self.off_card(trump)
            if off is None:
                raise ValueError(f"{self.variant.value} has no off-card")
            return off
        if slot in RANK_NAMES:
            return Card.of(2 + RANK_NAMES.index(slot), trump)
        return Card.parse(slot)

    def trumps(self, trump: Suit) -> tuple[Card, ...]:
        """The trump suit's members when ``trump`` is trump, highest first."""
        return tuple(self.slot_card(slot, trump) for slot in self.trump_order)


def _with(*inserted: tuple[str, str]) -> tuple[str, ...]:
    """The natural ranks high to low, each ``(after, slot)`` putting ``slot`` right after rank ``after``."""
    order = list(_NATURAL_ORDER)
    for after, slot in inserted:
        order.insert(order.index(after) + 1, slot)
    return tuple(order)


VARIANTS: Final = {
    Variant.STANDARD: VariantRules(
        Variant.STANDARD, jokers=(), off_rank=None, trump_order=_NATURAL_ORDER,
        card_points=(CardPoint(Point.JACK, 1, "J"),), lowest_bid=None, top_bid=4, default_target=11,
    ),
    Variant.JOKER: VariantRules(
        Variant.JOKER, jokers=(JOKER,), off_rank=None, trump_order=(*_NATURAL_ORDER, str(JOKER)),
        card_points=(CardPoint(Point.JACK, 1, "J"), CardPoint(Point.JOKER, 1, str(JOKER))),
        lowest_bid=None, top_bid=5, default_target=10,
    ),
    Variant.TEN_POINT: VariantRules(
        Variant.TEN_POINT, jokers=(BIG_JOKER, LITTLE_JOKER), off_rank=11,
        trump_order=_with(("J", OFF), (OFF, str(BIG_JOKER)), (str(BIG_JOKER), str(LITTLE_JOKER))),
        card_points=(
            CardPoint(Point.JACK, 1, "J"), CardPoint(Point.OFF_JACK, 1, OFF),
            CardPoint(Point.BIG_JOKER, 1, str(BIG_JOKER)), CardPoint(Point.LITTLE_JOKER, 1, str(LITTLE_JOKER)),
            CardPoint(Point.THREE, 3, "3"),
        ),
        lowest_bid=4, top_bid=10, default_target=21,
    ),
    Variant.PEDRO: VariantRules(
        Variant.PEDRO, jokers=(), off_rank=5, trump_order=_with(("5", OFF)),
        card_points=(CardPoint(Point.JACK, 1, "J"), CardPoint(Point.FIVE, 2, "5"), CardPoint(Point.OFF_FIVE, 3, OFF)),
        lowest_bid=None, top_bid=9, default_target=31, partnerships_only=True,
    ),
}
"""Each variant's rules, read by the engine's tables and scoring."""

TOP_BID: Final = max(v.top_bid for v in VARIANTS.values())
"""The highest bid of any variant (the action codes cover bids up to it)."""
