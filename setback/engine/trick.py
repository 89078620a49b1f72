"""Who wins a trick (RULES.md, "Each hand", 5): the highest trump in it, else the highest
card of the suit led; and which suit a card belongs to once trump is named (a variant's
off-card and jokers belong to trump, RULES.md "Variants"). Views, bots and every client read
these from here, so no one else states the rule."""

from __future__ import annotations

from collections.abc import Sequence

from setback.engine.cards import SUITS, Card, Suit
from setback.engine.events import CardPlayed, Draw
from setback.engine.tables import TABLES
from setback.engine.variants import Variant


def winning_seat(plays: Sequence[Draw | CardPlayed], trump: Suit, variant: Variant = Variant.STANDARD) -> int:
    """The seat whose card wins ``plays`` (a trick so far, in playing order from the leader's
    card) when ``trump`` is trump in ``variant`` (whose off-card and jokers are trumps). The fast
    core (:class:`~setback.engine.GameState`) keeps the same answer as it plays, from the same
    strength tables."""
    if not plays:
        raise ValueError("an empty trick has no winner")
    strength = trick_strengths(plays[0].card, trump, variant)
    best = max(plays, key=lambda play: strength[play.card])  # the first of equals: cards are unique
    return best.seat


def trick_strengths(lead: Card | int, trump: Suit, variant: Variant = Variant.STANDARD) -> tuple[int, ...]:
    """How strongly each card (by its code) plays in a trick led by ``lead`` when ``trump`` is
    trump in ``variant``: of the cards played to it, the strongest wins (the first of equals,
    as :func:`winning_seat` has it; -1 never wins). For following a trick card by card, as
    the server's views do, without going over its cards again."""
    return lead_strengths(trump, variant)[lead]


def lead_strengths(trump: Suit, variant: Variant = Variant.STANDARD) -> tuple[tuple[int, ...], ...]:
    """:func:`trick_strengths` of every lead at once, by the leading card's code, for one hand's
    trump: found once a hand (finding it costs a variant's and a trump's lookup, where reading
    the lead's is an index)."""
    return TABLES[variant].by_trump[trump].lead_strength


def suit_of(card: Card | int, trump: Suit, variant: Variant = Variant.STANDARD) -> Suit:
    """The suit ``card`` belongs to when ``trump`` is trump in ``variant``, for following and
    winning tricks: trump for a joker or the off-card, else its printed suit."""
    return SUITS[TABLES[variant].by_trump[trump].lead_suit[card]]


def is_trump(card: Card | int, trump: Suit, variant: Variant = Variant.STANDARD) -> bool:
    """Whether ``card`` is a trump when ``trump`` is trump in ``variant`` (see :func:`suit_of`)."""
    return bool(TABLES[variant].by_trump[trump].members >> card & 1)


def suit_cards(suit: Suit, trump: Suit, variant: Variant = Variant.STANDARD) -> int:
    """The bit mask of the cards that belong to ``suit`` when ``trump`` is trump in ``variant``."""
    return TABLES[variant].by_trump[trump].suit_masks[suit]

