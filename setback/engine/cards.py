"""Cards, suits and ranks, and their short text forms.

A natural card is one of 52 values, numbered ``suit * 13 + (rank - 2)``: clubs 0-12,
diamonds 13-25, hearts 26-38, spades 39-51, each suit from the 2 up to the ace.
The jokers some variants deal (RULES.md, "Variants") are 63 (``JK``, the one joker of
``joker``), 64 (``BJ``, the big joker) and 65 (``LJ``, the little joker of ``ten_point``):
the codes between stay the actions' (pass and bids), so every action code is unchanged.
:class:`Card` is an ``int`` subclass, so a card is also its own index into the
engine's tables and its own bit (``1 << card``) in a hand's bit mask.

The text form of a natural card is the rank (``2``-``10``, ``J``, ``Q``, ``K``, ``A``)
followed by the suit letter (``C``, ``D``, ``H``, ``S``): ``AS``, ``10H``, ``QD``; a joker's
is ``JK``, ``BJ`` or ``LJ``. :meth:`Card.parse` reads them back (case-insensitive, ``T``
accepted for ten). A joker has no printed suit and no rank: which suit it belongs to is
the variant's to say (:mod:`setback.engine.variants`).
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


SUITS: Final = tuple(Suit)
"""The suits by index (cheaper than calling the enum)."""

RANK_NAMES: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
"""Rank text forms, lowest first; a card's rank is ``2 + RANK_NAMES.index(name)``."""

GAME_PIPS: Final = {14: 4, 13: 3, 12: 2, 11: 1, 10: 10}
"""Points each rank counts towards Game: A=4, K=3, Q=2, J=1, 10=10, others 0."""

JACK: Final = 11

JOKER_CODES: Final = (63, 64, 65)
"""The jokers' indices: ``JK``, ``BJ``, ``LJ``."""
JOKER_NAMES: Final = ("JK", "BJ", "LJ")
JOKER_WORDS: Final = ("joker", "big joker", "little joker")


class Card(int):
    """One of the 52 natural cards (0 to 51) or a joker (63 to 65); see the module docstring."""

    __slots__ = ()

    def __new__(cls, index: int) -> Card:
        if not (0 <= index < 52 or index in JOKER_CODES):
            raise ValueError(f"card index out of range: {index}")
        known = CARD_AT.get(index)
        return known if known is not None else super().__new__(cls, index)

    @classmethod
    def of(cls, rank: int, suit: Suit) -> Card:
        """The card of ``rank`` (2-14, ace high) in ``suit``."""
        if not 2 <= rank <= 14:
            raise ValueError(f"rank out of range: {rank}")
        return CARD_AT[suit * 13 + rank - 2]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``AS``, ``10H``, ``qd``, ``TH``, ``JK``; ValueError naming the text otherwise."""
        t = text.strip().upper()
        if t in JOKER_NAMES:
            return CARD_AT[JOKER_CODES[JOKER_NAMES.index(t)]]
        if len(t) < 2:
            raise ValueError(f"not a card: {text!r} (expected rank then suit, e.g. AS, 10H)")
        rank_text = "10" if t[:-1] == "T" else t[:-1]
        if rank_text not in RANK_NAMES:
            raise ValueError(f"not a card: {text!r} (unknown rank {t[:-1]!r})")
        try:
            suit = Suit.parse(t[-1])
        except ValueError:
            raise ValueError(f"not a card: {text!r} (unknown suit {t[-1]!r})") from None
        return CARD_AT[suit * 13 + RANK_NAMES.index(rank_text)]

    @property
    def is_joker(self) -> bool:
        return self >= 52

    @property
    def suit(self) -> Suit:
        """The printed suit; ValueError for a joker, which has none."""
        if self >= 52:
            raise ValueError(f"{self} has no printed suit")
        return Suit(self // 13)

    @property
    def rank(self) -> int:
        """2-14, the ace high; 0 for a joker."""
        return 0 if self >= 52 else self % 13 + 2

    @property
    def pips(self) -> int:
        """What the card counts towards Game (0 for a joker)."""
        return GAME_PIPS.get(self.rank, 0)

    @property
    def words(self) -> str:
        """The card for people: ``10♥``, or ``joker``, ``big joker``, ``little joker``."""
        if self >= 52:
            return JOKER_WORDS[JOKER_CODES.index(self)]
        return RANK_NAMES[self % 13] + "♣♦♥♠"[self // 13]

    def __str__(self) -> str:
        if self >= 52:
            return JOKER_NAMES[JOKER_CODES.index(self)]
        return RANK_NAMES[self % 13] + "CDHS"[self // 13]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


CARD_AT: dict[int, Card] = {}
"""Every card by its index, the jokers too (filled once, below)."""
CARD_AT.update((i, Card(i)) for i in (*range(52), *JOKER_CODES))
CARDS: Final = tuple(CARD_AT[i] for i in range(52))
"""The 52 natural cards in index order (``CARDS[i]`` is the card of index ``i``)."""
JOKER: Final = CARD_AT[63]
BIG_JOKER: Final = CARD_AT[64]
LITTLE_JOKER: Final = CARD_AT[65]
JOKERS: Final = (JOKER, BIG_JOKER, LITTLE_JOKER)
EVERY_CARD: Final = CARDS + JOKERS
"""Every card any variant deals, in index order."""
CARD_TEXT: Final = tuple(str(CARD_AT[code]) if code in CARD_AT else "" for code in range(JOKER_CODES[-1] + 1))
"""Each card's text form by its index (records and the wire spell out many; no card has a gap's index)."""
