"""``expert``: the search bot's determinized Monte Carlo, reading the auction, weighing the score,
with the hand's last tricks solved exactly.

Bids and the early tricks are searched as :class:`setback.bots.search.SearchBot` searches
them (samples of the hidden cards, each action played out with the tactics' rollouts), but
with a fixed count per decision, so a seed always gives the same game: ``playouts`` rollouts
in all (by default :data:`PLAYOUTS_HEADS_UP`, or :data:`PLAYOUTS_PER_TABLE` shared by the
seats of a bigger table; a bid ``bids`` times as many), with ``budget_ms`` and the table's clock
(:data:`setback.bots.search.CLOCK_SHARE` of ``view.time_left``) only as caps. Beyond the search:

- ``read``: samples read the passes and the pitch as well as the bids made
  (:class:`setback.bots.reading.Reader`);
- ``odds``: at a table of two sides, a hand is worth the chance of winning the game it leaves
  (:mod:`setback.bots.odds`), not its points, so a bid weighs the score and the deal;
- ``narrow``: a card chosen among three or more keeps only the better half of them after a
  quarter and after half of its rollouts, so the rest go to the finalists;
- rollouts remember each hand's bid and pitch, and a bid's replay the play after the auction
  (:class:`MemoRollout`), so a bid costs about half what it did;
- ``bid_model``: at a table with a bidding model (:mod:`setback.bots.bidding`: the standard
  game heads up, the eldest's bid), a bid's value is the model's prediction from the hand and
  the rollouts' own mean, in place of that mean (:meth:`ExpertBot.bid_values`);
- ``dealer_margin``: there too, a dealer outbids a bid made only for a bid worth more than
  passing by at least that many points of the hand (0 by default): valued by its chance of
  winning, the expert's dealer outbid 2 with 3 on hands whose rollouts expected fewer points
  than passing, a gamble that lost against ``search`` (setback/benchmarks/README.md, issue 34);
- ``eldest_bonus``: there too, the eldest's bid is worth that many points more for each point
  bid (0 by default): where the expert's eldest bid higher than ``search``'s on the same cards,
  it gained.

Once every seat holds at most :func:`endgame_cards` cards, each of ``solves`` samples is
played out exactly instead (heads up by :mod:`setback.bots.solver`, from ``solve_from`` cards;
else :mod:`setback.bots.endgame`): every seat plays the card best for its side, so the end of a
hand is no longer left to the tactics' guesses; with ``heuristic_ties``, a tie goes to the ``heuristic``
bot's card (else to the first legal card, as before; not yet screened either way). With
``bid_solve``, heads up, a bid's play-outs are played so too (:class:`SolvedRollout`).

With ``answer`` (on by default; heads up, at a table :mod:`setback.bots.answers` has a model for:
the standard game), the other seat bids as ``search`` was recorded bidding at the score of the hand rather
than by the tactics' count: its bids and passes are read by that model (``answer_read``,
:class:`setback.bots.reading.AnswerReader`) and, in a bid's rollouts, its answer is drawn from it
(``answer_rollouts``, :class:`AnswerRollout`).

With ``blind``, every seat of a rollout plays by what it could know rather than by the
sample's hidden cards (:mod:`setback.bots.blind`).

With ``tree``, heads up, a card before the solved endgame is chosen by information-set Monte
Carlo tree search (:mod:`setback.bots.tree`): the same samples, rollouts, values and count, but
the cards after the first are searched too (``explore``: its exploration constant; ``widen``:
how slowly a node tries cards other than the tactics'). The first
card is still compared as the flat search compares it, every card on the same samples, each
rollout going down that card's subtree (:class:`setback.bots.tree.TreeRollout`); with
``ucb_root`` the first card is chosen in the tree as well (SO-ISMCTS from the root, the most
visited card).

``bid_by`` and ``play_by`` (``expert`` or ``search``) choose whose bidding and whose card
play the bot uses, so each can be measured apart: ``expert@bid_by=search`` bids as the
search bot does (by the wall clock, ``budget_ms``, with the search's samples, values and
rollouts) and plays as the expert.
"""

