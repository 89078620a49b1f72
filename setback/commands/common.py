"""What every subcommand shares: its errors, the argparse types, the table-rules flags."""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import sqlite3
import sys
from collections.abc import Callable, Collection, Iterable, Sequence
from pathlib import Path
from typing import Any, NoReturn, Protocol

from rich.console import Console
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from setback.engine import (
    DEFAULT_HAND_LIMIT,
    MIN_BIDS,
    TARGETS,
    VARIANT_TEAMS,
    VARIANTS,
    LowRule,
    RefusedCombination,
    Rules,
    Variant,
)


class AddCommand(Protocol):
    """How a group of commands adds one: ``add(name, run, help)`` gives its parser, whose
    ``run(args)`` returns the exit status."""

    def __call__(self, name: str, run: Callable[[argparse.Namespace], int], help_: str) -> argparse.ArgumentParser:
        ...


class CommandFailedError(Exception):
    """A command could not do its job for a reason the user can act on: one line on stderr, exit 1."""


def whole_number(what: str, low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` (to ``high``), called ``what`` in errors."""

    def read(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} is a number, not {text!r}") from None
        if number < low or (high is not None and number > high):
            bounds = f"at least {low}" if high is None else f"{low} to {high}"
            raise argparse.ArgumentTypeError(f"{what} is {bounds}, not {number}")
        return number

    return read


port_number = whole_number("a port", 0, 65535)
"""An argparse type: a TCP port, 0 (any free one) to 65535."""


def server_address(text: str) -> str:
    """An argparse type: ``HOST[:PORT]`` (``[V6]:PORT`` for IPv6) as :meth:`Address.parse` reads it."""
    from setback.link import Address

    try:
        Address.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


class Parser(argparse.ArgumentParser):
    """An argument parser whose every complaint is one line on stderr and status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def explain(exc: BaseException) -> str:
    """One line for an error a command met: what happened, and what to try when we know."""
    import ssl

    if isinstance(exc, ConnectionRefusedError):
        return "connection refused (is a server running there?)"
    if isinstance(exc, ssl.SSLError):
        return f"TLS: {exc.reason or exc}"
    if isinstance(exc, sqlite3.DatabaseError):
        return f"the records file cannot be used: {exc} (is --db a server's SQLite file?)"
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.strerror}: {exc.filename}" if exc.filename is not None else exc.strerror
    return str(exc) or type(exc).__name__


def add_rules_arguments(
    parser: argparse.ArgumentParser, players: str = "one per bot, or with --bots one more"
) -> None:
    """The table options of spec.md section 3 (the club options too) as command-line flags
    (``players``: what ``--players`` defaults to)."""
    group = parser.add_argument_group("table rules (spec.md, section 3)")
    group.add_argument(
        "--variant", choices=[v.value for v in Variant], default=Variant.STANDARD.value,
        help="the game played: standard (default), joker, ten_point or pedro (spec.md, section 3, Variants)",
    )
    group.add_argument("--players", type=int, help=f"players at the table, 2-7 (default: {players})")
    group.add_argument(
        "--teams", type=int, help="number of partnerships (default: cutthroat, pairs for pedro; 0: cutthroat)"
    )
    group.add_argument(
        "--target", type=int, choices=TARGETS,
        help="points to win (default: the variant's, 11; joker 10, ten_point 21, pedro 31)",
    )
    group.add_argument(
        "--no-forced-bid", action="store_true", help="the dealer may pass; all passing throws the hand in"
    )
    group.add_argument(
        "--smudge", action="store_true",
        help="a made bid of 4 wins at once; with two sides, a failed bid of 4 loses at once",
    )
    group.add_argument("--no-junk", action="store_true", help="only the pitcher's side scores")
    group.add_argument(
        "--min-bid", type=int, choices=MIN_BIDS, default=1, help="the lowest bid, also a forced dealer's (default 1)"
    )
    group.add_argument(
        "--dealer-steal", action="store_true", help="the dealer may take the bid at the highest bid so far"
    )
    group.add_argument(
        "--low", choices=[rule.value for rule in LowRule], default=LowRule.DEALT.value,
        help="Low to the side dealt the lowest trump (dealt, the default) or to the side that captures it",
    )
    group.add_argument(
        "--hand-limit", type=int, default=DEFAULT_HAND_LIMIT,
        help="from this hand on, a side leading alone wins (default 100, which sensible play never reaches; 0: none)"
    )


def add_clock_argument(parser: argparse.ArgumentParser) -> None:
    """The per-decision limit that the offline runner holds every bot to (``args.decision_seconds``)."""
    parser.add_argument(
        "--decision-ms", type=decision_seconds, default=1.0, dest="decision_seconds", metavar="MS",
        help="per-decision limit in ms; a bot over it is timed out and the lowest-code legal action "
        "is played for it (default 1000; 0: none)",
    )


def decision_seconds(text: str) -> float | None:
    """An argparse type: a ``--decision-ms`` flag's milliseconds, 0 (no limit) or more, as the
    seconds of a decision limit (None: no limit), the one unit inside (the wire's ``decision_seconds``)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"milliseconds are a number, not {text!r}") from None
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"milliseconds are 0 (no limit) or more, not {text}")
    return value / 1000 or None


def rules_from(args: argparse.Namespace, players: int) -> Rules:
    """The :class:`Rules` the flags of :func:`add_rules_arguments` ask for; ValueError (status 2)
    for options that do not go together, a refused combination naming both flags."""
    try:
        return Rules(
            players=args.players or players,
            teams=VARIANT_TEAMS if args.teams is None else args.teams or None,
            target=args.target,
            forced_dealer_bid=not args.no_forced_bid,
            smudge=args.smudge,
            no_junk=args.no_junk,
            hand_limit=args.hand_limit or None,
            min_bid=args.min_bid,
            dealer_steal=args.dealer_steal,
            low=LowRule(args.low),
            variant=Variant(args.variant),
        )
    except RefusedCombination as exc:
        first, second = (f"--{option.replace('_', '-')}" for option in exc.options)
        raise ValueError(f"{first} and {second} do not go together: {exc}") from None


def teams_asked(args: argparse.Namespace, sides: int) -> int | None:
    """The partnerships the flags ask for: ``--teams`` (0: cutthroat), else ``sides`` for a
    variant played in partnerships only (one a bot or a side), else cutthroat (None)."""
    if args.teams is not None:
        return args.teams or None
    return sides if VARIANTS[Variant(args.variant)].partnerships_only else None


def bot_players(args: argparse.Namespace) -> int:
    """The players of a match of ``args.bots`` when ``--players`` is not given: one a bot, or
    with ``--teams T`` and one bot a side, two a side; in a variant played in partnerships only
    (without ``--teams``), one a bot when they make pairs (4 or 6 bots), else one a side."""
    bots = len(args.bots)
    if args.teams is None and VARIANTS[Variant(args.variant)].partnerships_only:
        return bots if bots % 2 == 0 and bots >= 4 else 2 * bots
    return 2 * bots if args.teams and bots == args.teams else bots



def print_rows(
    console: Console, title: str, columns: Sequence[str], rows: Iterable[Sequence[str]],
    *, caption: str | None = None, left: Collection[str] = (),
) -> None:
    """``rows`` as a table when it fits the console's width; else each row stacked, one
    ``column: value`` line a cell, so nothing is cut short at 80 columns. Columns not in
    ``left`` are aligned right in the table."""
    rows = list(rows)
    table = Table(title=title, caption=caption)
    for column in columns:
        table.add_column(column, justify="left" if column in left else "right", no_wrap=True)
    for row in rows:
        table.add_row(*row)
    if Measurement.get(console, console.options.update_width(1 << 16), table).maximum <= console.width:
        console.print(table)
        return
    console.print(Text(title, style="bold"))
    for row in rows:
        console.print()
        for number, (column, value) in enumerate(zip(columns, row, strict=True)):
            line = Text(f"{'' if number == 0 else '  '}{column}: ")
            line.append(value, style="bold" if number == 0 else "")
            console.print(line, overflow="fold")
    if caption:
        console.print()
        console.print(caption)


def setback_command() -> str:
    """How to run ``setback`` again, as this one was run: plain ``setback`` when that is the
    one on PATH, else the path it was started by (``.venv/bin/setback`` after the README's
    install), or ``python -m setback``."""
    started = sys.argv[0]
    if Path(started).name != "setback":  # python -m setback, or a test calling main()
        return f"{shlex.quote(sys.executable)} -m setback"
    on_path = shutil.which("setback")
    if on_path is not None and Path(on_path).resolve() == Path(started).resolve():
        return "setback"
    return shlex.quote(started)


def print_json(value: Any) -> None:
    """Print ``value`` as one line of JSON on stdout."""
    print(json.dumps(value, separators=(",", ":")))
