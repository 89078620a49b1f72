"""``setback play``: from the command line's flags to a running text client (or a browser).

With a HOST it connects there; with ``--bots N`` and no host it starts an embedded server
on 127.0.0.1 (a free port), creates a table with N built-in bots and seats the player;
with neither it looks for servers on the LAN. ``--web`` plays that ``--bots`` game in the
player's browser instead of the terminal.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import getpass
import json
import os
import ssl
import sys
import urllib.parse

import msgspec

from setback import logs, places
from setback.bots.levels import DEFAULT_LEVEL, LEVELS
from setback.client.options import PlayOptions
from setback.client.state import QuickGame
from setback.commands.common import (
    AddCommand,
    CommandFailedError,
    add_rules_arguments,
    explain,
    rules_from,
    server_address,
    whole_number,
)
from setback.engine import MAX_PLAYERS, Rules
from setback.link.server_link import Address, tls_context
from setback.protocol.convert import rules_to_wire
from setback.protocol.messages import DEFAULT_BOT_PACE, MAX_BOT_PACE, Clock


def default_name() -> str:
    """The login name, as a first guess at what to be called."""
    try:
        name = getpass.getuser()
    except (OSError, KeyError):
        name = ""
    return (name or "player")[:40]


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "host", nargs="?", type=server_address, metavar="HOST[:PORT]", help="the server (default: look on the LAN)"
    )
    parser.add_argument("--name", default=None, help="your name at the table (default: your login name)")
    parser.add_argument("--password", help="the server's password, if it has one")
    parser.add_argument(
        "--bots", type=whole_number("N", 1, MAX_PLAYERS - 1), default=0, metavar="N",
        help="start a game against N built-in bots at once (on a server of your own unless HOST is given)",
    )
    parser.add_argument(
        "--level", type=levels_named, metavar="LEVEL[,LEVEL...]",
        help=f"how well the --bots table's bots play: {', '.join(LEVELS)} (default: {DEFAULT_LEVEL}); one for "
        "every bot, or one a bot seat in seat order (beginner,strong,strong)",
    )
    parser.add_argument(
        "--clock", type=float, default=0, metavar="SECONDS",
        help="seconds for each decision at the table --bots creates, and the new-table default (0: no clock)",
    )
    parser.add_argument(
        "--bot-pace", type=float, metavar="SECONDS",
        help=f"seconds the --bots table's bots wait before each move, so you see every card land (default: the "
        f"server's, {DEFAULT_BOT_PACE:g}; 0: no wait)",
    )
    parser.add_argument(
        "--seed", type=int,
        help="deal the --bots game from this seed (a seeded table; not with --web: the browser table's link chooses "
        "no seed, its New table dialog takes one)",
    )
    parser.add_argument("--table-name", help="the name of the table --bots creates")
    parser.add_argument("--ascii", action="store_true", help="suit letters (10H) instead of symbols (10♥)")
    parser.add_argument("--no-color", action="store_true", help="no colours (as with NO_COLOR=1)")
    parser.add_argument("--tls", action="store_true", help="the server speaks TLS (checked against the system's CAs)")
    parser.add_argument("--tls-ca", metavar="PEM", help="check the server's certificate against this CA or certificate")
    parser.add_argument("--insecure", action="store_true", help="with --tls: encrypt but accept any certificate")
    parser.add_argument(
        "--web", action="store_true",
        help="with --bots: play in your browser (the page of an embedded server) instead of the terminal",
    )
    parser.add_argument(
        "--db", metavar="PATH",
        help="with --bots: the embedded server's SQLite file (default: in your data folder, as for "
        "setback serve, so setback history lists your games; :memory: keeps nothing)",
    )


def levels_named(text: str) -> tuple[str, ...]:
    """``--level``'s levels, one or one a bot; ArgumentTypeError naming the levels otherwise."""
    named = tuple(word.strip() for word in text.split(","))
    unknown = [word for word in named if word not in LEVELS]
    if unknown:
        raise argparse.ArgumentTypeError(f"no level {unknown[0]!r}: choose from {', '.join(LEVELS)}")
    return named


def play_options(args: argparse.Namespace, rules: Rules) -> PlayOptions:
    """The client's options from the flags; ValueError saying what does not fit."""
    name = (args.name or default_name()).strip()
    if not name or len(name) > 40 or not name.isprintable():
        raise ValueError("--name is 1 to 40 printable characters")
    if args.bots and not 1 <= args.bots < rules.players:
        raise ValueError(f"--bots is 1 to {rules.players - 1} at a table of {rules.players} players")
    if args.level is not None and not args.bots:
        raise ValueError("--level is for the table --bots creates: add --bots N")
    if args.level is not None and len(args.level) not in {1, args.bots}:
        raise ValueError(f"--level names one level, or one for each of the {args.bots} bots")
    if args.clock < 0 or args.clock > 3600:
        raise ValueError("--clock is 0 (none) to 3600 seconds")
    clock = args.clock or None
    if args.bot_pace is not None and not 0 <= args.bot_pace <= MAX_BOT_PACE:
        raise ValueError(f"--bot-pace is 0 to {MAX_BOT_PACE:g} seconds")
    wire = rules_to_wire(rules)
    plan = None
    if args.bots:
        plan = QuickGame(
            rules=wire, bots=args.bots, clock=Clock(decision_seconds=clock), seed=args.seed,
            name=args.table_name or f"{name}'s table", bot_pace=args.bot_pace,
            bot=args.level[0] if args.level else None, levels=args.level if len(args.level or ()) > 1 else (),
        )
    address = Address.parse(args.host) if args.host else None
    if args.db is not None and (address is not None or not args.bots):
        raise ValueError("--db is for the embedded server: use it with --bots and no HOST")
    if args.web and (address is not None or not args.bots):
        raise ValueError("--web plays a game on this computer: use it with --bots and no HOST")
    if args.web and args.seed is not None:
        raise ValueError(
            "--seed is not for --web: a link to the browser table may choose the rules, never the seed (whoever "
            "had the link would know the deals); the page's New table dialog takes a seed"
        )
    tls = tls_context(args.tls_ca, verify=not args.insecure) if args.tls or args.tls_ca else None
    if tls is not None and address is None:
        raise ValueError("--tls is for a server that speaks it: name the HOST")
    embedded = address is None and plan is not None  # its server ends with the client: no seat outlives it
    return PlayOptions(
        name=name, address=address, password=args.password, plan=plan, rules=wire, clock=clock, ascii=args.ascii,
        tls=tls, seat_tokens=None if embedded else places.default_seat_tokens_path(),
    )


