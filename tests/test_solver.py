"""The heads-up solver: the same values as the engine's exact endgame, on seeded positions."""

from __future__ import annotations

import random

from setback.bots.endgame import Value, solve, value_after
from setback.bots.odds import odds, win_chance
from setback.bots.rollouts import hand_value
from setback.bots.solver import Solver, solvable
from setback.engine import GameState, Phase, Rules, Variant
from setback.engine.rules import LowRule

TABLES = (
    Rules(players=2),
    Rules(players=2, low=LowRule.CAPTURED),
    Rules(players=2, variant=Variant.JOKER),
    Rules(players=2, variant=Variant.TEN_POINT),
)


def position(rules: Rules, seed: int, left: int) -> GameState:
    """A hand in play at a random score, ``left`` cards to each seat (one fewer for a seat that
    led the trick in progress), every action so far chosen at random."""
    rng = random.Random(seed)
    state = GameState(rules, seed)
    state.scores = [rng.randrange(-3, rules.target), rng.randrange(-3, rules.target)]
    while state.phase is Phase.BIDDING:
        state.apply_action(rng.choice(state.legal_actions()))
    for _ in range(2 * (6 - left) + rng.randrange(2)):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def chance(state: GameState, before: list[int], side: int) -> float:
    """The expert's value of a finished hand: the chance ``side`` wins the game from there."""
    table = odds(state.rules)
    assert table is not None
    if state.outcome is not None:
        return 1.0 if state.outcome.winner == side else 0.0
    return win_chance(table, state.rules, state.scores, state.side_of[state.dealer], side)


def test_the_solver_values_a_position_as_the_endgame_does() -> None:
    """On seeded positions of every heads-up variant, from two to five cards left, a card that
    scores (Low among them) still to be taken, in points and in chances of winning (with Low to
    its dealt seat and to its captor), the solver's values are exactly the engine endgame's, and
    the position is left as it was."""
    compared = 0
    for seed in range(400):
        rules = TABLES[seed % len(TABLES)]
        state = position(rules, seed, 2 + seed // 4 % 4)
        if not solvable(state) or not state.watched & (state.hands[0] | state.hands[1]):
            continue
        values: Value = chance if seed % 8 < 4 and odds(rules) is not None else hand_value
        before = list(state.scores)
        hands = state.hands[:]
        assert Solver(state, before, values).solve(state) == solve(state, before, values)
        assert state.hands == hands
        compared += 1
    assert compared > 150


def test_one_solver_serves_every_card_of_a_decision() -> None:
    """A solver made once for a sample values each legal card's position (sharing its table) as
    the endgame values each one alone."""
    for seed in range(8):
        state = position(Rules(players=2), 1000 + seed, 4)
        before = list(state.scores)
        solver = Solver(state, before, hand_value)
        for code in state.legal_actions():
            child = state.clone(state.rng)
            child.apply_action(code)
            expected = value_after(child, state.hand_number, before)
            got = solver.solve(child) if solvable(child) else expected
            assert got == expected
