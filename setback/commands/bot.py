"""``setback bot``: a bot at a table of a running server."""

from __future__ import annotations

import argparse

import structlog

from setback import places
from setback.commands.common import (
    AddCommand,
    CommandFailedError,
    add_rules_arguments,
    decision_seconds,
    rules_from,
    server_address,
)
from setback.protocol import DEFAULT_PORT


def cmd_bot(args: argparse.Namespace) -> int:
    import asyncio

    from setback.bots.registry import bot_factory, bot_name
    from setback.bots.remote import Seating, SeatRefusedError, play_remote
    from setback.bots.seat import DecisionStats
    from setback.link.seat_tokens import SeatTokens
    from setback.link.server_link import Address, LinkClosedError, ServerLink, tls_context
    from setback.link.server_link import RefusedError as LinkRefusedError

    make = bot_factory(args.spec)
    tls = tls_context(args.tls_ca, verify=not args.insecure) if args.tls or args.tls_ca else None
    name = args.name or bot_name(args.spec)[:40]  # a file's path would be too long a name for a hello
    link = ServerLink(Address.parse(args.server), name, kind="bot", password=args.password, tls=tls)
    if not args.create and (args.bots or args.clock is not None):
        raise ValueError("--bots and --clock are for a table the bot makes: add --create")
    creating = None
    if args.create:
        from setback.protocol.convert import rules_to_wire
        from setback.protocol.messages import Clock, CreateTable

        rules = rules_from(args, max(2, len(args.bots) + 1))
        clock = Clock() if args.clock is None else Clock(decision_seconds=args.clock or None)
        creating = CreateTable(id="create", rules=rules_to_wire(rules), clock=clock, bots=args.bots)
    seating = Seating(args.table or "", args.seat, args.invite, creating)
    deciding = DecisionStats()
    try:
        tokens = SeatTokens(places.default_seat_tokens_path())  # a restarted bot sits down again where it was
        played = asyncio.run(play_remote(link, make(args.seed), seating, args.games, args.decision_seconds,
                                         deciding=deciding, tokens=tokens))
    except SeatRefusedError as exc:
        raise CommandFailedError(f"the server refused the seat: {exc}") from None
    except LinkRefusedError as exc:
        raise CommandFailedError(f"the server refused the hello: {exc}") from None
    except LinkClosedError as exc:
        hint = "" if tls or exc.goodbye else " (if it serves TLS, add --tls)"
        raise CommandFailedError(f"{args.server}: {exc.reason}{hint}") from None
    log = structlog.get_logger("setback.bot")
    log.info(
        "done", games=played, decisions=deciding.decisions, timeouts=deciding.timeouts, errors=deciding.errors,
        seconds_per_decision=None if (took := deciding.seconds_per_decision) is None else round(took, 5),
    )
    return 0


def register(command: AddCommand) -> None:
    bot = command("bot", cmd_bot, "play a bot at a table of a running server")
    bot.add_argument(
        "spec", metavar="BOT", help="random, beginner, heuristic, search, path/to/file.py:Class or module:Class",
    )
    bot.add_argument(
        "--server", type=server_address, default=f"127.0.0.1:{DEFAULT_PORT}",
        help="HOST[:PORT] (default: this computer)",
    )
    where = bot.add_mutually_exclusive_group(required=True)
    where.add_argument("--table", help="the table to join (setback's lobby lists them)")
    where.add_argument(
        "--create", action="store_true",
        help="make a new table (the rules flags below; --bots, --clock) and sit at it, never going back to a seat "
        "kept for this bot; its id, and what it waits for, are logged",
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
    bot.add_argument(
        "--decision-ms", type=decision_seconds, default=None, dest="decision_seconds", metavar="MS",
        help="cap on the bot's time per decision in ms (default 0: the table's clock's)",
    )
    bot.add_argument("--password", help="the server's password")
    bot.add_argument("--tls", action="store_true", help="the server speaks TLS (verified against the system's CAs)")
    bot.add_argument("--tls-ca", metavar="PEM", help="verify the server against this CA or certificate")
    bot.add_argument("--insecure", action="store_true", help="with --tls: encrypt but accept any certificate")
    add_rules_arguments(bot)
