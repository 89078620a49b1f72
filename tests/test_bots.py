"""The built-in bots: always legal, for every table; search keeps to its budget; heuristic beats random."""

from __future__ import annotations

import random
import time
from dataclasses import replace

import pytest
from deals import act, deal
from hypothesis import given
from hypothesis import strategies as st
from test_properties import quick, rules_strategy

from setback.bots import BeginnerBot, HeuristicBot, SearchBot, bot_factory
from setback.bots.playout import Sampler, voids
from setback.bots.search import Rollout
from setback.engine import PASS_CODE, Action, Game, LowRule, Phase, Rules, Variant, View, mask_of, state_from_view
from setback.match import MatchPlan, play_match


def position(rules: Rules, seed: int, play_seed: int, steps: int) -> Game | None:
    """A game after ``steps`` random legal actions, or None if it ended first."""
    game = Game(rules, seed)
    rng = random.Random(play_seed)
    for _ in range(steps):
        if game.is_over:
            return None
        game.apply(rng.choice(game.legal_actions()))
    return None if game.is_over else game


def ask(bot: BeginnerBot | HeuristicBot | SearchBot, view: View) -> Action:
    return bot.play(view) if view.phase is Phase.PLAYING else bot.bid(view)


@quick
@given(rules=rules_strategy(), seed=st.integers(0, 2**32), play_seed=st.integers(0, 2**16),
       steps=st.integers(0, 80))
def test_heuristic_search_and_beginner_always_choose_a_legal_action(
    rules: Rules, seed: int, play_seed: int, steps: int
) -> None:
    """From any reachable position, at any table, each bot answers with one of view.legal."""
    game = position(rules, seed, play_seed, steps)
    if game is None:
        return
    view = game.view(game.to_act)
    assert ask(HeuristicBot(seed), view) in view.legal
    assert ask(SearchBot(seed, budget_ms=None, playouts=12), view) in view.legal
    assert ask(BeginnerBot(seed, mistakes=0.5), view) in view.legal


@quick
@given(rules=rules_strategy(), seed=st.integers(0, 2**32), play_seed=st.integers(0, 2**16),
       steps=st.integers(0, 80))
def test_sampled_hands_agree_with_what_the_seat_knows(
    rules: Rules, seed: int, play_seed: int, steps: int
) -> None:
    """A determinization keeps the seat's own hand, gives each seat its number of cards, deals no
    card twice or already played, and never gives a seat a suit it has shown void in."""
    game = position(rules, seed, play_seed, steps)
    if game is None:
        return
    seat = game.to_act
    assert seat is not None
    view = game.view(seat)
    sampler = Sampler(view)
    shown_void = voids(view)
    truth = [mask_of(game.view(s).hand) for s in range(rules.players)]
    for s in range(rules.players):
        assert truth[s] & shown_void[s] == 0, "a void the true hand contradicts"
    holdings = sampler.deal(random.Random(play_seed))
    assert holdings[seat] == mask_of(view.hand)
    assert [h.bit_count() for h in holdings] == list(view.hand_sizes)
    union = 0
    for s, mask in enumerate(holdings):
        assert union & mask == 0
        union |= mask
        assert mask & shown_void[s] == 0
    assert union & ~(sampler.unknown | mask_of(view.hand)) == 0


def test_search_keeps_to_its_time_budget() -> None:
    """With a 20 ms budget no decision takes more than ten times that (a generous bound, not a
    benchmark). Counted in this thread's CPU time: a search past its deadline spends it, while
    a busy machine that holds the thread back does not."""
    bot = SearchBot(3, budget_ms=20)
    for players, teams in ((2, None), (4, 2), (7, None)):
        game = Game(Rules(players=players, teams=teams), players)
        for _ in range(12):
            if game.is_over:
                break
            view = game.view(game.to_act)
            start = time.thread_time()
            action = ask(bot, view)
            assert time.thread_time() - start < 0.2
            assert action in view.legal
            game.apply(view.legal[0])


def test_search_stops_at_the_tables_clock() -> None:
    """A view whose clock has little time left cuts the search short of its own budget (in CPU
    time, as above)."""
    game = Game(Rules(players=3), 9)
    view = game.view(game.to_act)
    start = time.thread_time()
    SearchBot(1, budget_ms=5000).bid(replace(view, time_left=0.02))
    assert time.thread_time() - start < 0.5


