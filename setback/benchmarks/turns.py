"""The server's own work a decision, without sockets: K tables of minimal bots in memory.

``setback bench server`` measures the whole server over loopback, kernel included, on a
machine that others share, so its figures move by 10% or more from run to run. This drives
the same :class:`Server` (recording to a SQLite file, as it does by default) through
in-memory transports: each bot's ``act`` goes straight to its connection's
``data_received``, and each turn of the loop ends as the server's do (commit, then write).
It prints the process's CPU time a decision (the server's and the bots' together). Table *i*
is created with seed *i*, so every run plays the same games move for move. Run under
callgrind, it counts instructions, which no other load on the machine changes:

    valgrind --tool=callgrind --instr-atstart=no python -m setback.benchmarks.turns --callgrind

(the instructions of the measured decisions only; ``callgrind_annotate --inclusive=yes``
then names where they go, the bots' own part under the transport's ``write``). With
``--transport ws`` each bot is behind the browser table's WebSocket (a ``WebPeer``): its
acts come as masked text frames, and the lines written to it as text frames.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import logging
import os
import shutil
import sqlite3
import subprocess
import tempfile
import time
from typing import Any

from websockets.utils import apply_mask

from setback import compiled

HELLO = b'{"type":"hello","version":"1.0","name":"bench","kind":"bot","events":false}\n'


class MemoryBot:
    """A transport that is a minimal bot: it answers every ``decide`` it is written with its
    first legal action and every ``game_over`` with ``ready``, into ``outbox`` (read next turn)."""

    def __init__(self, outbox: list[tuple[MemoryBot, bytes]]) -> None:
        self.outbox = outbox
        self.connection: Any = None
        self.heard: list[bytes] | None = []
        """Every line written to it while setting up (None once measuring: kept no more)."""

    def write(self, data: bytes | bytearray | memoryview) -> None:
        data = bytes(data)
        if self.heard is not None:
            self.heard.extend(data.splitlines())
        if data.startswith(b'{"type":"decide"'):
            start = data.index(b'"request":') + 10
            request = data[start:data.index(b",", start)]
            start = data.index(b'"legal":["') + 10
            action = data[start:data.index(b'"', start)]
            self.outbox.append((self, b'{"type":"act","request":%s,"action":"%s"}\n' % (request, action)))
        elif data.startswith(b'{"type":"game_over"'):
            self.outbox.append((self, b'{"type":"ready"}\n'))

    def writelines(self, lines: list[bytes]) -> None:
        for line in lines:
            self.write(line)

    def is_closing(self) -> bool:
        return False

    def get_write_buffer_size(self) -> int:
        return 0

    def get_extra_info(self, name: str, default: object = None) -> object:
        return ("127.0.0.1", 0) if name == "peername" else default

    def close(self) -> None:
        """Nothing to close."""

    def abort(self) -> None:
        """Nothing to drop."""


class MemoryBrowserBot(MemoryBot):
    """A :class:`MemoryBot` behind the browser table's WebSocket: the socket of a
    :class:`~setback.web.transport.WebPeer`, it reads each text frame written to it as a line
    and sends its answers as masked text frames, as a browser's page does."""

    MASK = b"\x0f\x1e\x2d\x3c"

    def __init__(self, outbox: list[tuple[MemoryBot, bytes]]) -> None:
        super().__init__(outbox)
        self.own: list[tuple[MemoryBot, bytes]] = []

    def write(self, data: bytes | bytearray | memoryview) -> None:
        data = bytes(data)
        at = 0
        while at < len(data):  # each unmasked text frame, as a line
            length, head = data[at + 1], 2
            if length >= 126:
                head = 4 if length == 126 else 10
                length = int.from_bytes(data[at + 2 : at + head], "big")
            line = data[at + head : at + head + length] + b"\n"
            at += head + length
            self.own.clear()
            outbox, self.outbox = self.outbox, self.own
            super().write(line)
            self.outbox = outbox
            for bot, answer in self.own:  # the answer, masked
                payload = answer[:-1]
                outbox.append((bot, bytes((0x81, 0x80 | len(payload))) + self.MASK + apply_mask(payload, self.MASK)))

    def pause_reading(self) -> None:
        """Never paused here."""

    def resume_reading(self) -> None:
        """Never paused here."""

    def can_write_eof(self) -> bool:
        return True


UPGRADE = (
    b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
)


def _instrument(state: str) -> None:
    """Turn callgrind's counting of this process ``on`` or ``off``, and wait until it has."""
    subprocess.run(["callgrind_control", "-i", state, str(os.getpid())], capture_output=True, check=False)


