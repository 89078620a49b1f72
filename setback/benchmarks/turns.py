"""The server's own work a decision, without sockets: K tables of minimal bots in memory.

``setback bench server`` measures the whole server over loopback, kernel included, on a
machine that others share, so its figures move by 10% or more from run to run. This drives
the same :class:`Server` (recording to a SQLite file, as it does by default) through
in-memory transports: each bot's ``act`` goes straight to its connection's
``data_received``, and each turn of the loop ends as the server's do (commit, then write).
It prints the process's CPU time a decision (the server's and the bots' together). Run
under callgrind, it counts instructions, which no other load on the machine changes:

    valgrind --tool=callgrind --instr-atstart=no python -m setback.benchmarks.turns --callgrind

(the instructions of the measured decisions only; ``callgrind_annotate --inclusive=yes``
then names where they go, the bots' own part under the transport's ``write``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import shutil
import subprocess
import tempfile
import time
from typing import Any

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


def _instrument(state: str) -> None:
    """Turn callgrind's counting of this process ``on`` or ``off``, and wait until it has."""
    subprocess.run(["callgrind_control", "-i", state, str(os.getpid())], capture_output=True, check=False)


async def measure(tables: int, decisions: int, callgrind: bool = False) -> dict[str, Any]:
    """Play ``decisions`` decisions (after a fifth as many to warm up) at ``tables`` tables."""
    from setback import logs
    from setback.server.app import Server, tune_gc
    from setback.server.config import ServerConfig
    from setback.server.connection import Connection
    from setback.server.memory import tune_malloc

    logs.configure(json=True, level=logging.WARNING)  # as the benchmark's server
    folder = tempfile.mkdtemp(prefix="setback-turns-")
    config = ServerConfig(host="127.0.0.1", port=0, max_connections=20_000, idle_timeout=600,
                          db=os.path.join(folder, "bench.sqlite3"))
    server = Server(config)
    await server.start()
    tune_gc()
    tune_malloc()
    outbox: list[tuple[MemoryBot, bytes]] = []
    bots: list[MemoryBot] = []
    try:
        for index in range(tables):
            four = [MemoryBot(outbox) for _ in range(4)]
            for bot in four:
                bot.connection = Connection(server)
                bot.connection.connection_made(bot)
                bot.connection.data_received(HELLO)
            await asyncio.sleep(0)
            four[0].connection.data_received(
                b'{"type":"create_table","id":1,"name":"bench %d","clock":{"decision_seconds":null}}\n' % index
            )
            await asyncio.sleep(0)
            heard = four[0].heard or []
            table = next(json.loads(line)["table"]["table"] for line in heard if b'"id":1,' in line)
            for seat, bot in enumerate(four):
                bot.connection.data_received(
                    b'{"type":"join","id":2,"table":"%s","seat":%d,"ready":true}\n' % (table.encode(), seat)
                )
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
        return {"hot_path": compiled.STATUS, "tables": tables, "decisions": played,
                "cpu_us_per_decision": round(1e6 * cpu / played, 2)}
    finally:
        await server.stop()
        shutil.rmtree(folder, ignore_errors=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m setback.benchmarks.turns", description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--decisions", type=int, default=10_000)
    parser.add_argument("--callgrind", action="store_true",
                        help="count only the measured decisions (under valgrind --tool=callgrind --instr-atstart=no)")
    args = parser.parse_args(argv)
    import uvloop

    print(json.dumps(uvloop.run(measure(args.tables, args.decisions, args.callgrind))))


if __name__ == "__main__":
    main()
