"""Precomputed lookup tables for the fast core (built once at import)."""

from __future__ import annotations

from typing import Final

from setback.engine.cards import GAME_PIPS, JACK

SUIT_BITS: Final = 0x1FFF
"""The 13 bits of one suit, before shifting by ``13 * suit``."""

SUIT_MASK: Final = tuple(SUIT_BITS << (13 * s) for s in range(4))
"""Each suit's cards as a 52-bit mask."""

SHIFT: Final = (0, 13, 26, 39)


def _cards_of_suit(suit: int) -> tuple[tuple[int, ...], ...]:
    base = 13 * suit
    return tuple(
        tuple(base + i for i in range(13) if bits >> i & 1) for bits in range(SUIT_BITS + 1)
    )


PLAYS_BY_SUIT: Final = tuple(_cards_of_suit(s) for s in range(4))
"""``PLAYS_BY_SUIT[suit][bits]``: the card codes of a suit's 13-bit mask, ascending."""

PIPS_BY_SUIT_BITS: Final = tuple(
    sum(GAME_PIPS.get(i + 2, 0) for i in range(13) if bits >> i & 1) for bits in range(SUIT_BITS + 1)
)
"""Game pips of a suit's 13-bit mask (the same for every suit)."""


def _strength(trump: int, led: int) -> tuple[int, ...]:
    """How strongly each card wins a trick with this trump and suit led (higher wins)."""
    out = []
    for card in range(52):
        suit, rank = divmod(card, 13)
        out.append(100 + rank if suit == trump else rank if suit == led else -1)
    return tuple(out)


STRENGTH: Final = tuple(_strength(t, led) for t in range(4) for led in range(4))
"""``STRENGTH[4 * trump + led][card]``."""

JACK_OF: Final = tuple(13 * s + JACK - 2 for s in range(4))
"""The jack's card code in each suit."""
