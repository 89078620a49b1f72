"""Cards and lines as Rich text: suit symbols, a four-colour deck, and a letters-only form.

Without colour (``NO_COLOR``) every suit is still told apart by its symbol; with
``ascii`` the suit letter (``10H``) replaces the symbol for terminals without the glyphs.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text

from setback.engine import VARIANTS, Card, Suit, Variant, is_trump, suit_of
from setback.telling.story import Line, card_label

__all__ = ["SUIT_CYCLE", "SUIT_STYLES", "card_label", "card_text", "clock_label", "held_order", "line_text",
           "sorted_hand", "suit_label", "suit_order"]

SUIT_STYLES = {
    Suit.SPADES: "bold",
    Suit.HEARTS: "bold red1",
    Suit.CLUBS: "bold green3",
    Suit.DIAMONDS: "bold dodger_blue1",
}
"""A four-colour deck: no two suits share a colour."""

SUIT_CYCLE = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
"""Black and red suits alternate in this order."""


def suit_label(suit: Suit, ascii: bool = False) -> str:
    return suit.letter if ascii else f"{suit.symbol} {suit.letter}"


JOKER_STYLE = "bold"
"""A joker's style: it has no printed suit, so no suit's colour."""


def card_text(card: Card, ascii: bool = False, trump: Suit | None = None,
              variant: Variant = Variant.STANDARD) -> Text:
    """A card in its suit's colour; once ``trump`` is known, a card that belongs to trump in
    ``variant`` though another suit (or none) is printed on it, the off-jack, the off-five or a
    joker, in trump's colour."""
    if trump is not None and is_trump(card, trump, variant):
        style = SUIT_STYLES[trump]
    else:
        style = JOKER_STYLE if card.is_joker else SUIT_STYLES[card.suit]
    return Text(card_label(card, ascii), style=style)


def line_text(line: Line, ascii: bool = False, style: str = "") -> Text:
    """A story line with each card drawn in its suit's colour."""
    text = Text(style=style)
    for part in line:
        if isinstance(part, Card):
            text.append_text(card_text(part, ascii))
        else:
            text.append(part)
    return text


def suit_order(trump: Suit | None) -> list[Suit]:
    """The order suits are shown in: trump first when it is known, colours alternating."""
    start = SUIT_CYCLE.index(trump) if trump is not None else 0
    return [SUIT_CYCLE[(start + i) % 4] for i in range(4)]


def sorted_hand(cards: Iterable[Card], trump: Suit | None, variant: Variant = Variant.STANDARD) -> list[Card]:
    """A hand as a person holds it: grouped by suit, high cards first. Once ``trump`` is known,
    trump comes first in ``variant``'s trump order, with the cards that belong to it (the
    off-jack, the off-five, the jokers); before, each card sorts in its printed suit and the
    jokers come last."""
    order = suit_order(trump)
    if trump is None:
        return sorted(cards, key=lambda c: (4, int(c)) if c.is_joker else (order.index(c.suit), -c.rank))
    trumps = VARIANTS[variant].trumps(trump)

    def place(card: Card) -> tuple[int, int]:
        if card in trumps:
            return 0, trumps.index(card)
        return order.index(suit_of(card, trump, variant)), -card.rank

    return sorted(cards, key=place)


def held_order(cards: Iterable[Card], trump: Suit | None, variant: Variant) -> list[Card]:
    """The places of a hand on the table screen: as dealt, sorted by printed suit (see
    :func:`sorted_hand`), so that a number key keeps its card all hand; but in a variant whose
    trump takes in cards of another printed suit or none (the off-jack, the off-five, the
    jokers), sorted once more when trump is named, so that those cards sit with trump."""
    rules = VARIANTS[variant]
    adopts = bool(rules.jokers) or rules.off_rank is not None
    return sorted_hand(cards, trump if adopts else None, variant)


def clock_label(seconds: float | None) -> str:
    """``0:42``; empty without a clock."""
    if seconds is None:
        return ""
    whole = int(seconds + 0.999)
    return f"{whole // 60}:{whole % 60:02d}"
