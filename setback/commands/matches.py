"""The ``setback match``, ``setback watch`` and ``setback new-bot`` commands."""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import logging
import secrets
import shlex
import signal
import sys
import time
from collections.abc import Iterable
from contextlib import ExitStack
from pathlib import Path
from typing import IO, Any

import msgspec
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from setback import logs
from setback.bots.base import BotFailedError
from setback.bots.registry import EXTERNAL, bot_class_and_options, bot_factory, bot_name, external_command
from setback.bots.seat import Limits
from setback.bots.template import write_template
from setback.commands.common import (
    AddCommand,
    CommandFailedError,
    add_clock_argument,
    add_rules_arguments,
    bot_players,
    print_json,
    print_rows,
    rules_from,
    setback_command,
    whole_number,
)
from setback.commands.records import read_records
from setback.engine import Game, Rules, game_record
from setback.match.compare import Comparison, Match, compare
from setback.match.plan import MatchPlan
from setback.match.runner import GamePlayer, made_bot, play_with
from setback.match.runner import play_match as run_match
from setback.match.sprt import EXIT_STATUS, Sprt, Standing, Verdict, standing
from setback.match.tally import MatchResult
from setback.telling.narrate import narrate

MATCH_GAMES = 100
"""The games of a match when ``--games`` is not given."""
SPRT_GAMES = 100_000
"""The most games a sequential test plays when ``--games`` is not given."""


def limits_from(args: argparse.Namespace) -> Limits:
    """The limits :func:`~setback.commands.common.add_clock_argument`'s flag asks for."""
    return Limits(args.decision_seconds)


def read_finished(path: Path) -> list[dict[str, Any]]:
    """The complete records in a match's JSONL file; a torn last line (a stopped write) is cut off."""
    if not path.exists():
        return []
    records = []
    good = 0
    with path.open("rb") as file:
        for line in file:
            try:
                records.append(msgspec.json.decode(line))
            except msgspec.DecodeError:
                break
            good += len(line)
    with path.open("r+b") as file:
        file.truncate(good)
    return records


def complete_lines(path: Path) -> int:
    """How many complete (newline-ended) lines the file at ``path`` holds (0: no file): a match's kept games."""
    if not path.exists():
        return 0
    with path.open("rb") as file:
        return sum(block.count(b"\n") for block in iter(functools.partial(file.read, 1 << 20), b""))


def check_specs(specs: Iterable[str], via_server: bool = False) -> None:
    """ValueError naming the first SPEC that is no bot, or a ``cmd:`` program with no server to play on."""
    for spec in specs:
        if not spec.startswith(EXTERNAL):
            bot_factory(spec)
        elif not via_server:
            raise ValueError(f"{spec!r} is an external program: it plays only through a server "
                             "(setback match --via-server)")
        else:
            external_command(spec)


def progress_bar(args: argparse.Namespace, stack: ExitStack, label: str) -> Progress | None:
    """A progress bar on stderr, when it is a terminal and the result is not ``--json``."""
    if args.json or not sys.stderr.isatty():
        return None
    return stack.enter_context(Progress(
        TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), TextColumn("{task.description}"),
        console=Console(stderr=True), transient=True,
    ))


def game_player(args: argparse.Namespace) -> GamePlayer | None:
    """What plays the games ``args`` ask for: a server (``--via-server``), Ray (``--ray``) or the engine (None)."""
    if args.via_server and args.ray is not None:
        raise ValueError("--via-server and --ray are two ways to play the games: choose one")
    if args.via_server:
        return _through_a_server()
    if args.ray is not None:
        from setback.match.cluster import ray_records

        return ray_records(args.ray or None, args.jobs)
    return None


