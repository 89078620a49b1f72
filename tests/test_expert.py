"""The expert bot: its choice depends only on what its seat sees, it is repeatable, it keeps to
the table's clock, its endgames are solved, and its halves can be swapped for search's."""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import replace

import pytest
from deals import act, cards, deal

from setback.bots import ExpertBot, bot_factory
from setback.bots.endgame import solve, value_after
from setback.bots.expert import MemoRollout, endgame_cards
from setback.bots.odds import TABLES, odds, win_chance
from setback.bots.odds import solve as odds_solve
from setback.bots.playout import Sampler
from setback.bots.reading import Reader
from setback.bots.search import Rollout
from setback.engine import Action, Game, Phase, Rules, View, mask_of, parse_action, state_from_view

SEAT_0 = "AS KS 10S 5S 2H 8C"
"""Heads up, the eldest's hand: it bids, pitches the ace of spades and wins the first tricks."""
SEAT_1 = ("2C 5D 7H 9S 3D 4D", "JC QD 7H 9S 3D JH")
"""Two hands for the dealer that share the cards it plays (9S 7H 3D) and differ in the rest."""


def ask(bot: ExpertBot, view: View) -> Action:
    return bot.play(view) if view.phase is Phase.PLAYING else bot.bid(view)


def eldest_views(dealer_hand: str) -> list[View]:
    """The eldest's views at its bid, its pitch and its lead with three cards left, the dealer
    holding ``dealer_hand``."""
    game = deal(Rules(players=2), 1, SEAT_0, dealer_hand)
    views = [game.view(0)]
    act(game, "bid 2", "pass")
    views.append(game.view(0))
    act(game, "AS", "9S", "KS", "7H", "10S", "3D")
    views.append(game.view(0))
    return views


def test_the_expert_sees_only_what_its_seat_sees() -> None:
    """Two deals that differ only in cards the eldest cannot see give it equal views, and the
    expert (bidding, pitching and solving an endgame) decides the same at each."""
    first, second = (eldest_views(hand) for hand in SEAT_1)
    assert first == second
    assert max(first[-1].hand_sizes) <= endgame_cards(2)
    for a, b in zip(first, second, strict=True):
        assert ask(ExpertBot(3, budget_ms=None, playouts=60, solves=6), a) == ask(
            ExpertBot(3, budget_ms=None, playouts=60, solves=6), b)


def test_the_expert_is_repeatable_for_a_seed() -> None:
    """Counted by playouts and solves, the expert makes the same choices every time."""
    game = Game(Rules(players=4, teams=2), 21)
    choices: list[list[Action]] = [[], []]
    while not game.is_over and len(choices[0]) < 30:
        view = game.view(game.to_act)
        for out in choices:
            out.append(ask(ExpertBot(5, budget_ms=None, playouts=40, solves=3), view))
        game.apply(choices[0][-1])
    assert choices[0] == choices[1]


def test_the_expert_stops_at_the_tables_clock() -> None:
    """A view with little time left cuts the expert short of its count (in CPU time, as for search)."""
    game = Game(Rules(players=3), 9)
    view = game.view(game.to_act)
    start = time.thread_time()
    ExpertBot(1, budget_ms=5000, playouts=10**7).bid(replace(view, time_left=0.02))
    assert time.thread_time() - start < 0.5


def test_an_endgame_is_solved_to_the_best_card() -> None:
    """With every card known, the eldest's three cards left are solved: its value is the best
    of its cards' (each followed by perfect play), and a solve leaves the position untouched."""
    view = eldest_views(SEAT_1[0])[-1]
    state = state_from_view(view, [mask_of(view.hand), mask_of(cards("2C 5D 4D"))])
    before = list(view.scores)
    hands = state.hands[:]
    best = solve(state, before)[0]
    assert state.hands == hands and state.to_act == 0
    values = []
    for code in state.legal_actions():
        child = state.clone(state.rng)
        child.apply_action(code)
        values.append(value_after(child, state.hand_number, before)[0])
    assert best == max(values)


def test_the_halves_can_be_swapped_for_searchs() -> None:
    """``expert@bid_by=search`` and ``expert@play_by=search`` are read from a SPEC; anything
    but expert or search is refused."""
    bot = bot_factory("expert@bid_by=search,play_by=expert")(0)
    assert isinstance(bot, ExpertBot) and bot.bid_by == "search" and bot.play_by == "expert"
    with pytest.raises(ValueError, match="bid_by"):
        ExpertBot(0, bid_by="heuristic")
    assert ExpertBot.plays_by_the_clock({"play_by": "search"})
    assert not ExpertBot.plays_by_the_clock({})


