"""The expert's card play by information-set Monte Carlo tree search (``expert@tree=true``,
:mod:`setback.bots.tree`): its choice depends only on what its seat sees, it is repeatable for a
seed, it plays legal cards, and the tree counts what it promises."""

from __future__ import annotations

import random

from deals import act, cards, deal

from setback.bots import ExpertBot, bot_factory
from setback.bots.expert import MemoRollout, point_difference
from setback.bots.reading import Reader
from setback.bots.solver import Solver
from setback.bots.tree import TreeRollout, most_visited, search
from setback.engine import Action, Card, Game, GameState, Phase, Rules, View, mask_of, state_from_view

SEAT_0 = "AS KS 10S 5S 2H 8C"
"""Heads up, the eldest's hand: it bids, pitches the ace of spades and wins the first tricks."""
SEAT_1 = ("2C 5D 7H 9S 3D 4D", "JC QD 7H 9S 3D JH")
"""Two hands for the dealer that share the cards it plays (9S 7H) and differ in the rest."""


def tree_bot(seed: int, ucb_root: bool = False) -> ExpertBot:
    return ExpertBot(seed, budget_ms=None, playouts=80, tree=True, ucb_root=ucb_root)


def ask(bot: ExpertBot, view: View) -> Action:
    return bot.play(view) if view.phase is Phase.PLAYING else bot.bid(view)


def eldest_views(dealer_hand: str) -> list[View]:
    """The eldest's views at its pitch and its leads with five and four cards left, the dealer
    holding ``dealer_hand``."""
    game = deal(Rules(players=2), 1, SEAT_0, dealer_hand)
    act(game, "bid 2", "pass")
    views = [game.view(0)]
    act(game, "AS", "9S")
    views.append(game.view(0))
    act(game, "KS", "7H")
    views.append(game.view(0))
    return views


def test_the_tree_sees_only_what_its_seat_sees() -> None:
    """Two deals that differ only in cards the eldest cannot see give it equal views, and the
    tree, below the flat root or from the root, decides the same at each (and again for the same
    seed)."""
    first, second = (eldest_views(hand) for hand in SEAT_1)
    assert first == second
    for ucb_root in (False, True):
        for a, b in zip(first, second, strict=True):
            choices = {ask(tree_bot(3, ucb_root), view) for view in (a, b, a)}
            assert len(choices) == 1


def test_the_tree_plays_whole_games_legally_and_repeatably() -> None:
    """Heads up against the flat expert, every card the tree chooses is legal (the game would
    refuse it otherwise), and the same seed makes the same choices."""
    game = Game(Rules(players=2), 5)
    bots = [tree_bot(1), ExpertBot(2, budget_ms=None, playouts=40)]
    twin = tree_bot(1)
    choices = 0
    while not game.is_over and game.hand_number < 3:
        view = game.view(game.to_act)
        action = ask(bots[view.seat or 0], view)
        if view.seat == 0:
            assert ask(twin, view) == action
            choices += view.phase is Phase.PLAYING and len(view.legal) > 1
        game.apply(action)
    assert choices >= 5


def test_the_tree_counts_its_iterations_and_availability() -> None:
    """Every iteration passes the root and one of its cards; a card is available at least as
    often as it was chosen, and every legal card of the root is tried."""
    game = deal(Rules(players=2), 1, SEAT_0, SEAT_1[0])
    act(game, "bid 2", "pass")
    view = game.view(0)
    reader = Reader(view)
    rng = random.Random(4)

    def determinize() -> GameState:
        return state_from_view(view, reader.deal(rng))

    rollout = MemoRollout(determinize())
    bot = ExpertBot(0)
    bot.chances = None
    before = list(view.scores)
    root = search(determinize, rollout, lambda s, side: bot.value(s, before, side), 200, rng)
    assert root.visits == 200 == sum(child.visits for child in root.children.values())
    assert set(root.children) == {a.code for a in view.legal}
    nodes = list(root.children.values())
    while nodes:
        node = nodes.pop()
        assert node.available >= node.visits >= sum(c.visits for c in node.children.values())
        nodes.extend(node.children.values())
    assert most_visited(root) in root.children


def test_the_tree_is_an_option() -> None:
    """``expert@tree=true`` is read from a SPEC; the expert searches flat by default."""
    bot = bot_factory("expert@tree=true,explore=0.5")(0)
    assert isinstance(bot, ExpertBot) and bot.tree and bot.explore == 0.5
    assert not ExpertBot(0).tree


def test_the_tree_finds_the_card_the_tactics_misjudge() -> None:
    """Every card known (one determinization): the pitcher of spades, 2 bid, has taken QS 7S 8H 5D
    and leads from 2C 4C 8D 4S against 6C QC AC JD. Exact play makes only the 8D worth 3 points
    (the JD must take it, and the 4S is kept for the AC, not spent on the 6C: Game); the tactics
    played out after each card (the flat search's value) make it 1 point and the 2C 3, since their
    pitcher ruffs the 6C. The tree, searching the cards after the first, leads the 8D, from the
    root and below the flat root alike."""
    game = deal(Rules(players=2), 1, "2C 4C 8D 8H 4S QS", "6C QC AC 5D JD 7S")
    act(game, "bid 2", "pass", "QS", "7S", "8H", "5D")
    view = game.view(0)
    state = state_from_view(view, [mask_of(view.hand), mask_of(cards("6C QC AC JD"))])
    before = list(view.scores)
    legal = list(state.legal_actions())
    eight = Card.parse("8D")
    exact, flat = [], []
    for code in legal:
        after = state.clone(random.Random(0))
        after.apply_action(code)
        exact.append(Solver(after, before, point_difference).solve(after)[0])
        MemoRollout(state).play_out(after)
        flat.append(point_difference(after, before, 0))
    assert max(exact) == exact[legal.index(eight)] > max(v for c, v in zip(legal, exact, strict=True) if c != eight)
    assert flat[legal.index(eight)] < max(flat)

    def value(end: GameState, side: int) -> float:
        return point_difference(end, before, side)

    rng = random.Random(1)
    root = search(lambda: state.clone(rng), MemoRollout(state), value, 300, rng)
    assert most_visited(root) == eight
    below = TreeRollout(state, MemoRollout(state), value, rng)
    totals = [0.0] * len(legal)
    for _ in range(100):
        for i, code in enumerate(legal):
            after = state.clone(rng)
            after.apply_action(code)
            below.play_out(after)
            totals[i] += value(after, 0)
    assert legal[totals.index(max(totals))] == eight
