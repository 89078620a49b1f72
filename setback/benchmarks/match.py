"""Games per second of the match runner against a bare loop over the engine's facade.

For four ``random`` bots and for four ``heuristic`` bots with no clock (``--decision-ms 0``),
one run plays the same games (a match of N games, one seed) several ways (the bare loop and
``--jobs 1`` side by side, game by game: see :func:`side_by_side`; the others in turn):

- **bare**: a loop in this process over :class:`setback.engine.Game`: make the game's bots
  (the runner's seeds), then ask the seat to act for its decision on its view and apply it,
  to the game's end. No records, no clock, no hooks: the least a runner can do.
- **jobs 1**: :func:`setback.match.runner.play_match` on one process, every record written as
  a JSONL line to a file, as ``setback match --out FILE`` does; after each of its games the
  bare loop plays the same game, timed apart.
- **jobs J** (``--jobs``, 2 by default): the same on J processes, the pool's start counted
  (the first pool of a process also starts the forkserver the workers are forked from: that
  is measured apart, before, as ``jobs_first_start_s``).
- **ray** (with ``--ray``): the same on a local Ray instance of J CPUs, each game a task,
  measured after the others (Ray's threads in this process would add to their CPU time);
  its start and its first games (its workers starting) are measured apart, before, and its
  cost over ``--jobs J`` is given per game, in CPU time: ``J`` times the wall time it adds.

With ``--repeat N`` the ways are measured in N rounds, every way once a round (in reverse
order every other round), and each ratio is the median of the rounds' ratios, with their
range: on a shared machine whose speed drifts over seconds (here by a tenth and more, idle),
ways measured side by side in one round see the same machine, where the best of each way's
runs would pair runs minutes apart. The ratio of the CPU time this process spent, bare loop
over ``--jobs 1`` (``cpu_ratio_jobs_1_over_bare``), is the one other programs disturb least.

Run: ``python -m setback.benchmarks.match`` or ``setback bench match [--random-games 200]
[--heuristic-games 1000] [--jobs 2] [--repeat 1] [--ray] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from setback.bots.seat import Limits
from setback.engine import Game, Phase, Rules
from setback.match.plan import MatchPlan
from setback.match.runner import TaskPlayer, engine_games, made_bot, play_match
from setback.match.tally import MatchResult

SEED = 2026


def bare_game(plan: MatchPlan, index: int) -> int:
    """Play game ``index`` of ``plan`` in a plain loop over the engine's facade; its winner."""
    seed = plan.game_seed(index)
    bots = [made_bot(plan.specs[b], seed + seat) for seat, b in enumerate(plan.seating(index))]
    game = Game(plan.rules, seed)
    while (seat := game.to_act) is not None:
        view = game.view(seat)
        bot = bots[seat]
        game.apply(bot.play(view) if view.phase is Phase.PLAYING else bot.bid(view), seat)  # type: ignore[arg-type]
    assert game.outcome is not None
    return game.outcome.winner


def bare_loop(plan: MatchPlan) -> list[int]:
    """Every game of ``plan`` in the bare loop (:func:`bare_game`); each game's winner."""
    return [bare_game(plan, index) for index in range(plan.games)]


Timing = tuple[float, float, list[int]]
"""A way's wall time and this process's CPU time, and each game's winner (to check that every
way played the same games)."""


def winners_of(result: MatchResult) -> list[int]:
    return [result.sides[index][1] for index in sorted(result.sides)]


def runner(plan: MatchPlan, jobs: int, folder: Path, tasks: TaskPlayer | None = None) -> Timing:
    """Play ``plan`` as ``setback match --out`` does (on ``jobs`` processes, or by ``tasks``)."""
    start, cpu = time.perf_counter(), time.process_time()
    with (folder / "games.jsonl").open("wb") as out:
        player = None if tasks is None else lambda p, indexes, j: tasks([(p, i) for i in indexes], j)
        result = play_match(plan, jobs=jobs, on_line=out.write, player=player)
    return time.perf_counter() - start, time.process_time() - cpu, winners_of(result)


