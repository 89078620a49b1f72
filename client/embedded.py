"""The server ``setback play --bots`` runs inside the client: in process, on 127.0.0.1, a free port."""

from __future__ import annotations

import dataclasses

from setback.server.app import Server
from setback.server.config import ServerConfig

EMBEDDED_NAME = "this computer"


def embedded_config(db: str | None = None) -> ServerConfig:
    """The embedded server's settings; ``db`` is the SQLite file, once the server keeps one.

    ValueError when a file is asked for and this server cannot keep one yet.
    """
    config = ServerConfig(host="127.0.0.1", port=0, name=EMBEDDED_NAME)
    if db is None:
        return config
    if "db" not in {f.name for f in dataclasses.fields(ServerConfig)}:
        raise ValueError("--db: this server does not keep a SQLite file yet")
    hook: dict[str, object] = {"db": db}
    return dataclasses.replace(config, **hook)  # type: ignore[arg-type]


async def start_embedded(db: str | None = None) -> Server:
    """A started server for this client alone; stop it with ``await server.stop()``."""
    server = Server(embedded_config(db))
    await server.start()
    return server
