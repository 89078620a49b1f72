"""The ``setback tournament`` command: many bots, a round robin or a gauntlet, one stream of games."""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import sys
from collections.abc import Iterator, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import IO, Any

from rich.console import Console

from setback.bots.base import BotFailedError
from setback.bots.levels import LEVELS
from setback.bots.registry import EXTERNAL, bot_name
from setback.commands.common import (
    AddCommand,
    CommandFailedError,
    add_clock_argument,
    add_rules_arguments,
    print_rows,
    rules_from,
    teams_asked,
    whole_number,
)
from setback.commands.matches import (
    CLOCK_COLUMNS,
    add_ray_argument,
    check_specs,
    clock_cells,
    complete_lines,
    limits_from,
    progress_bar,
    read_finished,
)
from setback.match.runner import GameTask, Played, TaskPlayer, engine_games
from setback.match.tournament import FORMATS, TournamentPlan, TournamentResult, take_finished, tournament_tasks


def record_files(plan: TournamentPlan, out: Path) -> list[Path]:
    """Where each match's records go: ``out`` itself when it names a ``.jsonl`` file, else one
    file a pairing in the folder ``out`` (``01-heuristic-vs-random.jsonl``, every round in it)."""
    pairings = plan.pairings()
    if out.suffix == ".jsonl":
        return [out] * len(plan.matches())
    names = [
        out / (f"{number + 1:02d}-" + "-vs-".join(_file_word(plan.specs[b]) for b in bots) + ".jsonl")
        for number, bots in enumerate(pairings)
    ]
    return [names[plan.place(number)[1]] for number in range(len(plan.matches()))]


def _file_word(spec: str) -> str:
    return "".join(c if c.isalnum() or c in "-_=." else "_" for c in bot_name(spec))[:40]


def run_tournament_command(args: argparse.Namespace) -> int:
    teams = teams_asked(args, 2)
    rules = rules_from(args, 2 * teams if teams else 2)
    plan = TournamentPlan(tuple(args.bots), rules, args.format, args.games_per_pairing, args.rounds, args.seed,
                          args.duplicate, limits_from(args))
    files = record_files(plan, Path(args.out)) if args.out else []
    if args.resume and not args.out:
        raise ValueError("--resume needs --out, the records of the tournament to resume")
    kept = sorted(set(files))
    if args.out and not args.resume and any(complete_lines(f) for f in kept):
        raise ValueError(f"{args.out} already holds games: --resume to go on with that tournament, or another --out")
    result = TournamentResult(plan)
    done = take_finished(plan, result, (r for f in kept for r in read_finished(f))) if args.resume else None
    tasks = tournament_tasks(plan, done or [set() for _ in plan.matches()])
    play = _player(args, plan)
    total = sum(m.games for m in plan.matches())
    try:
        with ExitStack() as stack:
            outs: dict[Path, IO[bytes]] = {}
            if args.out:
                if Path(args.out).suffix != ".jsonl":
                    Path(args.out).mkdir(parents=True, exist_ok=True)
                outs = {f: stack.enter_context(open(f, "ab" if args.resume else "wb")) for f in kept}
            progress = progress_bar(args, stack, "tournament")
            bar = progress.add_task("", total=total, completed=result.games) if progress else None
            stack.enter_context(contextlib.redirect_stdout(sys.stderr))  # what bots print is not the result
            for (number, _), game in zip(tasks, play([task for _, task in tasks], args.jobs or 1), strict=True):
                played = game.with_fields(tournament=plan.tournament_fields(number))
                result.add(number, played.digest)
                if outs:
                    out = outs[files[number]]
                    out.write(played.line)
                    out.flush()
                if progress is not None and bar is not None:
                    progress.advance(bar)
    except BotFailedError as exc:
        if args.out:
            exc.args = (f"{exc}; {_kept(kept)} of {total} games kept in {args.out} (fix the bot, then --resume)",)
        raise
    except KeyboardInterrupt:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        if args.out:
            print(f"setback tournament: stopped with {_kept(kept)} of {total} games kept in {args.out}; "
                  "to finish, rerun the same command with --resume", file=sys.stderr)
        raise
    if args.json:
        print(json.dumps(result.as_dict()))
    else:
        print_tournament(result)
    return 0


def _kept(files: Sequence[Path]) -> int:
    return sum(complete_lines(f) for f in files)