def side_by_side(plan: MatchPlan, folder: Path) -> dict[str, Timing]:
    """``--jobs 1`` (:func:`runner`) and the bare loop, game by game in one run: as the runner
    writes each game's line, the bare loop plays the same game, timed apart and left out of
    the runner's time. This machine's speed swings by half over a second (a plain loop timed
    every 20 ms ran 15 ms, then 25 ms, for seconds at a time), so runs of each measured in
    turn compare machines as much as runners; game by game, both see the same one."""
    bare = [0.0, 0.0]
    winners: list[int] = []

    def on_line(line: bytes) -> None:
        out.write(line)
        start, cpu = time.perf_counter(), time.process_time()
        winners.append(bare_game(plan, len(winners)))
        bare[0] += time.perf_counter() - start
        bare[1] += time.process_time() - cpu

    start, cpu = time.perf_counter(), time.process_time()
    with (folder / "games.jsonl").open("wb") as out:
        result = play_match(plan, jobs=1, on_line=on_line)
    wall, used = time.perf_counter() - start, time.process_time() - cpu
    return {"bare": (bare[0], bare[1], winners), "jobs_1": (wall - bare[0], used - bare[1], winners_of(result))}


def plan_of(spec: str, games: int) -> MatchPlan:
    """The match measured: ``games`` games of four ``spec`` bots, no clock."""
    return MatchPlan((spec,) * 4, Rules(), games, SEED, limits=Limits(None))


Rounds = dict[str, list[tuple[float, float]]]
"""Each way's wall and CPU time in each round."""


Way = Callable[[], dict[str, Timing]]
"""One way (or two side by side) of playing the match measured, by name."""


def measure(plan: MatchPlan, ways: list[Way], repeat: int) -> Rounds:
    """Each way's wall and CPU time in each of ``repeat`` rounds, every way once a round, in
    turn (in reverse order every other round, so that a machine slowing or speeding up over
    a round favours no way); each must play the games the bare loop plays."""
    rounds: Rounds = {}
    expected = bare_loop(plan)
    for number in range(repeat):
        for way in ways if number % 2 == 0 else reversed(ways):
            for name, (took, used, winners) in way().items():
                assert winners == expected, f"{name} played other games than the bare loop"
                rounds.setdefault(name, []).append((took, used))
    return rounds


def alone(name: str, play: Callable[[], Timing]) -> Way:
    return lambda: {name: play()}


def figures(plan: MatchPlan, jobs: int, rounds: Rounds) -> dict[str, Any]:
    """Games/s of each way (the median of its rounds) and the ratios the benchmark is for, each
    the median of the ratios of the rounds, with their range (``..._range``) over the rounds."""
    games = plan.games
    result: dict[str, Any] = {"bots": f"4 x {plan.specs[0]}", "games": games, "rounds": len(rounds["bare"])}
    result |= {f"{way}_games_per_s": round(statistics.median([games / wall for wall, _ in runs]), 1)
               for way, runs in rounds.items()}

    def ratio(name: str, way: str, baseline: str, cpu: bool = False) -> None:
        """``way``'s speed over ``baseline``'s: in each round, the baseline's time over the way's."""
        pairs = zip(rounds[way], rounds[baseline], strict=True)
        ratios = [(base[1] / own[1]) if cpu else (base[0] / own[0]) for own, base in pairs]
        result[name] = round(statistics.median(ratios), 3)
        if len(ratios) > 1:
            result[f"{name}_range"] = [round(min(ratios), 3), round(max(ratios), 3)]

    ratio("ratio_jobs_1_over_bare", "jobs_1", "bare")
    ratio("cpu_ratio_jobs_1_over_bare", "jobs_1", "bare", cpu=True)
    ratio(f"ratio_jobs_{jobs}_over_jobs_1", f"jobs_{jobs}", "jobs_1")
    if "ray" in rounds:
        parallel = rounds[f"ray_jobs_{jobs}"]
        result["ray_games_per_s"] = round(statistics.median([games / wall for wall, _ in rounds["ray"]]), 1)
        del result[f"ray_jobs_{jobs}_games_per_s"]
        ratios = [p[0] / r[0] for r, p in zip(rounds["ray"], parallel, strict=True)]
        result[f"ratio_ray_over_jobs_{jobs}"] = round(statistics.median(ratios), 3)
        result[f"ray_ms_per_game_over_jobs_{jobs}"] = round(statistics.median(
            [1000 * jobs * (r[0] - p[0]) / games for r, p in zip(rounds["ray"], parallel, strict=True)]), 2)
    return result