def ray_address_type(text: str) -> str:
    """An argparse type: the address of a Ray cluster (see :func:`setback.match.cluster.ray_address`)."""
    from setback.match.cluster import ray_address

    try:
        return ray_address(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_ray_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ray", nargs="?", const="", type=ray_address_type, metavar="ADDRESS",
        help="play every game as a task on a Ray cluster: auto, HOST:PORT or ray://HOST:PORT; with no address "
        "(put it after the bots) a local Ray instance of --jobs CPUs (default all) (pip install 'setback[cluster]')",
    )


SPRT_EVERY_PAIRS = 20
"""How often (in pairs, or games when unpaired) a sequential test says its LLR when no progress bar shows it."""


def run_match_command(args: argparse.Namespace, rules: Rules) -> int:
    """Play a match (its SPECs passed :func:`check_specs`) and print its result; stopped by
    Ctrl-C with ``--out``, first say on stderr how many games the file keeps and how to finish.
    With ``--sprt``, stop at the test's verdict and exit with its status (:data:`EXIT_STATUS`)."""
    if args.via_server:  # the match's own server: only its warnings are news
        logs.configure(json=args.log_json, level=logging.WARNING)
    sprt = Sprt.parse(args.sprt) if args.sprt is not None else None
    if sprt is not None and len(args.bots) != 2:
        raise ValueError(f"--sprt tests one bot against another: name two, not {len(args.bots)}")
    duplicate = args.duplicate if args.duplicate is not None else sprt is not None
    games = args.games if args.games is not None else (SPRT_GAMES if sprt is not None else MATCH_GAMES)
    plan = MatchPlan(tuple(args.bots), rules, games, args.seed, duplicate, limits_from(args))
    for spec in dict.fromkeys(s for s in plan.specs if not s.startswith(EXTERNAL)):
        cls, options = bot_class_and_options(spec)
        if cls.plays_by_the_clock(options):
            print(f"setback match: note: {spec} decides by time spent, so its games vary from run to run and "
                  "machine to machine (search@budget_ms=None,playouts=N is repeatable)", file=sys.stderr)
    if args.resume and not args.out:
        raise ValueError("--resume needs --out FILE.jsonl, the records of the match to resume")
    player = game_player(args)
    finished = read_finished(Path(args.out)) if args.resume else []
    if args.out and not args.resume and complete_lines(Path(args.out)):
        raise ValueError(f"{args.out} already holds games: --resume to go on with that match, or another --out")
    said = [0]

    def decided(result: MatchResult) -> bool:
        assert sprt is not None
        now = standing(sprt, result)
        if progress is not None and task is not None:
            progress.update(task, description=f"LLR {now.llr:.2f} ({sprt.lower:.2f}, {sprt.upper:.2f})")
        elif not args.json and now.results >= said[0] + SPRT_EVERY_PAIRS:
            said[0] = now.results
            print(f"setback match: {now.results} {'pairs' if now.paired else 'games'}: LLR {now.llr:.2f} "
                  f"({sprt.lower:.2f}, {sprt.upper:.2f})", file=sys.stderr)
        return now.verdict is not Verdict.UNDECIDED

    try:
        with ExitStack() as stack:
            out: IO[bytes] | None = None
            if args.out:
                out = stack.enter_context(open(args.out, "ab" if args.resume else "wb"))
            progress = progress_bar(args, stack, "match")
            task = progress.add_task("", total=plan.games, completed=len(finished)) if progress else None

            def on_line(line: bytes) -> None:
                if out is not None:
                    out.write(line)
                    out.flush()
                if progress is not None and task is not None:
                    progress.advance(task)

            stack.enter_context(contextlib.redirect_stdout(sys.stderr))  # what bots print is not the result
            result = run_match(
                plan, jobs=args.jobs or 1, finished=finished, on_line=on_line, player=player,
                until=decided if sprt is not None else None,
            )
    except BotFailedError as exc:
        if args.out:
            kept = complete_lines(Path(args.out))
            exc.args = (f"{exc}; {kept} of {plan.games} games kept in {args.out} (fix the bot, then --resume)",)
        raise
    except KeyboardInterrupt:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # people press Ctrl-C twice: let this be said
        if args.out:
            kept = complete_lines(Path(args.out))
            print(f"setback match: stopped with {kept} of {plan.games} games kept in {args.out}; "
                  "to finish, rerun the same command with --resume", file=sys.stderr)
        raise
    final = standing(sprt, result) if sprt is not None else None
    if args.json:
        print(json.dumps({**result.as_dict(), **({"sprt": final.as_dict()} if final else {})}))
    else:
        print_result(result)
        if final is not None:
            print_sprt(final)
    return EXIT_STATUS[final.verdict] if final is not None else 0