from __future__ import annotations

import random
import time
from typing import Any

from setback.bots.answers import Answers
from setback.bots.answers import model as answers_model
from setback.bots.bidding import Model, features, high_bid, model, role
from setback.bots.blind import BlindRollout
from setback.bots.endgame import cards_left, value_after
from setback.bots.heuristic import HeuristicBot
from setback.bots.odds import odds
from setback.bots.playout import Sampler, voids
from setback.bots.reading import AnswerReader, Reader
from setback.bots.rollouts import Answering, Plays, Tally, Values, hand_over
from setback.bots.search import (
    Rollout,
    SearchBot,
    best_of,
    decision_deadline,
)
from setback.bots.solver import Solver, solvable
from setback.bots.tree import EXPLORE, WIDEN, TreeRollout, most_visited
from setback.bots.tree import search as tree_search
from setback.engine import ACTIONS, PASS_CODE, Action, GameState, Phase, Positions, Rules, View

PLAYOUTS_PER_TABLE = 1800
"""Rollouts per decision at a table of three or more, shared by its seats: 450 at four."""
PLAYOUTS_HEADS_UP = 3600
"""Rollouts per decision heads up: with the rollouts compiled (:mod:`setback.bots.playout`),
3600 take about the time 1200 took before (setback/benchmarks/README.md, "Compiled rollouts"),
and with ``answer`` they scored +0.07 against 1200 without it, paired on 400 games against
``search`` ("Three times the rollouts")."""
BIDS = 1.0
"""A bid decision's rollouts, as a multiple of a card's (``bids``)."""
SOLVES = 32
"""Samples solved exactly per decision once the hand is in its last tricks, at a table of more
than two."""
SOLVES_HEADS_UP = 128
"""The same heads up (``solves``): with the solver compiled 128 samples of four cards a hand take
a few milliseconds, and four times the samples cut the noise of a choice among two or three
cards (setback/benchmarks/README.md, "The endgame solved from four cards")."""
SOLVE_FROM = 4
"""Heads up, the cards left in each hand from which a card is chosen by exact play-outs of its
samples (:mod:`setback.bots.solver`; ``solve_from``, up to 6: every card, the pitch too). Solving
from 6 scored 0.45-0.48 against ``search`` where 3 scored 0.515 (32 samples); from 4 with 128
samples +0.02 against 3 with 32 (benchmarks README, "The endgame solved from four cards")."""
BID_PLAYOUTS = 300
"""A heads-up bid's play-outs, solved (``bid_playouts``): 60 samples of the hidden cards among
five bids."""
TIE = 1e-9
"""How close two cards' totals of exact play-outs are to tie: with ``heuristic_ties`` a tie goes
to the card the ``heuristic`` bot would play (perfect play often finds several cards equal on
every sample, where a player who cannot see the cards would not)."""
HALVES = ("expert", "search")
"""Whose bidding or card play an expert may use."""


def endgame_cards(players: int) -> int:
    """The cards left in each hand from which the rest of the hand is solved exactly by
    default: :data:`SOLVE_FROM` heads up, two at bigger tables."""
    return SOLVE_FROM if players == 2 else 2


class MemoRollout(Rollout):
    """The search's rollout policy, remembering what it worked out: the samples of one decision
    are played out once for each legal action, every seat bidding the same hand, so each hand's
    bid and pitch are counted once; and since the policy plays its cards the same whatever the
    bid, a sample's play after the auction is worked out once for each seat that may pitch and
    replayed for every bid that leaves that seat the pitcher."""

    memo = True

    def __init__(self, state: GameState, club: bool = True) -> None:
        super().__init__(state, club)
        self.plays: dict[tuple[tuple[int, ...], int | None], list[int]] = {}

    def compiled(self) -> Plays | None:
        return Plays(self.policy, self.plays) if type(self) is MemoRollout else None

    def play_out(self, state: GameState) -> None:
        if state.phase is not Phase.BIDDING:
            return super().play_out(state)
        hand = state.hand_number
        while state.phase is Phase.BIDDING and state.hand_number == hand:
            state.apply_action(self.action(state))
        if hand_over(state, hand):
            return None
        key = (tuple(state.hands), state.pitcher)
        plays = self.plays.get(key)
        if plays is None:
            self.plays[key] = self.finish(state, hand)
            return None
        for code in plays:
            state.apply_action(code)
        return None

    def finish(self, state: GameState, hand: int) -> list[int]:
        """Play the rest of hand number ``hand`` in ``state`` (the auction over) by the policy,
        and return its actions, to be replayed for the other bids."""
        if self.plays_by_policy:
            return self.policy.finish(state, hand)
        plays = []
        while not hand_over(state, hand):
            code = self.action(state)
            plays.append(code)
            state.apply_action(code)
        return plays


