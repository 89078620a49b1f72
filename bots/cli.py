"""The ``setback match`` and ``setback watch`` commands."""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import ExitStack

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from setback.bots.match import MatchResult, match_record, play_game, play_match
from setback.bots.registry import bot_name, load_bot_class
from setback.client.narrate import narrate
from setback.engine import Game, Rules, game_record


def run_match_command(args: argparse.Namespace, rules: Rules) -> int:
    specs: list[str] = args.bots
    with ExitStack() as stack:
        out = stack.enter_context(open(args.out, "w", encoding="utf-8")) if args.out else None
        show_progress = not args.json and sys.stderr.isatty()
        progress = stack.enter_context(
            Progress(
                TextColumn("match"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                console=Console(stderr=True), transient=True,
            )
        ) if show_progress else None
        task = progress.add_task("games", total=args.games) if progress else None

        def on_game(index: int, game: Game, seats: list[int]) -> None:
            if out is not None:
                out.write(json.dumps(match_record(game, specs, seats, args.seed, index)) + "\n")
            if progress is not None and task is not None:
                progress.advance(task)

        result = play_match(specs, args.games, args.seed, rules, on_game)
    if args.json:
        print(json.dumps(result.as_dict()))
    else:
        print_result(result)
    return 0


def print_result(result: MatchResult) -> None:
    """The result table, one row a bot."""
    table = Table(title=f"{result.games} games, seed {result.seed}")
    for column in ("bot", "games", "wins", "win %", "95% CI", "points/hand", "bids won", "made", "set"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for s in result.stats:
        low, high = s.win_interval()
        per_hand = f"{s.points / s.hands:.3f}" if s.hands else "-"
        table.add_row(
            s.spec, str(s.games), str(s.wins), f"{100 * s.win_rate:.1f}", f"{100 * low:.1f}-{100 * high:.1f}",
            per_hand, str(s.bids_won), str(s.bids_made), str(s.bids_set),
        )
    Console().print(table)


def run_watch_command(args: argparse.Namespace, rules: Rules) -> int:
    specs: list[str] = args.bots
    if len(specs) != rules.players:
        raise ValueError(f"{len(specs)} bots named for a table of {rules.players} players")
    bots = [load_bot_class(spec)(seed=args.seed + seat) for seat, spec in enumerate(specs)]
    game = play_game(Game(rules, args.seed), bots)
    if args.json:
        print(json.dumps(game_record(game, players=specs)))
        return 0
    names = [f"{bot_name(spec)}#{seat}" for seat, spec in enumerate(specs)]
    for line in narrate(game.events, rules, names):
        print(line)
    return 0
