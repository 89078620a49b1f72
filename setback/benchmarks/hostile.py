"""What hostile peers make the server hold: its peak memory under each attack, and a TCP
player's round trip meanwhile.

Each attack runs against a fresh server process with ``setback serve``'s defaults (its
limits are what is measured), recording to a SQLite file, TCP and WebSocket on loopback:

- ``hoard-250``, ``hoard-1000``: that many peers that never read (a receive buffer of 4 KB,
  reading paused), alternately over TCP and the WebSocket, a third each spectating a busy
  table (four fast bots of this harness playing as fast as they can), watching a table of
  built-in bots, or sitting in the lobby (told of every table's changes);
- ``ping-flood``: 10 WebSocket peers that never read, each sending 125-byte ping frames as
  fast as it can (and a ``pong`` message every 10 s, so the heartbeat never drops it);
- ``fragment-hoard``: 200 WebSocket peers, each sending a text message in 32,752 two-byte
  fragments, never the last;
- ``header-hoard``: 600 connections to the WebSocket's port, each sending a request of 126
  headers of 8 KB, never its end.

Figures: the server's RSS before the attack (its tables busy, the player connected) and at
its peak (sampled every 0.1 s while the attack lasts); the most the kernel held in the send
queues of the server's sockets (``/proc/net/tcp``: memory a non-reader costs the machine
that is not in the server's RSS); the round trips of a TCP player's ``ping`` (one every
50 ms; a ping unanswered when the attack ends counts as one that long) and the harness's
own worst lag (its loop waking late: that much of a round trip is the harness's); and a
census of the attackers at the end: how many connected, how many the server still holds,
how many it dropped or closed with a log line naming them (its log lines counted by event),
and how many it cut without one (which should be none). Bounded in time (``--seconds`` an
attack) and in count; loopback only.

Run: ``python -m setback.benchmarks.hostile`` or ``setback bench hostile [--attacks
hoard-250,...] [--seconds 40] [--json]``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import shutil
import socket
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.frames import Frame, Opcode

from setback import compiled
from setback.benchmarks import positive_seconds
from setback.benchmarks.server import UPGRADE, ServerProcess, Tally, _run, playing
from setback.protocol import MAX_SERVER_LINE_BYTES

BUSY_TABLES = 20
"""Tables of four fast bots of the harness, for the hoarders to spectate."""
BOT_TABLES = 20
"""Tables of built-in bots, for the hoarders to watch (each made by a reading maker)."""
RECEIVE_BUFFER = 4096
"""The receive buffer of a peer that never reads: the server's output piles up on its side."""
HELLO = b'{"type":"hello","version":"1.3","name":"hoarder %d","kind":"human"}'