def point_difference(state: GameState, before: list[int], side: int) -> float:
    """What a hand that began at the scores ``before`` and ended in ``state`` changed ``side``'s
    score by, less what it changed the other side's by (:func:`SolvedRollout.line`'s value)."""
    return float((state.scores[side] - before[side]) - (state.scores[1 - side] - before[1 - side]))


class BlindMemoRollout(BlindRollout, MemoRollout):
    """:class:`MemoRollout` with every seat playing blind (:class:`setback.bots.blind.BlindRollout`)."""


class SolvedRollout(MemoRollout):
    """A bid's rollouts at a heads-up table: the auction as :class:`MemoRollout` plays it, the
    pitcher pitching the tactics' card, and then the hand played perfectly by both seats on the
    sample (:mod:`setback.bots.solver`) rather than by the tactics."""

    def __init__(self, state: GameState, club: bool = True) -> None:
        super().__init__(state, club)
        self.rng = random.Random(0)

    def finish(self, state: GameState, hand: int) -> list[int]:
        plays = self.line(state)
        for code in plays:
            state.apply_action(code)
        return plays

    def line(self, state: GameState) -> list[int]:
        """The cards of the hand in ``state`` (its pitch to come), played for the points: the
        tactics' pitch, then a line that ends where perfect play for each side's points ends
        (solved as if the bid were 0, so that the line does not depend on the bid)."""
        pitch = self.pitch(state.hands[state.to_act], state.to_act)
        probe = state.clone(self.rng)
        probe.apply_action(pitch)
        probe.high_bid = 0
        solver = Solver(probe, probe.scores[:], point_difference)
        return [pitch, *solver.line_to(solver.solve(probe)[0])]


class AnswerRollout(MemoRollout):
    """:class:`MemoRollout` in which every seat but ``seat`` bids as the model ``answers`` says
    ``search`` bids at the score of ``state``: each sampled hand draws one number of ``rng``, and
    the bid at that number of the model's chances answers every high bid it faces (so a higher bid
    is answered no lower)."""

    def __init__(self, state: GameState, answers: Answers, seat: int, rng: random.Random, club: bool = True) -> None:
        super().__init__(state, club)
        self.answering = Answering(state, answers, seat, rng)

    def action(self, state: GameState) -> int:
        if self.answering.answers_now(state):
            return self.answering.action(state)
        return super().action(state)

    def compiled(self) -> Plays | None:
        return Plays(self.policy, self.plays, self.answering) if type(self) is AnswerRollout else None


