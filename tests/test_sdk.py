"""The bot SDK: async bots, hooks, and failing bots turned into counted timeouts and errors."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from setback.bots import Bot, BotSeat, GameStart, Limits, RandomBot, fallback
from setback.bots.registry import BUILTIN
from setback.engine import Action, Game, HandResult, Outcome, Rules, View
from setback.match import MatchPlan, play_match, play_with


class AsyncBot(Bot):
    """Answers after yielding to the event loop, as a networked bot would."""

    async def bid(self, view: View) -> Action:
        await asyncio.sleep(0)
        return self.rng.choice(view.legal)

    async def play(self, view: View) -> Action:
        await asyncio.sleep(0)
        return view.legal[-1]


class CountingBot(RandomBot):
    """Counts the hooks it is called with."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.starts = self.ends = self.games = 0

    def on_hand_start(self, view: View) -> None:
        assert len(view.hand) == 6
        self.starts += 1

    async def on_hand_end(self, result: HandResult) -> None:
        self.ends += 1

    def on_game_end(self, outcome: Outcome) -> None:
        self.games += 1


class RaisingBot(RandomBot):
    def play(self, view: View) -> Action:
        raise RuntimeError("a bug in the bot")


class IllegalBot(RandomBot):
    def bid(self, view: View) -> Action:
        return view.legal[-1] if len(view.legal) == 1 else "bid 9"  # type: ignore[return-value]


class SleepyBot(RandomBot):
    """A plain bot that sometimes thinks for far longer than the table allows."""

    def play(self, view: View) -> Action:
        if len(view.hand) == 6:
            time.sleep(0.5)
        return view.legal[0]


class HungAsyncBot(Bot):
    async def bid(self, view: View) -> Action:
        await asyncio.sleep(3600)
        return view.legal[0]

    def play(self, view: View) -> Action:
        return view.legal[0]


def test_async_bots_play_whole_games() -> None:
    """Async bid and play are awaited; a game between async and plain bots completes cleanly."""
    game, clocks = play_with(Game(Rules(players=3), 4), [AsyncBot(1), RandomBot(2), AsyncBot(3)], Limits())
    assert game.is_over
    assert all(c.errors == 0 and c.timeouts == 0 and c.decisions > 0 for c in clocks)


def test_hooks_are_called_for_every_hand_and_the_game() -> None:
    """on_hand_start for every deal, on_hand_end for every scored hand, on_game_end once."""
    bots = [CountingBot(s) for s in range(4)]
    game, _ = play_with(Game(Rules(players=4, teams=2), 8), list[Bot](bots), Limits())
    results = sum(1 for e in game.events if type(e).__name__ == "HandScored")
    dealt = sum(1 for e in game.events if type(e).__name__ == "HandDealt")
    assert all(b.starts == dealt and b.ends == results and b.games == 1 for b in bots)


def test_a_raising_bot_is_counted_and_the_game_goes_on_with_the_fallback() -> None:
    """Every play of a bot that raises is an error, answered with the lowest-code legal action."""
    game, clocks = play_with(Game(Rules(players=2), 1), [RaisingBot(0), RandomBot(1)], Limits())
    assert game.is_over
    assert clocks[0].errors > 0 and clocks[1].errors == 0
    plays = [a for i, a in enumerate(game.actions) if str(a).startswith("play")]
    assert plays


def test_an_illegal_answer_is_an_error() -> None:
    """An answer that is not in view.legal counts as an error and the fallback is played."""
    game, clocks = play_with(Game(Rules(players=2), 2), [IllegalBot(0), RandomBot(1)], Limits())
    assert game.is_over and clocks[0].errors > 0


def test_fallback_is_the_lowest_code_legal_action() -> None:
    """In bidding a pass when it is legal; in play the legal card with the lowest index."""
    game = Game(Rules(players=2), 5)
    view = game.view(game.to_act)
    assert str(fallback(view)) == "pass"
    game.apply(view.legal[0])
    view = game.view(game.to_act)
    assert str(fallback(view)) == "bid 1"  # the dealer is forced to bid
    game.apply(fallback(view))
    view = game.view(game.to_act)
    assert fallback(view) == min(view.legal, key=lambda a: a.code)


