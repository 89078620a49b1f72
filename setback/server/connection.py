"""One peer's connection: framing, limits, the hello, and handing requests to the lobby.

A :class:`Connection` is an asyncio protocol for a TCP stream of lines. A transport that
frames messages itself (the browser table's WebSocket, ``setback.web``) is a shell around
the same object: it hands it each message (:meth:`Connection.message_received`) and writes
each line it is given (``writelines``) as one message, so every limit, error and rule of a
line holds for a frame too.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time
from typing import Final, Literal, cast

import structlog

from setback.engine import ACTIONS, Action
from setback.protocol import FATAL, Code, LineBuffer, ProtocolError, decode_client, encode, request_id
from setback.protocol.codec import CODE_BITS, read_act
from setback.protocol.messages import (
    Act,
    AddBot,
    ClientMessage,
    CreateTable,
    Error,
    Hello,
    Join,
    Leave,
    ListTables,
    Ping,
    Pong,
    Ready,
    RequestId,
    Resync,
    SendChat,
    ServerMessage,
    ServerPing,
    ServerPong,
    Spectate,
)
from setback.server.host import Host
from setback.server.outgoing import LineSink
from setback.server.seats import RefusedError

log = structlog.get_logger("setback.connection")

_ACTIONS: Final = ACTIONS
"""The engine's, held here: compiled, a name imported from a module that is not is looked up at each use."""
_CODE_MASK: Final = (1 << CODE_BITS) - 1

EXTRA_COST: dict[type, int] = {
    ListTables: 9, CreateTable: 19, Join: 9, Spectate: 9, Leave: 9, Ready: 4, AddBot: 9, SendChat: 39,
    Resync: 9,
}
"""What a message costs of the rate limit beyond the 1 every line pays: a request whose answer
goes to many (every table change is told to the lobby), is large (``tables``) or is kept on
disk (chat) costs more, so that no connection can make the server do much for others."""


WRITE_CHUNK = 256 * 1024
"""The most of a peer's backlog handed to its transport at once (then the rest, as it reads)."""


def bound_send_buffer(transport: asyncio.BaseTransport, size: int) -> None:
    """Ask the kernel to keep no more than ``size`` (``ServerConfig.socket_send_buffer``) in the
    send buffer of ``transport``'s socket, where the server cannot count it; 0, or a transport
    without a socket, is left as it is."""
    sock = transport.get_extra_info("socket")
    if size and sock is not None:
        with contextlib.suppress(OSError):  # (a socket already closed)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, size)


class _Unread:
    """The id of a dropped line not read yet (it is read only if an error will carry it)."""


UNREAD = _Unread()