class ExpertBot(SearchBot):
    """The search bot with a fixed count per decision and exact endgames (see the module docstring)."""

    name = "expert"

    def __init__(
        self,
        seed: int = 0,
        budget_ms: float | None = 50.0,
        playouts: int | None = None,
        solves: int | None = None,
        bid_by: str = "expert",
        play_by: str = "expert",
        infer_bids: bool = True,
        club: bool = True,
        read: bool = True,
        odds: bool = True,
        narrow: bool = True,
        bids: float = BIDS,
        bid_model: bool = True,
        solve_from: int = SOLVE_FROM,
        bid_solve: bool = False,
        heuristic_ties: bool = False,
        bid_playouts: int = BID_PLAYOUTS,
        blind: bool = False,
        dealer_margin: float = 0.0,
        eldest_bonus: float = 0.0,
        tree: bool = False,
        explore: float = EXPLORE,
        ucb_root: bool = False,
        widen: float = WIDEN,
        answer: bool = True,
        answer_read: bool = True,
        answer_rollouts: bool = True,
    ) -> None:
        for half, by in (("bid_by", bid_by), ("play_by", play_by)):
            if by not in HALVES:
                raise ValueError(f"{half} must be one of {', '.join(HALVES)}, not {by!r}")
        if tree and blind:
            raise ValueError("tree and blind rollouts are not combined")
        if solves is not None and solves < 1:
            raise ValueError(f"solves must be at least 1, not {solves}")
        super().__init__(seed, budget_ms, playouts or PLAYOUTS_PER_TABLE, infer_bids, club)
        self.fixed = playouts
        self.solves = solves
        self.bid_by = bid_by
        self.play_by = play_by
        self.read = read
        self.odds = odds
        self.narrow = narrow
        self.bids = bids
        self.bid_model = bid_model
        self.solve_from = solve_from
        self.bid_solve = bid_solve
        self.heuristic_ties = heuristic_ties
        self.bid_playouts = bid_playouts
        self.blind = blind
        self.shown: list[int] = []
        self.dealer_margin = dealer_margin
        self.eldest_bonus = eldest_bonus
        self.tree = tree
        self.explore = explore
        self.ucb_root = ucb_root
        self.widen = widen
        self.answer = answer
        self.answer_read = answer_read
        self.answer_rollouts = answer_rollouts
        self.bidding = False
        self.tally: Tally | None = None
        self.as_search = False
        self.chances: list[float] | None = None

    @classmethod
    def plays_by_the_clock(cls, options: dict[str, Any]) -> bool:
        """Only a half played as ``search`` is (by ``budget_ms``): the expert's own decisions are
        counted, the clock only a cap."""
        timed = options.get("budget_ms", 50.0) is not None
        return timed and "search" in (options.get("bid_by", "expert"), options.get("play_by", "expert"))

    def bid(self, view: View) -> Action:
        return self._by_search(view) if self.bid_by == "search" else self._expert(view)

    def play(self, view: View) -> Action:
        return self._by_search(view) if self.play_by == "search" else self._expert(view)

    def _by_search(self, view: View) -> Action:
        """The search bot's decision: by the wall clock of ``budget_ms``, as ``search`` is run."""
        self.playouts = None if self.budget_ms is not None else self._count(view)
        self.as_search = True
        try:
            return self.search(view)
        finally:
            self.as_search = False

    def cuts(self, actions: int) -> list[int]:
        """With ``narrow`` (and not as search), a count among three cards or more keeps the
        better half after a quarter of its rollouts and again after half of them. A bid does not
        narrow: its rollouts replay the play after the auction, so a sample costs a bid about
        what its first rollout costs, and fewer bids to try would only draw more samples."""
        if not self.narrow or self.as_search or actions < 3 or self.playouts is None or self.bidding:
            return []
        return [self.playouts // 4, self.playouts // 2]

    def rollout(self, state: GameState) -> Rollout:
        """The search's rollouts, each hand's bid and pitch counted once a decision; with
        ``tree``, heads up, a card's go down a search tree of the cards after it."""
        if self.as_search:
            return super().rollout(state)
        if self.bidding and self.solved_bids(state.rules):
            return SolvedRollout(state, self.club)
        if self.blind:
            policy: Rollout = BlindMemoRollout(state, self.club, self.shown)
        else:
            answers = self.answers(state.rules) if self.answer_rollouts and self.bidding else None
            policy = (
                AnswerRollout(state, answers, state.to_act, random.Random(self.rng.random()), self.club)
                if answers is not None
                else MemoRollout(state, self.club)
            )
        if self.tree and not self.bidding and state.rules.players == 2:
            before = list(state.scores)
            return TreeRollout(
                state, policy, lambda end, side: self.value(end, before, side), self.rng, self.explore,
                self.widen, self.club,
            )
        return policy

    def answers(self, rules: Rules) -> Answers | None:
        """With ``answer``, heads up: the model of how ``search`` bids at ``rules``' table, if any."""
        return answers_model(rules) if self.answer and rules.players == 2 else None

    def solved_bids(self, rules: Rules) -> bool:
        """Whether a bid's rollouts play the hand perfectly (:class:`SolvedRollout`): with
        ``bid_solve``, heads up, every side scoring its points (not ``no_junk``)."""
        return self.bid_solve and rules.players == 2 and rules.sides == 2 and not rules.no_junk

    def value(self, state: GameState, before: list[int], side: int) -> float:
        """With ``odds`` (and not as search), at a table with chances: the chance ``side`` wins
        the game after the hand in ``state`` (1 or 0 when it is over); else the hand's points."""
        return self._values(before, side).value(state)

    def score(self, action: int, state: GameState, before: list[int], side: int) -> float:
        """:meth:`value`, noted in the bid decision's :class:`Tally` (with its points) when one is kept."""
        return self._values(before, side).score(action, state)

    def values(self, before: list[int], side: int) -> Values | None:
        if type(self).value is ExpertBot.value and type(self).score is ExpertBot.score:
            return self._values(before, side)
        return None

    def _values(self, before: list[int], side: int) -> Values:
        """The expert's values of a rollout begun at ``before`` for ``side``: by the odds unless
        playing as search, noted in the decision's tally if it keeps one."""
        return Values(before, side, None if self.as_search else self.chances, self.tally)

    def sampler(self, view: View) -> Sampler:
        """With ``read`` (and not as search), samples that read the auction and the pitch."""
        if self.read and self.infer_bids and not self.as_search:
            answers = self.answers(view.rules) if self.answer_read else None
            return Reader(view) if answers is None else AnswerReader(view, answers)
        return super().sampler(view)

    def _count(self, view: View) -> int:
        """The rollouts of one decision: ``playouts`` if given, else the table's share; a bid
        ``bids`` times as many."""
        players = view.rules.players
        count = self.fixed or (PLAYOUTS_HEADS_UP if players == 2 else PLAYOUTS_PER_TABLE // players)
        if view.phase is Phase.BIDDING and self.solved_bids(view.rules):
            return self.bid_playouts
        return int(count * self.bids) if view.phase is Phase.BIDDING else count

    def _setup(self, view: View) -> None:
        """Set the count, the phase and the chances of the decision in ``view``."""
        self.playouts = self._count(view)
        self.bidding = view.phase is Phase.BIDDING
        self.chances = odds(view.rules) if self.odds else None
        self.shown = voids(view) if self.blind else []

    def _expert(self, view: View) -> Action:
        self._setup(view)
        if view.phase is Phase.PLAYING and len(view.legal) > 1 and (
            max(view.hand_sizes) <= self.solved_cards(view.rules.players)
        ) and (view.trump is not None or view.rules.players == 2):
            return self._solve(view)
        if self.tree and self.ucb_root and view.phase is Phase.PLAYING and len(view.legal) > 1 and (
            view.rules.players == 2
        ):
            return self._tree(view)
        bids = None
        if self.bidding and self.bid_model and len(view.legal) > 1 and not self.solved_bids(view.rules):
            bids = model(view.rules)
        if bids is not None:
            legal, values = self.bid_values(view, bids)
            best = best_of(range(len(legal)), values)
            return ACTIONS[legal[best]]
        return self.search(view)

    def rollout_means(self, view: View) -> tuple[list[int], Tally]:
        """The rollouts of the bid decision in ``view``: the legal codes and what the rollouts
        made of each (:class:`Tally`)."""
        self._setup(view)
        self.tally = tally = Tally(len(view.legal))
        try:
            legal, _, _ = self.evaluate(view)
        finally:
            self.tally = None
        return legal, tally

    def bid_values(self, view: View, bids: Model) -> tuple[list[int], list[float]]:
        """Each legal bid's value with the bidding model ``bids``: the rollouts' mean value, moved
        by the model's correction of their mean points (through the slope of value in points,
        fitted over the rollouts, when the value is a chance of winning), and a dealer's bid over
        a bid made less ``dealer_margin`` points."""
        legal, tally = self.rollout_means(view)
        slope = 1.0 if self.chances is None else tally.slope()
        inputs = features(view)
        seat = role(view)
        outbids = seat == "dealer" and high_bid(view) > 0
        values = []
        for i, code in enumerate(legal):
            n = max(1, tally.count[i])
            points = tally.points[i] / n
            predicted = bids.value(seat, code - PASS_CODE, inputs, points)
            correction = (points if predicted is None else predicted) - points
            if outbids and code != PASS_CODE:
                correction -= self.dealer_margin
            if seat == "eldest":
                correction += self.eldest_bonus * (code - PASS_CODE)
            values.append(tally.values[i] / n + slope * correction)
        return legal, values

    def solved_cards(self, players: int) -> int:
        """The cards left in each hand from which a card is chosen by exact play-outs: heads up
        ``solve_from`` (:mod:`setback.bots.solver`), else :func:`endgame_cards`."""
        return self.solve_from if players == 2 else endgame_cards(players)

    def solved_samples(self, players: int) -> int:
        """The samples of a solved decision: ``solves`` if given, else :data:`SOLVES_HEADS_UP`
        heads up and :data:`SOLVES` at bigger tables."""
        return self.solves or (SOLVES_HEADS_UP if players == 2 else SOLVES)

    def _tree(self, view: View) -> Action:
        """The card the search tree (:mod:`setback.bots.tree`) visited most in ``playouts``
        iterations on the expert's samples, rollouts and values. The samples are as many as the
        flat search draws (one for each legal card's ``playouts``), each dealt to the tree in
        turn: the reading sampler is most of a decision's cost when each iteration draws its own."""
        assert self.playouts is not None
        deadline = decision_deadline(time.perf_counter(), self.budget_ms, view)
        sampler = self.sampler(view)
        positions = Positions(view)
        before = list(view.scores)

        samples = -(-self.playouts // len(view.legal))
        deals: list[GameState] = []
        drawn = [0]

        def determinize() -> GameState:
            if len(deals) < samples:
                deals.append(positions.state(sampler.deal(self.rng)))
            state = deals[drawn[0] % samples].clone(self.rng)
            drawn[0] += 1
            return state

        def value(state: GameState, side: int) -> float:
            return self.value(state, before, side)

        first = determinize()
        drawn[0] = 0
        policy = MemoRollout(first, self.club)
        root = tree_search(determinize, policy, value, self.playouts, self.rng, deadline, self.explore, self.widen)
        return ACTIONS[most_visited(root)]

    def _solve(self, view: View) -> Action:
        """The legal card whose exact play-out scored best on average over ``solves`` samples."""
        start = time.perf_counter()
        deadline = decision_deadline(start, self.budget_ms, view)
        assert view.seat is not None
        side = view.rules.side_of(view.seat)
        legal = [a.code for a in view.legal]
        sampler = self.sampler(view)
        positions = Positions(view)
        before = list(view.scores)
        totals = [0.0] * len(legal)
        for _ in range(self.solved_samples(view.rules.players)):
            root = positions.state(sampler.deal(self.rng))
            assert cards_left(root) <= self.solved_cards(view.rules.players)
            solvers: dict[int, Solver] = {}
            for i, code in enumerate(legal):
                state = root.clone(self.rng)
                state.apply_action(code)
                if not hand_over(state, root.hand_number) and solvable(state):
                    assert state.trump is not None
                    solver = solvers.get(state.trump)
                    if solver is None:
                        solver = solvers[state.trump] = Solver(state, before, self.value)
                    totals[i] += solver.solve(state)[side]
                else:
                    totals[i] += value_after(state, root.hand_number, before, self.value)[side]
            if deadline is not None and time.perf_counter() >= deadline:
                break
        best = best_of(range(len(legal)), totals)
        if self.heuristic_ties:
            favourite = legal.index(HeuristicBot(club=self.club).play(view).code)
            if totals[favourite] >= totals[best] - TIE:
                best = favourite
        return ACTIONS[legal[best]]
