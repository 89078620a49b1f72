"""``setback serve``: the LAN game server."""

from __future__ import annotations

import argparse
import socket
from pathlib import Path

from setback import places
from setback.commands.common import AddCommand, CommandFailedError, port_number
from setback.protocol import DEFAULT_PORT
from setback.protocol.messages import DEFAULT_BOT_PACE, MAX_BOT_PACE


def cmd_serve(args: argparse.Namespace) -> int:
    from setback.server.app import run
    from setback.server.config import ServerConfig

    db = args.db or str(places.default_db_path())
    config = ServerConfig(
        db=None if db == ":memory:" else db,
        host=args.host, port=args.port, name=args.name, password=args.password,
        max_connections=args.max_connections, reconnect_grace=args.reconnect_grace,
        bot_table_pause=args.bot_table_pause, bot_table_pace=args.bot_table_pace, bot_pace=args.bot_pace,
        tls_cert=args.tls_cert, tls_key=args.tls_key,
    )
    if bool(args.tls_cert) != bool(args.tls_key):
        raise ValueError("--tls-cert and --tls-key go together")
    if args.max_connections < 1 or min(args.reconnect_grace, args.bot_table_pause, args.bot_table_pace) < 0:
        raise ValueError(
            "--max-connections is at least 1; --reconnect-grace, --bot-table-pause and --bot-table-pace at least 0"
        )
    if not 0 <= args.bot_pace <= MAX_BOT_PACE:
        raise ValueError(f"--bot-pace is 0 to {MAX_BOT_PACE:g} seconds")
    for pem in (args.tls_cert, args.tls_key):
        if pem and not Path(pem).is_file():
            raise ValueError(f"no file {pem}")
    try:
        run(config, advertise=not args.no_advertise)
    except socket.gaierror as exc:
        raise CommandFailedError(f"--host {args.host}: {exc.strerror}") from None
    return 0


def register(command: AddCommand) -> None:
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
    serve.add_argument(
        "--bot-pace", type=float, default=DEFAULT_BOT_PACE,
        help="seconds a bot waits before each move at a table where a person sits, unless the table says "
        f"(default {DEFAULT_BOT_PACE:g}; 0: no wait)",
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
