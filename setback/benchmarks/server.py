"""Server throughput and latency at K tables, against a bare msgspec JSON-lines echo server.

One process runs the server under test (``setback serve``'s :class:`Server`, recording to
a SQLite file as it does by default, or the echo baseline); this process drives K tables
of four minimal protocol bots over loopback.
A minimal bot says hello with ``events: false``, answers every ``decide`` with its
first legal action, and sends ``ready`` on ``game_over``. For the echo baseline the same
harness passes one message around each table's four connections, so both runs keep K
decisions in flight on 4K connections. Figures: decisions per second, p50/p99 decision
round trip (from a bot's ``act`` to the server's answer at its table: the next ``decide``,
or ``game_over`` after a game's last act; for the echo, from send to echo), the server
process's CPU time per decision (user and system, all its threads, read from ``/proc`` on
Linux) and this process's (the bots'; with both busy, the one that spends more a decision
sets the pace), protocol errors, and the server's resident memory per connected bot.

With ``--repeat N`` each table count is measured N times, ours then the echo each time, and
every figure printed is the median over the runs (each ratio the median of the runs' own
ratios); the JSON keeps every run. On a shared machine one run's p99 can be off by a third.

With ``--transport ws`` the same bots play over the browser table's WebSocket (one message
a text frame, through ``websockets``' Sans-I/O client), and the baseline is the same server
over TCP in the same run: the figures then say what the WebSocket transport costs.

Run: ``python -m setback.benchmarks.server`` or ``setback bench server [--tables 1,50,250]
[--hold 500] [--seconds 5] [--repeat 1] [--transport tcp|ws] [--json]``.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import logging
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

try:
    from websockets.speedups import apply_mask
except ImportError:  # a platform without its wheel's C part
    from websockets.utils import apply_mask

from setback import compiled
from setback.benchmarks import positive_seconds
from setback.protocol import MAX_SERVER_LINE_BYTES
from setback.server.files import raise_open_files

HELLO = b'{"type":"hello","version":"1.0","name":"bench","kind":"bot","events":false}\n'


class _MiniView(msgspec.Struct):
    legal: list[str]


class _MiniDecide(msgspec.Struct):
    type: str
    request: int = 0
    view: _MiniView | None = None
    table: Any = None


_mini = msgspec.json.Decoder(_MiniDecide)
_encoder = msgspec.json.Encoder()


BUCKETS_PER_E = 200
"""A held run's round trips are counted in buckets of logarithmic width, 0.5% each."""


class _GameOver(msgspec.Struct):
    table: str
    game: int


_game_over = msgspec.json.Decoder(_GameOver)


@dataclass
class Tally:
    """What the bots saw while ``counting``: decisions answered, ``error`` messages (a
    legal, in-turn bot should get none) and each decision's round trip in seconds."""

    decisions: int = 0
    errors: int = 0
    rtts: list[float] | None = field(default_factory=list)
    """None: count decisions but keep no round trips (a soak's minutes of them would fill memory)."""
    counting: bool = False
    cpu_us_per_decision: float | None = None
    """The server's CPU time while counting, per decision, where the platform tells it."""
    bots_cpu_us_per_decision: float | None = None
    """This process's CPU time (the bots') while counting, per decision: with the server's, it
    says which of the two sets the pace when both are busy."""
    buckets: dict[int, int] | None = None
    """With no ``rtts``: the round trips counted by bucket (:data:`BUCKETS_PER_E`), which a
    hold of minutes keeps in a few kilobytes."""
    games: set[tuple[str, int]] | None = None
    """If a set: every game the bots saw end, counting or not, as (table, game number)."""

    def note(self, seconds: float) -> None:
        """A decision answered ``seconds`` after its act (while counting)."""
        self.decisions += 1
        if self.rtts is not None:
            self.rtts.append(seconds)
        elif self.buckets is not None:
            bucket = math.floor(math.log(max(seconds, 1e-7)) * BUCKETS_PER_E)
            self.buckets[bucket] = self.buckets.get(bucket, 0) + 1

    def quantile(self, share: float) -> float:
        """The round trip ``share`` of the counted ones are within, in seconds (0 with none)."""
        if self.rtts is not None or not self.buckets:
            rtts = sorted(self.rtts or [0.0])
            return rtts[min(len(rtts) - 1, int(len(rtts) * share))]
        rank = int(sum(self.buckets.values()) * share)
        for bucket, count in sorted(self.buckets.items()):
            rank -= count
            if rank < 0:
                return math.exp((bucket + 0.5) / BUCKETS_PER_E)
        return math.exp((max(self.buckets) + 0.5) / BUCKETS_PER_E)