@dataclass
class Probe:
    """The TCP player's pings while it runs: each round trip in seconds."""

    rtts: list[float] = field(default_factory=list)
    waiting_since: float | None = None

    def figures(self, until: float) -> dict[str, Any]:
        rtts = sorted([*self.rtts, *([until - self.waiting_since] if self.waiting_since is not None else [])])
        if not rtts:
            return {"player_pings": 0, "player_rtt_p50_ms": None, "player_rtt_max_ms": None}
        return {
            "player_pings": len(rtts),
            "player_rtt_p50_ms": round(1000 * rtts[len(rtts) // 2], 2),
            "player_rtt_p99_ms": round(1000 * rtts[min(len(rtts) - 1, int(len(rtts) * 0.99))], 2),
            "player_rtt_max_ms": round(1000 * rtts[-1], 2),
        }


async def _lines(port: int, hello: bytes) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=MAX_SERVER_LINE_BYTES)
    writer.write(hello + b"\n")
    await reader.readline()
    return reader, writer


async def _reply(reader: asyncio.StreamReader, request: int) -> dict[str, Any]:
    """The next message carrying ``request`` as its id."""
    while (message := json.loads(await reader.readline())).get("id") != request:
        pass
    return dict(message)


async def _ping_player(port: int, probe: Probe, stop: asyncio.Event) -> None:
    """A greeted TCP player that pings the server every 50 ms and times each answer."""
    reader, writer = await _lines(port, HELLO.replace(b"hoarder %d", b"player"))
    with contextlib.suppress(ConnectionError, asyncio.IncompleteReadError):
        for nonce in range(1, 10**9):
            if stop.is_set():
                break
            probe.waiting_since = time.perf_counter()
            writer.write(b'{"type":"ping","id":%d,"nonce":%d}\n' % (nonce, nonce))
            await _reply(reader, nonce)
            probe.rtts.append(time.perf_counter() - probe.waiting_since)
            probe.waiting_since = None
            await asyncio.sleep(0.05)
    writer.close()


async def _raw(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection whose receive buffer is small, so the server's output stays on its side."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RECEIVE_BUFFER)
    sock.bind(("127.0.0.1", 0))  # a port of its own: unbound, a TCP and a WebSocket attacker may share one
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    return await asyncio.open_connection(sock=sock, limit=MAX_SERVER_LINE_BYTES)


def _text(data: bytes, opcode: Opcode = Opcode.TEXT, fin: bool = True) -> bytes:
    """One frame as a client sends it (masked)."""
    return Frame(opcode, data, fin).serialize(mask=True)


POKE = Frame(Opcode.PONG, b"").serialize(mask=True)
"""What a WebSocket attacker sends at the census: a pong, which no server answers."""

async def _ws(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A WebSocket past its upgrade, with a small receive buffer."""
    reader, writer = await _raw(port)
    writer.write(UPGRADE % port)
    await reader.readuntil(b"\r\n\r\n")
    return reader, writer


class Peers:
    """The attackers' connections, all closed when the attack ends."""

    def __init__(self) -> None:
        self.writers: list[asyncio.StreamWriter] = []
        self.attackers: dict[asyncio.StreamWriter, tuple[int, bytes]] = {}
        """The connections that attack (not the reading makers of tables), each with its port
        and what it may send at the end without changing what it is (:meth:`census`)."""
        self.tasks: list[asyncio.Task[None]] = []

    def keep(self, writer: asyncio.StreamWriter, reading: bool = False, poke: bytes = b"\n") -> None:
        """Keep ``writer`` open until the attack ends; unless ``reading``, it attacks: its
        reading is paused, and ``poke`` is what it sends at the census (by default a blank line)."""
        if not reading:
            writer.transport.pause_reading()  # type: ignore[attr-defined]
            self.attackers[writer] = (writer.get_extra_info("sockname")[1], poke)
        self.writers.append(writer)

    async def census(self, log: Path) -> dict[str, int] | None:
        """The attackers the server still holds (``still_connected``), those it dropped or closed
        saying so in its log (``dropped_with_a_line``, found by their port) and those it cut
        without a line (``cut_silently``: it should be none); None where the platform cannot
        tell (no ``TCP_INFO``). Each attacker first sends its poke: a peer cut by a reset it
        could not take in (its receive window shut) learns of the cut only when it sends."""
        if not hasattr(socket, "TCP_INFO"):
            return None
        for writer, (_, poke) in self.attackers.items():
            if not writer.is_closing():
                writer.write(poke)
        await asyncio.sleep(0.5)
        named = _logged_ports(log)
        counts = {"still_connected": 0, "dropped_with_a_line": 0, "cut_silently": 0}
        for writer, (port, _) in self.attackers.items():
            sock = None if writer.is_closing() else writer.get_extra_info("socket")
            try:
                established = sock is not None and sock.getsockopt(
                    socket.IPPROTO_TCP, socket.TCP_INFO, 1)[0] == TCP_ESTABLISHED
            except OSError:
                established = False
            if port in named:
                counts["dropped_with_a_line"] += 1
            else:
                counts["still_connected" if established else "cut_silently"] += 1
        return counts

    def run(self, work: Awaitable[None]) -> None:
        self.tasks.append(asyncio.ensure_future(_quietly(work)))

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        for writer in self.writers:
            writer.transport.abort()


async def _quietly(work: Awaitable[None]) -> None:
    """An attacker's work: the server cutting it off is what it expects."""
    with contextlib.suppress(OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
        await work


async def _hoard(count: int, ws_port: int, tcp_port: int, peers: Peers) -> None:
    """``count`` peers that never read: spectators of busy tables, of bot tables, and the lobby."""
    maker_reader, maker = await _lines(tcp_port, HELLO.replace(b"hoarder %d", b"maker"))
    peers.keep(maker, reading=True)
    maker.write(b'{"type":"list_tables","id":1}\n')
    busy = [t["table"] for t in (await _reply(maker_reader, 1))["tables"]]
    watched = []
    for i in range(BOT_TABLES):
        reader, writer = await _lines(tcp_port, HELLO.replace(b"hoarder %d", b"bot table maker %d" % i))
        peers.keep(writer, reading=True)
        writer.write(b'{"type":"create_table","id":1,"bots":["random","random","random","random"],"spectate":true}\n')
        watched.append((await _reply(reader, 1))["table"]["table"])
        peers.run(_drain_reads(reader))

    async def one(i: int) -> None:
        behaviour = i % 3
        if behaviour == 0:
            asks = b'{"type":"spectate","table":"%s"}' % busy[i % len(busy)].encode()
        elif behaviour == 1:
            asks = b'{"type":"spectate","table":"%s"}' % watched[i % len(watched)].encode()
        else:
            asks = b'{"type":"list_tables"}'
        hello = HELLO % i
        if i % 2:
            _, writer = await _ws(ws_port)
            writer.write(_text(hello) + _text(asks))
            peers.keep(writer, poke=POKE)
        else:
            _, writer = await _raw(tcp_port)
            writer.write(hello + b"\n" + asks + b"\n")
            peers.keep(writer)

    for start in range(0, count, 50):
        await asyncio.gather(*(_quietly(one(i)) for i in range(start, min(count, start + 50))))


async def _drain_reads(reader: asyncio.StreamReader) -> None:
    while await reader.read(65536):
        pass


async def _ping_flood(ws_port: int, peers: Peers) -> None:
    """10 WebSocket peers sending 125-byte pings as fast as they can, never reading."""
    pings = b"".join(_text(bytes(125), Opcode.PING) for _ in range(64))
    pong = _text(b'{"type":"pong","nonce":1}')

    async def flood(i: int) -> None:
        _, writer = await _ws(ws_port)
        writer.write(_text(HELLO % i))
        peers.keep(writer, poke=POKE)
        said = time.monotonic()
        while True:
            writer.write(pings)
            await writer.drain()
            if time.monotonic() - said > 10:
                writer.write(pong)
                said = time.monotonic()

    for i in range(10):
        peers.run(flood(i))


async def _fragment_hoard(ws_port: int, peers: Peers) -> None:
    """200 WebSocket peers, each a text message in 32,752 two-byte fragments, never the last."""
    fragments = _text(b"{ ", fin=False) + b"".join(_text(b"  ", Opcode.CONT, fin=False) for _ in range(32_751))

    async def hoard(i: int) -> None:
        _, writer = await _ws(ws_port)
        writer.write(_text(HELLO % i))
        peers.keep(writer, poke=POKE)
        for start in range(0, len(fragments), 65536):
            writer.write(fragments[start:start + 65536])
            await writer.drain()

    for i in range(200):
        peers.run(hoard(i))


async def _header_hoard(ws_port: int, peers: Peers) -> None:
    """600 connections, each a request of 126 headers of 8 KB, never its end."""
    header = b"X-Hoard-%03d: " + b"h" * 8000 + b"\r\n"
    request = b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"".join(header % n for n in range(126))

    async def hoard() -> None:
        _, writer = await _raw(ws_port)
        peers.keep(writer, poke=b"X-Poke: 1\r\n")
        for start in range(0, len(request), 65536):
            writer.write(request[start:start + 65536])
            await writer.drain()

    for start in range(0, 600, 50):
        await asyncio.gather(*(_quietly(hoard()) for _ in range(start, start + 50)))


Attack = Callable[[int, int, Peers], Awaitable[None]]

ATTACKS: dict[str, tuple[int, Attack]] = {
    "hoard-250": (250, lambda ws, tcp, peers: _hoard(250, ws, tcp, peers)),
    "hoard-1000": (1000, lambda ws, tcp, peers: _hoard(1000, ws, tcp, peers)),
    "ping-flood": (10, lambda ws, tcp, peers: _ping_flood(ws, peers)),
    "fragment-hoard": (200, lambda ws, tcp, peers: _fragment_hoard(ws, peers)),
    "header-hoard": (600, lambda ws, tcp, peers: _header_hoard(ws, peers)),
}
"""Each attack: its peers, and how they attack (given the WebSocket's port and the TCP one)."""


TCP_ESTABLISHED = 1
"""``tcpi_state`` of a connection neither side has closed (Linux's ``TCP_INFO``)."""
DROPS = (
    "slow_peer_dropped", "unread_budget_exceeded", "closed_peer_not_reading", "server_full",
    "request_refused", "request_timeout",
)
"""The server's log lines that say it dropped (or refused) a peer for what it made it hold;
besides them, its ``closed`` lines are counted by their code (``closed rate_limited``: a flood)."""


async def _lag(worst: list[float]) -> None:
    """How late this process's own loop wakes (its worst, into ``worst[0]``): the part of a
    round trip that is the harness's, not the server's."""
    while True:
        began = time.perf_counter()
        await asyncio.sleep(0.01)
        worst[0] = max(worst[0], time.perf_counter() - began - 0.01)


def kernel_queued(ports: list[int]) -> int:
    """The bytes the kernel holds in the send queues of the server's sockets on ``ports``
    (Linux's ``/proc/net/tcp``; 0 elsewhere): what a peer that does not read makes the machine
    hold besides the server's own memory."""
    wanted = {f"{port:04X}" for port in ports}
    total = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table) as rows:
            next(rows, None)
            for row in rows:
                fields = row.split()
                if fields[1].rpartition(":")[2] in wanted and fields[3] == "01":  # established, from our port
                    total += int(fields[4].partition(":")[0], 16)
    return total


def _logged_ports(log: Path) -> set[int]:
    """The peers' ports the server's log lines in :data:`DROPS` (and its ``closed`` lines) name."""
    ports = set()
    with contextlib.suppress(OSError), log.open() as lines:
        for line in lines:
            with contextlib.suppress(ValueError, AttributeError, TypeError, IndexError):
                entry = json.loads(line)
                if entry.get("event") in DROPS or entry.get("event") == "closed":
                    peer = entry["peer"]  # "host:port", or [host, port] before an upgrade
                    ports.add(int(peer.rpartition(":")[2] if isinstance(peer, str) else peer[1]))
    return ports


def _drops(log: Path) -> dict[str, int]:
    """The server's log lines in :data:`DROPS`, and its ``closed`` ones, counted by event (and code)."""
    counts = dict.fromkeys(DROPS, 0)
    with contextlib.suppress(OSError), log.open() as lines:
        for line in lines:
            with contextlib.suppress(ValueError, AttributeError):
                entry = json.loads(line)
                event = entry.get("event")
                if event == "closed":
                    event = f"closed {entry.get('code')}"
                    counts.setdefault(event, 0)
                if event in counts:
                    counts[event] += 1
    return counts


async def _attack(name: str, server: ServerProcess, log: Path, seconds: float) -> dict[str, Any]:
    ws_port, tcp_port = server.ports
    count, attack = ATTACKS[name]
    probe, stop, peak, lag, queued = Probe(), asyncio.Event(), [0], [0.0], [0]
    async with playing("setback", tcp_port, BUSY_TABLES, Tally(rtts=None)):
        player = asyncio.ensure_future(_ping_player(tcp_port, probe, stop))
        await asyncio.sleep(1.0)
        before = server.rss_kb()
        probe.rtts.clear()
        peers = Peers()

        async def sample() -> None:
            for turn in range(10**9):
                peak[0] = max(peak[0], server.rss_kb())
                if turn % 5 == 0:
                    queued[0] = max(queued[0], kernel_queued(server.ports))
                await asyncio.sleep(0.1)

        sampler, lagging = asyncio.ensure_future(sample()), asyncio.ensure_future(_lag(lag))
        began = time.perf_counter()
        try:
            await asyncio.wait_for(_quietly(attack(ws_port, tcp_port, peers)), seconds)
            await asyncio.sleep(max(0.0, seconds - (time.perf_counter() - began)))
        except TimeoutError:
            pass
        ended = time.perf_counter()
        sampler.cancel()
        lagging.cancel()
        stop.set()
        figures = probe.figures(ended)
        player.cancel()
        await asyncio.gather(player, sampler, lagging, return_exceptions=True)
        census = await peers.census(log)
        await peers.close()
    return {
        "attack": name, "peers": count, "seconds": round(ended - began, 1),
        "rss_before_mb": round(before / 1024, 1), "rss_peak_mb": round(peak[0] / 1024, 1),
        "rss_growth_mb": round((peak[0] - before) / 1024, 1), **figures,
        "harness_lag_max_ms": round(1000 * lag[0], 1), "kernel_queued_peak_mb": round(queued[0] / 2**20, 1),
        "peers_connected": len(peers.attackers), "census": census,
    }


def measure(name: str, seconds: float) -> dict[str, Any]:
    """One attack against a fresh server: its figures, and the server's log lines that say
    it dropped or refused a peer (``dropped``)."""
    folder = Path(tempfile.mkdtemp(prefix="setback-hostile-"))
    log = folder / "server.log"
    server = ServerProcess("shipped", log=log)
    try:
        result: dict[str, Any] = {}

        async def go() -> None:
            result.update(await _attack(name, server, log, seconds))

        _run(go())
    finally:
        server.stop()
    result["dropped"] = _drops(log)
    shutil.rmtree(folder, ignore_errors=True)
    return result


def attack_names(text: str) -> list[str]:
    """An argparse type: attacks named with commas."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in ATTACKS]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"attacks are {', '.join(ATTACKS)}; not {text!r}")
    return names


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="setback bench hostile", description=__doc__.split("\n")[0])
    parser.add_argument("--attacks", type=attack_names, default=list(ATTACKS),
                        help=f"attacks to run, with commas (default all: {','.join(ATTACKS)})")
    parser.add_argument(
        "--seconds", type=positive_seconds, default=40.0,
        help="how long each attack lasts (default 40: a hoarder's first 4 MB fill the kernel's buffers)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the attackers' sockets (the server raises its own)
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    rows = [measure(name, args.seconds) for name in args.attacks]
    result = {"build": compiled.STATUS, "open_files_soft_limit": soft, "attacks": rows}
    if args.json:
        print(json.dumps(result))
        return
    print(f"server hot path: {result['build']}")
    print(f"{'attack':>15} {'peers':>6} {'RSS before':>11} {'peak':>9} {'growth':>9} "
          f"{'kernel':>8} {'player p50':>11} {'p99':>9} {'max':>9} {'pings':>6} {'own lag':>9} {'in/held/cut':>12}  "
          "dropped")
    for row in rows:
        dropped = ", ".join(f"{n} {event}" for event, n in row["dropped"].items() if n) or "none"
        census = row["census"] or {}
        held = f"{row['peers_connected']}/{census.get('still_connected', '?')}/{census.get('cut_silently', '?')}"
        print(f"{row['attack']:>15} {row['peers']:>6} {row['rss_before_mb']:>9}MB {row['rss_peak_mb']:>7}MB "
              f"{row['rss_growth_mb']:>+7}MB {row['kernel_queued_peak_mb']:>6}MB {_ms(row['player_rtt_p50_ms']):>11} "
              f"{_ms(row.get('player_rtt_p99_ms')):>9} {_ms(row['player_rtt_max_ms']):>9} {row['player_pings']:>6} "
              f"{_ms(row['harness_lag_max_ms']):>9} {held:>12}  {dropped}")
    print("kernel: the most the kernel held in the server's send queues (not in its RSS); own lag: the harness's "
          "own worst wake-up delay (part of every round trip it times); in/held/cut: the attackers that connected, "
          "those the server still held at the end, those it cut without a log line")


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value}ms"


if __name__ == "__main__":
    main()
