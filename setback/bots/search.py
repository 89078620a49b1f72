"""``search``: determinized Monte Carlo (PIMC) on the fast core.

For each decision the bot samples the hidden cards many times (a determinization: the
other seats' hands, consistent with everything the seat knows: its own hand, the cards
played, the voids a seat showed by playing neither the suit led nor trump, and how
many cards each seat holds; undealt cards are unknown; and, with ``infer_bids``,
hands that would have bid what each other seat bid), rebuilds the game as
:func:`setback.engine.state_from_view` does (:class:`setback.engine.Positions`), and plays
every legal action out to the end of
the hand with the cheap policy of :mod:`setback.bots.tactics` for every seat (rollouts
see the sampled cards, as PIMC does). Each action scores the change of the scores
it led to: its side's gain less the other sides' mean gain, plus or minus
:data:`setback.bots.rollouts.WIN_VALUE` when the hand decided the game. Every action is tried on the same
samples, and the best mean wins.

Bids are searched the same way: each legal bid (and the pass) is played out, the
other seats bidding by the tactics' point count, the pitcher pitching its best suit;
so a bid is worth the points it expects to make, less the risk of being set back.

The budget is per decision: ``budget_ms`` of wall time (checked after every sample)
and/or ``playouts`` rollouts in all; the table's clock (``view.time_left``) caps it too.

Samples and rollouts are played under the table's rules, the club options too, so every
action is scored as the table scores it. With ``club`` (the default) the rollouts' dealer
takes the steal as the tactics do; ``club=False`` plays them as in today's game: the
baseline its play under them is measured against. The rollouts play Low as today also when
it goes to its captor: the tactics' fight for it gained the search nothing (47.8% of 400
duplicate games heads up, 95% interval 43.9-51.6, against rollouts without it).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Any

from setback.bots.base import Bot
from setback.bots.playout import Policy, Sampler
from setback.bots.rollouts import Plays, Values, hand_over, hand_value
from setback.engine import (
    ACTIONS,
    Action,
    GameState,
    Phase,
    Positions,
    View,
)

CLOCK_SHARE = 0.5
"""The share of ``view.time_left`` a decision may use at most."""


def decision_deadline(start: float, budget_ms: float | None, view: View) -> float | None:
    """When a decision begun at ``start`` (``time.perf_counter``) must stop: after ``budget_ms``
    and after :data:`CLOCK_SHARE` of the table's ``view.time_left``, whichever comes first;
    None when neither limits it."""
    seconds = [budget_ms / 1000] if budget_ms is not None else []
    if view.time_left is not None:
        seconds.append(view.time_left * CLOCK_SHARE)
    return start + min(seconds) if seconds else None


class Rollout:
    """The cheap policy every seat follows when a sampled hand is played out; with ``club``, the
    dealer takes the steal as the tactics do.

    The policy is :class:`setback.bots.playout.Policy` (compiled with the engine). A subclass may
    bid by its own :meth:`action`; one that plays its cards by its own too (from the pitch on)
    says so with :attr:`plays_by_policy` False, so that the play is not left to the policy.
    """

    memo = False
    """Whether each hand's bid and pitch are worked out once for the rollout's life."""
    plays_by_policy = True
    """Whether :meth:`action` is the policy's once the auction is over."""

    def __init__(self, state: GameState, club: bool = True) -> None:
        self.policy = policy = Policy(state, club, self.memo)
        self.players = policy.players
        self.side_of = policy.side_of
        self.partners = policy.partners
        self.steals = policy.steals
        self.smudge = policy.smudge
        self.top = policy.top
        self.variant = policy.variant
        self.trumps = policy.trumps

    def action(self, state: GameState) -> int:
        return self.policy.action(state)

    def amount(self, hand: int, seat: int) -> int:
        """What ``seat`` bids holding ``hand``: the tactics' point count."""
        return self.policy.amount(hand, seat)

    def pitch(self, hand: int, seat: int) -> int:
        """The card ``seat`` pitches holding ``hand``: the tactics'."""
        return self.policy.pitch(hand, seat)

    def compiled(self) -> Plays | None:
        """These rollouts as :class:`setback.bots.rollouts.Plays` plays them, if it does (not
        those of a subclass, which may play otherwise)."""
        return Plays(self.policy) if type(self) is Rollout else None

    def play_out(self, state: GameState) -> None:
        """Play the hand in progress to its end (or the game's)."""
        hand = state.hand_number
        while state.phase is Phase.BIDDING and state.hand_number == hand:
            state.apply_action(self.action(state))
        if self.plays_by_policy:
            self.policy.play_out(state, hand)
            return
        while not hand_over(state, hand):
            state.apply_action(self.action(state))


