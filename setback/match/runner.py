"""Bot-vs-bot matches played straight through the engine (no network).

A :class:`MatchPlan` names the bots (SPECs), the rules, the number of games and the
match seed; everything else follows from it. Seating: with one SPEC a seat, game ``i``
seats bot ``(s + i) % n`` at seat ``s``; with one SPEC a side (``--teams T`` and T SPECs),
side ``j`` is played by bot ``(j + i) % T``, every seat of the side by its own instance.
Game ``i`` is dealt from :func:`game_seed` ``(S, i)``; in duplicate play deal ``i // n`` is
replayed ``n`` times (n: the number of SPECs), once per rotation, with new bots each time.

Each game becomes a JSONL record (:func:`setback.engine.game_record` plus the ``match``
fields of spec.md section 5), and the match's totals are tallied from the records
alone, so a stopped match resumes from its file.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Coroutine, Iterable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.pool import IMapIterator
from pathlib import Path
from typing import Any, NoReturn

import msgspec

from setback.bots.base import Bot, BotFailedError, GameStart, overrides
from setback.bots.registry import bot_factory, failure_line
from setback.bots.seat import BotSeat, DecisionStats, Limits, loop_running
from setback.engine import Event, Game, GameWon, HandDealt, HandScored, game_record, plain, rules_of
from setback.match.memory import peak_rss_mb, reset_peak
from setback.match.plan import MatchPlan
from setback.match.tally import MatchResult


async def play_game(game: Game, seats: list[BotSeat], players: tuple[str, ...] | None = None) -> Game:
    """Play ``game`` to its end, asking ``seats[s]`` for seat ``s``'s decisions and telling the
    hooks (``players``: each seat's name for ``on_game_start``, the bots' class names by default).
    A hook a bot does not override is :class:`Bot`'s own, which does nothing: it is not called.
    With :attr:`BotSeat.direct` seats only and no event loop running, decisions are asked
    without a coroutine (:meth:`BotSeat.decide_now`)."""
    names = players or tuple(type(s.bot).__name__ for s in seats)
    now = all(s.direct for s in seats) and not loop_running()  # (see run_without_loop)
    hooked = {
        hook: [s for s in seats if overrides(s.bot, hook)]
        for hook in ("on_game_start", "on_hand_start", "on_hand_end", "on_game_end")
    }
    for s in hooked["on_game_start"]:
        await s.notify(s.bot.on_game_start, GameStart(s.seat, names, game.rules))
    told = {HandDealt: hooked["on_hand_start"], HandScored: hooked["on_hand_end"], GameWon: hooked["on_game_end"]}
    told = {kind: listening for kind, listening in told.items() if listening}
    news: list[Event] = list(game.events)
    while True:
        if told:
            for event in news:
                listening = told.get(type(event))
                if listening is None:
                    continue
                for s in listening:
                    if isinstance(event, HandDealt):
                        await s.notify(s.bot.on_hand_start, game.view(s.seat))
                    elif isinstance(event, HandScored):
                        await s.notify(s.bot.on_hand_end, event.result)
                    elif isinstance(event, GameWon):
                        await s.notify(s.bot.on_game_end, event.outcome)
        seat = game.to_act
        if seat is None:
            return game
        asked = seats[seat]
        if now:
            news = game.apply(asked.decide_now(game.view(seat)), seat)
        else:
            news = game.apply(await asked.decide(game.view(seat, asked.limits.decision_seconds)), seat)


def play_with(
    game: Game, bots: list[Bot], limits: Limits, players: tuple[str, ...] | None = None
) -> tuple[Game, list[DecisionStats]]:
    """Play ``game`` to its end with ``bots[seat]`` at each seat; the game and each seat's decision stats."""
    seats = [BotSeat(bot, seat, limits) for seat, bot in enumerate(bots)]
    try:
        played = play_game(game, seats, players)
        if all(s.direct for s in seats):
            run_without_loop(played)
        else:
            asyncio.run(played)
        for s in seats:
            s.check_not_stuck()
    finally:
        for s in seats:
            s.close()
    return game, [s.deciding for s in seats]


