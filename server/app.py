"""The server: listening, admitting connections, the once-a-second sweep, and a clean stop."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time

import structlog

from setback.protocol.messages import Goodbye
from setback.server.config import ServerConfig
from setback.server.connection import Connection
from setback.server.lobby import Lobby

log = structlog.get_logger("setback.server")


class Server:
    """``setback serve``: a lobby of tables behind a TCP listener."""

    def __init__(self, config: ServerConfig | None = None) -> None:
        self.config = config or ServerConfig()
        self.lobby = Lobby(self.config)
        self.connections: set[Connection] = set()
        self._listener: asyncio.Server | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._stopped = asyncio.Event()

    @property
    def port(self) -> int:
        """The port listened on (useful with port 0)."""
        assert self._listener is not None
        return int(self._listener.sockets[0].getsockname()[1])

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._listener = await loop.create_server(
            lambda: Connection(self), self.config.host, self.config.port, reuse_address=True
        )
        self._sweeper = asyncio.create_task(self._sweep())
        log.info("listening", host=self.config.host, port=self.port, name=self.config.name)

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
        """Tell every client, close every connection, stop listening."""
        if self._listener is None:
            return
        self._listener.close()
        goodbye = Goodbye(reason=reason)
        for connection in list(self.connections):
            connection.send(goodbye)
            connection.closing = True
            if connection.transport is not None:
                connection.transport.close()
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        await self._listener.wait_closed()
        self._listener = None
        self._stopped.set()
        log.info("stopped", reason=reason)

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
        await self._stopped.wait()


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