# -- the servers under test -------------------------------------------------------------


SERVERS = ("setback", "setback-ws", "shipped", "echo")
"""What a child process serves: our server over TCP, the same with its WebSocket (the first
port printed is the WebSocket's, then the TCP one), the server with ``setback serve``'s
defaults and its WebSocket (the hostile benchmark's: its limits are what is measured), or
the echo baseline."""


def _serve(kind: str, folder: str | None) -> None:
    """Child process: run the server (or the echo) on a free loopback port, print the port;
    the server records to a file in ``folder``, which the parent made and removes."""
    from setback import logs
    from setback.server.app import Server, tune_gc
    from setback.server.config import ServerConfig
    from setback.server.files import fit_open_files
    from setback.server.memory import tune_malloc
    from setback.web import WebListener

    # as JSON lines, for ServerProcess's log; the hostile benchmark's server logs what `serve` does
    logs.configure(json=True, level=logging.INFO if kind == "shipped" else logging.WARNING)

    async def main() -> None:
        if kind != "echo":  # as shipped: every decision recorded in a SQLite file before it is answered
            assert folder is not None, "ServerProcess makes the folder"
            db = str(Path(folder) / "bench.sqlite3")
            if kind == "shipped":  # as `setback serve` starts it
                config = fit_open_files(ServerConfig(host="127.0.0.1", port=0, db=db))
            else:
                config = ServerConfig(host="127.0.0.1", port=0, max_connections=20_000, idle_timeout=600, db=db)
            server = Server(config)
            await server.start()
            ports = [server.port]
            if kind != "setback":
                ports.insert(0, (await WebListener.start(server, "127.0.0.1", 0)).port)
            tune_gc()  # as `setback serve` does
            tune_malloc()
        else:
            listener = await asyncio.start_server(_echo, "127.0.0.1", 0, limit=MAX_SERVER_LINE_BYTES)
            ports = [listener.sockets[0].getsockname()[1]]
        print(*ports, flush=True)
        await asyncio.Event().wait()

    with contextlib.suppress(KeyboardInterrupt):
        _run(main())


_any_decoder = msgspec.json.Decoder()


async def _echo(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """The baseline: decode each line with msgspec and send it back encoded."""
    with contextlib.suppress(ConnectionError):
        while line := await reader.readline():
            writer.write(_encoder.encode(_any_decoder.decode(line)) + b"\n")
            await writer.drain()


def _run(coro: Any) -> None:
    try:
        import uvloop
    except ImportError:
        asyncio.run(coro)
    else:
        uvloop.run(coro)


def rss_kb(pid: int) -> int:
    """The resident memory of process ``pid`` in KB (Linux: ``VmRSS`` in ``/proc/PID/status``)."""
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS")))


class ServerProcess:
    def __init__(self, kind: str, log: Path | None = None) -> None:
        """Start the server ``kind`` (one of :data:`SERVERS`); its warnings go to ``log`` as
        JSON lines, if given."""
        self.folder = tempfile.mkdtemp(prefix="setback-bench-") if kind != "echo" else None
        """The server's records file lives here, and goes with it (a run writes hundreds of MB)."""
        argv = [sys.executable, "-m", "setback.benchmarks.server", "--serve", kind]
        with open(log or os.devnull, "wb") as errors:
            self.process = subprocess.Popen(
                argv + (["--folder", self.folder] if self.folder else []),
                stdout=subprocess.PIPE, stderr=errors, text=True,
            )
        assert self.process.stdout is not None
        try:
            self.ports = [int(port) for port in self.process.stdout.readline().split()]
            """Every port it listens on (the WebSocket's first, for a server that has one)."""
            self.port = self.ports[0]
        except (ValueError, IndexError):
            self.stop()
            raise RuntimeError(f"the {kind} server under test did not start") from None

    def cpu_seconds(self) -> float | None:
        """User plus system CPU time of the server process, all threads; None off Linux."""
        try:
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rpartition(")")[2].split()
        except OSError:
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_kb(self) -> int:
        return rss_kb(self.process.pid)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)


