"""Hands as bit masks, and the shuffle: the engine's card arithmetic, on its hot path.

A hand is an ``int`` with bit ``card`` set for each card it holds (see
:mod:`setback.engine.cards`); :func:`shuffled_deck` deals every hand from a game's seed.
"""

from __future__ import annotations

import random
from typing import Final

from setback.engine.cards import CARDS, Card


def _suit_cards(suit: int) -> tuple[tuple[Card, ...], ...]:
    return tuple(
        tuple(CARDS[13 * suit + i] for i in range(13) if bits >> i & 1) for bits in range(1 << 13)
    )


_BY_SUIT_BITS: Final = tuple(_suit_cards(suit) for suit in range(4))


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards whose bits are set in ``mask``, in index order."""
    clubs, diamonds, hearts, spades = _BY_SUIT_BITS
    return clubs[mask & 0x1FFF] + diamonds[mask >> 13 & 0x1FFF] + hearts[mask >> 26 & 0x1FFF] + spades[mask >> 39]


def mask_of(cards: tuple[int, ...] | list[int]) -> int:
    """The bit mask of ``cards``."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


_SHUFFLE_STEPS: Final = tuple((i, (i + 1).bit_length()) for i in range(51, 0, -1))
"""Each step of the shuffle: the position ``i`` and how many bits draw a position up to ``i``."""


def shuffled_deck(rng: random.Random) -> list[int]:
    """The cards ``0..51`` shuffled as ``rng.shuffle(list(range(52)))`` does, drawing the
    same bits in the same order (spec.md section 4 writes the steps out): for ``i`` from 51
    down to 1, swap ``i`` with ``j``, where ``j`` is ``rng.getrandbits(k)`` with ``k`` the
    bit length of ``i + 1``, drawn again until it is at most ``i``. One loop, no call per card."""
    deck = list(range(52))
    draw = rng.getrandbits
    for i, k in _SHUFFLE_STEPS:
        j = draw(k)
        while j > i:
            j = draw(k)
        deck[i], deck[j] = deck[j], deck[i]
    return deck