def print_sprt(final: Standing) -> None:
    """The test's verdict in a few lines: the counts, the LLR against its bounds, the Elo."""
    sprt = final.sprt
    elo, low, high = final.elo()
    kind = "pairs (LL, -, WL, -, WW)" if final.paired else "games (L, D, W)"
    verdict = {Verdict.H1: f"H1 accepted: the first bot is better by {sprt.elo1:g} Elo or more",
               Verdict.H0: f"H0 accepted: the first bot is better by no more than {sprt.elo0:g} Elo",
               Verdict.UNDECIDED: "undecided: the games ran out before a bound was reached (--games)"}[final.verdict]
    print(f"SPRT {sprt.model} elo0={sprt.elo0:g} elo1={sprt.elo1:g} alpha={sprt.alpha:g} beta={sprt.beta:g}")
    print(f"{final.results} {kind}: {', '.join(map(str, final.counts))}")
    print(f"LLR {final.llr:.2f} ({sprt.lower:.2f}, {sprt.upper:.2f}); Elo {elo:+.1f} ({low:+.1f} to {high:+.1f})")
    print(f"{verdict} (exit status {EXIT_STATUS[final.verdict]})")


def _through_a_server() -> GamePlayer:
    """``--via-server``'s way of playing (the server is imported only for it)."""
    from setback.commands.via_server import via_server_records

    return via_server_records


CLOCK_COLUMNS = ["ms/decision", "p99 ms", "peak MB", "timeouts", "errors"]
"""The columns of a bot's decisions and memory, a match's table and a tournament's alike."""


def clock_cells(fields: dict[str, Any]) -> list[str]:
    """The :data:`CLOCK_COLUMNS` of a bot's :meth:`BotStats.clock_fields`."""
    mean, p99, peak = fields["decision_ms"], fields["decision_p99_ms"], fields["peak_rss_mb"]
    return ["-" if mean is None else f"{mean:.2f}", "-" if p99 is None else f"{p99:.2f}",
            "-" if peak is None else f"{peak:.0f}", str(fields["timeouts"]), str(fields["errors"])]


def print_result(result: MatchResult) -> None:
    """The result table, one row a bot."""
    plan = result.plan
    title = f"{result.games} games, seed {plan.seed}" + (", duplicate" if plan.duplicate else "")
    if any(s.paired for s in result.stats):
        title += " (win intervals paired by deal)"
    columns = ["bot", "games", "wins", "win % (95% CI)", "points/hand", "net/hand", "bids made/set",
               *CLOCK_COLUMNS]
    rated = any(s.rating for s in result.stats)
    rows = []
    for label, s in zip(result.labels(), result.stats, strict=True):
        low, high = s.win_interval()
        per_hand = f"{s.points / s.hands:.3f}" if s.hands else "-"
        net = f"{s.net / s.hands:+.3f}" if s.hands else "-"
        rating = [f"{s.rating[0]:.1f} ± {2 * s.rating[1]:.1f}"] if s.rating else []
        rows.append([
            label, str(s.games), str(s.wins), f"{100 * s.win_rate:.1f} ({100 * low:.1f}-{100 * high:.1f})",
            per_hand, net, f"{s.bids_made}/{s.bids_set}", *clock_cells(s.clock_fields()), *rating,
        ])
    console = Console(width=None if sys.stdout.isatty() else 160)
    print_rows(console, title, [*columns, *(["rating (mu ± 2 sd)"] if rated else [])], rows, left={"bot"})


