"""Coverage-guided fuzzing of the browser table's HTTP request reader (atheris).

Each input is what a peer sends the browser table's port before any upgrade (a request
line and headers, maybe a body, maybe a second request or frames after them), fed in
chunks to one :class:`~setback.web.transport.WebPeer` of an in-process server (no sockets:
a recording transport), and by its first byte followed by the end of its stream. Nothing
may escape as an exception and the server may log no error; whatever it answers is one
HTTP/1.1 response that carries every header an answer promises (spec.md: the
Content-Security-Policy and the rest of ``setback.web.site.HEADERS``), a ``Content-Length``
that is its body's (none to a HEAD), and a status among those the page's port answers;
a request the server did not answer leaves it holding nothing once the peer is gone.

It runs the server's Python sources, compiled install or not (``fuzz/harness.py``), and
websockets' own request parser is fuzzed with it. ``python fuzz/http_request.py corpus/
-max_total_time=600`` fuzzes with atheris; ``python fuzz/http_request.py N`` runs N seeded
mutations of :data:`SEEDS` without it.
"""

from __future__ import annotations

import asyncio
import sys

from harness import chunks, run, table_in_play, web_peer

from setback.web.site import HEADERS

STATUSES = {101, 200, 400, 403, 404, 405, 413, 414, 426, 431, 503, 505}
"""What the page's port may answer: the upgrade, a file or record, and its refusals (505: an
upgrade asked over HTTP/1.0)."""
KEY = b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"

SEEDS = [
    b"\x00GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    b"\x01HEAD /evening HTTP/1.1\r\nHost: localhost:80\r\nAccept: */*\r\n\r\n",
    b"\x02GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" + KEY
    + b"Origin: http://127.0.0.1\r\n\r\n\x81\x80\x00\x00\x00\x00",
    b"\x03GET /api/games?limit=5 HTTP/1.1\r\nHost: x\r\n\r\nGET /api/leaderboard HTTP/1.1\r\nHost: x\r\n\r\n",
    b"\x04DELETE /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 4\r\n\r\nbody",
    b"\x05OPTIONS * HTTP/1.0\r\n\r\n",
    b"\x07GET /ws HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 8\r\n"
    + b"X-Long: " + b"v" * 4000 + b"\r\n\r\n",
    b"\x09GET /api/games/1/replay HTTP/1.1\r\nHost: [::1]\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    b"\x02GET /ws HTTP/1.0\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" + KEY + b"\r\n",
]
"""Where the mutator starts from (the first byte: its low bit, the stream ends after the
input; the rest, how the bytes are cut)."""


async def _one_input(data: bytes) -> None:
    server = table_in_play()
    peer, transport = web_peer(server)
    mode, body = (data[0] if data else 0), data[1:]
    for chunk in chunks(body, 1 + (mode >> 1) * 61):
        peer.data_received(chunk)
        await asyncio.sleep(0)
    if mode & 1 and not transport.closed:
        peer.eof_received()
    written = bytes(transport.written)
    if written:
        _check_answer(written, head_request=body.startswith(b"HEAD "))
    await server.stop()
    peer.connection_lost(None)
    assert peer not in server.opening and peer.held == 0, "the peer's request is still held"


def _check_answer(written: bytes, head_request: bool) -> None:
    """The server's answer, as the docstring says."""
    assert written.startswith(b"HTTP/1.1 "), written[:100]
    head, _, rest = written.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("ascii").split("\r\n")
    status = int(status_line.split(" ")[1])
    assert status in STATUSES, status_line
    headers = {name.lower(): value for name, _, value in (line.partition(": ") for line in lines)}
    if status == 101:
        return
    for name, value in HEADERS:
        assert headers.get(name.lower()) == value, f"{status_line} without {name}"
    length = int(headers["content-length"])
    assert len(rest) == (0 if head_request else length), f"{status_line}: {len(rest)} bytes, Content-Length {length}"


def test_one_input(data: bytes) -> None:
    """The fuzz target: one input, one fresh server."""
    asyncio.run(_one_input(data))


if __name__ == "__main__":
    run(test_one_input, SEEDS, sys.argv)