def test_search_with_a_playout_budget_is_reproducible() -> None:
    """Seeded and budgeted by playouts, the search makes the same choices every time."""
    game = Game(Rules(players=4, teams=2), 21)
    views: list[View] = []
    while not game.is_over and len(views) < 20:
        view = game.view(game.to_act)
        views.append(view)
        game.apply(ask(HeuristicBot(0), view))
    first = [ask(SearchBot(5, budget_ms=None, playouts=40), v) for v in views]
    again = [ask(SearchBot(5, budget_ms=None, playouts=40), v) for v in views]
    assert first == again


def test_bot_options_come_from_the_spec() -> None:
    """``search@budget_ms=5,playouts=10`` makes a search bot with those budgets; a bad key is an error."""
    bot = bot_factory("search@budget_ms=5,playouts=10")(0)
    assert isinstance(bot, SearchBot) and bot.budget_ms == 5 and bot.playouts == 10
    for bad in ("search@depth=3", "search@budget_ms", "heuristic@x=1"):
        try:
            bot_factory(bad)
        except ValueError:
            continue
        raise AssertionError(f"{bad} was accepted")


def test_bot_option_values_are_checked_when_the_spec_is_read() -> None:
    """Each ``@key=value`` is read as the constructor's annotation asks (None, true/false or 0/1,
    int, float; an int passes for a float); any other value is refused at once, naming the bot,
    the keyword, the value and the type wanted."""
    with pytest.raises(ValueError) as refused:
        bot_factory("heuristic@boldness=abc")
    assert all(part in str(refused.value) for part in ("heuristic", "boldness", "'abc'", "float"))
    for bad in ("heuristic@boldness=None", "search@playouts=1.5", "search@budget_ms=fast",
                "search@infer_bids=maybe"):
        with pytest.raises(ValueError, match="wants"):
            bot_factory(bad)
    heuristic = bot_factory("heuristic@boldness=1")(0)
    assert isinstance(heuristic, HeuristicBot) and heuristic.boldness == 1
    search = bot_factory("search@budget_ms=None,playouts=7,infer_bids=false")(0)
    assert isinstance(search, SearchBot)
    assert search.budget_ms is None and search.playouts == 7 and search.infer_bids is False
    quiet = bot_factory("search@infer_bids=0")(0)
    assert isinstance(quiet, SearchBot) and quiet.infer_bids is False


def test_heuristic_beats_random_in_most_games() -> None:
    """A smoke test of strength (the real figures are measured with `setback match`)."""
    result = play_match(MatchPlan(("heuristic", "random"), Rules(players=2), 30, seed=5, duplicate=True))
    assert result.stats[0].wins >= 24


def test_beginner_is_deterministic_for_a_seed() -> None:
    """Two matches of the beginner from one seed are the same games, move for move; another seed
    makes other slips."""
    def moves(seed: int) -> list[object]:
        out: list[dict[str, object]] = []
        plan = MatchPlan(("beginner@mistakes=0.5", "beginner"), Rules(players=2), 2, seed=seed)
        play_match(plan, on_record=out.append)
        return [r["actions"] for r in out]
    assert moves(3) == moves(3)
    assert moves(3) != moves(4)


def test_beginner_loses_to_heuristic_and_beats_random() -> None:
    """A new player's plan beats random play, and its slips lose to heuristic more often than not
    (seeded duplicate games; the ladder in the README measures it over 400)."""
    against_heuristic = play_match(MatchPlan(("beginner", "heuristic"), Rules(players=2), 40, seed=9, duplicate=True))
    assert against_heuristic.stats[0].wins < 20
    against_random = play_match(MatchPlan(("beginner", "random"), Rules(players=2), 40, seed=9, duplicate=True))
    assert against_random.stats[0].wins > 20


@pytest.mark.soak
def test_search_beats_heuristic_in_duplicate() -> None:
    """Two players, 200 duplicate games at 20 ms a decision: search wins more than half, surely."""
    plan = MatchPlan(("search@budget_ms=20", "heuristic"), Rules(players=2), 200, seed=8, duplicate=True)
    low, _ = play_match(plan, jobs=2).stats[0].win_interval()
    assert low > 0.5


