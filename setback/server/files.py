"""The open-file limit: the server raises it toward the hard limit as it starts, and holds no
more connections than it allows (each connection is one open file)."""

from __future__ import annotations

import dataclasses

import structlog

from setback.server.config import ServerConfig

log = structlog.get_logger("setback.server")

RESERVED_FILES = 64
"""Open files kept for what is not a connection: the records file and its WAL, the listeners,
mDNS, the logs, the bot processes' pipes."""


def soft_limit() -> int | None:
    """This process's soft limit of open files (None where the platform has no such limit)."""
    try:
        import resource
    except ImportError:  # (not on Windows)
        return None
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def raise_open_files() -> int | None:
    """Raise this process's soft limit of open files to its hard limit; the soft limit now
    (None where the platform has no such limit). The server's ``listening`` line says it."""
    try:
        import resource
    except ImportError:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
    if wanted > soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError) as exc:
            log.warning("open_files_not_raised", soft=soft, hard=hard, error=str(exc))
    return soft


def fit_open_files(config: ServerConfig) -> ServerConfig:
    """``config`` with ``max_connections`` no more than the open-file limit allows (raised
    first, :func:`raise_open_files`); a cap is logged. Past ``max_connections`` a peer is
    refused (``server_full``) rather than left waiting on a listener that cannot take it."""
    files = raise_open_files()
    if files is None or config.max_connections <= files - RESERVED_FILES:
        return config
    allowed = max(1, files - RESERVED_FILES)
    log.warning("max_connections_capped", max_connections=allowed, asked=config.max_connections, open_files=files)
    return dataclasses.replace(config, max_connections=allowed)
