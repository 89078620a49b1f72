"""Precomputed lookup tables for the fast core, one set per variant and trump (built once at import).

Everything here is derived from :data:`setback.engine.variants.VARIANTS`: which cards
belong to which suit once trump is named (the off-card and the jokers join trump), how
strongly each card wins a trick, which cards are natural trumps (for High and Low), which
score when captured. Tables indexed by a card are indexed by its code (0-51 and 63-65);
the codes between hold nothing a card may reach. Card codes in these tables are plain
``int`` (not :class:`~setback.engine.Card`): the fast core indexes tuples with them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from setback.engine.cards import GAME_PIPS, JOKER_CODES, Suit
from setback.engine.variants import VARIANTS, Point, VariantRules

CODES: Final = JOKER_CODES[-1] + 1
"""The length of a table indexed by card code."""

JOKER_SHIFT: Final = JOKER_CODES[0]
"""The bit of the first joker; a mask's jokers are ``mask >> JOKER_SHIFT``."""

SUIT_BITS: Final = 0x1FFF
"""The 13 bits of one suit, before shifting by ``13 * suit``."""

SUIT_MASK: Final = tuple(SUIT_BITS << (13 * s) for s in range(4))
"""Each suit's printed cards as a bit mask."""

SHIFT: Final[tuple[int, ...]] = (0, 13, 26, 39)
"""Where each suit's 13 bits start in a hand's mask. (A tuple of any length: compiled, a tuple of
four ints is kept as four machine ints, and indexing it by a variable makes a tuple object first.)"""


def _cards_of_suit(suit: int) -> tuple[tuple[int, ...], ...]:
    base = 13 * suit
    return tuple(
        tuple(base + i for i in range(13) if bits >> i & 1) for bits in range(SUIT_BITS + 1)
    )


PLAYS_BY_SUIT: Final = tuple(_cards_of_suit(s) for s in range(4))
"""``PLAYS_BY_SUIT[suit][bits]``: the card codes of a suit's 13-bit mask, ascending."""

PLAYS_BY_JOKER_BITS: Final = tuple(
    tuple(JOKER_SHIFT + i for i in range(len(JOKER_CODES)) if bits >> i & 1) for bits in range(1 << len(JOKER_CODES))
)
"""``PLAYS_BY_JOKER_BITS[mask >> JOKER_SHIFT]``: the joker codes of a mask, ascending."""


def codes_of(mask: int) -> tuple[int, ...]:
    """The card codes whose bits are set in ``mask``, ascending (the jokers last)."""
    clubs, diamonds, hearts, spades = PLAYS_BY_SUIT
    return (
        clubs[mask & SUIT_BITS] + diamonds[mask >> 13 & SUIT_BITS] + hearts[mask >> 26 & SUIT_BITS]
        + spades[mask >> 39 & SUIT_BITS] + PLAYS_BY_JOKER_BITS[mask >> JOKER_SHIFT]
    )


PIPS_BY_SUIT_BITS: Final = tuple(
    sum(GAME_PIPS.get(i + 2, 0) for i in range(13) if bits >> i & 1) for bits in range(SUIT_BITS + 1)
)
"""Game pips of a suit's 13-bit mask (the same for every suit; jokers count 0, an off-jack 1)."""


@dataclass(frozen=True, slots=True)
class TrumpTables:
    """One variant's tables once ``trump`` is named.

    ``suit_masks[s]`` are the cards that belong to suit ``s``: trump's members for trump
    (its printed cards, the off-card, the jokers), the printed suit less any member of
    trump otherwise; ``extras`` are trump's members printed elsewhere (or jokers), 0 in the
    standard game. ``lead_suit[card]`` is the suit a trick led by ``card`` asks to follow,
    and ``lead_strength[card][other]`` how strongly ``other`` wins that trick (higher wins;
    -1 never wins). ``off_bit`` is the off-card's bit (0 without one) and ``below_off`` the
    13-bit mask of printed trump ranks below it: with these, the highest and lowest natural
    trump dealt (jokers are not natural) are found from bit lengths alone.
    ``point_cards`` are the cards scored by capture: (point, value, card code); ``watched``
    is their bit mask.
    """

    trump: int
    members: int
    extras: int
    suit_masks: tuple[int, ...]
    """Four of them, by suit (of any length to mypyc: see :data:`SHIFT`)."""
    lead_suit: tuple[int, ...]
    lead_strength: tuple[tuple[int, ...], ...]
    off_bit: int
    below_off: int
    point_cards: tuple[tuple[Point, int, int], ...]
    watched: int


def _trump_tables(rules: VariantRules, trump: Suit) -> TrumpTables:
    order = rules.trumps(trump)  # highest first
    members = 0
    for card in order:
        members |= 1 << card
    masks = tuple(members if s == trump else SUIT_MASK[s] & ~members for s in range(4))
    suit_of = [c // 13 if c < 52 and not members >> c & 1 else int(trump) for c in range(CODES)]  # no card: trump
    place = {int(card): len(order) - i for i, card in enumerate(order)}
    by_led = tuple(
        tuple(
            100 + place[c] if c in place else (c % 13 if c < 52 and suit_of[c] == led else -1)
            for c in range(CODES)
        )
        for led in range(4)
    )
    off = rules.off_card(trump)
    off_bit = 0 if off is None else 1 << off
    below_off = 0 if off is None else sum(1 << i for i in range(13) if place[13 * trump + i] < place[int(off)])
    points = tuple((p.point, p.value, int(rules.slot_card(p.slot, trump))) for p in rules.card_points)
    watched = 0
    for _, _, code in points:
        watched |= 1 << code
    return TrumpTables(
        trump=int(trump), members=members, extras=members & ~SUIT_MASK[trump],
        suit_masks=(masks[0], masks[1], masks[2], masks[3]), lead_suit=tuple(suit_of),
        lead_strength=tuple(by_led[suit_of[c]] for c in range(CODES)), off_bit=off_bit,
        below_off=below_off, point_cards=points, watched=watched,
    )


@dataclass(frozen=True, slots=True)
class VariantTables:
    """A variant's tables: its deck, what a pitched card makes trump, and each trump's tables."""

    rules: VariantRules
    deck: tuple[int, ...]
    deck_mask: int
    pitch_suit: tuple[int, ...]
    by_trump: tuple[TrumpTables, ...]


def _variant_tables(rules: VariantRules) -> VariantTables:
    deck = (*range(52), *(int(j) for j in rules.jokers))
    mask = 0
    for code in deck:
        mask |= 1 << code
    pitch = tuple(Suit.SPADES if c >= 52 else c // 13 for c in range(CODES))  # a pitched joker makes spades trump
    return VariantTables(rules, deck, mask, pitch, tuple(_trump_tables(rules, Suit(t)) for t in range(4)))


TABLES: Final = {variant: _variant_tables(rules) for variant, rules in VARIANTS.items()}
"""Each variant's tables."""
