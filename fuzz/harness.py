"""What the fuzz targets share: the Python sources, a socket that records, and the run.

Import it before anything of ``setback``: from then on the server's hot path is imported
from its ``.py`` files even where the install compiled it with mypyc, because atheris
follows coverage in Python's bytecode only (on the compiled modules a target found 534
edges and stopped; on the Python, 983). :func:`run` refuses to start when a compiled
module was imported all the same (a target that imported ``setback`` first).

:func:`run` runs a target: ``python fuzz/TARGET.py N`` tries N inputs made from the target's
seeds by a seeded random mutator (no atheris needed; ``--seed S``), and anything else is
handed to atheris and libFuzzer (``python fuzz/TARGET.py corpus/ -max_total_time=600``),
whose empty corpus folder is first given the seeds.
"""

from __future__ import annotations

import functools
import importlib
import random
import time
import traceback
from collections.abc import Callable, MutableMapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from setback import compiled

if TYPE_CHECKING:
    from setback.server.app import Server
    from setback.server.connection import Connection
    from setback.web.site import Site
    from setback.web.transport import WebPeer

compiled.from_source()

PIECES = (b"\n", b"\r\n", b"\r\n\r\n", b"\x00", b"\xff", b"{", b"}", b'"', b":", b",", b"\xc3", b"\x80" * 3)
"""Bytes the mutator inserts besides random ones: the separators and the UTF-8 edges."""


class RecordingTransport:
    """Stands in for a socket: keeps what the server writes, and whether it closed."""

    def __init__(self) -> None:
        self.written = bytearray()
        self.closed = False

    def write(self, data: bytes) -> None:
        if not self.closed:
            self.written += data

    def writelines(self, lines: Sequence[bytes]) -> None:
        for line in lines:
            self.write(line)

    def get_write_buffer_size(self) -> int:
        return 0

    def pause_reading(self) -> None:
        """(A socket stops reading; the input is handed over whole anyway.)"""

    def resume_reading(self) -> None:
        """(A socket reads again.)"""

    def is_closing(self) -> bool:
        return self.closed

    def can_write_eof(self) -> bool:
        return True

    def write_eof(self) -> None:
        self.closed = True

    def close(self) -> None:
        self.closed = True

    def abort(self) -> None:
        self.closed = True

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return ("127.0.0.1", 9) if name == "peername" else default


def fail_on_errors() -> None:
    """From now on, the server logging an error (an exception of its own, a bug it caught to
    serve on) raises it where it is logged, so that the fuzzer sees it as a crash."""
    import structlog

    processors = structlog.get_config()["processors"]
    if raise_on_error not in processors:
        structlog.configure(processors=[raise_on_error, *processors])


