"""Coverage-guided fuzzing of everything the server does with a peer's bytes (atheris).

Each input is split into chunks and fed to one connection of an in-process server (no
sockets: a recording transport), after an optional hello and a seat at a table with a
game in play. Nothing may escape as an exception; every byte the server writes back must
decode as a valid server message; none may hold a card the peer could not see.

Long runs: ``pip install atheris`` then ``mkdir corpus; python fuzz/server_input.py corpus -runs=1000000 -max_len=512``
(libFuzzer options apply). Without atheris, ``python fuzz/server_input.py N`` runs N
seeded random inputs, and the test suite runs a few hundred that way.
"""

from __future__ import annotations

import asyncio
import logging
import random
import sys
from typing import Any

from setback.protocol import decode_server, encode
from setback.protocol.messages import CreateTable, Decide, Hello, Join, Snapshot, WireRules
from setback.server.app import Server
from setback.server.config import ServerConfig
from setback.server.connection import Connection


class RecordingTransport:
    """Stands in for a socket: keeps what the server writes."""

    def __init__(self) -> None:
        self.written = bytearray()
        self.closed = False

    def write(self, data: bytes) -> None:
        self.written += data

    def writelines(self, lines: list[bytes]) -> None:
        for line in lines:
            self.written += line

    def get_write_buffer_size(self) -> int:
        return 0

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def abort(self) -> None:
        self.closed = True

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return ("127.0.0.1", 9) if name == "peername" else default


def _connect(server: Server) -> tuple[Connection, RecordingTransport]:
    connection = Connection(server)
    transport = RecordingTransport()
    connection.connection_made(transport)  # type: ignore[arg-type]
    return connection, transport


async def _one_input(data: bytes) -> None:
    server = Server(ServerConfig(host="127.0.0.1", port=0))
    # a game in play that the fuzzed peer may poke at: two seated peers
    players = [_connect(server) for _ in range(2)]
    for i, (connection, _) in enumerate(players):
        connection.data_received(encode(Hello(version="1.0", name=f"p{i}", kind="bot")))
    players[0][0].data_received(encode(CreateTable(rules=WireRules(players=3), seed=1)))
    for seat, (connection, _) in enumerate(players):
        connection.data_received(encode(Join(table="t1", seat=seat, ready=True)))
    peer, transport = _connect(server)
    mode, body = (data[0] if data else 0), data[1:]
    if mode & 1:
        peer.data_received(encode(Hello(version="1.0", name="fuzz", kind="bot")))
    if mode & 2:
        peer.data_received(encode(Join(table="t1", ready=True)))
    step = 1 + (mode >> 2) % 64
    for start in range(0, len(body), step):
        peer.data_received(body[start : start + step])
    await server.stop()
    for line in bytes(transport.written).splitlines():
        message = decode_server(line)
        if isinstance(message, Snapshot | Decide):
            view = message.view
            assert view.seat in {None, 2}, "the fuzzed peer saw another seat's view"


def test_one_input(data: bytes) -> None:
    """The fuzz target: one input, one fresh server."""
    asyncio.run(_one_input(data))


def random_inputs(count: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    pieces = [b'{"type":"act","request":1,"action":"pass"}\n', b'{"type":"join","table":"t1"}\n',
              b'{"type":"hello","version":"1.0","name":"x"}\n', b"\xff\x00{[", b"\n", b'"', b"}" * 50]
    for _ in range(count):
        parts = [rng.choice(pieces) if rng.random() < 0.6 else rng.randbytes(rng.randrange(40)) for _ in range(8)]
        test_one_input(bytes([rng.randrange(256)]) + b"".join(parts))


if __name__ == "__main__":
    from setback import logs

    logs.configure(level=logging.WARNING)
    if len(sys.argv) > 1 and sys.argv[1].isdigit():
        random_inputs(int(sys.argv[1]))
    else:
        import atheris

        atheris.instrument_all()  # coverage of every module loaded, ours above all
        atheris.Setup(sys.argv, test_one_input)
        atheris.Fuzz()
