"""Games per second of the match runner against a bare loop over the engine's facade.

For four ``random`` bots and for four ``heuristic`` bots with no clock (``--decision-ms 0``),
one run plays the same games (a match of N games, one seed) several ways, in turn:

- **bare**: a loop in this process over :class:`setback.engine.Game`: make the game's bots
  (the runner's seeds), then ask the seat to act for its decision on its view and apply it,
  to the game's end. No records, no clock, no hooks: the least a runner can do.
- **jobs 1**: :func:`setback.bots.match.play_match` on one process, every record written as
  a JSONL line to a file, as ``setback match --out FILE`` does.
- **jobs J** (``--jobs``, 2 by default): the same on J processes, the pool's start counted
  (the first pool of a process also starts the forkserver the workers are forked from: that
  is measured apart, before, as ``jobs_first_start_s``).
- **ray** (with ``--ray``): the same on a local Ray instance of J CPUs, each game a task,
  measured after the others (Ray's threads in this process would add to their CPU time);
  its start and its first games (its workers starting) are measured apart, before, and its
  cost over ``--jobs J`` is given per game, in CPU time: ``J`` times the wall time it adds.

With ``--repeat N`` every way is measured N times, in turn, and each figure is its best run:
other programs only ever add to a run's time, so on a shared machine the fastest of N runs
is the one they disturbed least. Compare the ratios of one run, as printed; the ratio of the
CPU time this process spent, bare loop over ``--jobs 1`` (``cpu_ratio_jobs_1_over_bare``), is
the one the machine's load disturbs least.

Run: ``python -m setback.benchmarks.match`` or ``setback bench match [--random-games 200]
[--heuristic-games 1000] [--jobs 2] [--repeat 1] [--ray] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from setback.bots.match import MatchPlan, TaskPlayer, engine_games, made_bot, play_match, record_line
from setback.bots.seat import Limits
from setback.engine import Game, Phase, Rules

SEED = 2026


def bare_loop(plan: MatchPlan) -> list[int]:
    """Play every game of ``plan`` in a plain loop over the engine's facade; each game's winner."""
    winners = []
    for index in range(plan.games):
        seed = plan.game_seed(index)
        bots = [made_bot(plan.specs[b], seed + seat) for seat, b in enumerate(plan.seating(index))]
        game = Game(plan.rules, seed)
        while (seat := game.to_act) is not None:
            view = game.view(seat)
            bot = bots[seat]
            game.apply(bot.play(view) if view.phase is Phase.PLAYING else bot.bid(view), seat)  # type: ignore[arg-type]
        assert game.outcome is not None
        winners.append(game.outcome.winner)
    return winners


def runner(plan: MatchPlan, jobs: int, folder: Path, tasks: TaskPlayer | None = None) -> list[int]:
    """Play ``plan`` as ``setback match --out`` does (on ``jobs`` processes, or by ``tasks``); each game's winner."""
    winners: list[int] = []
    with (folder / "games.jsonl").open("wb") as out:

        def on_record(record: dict[str, Any]) -> None:
            out.write(record_line(record))
            winners.append(record["outcome"]["winner"])

        player = None if tasks is None else lambda p, indexes, j: tasks([(p, i) for i in indexes], j)
        play_match(plan, jobs=jobs, on_record=on_record, player=player)
    return winners


def timed(run: Callable[[], list[int]]) -> tuple[float, float, list[int]]:
    """The wall time and this process's CPU time ``run`` took, and what it gave."""
    start, cpu = time.perf_counter(), time.process_time()
    winners = run()
    return time.perf_counter() - start, time.process_time() - cpu, winners


def plan_of(spec: str, games: int) -> MatchPlan:
    """The match measured: ``games`` games of four ``spec`` bots, no clock."""
    return MatchPlan((spec,) * 4, Rules(), games, SEED, limits=Limits(None))


