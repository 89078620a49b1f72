"""What a connection needs of the server that holds it, and nothing more.

A :class:`~setback.server.connection.Connection` is made by the server
(:class:`~setback.server.app.Server`) and calls it back: to be admitted and released, to
count the output it holds and to have it flushed. It is given a :class:`Host`, so the
connection never imports the server that makes it (the arrow runs one way, app to connection).
"""

from __future__ import annotations

from typing import Protocol, TypeVar

from setback.server.config import ServerConfig
from setback.server.guard import PasswordGuard
from setback.server.lobby import Lobby

C_contra = TypeVar("C_contra", contravariant=True)
"""The connections a host holds."""


class Host(Protocol[C_contra]):
    """A server as its connections see it."""

    config: ServerConfig
    lobby: Lobby
    passwords: PasswordGuard
    """Wrong passwords by address, counted across every connection."""

    def admit(self, connection: C_contra) -> bool:
        """Take ``connection`` in, or False when the server holds all it may."""

    def release(self, connection: C_contra) -> None:
        """``connection`` is gone: forget it (and its peer's place in the lobby)."""

    def hold(self, connection: C_contra, held: int) -> None:
        """``connection`` now holds ``held`` bytes of unread output (the server's budget for all)."""

    def mark_dirty(self, connection: C_contra) -> None:
        """``connection`` has output queued: flush it at the end of this turn of the loop."""
