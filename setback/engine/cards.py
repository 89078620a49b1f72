"""Cards, suits and ranks, and their short text forms.

A card is one of 52 values, numbered ``suit * 13 + (rank - 2)``: clubs 0-12,
diamonds 13-25, hearts 26-38, spades 39-51, each suit from the 2 up to the ace.
:class:`Card` is an ``int`` subclass, so a card is also its own index into the
engine's tables and its own bit (``1 << card``) in a hand's bit mask.

The text form is the rank (``2``-``10``, ``J``, ``Q``, ``K``, ``A``) followed by
the suit letter (``C``, ``D``, ``H``, ``S``): ``AS``, ``10H``, ``QD``.
:meth:`Card.parse` reads it back (case-insensitive, ``T`` accepted for ten).
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final


class Suit(IntEnum):
    """The four suits; no suit outranks another except trump within a hand."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """The one-letter text form: ``C``, ``D``, ``H`` or ``S``."""
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        """The suit's symbol, for people: ♣ ♦ ♥ ♠."""
        return "♣♦♥♠"[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit from its letter (case-insensitive); ValueError otherwise."""
        index = "CDHS".find(text.strip().upper())
        if len(text.strip()) != 1 or index < 0:
            raise ValueError(f"not a suit: {text!r} (expected one of C, D, H, S)")
        return cls(index)


RANK_NAMES: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
"""Rank text forms, lowest first; a card's rank is ``2 + RANK_NAMES.index(name)``."""

GAME_PIPS: Final = {14: 4, 13: 3, 12: 2, 11: 1, 10: 10}
"""Points each rank counts towards Game: A=4, K=3, Q=2, J=1, 10=10, others 0."""

JACK: Final = 11


class Card(int):
    """One of the 52 cards; an ``int`` from 0 to 51 (see the module docstring)."""

    __slots__ = ()

    def __new__(cls, index: int) -> Card:
        if not 0 <= index < 52:
            raise ValueError(f"card index out of range: {index}")
        return _CARDS[index] if _CARDS else super().__new__(cls, index)

    @classmethod
    def of(cls, rank: int, suit: Suit) -> Card:
        """The card of ``rank`` (2-14, ace high) in ``suit``."""
        if not 2 <= rank <= 14:
            raise ValueError(f"rank out of range: {rank}")
        return _CARDS[suit * 13 + rank - 2]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``AS``, ``10H``, ``qd``, ``TH``; ValueError naming the text otherwise."""
        t = text.strip().upper()
        if len(t) < 2:
            raise ValueError(f"not a card: {text!r} (expected rank then suit, e.g. AS, 10H)")
        rank_text = "10" if t[:-1] == "T" else t[:-1]
        if rank_text not in RANK_NAMES:
            raise ValueError(f"not a card: {text!r} (unknown rank {t[:-1]!r})")
        try:
            suit = Suit.parse(t[-1])
        except ValueError:
            raise ValueError(f"not a card: {text!r} (unknown suit {t[-1]!r})") from None
        return _CARDS[suit * 13 + RANK_NAMES.index(rank_text)]

    @property
    def suit(self) -> Suit:
        return Suit(self // 13)

    @property
    def rank(self) -> int:
        """2-14, the ace high."""
        return self % 13 + 2

    @property
    def pips(self) -> int:
        """What the card counts towards Game."""
        return GAME_PIPS.get(self.rank, 0)

    def __str__(self) -> str:
        return RANK_NAMES[self % 13] + "CDHS"[self // 13]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


_CARDS: tuple[Card, ...] = ()
_CARDS = tuple(Card(i) for i in range(52))
CARDS: Final = _CARDS
"""All 52 cards in index order."""
