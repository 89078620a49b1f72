"""Encoding, decoding and framing: one JSON object per line, bounded in length.

:class:`LineBuffer` is sans-IO: feed it bytes, take complete lines out; a line
longer than the limit is reported once and discarded up to its newline.
"""

from __future__ import annotations

import re
from typing import Final

import msgspec

from setback.protocol.convert import ACTION_TEXT
from setback.protocol.errors import Code
from setback.protocol.messages import ClientMessage, IdOnly, RequestId, ServerMessage

PROTOCOL_VERSION = "1.4"
MAJOR = 1
DEFAULT_PORT = 7411
"""The TCP port a server listens on unless told otherwise."""
DEFAULT_WEB_PORT = 7412
"""The port of the browser table (its page, and the protocol over a WebSocket) unless told otherwise."""
SERVICE_TYPE = "_setback._tcp.local."
"""The DNS-SD service type a server announces itself under on the LAN (spec.md, "Discovery")."""
MAX_LINE_BYTES = 16 * 1024
"""The longest line a client may send, newline included."""
MAX_SERVER_LINE_BYTES = 1024 * 1024
"""The longest line the server sends; clients should accept at least this."""

_encoder: Final = msgspec.json.Encoder()
_client_decoder: Final = msgspec.json.Decoder(ClientMessage)
_server_decoder: Final = msgspec.json.Decoder(ServerMessage)


_id_decoder = msgspec.json.Decoder(IdOnly)
TOO_DEEP = "not JSON we read: nested too deeply"
"""Why a line of arrays and objects nested past what the decoder follows is refused."""
_MISSING = re.compile(r"Object missing required field `([^`]+)`")


class ProtocolError(Exception):
    """A line the peer sent that is not a valid message: the code, a text, the JSON path."""

    def __init__(self, code: Code, message: str, id: RequestId = None, path: str | None = None) -> None:
        super().__init__(code, message, id, path)
        self.code = code
        self.message = message
        self.id = id
        self.path = path


def encode(message: ServerMessage | ClientMessage) -> bytes:
    """One message as a line, newline included (one encoding pass, no copy to add it)."""
    return _encoder.encode_lines((message,))


def request_id(line: bytes) -> RequestId:
    """The ``id`` of the message on ``line``, if it has a readable one (for the error answering it)."""
    try:
        return _id_decoder.decode(line).id
    except (msgspec.DecodeError, RecursionError):  # ValidationError included
        return None


def _error(exc: msgspec.DecodeError, line: bytes) -> ProtocolError:
    """What is wrong with ``line``, which ``exc`` refused, as the error to answer it with."""
    if not isinstance(exc, msgspec.ValidationError):
        return ProtocolError(Code.MALFORMED, f"not JSON: {exc}")
    text = str(exc)
    path = text.rpartition(" - at `")[2].rstrip("`") if " - at `" in text else "$"
    missing = _MISSING.match(text)
    if missing is not None:  # msgspec names the object; the path names the field it lacks
        path = f"{path}.{missing[1]}"
    if path == "$" and text.startswith("Expected `object`"):
        return ProtocolError(Code.MALFORMED, "a message is a JSON object", None, path)
    if path == "$.type":
        return ProtocolError(Code.UNKNOWN_TYPE, text, request_id(line), "$.type")
    return ProtocolError(Code.INVALID_FIELD, text, request_id(line), path)


def decode_client(line: bytes) -> ClientMessage:
    """A client's line as a message; :class:`ProtocolError` saying what is wrong otherwise
    (also a line that is not UTF-8 throughout, even inside a field the message ignores)."""
    try:
        message = _client_decoder.decode(line)
    except msgspec.DecodeError as exc:  # ValidationError included
        raise _error(exc, line) from None
    except RecursionError:
        raise ProtocolError(Code.MALFORMED, TOO_DEEP) from None
    if not line.isascii():
        try:
            line.decode()
        except UnicodeDecodeError as exc:
            raise ProtocolError(Code.MALFORMED, f"not UTF-8: byte {exc.start} of the line", message.id) from None
    return message


_ACT_HEAD: Final = b'{"type":"act","request":'
_ACTION_KEY: Final = b',"action":"'
_ACTION_BYTES: Final = tuple(text.encode() for text in ACTION_TEXT)
"""Each action's text as the server writes it (in ``legal``), by its code: all printable ASCII
with no quote or backslash, so each is its own JSON string's content."""


def _action_key(line: bytes, end: int, length: int) -> int:
    """What tells the action texts apart: the length of the text that ends at ``end`` in ``line``
    and its last two bytes (at least two)."""
    return length << 16 | line[end - 1] << 8 | line[end - 2]