def measure(plan: MatchPlan, ways: dict[str, Callable[[], list[int]]], repeat: int) -> dict[str, tuple[float, float]]:
    """Each way's best wall and CPU time over ``repeat`` runs, the ways in turn; each must play the
    games the first played."""
    seconds: dict[str, list[float]] = {way: [] for way in ways}
    cpu: dict[str, list[float]] = {way: [] for way in ways}
    expected = bare_loop(plan) if "bare" not in ways else None
    for _ in range(repeat):
        for way, play in ways.items():
            took, used, winners = timed(play)
            if expected is None:
                expected = winners
            assert winners == expected, f"{way} played other games than the bare loop"
            seconds[way].append(took)
            cpu[way].append(used)
    return {way: (min(seconds[way]), min(cpu[way])) for way in ways}


def figures(plan: MatchPlan, jobs: int, timings: dict[str, tuple[float, float]]) -> dict[str, Any]:
    """Games/s of each way and the ratios the benchmark is for."""
    games = plan.games
    rate = {way: games / wall for way, (wall, _) in timings.items()}
    result: dict[str, Any] = {"bots": f"4 x {plan.specs[0]}", "games": games}
    result |= {f"{way}_games_per_s": round(r, 1) for way, r in rate.items()}
    result["ratio_jobs_1_over_bare"] = round(rate["jobs_1"] / rate["bare"], 3)
    result["cpu_ratio_jobs_1_over_bare"] = round(timings["bare"][1] / timings["jobs_1"][1], 3)
    result[f"ratio_jobs_{jobs}_over_jobs_1"] = round(rate[f"jobs_{jobs}"] / rate["jobs_1"], 3)
    if "ray" in rate:
        result[f"ratio_ray_over_jobs_{jobs}"] = round(rate["ray"] / rate[f"jobs_{jobs}"], 3)
        result[f"ray_ms_per_game_over_jobs_{jobs}"] = round(
            1000 * jobs * (timings["ray"][0] - timings[f"jobs_{jobs}"][0]) / games, 2
        )
    return result


def run(random_games: int = 200, heuristic_games: int = 1000, jobs: int = 2, repeat: int = 1,
        ray: bool = False) -> dict[str, Any]:
    """Measure both fields of bots, the ways in turn; then, with ``ray``, on a local Ray instance of
    ``jobs`` CPUs, started only then (its threads in this process would add to the others' CPU time)."""
    result: dict[str, Any] = {"benchmark": "match", "jobs": jobs, "cpus": os.cpu_count()}
    warm = plan_of("random", 2 * jobs)
    start = time.perf_counter()
    list(engine_games([(warm, index) for index in range(warm.games)], jobs))  # the forkserver started
    result["jobs_first_start_s"] = round(time.perf_counter() - start, 2)
    plans = {"random": plan_of("random", random_games), "heuristic": plan_of("heuristic", heuristic_games)}
    with tempfile.TemporaryDirectory(prefix="setback-bench-match-") as name:
        folder = Path(name)
        timings = {
            field: measure(plan, {
                "bare": partial(bare_loop, plan),
                "jobs_1": partial(runner, plan, 1, folder),
                f"jobs_{jobs}": partial(runner, plan, jobs, folder),
            }, repeat)
            for field, plan in plans.items()
        }
        if ray:
            from setback.bots.cluster import ray_games, start_ray

            start = time.perf_counter()
            stop = start_ray(None, cpus=jobs)
            result["ray_start_s"] = round(time.perf_counter() - start, 2)
            try:
                list(ray_games([(warm, index) for index in range(warm.games)]))  # every worker started
                result["ray_first_games_s"] = round(time.perf_counter() - start - result["ray_start_s"], 2)
                for field, plan in plans.items():
                    timings[field] |= measure(plan, {"ray": partial(runner, plan, jobs, folder, ray_games)}, repeat)
            finally:
                stop()
    for field, plan in plans.items():
        result[field] = figures(plan, jobs, timings[field])
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="setback bench match", description=__doc__.split("\n")[0])
    parser.add_argument("--random-games", type=int, default=200, help="games of four random bots (default 200)")
    parser.add_argument("--heuristic-games", type=int, default=1000,
                        help="games of four heuristic bots (default 1000)")
    parser.add_argument("--jobs", type=int, default=2, help="processes of the parallel runs (default 2)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each way, in turn; the best printed")
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
