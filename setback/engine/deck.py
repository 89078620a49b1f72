"""Hands as bit masks, and the shuffle: the engine's card arithmetic, on its hot path.

A hand is an ``int`` with bit ``card`` set for each card it holds (see
:mod:`setback.engine.cards`; the jokers are bits 63-65); :func:`shuffled_deck` deals every
hand from a game's seed.
"""

from __future__ import annotations

import random
from typing import Final

from setback.engine.cards import CARD_AT, CARDS, JOKER_CODES, Card


def _suit_cards(suit: int) -> tuple[tuple[Card, ...], ...]:
    return tuple(
        tuple(CARDS[13 * suit + i] for i in range(13) if bits >> i & 1) for bits in range(1 << 13)
    )


_BY_SUIT_BITS: Final = tuple(_suit_cards(suit) for suit in range(4))
_JOKER_SHIFT: Final = JOKER_CODES[0]
_BY_JOKER_BITS: Final = tuple(
    tuple(CARD_AT[_JOKER_SHIFT + i] for i in range(len(JOKER_CODES)) if bits >> i & 1)
    for bits in range(1 << len(JOKER_CODES))
)


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards whose bits are set in ``mask``, in index order (the jokers last)."""
    clubs, diamonds, hearts, spades = _BY_SUIT_BITS
    return (
        clubs[mask & 0x1FFF] + diamonds[mask >> 13 & 0x1FFF] + hearts[mask >> 26 & 0x1FFF]
        + spades[mask >> 39 & 0x1FFF] + _BY_JOKER_BITS[mask >> _JOKER_SHIFT]
    )


def mask_of(cards: tuple[int, ...] | list[int]) -> int:
    """The bit mask of ``cards``."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


NATURAL_DECK: Final = tuple(range(52))
"""The standard deck's card codes, in the order a fresh deck holds them."""


def shuffled_deck(rng: random.Random, fresh: tuple[int, ...] = NATURAL_DECK) -> list[int]:
    """The ``fresh`` deck (card codes in order) shuffled as ``rng.shuffle(list(fresh))`` does,
    drawing the same bits in the same order (spec.md section 4 writes the steps out): for ``i``
    from ``len(fresh) - 1`` down to 1, swap ``i`` with ``j``, where ``j`` is ``rng.getrandbits(k)``
    with ``k`` the bit length of ``i + 1``, drawn again until it is at most ``i``. One loop, no
    call per card."""
    deck = list(fresh)
    draw = rng.getrandbits
    for i, k in _STEPS[len(deck)]:
        j = draw(k)
        while j > i:
            j = draw(k)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def below(rng: random.Random, n: int) -> int:
    """spec.md section 4's ``below(n)``, as ``rng.randrange(n)`` draws it: ``rng.getrandbits(k)``,
    with ``k`` the bit length of ``n``, drawn again until it is less than ``n``."""
    k = n.bit_length()
    drawn = rng.getrandbits(k)
    while drawn >= n:
        drawn = rng.getrandbits(k)
    return drawn


_STEPS: Final = {n: tuple((i, (i + 1).bit_length()) for i in range(n - 1, 0, -1)) for n in (52, 53, 54)}
"""Each deck size's steps of the shuffle: the position ``i`` and how many bits draw a position up to ``i``."""
