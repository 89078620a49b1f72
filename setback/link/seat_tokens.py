"""The seat tokens the text client holds, kept in a file so that a restarted client sits
down again where it was (spec.md section 13): one token a server and player name.

A token is a secret (it holds a seat), so the file is written for its owner only. Tokens
older than :data:`KEPT_SECONDS` are dropped: no server holds a seat that long for someone
who is away.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import structlog

log = structlog.get_logger("setback.seat_tokens")

KEPT_SECONDS = 24 * 3600.0


class SeatTokens:
    """The file of seat tokens at ``path``; a file that cannot be read or written is
    treated as empty (the client then simply starts in the lobby)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def token(self, server: str, name: str) -> str | None:
        """The token that held ``name``'s seat at ``server`` (``host:port``), if one is kept."""
        entry = self._read().get(_key(server, name))
        return str(entry["token"]) if entry else None

    def keep(self, server: str, name: str, token: str) -> None:
        entries = self._read()
        entries[_key(server, name)] = {"token": token, "at": time.time()}
        self._write(entries)

    def forget(self, server: str, name: str) -> None:
        entries = self._read()
        if entries.pop(_key(server, name), None) is not None:
            self._write(entries)

    def _read(self) -> dict[str, dict[str, str | float]]:
        try:
            loaded = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        now = time.time()
        return {
            key: entry for key, entry in loaded.items()
            if isinstance(entry, dict) and isinstance(entry.get("token"), str)
            and isinstance(entry.get("at"), int | float) and now - entry["at"] < KEPT_SECONDS
        } if isinstance(loaded, dict) else {}

    def _write(self, entries: dict[str, dict[str, str | float]]) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            partial = self.path.with_suffix(".tmp")
            descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(descriptor, "w", encoding="utf-8") as file:
                json.dump(entries, file)
            partial.replace(self.path)
        except OSError as exc:
            log.warning("seat_tokens_not_saved", path=str(self.path), error=str(exc))


def _key(server: str, name: str) -> str:
    return f"{server} {name}"
