"""The seat tokens the text client and ``setback bot`` hold, kept in a file so that a restarted
client sits down again where it was (spec.md section 13): one entry a seat, keyed by the
server (``host:port``), the table and the seat, and holding the player's name, the token,
when it was kept and which process keeps it. Two players of one name at one server (two
bots both called ``heuristic``, at two tables) are two entries, and each, restarted, comes
back to its own seat: a bot started with ``--table`` (and ``--seat``) looks only at that
table's (and seat's) entries; the text client takes the newest of its name it finds free.

A token is a secret (it holds a seat), so the file is written for its owner only. Tokens
older than :data:`KEPT_SECONDS` are dropped: no server holds a seat that long for someone
who is away. Every client and bot of a user shares the file: each change is written to a
temporary file of its own and moved over the file whole, so a reader never sees half of
one, and a change is made under a lock (``seats.json.lock``), so that one process's change
never writes over another's made meanwhile.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import structlog

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; changes are still written whole, but not in turn
    fcntl = None  # type: ignore[assignment]

log = structlog.get_logger("setback.seat_tokens")

KEPT_SECONDS = 24 * 3600.0

Entry = dict[str, str | float | int]
"""One kept seat: ``server``, ``table``, ``seat``, ``name``, ``token``, ``at`` (when kept) and ``pid``."""

_TEXTS = ("server", "table", "name", "token")


class SeatTokens:
    """The file of seat tokens at ``path``; a file that cannot be read or written is
    treated as empty (the client then simply starts in the lobby)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def token(self, server: str, name: str, table: str | None = None, seat: int | None = None) -> str | None:
        """The token that held ``name``'s seat at ``server`` (``host:port``), at ``table`` and
        ``seat`` when given, if one is kept and no other live process holds that seat: a kept
        token is for coming back to a seat a process left (it stopped, or crashed), never for
        taking one from a process still playing there. Of several, the newest. The entry is
        taken for this process there and then, so that a second process started meanwhile
        under the same name takes another entry, not this one."""
        with self._changing():
            entries = self._read()
            free = [
                (entry["at"], key) for key, entry in entries.items()
                if (entry["server"], entry["name"]) == (server, name) and table in (None, entry["table"])
                and seat in (None, entry["seat"]) and not _alive(entry.get("pid"))
            ]
            if not free:
                return None
            taken = entries[max(free)[1]]
            if taken.get("pid") != os.getpid():
                taken["pid"] = os.getpid()
                self._write(entries)
            return str(taken["token"])

    def keep(self, server: str, name: str, token: str, table: str, seat: int) -> None:
        """Keep ``token`` as this process's seat of ``name`` at ``server``: ``seat`` (from 0)
        at ``table``. A token holds one seat at a time: an entry of it at another seat goes."""
        with self._changing():
            entries = {key: entry for key, entry in self._read().items() if entry["token"] != token}
            entries[_key(server, table, seat)] = {
                "server": server, "table": table, "seat": seat, "name": name, "token": token, "at": time.time(),
                "pid": os.getpid(),
            }
            self._write(entries)

    def forget(self, server: str, token: str) -> None:
        """Forget the seat ``token`` held at ``server`` (it was given up, or the server no longer holds it)."""
        with self._changing():
            entries = self._read()
            kept = {
                key: entry for key, entry in entries.items() if (entry["server"], entry["token"]) != (server, token)
            }
            if len(kept) != len(entries):
                self._write(kept)

    @contextlib.contextmanager
    def _changing(self) -> Iterator[None]:
        """Hold the file's lock from reading it to writing it back: another process's change
        waits, then reads this one's. (No lock where there is no fcntl, or when the lock file
        cannot be made: the change goes ahead all the same.)"""
        lock = None
        if fcntl is not None:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                lock = os.open(f"{self.path}.lock", os.O_RDWR | os.O_CREAT, 0o600)
                fcntl.flock(lock, fcntl.LOCK_EX)
            except OSError as exc:
                log.warning("seat_tokens_not_locked", path=str(self.path), error=str(exc))
        try:
            yield
        finally:
            if lock is not None:
                os.close(lock)  # which lets go of the lock

    def _read(self) -> dict[str, Entry]:
        """The entries kept, less those too old and any not of this form (an entry of a
        version before seats were keyed is one of those: that seat is joined afresh)."""
        try:
            loaded = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        now = time.time()
        return {
            key: entry for key, entry in loaded.items()
            if isinstance(entry, dict) and all(isinstance(entry.get(field), str) for field in _TEXTS)
            and isinstance(entry.get("seat"), int) and isinstance(entry.get("at"), int | float)
            and now - entry["at"] < KEPT_SECONDS
        } if isinstance(loaded, dict) else {}

    def _write(self, entries: dict[str, Entry]) -> None:
        """Write ``entries`` to a temporary file of this process's own beside the file (for the
        owner only, as mkstemp makes it), then move it over the file in one step."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            descriptor, partial = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp", dir=self.path.parent)
            try:
                with os.fdopen(descriptor, "w", encoding="utf-8") as file:
                    json.dump(entries, file)
                os.replace(partial, self.path)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(partial)
                raise
        except OSError as exc:
            log.warning("seat_tokens_not_saved", path=str(self.path), error=str(exc))


def _alive(pid: object) -> bool:
    """Whether ``pid`` (as kept: a number, or missing in files written before it was) names
    a running process other than this one."""
    if not isinstance(pid, int) or pid == os.getpid() or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # it exists, but is another user's
        return True
    return True


def _key(server: str, table: str, seat: int) -> str:
    """An entry's key: the seat it is for (one entry a seat)."""
    return f"{server} {table} {seat}"