async def measure(tables: int, decisions: int, callgrind: bool = False, transport: str = "tcp") -> dict[str, Any]:
    """Play ``decisions`` decisions (after a fifth as many to warm up) at ``tables`` tables,
    over ``transport`` (``ws``: each bot behind the browser table's WebSocket)."""
    from setback import logs
    from setback.server.app import Server, tune_gc
    from setback.server.config import ServerConfig
    from setback.server.connection import Connection
    from setback.server.memory import tune_malloc
    from setback.web.site import Site
    from setback.web.transport import WebPeer

    logs.configure(json=True, level=logging.WARNING)  # as the benchmark's server
    folder = tempfile.mkdtemp(prefix="setback-turns-")
    records = os.path.join(folder, "bench.sqlite3")
    config = ServerConfig(host="127.0.0.1", port=0, max_connections=20_000, idle_timeout=600, db=records)
    server = Server(config)
    await server.start()
    tune_gc()
    tune_malloc()
    outbox: list[tuple[MemoryBot, bytes]] = []
    bots: list[MemoryBot] = []
    site = Site(tls=False)

    def send(bot: MemoryBot, line: bytes) -> None:
        """``line`` from ``bot``: as it is over TCP, a masked text frame over the WebSocket."""
        if isinstance(bot, MemoryBrowserBot):
            line = line[:-1]
            line = bytes((0x81, 0x80 | len(line))) + bot.MASK + apply_mask(line, bot.MASK)
        bot.connection.data_received(line)

    try:
        for index in range(tables):
            four = [MemoryBot(outbox) if transport == "tcp" else MemoryBrowserBot(outbox) for _ in range(4)]
            for bot in four:
                if transport == "tcp":
                    bot.connection = Connection(server)
                else:
                    bot.connection = WebPeer(server, site)
                bot.connection.connection_made(bot)
                if transport != "tcp":
                    bot.connection.data_received(UPGRADE)
                send(bot, HELLO)
            await asyncio.sleep(0)
            create = b'{"type":"create_table","id":1,"name":"bench %d","clock":{"decision_seconds":null},"seed":%d}\n'
            send(four[0], create % (index, index))  # seeded: every run deals the same games, move for move
            await asyncio.sleep(0)
            heard = four[0].heard or []
            table = next(json.loads(line)["table"]["table"] for line in heard if b'"id":1,' in line)
            for seat, bot in enumerate(four):
                send(bot, b'{"type":"join","id":2,"table":"%s","seat":%d,"ready":true}\n' % (table.encode(), seat))
            await asyncio.sleep(0)
            bots.extend(four)

        async def play(count: int) -> int:
            done = 0
            while done < count:
                turn = outbox[:]
                outbox.clear()
                for bot, line in turn:
                    bot.connection.data_received(line)
                await asyncio.sleep(0)  # the server's turn ends: commit, then write
                done += len(turn)
            return done

        await play(decisions // 5)
        for bot in bots:
            bot.heard = None
        if callgrind:
            _instrument("on")
        began = time.process_time()
        played = await play(decisions)
        cpu = time.process_time() - began
        if callgrind:
            _instrument("off")
        figures: dict[str, Any] = {
            "hot_path": compiled.STATUS, "transport": transport, "tables": tables, "decisions": played,
            "cpu_us_per_decision": round(1e6 * cpu / played, 2),
        }
        await server.stop()
        figures["plays"] = plays_of(records)
        return figures
    finally:
        await server.stop()  # (again after a run: a stopped server stops at once)
        shutil.rmtree(folder, ignore_errors=True)


def plays_of(db: str) -> str:
    """A fingerprint of every action the server recorded in ``db``, in order: two runs whose
    instructions are compared must show the same."""
    digest = hashlib.sha256()
    with contextlib.closing(sqlite3.connect(db)) as records:
        for (actions,) in records.execute("SELECT actions FROM journal ORDER BY turn"):
            digest.update(actions.encode())
        for row in records.execute("SELECT table_id, number, seed, actions FROM games ORDER BY id"):
            digest.update(repr(row).encode())
    return digest.hexdigest()[:16]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m setback.benchmarks.turns", description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--decisions", type=int, default=10_000)
    parser.add_argument("--callgrind", action="store_true",
                        help="count only the measured decisions (under valgrind --tool=callgrind --instr-atstart=no)")
    parser.add_argument("--transport", choices=("tcp", "ws"), default="tcp",
                        help="ws: each bot behind the browser table's WebSocket (masked text frames)")
    args = parser.parse_args(argv)
    import uvloop

    print(json.dumps(uvloop.run(measure(args.tables, args.decisions, args.callgrind, args.transport))))


if __name__ == "__main__":
    main()