WATCH_PACE = 0.5
"""Seconds between the lines ``setback watch`` tells on a terminal: a game a person can follow."""


def pace_seconds(text: str) -> float:
    """A pace on the command line: seconds, 0 or more."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds <= 60:
        raise argparse.ArgumentTypeError(f"a pace is 0 to 60 seconds, not {text!r}")
    return seconds


def run_watch_command(args: argparse.Namespace, rules: Rules) -> int:
    """Tell one game between bots (its SPECs passed :func:`check_specs`)."""
    specs: list[str] = args.bots
    if len(specs) != rules.players:
        raise ValueError(f"a table of {rules.players} players takes one bot a seat, not {len(specs)}")
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    with contextlib.redirect_stdout(sys.stderr):  # what bots print is not the game's story
        bots = [made_bot(spec, seed + seat) for seat, spec in enumerate(specs)]
        game, _ = play_with(Game(rules, seed), bots, limits_from(args), tuple(specs))
    if args.json:
        print(json.dumps(game_record(game, players=specs)))
        return 0
    names = [f"{bot_name(spec)}-{seat}" for seat, spec in enumerate(specs)]  # as a server names them
    if args.seed is None:
        print(f"Seed {seed} (setback watch --seed {seed} tells this game again).")
    pace = args.pace if args.pace is not None else (WATCH_PACE if sys.stdout.isatty() else 0.0)
    for line in narrate(game.events, rules, names, ascii=args.ascii):
        print(line, flush=True)
        if pace and line.strip():
            time.sleep(pace)
    return 0


def run_new_bot_command(args: argparse.Namespace) -> int:
    path, class_name = write_template(args.name, Path(args.dir))
    print(f"wrote {path}, a commented bot to change. Run it in a match:")
    print(f"  {setback_command()} match {shlex.quote(f'{path}:{class_name}')} random --games 20 --seed 1")
    return 0


def cmd_match(args: argparse.Namespace) -> int:
    check_specs(args.bots, args.via_server)  # an unknown bot is news before a count that is off
    try:
        return run_match_command(args, rules_from(args, bot_players(args)))
    except BotFailedError as exc:
        raise CommandFailedError(str(exc)) from None


def cmd_watch(args: argparse.Namespace) -> int:
    check_specs(args.bots)
    try:
        return run_watch_command(args, rules_from(args, len(args.bots)))
    except BotFailedError as exc:
        raise CommandFailedError(str(exc)) from None


def cmd_new_bot(args: argparse.Namespace) -> int:
    return run_new_bot_command(args)


def cmd_compare(args: argparse.Namespace) -> int:
    matches = []
    for path in (args.base, args.new):
        try:
            matches.append(Match.of(read_records(path)))
        except (OSError, ValueError) as exc:
            raise CommandFailedError(f"{path}: {exc}") from None
    try:
        comparison = compare(*matches)
    except ValueError as exc:
        raise CommandFailedError(str(exc)) from None
    if args.json:
        print_json(comparison.as_dict())
    else:
        print_comparison(comparison, args.base, args.new)
    return 0


def print_comparison(c: Comparison, base: Path, new: Path) -> None:
    """The comparison as a table of two rows (each file's first bot) and the difference under it."""
    interval = f" ({c.interval[0]:+.3f} to {c.interval[1]:+.3f})" if c.interval else ""
    print_rows(
        Console(), f"the first bot on the {c.games} games both played ({c.deals} deals)",
        ["file", "first bot", "against", "score"],
        ([str(path), players[0], ", ".join(players[1:]), f"{score:.3f}"]
         for path, players, score in ((base, c.base, c.base_score), (new, c.new, c.new_score))),
        caption=f"difference {c.difference:+.3f}{interval}, 95% paired by deal; the winner changed in "
        f"{c.changed} games ({c.deals_up} deals up, {c.deals_down} down)"
        + ("" if c.same_opponents else "; the other bots differ, so the difference is not the first bot's alone"),
        left={"file", "first bot", "against"},
    )


def register(command: AddCommand) -> None:
    match = command("match", cmd_match, "play seeded bot-vs-bot games and print the result table, "
                    "or test NEW against OLD until a sequential test decides (--sprt)")
    match.add_argument(
        "bots", nargs="+", metavar="BOT", help="bot SPECs: one a seat, or one a side with --teams"
    )
    match.add_argument(
        "--games", type=whole_number("N", 1),
        help=f"games to play (default {MATCH_GAMES}; with --sprt the most to play, default {SPRT_GAMES})",
    )
    match.add_argument("--seed", type=int, default=0, help="match seed (default 0)")
    match.add_argument(
        "--duplicate", action=argparse.BooleanOptionalAction,
        help="replay every deal once per rotation of the bots' seats (default: with --sprt only)",
    )
    match.add_argument("--jobs", type=whole_number("jobs", 1), help="processes to play games on (default 1)")
    match.add_argument(
        "--sprt", metavar="elo0=0,elo1=5,alpha=0.05,beta=0.05",
        help="play duplicate pairs of NEW OLD until the sequential probability ratio test accepts H0 or H1 "
        f"(or --games run out); exit status {EXIT_STATUS[Verdict.H1]}: H1, {EXIT_STATUS[Verdict.H0]}: H0, "
        f"{EXIT_STATUS[Verdict.UNDECIDED]}: undecided (model=logistic for logistic Elo; default normalized)",
    )
    match.add_argument(
        "--via-server", action="store_true",
        help="play through a real server over TCP (needed by cmd:PROGRAM bots; --jobs tables at a time)",
    )
    match.add_argument("--out", metavar="FILE.jsonl", help="write one JSON record per game")
    match.add_argument(
        "--resume", action="store_true", help="keep the games already in --out and play only the rest"
    )
    add_ray_argument(match)
    match.add_argument("--json", action="store_true", help="print the result as JSON")
    add_clock_argument(match)
    add_rules_arguments(match, players="one per bot")

    watch = command("watch", cmd_watch, "play one game between bots and tell it hand by hand")
    watch.add_argument("bots", nargs="*", default=["heuristic"] * 4, metavar="BOT", help="bot SPECs, one a seat")
    watch.add_argument("--seed", type=int, help="game seed (default: a new one each time, told first)")
    watch.add_argument("--json", action="store_true", help="print the game's record as JSON (at once)")
    watch.add_argument(
        "--pace", type=pace_seconds, metavar="SECONDS",
        help=f"seconds between lines, to follow the game as it is told (default {WATCH_PACE:g} on a terminal, "
        "else 0: at once)",
    )
    watch.add_argument("--ascii", action="store_true", help="suit letters (10H) instead of symbols (10♥)")
    add_clock_argument(watch)
    add_rules_arguments(watch)

    compared = command(
        "compare", cmd_compare, "compare two matches of the same deals game by game: the first bot's "
        "score in each and their difference, paired by deal",
    )
    compared.add_argument("base", type=Path, metavar="BASE.jsonl", help="the first match's --out file")
    compared.add_argument(
        "new", type=Path, metavar="NEW.jsonl",
        help="the second's, played with the same other bots, --seed and --duplicate (its first bot changed)",
    )
    compared.add_argument("--json", action="store_true", help="print the comparison as JSON")

    new_bot = command("new-bot", cmd_new_bot, "write NAME.py, a commented bot to start from")
    new_bot.add_argument("name", metavar="NAME", help="the bot's file and class name (a Python identifier)")
    new_bot.add_argument("--dir", default=".", help="where to write it (default: here)")