def _player(args: argparse.Namespace, plan: TournamentPlan) -> TaskPlayer:
    """What plays the stream of games: the engine on ``--jobs`` processes, or Ray (``--ray``)."""
    if args.ray is None:
        return engine_games
    from setback.match.cluster import ray_games, start_ray

    def on_ray(tasks: Sequence[GameTask], jobs: int) -> Iterator[Played]:
        stop = start_ray(args.ray or None, args.jobs, plan.specs)
        try:
            yield from ray_games(tasks, jobs)
        finally:
            stop()

    return on_ray


def print_tournament(result: TournamentResult) -> None:
    """The standings, then the cross table."""
    plan = result.plan
    console = Console(width=None if sys.stdout.isatty() else 160)
    title = (f"{plan.format}, {len(plan.specs)} bots, {result.games} games, seed {plan.seed}"
             + (", duplicate" if plan.duplicate else ""))
    skill = plan.seats > 2
    columns = ["rank", "#", "bot", "Elo (95%)", *(["OpenSkill (mu ± 2 sd)"] if skill else []), "games", "score %",
               "points/hand", "set %", *CLOCK_COLUMNS]
    rows = []
    for row in result.standings():
        rating = row.get("openskill")
        rows.append([
            str(row["rank"]), str(row["bot"]), row["label"], f"{row['elo']:+.0f} ± {row['elo_ci95']:.0f}",
            *([f"{rating['mu']:.1f} ± {2 * rating['sigma']:.1f}"] if rating else []),
            str(row["games"]), "-" if row["score"] is None else f"{100 * row['score']:.1f}",
            f"{row['points_per_hand']:.3f}", f"{100 * row['set_rate']:.1f}", *clock_cells(row),
        ])
    ranked = f"{title}; ranked by Elo, # is the bot's number in the cross table"
    print_rows(console, ranked, columns, rows, left={"bot"})
    labels = result.labels()
    cross = []
    for i, cells in enumerate(result.cross_table()):
        cross.append([f"{i + 1} {labels[i]}", *(_cell(cell) for cell in cells)])
    console.print()
    print_rows(console, "score % of the row's bot against the column's (95% CI)",
               ["bot", *(str(i + 1) for i in range(len(labels)))], cross, left={"bot"})


def _cell(cell: dict[str, Any] | None) -> str:
    if cell is None:
        return ""
    low, high = cell["ci95"]
    return f"{100 * cell['score']:.1f} ({100 * low:.0f}-{100 * high:.0f})"


def cmd_tournament(args: argparse.Namespace) -> int:
    if args.levels:
        args.bots = [*LEVELS.values(), *args.bots]
    if len(args.bots) < 2:
        raise ValueError("a tournament is of two bots or more: name them, or --levels for the levels' bots")
    if any(spec.startswith(EXTERNAL) for spec in args.bots):
        raise ValueError("cmd: bots play only through a server (setback match --via-server), not in a tournament")
    check_specs(args.bots)
    try:
        return run_tournament_command(args)
    except BotFailedError as exc:
        raise CommandFailedError(str(exc)) from None


def register(command: AddCommand) -> None:
    tournament = command(
        "tournament", cmd_tournament,
        "play a round robin or a gauntlet of bots and print the standings (Elo, OpenSkill) and the cross table",
    )
    tournament.add_argument("bots", nargs="*", metavar="BOT", help="bot SPECs, two or more")
    tournament.add_argument(
        "--levels", action="store_true",
        help="the levels' bots first, weakest first (beginner, casual, strong, expert: the ladder), then any BOT",
    )
    tournament.add_argument(
        "--format", choices=FORMATS, default="round-robin",
        help="round-robin: every table of bots; gauntlet: the first bot against every table of the others",
    )
    tournament.add_argument("--rounds", type=whole_number("rounds", 1), default=1,
                            help="times every pairing plays, each round on new deals (default 1)")
    tournament.add_argument("--games-per-pairing", type=whole_number("games", 1), default=20,
                            help="games each pairing plays each round, seats rotating (default 20)")
    tournament.add_argument("--seed", type=int, default=0, help="tournament seed: round r's matches are seeded S + r")
    tournament.add_argument("--duplicate", action="store_true",
                            help="replay every deal once per rotation of a pairing's seats")
    tournament.add_argument("--jobs", type=whole_number("jobs", 1), help="processes to play games on (default 1)")
    add_ray_argument(tournament)
    tournament.add_argument("--out", metavar="DIR_OR_FILE.jsonl",
                            help="write every game's record: into one .jsonl file, or a folder of one file a pairing")
    tournament.add_argument("--resume", action="store_true",
                            help="keep the games already in --out and play only the rest")
    tournament.add_argument("--json", action="store_true", help="print the result as JSON")
    add_clock_argument(tournament)
    add_rules_arguments(tournament, players="2, or with --teams T two a side")