# -- the harness -----------------------------------------------------------------------------


Closers = list[Callable[[], None]]
"""What ends a table's connections when the bots stop."""


def _create_table(index: int, clock: float | None) -> bytes:
    """The line that creates bench table ``index``, its decisions on a clock of ``clock`` seconds (None: untimed)."""
    seconds = b"null" if clock is None else str(clock).encode()
    return b'{"type":"create_table","id":1,"name":"bench %d","clock":{"decision_seconds":%s}}' % (index, seconds)


async def _setback_table(
    port: int, index: int, tally: Tally, started: asyncio.Event, tasks: list[asyncio.Task[None]],
    clock: float | None = None,
) -> Closers:
    conns = [await asyncio.open_connection("127.0.0.1", port, limit=MAX_SERVER_LINE_BYTES) for _ in range(4)]
    for _, writer in conns:
        writer.write(HELLO)
    for reader, _ in conns:
        await reader.readline()
    first_reader, first_writer = conns[0]
    first_writer.write(_create_table(index, clock) + b"\n")
    while not (reply := json.loads(await first_reader.readline())).get("id"):
        pass  # lobby updates about other tables come first
    table = reply["table"]["table"]
    last_act = [0.0]
    for seat, (_, writer) in enumerate(conns):
        writer.write(b'{"type":"join","id":2,"table":"%s","seat":%d,"ready":true}\n' % (table.encode(), seat))
    tasks.extend(asyncio.create_task(_setback_bot(r, w, tally, last_act, started)) for r, w in conns)
    return [w.close for _, w in conns]


def _answer(line: bytes, tally: Tally, last_act: list[float]) -> bytes | None:
    """A minimal bot's answer to one of the server's messages (None: nothing to say)."""
    if line.startswith(b'{"type":"decide"'):
        now = time.perf_counter()
        decide = _mini.decode(line)
        assert decide.view is not None
        if tally.counting and last_act[0]:
            tally.note(now - last_act[0])
        last_act[0] = time.perf_counter()
        return b'{"type":"act","request":%d,"action":"%s"}\n' % (decide.request, decide.view.legal[0].encode())
    if line.startswith(b'{"type":"game_over"'):  # the answer to the game's last act
        if tally.counting and last_act[0]:
            tally.note(time.perf_counter() - last_act[0])
        if tally.games is not None:
            over = _game_over.decode(line)
            tally.games.add((over.table, over.game))
        last_act[0] = 0.0  # the next game's first decide answers the seats' ready, not an act
        return b'{"type":"ready"}\n'
    if line.startswith(b'{"type":"error"'):
        tally.errors += 1
        if tally.errors < 5:
            print(line, file=sys.stderr)
    return None


async def _setback_bot(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, tally: Tally, last_act: list[float],
    started: asyncio.Event,
) -> None:
    await started.wait()
    with contextlib.suppress(ConnectionError, asyncio.IncompleteReadError):
        while line := await reader.readline():
            reply = _answer(line, tally, last_act)
            if reply is not None:
                writer.write(reply)


UPGRADE = (
    b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
)
"""A client's request to open the browser table's WebSocket on port ``%d`` (RFC 6455's sample key)."""


