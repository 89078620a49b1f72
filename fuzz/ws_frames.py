"""Coverage-guided fuzzing of the browser table's WebSocket framing (atheris).

Each input is a sequence of frames a peer sends after its upgrade, fed in chunks to one
:class:`~setback.web.transport.WebPeer` of an in-process server (no sockets: a recording
transport) whose table has a game in play, after an optional hello and seat in text frames.
The frames are built from the input (:func:`frames`): any first byte (FIN, RSV bits, any
opcode, reserved ones too), any length, masked or not, so that the mutator reaches the
parser's checks; or, by the input's first byte, its bytes as they come. Nothing may escape
as an exception and the server may log no error; what it writes back must be one HTTP 101
answer and then unmasked frames, each text frame a valid server message (none ``internal``,
no other seat's view), a close frame's code one RFC 6455 lets a frame carry (never 1005, 1006 or 1015).

It runs the server's Python sources, compiled install or not (``fuzz/harness.py``), and
websockets' own parser is fuzzed with it. ``python fuzz/ws_frames.py corpus/
-max_total_time=600`` fuzzes with atheris; ``python fuzz/ws_frames.py N`` runs N seeded
mutations of :data:`SEEDS` without it.
"""

from __future__ import annotations

import asyncio
import sys

from harness import check_sent, chunks, run, table_in_play, web_peer

UPGRADE = (
    b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
)
MASK = b"\x37\xfa\x21\x3d"
CLOSE_CODES = {1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, *range(3000, 5000)}
"""The close codes a frame may carry (RFC 6455 7.4): the server's own, or the peer's echoed."""


def frame(first: int, payload: bytes, masked: bool = True) -> bytes:
    """One frame as a client sends it: its first byte as given, then its length and (masked)
    payload."""
    size = len(payload)
    mask_bit = 0x80 if masked else 0
    if size < 126:
        head = bytes([first, mask_bit | size])
    elif size < 1 << 16:
        head = bytes([first, mask_bit | 126]) + size.to_bytes(2, "big")
    else:
        head = bytes([first, mask_bit | 127]) + size.to_bytes(8, "big")
    if not masked:
        return head + payload
    return head + MASK + bytes(b ^ MASK[i % 4] for i, b in enumerate(payload))


def frames(data: bytes) -> bytes:
    """The frames an input describes: each is its first byte, a byte whose low 7 bits are the
    length of its payload (high bit: unmasked), then the payload; a payload of 125 bytes is
    repeated 8 times (a frame longer than 125 bytes, or a message past the limit, in a few)."""
    out, at = bytearray(), 0
    while at + 2 <= len(data):
        first, length = data[at], data[at + 1]
        payload = data[at + 2 : at + 2 + (length & 0x7F)]
        at += 2 + len(payload)
        out += frame(first, payload * 8 if len(payload) == 125 else payload, masked=not length & 0x80)
    return bytes(out)


def text(message: bytes) -> bytes:
    """A whole text message in one masked frame (FIN, opcode 1)."""
    return frame(0x81, message)


SEEDS = [
    b"\x00" + b"\x81\x17" + b'{"type":"ping","id":7}\n' + b"\x89\x03abc" + b"\x8a\x00" + b"\x81\x01\n",
    b"\x02" + b"\x01\x0a" + b'{"type":"p' + b"\x80\x0c" + b'ing","id":1}' + b"\x00\x00" * 3 + b"\x81\x01{",
    b"\x0e" + b"\x82\x04\x00\x01\x02\x03" + b"\x81\x82\xff\xfe" + b"\xc1\x02{}" + b"\x83\x00" + b"\x09\x01x",
    b"\x06" + b'\x81\x2a{"type":"act","request":1,"action":"pass"}' + b"\x81\x7d" + b" " * 125,
    b"\x03" + frame(0x81, b'{"type":"hello","version":"1.0","name":"raw"}') + frame(0x88, b"\x03\xe8bye"),
]
"""Where the mutator starts from (the first byte: its low bit, raw bytes rather than frames
described; the next two, greet and sit first; the rest, how the bytes are cut)."""


async def _one_input(data: bytes) -> None:
    server = table_in_play()
    peer, transport = web_peer(server)
    mode, body = (data[0] if data else 0), data[1:]
    sent = UPGRADE
    if mode & 2:
        sent += text(b'{"type":"hello","version":"1.0","name":"fuzz","kind":"bot"}')
    if mode & 4:
        sent += text(b'{"type":"join","table":"t1","ready":true}')
    sent += body if mode & 1 else frames(body)
    for chunk in chunks(sent, 1 + (mode >> 3) * 37):
        peer.data_received(chunk)
        await asyncio.sleep(0)  # the end of the loop's turn: the server records and writes
    await server.stop()
    peer.connection_lost(None)
    written = bytes(transport.written)
    assert written.startswith(b"HTTP/1.1 101 "), written[:200]
    _check_frames(written[written.index(b"\r\n\r\n") + 4 :])


def _check_frames(sent: bytes) -> None:
    """What the server sent after its 101: whole unmasked frames, each as the docstring says."""
    at = 0
    while at < len(sent):
        first, second = sent[at], sent[at + 1]
        assert second & 0x80 == 0, "a server's frame is never masked"
        size, at = second & 0x7F, at + 2
        if size == 126:
            size, at = int.from_bytes(sent[at : at + 2], "big"), at + 2
        elif size == 127:
            size, at = int.from_bytes(sent[at : at + 8], "big"), at + 8
        payload, at = sent[at : at + size], at + size
        assert len(payload) == size, "a frame cut short"
        assert first & 0x80, "the server sends no fragments"
        opcode = first & 0x0F
        assert opcode in {0x1, 0x8, 0x9, 0xA}, f"opcode {opcode}"
        if opcode == 0x1:
            check_sent(payload)
        elif opcode == 0x8 and payload:
            assert int.from_bytes(payload[:2], "big") in CLOSE_CODES, payload
            payload[2:].decode()


def test_one_input(data: bytes) -> None:
    """The fuzz target: one input, one fresh server."""
    asyncio.run(_one_input(data))


if __name__ == "__main__":
    run(test_one_input, SEEDS, sys.argv)