def test_a_slow_plain_bot_times_out_and_the_table_does_not_wait() -> None:
    """A plain bot over the limit is a timeout; the game does not wait for it to finish."""
    start = time.perf_counter()
    game, clocks = play_with(Game(Rules(players=2), 3), [SleepyBot(0), RandomBot(1)], Limits(0.1))
    assert game.is_over and clocks[0].timeouts > 0 and clocks[1].timeouts == 0
    assert time.perf_counter() - start < 0.5 * clocks[0].timeouts


def test_a_hung_async_bot_is_cancelled_at_the_limit() -> None:
    """An async bot that never answers is timed out at every decision and the game still ends."""
    game, clocks = play_with(Game(Rules(players=2), 6), [HungAsyncBot(0), RandomBot(1)], Limits(0.01))
    assert game.is_over and clocks[0].timeouts > 0 and clocks[0].errors == 0


def test_a_match_with_failing_bots_completes_and_counts_them() -> None:
    """In a match, each bot's timeouts and errors are totalled in the result."""
    BUILTIN["raising-for-test"] = RaisingBot
    try:
        result = play_match(MatchPlan(("raising-for-test", "random"), Rules(players=2), 4, seed=2))
    finally:
        del BUILTIN["raising-for-test"]
    assert result.games == 4
    assert result.stats[0].deciding.errors > 0 and result.stats[1].deciding.errors == 0
    assert result.as_dict()["bots"][0]["errors"] == result.stats[0].deciding.errors


def test_bot_seat_fills_in_the_time_left() -> None:
    """The view a bot sees carries the table's decision limit as ``time_left``."""
    seen: list[float | None] = []

    class Watcher(RandomBot):
        def bid(self, view: View) -> Action:
            seen.append(view.time_left)
            return view.legal[0]

    game = Game(Rules(players=2), 1)
    seat = BotSeat(Watcher(0), game.to_act or 0, Limits(0.25))
    asyncio.run(seat.decide(game.view(game.to_act)))
    seat.close()
    assert seen == [0.25]


class AlwaysSlowBot(RandomBot):
    """A plain bot slower than the table at every decision."""

    def bid(self, view: View) -> Action:
        time.sleep(0.06)
        return view.legal[0]

    def play(self, view: View) -> Action:
        time.sleep(0.06)
        return view.legal[0]


class FailingHooksBot(RandomBot):
    def on_hand_start(self, view: View) -> None:
        raise RuntimeError("a bug in a hook")


def test_the_counts_are_of_decisions_only_not_of_hooks() -> None:
    """A bot slower than the limit everywhere times out at most once a decision, and a hook
    that fails is logged, not counted (spec.md section 5: counts of decisions)."""
    _, clocks = play_with(Game(Rules(players=2, target=7), 3), [AlwaysSlowBot(0), RandomBot(1)], Limits(0.02))
    assert 0 < clocks[0].timeouts <= clocks[0].decisions
    _, clocks = play_with(Game(Rules(players=2, target=7), 3), [FailingHooksBot(0), RandomBot(1)], Limits())
    assert clocks[0].errors == 0 and clocks[0].decisions > 0