def run(random_games: int = 200, heuristic_games: int = 1000, jobs: int = 2, repeat: int = 1,
        ray: bool = False) -> dict[str, Any]:
    """Measure both fields of bots, the ways in turn; then, with ``ray``, on a local Ray instance of
    ``jobs`` CPUs, started only then (its threads in this process would add to the others' CPU
    time), in rounds of its own with ``--jobs J`` again, each round's ratio taken in it."""
    result: dict[str, Any] = {"benchmark": "match", "jobs": jobs, "cpus": os.cpu_count(), "repeat": repeat}
    warm = plan_of("random", 2 * jobs)
    start = time.perf_counter()
    list(engine_games([(warm, index) for index in range(warm.games)], jobs))  # the forkserver started
    result["jobs_first_start_s"] = round(time.perf_counter() - start, 2)
    plans = {"random": plan_of("random", random_games), "heuristic": plan_of("heuristic", heuristic_games)}
    with tempfile.TemporaryDirectory(prefix="setback-bench-match-") as name:
        folder = Path(name)
        rounds = {
            field: measure(plan, [
                partial(side_by_side, plan, folder),
                alone(f"jobs_{jobs}", partial(runner, plan, jobs, folder)),
            ], repeat)
            for field, plan in plans.items()
        }
        if ray:
            from setback.match.cluster import ray_games, start_ray

            start = time.perf_counter()
            stop = start_ray(None, cpus=jobs)
            result["ray_start_s"] = round(time.perf_counter() - start, 2)
            try:
                list(ray_games([(warm, index) for index in range(warm.games)]))  # every worker started
                result["ray_first_games_s"] = round(time.perf_counter() - start - result["ray_start_s"], 2)
                for field, plan in plans.items():
                    rounds[field] |= measure(plan, [
                        alone(f"ray_jobs_{jobs}", partial(runner, plan, jobs, folder)),
                        alone("ray", partial(runner, plan, jobs, folder, ray_games)),
                    ], repeat)
            finally:
                stop()
    for field, plan in plans.items():
        result[field] = figures(plan, jobs, rounds[field])
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="setback bench match", description=__doc__.split("\n")[0])
    parser.add_argument("--random-games", type=int, default=200, help="games of four random bots (default 200)")
    parser.add_argument("--heuristic-games", type=int, default=1000,
                        help="games of four heuristic bots (default 1000)")
    parser.add_argument("--jobs", type=int, default=2, help="processes of the parallel runs (default 2)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="rounds, every way once a round; each ratio the median of the rounds'")
    parser.add_argument("--ray", action="store_true",
                        help="also on a local Ray instance of --jobs CPUs (pip install 'setback[cluster]')")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if min(args.random_games, args.heuristic_games, args.jobs, args.repeat) < 1:
        parser.error("games, jobs and repeat are at least 1")
    result = run(args.random_games, args.heuristic_games, args.jobs, args.repeat, args.ray)
    if args.json:
        print(json.dumps(result))
        return
    for key, value in result.items():
        if isinstance(value, dict):
            print(f"{key}:")
            for name, figure in value.items():
                print(f"  {name:34} {figure}")
        else:
            print(f"{key:36} {value}")


if __name__ == "__main__":
    main()