class _WsBot:
    """A minimal bot's end of the browser table's WebSocket, framed here (RFC 6455) as lean as
    the TCP harness's lines: each line sent as one masked text frame (a key from
    :func:`random.randbytes`, applied by ``websockets``' C ``apply_mask``), the server's frames
    cut from what each read brings. A ping is answered, a close ends the bot. (``websockets``'
    Sans-I/O client, used before, cost the bots' process some 19 µs a decision against 11 for
    the TCP harness: the load, not the server, then set the pace.)"""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.pending: collections.deque[bytes] = collections.deque()
        """Whole text messages read and not yet asked for, oldest first."""
        self.unread = b""
        """The start of a frame that the last read cut short."""
        self.parts: list[bytes] = []
        """A text message's fragments so far (empty unless the server fragments)."""

    @classmethod
    async def connect(cls, port: int) -> _WsBot:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=MAX_SERVER_LINE_BYTES)
        writer.write(UPGRADE % port)
        answer = await reader.readuntil(b"\r\n\r\n")
        if not answer.startswith(b"HTTP/1.1 101"):
            writer.close()
            raise ConnectionError(f"the WebSocket was refused: {answer.splitlines()[0]!r}")
        return cls(reader, writer)

    async def recv(self) -> bytes:
        while not self.pending:
            data = await self.reader.read(MAX_SERVER_LINE_BYTES)
            if not data:
                raise ConnectionError("closed")
            self._frames(self.unread + data if self.unread else data)
        return self.pending.popleft()

    def _frames(self, data: bytes) -> None:
        """Take every whole frame of ``data`` (the server's are never masked), keep the rest."""
        at, end = 0, len(data)
        while end - at >= 2:
            first, length, head = data[at], data[at + 1] & 0x7F, 2
            if length >= 126:
                head += 2 if length == 126 else 8
                if end - at < head:
                    break
                length = int.from_bytes(data[at + 2 : at + head], "big")
            if end - at < head + length:
                break
            payload, at = data[at + head : at + head + length], at + head + length
            opcode = first & 0x0F
            if opcode in {0x1, 0x0}:  # text, or its continuation
                self.parts.append(payload)
                if first & 0x80:
                    self.pending.append(b"".join(self.parts))
                    self.parts.clear()
            elif opcode == 0x9:  # a ping: its pong
                self._frame(0xA, payload)
            elif opcode == 0x8:
                raise ConnectionError("the server closed the WebSocket")
        self.unread = data[at:]

    def _frame(self, opcode: int, payload: bytes) -> None:
        size = len(payload)
        if size < 126:
            head = bytes((0x80 | opcode, 0x80 | size))
        elif size < 1 << 16:
            head = bytes((0x80 | opcode, 0xFE)) + size.to_bytes(2, "big")
        else:
            head = bytes((0x80 | opcode, 0xFF)) + size.to_bytes(8, "big")
        mask = random.randbytes(4)
        self.writer.write(head + mask + apply_mask(payload, mask))

    def send(self, line: bytes) -> None:
        """``line`` (with or without its newline) as one text frame."""
        self._frame(0x1, line[:-1] if line.endswith(b"\n") else line)


async def _ws_table(
    port: int, index: int, tally: Tally, started: asyncio.Event, tasks: list[asyncio.Task[None]],
    clock: float | None = None,
) -> Closers:
    """A table of four minimal bots, each on the browser table's WebSocket."""
    conns = [await _WsBot.connect(port) for _ in range(4)]
    for bot in conns:
        bot.send(HELLO)
    for bot in conns:
        await bot.recv()
    first = conns[0]
    first.send(_create_table(index, clock))
    while not (reply := json.loads(await first.recv())).get("id"):
        pass  # lobby updates about other tables come first
    table = reply["table"]["table"]
    last_act = [0.0]
    for seat, bot in enumerate(conns):
        bot.send(b'{"type":"join","id":2,"table":"%s","seat":%d,"ready":true}' % (table.encode(), seat))
    tasks.extend(asyncio.create_task(_ws_bot(b, tally, last_act, started)) for b in conns)
    return [b.writer.close for b in conns]


async def _ws_bot(bot: _WsBot, tally: Tally, last_act: list[float], started: asyncio.Event) -> None:
    await started.wait()
    with contextlib.suppress(ConnectionError):
        while True:
            reply = _answer(await bot.recv(), tally, last_act)
            if reply is not None:
                bot.send(reply)


