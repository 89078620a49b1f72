"""``setback serve``: the LAN game server, with the browser table beside it."""

from __future__ import annotations

import argparse
import asyncio
import socket
import sys
from collections.abc import Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import structlog

from setback import places
from setback.commands.common import AddCommand, CommandFailedError, port_number
from setback.protocol import DEFAULT_PORT, DEFAULT_WEB_PORT
from setback.protocol.messages import DEFAULT_BOT_PACE, MAX_BOT_PACE

if TYPE_CHECKING:  # the server and the web table are imported when they are started
    from setback.server.app import Server
    from setback.server.config import ServerConfig
    from setback.web import WebListener

log = structlog.get_logger("setback.serve")


def run_loop(main: Coroutine[Any, Any, None]) -> None:
    """Run ``main`` with uvloop when it is installed, else the standard event loop."""
    try:
        import uvloop
    except ImportError:
        asyncio.run(main)
    else:
        uvloop.run(main)


def print_invitation(urls: list[str], qr: bool, out: TextIO) -> None:
    """Where guests find the browser table: its address (and, with ``qr``, a QR code of it
    for a phone's camera), on ``out``."""
    print(f"The browser table: {urls[0]}", file=out)
    for other in urls[1:]:
        print(f"             also: {other}", file=out)
    if qr:
        import segno

        segno.make(urls[0], error="m").terminal(out=out, compact=True)
        print("Guests: point a phone's camera at the code, or open the address in a browser.", file=out)
    out.flush()


async def start_web(server: Server, host: str, port: int, qr: bool, out: TextIO) -> WebListener:
    """The browser table for ``server``, its address printed and logged."""
    from setback.web import WebListener, page_urls

    try:
        web = await WebListener.start(server, host, port)
    except OSError:
        await server.stop("the browser table could not listen")
        raise
    urls = page_urls(host, web.port, web.site.tls)
    log.info("web_page", urls=urls)
    print_invitation(urls, qr, out)
    return web


async def serve(config: ServerConfig, web_port: int | None, qr: bool, advertise: bool) -> None:
    """Serve until stopped: the TCP listener, the browser table on ``web_port`` (None: none),
    and, with ``advertise``, the announcement on the LAN over mDNS."""
    from setback.server.app import Server, tune_gc
    from setback.server.files import fit_open_files
    from setback.server.memory import tune_malloc

    server = Server(fit_open_files(config))
    await server.start()
    web = await start_web(server, config.host, web_port, qr, sys.stdout) if web_port is not None else None
    tune_gc()
    tune_malloc()
    advertisement = None
    if advertise:
        from setback.server.advertise import AdvertiseError, Advertisement

        try:
            advertisement = await Advertisement.start(
                config.name, config.host, server.port, web_port=web.port if web else None,
                web_tls=config.tls_cert is not None,
            )
        except AdvertiseError as exc:
            log.warning("not_advertised", error=str(exc))
    try:
        await server.run_until_stopped()
    finally:
        if advertisement is not None:
            await advertisement.close()


def cmd_serve(args: argparse.Namespace) -> int:
    from setback.server.config import ServerConfig

    db = args.db or str(places.default_db_path())
    config = ServerConfig(
        db=None if db == ":memory:" else db,
        host=args.host, port=args.port, name=args.name, password=args.password,
        max_connections=args.max_connections, reconnect_grace=args.reconnect_grace,
        bot_table_pause=args.bot_table_pause, bot_table_pace=args.bot_table_pace, bot_pace=args.bot_pace,
        tls_cert=args.tls_cert, tls_key=args.tls_key, wal_sync=args.wal_sync,
    )
    if bool(args.tls_cert) != bool(args.tls_key):
        raise ValueError("--tls-cert and --tls-key go together")
    waits = (args.reconnect_grace, args.bot_table_pause, args.bot_table_pace, args.wal_sync)
    if args.max_connections < 1 or min(waits) < 0:
        raise ValueError(
            "--max-connections is at least 1; --reconnect-grace, --bot-table-pause, --bot-table-pace and --wal-sync "
            "at least 0"
        )
    if not 0 <= args.bot_pace <= MAX_BOT_PACE:
        raise ValueError(f"--bot-pace is 0 to {MAX_BOT_PACE:g} seconds")
    for pem in (args.tls_cert, args.tls_key):
        if pem and not Path(pem).is_file():
            raise ValueError(f"no file {pem}")
    qr = sys.stdout.isatty() if args.qr is None else args.qr
    try:
        run_loop(serve(config, None if args.no_web else args.web_port, qr, advertise=not args.no_advertise))
    except socket.gaierror as exc:
        raise CommandFailedError(f"--host {args.host}: {exc.strerror}") from None
    return 0


def register(command: AddCommand) -> None:
    serve = command("serve", cmd_serve, "run the LAN game server (and its browser table)")
    serve.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all)")
    serve.add_argument(
        "--port", type=port_number, default=DEFAULT_PORT, help=f"TCP port (default {DEFAULT_PORT}; 0: any free one)"
    )
    serve.add_argument(
        "--web-port", type=port_number, default=DEFAULT_WEB_PORT,
        help=f"port of the browser table, HTTP and WebSocket (default {DEFAULT_WEB_PORT}; 0: any free one)",
    )
    serve.add_argument("--no-web", action="store_true", help="do not serve the browser table")
    serve.add_argument(
        "--qr", action=argparse.BooleanOptionalAction, default=None,
        help="print a QR code of the browser table's address (default: when the output is a terminal)",
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
    serve.add_argument(
        "--tls-cert", metavar="PEM", help="certificate chain: serve TLS only, the browser table too (with --tls-key)"
    )
    serve.add_argument("--tls-key", metavar="PEM", help="the certificate's private key")
    serve.add_argument(
        "--db", metavar="PATH", help="SQLite file for tables, games and ratings (default: in your data folder; "
        ":memory: keeps nothing)"
    )
    serve.add_argument(
        "--wal-sync", type=float, default=0.0, metavar="SECONDS",
        help="also write new records to the disk this often, so that a power cut loses less "
        "(default 0: every 2 seconds, at each checkpoint; each sync slows a busy server a little)",
    )
    serve.add_argument(
        "--no-advertise", action="store_true", help="do not announce the server on the LAN (mDNS/DNS-SD)"
    )
