"""The server ``setback play --bots`` runs inside the client: in process, on 127.0.0.1, a free port."""

from __future__ import annotations

from setback.server.app import Server
from setback.server.config import ServerConfig

EMBEDDED_NAME = "this computer"


def embedded_config(db: str | None = None) -> ServerConfig:
    """The embedded server's settings; ``db`` is its SQLite file (None: nothing is kept)."""
    return ServerConfig(host="127.0.0.1", port=0, name=EMBEDDED_NAME, db=db, local=True)


async def start_embedded(db: str | None = None) -> Server:
    """A started server for this client alone; stop it with ``await server.stop()``."""
    server = Server(embedded_config(db))
    await server.start()
    return server