def _slots(keys: list[int]) -> tuple[int, ...]:
    """The fewest slots in which each of ``keys`` (all different) has one of its own at ``key %
    len(slots)``: its index in ``keys`` there, -1 in the others."""
    assert len(set(keys)) == len(keys), "the keys tell the action texts apart"
    size = len(keys)
    while len({key % size for key in keys}) < len(keys):
        size += 1
    slots = [-1] * size
    for index, key in enumerate(keys):
        slots[key % size] = index
    return tuple(slots)


_ACTION_SLOTS: Final = _slots([_action_key(text, len(text), len(text)) for text in _ACTION_BYTES])
"""The code of the action text whose :func:`_action_key` is ``key``, at ``key % len(_ACTION_SLOTS)``
(-1: none), so that an act's action is found by a few of its bytes and then compared, where a
dictionary would hash the copy first."""
_SLOT_COUNT: Final = len(_ACTION_SLOTS)
_MOST_DIGITS: Final = 15
"""The longest request number read without the decoder (any longer: the decoder reads it)."""


_ACT_TAILS: Final = tuple(_ACTION_KEY + text + b'"}' for text in _ACTION_BYTES)
"""How an act as bots write it ends after its request, ``,"action":"TEXT"}``, by the action's code."""
_TAIL_SIZE: Final = len(_ACTION_KEY) + 2
"""The bytes of a tail that are not the action's text."""
CODE_BITS: Final = 7
"""The low bits of :func:`read_act`'s answer that hold the action's code (its request above them)."""
assert len(ACTION_TEXT) <= 1 << CODE_BITS


def read_act(line: bytes, end: int) -> int:
    """The request and the action's code of an ``act`` that ``line[:end]`` holds written exactly as
    bots write it: ``{"type":"act","request":N,"action":"TEXT"}``, N in plain decimal digits and
    TEXT an action as the server writes it (``legal``'s; no newline in any), as one number:
    ``request << CODE_BITS | code`` (a pair would cost a tuple and the request's int object; 15
    digits at most, so it fits a machine word with the code). Read without the decoder, it is
    what :func:`decode_client` would read of ``line[:end]`` (an :class:`Act` with no ``id``); any
    other line gives -1 (then the decoder reads it, and says what is wrong with it). The server's
    hot path: one such line a decision."""
    if not line.startswith(_ACT_HEAD):
        return -1
    first = at = len(_ACT_HEAD)
    request = 0
    while at < end and 48 <= line[at] <= 57:  # 0-9
        request = request * 10 + line[at] - 48
        at += 1
    digits = at - first
    if not 0 < digits <= _MOST_DIGITS or (digits > 1 and line[first] == 48):  # JSON has no leading zeros
        return -1
    length = end - at - _TAIL_SIZE  # the action's text, if the line ends as an act's tail
    if length < 2:
        return -1
    code = _ACTION_SLOTS[_action_key(line, end - 2, length) % _SLOT_COUNT]
    if code < 0:
        return -1
    if line[at:end] != _ACT_TAILS[code]:  # (one copy and compare, the action's text with what is around it)
        return -1
    return request << CODE_BITS | code


def decode_server(line: bytes) -> ServerMessage:
    """A server's line as a message (for clients and bots)."""
    try:
        return _server_decoder.decode(line)
    except msgspec.DecodeError as exc:
        raise _error(exc, line) from None
    except RecursionError:
        raise ProtocolError(Code.MALFORMED, TOO_DEEP) from None


class LineBuffer:
    """Splits a byte stream into lines of at most ``limit`` bytes (newline included)."""

    def __init__(self, limit: int = MAX_LINE_BYTES) -> None:
        self.limit = limit
        self._pending = bytearray()
        self._discarding = False

    @property
    def between_lines(self) -> bool:
        """Nothing of a line is held or being discarded: the next byte fed begins a line."""
        return len(self._pending) == 0 and not self._discarding  # (``not`` of a bytearray is a generic call, compiled)

    @property
    def held(self) -> int:
        """The bytes of a line begun and not ended yet, as they cost in memory (0: none)."""
        return self._pending.__alloc__() if self._pending else 0

    def feed(self, data: bytes) -> tuple[list[bytes], bool]:
        """Take ``data``; return the complete lines and whether an overlong line was met."""
        if data and len(data) <= self.limit and not self._pending and not self._discarding:
            line, newline, after = data.partition(b"\n")  # (one argument, no parsing of it: ``find`` costs more)
            if newline and not after:
                return [line], False  # the usual case: exactly one whole line
        lines: list[bytes] = []
        overlong = False
        start = 0
        while True:
            end = data.find(b"\n", start)
            if end < 0:
                break
            if self._discarding:
                self._discarding = False
            elif len(self._pending) + end - start + 1 > self.limit:
                overlong = True
            else:
                self._pending += data[start:end]
                lines.append(bytes(self._pending))
            self._pending.clear()
            start = end + 1
        rest = len(data) - start
        if not self._discarding and rest:
            if len(self._pending) + rest >= self.limit:
                overlong = True
                self._discarding = True
                self._pending.clear()
            else:
                self._pending += data[start:]
        return lines, overlong
