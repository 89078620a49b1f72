"""The chance each side wins the game from a score, for the expert to weigh a hand's end by.

A point is not worth the same at every score: at 9 to 9 a made bid wins the game, at 0 to 0
it is a point among the dozen needed. With two sides, the expert values where a hand leaves
the game by the chance its side then wins (:func:`win_chance`), not by the points it made.

The chances come from :data:`ODDS`, a table per common table (:data:`TABLES`: the standard
game and each variant, heads up and in two partnerships, at the default target) shipped
in ``odds.json`` and made by ``python -m setback.bots.make_odds``, reproducibly:

1. :data:`HANDS` hands dealt from seed 0 are played out by the tactics (the search's
   rollout policy), and what each hand did is counted: which side pitched (the dealer's or
   the other) and how each side's score changed;
2. the chance of winning from every score (both sides between minus the target and the
   target, each side as the next dealer) is solved from those counts, the game ending as
   the rules end it (the pitcher's side first to the target).

The heads-up standard table counts its hands from match records instead
(``make_odds --records FILE``): the expert's own games against ``search``, whose dealers pitch
about half the hands where the tactics' dealers pitch a fifth.

A table not in the file (other players, targets or club options) gets no chances; the
expert then values a hand by its points, as the search does.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from typing import Final

from setback.bots.playout import Policy
from setback.bots.shipped import FOLDER
from setback.engine import GameState, Phase, Rules, Variant

FILE: Final = FOLDER / "odds.json"
HANDS: Final = 20000
"""Hands played out per table to count what a hand does."""
TABLES: Final = tuple(
    Rules(players=players, teams=players // 2 if players > 2 else None, variant=variant)
    for variant in Variant
    for players in (2, 4)
    if not (players == 2 and variant is Variant.PEDRO)
)
"""The tables with a table of chances: every variant heads up (pedro is played in pairs only)
and in two partnerships of two, every other option the default."""


def key_of(rules: Rules) -> str | None:
    """The name of ``rules``' table of chances, or None when it is not one of :data:`TABLES`."""
    for table in TABLES:
        if table == rules:
            return f"{rules.variant.value}-{rules.players}"
    return None


@cache
def _tables() -> dict[str, list[float]]:
    loaded: dict[str, list[float]] = json.loads(FILE.read_text())
    return loaded


def odds(rules: Rules) -> list[float] | None:
    """The table of chances for ``rules`` (see :func:`win_chance`), or None without one."""
    key = key_of(rules)
    return None if key is None else _tables().get(key)


def index(rules: Rules, scores: list[int], dealer_side: int) -> int:
    """Where side 0's chance at ``scores``, ``dealer_side`` to deal, is in a table of chances
    (scores below minus the target counted as minus the target)."""
    target = rules.target
    width = 2 * target
    x = max(scores[0], -target) + target
    y = max(scores[1], -target) + target
    return (x * width + y) * 2 + dealer_side


def win_chance(table: list[float], rules: Rules, scores: list[int], dealer_side: int, side: int) -> float:
    """The chance ``side`` wins from ``scores`` (both under the target), ``dealer_side`` to deal next."""
    chance = table[index(rules, scores, dealer_side)]
    return chance if side == 0 else 1.0 - chance


Outcome = tuple[bool, int, int]
"""What a hand did: whether the dealer's side pitched, the dealer's side's score change and the other's."""


def count_hands(rules: Rules, hands: int = HANDS, seed: int = 0) -> Counter[Outcome]:
    """What ``hands`` hands played out by the tactics did (module docstring, step 1)."""
    assert rules.sides == 2, "chances are counted for two sides"
    counts: Counter[Outcome] = Counter()
    for n in range(hands):
        state = GameState(rules, seed + n)
        policy = Policy(state)
        dealer_side = pitcher_side = state.side_of[state.dealer]
        before = list(state.scores)
        hand = state.hand_number
        while state.hand_number == hand and state.phase is not Phase.GAME_OVER:
            if state.pitcher is not None:
                pitcher_side = state.side_of[state.pitcher]
            state.apply_action(policy.action(state))
        deltas = [a - b for a, b in zip(state.scores, before, strict=True)]
        counts[(pitcher_side == dealer_side, deltas[dealer_side], deltas[1 - dealer_side])] += 1
    return counts


def solve(rules: Rules, counts: Counter[Outcome], tolerance: float = 1e-6) -> list[float]:
    """Side 0's chance to win from every score and next dealer (module docstring, step 2)."""
    target = rules.target
    total = sum(counts.values())
    outcomes = [(pitched, mine, other, n / total) for (pitched, mine, other), n in counts.items()]
    width = 2 * target
    chances = [0.5] * (width * width * 2)
    moves: list[list[tuple[float, int, float]]] = []  # per state: (chance, next state or -1, win)
    for x in range(-target, target):
        for y in range(-target, target):
            for dealer in (0, 1):
                row = []
                for pitched, mine, other, p in outcomes:
                    scores = [x, y]
                    scores[dealer] += mine
                    scores[1 - dealer] += other
                    pitcher = dealer if pitched else 1 - dealer
                    if scores[pitcher] >= target:
                        row.append((p, -1, float(pitcher == 0)))
                    elif max(scores) >= target and scores[0] != scores[1]:
                        row.append((p, -1, float(scores[0] > scores[1])))
                    else:
                        row.append((p, index(rules, scores, 1 - dealer), 0.0))
                moves.append(row)
    while True:
        change = 0.0
        for state, row in enumerate(moves):
            value = sum(p * (win if nxt < 0 else chances[nxt]) for p, nxt, win in row)
            change = max(change, abs(value - chances[state]))
            chances[state] = value
        if change < tolerance:
            return chances
