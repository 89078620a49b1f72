"""A decision's rollouts played and valued in compiled code: what a search does for each sample.

:meth:`setback.bots.search.SearchBot.evaluate` deals a sample, then plays every action it still
tries out on it and adds what each rollout was worth to that action's total. When the rollouts
are the compiled policy's (:class:`setback.bots.search.Rollout`, and the expert's memo and answer
rollouts) and the values the search's or the expert's own, :class:`Plays` does the sample's
rollouts and :class:`Values` values them, without a call back to Python: the same rollouts, the
same values and the same draws of the generator, in the same order, as the bots' own methods,
which a subclass may change (then the bot plays its samples out in Python, as before).
"""

from __future__ import annotations

import random

from setback.bots.answers import Answers, inputs
from setback.bots.odds import win_chance
from setback.bots.playout import Policy
from setback.engine import PASS_CODE, GameState, Phase

WIN_VALUE = 10.0
"""What deciding the game is worth, in points of the hand's score difference."""

Memo = dict[tuple[tuple[int, ...], int | None], list[int]]
"""A sample's play after the auction, by the hands the auction left and the pitcher."""


def hand_over(state: GameState, hand: int) -> bool:
    """Whether hand number ``hand`` of ``state`` is over (scored, thrown in, or the game won)."""
    return state.hand_number != hand or state.phase is Phase.GAME_OVER


def hand_value(state: GameState, before: list[int], side: int) -> float:
    """What the hand just played out was worth to ``side``: its side's gain less the other sides'
    mean gain, plus or minus :data:`WIN_VALUE` when the hand decided the game."""
    deltas = [after - b for after, b in zip(state.scores, before, strict=True)]
    others = (sum(deltas) - deltas[side]) / (len(deltas) - 1)
    value = deltas[side] - others
    outcome = state.outcome
    if outcome is not None:
        value += WIN_VALUE if outcome.winner == side else -WIN_VALUE
    return value


class Tally:
    """What a bid decision's rollouts made of each legal bid: how many, the sum of their values
    (:meth:`setback.bots.expert.ExpertBot.value`) and of their points (:func:`hand_value`), and
    the sums that fit a value to its points over all of them (the slope of the chance of winning
    in a point)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.count = [0] * size
        self.values = [0.0] * size
        self.points = [0.0] * size
        self.sums = [0.0] * 5
        """n, sum of points, of values, of points squared, of points times values."""

    def add(self, action: int, value: float, points: float) -> None:
        self.count[action] += 1
        self.values[action] += value
        self.points[action] += points
        sums = self.sums
        sums[0] += 1
        sums[1] += points
        sums[2] += value
        sums[3] += points * points
        sums[4] += points * value

    def slope(self) -> float:
        """How much a value changes in a point, fitted over the decision's rollouts (0 when flat)."""
        n, p, v, pp, pv = self.sums
        spread = n * pp - p * p
        return (n * pv - p * v) / spread if n and spread > 1e-9 else 0.0


class Values:
    """What a rollout that began at the scores ``before`` was worth to ``side``: with ``chances``
    (a table of :mod:`setback.bots.odds`) the chance ``side`` then wins the game (1 or 0 once it is
    over), else :func:`hand_value`; noted in ``tally`` when given (its points: :func:`hand_value`)."""

    def __init__(
        self, before: list[int], side: int, chances: list[float] | None = None, tally: Tally | None = None,
    ) -> None:
        self.before = before
        self.side = side
        self.chances = chances
        self.tally = tally

    def value(self, state: GameState) -> float:
        chances = self.chances
        if chances is None:
            return hand_value(state, self.before, self.side)
        outcome = state.outcome
        if outcome is not None:
            return 1.0 if outcome.winner == self.side else 0.0
        return win_chance(chances, state.rules, state.scores, state.side_of[state.dealer], self.side)

    def score(self, action: int, state: GameState) -> float:
        """The rollout of the action at index ``action``, ended in ``state``: its value (noted)."""
        value = self.value(state)
        tally = self.tally
        if tally is not None:
            points = value if self.chances is None else hand_value(state, self.before, self.side)
            tally.add(action, value, points)
        return value


class Answering:
    """Every seat but ``seat`` bidding as the model ``answers`` says ``search`` bids at the score of
    ``state``: each sampled hand draws one number of ``rng``, and the bid at that number of the
    model's chances answers every high bid it faces (so a higher bid is answered no lower)."""

    def __init__(self, state: GameState, answers: Answers, seat: int, rng: random.Random) -> None:
        self.answers = [answers.of_side(state.scores, side, state.rules.target) for side in state.side_of]
        self.seat = seat
        self.draws = rng
        self.hands: dict[tuple[int, int], tuple[float, bool, float]] = {}

    def answers_now(self, state: GameState) -> bool:
        """Whether the seat to act in ``state`` bids by the model."""
        return state.phase is Phase.BIDDING and state.to_act != self.seat

    def action(self, state: GameState) -> int:
        """The bid of the seat to act (one :meth:`answers_now`)."""
        seat = state.to_act
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        hand = state.hands[seat]
        known = self.hands.get((hand, seat))
        if known is None:
            value, solid = inputs(hand, state.rules)
            known = self.hands[hand, seat] = (value, solid, self.draws.random())
        value, solid, u = known
        role = "dealer" if seat == state.dealer else "eldest"
        code = PASS_CODE + self.answers[seat].draw(role, state.high_bid, value, solid, u)
        return code if code in legal else legal[0]


class Plays:
    """The rollouts of :class:`setback.bots.search.Rollout` (``memo`` None, no ``answering``), of
    the expert's :class:`setback.bots.expert.MemoRollout` (``memo``: its plays after the auction)
    and of its :class:`setback.bots.expert.AnswerRollout` (with ``answering``), played by
    ``policy``."""

    def __init__(self, policy: Policy, memo: Memo | None = None, answering: Answering | None = None) -> None:
        self.policy = policy
        self.memo = memo
        self.answering = answering

    def action(self, state: GameState) -> int:
        answering = self.answering
        if answering is not None and answering.answers_now(state):
            return answering.action(state)
        return self.policy.action(state)

    def play_out(self, state: GameState) -> None:
        """Play the hand in progress to its end (or the game's), as the rollout does."""
        hand = state.hand_number
        memo = self.memo
        if memo is None or state.phase is not Phase.BIDDING:
            while state.phase is Phase.BIDDING and state.hand_number == hand:
                state.apply_action(self.action(state))
            self.policy.play_out(state, hand)
            return
        while state.phase is Phase.BIDDING and state.hand_number == hand:
            state.apply_action(self.action(state))
        if hand_over(state, hand):
            return
        key = (tuple(state.hands), state.pitcher)
        plays = memo.get(key)
        if plays is None:
            memo[key] = self.policy.finish(state, hand)
            return
        for code in plays:
            state.apply_action(code)

    def sample(
        self, root: GameState, legal: list[int], tried: list[int], rng: random.Random, values: Values,
        totals: list[float],
    ) -> None:
        """Play each action of ``legal`` at the indexes ``tried`` out from the sample ``root``
        (each on a copy dealing later hands from ``rng``) and add its value to ``totals``."""
        for i in tried:
            state = root.clone(rng)
            state.apply_action(legal[i])
            self.play_out(state)
            totals[i] += values.score(i, state)