async def _echo_table(
    port: int, index: int, tally: Tally, started: asyncio.Event, tasks: list[asyncio.Task[None]],
    clock: float | None = None,
) -> Closers:
    conns = [await asyncio.open_connection("127.0.0.1", port, limit=MAX_SERVER_LINE_BYTES) for _ in range(4)]

    async def relay() -> None:
        await started.wait()
        seat = 0
        with contextlib.suppress(ConnectionError):
            while True:
                reader, writer = conns[seat]
                sent = time.perf_counter()
                writer.write(b'{"type":"act","request":%d,"action":"play 10H"}\n' % index)
                line = await reader.readline()
                if not line:
                    return
                decide = _mini.decode(line)
                if tally.counting:
                    tally.note(time.perf_counter() - sent)
                if decide.type == "error":
                    tally.errors += 1
                seat = (seat + 1) % 4

    tasks.append(asyncio.create_task(relay()))
    return [w.close for _, w in conns]


@contextlib.asynccontextmanager
async def playing(
    kind: str, port: int, tables: int, tally: Tally, clock: float | None = None
) -> AsyncIterator[list[asyncio.Task[None]]]:
    """``tables`` tables of four minimal bots (``kind`` "setback"; "setback-ws": the same over
    the browser table's WebSocket; "echo": the baseline's relays) playing at the server on
    ``port`` until the block ends, counting into ``tally``; ``clock``: the seconds a decision
    may take at each table (None: untimed). Yields the bots' tasks: one that is done before
    the end lost its connection."""
    started = asyncio.Event()
    make = {"setback": _setback_table, "setback-ws": _ws_table, "echo": _echo_table}[kind]
    tasks: list[asyncio.Task[None]] = []
    closers: Closers = []
    try:
        for start in range(0, tables, 50):
            batch = await asyncio.gather(
                *(make(port, i, tally, started, tasks, clock) for i in range(start, min(tables, start + 50)))
            )
            closers.extend(c for cs in batch for c in cs)
        started.set()
        yield tasks
    finally:
        for close in closers:
            close()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


CpuMarks = tuple[float | None, float]
"""The server's CPU seconds so far (None where the platform does not tell) and this process's."""


def _cpu_marks(server: ServerProcess) -> CpuMarks:
    return server.cpu_seconds(), time.process_time()


def _note_cpu(tally: Tally, before: CpuMarks, after: CpuMarks) -> None:
    """The CPU the server and the bots spent between two marks, per decision counted."""
    if not tally.decisions:
        return
    if before[0] is not None and after[0] is not None:
        tally.cpu_us_per_decision = round(1e6 * (after[0] - before[0]) / tally.decisions, 2)
    tally.bots_cpu_us_per_decision = round(1e6 * (after[1] - before[1]) / tally.decisions, 2)


async def _drive(kind: str, server: ServerProcess, tables: int, seconds: float) -> Tally:
    tally = Tally()
    async with playing(kind, server.port, tables, tally):
        await asyncio.sleep(min(1.0, seconds / 4))  # warm up
        before = _cpu_marks(server)
        tally.counting = True
        began = time.perf_counter()
        await asyncio.sleep(seconds)
        tally.counting = False
        elapsed = time.perf_counter() - began
        _note_cpu(tally, before, _cpu_marks(server))
    tally.decisions = round(tally.decisions / elapsed)
    return tally


def _figures(tally: Tally) -> dict[str, Any]:
    return {
        "decisions_per_s": tally.decisions,
        "server_cpu_us_per_decision": tally.cpu_us_per_decision,
        "bots_cpu_us_per_decision": tally.bots_cpu_us_per_decision,
        "p50_ms": round(1000 * tally.quantile(0.5), 3),
        "p99_ms": round(1000 * tally.quantile(0.99), 3),
        "errors": tally.errors,
    }


def measure(kind: str, tables: int, seconds: float) -> dict[str, Any]:
    server = ServerProcess(kind)
    try:
        result: dict[str, Any] = {}

        async def go() -> None:
            tally = await _drive(kind, server, tables, seconds)
            result.update(_figures(tally))

        _run(go())
        return result
    finally:
        server.stop()


