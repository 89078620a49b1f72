"""The ``setback`` command and its subcommands."""

from __future__ import annotations

import argparse
import json
import socket
import sqlite3
import sys
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import structlog
from rich.console import Console
from rich.table import Table

from setback import __version__, compiled, logs
from setback.engine import DEFAULT_HAND_LIMIT, TARGETS, Rules
from setback.protocol import DEFAULT_PORT


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
    """An argparse type: ``HOST[:PORT]`` (``[V6]:PORT`` for IPv6) with a port that is a port."""
    if text.startswith("["):
        rest = text.partition("]")[2]
        port = rest[1:] if rest.startswith(":") else None
    else:
        host, colon, port_text = text.rpartition(":")
        port = port_text if colon and host.count(":") == 0 else None  # a bare IPv6 address has no port
    if port is not None:
        port_number(port)
    return text


def explain(exc: BaseException) -> str:
    """One line for an error a command met: what happened, and what to try when we know."""
    import ssl

    if isinstance(exc, ConnectionRefusedError):
        return f"{exc.strerror or exc} (is a server running there?)"
    if isinstance(exc, ssl.SSLError):
        return f"TLS: {exc.reason or exc}"
    if isinstance(exc, sqlite3.DatabaseError):
        return f"the records file cannot be used: {exc} (is --db a server's SQLite file?)"
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.strerror}: {exc.filename}" if exc.filename is not None else exc.strerror
    return str(exc) or type(exc).__name__


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    """The table options of spec.md section 3 as command-line flags."""
    group = parser.add_argument_group("table rules (spec.md, section 3)")
    group.add_argument(
        "--players", type=int,
        help="players at the table, 2-7 (default: one per bot, or with --bots one more)",
    )
    group.add_argument("--teams", type=int, help="number of partnerships (default: cutthroat)")
    group.add_argument("--target", type=int, choices=TARGETS, default=11, help="points to win (default 11)")
    group.add_argument(
        "--no-forced-bid", action="store_true", help="the dealer may pass; all passing throws the hand in"
    )
    group.add_argument(
        "--smudge", action="store_true",
        help="a made bid of 4 wins at once; with two sides, a failed bid of 4 loses at once",
    )
    group.add_argument("--no-junk", action="store_true", help="only the pitcher's side scores")
    group.add_argument(
        "--hand-limit", type=int, default=DEFAULT_HAND_LIMIT,
        help="from this hand on, a side leading alone wins (default 100, which sensible play never reaches; 0: none)"
    )


def add_clock_argument(parser: argparse.ArgumentParser) -> None:
    """The per-decision limit that the offline runner holds every bot to."""
    parser.add_argument(
        "--decision-ms", type=milliseconds, default=1000.0,
        help="per-decision limit in ms; a bot over it is timed out and the lowest-code legal action "
        "is played for it (default 1000; 0: none)",
    )


