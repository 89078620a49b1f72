"""Asking a bot for its decisions under a table's clock, so that no bot can hang or crash a game.

:class:`BotSeat` stands between a game and the bot at one seat. It fills in
``view.time_left``, calls :meth:`~setback.bots.Bot.bid` or :meth:`~setback.bots.Bot.play`
by the phase, awaits an async answer, and turns every failure into a defined outcome:

- the bot raises, or answers with an action that is not in ``view.legal``: an **error**;
- the answer is not there within ``Limits.decision_seconds``: a **timeout**.

Either way the seat plays the **fallback**, :func:`fallback`: the legal action with the
lowest code (in bidding, a pass when passing is legal, else the lowest bid; in play,
the legal card with the lowest index, clubs first, twos first). An async method is
cancelled at the limit. A plain method runs on the seat's own daemon thread, so the
game goes on without it; until that overrunning call returns, every decision of the
seat is a timeout and gets the fallback. Hooks (``on_hand_start`` ...) are run the same
way and change no move; their errors are logged, and neither their errors nor their
timeouts are counted, since the counts are of decisions (spec.md section 5). A hook that
overruns still holds the seat's thread, so the decisions it delays are timeouts.

With no limit (``Limits(decision_seconds=None)``, ``--decision-ms 0``) and no executor there is
no clock to keep: plain methods are simply called, several times faster than through a
thread (self-play at full speed; a bot that hangs then hangs its game).
"""

from __future__ import annotations

import asyncio
import inspect
import math
import queue
import sys
import sysconfig
import threading
import time
import traceback
from collections.abc import Callable
from concurrent.futures import Executor, Future
from concurrent.futures import wait as futures_wait
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import structlog

from setback.bots.base import Bot, BotStuckError
from setback.engine import Action, Bid, Pass, Phase, Play, View

log = structlog.get_logger(__name__)

FAILED: Any = object()
"""What a seat's call gives when the bot raised or overran (already counted)."""

ANSWER_MARGIN_SECONDS = 0.2
"""Of a server's time left, what a remote bot leaves for its answer to get there (at most a
tenth of the time left)."""
MIN_DECISION_SECONDS = 0.01


@dataclass(frozen=True, slots=True)
class Limits:
    """A table's clock: the seconds a seat may take for one decision (None: no limit), the
    wire's ``Clock.decision_seconds``."""

    decision_seconds: float | None = 1.0

    def __post_init__(self) -> None:
        if self.decision_seconds is not None and self.decision_seconds <= 0:
            raise ValueError(f"the decision limit must be positive seconds, not {self.decision_seconds}")

    def __reduce__(self) -> tuple[type[Limits], tuple[float | None]]:
        """Pickled by its constructor (a match's plan goes to its worker processes): compiled,
        a frozen class cannot be unpickled field by field."""
        return Limits, (self.decision_seconds,)


@dataclass(frozen=True, slots=True)
class Replaced:
    """A decision a seat answered with the fallback: what the bot did instead (``what``:
    "raised ...", "returned ...", "did not answer within ..."), and whether it was too late
    (else it raised, or gave no legal action)."""

    what: str
    late: bool


BUCKETS_PER_DOUBLING = 16
"""The resolution of :attr:`DecisionStats.buckets`: a bucket's top is 2^(1/16), 4.4%, above the one below."""


def duration_bucket(seconds: float) -> int:
    """The bucket of a decision that took ``seconds``: ``k`` holds those of more than
    2^((k-1)/16) and at most 2^(k/16) microseconds (0: a microsecond or less)."""
    micros = seconds * 1e6
    return math.ceil(math.log2(micros) * BUCKETS_PER_DOUBLING) if micros > 1 else 0


def bucket_top(bucket: int) -> float:
    """The longest decision, in seconds, that :func:`duration_bucket` puts in ``bucket``."""
    return float(2 ** (bucket / BUCKETS_PER_DOUBLING) / 1e6)