def best_of(indexes: Iterable[int], totals: Sequence[float]) -> int:
    """The index among ``indexes`` with the highest total, the first of them on a tie."""
    return max(indexes, key=lambda i: (totals[i], -i))


class SearchBot(Bot):
    """Determinized Monte Carlo search with ``budget_ms`` per decision and/or ``playouts`` rollouts."""

    name = "search"

    def __init__(
        self,
        seed: int = 0,
        budget_ms: float | None = 50.0,
        playouts: int | None = None,
        infer_bids: bool = True,
        club: bool = True,
    ) -> None:
        super().__init__(seed)
        if budget_ms is None and playouts is None:
            raise ValueError("a search needs a budget: budget_ms, playouts or both")
        self.budget_ms = budget_ms
        self.playouts = playouts
        self.infer_bids = infer_bids
        self.club = club

    @classmethod
    def plays_by_the_clock(cls, options: dict[str, Any]) -> bool:
        return options.get("budget_ms", 50.0) is not None

    def bid(self, view: View) -> Action:
        return self.search(view)

    def play(self, view: View) -> Action:
        return self.search(view)

    def value(self, state: GameState, before: list[int], side: int) -> float:
        """What the hand just played out in ``state`` was worth to ``side`` (:func:`hand_value`)."""
        return hand_value(state, before, side)

    def values(self, before: list[int], side: int) -> Values | None:
        """What values this decision's rollouts as :meth:`score` does, if :class:`Values` does
        (not a subclass's own :meth:`value` or :meth:`score`)."""
        if type(self).value is SearchBot.value and type(self).score is SearchBot.score:
            return Values(before, side)
        return None

    def rollout(self, state: GameState) -> Rollout:
        """The policy this decision's samples are played out by."""
        return Rollout(state, self.club)

    def sampler(self, view: View) -> Sampler:
        """What deals this decision's samples of the hidden cards."""
        return Sampler(view, self.infer_bids)

    def search(self, view: View) -> Action:
        """The legal action whose rollouts scored best on average."""
        if len(view.legal) == 1:
            return view.legal[0]
        legal, tried, totals = self.evaluate(view)
        best = best_of(tried, totals)
        return ACTIONS[legal[best]]

    def evaluate(self, view: View) -> tuple[list[int], list[int], list[float]]:
        """This decision's rollouts: the legal action codes, the indexes of those still tried at
        the end (all of them without :meth:`cuts`) and each one's total of :meth:`score`."""
        start = time.perf_counter()
        legal = [a.code for a in view.legal]
        deadline = decision_deadline(start, self.budget_ms, view)
        assert view.seat is not None
        side = view.rules.side_of(view.seat)
        sampler = self.sampler(view)
        positions = Positions(view)
        before = list(view.scores)
        totals = [0.0] * len(legal)
        rollout: Rollout | None = None
        values = self.values(before, side)
        plays: Plays | None = None
        done = 0
        tried = list(range(len(legal)))
        cuts = self.cuts(len(legal))
        while True:
            root = positions.state(sampler.deal(self.rng))
            if rollout is None:
                rollout = self.rollout(root)
                plays = rollout.compiled()
            if plays is not None and values is not None:
                plays.sample(root, legal, tried, self.rng, values, totals)
            else:
                for i in tried:
                    state = root.clone(self.rng)
                    state.apply_action(legal[i])
                    rollout.play_out(state)
                    totals[i] += self.score(i, state, before, side)
            done += len(tried)
            if (self.playouts is not None and done >= self.playouts) or (
                deadline is not None and time.perf_counter() >= deadline
            ):
                break
            if cuts and done >= cuts[0]:
                cuts.pop(0)
                tried = sorted(sorted(tried, key=lambda i: (-totals[i], i))[: max(2, (len(tried) + 1) // 2)])
        return legal, tried, totals

    def score(self, action: int, state: GameState, before: list[int], side: int) -> float:
        """What one rollout of the legal action at index ``action``, ended in ``state``, adds to
        its total: :meth:`value` (a subclass may note more of it)."""
        return self.value(state, before, side)

    def cuts(self, actions: int) -> list[int]:
        """After how many rollouts a decision among ``actions`` keeps only the better half of
        them (the best two at least) for the rest of its samples: never, for the search."""
        return []
