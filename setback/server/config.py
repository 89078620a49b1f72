"""The server's settings and limits (spec.md, "Limits"), with their defaults."""

from __future__ import annotations

import ssl
from dataclasses import dataclass

from setback.protocol import DEFAULT_PORT, MAX_LINE_BYTES
from setback.protocol.messages import DEFAULT_BOT_PACE, Limits


@dataclass(frozen=True)
class ServerConfig:
    """Everything ``setback serve`` can be told; the defaults suit a LAN."""

    db: str | None = None
    """The SQLite file; None keeps everything in memory (tests, throwaway servers)."""
    host: str = "0.0.0.0"
    port: int = DEFAULT_PORT
    name: str = "setback"
    password: str | None = None
    max_connections: int = 4096
    max_line_bytes: int = MAX_LINE_BYTES
    max_messages_per_second: float = 200.0
    message_burst: int = 400
    flood_close_after: int = 5000
    """Messages dropped by the rate limit, in one flood, before the connection is closed."""
    hello_timeout: float = 10.0
    idle_timeout: float = 60.0
    heartbeat: float = 20.0
    reconnect_grace: float = 120.0
    bot_table_pause: float = 5.0
    """A watched table of built-in bots only deals its next game this long after the last."""
    bot_table_pace: float = 1.0
    """A watched table of built-in bots only plays a move at most this often, so it can be followed."""
    bot_pace: float = DEFAULT_BOT_PACE
    """The ``bot_pace`` of a table whose ``create_table`` does not give one."""
    max_write_buffer: int = 4 * 1024 * 1024
    """Bytes queued for a peer that does not read, after which it is dropped as dead."""
    max_unread_output: int = 128 * 1024 * 1024
    """Bytes queued for all peers together and not read yet: past it, the peers holding the
    most are dropped as dead until the rest fits (so that 4,096 peers that never read cannot
    take the server's memory). 128 MiB is 32 peers at their own limit, or a LAN evening's
    hundred readers many times over; with what 1,000 connections cost besides, it keeps a
    server under 1,000 non-readers within some 300 MB (setback/benchmarks/README.md)."""
    socket_send_buffer: int = 64 * 1024
    """The kernel's send buffer asked for each peer's socket (``SO_SNDBUF``, which Linux
    doubles): what a peer that does not read makes the kernel hold, beyond what the server
    counts. Left to itself the kernel grows it to 4 MiB a socket, so 1,000 peers that never
    read held 1 GB there; 0 leaves it to the kernel."""
    max_chat_chars: int = 500
    max_name_chars: int = 40
    max_tables: int = 10_000
    max_tables_awaiting_maker: int = 16
    """Tables one connection may have made and not sat at or watched yet."""
    max_tables_awaiting_address: int = 64
    """The same, for all the connections from one address."""
    tls_cert: str | None = None
    tls_key: str | None = None
    """PEM files: with both, the server speaks TLS only."""
    wal_sync: float = 0.0
    """Seconds between syncs of the records' new commits to the disk (their WAL) besides the
    checkpoint rounds, which sync every 2 seconds; 0: the rounds only. What a power cut may
    lose is about this long (docs/operations.md); each sync stalls a busy server's tables a
    little."""
    local: bool = False
    """The server of one client (``setback play --bots``): its tables are marked as its own,
    and it closes them when it stops (their unfinished games recorded as they stood);
    leftovers of a local server that died are closed, never played on, by any server that
    opens the file."""

    def tls_context(self) -> ssl.SSLContext | None:
        if not self.tls_cert:
            return None
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(self.tls_cert, self.tls_key)
        return context

    def limits(self) -> Limits:
        return Limits(
            max_line_bytes=self.max_line_bytes,
            max_messages_per_second=self.max_messages_per_second,
            message_burst=self.message_burst,
            hello_timeout_seconds=self.hello_timeout,
            idle_timeout_seconds=self.idle_timeout,
            heartbeat_seconds=self.heartbeat,
            reconnect_grace_seconds=self.reconnect_grace,
            max_chat_chars=self.max_chat_chars,
            max_name_chars=self.max_name_chars,
        )