def run_without_loop(game: Coroutine[Any, Any, Game]) -> None:
    """Run :func:`play_game` to its end with no event loop, as a game of :attr:`BotSeat.direct`
    seats can be (a loop for every game cost a sixth of a game of four ``heuristic`` bots):
    nothing it awaits waits for a loop, so it only ever suspends at a bare ``yield``
    (``asyncio.sleep(0)``)."""
    try:
        while True:
            if game.send(None) is not None:
                game.throw(RuntimeError("a bot with no clock awaited something that needs an event loop"))
    except StopIteration:
        return


def run_game(plan: MatchPlan, index: int) -> dict[str, Any]:
    """Play game ``index`` of ``plan`` with new bots and return its record."""
    seating = plan.seating(index)
    seed = plan.game_seed(index)
    bots = [made_bot(plan.specs[b], seed + seat) for seat, b in enumerate(seating)]
    players = tuple(plan.specs[b] for b in seating)
    reset_peak()
    game, deciding = play_with(Game(plan.rules, seed), bots, plan.limits, players)
    return game_record(game, players=list(players), match=match_fields(plan, index, deciding, peak_rss_mb()))


class BotBrokenError(BotFailedError):
    """A bot could not be made for a game (its constructor failed): the match cannot go on."""


def made_bot(spec: str, seed: int) -> Bot:
    """A new bot of ``spec``, seeded ``seed``; :class:`BotBrokenError` if its constructor fails."""
    try:
        return bot_factory(spec)(seed)
    except (Exception, SystemExit) as exc:
        raise BotBrokenError(f"{spec}: making the bot failed: {failure_line(exc)}") from None


def match_fields(
    plan: MatchPlan, index: int, deciding: list[DecisionStats], peak_mb: float | None = None
) -> dict[str, Any]:
    """The ``match`` object of game ``index``'s record (spec.md section 5); ``peak_mb``, the peak
    resident set size of the process that played it (:mod:`setback.match.memory`), when measured."""
    return {
        "seed": plan.seed,
        "game": index,
        "deal": plan.deal(index),
        "duplicate": plan.duplicate,
        "seating": list(plan.seating(index)),
        "limit": plan.limits.decision_seconds,
        "clock": [plain(d) for d in deciding],
        "peak_rss_mb": None if peak_mb is None else round(peak_mb, 1),
    }


_encoder = msgspec.json.Encoder()


def record_line(record: dict[str, Any]) -> bytes:
    """``record`` as one line of a JSONL record file (spec.md section 5), newline included."""
    return _encoder.encode(record) + b"\n"


RECORD_KEYS = frozenset({"version", "rules", "seed", "setup", "players", "match", "draws", "first_dealer", "hands",
                         "actions", "scores", "outcome"})
"""The keys of a match's game record (:func:`run_game`): :meth:`Played.with_fields` adds others."""
TALLIED = ("points", "deltas", "pitcher", "set_back")
"""What a tally (:class:`~setback.match.tally.MatchResult`) reads of a hand's result."""


@dataclass(frozen=True, slots=True)
class Played:
    """A game played, as the runner passes it on: its record as one JSONL line, as a record
    file holds it, and ``digest``, the few fields of the record a tally reads, in the record's
    shape (its ``players``, ``match`` and ``outcome``, and of each hand only the :data:`TALLIED`
    fields of its ``result``). A worker process sends this, not the record: a record is
    thousands of objects to unpickle (a ``random`` bots' game of 100 hands, 30,000), which
    on two cores took the time of a worker's game away from the workers; the line is written
    as it came, and the digest is a few hundred objects."""

    line: bytes
    digest: dict[str, Any]

    @classmethod
    def of(cls, record: dict[str, Any]) -> Played:
        return cls(record_line(record), {
            "players": record["players"],
            "match": record["match"],
            "outcome": record["outcome"],
            "hands": [{"result": None if (r := h["result"]) is None else {k: r[k] for k in TALLIED}}
                      for h in record["hands"]],
        })

    @property
    def record(self) -> dict[str, Any]:
        """The whole record, read back from its line."""
        record: dict[str, Any] = msgspec.json.decode(self.line)
        return record

    def with_fields(self, **fields: Any) -> Played:
        """The same game, ``fields`` added at the end of its record (a tournament's, say); each
        must be new to a record (not one of :data:`RECORD_KEYS`)."""
        if clash := RECORD_KEYS.intersection(fields):
            raise ValueError(f"a record has {', '.join(sorted(clash))} already")
        added = b"".join(b"," + _encoder.encode(key) + b":" + _encoder.encode(value) for key, value in fields.items())
        return Played(self.line[:-2] + added + b"}\n", {**self.digest, **fields})