def test_samples_read_a_pass_and_a_pitch() -> None:
    """The dealer who saw the eldest pass (and, later, pitch) gets samples that mostly read both:
    fewer of them miss a reading than the plain sampler's, on the same seed."""
    game = deal(Rules(players=2), 1, "AS KS 10S 5S 2H 8C", "2C 5D 7H 9S 3D 4D")
    act(game, "pass")
    view = game.view(1)
    reader, plain = Reader(view), Sampler(view)
    assert reader.limits == [(0, 0, 0, 0)]
    misses = []
    for sampler in (reader, plain):
        rng = random.Random(7)
        misses.append(sum(reader.misses(sampler.deal(rng)) for _ in range(40)))
    assert misses[0] < misses[1]
    pitched = deal(Rules(players=2), 1, "AS KS 10S 5S 2H 8C", "2C 5D 7H 9S 3D 4D")
    act(pitched, "bid 2", "pass", "AS")
    dealer = Reader(pitched.view(1))
    assert dealer.pitch == (0, 3, 0)
    assert dealer.misses([mask_of(cards("KH QH JH 10H 9H")), 0]) == 1  # a best suit of hearts misreads


def test_the_chances_of_winning_solve_the_game_they_count() -> None:
    """Hands in which the dealer's side always pitches and makes 1: the side dealing at 0 to 0
    reaches 11 first, so its chance is 1, and the other's 0."""
    rules = Rules(players=2)
    chances = odds_solve(rules, Counter({(True, 1, 0): 1}))
    assert win_chance(chances, rules, [0, 0], 0, 0) == 1.0
    assert win_chance(chances, rules, [0, 0], 1, 0) == 0.0
    assert win_chance(chances, rules, [10, 10], 1, 1) == 1.0


def test_the_expert_weighs_a_hand_by_its_chance_of_winning_at_two_sides() -> None:
    """Heads up, a score further ahead has a better chance; a side's and its rival's add to 1;
    a table with no chances (three sides) gets none and the expert counts points there."""
    rules = Rules(players=2)
    chances = odds(rules)
    assert chances is not None and len(chances) == (2 * rules.target) ** 2 * 2
    assert win_chance(chances, rules, [9, 5], 0, 0) > win_chance(chances, rules, [5, 5], 0, 0)
    assert win_chance(chances, rules, [5, 9], 1, 0) + win_chance(chances, rules, [5, 9], 1, 1) == 1.0
    assert all(odds(r) is not None for r in TABLES)
    assert odds(Rules(players=3)) is None
    assert odds(Rules(players=2, target=21)) is None


def test_a_bids_rollouts_replay_the_play_after_the_auction() -> None:
    """Each bid played out by the remembering rollout ends as the plain rollout's does, while
    the play after the auction is worked out once for each seat that pitched."""
    game = Game(Rules(players=2), 4)
    view = game.view(game.to_act)
    root = state_from_view(view, Sampler(view).deal(random.Random(1)))
    memo, plain = MemoRollout(root), Rollout(root)
    legal = root.legal_actions()
    for code in legal:
        ends = []
        for rollout in (memo, plain):
            state = root.clone(random.Random(0))
            state.apply_action(code)
            rollout.play_out(state)
            ends.append((state.scores, state.hands, state.hand_number))
        assert ends[0] == ends[1]
    assert 1 <= len(memo.plays) <= 2 < len(legal)


def test_only_a_card_among_three_narrows() -> None:
    """A counted card among three or more narrows twice; a bid, a choice of two, a bot without
    ``narrow`` and the search's half never do."""
    bot = ExpertBot(0, budget_ms=None, playouts=400)
    bot.playouts = 400
    assert bot.cuts(5) == [100, 200]
    assert bot.cuts(2) == []
    bot.bidding = True
    assert bot.cuts(5) == []
    assert ExpertBot(0, narrow=False).cuts(5) == []


def test_a_dealer_margin_holds_back_the_dealers_outbid() -> None:
    """Heads up, a dealer facing a bid of 2 outbids with a strong hand, but not once every outbid
    must beat passing by more points than a hand can make; the eldest's bid is unchanged."""
    game = deal(Rules(players=2), 1, "KH QH 9H 5H 3D 7C", "AS KS 10S 4S 2H 8C")
    eldest = game.view(0)
    act(game, "bid 2")
    dealer = game.view(1)

    def bot(margin: float) -> ExpertBot:
        return ExpertBot(5, budget_ms=None, playouts=120, dealer_margin=margin)

    assert bot(0.0).bid(dealer) != parse_action("pass")
    assert bot(20.0).bid(dealer) == parse_action("pass")
    assert bot(0.0).bid(eldest) == bot(20.0).bid(eldest)


def test_an_eldest_bonus_raises_the_eldests_bid() -> None:
    """Heads up, an eldest with a fair hand bids less than the top bid, and the top bid once each
    point bid is worth more than a hand can lose; the dealer's bid is unchanged."""
    game = deal(Rules(players=2), 1, "KH QH 9H 5H 3D 7C", "AS KS 10S 4S 2H 8C")
    eldest = game.view(0)
    act(game, "bid 2")
    dealer = game.view(1)

    def bot(bonus: float) -> ExpertBot:
        return ExpertBot(5, budget_ms=None, playouts=120, eldest_bonus=bonus)

    assert bot(0.0).bid(eldest) != parse_action("bid 4")
    assert bot(20.0).bid(eldest) == parse_action("bid 4")
    assert bot(0.0).bid(dealer) == bot(20.0).bid(dealer)
