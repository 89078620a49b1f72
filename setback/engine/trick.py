"""Who wins a trick (RULES.md, "Each hand", 5): the highest trump in it, else the highest
card of the suit led. Views and every client read the trick's winner from here, so no one
else states the rule."""

from __future__ import annotations

from collections.abc import Sequence

from setback.engine.cards import Suit
from setback.engine.events import CardPlayed, Draw
from setback.engine.tables import STRENGTH


def winning_seat(plays: Sequence[Draw | CardPlayed], trump: Suit) -> int:
    """The seat whose card wins ``plays`` (a trick so far, in playing order from the leader's
    card) when ``trump`` is trump. The fast core (:class:`~setback.engine.GameState`) keeps the
    same answer as it plays, from the same strength table."""
    if not plays:
        raise ValueError("an empty trick has no winner")
    strength = STRENGTH[4 * trump + plays[0].card // 13]
    best = max(plays, key=lambda play: strength[play.card])  # the first of equals: cards are unique
    return best.seat
