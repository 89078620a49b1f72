"""What a connection needs of the server that holds it, and nothing more.

A :class:`~setback.server.connection.Connection` is made by the server
(:class:`~setback.server.app.Server`) and calls it back: to be admitted and released. It
counts the output it holds, and has it written at the end of the turn, through the server's
:class:`~setback.server.outgoing.Outgoing`. It is given a :class:`Host`, so the
connection never imports the server that makes it (the arrow runs one way, app to connection).
"""

from __future__ import annotations

from typing import Protocol, TypeVar

from setback.server.config import ServerConfig
from setback.server.guard import PasswordGuard
from setback.server.lobby import Lobby
from setback.server.outgoing import Outgoing

C = TypeVar("C")
"""The connections a host holds."""


class Host(Protocol[C]):
    """A server as its connections see it."""

    config: ServerConfig
    lobby: Lobby
    passwords: PasswordGuard
    """Wrong passwords by address, counted across every connection."""
    outgoing: Outgoing[C]
    """The bytes every peer makes the server hold, and the connections to write this turn."""

    def admit(self, connection: C) -> bool:
        """Take ``connection`` in, or False when the server holds all it may."""

    def release(self, connection: C) -> None:
        """``connection`` is gone: forget it (and its peer's place in the lobby)."""