HOLD_CLOCK = 60.0
"""The seconds a decision may take at a held table (the server's default clock): a decision
the server takes longer than that to answer is a timeout, which the records name."""
WARM_UP_SHARE = 0.25
"""The most of a hold spent warming up: until every table has played a game (the server's
memory grows until then; tests/test_soak.py), but no longer than this share of the hold."""


def hold(tables: int, seconds: float, clock: float | None = HOLD_CLOCK) -> dict[str, Any]:
    """Hold ``tables`` tables of four bots playing for ``seconds`` after a warm-up (every table
    through a game), each decision on a clock of ``clock`` seconds (None: untimed, as the
    table counts' runs are): decisions/s, p50/p99, protocol
    errors, connections lost, the server's RSS when idle and at the hold's start, middle and end,
    its records (file and WAL sizes; timeouts, as the records name them; every game the bots saw
    end found there), and its RSS growth per bot."""
    raise_open_files()  # four connections a table, this process's end of them
    server = ServerProcess("setback")
    assert server.folder is not None
    records = Path(server.folder) / "bench.sqlite3"
    try:
        time.sleep(0.3)
        idle = server.rss_kb()
        tally = Tally(rtts=None, buckets={}, games=set())
        result: dict[str, Any] = {"connections": 4 * tables, "hold_seconds": seconds, "clock": clock}
        rss: dict[str, int] = {"idle": idle}
        wal_peak = [0]

        async def sample_sizes() -> None:
            while True:
                wal_peak[0] = max(wal_peak[0], _file_size(Path(f"{records}-wal")))
                await asyncio.sleep(0.5)

        async def go() -> None:
            sampling = asyncio.create_task(sample_sizes())
            seating = time.perf_counter()
            async with playing("setback", server.port, tables, tally, clock) as bots:
                result["seated_seconds"] = round(time.perf_counter() - seating, 1)
                warming = time.perf_counter()
                assert tally.games is not None
                for _ in range(math.ceil(WARM_UP_SHARE * seconds / 0.5)):
                    if len(tally.games) >= tables:
                        break
                    await asyncio.sleep(0.5)
                result["warm_up_seconds"] = round(time.perf_counter() - warming, 1)
                rss["start"] = server.rss_kb()
                before = _cpu_marks(server)
                tally.counting = True
                began = time.perf_counter()
                await asyncio.sleep(seconds / 2)
                rss["middle"] = server.rss_kb()
                await asyncio.sleep(max(0.0, began + seconds - time.perf_counter()))
                tally.counting = False
                elapsed = time.perf_counter() - began
                rss["end"] = server.rss_kb()
                after = _cpu_marks(server)
                result["bots_lost"] = sum(bot.done() for bot in bots)
            sampling.cancel()
            _note_cpu(tally, before, after)
            tally.decisions = round(tally.decisions / elapsed)
            result.update(_figures(tally))

        _run(go())
        time.sleep(0.5)  # the server's last turns committed
        result["server_rss_kb"] = rss
        result["server_rss_growth_kb_per_bot"] = round((rss["end"] - idle) / (4 * tables), 2)
        result["records"] = _records_of(records, tally.games or set(), wal_peak[0])
        return result
    finally:
        server.stop()


def _file_size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


_journal_rows = msgspec.json.Decoder(list[tuple[int, int, str, int]])


def _records_of(path: Path, seen: set[tuple[str, int]], wal_peak: int) -> dict[str, Any]:
    """What the held server's records file says: its size and its WAL's (now, and the peak
    sampled), the games finished, the actions and the turns that took them (journal rows), the
    actions the clock chose (timeouts), and how many of the
    games the bots saw end (``seen``) are not recorded as finished."""
    import sqlite3

    from setback.server.store import BY_CLOCK

    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        finished = {(str(table), int(number)) for table, number in db.execute(
            "SELECT table_id, number FROM games WHERE finished IS NOT NULL"
        )}
        actions = timeouts = turns = 0
        for (text,) in db.execute("SELECT actions FROM journal"):
            entries = _journal_rows.decode(text)
            turns += 1
            actions += len(entries)
            timeouts += sum(1 for entry in entries if entry[3] == BY_CLOCK)
    finally:
        db.close()
    return {
        "db_bytes": _file_size(path), "wal_bytes": _file_size(Path(f"{path}-wal")), "wal_peak_bytes": wal_peak,
        "games_finished": len(finished), "games_seen_to_end": len(seen), "seen_not_recorded": len(seen - finished),
        "actions": actions, "turns": turns, "timeouts": timeouts,
    }