class ThreadNotingBot(RandomBot):
    """Notes the thread each decision is made on, and the time it was given."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.threads: set[int] = set()
        self.time_left: set[float | None] = set()

    def bid(self, view: View) -> Action:
        self.threads.add(threading.get_ident())
        self.time_left.add(view.time_left)
        return super().bid(view)


def test_with_no_clock_a_plain_bot_is_asked_on_the_games_own_thread() -> None:
    """No limit, no thread: self-play at full speed. With a limit, a thread of the seat's own,
    and the view says the time left. Errors count the same either way."""
    free = ThreadNotingBot(1)
    game, clocks = play_with(Game(Rules(players=2), 5), [free, RaisingBot(2)], Limits(decision_seconds=None))
    assert game.is_over and free.threads == {threading.get_ident()} and free.time_left == {None}
    assert clocks[1].errors > 0 and clocks[0].errors == 0
    timed = ThreadNotingBot(1)
    play_with(Game(Rules(players=2), 5), [timed, RandomBot(2)], Limits(decision_seconds=2.0))
    assert threading.get_ident() not in timed.threads and timed.time_left == {2.0}


class OftenWrongBot(RandomBot):
    """Raises at every card, and is too slow at every bid (it is cancelled each time)."""

    async def bid(self, view: View) -> Action:  # type: ignore[override]
        await asyncio.sleep(0.05)
        return super().bid(view)

    def play(self, view: View) -> Action:
        raise ValueError("a bug in the bot's play")


def test_a_bots_error_and_its_timeouts_are_logged_once_and_counted_always(capsys: pytest.CaptureFixture[str]) -> None:
    """A thousand games would repeat the same traceback: it is logged the first time only."""
    capsys.readouterr()
    clocks = [play_with(Game(Rules(players=2), seed), [OftenWrongBot(seed), RandomBot(seed)], Limits(0.02))[1]
              for seed in (1, 2)]
    err = capsys.readouterr().err
    said = [line for line in err.splitlines() if "bot=OftenWrongBot" in line]  # a loaded machine may time out RandomBot
    assert sum("bot error" in line for line in said) == 1 and sum("bot timed out" in line for line in said) == 1
    assert "a bug in the bot's play" in err
    assert all(c[0].errors > 1 and c[0].timeouts > 0 for c in clocks)


class StartNotingBot(RandomBot):
    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.starts: list[GameStart] = []

    def on_game_start(self, start: GameStart) -> None:
        self.starts.append(start)


def test_a_bot_is_told_who_sits_where_before_the_game() -> None:
    """In a match, each seat's SPEC; the bot's own seat; the rules."""
    plan = MatchPlan(("random", "random"), Rules(players=2), games=1, seed=3)
    bots = [StartNotingBot(0), StartNotingBot(1)]
    play_with(Game(plan.rules, 3), list[Bot](bots), Limits(None), ("mine.py:Mine", "random"))
    assert [b.starts for b in bots] == [[GameStart(s, ("mine.py:Mine", "random"), plan.rules)] for s in (0, 1)]


class LateAwaitingBot(RandomBot):
    """A plain method that hands back an awaitable, and hooks that are async and plain."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.ends = 0

    def play(self, view: View) -> Action:
        async def later() -> Action:
            await asyncio.sleep(0.001)
            return view.legal[0]

        return later()  # type: ignore[return-value]

    def on_hand_end(self, result: HandResult) -> None:
        self.ends += 1


def test_with_no_clock_a_game_needs_no_event_loop_and_awaitable_answers_still_count() -> None:
    """With no limit and plain methods a game is played with no event loop, and an awaitable
    that a plain method returns is still awaited (on a loop of its own), counted as no error;
    a bot with an async method is played on a loop, as ever."""
    late = LateAwaitingBot(1)
    game, clocks = play_with(Game(Rules(players=2), 3), [late, RandomBot(2)], Limits(decision_seconds=None))
    assert game.is_over and clocks[0].errors == 0 and clocks[0].decisions > 0
    assert late.ends == sum(1 for e in game.events if type(e).__name__ == "HandScored")
    assert BotSeat(late, 0, Limits(decision_seconds=None)).direct
    assert not BotSeat(AsyncBot(1), 0, Limits(decision_seconds=None)).direct
    assert not BotSeat(RandomBot(1), 0, Limits()).direct
    game, clocks = play_with(Game(Rules(players=2), 3), [AsyncBot(1), RandomBot(2)], Limits(decision_seconds=None))
    assert game.is_over and clocks[0].errors == 0


def test_hooks_a_bot_does_not_override_are_not_called() -> None:
    """Bot's own hooks do nothing, so the runner skips them; a bot's own hooks are called."""
    from setback.bots.base import overrides

    assert not overrides(RandomBot(0), "on_hand_start")
    assert overrides(CountingBot(0), "on_hand_start") and overrides(CountingBot(0), "on_hand_end")