@dataclass
class DecisionStats:
    """What a seat's bot did when asked, over one game or more: how many decisions, the seconds
    they took, how many timed out and how many were errors (a record's ``match.clock``), and the
    decisions by how long each took (``buckets``, for :meth:`quantile_seconds`)."""

    decisions: int = 0
    seconds: float = 0.0
    timeouts: int = 0
    errors: int = 0
    buckets: dict[int, int] = field(default_factory=dict)
    """Decisions by :func:`duration_bucket` (empty where they were not timed one by one)."""

    @classmethod
    def of(cls, clock: dict[str, Any]) -> DecisionStats:
        """The stats of one seat's ``match.clock`` in a record (its buckets' keys are text in JSON;
        a record written before buckets has none)."""
        buckets = {int(k): n for k, n in (clock.get("buckets") or {}).items()}
        return cls(clock["decisions"], clock["seconds"], clock["timeouts"], clock["errors"], buckets)

    @property
    def seconds_per_decision(self) -> float | None:
        """The average time of one decision (None before the first)."""
        return self.seconds / self.decisions if self.decisions else None

    def quantile_seconds(self, q: float) -> float | None:
        """The time within which a share ``q`` of the timed decisions were made, as the top of the
        bucket that holds it (at most 4.4% over the exact figure, never under it; None with none timed)."""
        total = sum(self.buckets.values())
        if not total:
            return None
        needed, seen = q * total, 0
        for bucket in sorted(self.buckets):
            seen += self.buckets[bucket]
            if seen >= needed:
                return bucket_top(bucket)
        return bucket_top(max(self.buckets))

    def add(self, other: DecisionStats) -> None:
        self.decisions += other.decisions
        self.seconds += other.seconds
        self.timeouts += other.timeouts
        self.errors += other.errors
        buckets = self.buckets
        for bucket, n in other.buckets.items():
            buckets[bucket] = buckets.get(bucket, 0) + n


def fallback(view: View) -> Action:
    """The move played for a seat whose bot failed: the legal action with the lowest code."""
    return view.legal[0]


_ACTIONS_TYPES: frozenset[type] = frozenset({Pass, Bid, Play})
_PLAIN_ANSWERS: frozenset[type] = frozenset({Pass, Bid, Play, type(None)})
"""What a bot's call gives that is surely no awaitable: an action, or a hook's None (asked first,
as it is far cheaper than asking whether it is awaitable)."""

_now = time.perf_counter
_PLAYING = Phase.PLAYING

_METHODS = ("bid", "play", "on_game_start", "on_hand_start", "on_hand_end", "on_game_end")
"""A bot's methods that a seat calls."""


def _is_legal(action: Action, legal: tuple[Action, ...]) -> bool:
    """Whether ``action`` is one of ``legal``: most bots answer with one of the view's own, found
    by identity before any is compared (a decision of a fast bot takes less than a microsecond)."""
    for one in legal:
        if one is action:
            return True
    return action in legal


def loop_running() -> bool:
    """Whether this thread runs an event loop now."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


async def _awaited(awaitable: Any) -> Any:
    return await awaitable


_Job = tuple[Future[Any], Callable[[Any], Any], Any]


STUCK_GRACE_SECONDS = 2.0
"""How long after its game a call that overran may still finish before its bot counts as stuck
(or twice the decision limit, if that is longer)."""


_LIBRARY = sysconfig.get_paths()["stdlib"]


def _in_the_library(filename: str) -> bool:
    """Whether code of ``filename`` is the standard library's (frozen modules too)."""
    return filename.startswith("<frozen") or (filename.startswith(_LIBRARY) and "site-packages" not in filename)


