"""The ``setback`` command and its subcommands."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from setback import __version__, logs
from setback.engine import TARGETS, Rules
from setback.protocol import DEFAULT_PORT


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    """The table options of RULES.md as command-line flags."""
    group = parser.add_argument_group("table rules (RULES.md)")
    group.add_argument("--players", type=int, help="players at the table, 2-7 (default: one per bot)")
    group.add_argument("--teams", type=int, help="number of partnerships (default: cutthroat)")
    group.add_argument("--target", type=int, choices=TARGETS, default=11, help="points to win (default 11)")
    group.add_argument(
        "--no-forced-bid", action="store_true", help="the dealer may pass; all passing throws the hand in"
    )
    group.add_argument("--smudge", action="store_true", help="a made bid of 4 wins at once")
    group.add_argument("--no-junk", action="store_true", help="only the pitcher's side scores")
    group.add_argument(
        "--hand-limit", type=int, default=100, help="hands after which the highest score wins (0: none)"
    )


def rules_from(args: argparse.Namespace, players: int) -> Rules:
    """The :class:`Rules` the flags of :func:`add_rules_arguments` ask for."""
    return Rules(
        players=args.players or players,
        teams=args.teams,
        target=args.target,
        forced_dealer_bid=not args.no_forced_bid,
        smudge=args.smudge,
        no_junk=args.no_junk,
        hand_limit=args.hand_limit or None,
    )


def cmd_match(args: argparse.Namespace) -> int:
    from setback.bots.cli import run_match_command

    return run_match_command(args, rules_from(args, len(args.bots)))


def cmd_watch(args: argparse.Namespace) -> int:
    from setback.bots.cli import run_watch_command

    return run_watch_command(args, rules_from(args, len(args.bots)))


def cmd_bench(args: argparse.Namespace) -> int:
    import importlib

    module = importlib.import_module(f"setback.benchmarks.{args.name}")
    module.main(args.rest)
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    import logging

    from setback.client.play import players_default, run_play_command

    logs.configure(json=args.log_json, level=logging.WARNING)
    return run_play_command(args, rules_from(args, players_default(args)))


def cmd_serve(args: argparse.Namespace) -> int:
    from setback.server.app import run
    from setback.server.config import ServerConfig

    config = ServerConfig(
        host=args.host, port=args.port, name=args.name, password=args.password,
        max_connections=args.max_connections, reconnect_grace=args.reconnect_grace,
    )
    run(config, advertise=not args.no_advertise)
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    from setback.protocol.schema import schema_text

    print(schema_text(), end="")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="setback", description="Auction Pitch (Setback): play, serve, write bots, run matches."
    )
    parser.add_argument("--version", action="version", version=f"setback {__version__}")
    parser.add_argument("--log-json", action="store_true", help="write logs as JSON lines on stderr")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, run: Callable[[argparse.Namespace], int], help_: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help_, description=help_)
        sub.set_defaults(run=run)
        return sub

    match = command("match", cmd_match, "play seeded bot-vs-bot games and print the result table")
    match.add_argument("bots", nargs="+", metavar="BOT", help="bot SPECs, one a seat (e.g. random)")
    match.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    match.add_argument("--seed", type=int, default=0, help="match seed (default 0)")
    match.add_argument("--out", metavar="FILE.jsonl", help="write one JSON record per game")
    match.add_argument("--json", action="store_true", help="print the result as JSON")
    add_rules_arguments(match)

    watch = command("watch", cmd_watch, "play one game between bots and tell it hand by hand")
    watch.add_argument("bots", nargs="*", default=["random"] * 4, metavar="BOT", help="bot SPECs, one a seat")
    watch.add_argument("--seed", type=int, default=0, help="game seed (default 0)")
    watch.add_argument("--json", action="store_true", help="print the game's record as JSON")
    add_rules_arguments(watch)

    play = command("play", cmd_play, "play at a server, or against bots at once (--bots 3)")
    from setback.client.play import add_play_arguments

    add_play_arguments(play)
    add_rules_arguments(play)

    serve = command("serve", cmd_serve, "run the LAN game server")
    serve.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all)")
    serve.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"TCP port (default {DEFAULT_PORT})")
    serve.add_argument("--name", default="setback", help="the server's name, shown to clients")
    serve.add_argument("--password", help="clients must give this password in their hello")
    serve.add_argument("--max-connections", type=int, default=4096, help="connections held at most")
    serve.add_argument("--reconnect-grace", type=float, default=120.0, help="seconds a dropped seat is kept")
    serve.add_argument("--db", metavar="PATH", help="SQLite file for tables and records (not yet used)")
    serve.add_argument(
        "--no-advertise", action="store_true", help="do not announce the server on the LAN (mDNS/DNS-SD)"
    )

    command("schema", cmd_schema, "print the JSON Schema of every protocol message")

    bench = command("bench", cmd_bench, "run a benchmark against its baseline (engine)")
    bench.add_argument("name", choices=["engine"], help="which benchmark")
    bench.add_argument("rest", nargs=argparse.REMAINDER, help="the benchmark's options (--seconds, --json)")
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
    except ValueError as exc:
        print(f"setback {args.command}: {exc}", file=sys.stderr)
        code = 2
    except KeyboardInterrupt:
        code = 130
    sys.exit(code)


def print_json(value: Any) -> None:
    """Print ``value`` as one line of JSON on stdout."""
    print(json.dumps(value, separators=(",", ":")))