def check_record(plan: MatchPlan, record: dict[str, Any]) -> int:
    """The game index of a record written by ``plan``'s match; ValueError if another match wrote it."""
    match = record.get("match") or {}
    index = match.get("game")
    if (
        not isinstance(index, int)
        or not 0 <= index < plan.games
        or match.get("seed") != plan.seed
        or match.get("duplicate", False) != plan.duplicate
        or rules_of(record["rules"]) != plan.rules
        or tuple(match.get("seating", ())) != plan.seating(index)
        or record["players"] != [plan.specs[b] for b in plan.seating(index)]
        or record.get("outcome") is None
    ):
        raise ValueError(f"record of game {index} is not from this match (other bots, seed, rules or games)")
    return index


GameTask = tuple["MatchPlan", int]
"""One game to play: a match's plan and the game's index in it (a tournament's games are
the tasks of many plans, played as one stream)."""

GamePlayer = Callable[["MatchPlan", list[int], int], Iterator[Played]]
"""What plays a match's games: given the plan, the indexes of the games to play and the
jobs, it yields each game in game order (:func:`engine_records` by default)."""

TaskPlayer = Callable[[Sequence[GameTask], int], Iterator[Played]]
"""What plays a stream of games of one or more matches: given the tasks and the jobs, it
yields each task's game in the tasks' order (:func:`engine_games` by default)."""


def play_match(
    plan: MatchPlan,
    *,
    jobs: int = 1,
    finished: Iterable[dict[str, Any]] = (),
    on_record: Callable[[dict[str, Any]], None] | None = None,
    on_line: Callable[[bytes], object] | None = None,
    player: GamePlayer | None = None,
    until: Callable[[MatchResult], bool] | None = None,
) -> MatchResult:
    """Play the games of ``plan`` not among ``finished`` records, on ``jobs`` processes; tally them all.

    ``on_record`` gets each new game's record, in game order, and ``on_line`` the same as the
    line a record file holds (what a writer wants: the line as a worker sent it, not read
    into a record and written again). With deterministic bots the
    result is the same for any ``jobs``. ``player`` plays them another way than through
    the engine in this process (``setback match --via-server`` passes one that plays them
    through a real server over TCP, ``jobs`` tables at a time, as ``cmd:`` bots need;
    ``--ray`` one that plays them on a Ray cluster). ``until``, asked after the finished
    records and after each new one, stops the match early when it says so (a sequential
    test that has its verdict); games played ahead on other processes are dropped.
    """
    result = MatchResult(plan)
    done: set[int] = set()
    for record in finished:
        index = check_record(plan, record)
        if index not in done:
            done.add(index)
            result.add(record)
    indexes = [i for i in range(plan.games) if i not in done]
    if indexes and (until is None or not until(result)):
        records = (player or engine_records)(plan, indexes, jobs)
        try:
            for played in records:
                result.add(played.digest)
                if on_line is not None:
                    on_line(played.line)
                if on_record is not None:
                    on_record(played.record)
                if until is not None and until(result):
                    break
        finally:
            close = getattr(records, "close", None)
            if close is not None:
                close()  # the games still being played elsewhere stop now
    if len(plan.specs) > 2:
        result.rate()
    return result


def engine_records(plan: MatchPlan, indexes: list[int], jobs: int) -> Iterator[Played]:
    """``plan``'s games ``indexes``, played through the engine on ``jobs`` processes, in order."""
    return engine_games([(plan, index) for index in indexes], jobs)


def run_task(task: GameTask) -> Played:
    """One task's game (:func:`run_game`)."""
    plan, index = task
    return Played.of(run_game(plan, index))


CHUNK_MAX = 16
"""The most games a worker process is handed at once (:func:`chunk_size`)."""