@pytest.mark.soak
@pytest.mark.parametrize(("players", "teams"), [(3, None), (4, 2), (5, None), (6, 3), (7, None)])
def test_search_and_heuristic_finish_games_at_every_table(players: int, teams: int | None) -> None:
    """Whole games of search and heuristic bots at every size of table end without an error or timeout."""
    sides = teams or players
    specs = ("search@budget_ms=5", *("heuristic",) * (sides - 1))
    result = play_match(MatchPlan(specs, Rules(players=players, teams=teams, smudge=True), 2, seed=players))
    assert result.games == 2
    assert all(s.deciding.errors == 0 and s.deciding.timeouts == 0 for s in result.stats)


@pytest.mark.parametrize("variant", list(Variant))
def test_every_builtin_bot_plays_every_variant_to_the_end(variant: Variant) -> None:
    """random, beginner, heuristic, search and expert each play seeded games of every variant to
    the end, with no error and no illegal action (a match counts both): two matches, the first
    seats and the last, as many as the table has sides."""
    rules = Rules(players=6 if variant is Variant.PEDRO else 4, variant=variant, target=7)  # pedro: 3 pairs
    bots: tuple[str, ...] = ("random", "beginner", "heuristic", "search@budget_ms=none,playouts=24",
                             "expert@budget_ms=none,playouts=24,solves=2")
    if rules.teams is not None:
        bots = bots[1:]
    sides = rules.players if rules.teams is None else rules.teams
    for specs in (bots[:sides], bots[-sides:]):
        result = play_match(MatchPlan(specs, rules, 3, seed=5))
        assert result.games == 3
        assert all(s.deciding.errors == 0 and s.deciding.timeouts == 0 for s in result.stats)


STEAL_DEAL = ("2C 5D 7H 9S 3D 4D", "AS KS 10S 5S 2H 8C")
"""Heads up: the dealer (seat 1) holds a hand worth the eldest's bid of 2."""


def test_search_takes_the_dealers_steal_when_its_hand_is_worth_it() -> None:
    """dealer_steal: search plays the steal out with the other actions and takes the bid at 2."""
    game = deal(Rules(players=2, dealer_steal=True), 1, *STEAL_DEAL)
    act(game, "bid 2")
    assert str(SearchBot(0, budget_ms=None, playouts=200).bid(game.view(1))) == "bid 2"


def test_search_plays_out_under_the_tables_club_options() -> None:
    """A sample is rebuilt under the view's rules, club options too, and the rollouts judge them:
    their dealer steals a bid its hand is worth (and, with club=False, lets it stand)."""
    rules = Rules(players=2, dealer_steal=True, low=LowRule.CAPTURED, min_bid=2)
    game = deal(rules, 1, *STEAL_DEAL)
    act(game, "bid 2")
    view = game.view(1)
    sampled = state_from_view(view, Sampler(view).deal(random.Random(3)))
    assert sampled.rules == rules
    assert Rollout(sampled).action(sampled) == PASS_CODE + 2
    assert Rollout(sampled, club=False).action(sampled) == PASS_CODE


PARTNER_HANDS = ("2C 5D 7H 9S 3D 4D", "AS KS 10S 5S 2H 8C", "QH JH 9H 6C 7C 9C")
"""Seats 1-3 of a partnership table dealt by seat 3: seat 2 is the bot, partner of seat 0's person."""
PERSON_HANDS = ("3C 4C 6D 8D JD QD", "3C 4C KH AH 4H 5H")
"""Two hands the person at seat 0 might hold."""


@pytest.mark.parametrize("spec", ["beginner", "heuristic", "search@budget_ms=None,playouts=40", "random"])
def test_a_bot_partners_choices_do_not_depend_on_the_persons_hidden_cards(spec: str) -> None:
    """Whatever the person beside it holds, a built-in bot partner bids, pitches and leads the
    same: it is given only its seat's view, which is the same in both deals."""
    choices = []
    for person in PERSON_HANDS:
        game = deal(Rules(players=4, teams=2), 3, person, *PARTNER_HANDS)
        seen = []
        for moves in (("pass", "pass"), ("bid 2", "pass"), ("AS", "6C", "3C", "9S")):
            act(game, *moves)
            assert game.to_act == 2
            seen.append((game.view(2), ask_spec(spec, game.view(2))))
        choices.append(seen)
    first, second = choices
    assert [view for view, _ in first] == [view for view, _ in second]
    assert [choice for _, choice in first] == [choice for _, choice in second]


def ask_spec(spec: str, view: View) -> Action:
    bot = bot_factory(spec)(11)
    answer = bot.play(view) if view.phase is Phase.PLAYING else bot.bid(view)
    assert isinstance(answer, Action)
    return answer