def raise_on_error(logger: Any, method: str, event: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    """A structlog processor: an error logged is raised (with the traceback it was logged with)."""
    if method in {"error", "exception", "critical", "fatal"}:
        caught = traceback.format_exc() if event.get("exc_info") else ""
        raise AssertionError(f"the server logged an error: {dict(event)}\n{caught}")
    return event


def table_in_play() -> Server:
    """A fresh server (in memory, no sockets) with a three-player table whose game is in play:
    two peers seated at ``t1``, the third seat for the fuzzed peer to take or poke at."""
    from setback.protocol import encode
    from setback.protocol.messages import CreateTable, Hello, Join, WireRules
    from setback.server.app import Server
    from setback.server.config import ServerConfig

    server = Server(ServerConfig(host="127.0.0.1", port=0))
    players = [connect(server)[0] for _ in range(2)]
    for i, connection in enumerate(players):
        connection.data_received(encode(Hello(version="1.0", name=f"p{i}", kind="bot")))
    players[0].data_received(encode(CreateTable(rules=WireRules(players=3), seed=1)))
    for seat, connection in enumerate(players):
        connection.data_received(encode(Join(table="t1", seat=seat, ready=True)))
    return server


def connect(server: Server) -> tuple[Connection, RecordingTransport]:
    """A TCP peer of ``server``'s, as its connection and the transport it writes to."""
    from setback.server.connection import Connection

    connection = Connection(server)
    transport = RecordingTransport()
    connection.connection_made(transport)  # type: ignore[arg-type]
    return connection, transport


def web_peer(server: Server) -> tuple[WebPeer, RecordingTransport]:
    """A peer of ``server``'s browser table port (served at ``http://127.0.0.1:80``), its
    request not sent yet, and the transport it writes to."""
    from setback.web.transport import WebPeer

    peer, transport = WebPeer(server, _site()), RecordingTransport()
    peer.connection_made(transport)  # type: ignore[arg-type]
    return peer, transport


@functools.cache
def _site() -> Site:
    """The browser table's answers (its files read once for every input)."""
    from setback.web.site import Site, own_hosts

    return Site(tls=False, hosts=own_hosts("127.0.0.1", ""), port=80)


def check_sent(line: bytes) -> None:
    """A line the server sent the fuzzed peer: a valid server message, not ``internal`` (a bug),
    and no view but the fuzzed peer's own (seat 2, or a spectator's)."""
    from setback.protocol import Code, decode_server
    from setback.protocol.messages import Decide, Error, Snapshot

    message = decode_server(line)
    assert not (isinstance(message, Error) and message.code is Code.INTERNAL), message
    if isinstance(message, Snapshot | Decide):
        assert message.view.seat in {None, 2}, "the fuzzed peer saw another seat's view"


def chunks(data: bytes, step: int) -> list[bytes]:
    """``data`` as the socket may hand it over: pieces of ``step`` bytes (the last shorter)."""
    return [data[start : start + step] for start in range(0, len(data), step)]


def mutate(seeds: Sequence[bytes], rng: random.Random) -> bytes:
    """One input: a seed changed by one to four edits (a byte flipped, bytes inserted, a span
    deleted or repeated, a splice with another seed)."""
    data = bytearray(rng.choice(seeds))
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(data) + 1)
        edit = rng.randrange(5)
        if edit == 0 and data:
            data[min(at, len(data) - 1)] ^= 1 << rng.randrange(8)
        elif edit == 1:
            data[at:at] = rng.choice(PIECES) if rng.random() < 0.5 else rng.randbytes(rng.randint(1, 8))
        elif edit == 2:
            del data[at : at + rng.randint(1, 16)]
        elif edit == 3:
            data[at:at] = data[at : at + rng.randint(1, 64)] * rng.randint(1, 4)
        else:
            other = rng.choice(seeds)
            data[at:] = other[rng.randrange(len(other) + 1) :]
    return bytes(data)


def random_inputs(target: Callable[[bytes], None], seeds: Sequence[bytes], count: int, seed: int = 0) -> None:
    """The target on its seeds, then on ``count`` mutated inputs (seeded: the same each run)."""
    rng = random.Random(seed)
    for data in seeds:
        target(data)
    for _ in range(count):
        target(mutate(seeds, rng))


def run(target: Callable[[bytes], None], seeds: Sequence[bytes], argv: list[str]) -> None:
    """A target's command line (see the module's docstring)."""
    import logging

    from setback import logs

    compiled_now = compiled.loaded_compiled()
    if compiled_now:
        raise SystemExit(
            f"fuzz: {', '.join(compiled_now)} imported compiled: atheris cannot see into them. Import "
            "fuzz/harness.py before setback (or install with SETBACK_COMPILE=0)"
        )
    logs.configure(level=logging.ERROR)  # a fuzzed peer makes the server log warnings on most inputs
    fail_on_errors()
    if len(argv) > 1 and argv[1].isdigit():
        seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 0
        began = time.perf_counter()
        random_inputs(target, seeds, int(argv[1]), seed)
        seconds = time.perf_counter() - began
        count = int(argv[1]) + len(seeds)
        print(f"{count} inputs in {seconds:.1f} s ({count / seconds:.0f} a second), no failure")
        return
    try:
        import atheris
    except ImportError:
        raise SystemExit(
            "fuzz: atheris is not installed (pip install -e '.[fuzz]'); without it, "
            f"python {argv[0]} N runs N seeded random inputs"
        ) from None
    folders = [Path(arg) for arg in argv[1:] if not arg.startswith("-")]
    if folders and folders[0].is_dir() and not any(folders[0].iterdir()):
        for i, data in enumerate(seeds):
            (folders[0] / f"seed-{i}").write_bytes(data)
    for module in (*compiled.MODULES, "setback.web.transport"):  # all of the hot path, before it is instrumented
        importlib.import_module(module)
    atheris.instrument_all()  # coverage of every Python module loaded: ours, and websockets' parser
    atheris.Setup(argv, target)
    atheris.Fuzz()