def chunk_size(games: int, jobs: int) -> int:
    """How many games a worker of ``jobs`` is handed at once, of ``games``: each handing costs
    the parent a round trip through the pool (a tenth of a millisecond and more of its time,
    a fifth of a fast game's), so up to :data:`CHUNK_MAX`, while every worker still gets at
    least 32 chunks, so that the others wait little for the last (half a chunk, on average)."""
    return max(1, min(CHUNK_MAX, games // (32 * jobs)))


def engine_games(tasks: Sequence[GameTask], jobs: int) -> Iterator[Played]:
    """``tasks``' games, played through the engine on ``jobs`` processes, in order."""
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    if jobs == 1 or len(tasks) < 2:
        for task in tasks:
            yield run_here(task)
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    if "forkserver" in methods:  # the server imports the runner once; each worker starts from it, warm
        context.set_forkserver_preload([__name__])
    started = context.SimpleQueue()  # each worker's pid as it starts: one more than jobs is a death
    pool = context.Pool(jobs, initializer=_start_worker, initargs=(started,))
    try:
        size = chunk_size(len(tasks), jobs)
        chunks = [tasks[start:start + size] for start in range(0, len(tasks), size)]
        yield from _watched(pool.imap(run_chunk, chunks), started, jobs)
    except BaseException as exc:  # Ctrl-C above all: the workers stop now, not after their games
        if isinstance(exc, KeyboardInterrupt):
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # one Ctrl-C is enough; a second would cut this short
        pool.terminate()
        raise
    else:
        pool.close()
    finally:
        pool.join()


class WorkerDiedError(BotFailedError):
    """A worker process of the match died (a bot crashed it, called ``os._exit``, or the
    system killed it, out of memory above all): its games are lost, so the match stops."""


class BotExitedError(BotFailedError):
    """A bot called ``os._exit`` in a game played in the match's own process (``--jobs 1``):
    that would end the match without a word, so the match stops here, as it does when a
    worker process of ``--jobs N`` dies."""


class _ExitCalled(BaseException):
    """Raised where a bot calls ``os._exit`` during :func:`run_here` (no ``Exception``, so
    that a bot's ``except Exception`` does not swallow it)."""


def run_here(task: GameTask) -> Played:
    """:func:`run_task` in this process, which no bot's ``os._exit`` can end: while the game
    is played, ``os._exit`` in this process (any thread) raises where it is called instead,
    and once the game is over :class:`BotExitedError` says where it was called. A process
    a bot forked still exits as it asks. Stepping through a bot in a debugger works as ever."""
    called: list[tuple[int, str]] = []
    """Each ``os._exit`` asked for: its status, and where (``file:line in function()``)."""
    real_exit, pid = os._exit, os.getpid()

    def refused_exit(status: int) -> NoReturn:
        if os.getpid() != pid:
            real_exit(status)
        caller = sys._getframe(1)
        code = caller.f_code
        called.append((status, f"{Path(code.co_filename).name}:{caller.f_lineno} in {code.co_name}()"))
        raise _ExitCalled(status)

    os._exit = refused_exit
    played: Played | None = None
    try:
        played = run_task(task)
    except _ExitCalled:
        pass
    finally:
        os._exit = real_exit
    if played is not None and not called:
        return played
    status, where = called[0]
    raise BotExitedError(
        f"a bot called os._exit({status}) at {where} in game {task[1]}; with --jobs 1 that would end "
        "the match's own process, so the match stops here")


WATCH_SECONDS = 1.0
"""How long the parent waits for the next game before it looks whether a worker died."""


def run_chunk(tasks: Sequence[GameTask]) -> list[Played]:
    """A worker's share of games handed at once (:func:`chunk_size`), played in order."""
    return [run_task(task) for task in tasks]


def _watched(chunks: IMapIterator[list[Played]], started: Any, jobs: int) -> Iterator[Played]:
    """The games of ``chunks`` from a pool of ``jobs`` workers, until one of them is found
    dead. A pool starts a new worker for one that died and never hands out the games it
    held, so waiting on would wait forever: :class:`WorkerDiedError` instead, once the next
    chunk is late and more workers have started than the pool was made with."""
    workers = 0
    while True:
        try:
            yield from chunks.next(WATCH_SECONDS)
        except StopIteration:
            return
        except multiprocessing.TimeoutError:
            while not started.empty():
                started.get()
                workers += 1
            if workers > jobs:
                raise WorkerDiedError(
                    "a worker process died while playing its games: a bot crashed it or called "
                    "os._exit, or the system killed it (out of memory?)") from None


def _start_worker(started: Any) -> None:
    """In a worker as it starts: say so (its pid), for :func:`_watched`. Ctrl-C reaches the
    whole process group, but only the parent acts on it (it stops the workers), so a worker
    prints no traceback and none is left behind. What its bots print goes to stderr: stdout
    is the match's result."""
    started.put(os.getpid())
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.stdout = sys.stderr
