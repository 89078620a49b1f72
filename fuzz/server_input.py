"""Coverage-guided fuzzing of everything the server does with a TCP peer's lines (atheris).

Each input is split into chunks and fed to one connection of an in-process server (no
sockets: a recording transport), after an optional hello and a seat at a table with a
game in play. Nothing may escape as an exception and the server may log no error (its
own exceptions, caught to serve on, are bugs); every byte it writes back must decode as
a valid server message, none ``internal``; none may hold a card the peer could not see.

It runs the server's Python sources, compiled install or not (``fuzz/harness.py``: atheris
cannot see into mypyc's extensions). ``python fuzz/server_input.py corpus/
-max_total_time=600`` fuzzes with atheris (``pip install atheris``; libFuzzer's options
apply); ``python fuzz/server_input.py N`` runs N seeded mutations of :data:`SEEDS`
without it, as the tests do (``tests/test_fuzz_targets.py``).
"""

from __future__ import annotations

import asyncio
import sys

from harness import check_sent, chunks, connect, run, table_in_play

from setback.protocol import encode
from setback.protocol.messages import Hello, Join

SEEDS = [
    b"\x03" + b'{"type":"act","request":1,"action":"pass"}\n{"type":"ping","id":1}\n',
    b"\x01" + b'{"type":"join","table":"t1"}\n{"type":"spectate","table":"t1"}\n{"type":"leave"}\n',
    b"\x00" + b'{"type":"hello","version":"1.0","name":"x"}\n{"type":"list_tables","id":"a"}\n',
    b"\x05" + b'{"type":"create_table","rules":{"players":2},"seed":3}\n{"type":"chat","text":"hi"}\n',
    b"\x09" + b'{"type":"hello","version":"9","name":""}\n\xff\x00{[\n' + b"}" * 50,
]
"""Where the mutator starts from (its first byte: greet and sit first, and how the rest is cut)."""


async def _one_input(data: bytes) -> None:
    server = table_in_play()
    peer, transport = connect(server)
    mode, body = (data[0] if data else 0), data[1:]
    if mode & 1:
        peer.data_received(encode(Hello(version="1.0", name="fuzz", kind="bot")))
    if mode & 2:
        peer.data_received(encode(Join(table="t1", ready=True)))
    for chunk in chunks(body, 1 + (mode >> 2) % 64):
        peer.data_received(chunk)
        await asyncio.sleep(0)  # the end of the loop's turn: the server records and writes
    await server.stop()
    for line in bytes(transport.written).splitlines():
        check_sent(line)


def test_one_input(data: bytes) -> None:
    """The fuzz target: one input, one fresh server."""
    asyncio.run(_one_input(data))


if __name__ == "__main__":
    run(test_one_input, SEEDS, sys.argv)
