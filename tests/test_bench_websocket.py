"""``setback bench server --transport ws``: its bots frame the WebSocket themselves (RFC 6455),
as lean as the TCP bots' lines, and play the server over it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from websockets.utils import apply_mask

from setback.benchmarks.server import _WsBot


class _Written:
    """A stream writer that keeps what it is given."""

    def __init__(self) -> None:
        self.chunks: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.chunks.append(data)


def _server_frame(opcode: int, payload: bytes, fin: bool = True) -> bytes:
    """A frame as a server sends it: never masked."""
    size = len(payload)
    first = (0x80 if fin else 0) | opcode
    if size < 126:
        return bytes((first, size)) + payload
    if size < 1 << 16:
        return bytes((first, 126)) + size.to_bytes(2, "big") + payload
    return bytes((first, 127)) + size.to_bytes(8, "big") + payload


def _client_frame(data: bytes) -> tuple[int, bytes]:
    """A bot's frame read as the server reads it: its opcode and unmasked payload (it must be masked)."""
    assert data[0] & 0x80 and data[1] & 0x80, "a whole frame, masked"
    size, at = data[1] & 0x7F, 2
    if size >= 126:
        width = 2 if size == 126 else 8
        size, at = int.from_bytes(data[2 : 2 + width], "big"), 2 + width
    mask, payload = data[at : at + 4], data[at + 4 :]
    assert len(payload) == size
    return data[0] & 0x0F, apply_mask(payload, mask)


def _bot() -> tuple[_WsBot, _Written]:
    written = _Written()
    bot = _WsBot(None, written)  # type: ignore[arg-type]  # (reads are fed to it here)
    return bot, written


def test_frames_cut_anywhere_fragments_and_a_ping_come_out_whole() -> None:
    long = b'{"type":"decide","pad":"' + b"x" * 300 + b'"}'  # a 16-bit length
    huge = b"y" * 70_000  # a 64-bit length
    stream = (
        _server_frame(0x1, b'{"type":"ok"}') + _server_frame(0x9, b"are you there")
        + _server_frame(0x1, long) + _server_frame(0x1, b'{"type":', fin=False)
        + _server_frame(0x0, b'"welcome"}') + _server_frame(0xA, b"a pong, ignored") + _server_frame(0x1, huge)
    )
    for cut in (1, 2, 3, 17, 40, 331, len(stream) - 1):  # a read may end anywhere in a frame
        bot, written = _bot()
        bot._frames(stream[:cut])
        bot._frames(bot.unread + stream[cut:])
        assert list(bot.pending) == [b'{"type":"ok"}', long, b'{"type":"welcome"}', huge], cut
        assert bot.unread == b"" and bot.parts == []
        assert [_client_frame(chunk) for chunk in written.chunks] == [(0xA, b"are you there")]


def test_a_line_goes_as_one_masked_text_frame_of_any_length() -> None:
    bot, written = _bot()
    lines = [b'{"type":"act","request":7,"action":"play 10H"}\n', b"z" * 200, b"w" * 66_000]
    for line in lines:
        bot.send(line)
    assert [_client_frame(chunk) for chunk in written.chunks] == [
        (0x1, b'{"type":"act","request":7,"action":"play 10H"}'), (0x1, b"z" * 200), (0x1, b"w" * 66_000)
    ]
    assert written.chunks[0][2:6] != written.chunks[1][4:8], "each frame its own key"


def test_bench_server_over_the_websocket(tmp_path: Path) -> None:
    """A short run end to end: the bots play the server over its WebSocket, then over TCP, and
    neither gets an error."""
    done = subprocess.run(
        [sys.executable, "-m", "setback", "bench", "server", "--transport", "ws",
         "--tables", "2", "--hold", "0", "--seconds", "0.5", "--json"],
        capture_output=True, text=True, check=True, timeout=120, env={**os.environ, "TMPDIR": str(tmp_path)},
    )
    figures: dict[str, Any] = json.loads(done.stdout)
    (row,) = figures["rows"]
    assert figures["transport"] == "ws"
    for side in ("setback", "tcp"):
        assert row[side]["decisions_per_s"] > 0 and row[side]["errors"] == 0, row
        assert row[side]["bots_cpu_us_per_decision"] > 0
    assert row["ratio_decisions"] == round(row["setback"]["decisions_per_s"] / row["tcp"]["decisions_per_s"], 3)