def _pair(tables: int, seconds: float, transport: str = "tcp") -> dict[str, Any]:
    """One run of each server at ``tables`` tables, ours first, and the ratios of the two: ours
    over the echo, or (``transport`` ``ws``) ours over the WebSocket to ours over TCP."""
    ours = measure("setback-ws" if transport == "ws" else "setback", tables, seconds)
    base = measure("setback" if transport == "ws" else "echo", tables, seconds)
    return {
        "setback": ours,
        BASELINES[transport]: base,
        "ratio_decisions": round(ours["decisions_per_s"] / max(base["decisions_per_s"], 1), 3),
        "ratio_p99": round(ours["p99_ms"] / max(base["p99_ms"], 1e-6), 3),
    }


BASELINES = {"tcp": "echo", "ws": "tcp"}
"""What ours is measured against over each transport: the echo server, or ours over TCP."""


def _median(values: list[Any]) -> Any:
    """The middle value (of an even count, the lower middle: a figure some run measured)."""
    known = sorted(v for v in values if v is not None)
    return known[(len(known) - 1) // 2] if known else None


def _row(tables: int, pairs: list[dict[str, Any]]) -> dict[str, Any]:
    """A table count's figures: with one run, that run's; with more, each figure's median
    over the runs, each ratio the median of the runs' own ratios (the servers of a run
    shared the machine's moment), and every run as it came."""
    row: dict[str, Any] = {"tables": tables}
    for side in (key for key, value in pairs[0].items() if isinstance(value, dict)):
        row[side] = {key: _median([pair[side][key] for pair in pairs]) for key in pairs[0][side]}
    for ratio in ("ratio_decisions", "ratio_p99"):
        row[ratio] = _median([pair[ratio] for pair in pairs])
    if len(pairs) > 1:
        row["runs"] = pairs
    return row


def run(
    table_counts: list[int], tables_held: int, seconds: float, repeat: int = 1, transport: str = "tcp",
    hold_seconds: float | None = None, hold_clock: float | None = HOLD_CLOCK,
) -> dict[str, Any]:
    """Each table count's runs, then the hold of ``tables_held`` tables for ``hold_seconds``
    (``seconds`` unless given), on a clock of ``hold_clock`` seconds a decision (None: untimed)."""
    rows = []
    for tables in table_counts:
        rows.append(_row(tables, [_pair(tables, seconds, transport) for _ in range(repeat)]))
    held = hold(tables_held, hold_seconds or seconds, hold_clock) if tables_held else None
    return {
        "benchmark": "server", "build": compiled.STATUS, "seconds": seconds, "repeat": repeat, "rows": rows,
        "hold": held, "transport": transport,
    }


def at_least_one(text: str) -> int:
    """An argparse type: a whole number, at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"at least 1, not {value}")
    return value


def table_counts(text: str) -> list[int]:
    """An argparse type: table counts separated by commas, each at least 1."""
    try:
        counts = [int(t) for t in text.split(",") if t.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"table counts are whole numbers separated by commas, not {text!r}") from None
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError(f"table counts are at least 1: {text!r}")
    return counts


def _micros(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}us"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="setback bench server", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--tables", type=table_counts, default=[1, 50, 250], help="table counts to measure (default 1,50,250)"
    )
    parser.add_argument(
        "--hold", type=int, default=500, help="tables to hold for the memory and error check (default 500; 0: none)"
    )
    parser.add_argument("--seconds", type=positive_seconds, default=5.0, help="measuring time per run (default 5)")
    parser.add_argument(
        "--hold-seconds", type=positive_seconds, help="how long the hold lasts after its warm-up (default: --seconds)"
    )
    parser.add_argument(
        "--hold-clock", type=float, default=HOLD_CLOCK,
        help=f"seconds a decision may take at a held table (default {HOLD_CLOCK:g}; 0: untimed)",
    )
    parser.add_argument(
        "--repeat", type=at_least_one, default=1,
        help="runs of both servers at each table count, alternating; figures are medians (default 1)",
    )
    parser.add_argument(
        "--transport", choices=sorted(BASELINES), default="tcp",
        help="the bots' transport: tcp, against the echo server (default), or ws, the browser table's "
        "WebSocket, against the same server over TCP",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--serve", choices=SERVERS, help=argparse.SUPPRESS)
    parser.add_argument("--folder", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        _serve(args.serve, args.folder)
        return
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    result = run(
        args.tables, max(0, args.hold), args.seconds, args.repeat, args.transport, args.hold_seconds,
        args.hold_clock if args.hold_clock > 0 else None,
    )
    if args.json:
        print(json.dumps(result))
        return
    base = BASELINES[args.transport]
    us = "ws" if args.transport == "ws" else "ours"
    print(f"server hot path: {result['build']} (setback --version tells; README, Quick start)")
    print(f"{'tables':>6} {us + ' dec/s':>11} {base + ' dec/s':>11} {'ratio':>6} "
          f"{us + ' p50':>9} {us + ' p99':>9} {base + ' p99':>9} {'p99 x':>6} {'errors':>6} "
          f"{us + ' cpu/dec':>13} {base + ' cpu/dec':>13}")
    for row in result["rows"]:
        ours, echo = row["setback"], row[base]
        print(f"{row['tables']:>6} {ours['decisions_per_s']:>11} {echo['decisions_per_s']:>11} "
              f"{row['ratio_decisions']:>6} {ours['p50_ms']:>8}ms {ours['p99_ms']:>8}ms {echo['p99_ms']:>8}ms "
              f"{row['ratio_p99']:>6} {ours['errors']:>6} "
              f"{_micros(ours['server_cpu_us_per_decision']):>13} {_micros(echo['server_cpu_us_per_decision']):>13}")
    for row in result["rows"]:
        if "runs" in row:
            ratios = [pair["ratio_decisions"] for pair in row["runs"]]
            p99x = [pair["ratio_p99"] for pair in row["runs"]]
            print(f"{row['tables']} tables, medians of {len(p99x)} runs ({us}, then {base}, each time): "
                  f"ratio {min(ratios)} to {max(ratios)}, p99 x {min(p99x)} to {max(p99x)}")
    for row in result["rows"]:
        ours, echo = row["setback"], row[base]
        print(f"{row['tables']} tables, the bots' process a decision: "
              f"{_micros(ours['bots_cpu_us_per_decision'])} against {us}, {_micros(echo['bots_cpu_us_per_decision'])} "
              f"against the {base} (with both processes busy, the one that spends more sets the pace)")
    if result["hold"]:
        held = result["hold"]
        rss, records = held["server_rss_kb"], held["records"]
        print(f"held {held['connections']} connections for {held['hold_seconds']:g} s "
              f"(after {held['warm_up_seconds']} s of warm-up): {held['decisions_per_s']} decisions/s, "
              f"p50 {held['p50_ms']} ms, p99 {held['p99_ms']} ms, "
              f"{_micros(held['server_cpu_us_per_decision'])} server CPU a decision "
              f"({_micros(held['bots_cpu_us_per_decision'])} the bots'); {held['errors']} protocol errors, "
              f"{records['timeouts']} timeouts, {held['bots_lost']} connections lost")
        print(f"  server RSS: idle {rss['idle'] / 1024:.1f} MB, start {rss['start'] / 1024:.1f}, middle "
              f"{rss['middle'] / 1024:.1f}, end {rss['end'] / 1024:.1f} (+{held['server_rss_growth_kb_per_bot']} KB "
              f"per bot); records: {records['games_finished']} games finished, {records['seen_not_recorded']} of the "
              f"{records['games_seen_to_end']} the bots saw end not among them; "
              f"file {records['db_bytes'] / 1e6:.1f} MB, WAL peak {records['wal_peak_bytes'] / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