class Connection(LineSink):
    """A peer on the wire. Until its hello it is only a connection; then a :class:`Peer` too."""

    def __init__(self, server: Host[Connection]) -> None:
        self.server = server
        self.outgoing = server.outgoing
        self.lobby = server.lobby
        """The server's (one for its life): read here natively, not through the host's protocol."""
        config = server.config
        self.config = config
        self.max_write_buffer = config.max_write_buffer
        """``config``'s, read at every write (the config is frozen; this is a native read)."""
        self.buffer = LineBuffer(config.max_line_bytes)
        self._first: bytes | None = None
        self._out: list[bytes] = []
        """This turn's lines, written at its end (most of them shared with other peers): its first
        (None: none), and those after it. A bot's connection is sent one a turn, its ``decide``,
        which a list cost some 150 instructions more to hold (its array made and freed)."""
        self._queued = 0
        """The bytes of this turn's lines."""
        self._backlog = bytearray()
        """What waits while the transport holds as much as it should (it asked us to pause
        writing): one buffer, so what it costs in memory is what it counts."""
        self._paused = False
        self.input_held = 0
        """The bytes this peer sent that were not read whole yet, as its transport last counted
        them (a part of a line; over a WebSocket, a frame or message in parts)."""
        self.held = 0
        """The bytes this peer makes the server hold, as last counted (:meth:`holding`): its
        share of the server's budget (:class:`Outgoing`)."""
        self.transport: asyncio.Transport | None = None
        self.greeted = False
        self.closing = False
        self.name = "?"
        self.kind: Literal["human", "bot"] = "human"
        self.token = ""
        self.events = True
        self.minor = 0
        self.address = "?"
        self.host = "?"
        """The peer's address without the port: wrong passwords are counted by it."""
        now = time.monotonic()
        self.opened = now
        self.last_heard = now
        self.last_pinged = now
        self.closed_at = now
        """When a fatal error or the server's goodbye began closing the connection."""
        self._allowance = float(config.message_burst)
        self._refilled = now
        self._dropped = 0
        self._last_rate_error = 0.0

    # -- asyncio.Protocol ---------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's transports are not subclasses
        bound_send_buffer(transport, self.config.socket_send_buffer)
        peer = transport.get_extra_info("peername")
        self.host = str(peer[0]) if isinstance(peer, tuple) else str(peer)
        self.address = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)
        if not self.server.admit(self):
            self.fatal(Code.SERVER_FULL, f"the server holds its maximum of {self.config.max_connections} connections")

    def data_received(self, data: bytes) -> None:
        if self.closing:
            return
        end = len(data) - 1
        if (  # the hot path: one whole act, as bots write it, and nothing else
            self.greeted and 0 < end < self.buffer.limit and data[end] == 10 and self.buffer.between_lines
            and not self.input_held
        ):
            read = read_act(data, end)  # (a line it reads holds no newline: this is exactly one line)
            if read >= 0:
                self.last_heard = self.outgoing.heard_at()
                self._act(data, read >> CODE_BITS, _ACTIONS[read & _CODE_MASK], None)
                return
        lines, overlong = self.buffer.feed(data)
        if lines:  # only whole lines count as heard: a trickle of bytes keeps nothing alive
            self.last_heard = self.outgoing.heard_at()
        if self.buffer.held or self.input_held:  # a part of a line is held: it counts
            self.input_held = self.buffer.held
            self.account()
        for line in lines:
            if self.gone():
                return
            self._line(line)
        if overlong and not self.gone():
            self.fatal(Code.LINE_TOO_LONG, f"a line is at most {self.config.max_line_bytes} bytes, newline included")

    def pause_writing(self) -> None:
        """The transport holds as much as it should: what follows waits in the backlog."""
        self._paused = True

    def resume_writing(self) -> None:
        """The peer has read enough: the backlog goes on to the transport."""
        self._paused = False
        self._write_backlog()
        if self.transport is not None:
            self.account()

    def _write_backlog(self) -> None:
        """Hand the backlog to the transport, a chunk at a time (each ending with a line),
        until it is empty or the transport asks us to pause again."""
        while self._backlog and not self._paused:
            transport = self.transport
            if transport is None or transport.is_closing():
                return
            backlog = self._backlog
            if len(backlog) <= WRITE_CHUNK:
                self._backlog = bytearray()
                transport.write(backlog)
            else:
                cut = backlog.find(b"\n", WRITE_CHUNK - 1) + 1 or len(backlog)
                chunk = bytes(backlog[:cut])
                del backlog[:cut]
                transport.write(chunk)

    def control_received(self) -> None:
        """A control frame of the transport's own (a WebSocket ping or pong): it pays the rate
        limit as a message does, and counts towards a flood; it is not heard (no heartbeat)."""
        if not self.closing and not self._pay():
            self._dropped_line(b"")

    def message_received(self, message: bytes) -> None:
        """One message from a transport that frames messages itself (a WebSocket text frame):
        read exactly as a line, under the same limit (counting the newline a line would end with)."""
        if self.closing:
            return
        if len(message) >= self.config.max_line_bytes:
            self.fatal(Code.LINE_TOO_LONG, f"a message is at most {self.config.max_line_bytes - 1} bytes")
            return
        self.last_heard = self.outgoing.heard_at()
        self._line(message)

    def binary_received(self) -> None:
        """A message that is not text (a WebSocket binary frame): it counts, and is malformed."""
        if self.closing:
            return
        self.last_heard = time.monotonic()
        if not self._pay():
            self._dropped_line(b"")
            return
        self.send(Error(code=Code.MALFORMED, message="a message is a JSON object in a text frame, not binary"))

    def gone(self) -> bool:
        """Closed, or closing after a fatal error: nothing more is read or sent."""
        return self.closing

    def connection_lost(self, exc: Exception | None) -> None:
        self.closing = True
        self.transport = None  # nothing it held is held any more
        self._forget()
        self._hold(0)
        self.server.release(self)

    # -- one line -------------------------------------------------------------------------------

    def _line(self, line: bytes) -> None:
        """One line. Every line costs a message of the rate limit, blank ones too, and pays
        before it is read; over the limit it is dropped unread. A line that may be an ``act``
        or a ``ready`` is read first: an ``act`` the table accepts costs nothing, nor does the
        ``ready`` a game's start asks of each seat (one a game). The game paces those, and a
        fast bot table must not stall, however many games it plays (the server's hot path)."""
        if self.greeted:
            read = read_act(line, len(line))  # an act as bots write it, read without the decoder (it reads the same)
            if read >= 0:
                self._act(line, read >> CODE_BITS, _ACTIONS[read & _CODE_MASK], None)
                return
        if (
            line.startswith(b'{"type":"act"')  # how bots write it (and mypyc compares it natively; ``find`` is a call)
            or line.startswith(b'{"type":"ready"')  # how bots write the one a game's start asks of them
            or line.find(b'"act"') >= 0 or line.find(b'"ready"') >= 0  # (``in`` first tries it as an int, and fails)
        ):
            try:
                message = decode_client(line)
            except ProtocolError as error:
                if self._pay():
                    self._unreadable(error)
                else:
                    self._dropped_line(line, error.id)
                return
            if type(message) is Act and self.greeted:
                assert isinstance(message, Act)
                self._act(line, message.request, message.action, message.id)
                return
            if isinstance(message, Ready) and message.ready and self.greeted and self.lobby.asks_ready(self):
                try:
                    self.lobby.handle(self, message)
                except Exception:
                    self._failed(message)
                return
            if not self._pay():
                self._dropped_line(line, message.id)
                return
        else:
            if not self._pay():
                self._dropped_line(line)
                return
            if not line.strip():  # a blank line is ignored (but was counted: a flood of them is a flood)
                return
            try:
                message = decode_client(line)
            except ProtocolError as error:
                self._unreadable(error)
                return
        if not self.greeted:
            self._before_hello(message)
            return
        extra = EXTRA_COST.get(type(message), 0)
        if extra and not self._pay(extra):  # what costs others (or the disk) more, costs more
            self._dropped_line(line, message.id)
            return
        try:
            self.lobby.handle(self, message)
        except Exception:
            self._failed(message)

    def _act(self, line: bytes, request: int, action: Action | str, request_id: RequestId) -> None:
        """An ``act`` (its ``id`` ``request_id``; its action read, or as sent), which costs nothing of
        the rate limit unless refused."""
        try:
            self.lobby.act(self, request, action)
        except RefusedError as refusal:  # refused: it pays after all, and past the limit gets no answer
            if self._pay():
                self.send(refusal.answer(request_id))
            else:
                self._dropped_line(line, request_id)
        except Exception:
            self._failed(Act(id=request_id, request=request, action=str(action)))

    def _unreadable(self, error: ProtocolError) -> None:
        """Answer a line that is no message (before a hello, one of an unknown type: say hello)."""
        if not self.greeted and error.code is Code.UNKNOWN_TYPE:
            self.send(Error(id=error.id, code=Code.HELLO_REQUIRED, message="say hello first"))
        else:
            self.send(Error(id=error.id, code=error.code, message=error.message, path=error.path))

    def _failed(self, message: ClientMessage) -> None:
        """The server failed on a request (a bug): logged, answered ``internal``."""
        log.exception("request_failed", peer=self.address, type=type(message).__name__)
        failed = "the server failed on this request; it is logged"
        self.send(Error(id=message.id, code=Code.INTERNAL, message=failed))

    def _before_hello(self, message: object) -> None:
        if isinstance(message, Ping):
            self.send(ServerPong(id=message.id, nonce=message.nonce))
            return
        if isinstance(message, Pong):
            return
        if not isinstance(message, Hello):
            request = getattr(message, "id", None)
            self.send(Error(id=request, code=Code.HELLO_REQUIRED, message="say hello first"))
            return
        guard, now = self.server.passwords, time.monotonic()
        wait = guard.wait(self.host, now) if self.config.password is not None else 0.0
        if wait > 0:
            self.fatal(Code.BAD_PASSWORD, f"too many wrong passwords from {self.host}: try again in {wait:.0f} s",
                       message.id)
            return
        try:
            welcome = self.lobby.greet(self, message)
        except RefusedError as refusal:
            for listener in self.lobby.refusal_listeners:
                listener(message.name, f"{refusal.code}: {refusal.message}")
            if refusal.code is Code.BAD_PASSWORD:
                guard.wrong(self.host, now)
            if refusal.code in FATAL:
                self.fatal(refusal.code, refusal.message, message.id)
            else:
                self.send(refusal.answer(message.id))
            return
        self.greeted = True
        self.send(welcome)
        log.info("greeted", peer=self.address, name=self.name, kind=self.kind)
        self.lobby.after_welcome(self, message)

    def _pay(self, cost: int = 1) -> bool:
        """Token bucket: ``max_messages_per_second`` with bursts of ``message_burst``. Whether
        the allowance holds ``cost`` more messages (then they are taken); a bucket full again
        ends a flood."""
        now = time.monotonic()
        config = self.config
        self._allowance = min(
            float(config.message_burst), self._allowance + (now - self._refilled) * config.max_messages_per_second
        )
        self._refilled = now
        if self._allowance < cost:
            return False
        self._allowance -= cost
        if self._allowance >= config.message_burst - 1:
            self._dropped = 0
        return True

    def _dropped_line(self, line: bytes, request: RequestId | _Unread = UNREAD) -> None:
        """A line over the rate limit was dropped: say so at most once a second (with its id,
        read only then), and close the connection after ``flood_close_after`` in one flood."""
        self._dropped += 1
        now = time.monotonic()
        closing = self._dropped >= self.config.flood_close_after
        if not closing and now - self._last_rate_error < 1.0:
            return
        if isinstance(request, _Unread):
            request = request_id(line)
        if closing:
            self.fatal(Code.RATE_LIMITED, "too many messages for too long", request)
        else:
            self._last_rate_error = now
            self.send(Error(id=request, code=Code.RATE_LIMITED, message="too many messages: dropped"))

    # -- Peer ------------------------------------------------------------------------------------

    def send(self, message: ServerMessage) -> None:
        self.send_line(encode(message))

    def send_line(self, line: bytes) -> None:
        """Queue a line; the server writes every queued line after this turn's records are committed."""
        if self.transport is None or self.closing:
            return
        if self._add(line):
            self.outgoing.queued(self)
        size = len(line)
        self._queued += size
        self.held += size
        self.outgoing.change(size)

    def close_with(self, line: bytes) -> None:
        """Write ``line`` now, after anything still queued, and close."""
        if self.transport is None or self.closing:
            return
        self._add(line)
        self.flush_out()
        self._paused = False  # what waits goes to the transport, which closes once it is read
        self._write_backlog()
        self.closing = True
        self.closed_at = time.monotonic()
        if self.transport is not None:  # (unless the flush found it dead)
            self.transport.close()

    def _add(self, line: bytes) -> bool:
        """Add ``line`` to this turn's lines; whether it is the first."""
        if self._first is None:
            self._first = line
            return True
        self._out.append(line)
        return False

    def discard_out(self) -> None:
        """Forget what is queued this turn for this peer (it described records that could not be kept)."""
        self._first = None
        self._out.clear()
        self._queued = 0
        self._hold(self.holding())

    def flush_out(self) -> None:
        """Write this turn's lines for this peer in one go (a line a message, for a transport
        that frames them), or, while the transport is full, add them to the backlog; drop a
        peer that has stopped reading."""
        transport = self.transport
        first, out = self._first, self._out
        if first is not None and transport is not None and not transport.is_closing():
            if self._paused or len(self._backlog):  # (a native read of its size: its truth is a generic call)
                self._backlog += first
                for line in out:
                    self._backlog += line
            elif not len(out):  # (a native read of its size)
                transport.write(first)
            else:
                out.insert(0, first)
                transport.writelines(out)
        self._first = None
        if len(out):
            out.clear()
        self._queued = 0
        self.account()

    def account(self) -> None:
        """Count what this peer makes the server hold now; past its own limit
        (``max_write_buffer``), drop it as dead."""
        self._hold(self.holding())
        if self.held > self.max_write_buffer:
            self.drop_as_dead("slow_peer_dropped")

    def _hold(self, held: int) -> None:
        """This peer makes the server hold ``held`` bytes now (``Server.hold``, for a connection)."""
        by = held - self.held
        self.held = held
        self.outgoing.change(by)

    def holding(self) -> int:
        """The bytes this peer makes the server hold now, as they cost in memory: this turn's
        lines, the backlog (its whole allocation), what the transport holds unwritten, and
        what the peer sent that was not read whole (also while a closing connection waits for
        its peer to read its last lines)."""
        transport = self.transport
        backlog = self._backlog.__alloc__() if len(self._backlog) else 0  # (its truth: a generic call, compiled)
        written = 0 if transport is None else transport.get_write_buffer_size()
        return self._queued + backlog + written + self.input_held

    def _forget(self) -> None:
        """Nothing queued or waiting for this peer is kept any more."""
        self._first = None
        self._out.clear()
        self._queued = 0
        self._backlog = bytearray()
        self.input_held = 0

    def drop_as_dead(self, why: str) -> None:
        """Close at once, dropping whatever the peer has not read: it has stopped reading, so
        it would not read an error either. Its seat is kept for the grace period."""
        transport = self.transport
        if transport is None:
            return
        log.warning(why, peer=self.address, name=self.name, unread=self.held)
        self.closing = True
        self.transport = None  # nothing more is written, nor counted
        self._forget()
        transport.abort()
        self._hold(0)

    def fatal(self, code: Code, message: str, request: object = None) -> None:
        """Send a fatal error and close once it is flushed."""
        if self.closing:
            return
        self.send(Error(id=request if isinstance(request, int | str) else None, code=code, message=message, fatal=True))
        self.flush_out()
        self.closing = True
        self.closed_at = time.monotonic()
        if self.transport is not None:
            self.transport.close()
        log.info("closed", peer=self.address, code=str(code))

    def tick(self, now: float) -> None:
        """Called every second: hello and idle timeouts, heartbeats; a connection closing after
        a fatal error whose peer has not read it within the idle timeout is dropped (a close
        waits for the peer to read what it was sent, for ever if it never does)."""
        if self.closing:
            if self.transport is not None and now - self.closed_at > self.config.idle_timeout:
                self.drop_as_dead("closed_peer_not_reading")
            return
        if not self.greeted and now - self.opened > self.config.hello_timeout:
            self.fatal(Code.HELLO_TIMEOUT, f"no hello within {self.config.hello_timeout:g} s")
        elif now - self.last_heard > self.config.idle_timeout:
            self.fatal(Code.IDLE_TIMEOUT, f"nothing heard for {self.config.idle_timeout:g} s")
        elif self.greeted and now - max(self.last_heard, self.last_pinged) > self.config.heartbeat:
            self.last_pinged = now
            self.send(ServerPing(nonce=int(now * 1000)))
