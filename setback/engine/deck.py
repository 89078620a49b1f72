"""Hands as bit masks, and the shuffle: the engine's card arithmetic, on its hot path.

A hand is an ``int`` with bit ``card`` set for each card it holds (see
:mod:`setback.engine.cards`; the jokers are bits 63-65); :func:`shuffled_deck` deals every
hand from a game's seed.
"""

from __future__ import annotations

import _random
from typing import Final, cast

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


def shuffled_deck(rng: _random.Random, fresh: tuple[int, ...] = NATURAL_DECK) -> list[int]:
    """The ``fresh`` deck (card codes in order) shuffled as ``rng.shuffle(list(fresh))`` does,
    drawing the same bits in the same order (spec.md section 4 writes the steps out): for ``i``
    from ``len(fresh) - 1`` down to 1, swap ``i`` with ``j``, where ``j`` is ``rng.getrandbits(k)``
    with ``k`` the bit length of ``i + 1``, drawn again until it is at most ``i``.

    Each ``getrandbits(k)`` (``k`` at most 8 here) is the top ``k`` bits of the generator's next
    32-bit word, and ``getrandbits(32 * n)`` is its next ``n`` words, the first lowest: so the
    words are drawn ``n`` at a time, ``n`` never more than the steps left (each takes at least
    one), and the generator ends where drawing one at a time leaves it. One loop over native
    numbers: the deck's cards are moved as the objects they are."""
    deck: list[object] = list(fresh)
    words = b""
    at = 0  # the next word's top byte in ``words``
    i = len(deck) - 1
    while i > 0:
        if at >= len(words):
            words = rng.getrandbits(32 * i).to_bytes(4 * i, "little")  # (i: the steps left)
            at = 3
        j = words[at] >> _DROP[i]
        at += 4
        if j <= i:
            card = deck[i]
            deck[i] = deck[j]
            deck[j] = card
            i -= 1
    return cast(list[int], deck)


def below(rng: _random.Random, n: int) -> int:
    """spec.md section 4's ``below(n)``, as ``rng.randrange(n)`` draws it: ``rng.getrandbits(k)``,
    with ``k`` the bit length of ``n``, drawn again until it is less than ``n``."""
    k = n.bit_length()
    drawn = rng.getrandbits(k)
    while drawn >= n:
        drawn = rng.getrandbits(k)
    return drawn


_DROP: Final = bytes(8 - (i + 1).bit_length() for i in range(64))
"""For each position ``i`` of the shuffle, the bits a word's top byte drops to draw a position up to ``i``."""
