"""The ``setback`` command: its subcommands come from the groups of :mod:`setback.commands`."""

from __future__ import annotations

import argparse
import sqlite3
import sys
from collections.abc import Callable, Sequence

from setback import __version__, compiled, logs
from setback.commands import about, bot, check_bot, matches, play, records, serve, tools, tournaments
from setback.commands.common import CommandFailedError, Parser, explain

GROUPS = (matches, tournaments, bot, check_bot, play, serve, records, tools)
"""The groups of subcommands, in the order ``setback --help`` lists them."""


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="setback",
        description="Auction Pitch (Setback): play, serve, write bots, run matches and tournaments, "
        "make samples to learn from.",
        epilog=about.text(about.SETBACK), formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"setback {__version__} (hot path {compiled.STATUS})")
    parser.add_argument("--log-json", action="store_true", help="write logs as JSON lines on stderr")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, run: Callable[[argparse.Namespace], int], help_: str) -> argparse.ArgumentParser:
        more = about.COMMANDS.get(name)
        sub = commands.add_parser(
            name, help=help_, description=help_, epilog=about.text(more) if more else None,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        sub.set_defaults(run=run)
        return sub

    for group in GROUPS:
        group.register(command)
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    logs.configure(json=args.log_json)
    try:
        code = args.run(args)
    except BrokenPipeError:
        sys.stderr.close()
        code = 0
    except ValueError as exc:  # the command was asked for something it cannot be
        print(f"setback {args.command}: {exc}", file=sys.stderr)
        code = 2
    except (CommandFailedError, OSError, sqlite3.Error) as exc:  # the world was not as the command needed
        print(f"setback {args.command}: {explain(exc)}", file=sys.stderr)
        code = 1
    except KeyboardInterrupt:
        code = 130
    sys.exit(code)
