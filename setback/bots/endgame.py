"""Exact play of a hand's last tricks on one determinization (perfect information).

Once few cards are left, a sampled deal is small enough to search every line of play to the
end of the hand: each seat plays the card best for its side (max-n: every side maximizes
its own value, which at two sides is minimax). What a line is worth to a side is what a
:data:`Value` (by default :func:`setback.bots.rollouts.hand_value`) says of the position it ends in.
"""

from __future__ import annotations

from collections.abc import Callable

from setback.bots.rollouts import hand_over, hand_value
from setback.engine import GameState

Value = Callable[[GameState, list[int], int], float]
"""What a finished hand (the state, the scores it began at, a side) was worth to the side."""


def cards_left(state: GameState) -> int:
    """The most cards any seat still holds: the tricks left to play."""
    return max(hand.bit_count() for hand in state.hands)


def solve(state: GameState, before: list[int], value: Value = hand_value) -> list[float]:
    """What the rest of the hand in ``state`` (in play, trump named) is worth to each side when
    every seat plays it out perfectly for its side; ``before`` are the scores the hand began at.
    ``state`` is left as it was."""
    hand = state.hand_number
    legal = state.legal_actions()
    if len(legal) == 1:  # a forced card: no copy to keep
        child = state.clone(state.rng)
        child.apply_action(legal[0])
        return value_after(child, hand, before, value)
    side = state.side_of[state.to_act]
    best: list[float] | None = None
    for code in legal:
        child = state.clone(state.rng)
        child.apply_action(code)
        values = value_after(child, hand, before, value)
        if best is None or values[side] > best[side]:
            best = values
    assert best is not None
    return best


def value_after(state: GameState, hand: int, before: list[int], value: Value = hand_value) -> list[float]:
    """The value to each side of ``state``, just after a card of hand number ``hand``, when the
    rest of the hand (if any is left) is played out perfectly."""
    if hand_over(state, hand):
        return [value(state, before, s) for s in range(state.rules.sides)]
    return solve(state, before, value)
