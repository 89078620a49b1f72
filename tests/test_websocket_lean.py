"""The WebSocket's lean path: a whole masked text frame is read, and each line written as a
text frame, without ``websockets``' parser; every other frame still goes to it. Whatever the
frames and however the socket cuts them, the connection must be handed what ``websockets``
alone would hand it, and the peer must be answered the same bytes."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import pytest
from sockets import UPGRADE, Socket
from websockets.frames import Frame, Opcode
from websockets.protocol import State

from setback.server.app import Server
from setback.server.config import ServerConfig
from setback.server.connection import Connection
from setback.web.site import Site
from setback.web.transport import FRAME_LIMIT_FACTOR, WebPeer

LINE_BYTES = 256
LIMIT = FRAME_LIMIT_FACTOR * LINE_BYTES
"""The longest frame the peer reads (the WebSocket's ``max_size``)."""


class Recorder:
    """A connection that records what its transport hands it (and closes on ``bye``).

    It wraps a real :class:`Connection` rather than subclassing it: with the hot path
    compiled, ``Connection`` is a mypyc class, which interpreted classes cannot extend.
    Everything but the three calls recorded goes to the real connection, attributes set
    by the transport (``input_held``) too, so its accounting is the real one."""

    def __init__(self, server: Server) -> None:
        object.__setattr__(self, "inner", Connection(server))
        object.__setattr__(self, "got", [])
        self.inner: Connection
        self.got: list[tuple[str, bytes]]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self.inner, name, value)

    def message_received(self, message: bytes) -> None:
        self.got.append(("text", message))
        if message == b"bye" and self.inner.transport is not None:
            self.inner.transport.close()

    def binary_received(self) -> None:
        self.got.append(("binary", b""))

    def control_received(self) -> None:
        self.got.append(("control", b""))


def frame(first: int, payload: bytes, rng: random.Random, masked: bool = True, wide: int = 0) -> bytes:
    """A frame as a client sends it: ``first`` (FIN, RSV, opcode), its length (in at least
    ``wide`` extra bytes: 0, 2 or 8) and its payload, masked with a mask of ``rng``'s."""
    size = len(payload)
    bit = 0x80 if masked else 0
    if size < 126 and not wide:
        head = bytes((first, bit | size))
    elif size < 1 << 16 and wide != 8:
        head = bytes((first, bit | 126)) + size.to_bytes(2, "big")
    else:
        head = bytes((first, bit | 127)) + size.to_bytes(8, "big")
    if not masked:
        return head + payload
    mask = rng.randbytes(4)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def text(message: bytes, rng: random.Random, wide: int = 0) -> bytes:
    return frame(0x81, message, rng, wide=wide)


def some_frames(rng: random.Random) -> list[bytes]:
    """A few frames of every kind a peer may send, the malformed ones too."""

    def message() -> bytes:
        return b'{"n":%d,"pad":"%s"}' % (rng.randrange(1000), b"x" * rng.choice((0, 5, 110, 130, 300, 900)))

    def fragments() -> list[bytes]:
        pieces = [frame(0x01, message(), rng)]
        for _ in range(rng.randrange(3)):
            pieces.append(frame(0x00, rng.choice((b"more", b"\xc3")), rng))  # (UTF-8 only whole)
            if rng.random() < 0.5:
                pieces.append(frame(0x89, b"ping", rng))
        return [*pieces, frame(0x80, rng.choice((b"end", b"\xa9")), rng)]

    kinds: list[Callable[[], list[bytes]]] = [
        lambda: [text(message(), rng)],
        lambda: [text(message(), rng, wide=rng.choice((2, 8)))],
        lambda: [text(b"", rng)],
        lambda: [text("é ♠".encode(), rng)],
        fragments,
        lambda: [frame(0x89, b"p" * rng.randrange(10), rng)],
        lambda: [frame(0x8A, b"", rng)],
        lambda: [frame(0x82, b"\x00\x01", rng)],
        lambda: [text(b"\xff\xfe", rng)],  # not UTF-8: 1007
        lambda: [text(b"bye", rng)],  # the connection closes: the peer's close answers
        lambda: [frame(0x88, (1000).to_bytes(2, "big") + b"done", rng)],  # the peer closes
        lambda: [frame(0x81, b"unmasked", rng, masked=False)],  # 1002
        lambda: [frame(0xC1, b"rsv1", rng)],  # 1002
        lambda: [frame(0x83, b"opcode 3", rng)],  # 1002
        lambda: [frame(0x80, b"a stray continuation", rng)],  # 1002
        lambda: [frame(0x01, b"first", rng), text(b"a text frame amid fragments", rng)],  # 1002
        lambda: [text(b"y" * (LIMIT + 1), rng)],  # 1009
    ]
    weights = [16, 2, 1, 1, 3, 3, 1, 1] + [0.3] * 9
    return [f for _ in range(rng.randrange(1, 14)) for f in rng.choices(kinds, weights)[0]()]