class _Thread:
    """A daemon thread that runs one bot's plain (synchronous) calls, one at a time."""

    def __init__(self, name: str) -> None:
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._run, name=name, daemon=True)
        self.thread.start()

    def where(self) -> str:
        """Where the call it runs is now, in the bot's own code (not in the standard library
        function it may be inside at that moment): ``file:line in function``."""
        frame = sys._current_frames().get(self.thread.ident or -1)
        if frame is None:
            return "an unknown place"
        while frame.f_back is not None and _in_the_library(frame.f_code.co_filename):
            frame = frame.f_back
        code = frame.f_code
        return f"{Path(code.co_filename).name}:{frame.f_lineno} in {code.co_name}()"

    def submit(self, method: Callable[[Any], Any], argument: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self._jobs.put((future, method, argument))
        return future

    def close(self) -> None:
        self._jobs.put(None)

    def _run(self) -> None:
        while (job := self._jobs.get()) is not None:
            future, method, argument = job
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(method(argument))
            except BaseException as exc:  # handed to the waiting game, which counts it
                future.set_exception(exc)


class BotSeat:
    """The bot at one seat of one game, asked under ``limits``; :attr:`deciding` counts what happened."""

    def __init__(self, bot: Bot, seat: int, limits: Limits, executor: Executor | None = None) -> None:
        """``executor``, when given, runs the bot's plain methods (a server's pool shared by many
        seats) instead of a thread of the seat's own."""
        self.bot = bot
        self.seat = seat
        self.limits = limits
        self.executor = executor
        self.deciding = DecisionStats()
        self._own_thread: _Thread | None = None
        self._overrun: Future[Any] | None = None
        self._overrun_since = 0.0
        """When the call that overran was made (``time.monotonic``), and its limit."""
        self._overrun_limit = 0.0
        self.replaced: Replaced | None = None
        """What the bot did instead, when the fallback was played for the last decision."""

    async def decide(self, view: View) -> Action:
        """The bot's action for ``view`` (its seat is to act), or the fallback when it fails.

        The decision's limit is the seat's, or the time ``view.time_left`` says is left (a
        server's clock, less a margin for the answer to get there), whichever is shorter."""
        view, limit, method = self._asking(view)
        self.replaced = None
        start = _now()
        answer = await self._ask(method, view, limit)
        return self._judged(answer, view, method, start)

    def decide_now(self, view: View) -> Action:
        """:meth:`decide` for a :attr:`direct` seat in a game played with no event loop (a view
        with no ``time_left``, as a direct seat has no limit): the same answer, without the cost
        of a coroutine."""
        bot = self.bot
        method = bot.play if view.phase is _PLAYING else bot.bid
        self.replaced = None
        start = _now()
        try:
            answer = method(view)
        except (Exception, SystemExit) as exc:
            self._error(exc)
            answer = FAILED
        else:
            if type(answer) not in _ACTIONS_TYPES and (inspect.isawaitable(answer) and not loop_running()):
                answer = self._awaited_now(answer)
        return self._judged(answer, view, method, start)

    def _asking(self, view: View) -> tuple[View, float | None, Callable[[View], Any]]:
        """The view as the bot is to see it (its ``time_left`` filled in), the limit, and the method to ask."""
        limit = self.limits.decision_seconds
        if view.time_left is not None and view.time_left != limit:
            left = max(MIN_DECISION_SECONDS, view.time_left - min(ANSWER_MARGIN_SECONDS, view.time_left / 10))
            limit = left if limit is None else min(limit, left)
        if view.time_left != limit:
            view = replace(view, time_left=limit)
        return view, limit, self.bot.play if view.phase is Phase.PLAYING else self.bot.bid

    def _judged(self, answer: Any, view: View, method: Callable[[View], Any], start: float) -> Action:
        """The action to play for the bot's ``answer`` (asked at ``start``): itself, or the fallback
        when it failed, is no action or is not legal (counted); the decision is clocked."""
        deciding = self.deciding
        took = _now() - start
        deciding.decisions += 1
        deciding.seconds += took
        bucket = duration_bucket(took)
        deciding.buckets[bucket] = deciding.buckets.get(bucket, 0) + 1
        if answer is FAILED:
            return fallback(view)
        if type(answer) not in _ACTIONS_TYPES and not isinstance(answer, Pass | Bid | Play):
            kind = type(answer).__name__
            self.replaced = Replaced(f"returned {answer!r}, not an action", late=False)
            self._error(TypeError(f"{method.__name__}() returned a {kind}, {answer!r}, not an action: return one of "
                                  "view.legal (or parse_action's result)"))
            return fallback(view)
        action: Action = answer
        if not _is_legal(action, view.legal):
            self.replaced = Replaced(f"returned {action}, not legal ({', '.join(map(str, view.legal))})", late=False)
            self._error(ValueError(f"{action} is not legal; legal: {', '.join(map(str, view.legal))}"))
            return fallback(view)
        return action

    async def notify(self, hook: Callable[[Any], Any], argument: Any) -> None:
        """Run one of the bot's hooks (a bound method) under the same limit (not counted)."""
        await self._ask(hook, argument, self.limits.decision_seconds, decision=False)

    @property
    def direct(self) -> bool:
        """Whether the seat keeps no clock and needs no event loop: no limit, no executor, and
        none of its bot's methods an ``async def``. A game of such seats is played without one."""
        if self.limits.decision_seconds is not None or self.executor is not None:
            return False
        return not any(inspect.iscoroutinefunction(getattr(self.bot, name)) for name in _METHODS)

    def close(self) -> None:
        """Let the seat's thread end once it is idle."""
        if self._own_thread is not None:
            self._own_thread.close()

    def check_not_stuck(self) -> None:
        """Once the game is over: :class:`BotStuckError` if a call that overran is still
        running :data:`STUCK_GRACE_SECONDS` (or twice the limit) later."""
        overrun, thread = self._overrun, self._own_thread
        if overrun is None or thread is None:
            return
        grace = max(STUCK_GRACE_SECONDS, 2 * self._overrun_limit)
        if futures_wait([overrun], timeout=grace).done:
            return
        late = time.monotonic() - self._overrun_since
        raise BotStuckError(
            f"{type(self.bot).__name__} (seat {self.seat}) is still running at {thread.where()}, "
            f"{late:.1f} s into a call with a {self._overrun_limit:g} s limit; a call that never returns "
            "would slow every later game, so the match stops here"
        )

    async def _ask(
        self, method: Callable[[Any], Any], argument: Any, limit: float | None, decision: bool = True
    ) -> Any:
        """What ``method(argument)`` gives within ``limit`` seconds (None: no limit), or FAILED
        after counting a failure (when it is a ``decision``)."""
        if self._overrun is not None:
            if not self._overrun.done():
                self.deciding.timeouts += decision
                if decision:
                    self.replaced = Replaced("was still busy with an earlier call that overran its limit", late=True)
                return FAILED
            self._overrun = None
        if limit is None and self.executor is None:  # no clock to keep: no thread either, at full speed
            given = self._call_now(method, argument, decision)
            if given is FAILED or type(given) in _PLAIN_ANSWERS or not inspect.isawaitable(given):
                return given
            try:
                return await given
            except (Exception, SystemExit) as exc:
                self._error(exc, decision)
                return FAILED
        loop = asyncio.get_running_loop()
        deadline = None if limit is None else loop.time() + limit
        asked = time.monotonic()
        future: Future[Any] | None = None
        answer: Any = FAILED
        try:
            async with asyncio.timeout_at(deadline):
                if inspect.iscoroutinefunction(method):
                    answer = await method(argument)
                else:
                    if self.executor is not None:
                        future = self.executor.submit(method, argument)
                    else:
                        if self._own_thread is None:
                            self._own_thread = _Thread(f"bot-seat-{self.seat}")
                        future = self._own_thread.submit(method, argument)
                    answer = await asyncio.wrap_future(future)
                    if inspect.isawaitable(answer):
                        answer = await answer
        except TimeoutError:
            pass
        except (Exception, SystemExit) as exc:  # a bot's sys.exit() is its error, not the match's end
            self._error(exc, decision)
            return FAILED
        if deadline is not None and (answer is FAILED or loop.time() > deadline):
            self._timed_out(decision, limit or 0.0)
            if future is not None and not future.done():
                self._overrun = future
                self._overrun_since, self._overrun_limit = asked, limit or 0.0
            return FAILED
        return answer

    def _call_now(self, method: Callable[[Any], Any], argument: Any, decision: bool = True) -> Any:
        """``method(argument)``, called on this thread, or FAILED after counting its failure. An
        awaitable it gives is handed back to be awaited on the running loop, or with none running
        (a game played without one) awaited on a loop of its own."""
        try:
            given = method(argument)
        except (Exception, SystemExit) as exc:
            self._error(exc, decision)
            return FAILED
        if type(given) in _PLAIN_ANSWERS or not inspect.isawaitable(given) or loop_running():
            return given
        return self._awaited_now(given, decision)

    def _awaited_now(self, awaitable: Any, decision: bool = True) -> Any:
        """What ``awaitable`` (a plain method's answer) gives, awaited on a loop of its own (none is
        running), or FAILED after counting its failure."""
        try:
            return asyncio.run(_awaited(awaitable))
        except (Exception, SystemExit) as exc:
            self._error(exc, decision)
            return FAILED

    def _error(self, exc: BaseException, decision: bool = True) -> None:
        """Count an error; log it with its traceback the first time this process sees it (the
        same bot, exception and place), since a match of a thousand games would repeat it."""
        self.deciding.errors += decision
        if decision and self.replaced is None:
            self.replaced = Replaced(f"raised {type(exc).__name__}: {exc}", late=False)
        frames = traceback.extract_tb(exc.__traceback__)
        where = f"{frames[-1].filename}:{frames[-1].lineno}" if frames else str(exc)
        if _first_time((type(self.bot).__name__, type(exc).__name__, where)):
            log.warning("bot error", bot=type(self.bot).__name__, seat=self.seat, later="counted, not logged",
                        exc_info=exc)

    def _timed_out(self, decision: bool, limit: float) -> None:
        """Count a timeout; log it the first time this process sees one of this bot."""
        self.deciding.timeouts += decision
        if decision:
            self.replaced = Replaced(f"did not answer within {limit:g} s", late=True)
        if decision and _first_time((type(self.bot).__name__, "timeout")):
            log.warning("bot timed out", bot=type(self.bot).__name__, seat=self.seat, decision_seconds=limit,
                        played="the fallback", later="counted, not logged")


_SAID: set[tuple[str, ...]] = set()
"""The bot errors and timeouts logged so far in this process (each is logged once)."""


def _first_time(what: tuple[str, ...]) -> bool:
    if what in _SAID:
        return False
    _SAID.add(what)
    return True

