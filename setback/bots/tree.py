"""Information-set Monte Carlo tree search (SO-ISMCTS, Cowling, Powley and Whitehouse 2012) for
the card play of a hand, heads up.

Flat determinized Monte Carlo values each legal card by play-outs in which every later card is
the rollout policy's, so it never plays better than that policy past its first card. The tree
searches the later cards too: each iteration takes one determinization of the hidden cards,
walks down a tree of the cards played since the decision (a node is what every seat has seen:
the cards are played face up), choosing among the cards legal in this determinization by UCB
with availability counts (a card is scored against how often it could have been played, not
how often its parent was visited), adds one node, plays the rest of the hand out by the
rollout policy and backs the value up: each card's node keeps the value to the side of the
seat that played it. A node widens progressively: it tries the policy's card first and
another card only as its visits grow (:data:`WIDEN`), so that a node seen a few times plays as
the policy does rather than at random.

The first card is chosen in one of two ways. :func:`search` grows one tree from the decision
and takes the root's most visited card (SO-ISMCTS as published). :class:`TreeRollout` leaves
the first card to the flat search, which tries every card on the same samples (a paired
comparison, which takes the luck of the deal out of it), and searches below each card in a tree
of its own: a node's choices differ by a few hundredths of a chance of winning, less than the
luck of one deal.

A single tree serves every seat (SO-ISMCTS): since every card is played face up, a tree per
seat (MO-ISMCTS) would hold the same nodes. What a single tree cannot hide is the searching
seat's own hand, the same in every determinization: the other seat's choices in the tree are
made as if it knew that hand (as the rollout policy's are made seeing every sampled hand).

The exploration term is scaled by the spread of the values seen so far in the decision, so
that one constant (``explore``) serves values in points as well as chances of winning.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from setback.bots.search import Rollout
from setback.engine import GameState, Phase

EXPLORE = 1.0
"""UCB's exploration constant, in standard deviations of the decision's values."""
WIDEN = 4.0
"""Progressive widening: a node visited ``n`` times chooses among its ``1 + sqrt(n / WIDEN)``
first cards tried at most, the rollout policy's card first."""


@dataclass(slots=True)
class Node:
    """The cards played since the decision, as every seat saw them: ``total`` the sum of the
    values backed up through it, to the side of the seat that played its card, over ``visits``;
    ``available`` how often its card was legal when its parent was passed through."""

    visits: int = 0
    available: int = 1
    total: float = 0.0
    children: dict[int, Node] = field(default_factory=dict)

    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


@dataclass(slots=True)
class Spread:
    """A running mean and variance (Welford's) of the values seen at the root."""

    n: int = 0
    mean: float = 0.0
    squares: float = 0.0

    def add(self, value: float) -> None:
        self.n += 1
        delta = value - self.mean
        self.mean += delta / self.n
        self.squares += delta * (value - self.mean)

    def deviation(self) -> float:
        return math.sqrt(self.squares / self.n) if self.n > 1 else 1.0


class Tree:
    """The search tree of one decision's cards: ``policy`` (the rollout policy) plays the rest
    of the hand after the tree and chooses which card a node tries first; ``value(state, side)``
    values an iteration for each side; ``side`` is the deciding seat's (the values whose spread
    scales exploration).

    A node does not try every card before it chooses among them (with a few hundred iterations
    below each card, most would then be played once, at random): it widens progressively
    (``widen``, :data:`WIDEN`), so a node seen rarely plays as the policy does."""

    def __init__(
        self,
        policy: Rollout,
        value: Callable[[GameState, int], float],
        side: int,
        rng: random.Random,
        explore: float = EXPLORE,
        widen: float = WIDEN,
    ) -> None:
        self.root = Node()
        self.policy = policy
        self.widen = widen
        self.value = value
        self.side = side
        self.rng = rng
        self.explore = explore
        self.spread = Spread()

    def iterate(self, state: GameState, node: Node | None = None) -> None:
        """One iteration on the determinization ``state``, from ``node``: the root if None, else
        a child of the root (the deciding seat's card, which ``state`` has played)."""
        node = node or self.root
        side_of = state.side_of
        hand = state.hand_number
        path = [(node, self.side)] if node is not self.root else []
        scale = self.explore * max(self.spread.deviation(), 1e-6)
        rng = self.rng
        policy = self.policy
        while state.phase is Phase.PLAYING and state.hand_number == hand:
            legal = state.legal_actions()
            children = node.children
            mover = side_of[state.to_act]
            tried = [code for code in legal if code in children]
            if len(tried) < len(legal) and (
                not tried or len(tried) < 1 + math.sqrt(node.visits / self.widen) or node is self.root
            ):
                code = policy.action(state)
                if code in children:
                    untried = [c for c in legal if c not in children]
                    code = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
                child = children[code] = Node()
                state.apply_action(code)
                path.append((child, mover))
                break
            best = -math.inf
            code = legal[0]
            for option in tried:
                child = children[option]
                child.available += 1
                score = child.total / child.visits + scale * math.sqrt(math.log(child.available) / child.visits)
                if score > best:
                    best, code = score, option
            node = children[code]
            state.apply_action(code)
            path.append((node, mover))
        if state.phase is not Phase.GAME_OVER and state.hand_number == hand:
            policy.play_out(state)
        values = (self.value(state, 0), self.value(state, 1))
        for visited, side in path:
            visited.visits += 1
            visited.total += values[side]
        self.root.visits += 1
        self.spread.add(values[self.side])


def search(
    determinize: Callable[[], GameState],
    policy: Rollout,
    value: Callable[[GameState, int], float],
    iterations: int,
    rng: random.Random,
    deadline: float | None = None,
    explore: float = EXPLORE,
    widen: float = WIDEN,
) -> Node:
    """The tree of ``iterations`` iterations (fewer if ``deadline``, a ``time.perf_counter``
    time, comes first), each on a fresh ``determinize()`` (the decision's position with the
    hidden cards dealt): see :class:`Tree`. Returns the root: its children are the legal cards."""
    tree: Tree | None = None
    for _ in range(iterations):
        state = determinize()
        if tree is None:
            tree = Tree(policy, value, state.side_of[state.to_act], rng, explore, widen)
        tree.iterate(state)
        if deadline is not None and time.perf_counter() >= deadline:
            break
    assert tree is not None
    return tree.root


def most_visited(root: Node) -> int:
    """The root's card visited most (on a tie, the better mean, then the lower code)."""
    return max(root.children.items(), key=lambda item: (item[1].visits, item[1].mean(), -item[0]))[0]


class TreeRollout(Rollout):
    """A rollout for the flat search that searches the cards after the first: a decision's
    rollouts each play one of the deciding seat's cards (``seat``, holding ``hand`` at the
    decision) and then go down that card's subtree of one :class:`Tree`, the rest of the hand
    played by ``policy``. So the first card is still compared on the same samples as the other
    cards (the flat search's pairing, which takes the luck of the deal out of the comparison)."""

    def __init__(
        self, state: GameState, policy: Rollout, value: Callable[[GameState, int], float],
        rng: random.Random, explore: float = EXPLORE, widen: float = WIDEN, club: bool = True,
    ) -> None:
        super().__init__(state, club)
        self.seat = state.to_act
        self.hand = state.hands[self.seat]
        self.tree = Tree(policy, value, state.side_of[self.seat], rng, explore, widen)

    def play_out(self, state: GameState) -> None:
        played = self.hand & ~state.hands[self.seat]
        code = played.bit_length() - 1
        children = self.tree.root.children
        node = children.get(code)
        if node is None:
            node = children[code] = Node()
        self.tree.iterate(state, node)