def cut(data: bytes, rng: random.Random) -> list[bytes]:
    """``data`` as a socket might hand it over: in one piece, bytes at a time, or at random."""
    style = rng.randrange(3)
    if style == 0:
        return [data]
    if style == 1:
        return [data[i : i + 1] for i in range(len(data))]
    cuts = sorted(rng.sample(range(1, len(data)), min(len(data) - 1, rng.randrange(1, 12)))) if len(data) > 1 else []
    return [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True)]


def upgraded(lean: bool = True) -> tuple[WebPeer, Socket, Recorder]:
    server = Server(ServerConfig(host="127.0.0.1", port=0, max_line_bytes=LINE_BYTES))
    peer, socket = WebPeer(server, Site(tls=False), lean=lean), Socket()
    peer.connection_made(socket)
    peer.data_received(UPGRADE)
    assert peer.connection is not None
    server.release(peer.connection)
    connection = Recorder(server)
    peer.connection = connection  # type: ignore[assignment]  # a stand-in with the calls the peer makes
    connection.connection_made(peer)  # (as the upgrade does)
    socket.written.clear()
    return peer, socket, connection


async def fed(pieces: list[bytes], lean: bool = True) -> tuple[list[tuple[str, bytes]], bytes, State, WebPeer]:
    """What a peer's connection was handed and what it wrote back, for ``pieces`` read in turn."""
    peer, socket, connection = upgraded(lean)
    for piece in pieces:
        peer.data_received(piece)
        await asyncio.sleep(0)
    peer.eof_received()
    return connection.got, bytes(socket.written), peer.protocol.state, peer


async def test_any_frames_however_cut_are_read_as_websockets_alone_reads_them() -> None:
    """Seeded streams of every kind of frame, cut at random: the lean peer hands its connection
    the same messages, control frames and binaries, in the same order, writes the same pongs
    and close frames, and ends in the same state, as a peer on which ``websockets`` parses
    every frame, read a frame at a time."""
    rng = random.Random(32)
    read_lean = 0
    for _ in range(500):
        frames = some_frames(rng)
        data = b"".join(frames)
        reference = await fed(frames, lean=False)
        lean = await fed(cut(data, rng))
        assert lean[:3] == reference[:3], frames
        read_lean += lean[3].lean
    assert read_lean > 50, "some streams were read lean to their end"


async def test_reads_of_one_frame_each_are_read_as_websockets_alone_reads_them() -> None:
    """Each read exactly one frame (as a bot's act comes, the common read the peer takes first):
    the short text frames among them (empty, 125 bytes, not UTF-8, ``bye``, over a tiny limit
    never) and every other kind, in seeded streams, are handed over and answered as
    ``websockets`` alone does."""
    rng = random.Random(33)
    for _ in range(300):
        frames = some_frames(rng)
        frames += [text(b"", rng), text(b"w" * 125, rng), text(b"\xff", rng), text(b"bye", rng)][: rng.randrange(5)]
        reference = await fed(frames, lean=False)
        assert (await fed(frames))[:3] == reference[:3], frames


