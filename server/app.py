"""The server: listening, admitting connections, the once-a-second sweep, and a clean stop."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from concurrent.futures import ThreadPoolExecutor

import structlog

from setback.protocol.messages import Goodbye
from setback.server.config import ServerConfig
from setback.server.connection import Connection
from setback.server.lobby import Lobby
from setback.server.store import Batch, Store

log = structlog.get_logger("setback.server")


class Server:
    """``setback serve``: a lobby of tables behind a TCP listener."""

    def __init__(self, config: ServerConfig | None = None) -> None:
        self.config = config or ServerConfig()
        self.store = Store(self.config.db)
        self.lobby = Lobby(self.config, self.store)
        self.connections: set[Connection] = set()
        self._dirty: list[Connection] = []
        self._flush_scheduled = False
        self._waiting: list[tuple[Batch, list[tuple[Connection, bytes]]]] = []
        self._committing = False
        self._stopping = False
        self._idle = asyncio.Event()
        self._fatal_stop: asyncio.Future[None] | None = None
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="setback-store")
        self._listener: asyncio.Server | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._stopped = asyncio.Event()

    @property
    def port(self) -> int:
        """The port listened on (useful with port 0)."""
        assert self._listener is not None
        return int(self._listener.sockets[0].getsockname()[1])

    async def start(self) -> None:
        self.lobby.restore()
        self.store.commit()
        loop = asyncio.get_running_loop()
        self._listener = await loop.create_server(
            lambda: Connection(self), self.config.host, self.config.port, reuse_address=True,
            ssl=self.config.tls_context(),
        )
        self._sweeper = asyncio.create_task(self._sweep())
        log.info(
            "listening", host=self.config.host, port=self.port, name=self.config.name,
            tls=self.config.tls_cert is not None, db=self.config.db or ":memory:",
        )

    def mark_dirty(self, connection: Connection) -> None:
        """``connection`` has output queued: flush at the end of this turn of the loop."""
        self._dirty.append(connection)
        if not self._flush_scheduled:
            self._flush_scheduled = True
            asyncio.get_running_loop().call_soon(self.flush)

    def flush(self) -> None:
        """End of a turn: this turn's records and messages join the commit pipeline."""
        self._flush_scheduled = False
        dirty, self._dirty = self._dirty, []
        self._waiting.append((self.store.take(), [(c, c.take_out()) for c in dirty]))
        self._pump()

    def _pump(self) -> None:
        """Commit the waiting turns together on the writer thread, then write their messages.

        One commit is in flight at a time; messages wait for the commit of their own turn
        and go out in the order they were queued, so the disk is always ahead of the wire.
        """
        if self._committing:
            return
        if not self._waiting:
            self._idle.set()
            return
        self._idle.clear()
        records: Batch = []
        outputs: list[tuple[Connection, bytes]] = []
        for batch, out in self._waiting:
            records += batch
            outputs += out
        self._waiting.clear()
        if not records:
            self._deliver(outputs)
            self._idle.set()
            return
        self._committing = True
        future = asyncio.get_running_loop().run_in_executor(self._writer, self.store.write, records)
        future.add_done_callback(lambda done: self._committed(done, outputs))

    def _committed(self, done: asyncio.Future[None], outputs: list[tuple[Connection, bytes]]) -> None:
        self._committing = False
        if done.exception() is not None:
            log.critical("store_failed", error=repr(done.exception()))
            self._fatal_stop = asyncio.ensure_future(self.stop("the server could not record the game and stopped"))
            return
        self._deliver(outputs)
        self._pump()

    @staticmethod
    def _deliver(outputs: list[tuple[Connection, bytes]]) -> None:
        for connection, data in outputs:
            connection.write_now(data)

    async def settle(self) -> None:
        """Wait until every queued record is committed and its messages written."""
        self.flush()
        await self._idle.wait()

    def admit(self, connection: Connection) -> bool:
        if len(self.connections) >= self.config.max_connections:
            return False
        self.connections.add(connection)
        return True

    def release(self, connection: Connection) -> None:
        if connection in self.connections:
            self.connections.discard(connection)
            if connection.greeted:
                self.lobby.drop(connection)

    async def _sweep(self) -> None:
        config = self.config
        interval = min(1.0, config.heartbeat / 3, config.hello_timeout / 3, config.idle_timeout / 3)
        while True:
            await asyncio.sleep(interval)
            now = time.monotonic()
            for connection in list(self.connections):
                connection.tick(now)

    async def stop(self, reason: str = "server shutting down") -> None:
        """Tell every client, commit every record, close every connection, stop listening."""
        if self._stopping:
            return
        self._stopping = True
        if self._listener is not None:
            self._listener.close()
        goodbye = Goodbye(reason=reason)
        for connection in list(self.connections):
            connection.send(goodbye)
        await self.settle()
        for connection in list(self.connections):
            connection.closing = True
            if connection.transport is not None:
                connection.transport.close()
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        if self._listener is not None:
            await self._listener.wait_closed()
            self._listener = None
        self._writer.shutdown(wait=True)
        self.store.close()
        self._stopped.set()
        log.info("stopped", reason=reason)

    async def wait_stopped(self) -> None:
        """Return once :meth:`stop` has finished."""
        await self._stopped.wait()

    async def serve_forever(self) -> None:
        """Run until SIGINT or SIGTERM, then stop cleanly."""
        await self.start()
        await self.run_until_stopped()

    async def run_until_stopped(self) -> None:
        """Once started: wait until SIGINT or SIGTERM, then stop cleanly."""
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, lambda: asyncio.ensure_future(self.stop()))
        await self.wait_stopped()


async def serve(config: ServerConfig, advertise: bool = False) -> None:
    """Serve until stopped; with ``advertise``, announced on the LAN over mDNS meanwhile."""
    server = Server(config)
    await server.start()
    advertisement = None
    if advertise:
        from setback.server.advertise import AdvertiseError, Advertisement

        try:
            advertisement = await Advertisement.start(config.name, config.host, server.port)
        except AdvertiseError as exc:
            log.warning("not_advertised", error=str(exc))
    try:
        await server.run_until_stopped()
    finally:
        if advertisement is not None:
            await advertisement.close()


def run(config: ServerConfig, advertise: bool = False) -> None:
    """Serve with uvloop when it is installed, else the standard event loop."""
    try:
        import uvloop
    except ImportError:
        asyncio.run(serve(config, advertise))
    else:
        uvloop.run(serve(config, advertise))