def players_default(args: argparse.Namespace) -> int:
    """Players at a ``--bots`` table: one more than the bots (four otherwise)."""
    return min(MAX_PLAYERS, args.bots + 1) if args.bots else 4


async def play(options: PlayOptions, embedded: bool, db: str | None = None) -> None:
    """Run the client (with its own server when ``embedded``) until the player quits."""
    from setback.client.app import SetbackApp
    from setback.commands.embedded import start_embedded

    server = await start_embedded(db) if embedded else None
    if server is not None:
        options = dataclasses.replace(options, address=Address("127.0.0.1", server.port), embedded=True)
    try:
        await SetbackApp(options).run_async()
    finally:
        if server is not None:
            await server.stop()


def quick_game_url(page: str, name: str, plan: QuickGame) -> str:
    """The address of the browser table that creates ``plan``'s table for ``name`` on arrival
    (the page reads the fragment, which never reaches the server, and then forgets it). A
    link never carries a seed: the page would not take it (whoever wrote one would know the
    deals of the table a guest makes with it)."""
    wanted = {"name": name, "bots": str(plan.bots), "rules": json.dumps(msgspec.to_builtins(plan.rules))}
    if plan.clock.decision_seconds is not None:
        wanted["clock"] = f"{plan.clock.decision_seconds:g}"
    if plan.name:
        wanted["table"] = plan.name
    if plan.bot:
        wanted["level"] = ",".join(plan.levels or (plan.bot,))
    return f"{page}#{urllib.parse.urlencode(wanted, quote_via=urllib.parse.quote)}"


def can_open_browser() -> bool:
    """Whether this session has a browser to open: one named in ``$BROWSER``, a desktop's own
    (macOS, Windows), or a display for one (a text browser in this terminal would take it over)."""
    return bool(os.environ.get("BROWSER")) or sys.platform in {"darwin", "win32"} or bool(
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


async def play_in_browser(options: PlayOptions, db: str | None) -> None:
    """An embedded server with its browser table; the player's browser opened at the table
    (the address printed in any case). Runs until interrupted (Ctrl-C)."""
    import webbrowser

    from setback.commands.embedded import start_embedded
    from setback.web import WebListener, page_urls

    assert options.plan is not None
    server = await start_embedded(db)
    try:
        web = await WebListener.start(server, "127.0.0.1", 0)
        url = quick_game_url(page_urls("127.0.0.1", web.port, tls=False)[0], options.name, options.plan)
        print(f"Your table is at {url}", flush=True)
        opened = can_open_browser() and await asyncio.to_thread(webbrowser.open, url)
        print("It is open in your browser." if opened else "Open that address in a browser on this computer.")
        print("Ctrl-C stops the server, and the game.", flush=True)
        await server.run_until_stopped()
    finally:
        await server.stop()


REACH_SECONDS = 5.0
"""How long ``setback play HOST`` waits for the server to take its first connection."""


async def check_reachable(address: Address, tls: ssl.SSLContext | None) -> None:
    """CommandFailedError unless something at ``address`` takes a connection (and, with
    ``tls``, a TLS handshake) within :data:`REACH_SECONDS`."""
    try:
        async with asyncio.timeout(REACH_SECONDS):
            _, writer = await asyncio.open_connection(address.host, address.port, ssl=tls)
    except TimeoutError:
        raise CommandFailedError(f"{address}: no answer in {REACH_SECONDS:g} s") from None
    except OSError as exc:
        raise CommandFailedError(f"{address}: {explain(exc)}") from None
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()


def run_play_command(args: argparse.Namespace, rules: Rules) -> int:
    options = play_options(args, rules)
    if args.no_color:
        os.environ["NO_COLOR"] = "1"
    embedded = options.address is None and options.plan is not None
    if options.address is not None:  # a server that is not there is news now, not a lobby that says offline
        asyncio.run(check_reachable(options.address, options.tls))
    db = args.db or str(places.default_db_path())
    if args.web:
        asyncio.run(play_in_browser(options, None if db == ":memory:" else db))
        return 0
    asyncio.run(play(options, embedded, None if db == ":memory:" else db))
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    import logging

    logs.configure(json=args.log_json, level=logging.WARNING)
    return run_play_command(args, rules_from(args, players_default(args)))


def register(command: AddCommand) -> None:
    play = command("play", cmd_play, "play at a server, or against bots at once (--bots 3)")
    add_play_arguments(play)
    add_rules_arguments(play)