async def test_a_message_in_fragments_with_control_frames_between_is_one_message_and_lean_goes_on() -> None:
    """Fragments, a ping and a pong between them, then a whole text frame: one message, the
    controls in their places, the ping answered, and the frame after read lean again."""
    rng = random.Random(1)
    data = (frame(0x01, b'{"a":', rng) + frame(0x89, b"hi", rng) + frame(0x00, b"1,", rng)
            + frame(0x8A, b"", rng) + frame(0x80, b'"b":2}', rng) + text(b"next", rng))
    got, written, state, peer = await fed([data])
    assert got == [("control", b""), ("control", b""), ("text", b'{"a":1,"b":2}'), ("text", b"next")]
    assert written == Frame(Opcode.PONG, b"hi").serialize(mask=False)
    assert peer.lean and state is State.CLOSED  # (closed by the end of the stream)


async def test_a_text_frame_cut_at_any_byte_is_one_message_and_lean_goes_on() -> None:
    """A frame cut anywhere (in its header, its mask, its payload) is read whole once the
    rest comes, and the next frame is read lean; what is held meanwhile counts as the peer's
    (but for the header and mask ``websockets`` has read: 8 bytes at most)."""
    rng = random.Random(2)
    first, second = text(b"x" * 200, rng), text(b"after", rng)  # (a 16-bit length)
    for at in range(1, len(first)):
        peer, _, connection = upgraded()
        peer.data_received(first[:at])
        assert connection.input_held >= (at if at < 4 else at - 8) and connection.got == []
        peer.data_received(first[at:] + second)
        assert connection.got == [("text", b"x" * 200), ("text", b"after")], at
        assert peer.lean and connection.input_held == 0


async def test_a_frame_past_the_limit_closes_with_1009_unread() -> None:
    """A frame longer than the peer may send is refused from its header: close code 1009,
    and nothing of it or after it reaches the connection."""
    rng = random.Random(3)
    peer, socket, connection = upgraded()
    too_long = text(b"z" * (LIMIT + 1), rng)
    peer.data_received(text(b"before", rng) + too_long[:20])
    peer.data_received(too_long[20:] + text(b"after", rng))
    assert connection.got == [("text", b"before")]
    assert socket.written.startswith(b"\x88") and socket.written[2:4] == (1009).to_bytes(2, "big")
    assert not peer.lean and peer.protocol.state is State.CLOSING


async def test_the_close_handshake_answers_the_peer_and_reads_nothing_after() -> None:
    """The peer's close frame is echoed, the socket half-closed, and a text frame after it is not
    read; when the server closes first, the peer's answering close half-closes the socket, and
    the peer's end of it closes it."""
    rng = random.Random(4)
    peer, socket, connection = upgraded()
    close = frame(0x88, (1000).to_bytes(2, "big"), rng)
    peer.data_received(text(b"one", rng) + close + text(b"two", rng))
    assert connection.got == [("text", b"one")]
    assert bytes(socket.written) == Frame(Opcode.CLOSE, (1000).to_bytes(2, "big")).serialize(mask=False)
    assert socket.eof and peer.protocol.state is State.CLOSING and not peer.lean

    peer, socket, connection = upgraded()
    peer.data_received(text(b"bye", rng) + text(b"unread", rng))  # the connection closes at "bye"
    assert connection.got == [("text", b"bye")] and socket.written.startswith(b"\x88")
    peer.data_received(close)
    assert connection.got == [("text", b"bye")] and socket.eof and not socket.closed
    peer.eof_received()
    assert peer.protocol.state is State.CLOSED and socket.closed


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65535, 65536, 70000])
async def test_each_line_written_is_the_text_frame_websockets_would_write(size: int) -> None:
    """Lines of every length class (7-, 16- and 64-bit lengths), one or several in a write,
    are framed as ``websockets`` frames them: unmasked text frames, one a line."""
    lines = [b"a" * size + b"\n", b'{"type":"pong"}\n', b"one\ntwo\n"]
    peer, socket, _ = upgraded()
    reference, reference_socket, _ = upgraded(lean=False)
    for each in (peer, reference):
        each.write(lines[0])
        each.writelines(lines)
    assert socket.written == reference_socket.written
    assert socket.written.startswith(Frame(Opcode.TEXT, b"a" * size).serialize(mask=False))