def milliseconds(text: str) -> float:
    """An argparse type: a time limit in milliseconds, 0 (none) or more."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"milliseconds are a number, not {text!r}") from None
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"milliseconds are 0 (no limit) or more, not {text}")
    return value


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


def bot_players(args: argparse.Namespace) -> int:
    """The players of a match of ``args.bots`` when ``--players`` is not given: one a bot, or
    with ``--teams T`` and one bot a side, two a side."""
    bots = len(args.bots)
    return 2 * bots if args.teams and bots == args.teams else bots


def cmd_match(args: argparse.Namespace) -> int:
    from setback.bots.base import BotFailedError
    from setback.bots.cli import check_specs, run_match_command

    check_specs(args.bots, args.via_server)  # an unknown bot is news before a count that is off
    try:
        return run_match_command(args, rules_from(args, bot_players(args)))
    except BotFailedError as exc:
        raise CommandFailedError(str(exc)) from None


def cmd_watch(args: argparse.Namespace) -> int:
    from setback.bots.base import BotFailedError
    from setback.bots.cli import check_specs, run_watch_command

    check_specs(args.bots)
    try:
        return run_watch_command(args, rules_from(args, len(args.bots)))
    except BotFailedError as exc:
        raise CommandFailedError(str(exc)) from None


def cmd_new_bot(args: argparse.Namespace) -> int:
    from setback.bots.cli import run_new_bot_command

    return run_new_bot_command(args)


BENCHMARKS = ("engine", "server")


def cmd_bench(args: argparse.Namespace) -> int:
    import importlib

    if args.name is None:
        raise ValueError(f"name a benchmark: {' or '.join(BENCHMARKS)}")
    module = importlib.import_module(f"setback.benchmarks.{args.name}")
    module.main(args.rest)
    return 0


def cmd_bot(args: argparse.Namespace) -> int:
    import asyncio

    from setback.bots.registry import bot_factory
    from setback.bots.remote import Seating, SeatRefusedError, play_remote
    from setback.bots.seat import Clock
    from setback.client.link import Address, LinkClosedError, ServerLink, tls_context
    from setback.client.link import RefusedError as LinkRefusedError
    from setback.client.seat_tokens import SeatTokens, default_seat_tokens_path

    make = bot_factory(args.spec)
    tls = tls_context(args.tls_ca, verify=not args.insecure) if args.tls or args.tls_ca else None
    link = ServerLink(Address.parse(args.server), args.name or args.spec, kind="bot", password=args.password, tls=tls)
    if not args.create and (args.bots or args.clock is not None):
        raise ValueError("--bots and --clock are for a table the bot makes: add --create")
    creating = None
    if args.create:
        from setback.protocol.convert import rules_to_wire
        from setback.protocol.messages import Clock as TableClock
        from setback.protocol.messages import CreateTable

        rules = rules_from(args, max(2, len(args.bots) + 1))
        table_clock = TableClock() if args.clock is None else TableClock(decision_seconds=args.clock or None)
        creating = CreateTable(id="create", rules=rules_to_wire(rules), clock=table_clock, bots=args.bots)
    seating = Seating(args.table or "", args.seat, args.invite, creating)
    limit = args.decision_ms / 1000 if args.decision_ms else None
    clock = Clock()
    try:
        tokens = SeatTokens(default_seat_tokens_path())  # a restarted bot sits down again where it was
        played = asyncio.run(play_remote(link, make(args.seed), seating, args.games, limit, clock=clock, tokens=tokens))
    except SeatRefusedError as exc:
        raise CommandFailedError(f"the server refused the seat: {exc}") from None
    except LinkRefusedError as exc:
        raise CommandFailedError(f"the server refused the hello: {exc}") from None
    except LinkClosedError as exc:
        hint = "" if tls or exc.goodbye else " (if it serves TLS, add --tls)"
        raise CommandFailedError(f"{args.server}: {exc.reason}{hint}") from None
    log = structlog.get_logger("setback.bot")
    log.info(
        "done", games=played, decisions=clock.decisions, timeouts=clock.timeouts, errors=clock.errors,
        ms_per_decision=None if clock.ms_per_decision is None else round(clock.ms_per_decision, 2),
    )
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    import logging

    from setback.client.play import players_default, run_play_command

    logs.configure(json=args.log_json, level=logging.WARNING)
    return run_play_command(args, rules_from(args, players_default(args)))


def cmd_serve(args: argparse.Namespace) -> int:
    from setback.server.app import run
    from setback.server.config import ServerConfig
    from setback.server.store import default_db_path

    db = args.db or str(default_db_path())
    config = ServerConfig(
        db=None if db == ":memory:" else db,
        host=args.host, port=args.port, name=args.name, password=args.password,
        max_connections=args.max_connections, reconnect_grace=args.reconnect_grace,
        bot_table_pause=args.bot_table_pause, bot_table_pace=args.bot_table_pace,
        tls_cert=args.tls_cert, tls_key=args.tls_key,
    )
    if bool(args.tls_cert) != bool(args.tls_key):
        raise ValueError("--tls-cert and --tls-key go together")
    if args.max_connections < 1 or min(args.reconnect_grace, args.bot_table_pause, args.bot_table_pace) < 0:
        raise ValueError(
            "--max-connections is at least 1; --reconnect-grace, --bot-table-pause and --bot-table-pace at least 0"
        )
    for pem in (args.tls_cert, args.tls_key):
        if pem and not Path(pem).is_file():
            raise ValueError(f"no file {pem}")
    try:
        run(config, advertise=not args.no_advertise)
    except socket.gaierror as exc:
        raise CommandFailedError(f"--host {args.host}: {exc.strerror}") from None
    return 0


def _store(args: argparse.Namespace) -> Any:
    from setback.server.store import Store, default_db_path

    path = args.db or str(default_db_path())
    if not Path(path).exists():
        raise ValueError(f"no records at {path} (give the server's --db)")
    return Store(path)


def cmd_history(args: argparse.Namespace) -> int:
    from setback.server.history import history_rows

    rows = history_rows(_store(args), args.limit)
    if args.json:
        print_json(rows)
        return 0
    if not rows:
        print("no finished games recorded yet")
        return 0
    table = Table(title="finished games, newest first", caption="*: a stand-in bot played some of their decisions")
    for column in ("game", "table", "players", "rules", "scores", "won", "finished (UTC)"):
        table.add_column(column, no_wrap=column.startswith("finished"))  # wraps between words
    for row in rows:
        rules = row["rules"]
        teams = f", {rules['teams']} teams" if rules["teams"] else ""
        reason = str(row["reason"]).replace("_", " ")
        players = ", ".join(f"{name}*" if name in row["stood_in"] else name for name in row["players"])
        table.add_row(
            str(row["game_id"]), row["table"], players,
            f"{rules['players']}p to {rules['target']}{teams}",
            " / ".join(str(s) for s in row["scores"] or []), f"{', '.join(row['winners'])} ({reason})",
            (row["finished"] or "")[:16].replace("T", " "),
        )
    Console().print(table)
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from setback.server.history import record_lines, replay_lines

    if args.file is not None:  # a record file (match --out, export): its game GAME_ID
        for line in record_lines(Path(args.file), args.game_id):
            print(line)
        return 0
    row = _store(args).game(args.game_id)
    if row is None:
        raise ValueError(f"no game {args.game_id}")
    for line in replay_lines(row):
        print(line)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from setback.server.history import export_record

    store = _store(args)
    if args.all:
        rows = list(reversed(store.finished_games()))
        if args.game_id is not None:
            raise ValueError("name a GAME_ID or --all, not both")
    elif args.game_id is not None:
        row = store.game(args.game_id)
        if row is None:
            raise ValueError(f"no game {args.game_id}")
        rows = [row]
    else:
        raise ValueError("name a GAME_ID or --all")
    with open(args.out, "w", encoding="utf-8") if args.out else nullcontext(sys.stdout) as out:
        for row in rows:
            out.write(json.dumps(export_record(row)) + "\n")
    return 0


def cmd_leaderboard(args: argparse.Namespace) -> int:
    from setback.server.history import leaderboard_rows

    rows = leaderboard_rows(_store(args))
    if args.json:
        print_json(rows)
        return 0
    table = Table(title="ratings from rated tables (Elo)")
    for column in ("#", "player", "rating", "games", "wins"):
        table.add_column(column, justify="left" if column == "player" else "right")
    for rank, row in enumerate(rows, 1):
        table.add_row(str(rank), row["player"], f"{row['rating']:.1f}", str(row["games"]), str(row["wins"]))
    Console().print(table)
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    from setback.protocol.schema import schema_text

    print(schema_text(), end="")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="setback", description="Auction Pitch (Setback): play, serve, write bots, run matches."
    )
    parser.add_argument("--version", action="version", version=f"setback {__version__} (hot path {compiled.STATUS})")
    parser.add_argument("--log-json", action="store_true", help="write logs as JSON lines on stderr")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, run: Callable[[argparse.Namespace], int], help_: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help_, description=help_)
        sub.set_defaults(run=run)
        return sub

    match = command("match", cmd_match, "play seeded bot-vs-bot games and print the result table")
    match.add_argument(
        "bots", nargs="+", metavar="BOT", help="bot SPECs: one a seat, or one a side with --teams"
    )
    match.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    match.add_argument("--seed", type=int, default=0, help="match seed (default 0)")
    match.add_argument(
        "--duplicate", action="store_true", help="replay every deal once per rotation of the bots' seats"
    )
    match.add_argument("--jobs", type=int, default=1, help="processes to play games on (default 1)")
    match.add_argument(
        "--via-server", action="store_true",
        help="play through a real server over TCP (needed by cmd:PROGRAM bots; --jobs tables at a time)",
    )
    match.add_argument("--out", metavar="FILE.jsonl", help="write one JSON record per game")
    match.add_argument(
        "--resume", action="store_true", help="keep the games already in --out and play only the rest"
    )
    match.add_argument("--json", action="store_true", help="print the result as JSON")
    add_clock_argument(match)
    add_rules_arguments(match)

    watch = command("watch", cmd_watch, "play one game between bots and tell it hand by hand")
    watch.add_argument("bots", nargs="*", default=["heuristic"] * 4, metavar="BOT", help="bot SPECs, one a seat")
    watch.add_argument("--seed", type=int, help="game seed (default: a new one each time, told first)")
    watch.add_argument("--json", action="store_true", help="print the game's record as JSON")
    add_clock_argument(watch)
    add_rules_arguments(watch)

    bot = command("bot", cmd_bot, "play a bot at a table of a running server")
    bot.add_argument("spec", metavar="BOT", help="random, heuristic, search, path/to/file.py:Class or module:Class")
    bot.add_argument(
        "--server", type=server_address, default=f"127.0.0.1:{DEFAULT_PORT}",
        help="HOST[:PORT] (default: this computer)",
    )
    where = bot.add_mutually_exclusive_group(required=True)
    where.add_argument("--table", help="the table to join (setback's lobby lists them)")
    where.add_argument(
        "--create", action="store_true",
        help="make a table (the rules flags below; --bots, --clock) and sit at it; its id is logged",
    )
    bot.add_argument(
        "--bots", type=lambda text: [b for b in text.split(",") if b], default=[], metavar="NAME,...",
        help="with --create: built-in bots for the other seats (e.g. heuristic,heuristic,heuristic)",
    )
    bot.add_argument(
        "--clock", type=float, default=None, metavar="SECONDS",
        help="with --create: the table's seconds a decision (default 60; 0: no clock)",
    )
    bot.add_argument("--seat", type=int, help="the seat to take (default: the lowest free one)")
    bot.add_argument("--invite", help="a private table's invite code")
    bot.add_argument("--name", help="the name to play under (default: the SPEC)")
    bot.add_argument("--games", type=int, help="stop after this many games (default: play until stopped)")
    bot.add_argument("--seed", type=int, default=0, help="the bot's own seed (default 0)")
    bot.add_argument("--decision-ms", type=int, default=0, help="cap on the bot's time per decision (0: the clock's)")
    bot.add_argument("--password", help="the server's password")
    bot.add_argument("--tls", action="store_true", help="the server speaks TLS (verified against the system's CAs)")
    bot.add_argument("--tls-ca", metavar="PEM", help="verify the server against this CA or certificate")
    bot.add_argument("--insecure", action="store_true", help="with --tls: encrypt but accept any certificate")
    add_rules_arguments(bot)

    play = command("play", cmd_play, "play at a server, or against bots at once (--bots 3)")
    from setback.client.play import add_play_arguments

    add_play_arguments(play)
    add_rules_arguments(play)

    serve = command("serve", cmd_serve, "run the LAN game server")
    serve.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all)")
    serve.add_argument(
        "--port", type=port_number, default=DEFAULT_PORT, help=f"TCP port (default {DEFAULT_PORT}; 0: any free one)"
    )
    serve.add_argument("--name", default="setback", help="the server's name, shown to clients")
    serve.add_argument("--password", help="clients must give this password in their hello")
    serve.add_argument("--max-connections", type=int, default=4096, help="connections held at most")
    serve.add_argument("--reconnect-grace", type=float, default=120.0, help="seconds a dropped seat is kept")
    serve.add_argument(
        "--bot-table-pause", type=float, default=5.0,
        help="seconds between games at a watched table of built-in bots only (default 5)",
    )
    serve.add_argument(
        "--bot-table-pace", type=float, default=1.0,
        help="seconds between moves at a watched table of built-in bots only (default 1; 0: no wait)",
    )
    serve.add_argument("--tls-cert", metavar="PEM", help="certificate chain: serve TLS only (with --tls-key)")
    serve.add_argument("--tls-key", metavar="PEM", help="the certificate's private key")
    serve.add_argument(
        "--db", metavar="PATH", help="SQLite file for tables, games and ratings (default: in your data folder; "
        ":memory: keeps nothing)"
    )
    serve.add_argument(
        "--no-advertise", action="store_true", help="do not announce the server on the LAN (mDNS/DNS-SD)"
    )

    command("schema", cmd_schema, "print the JSON Schema of every protocol message")

    def with_db(sub: argparse.ArgumentParser) -> argparse.ArgumentParser:
        sub.add_argument("--db", metavar="PATH", help="the server's SQLite file (default: in your data folder)")
        return sub

    history = with_db(command("history", cmd_history, "list the finished games a server recorded"))
    history.add_argument("--limit", type=whole_number("a count", 1), default=50, help="newest N games (default 50)")
    history.add_argument("--json", action="store_true", help="print them as JSON")
    replay = with_db(command("replay", cmd_replay, "tell a recorded game hand by hand"))
    replay.add_argument("game_id", type=int, metavar="GAME_ID")
    replay.add_argument(
        "--file", metavar="FILE.jsonl",
        help="a file of game records (match --out, export) instead of the server's: GAME_ID is the match's "
        "game number (from 0), or an export's game id",
    )
    export = with_db(command("export", cmd_export, "write recorded games as JSONL records (as match --out)"))
    export.add_argument("game_id", type=int, nargs="?", metavar="GAME_ID")
    export.add_argument("--all", action="store_true", help="every finished game, oldest first")
    export.add_argument("--out", metavar="FILE.jsonl", help="write here instead of stdout")
    leaderboard = with_db(command("leaderboard", cmd_leaderboard, "ratings and win/loss from rated tables"))
    leaderboard.add_argument("--json", action="store_true", help="print it as JSON")

    new_bot = command("new-bot", cmd_new_bot, "write NAME.py, a commented bot to start from")
    new_bot.add_argument("name", metavar="NAME", help="the bot's file and class name (a Python identifier)")
    new_bot.add_argument("--dir", default=".", help="where to write it (default: here)")

    bench = command("bench", cmd_bench, "run a benchmark against its baseline (engine, server)")
    bench.add_argument("name", nargs="?", choices=BENCHMARKS, metavar="BENCHMARK", help=" or ".join(BENCHMARKS))
    bench.add_argument(
        "rest", nargs=argparse.REMAINDER, metavar="...", help="the benchmark's options: setback bench BENCHMARK --help"
    )
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


def print_json(value: Any) -> None:
    """Print ``value`` as one line of JSON on stdout."""
    print(json.dumps(value, separators=(",", ":")))
