"""What a table needs of a connected player: a name, a kind, a token and a way to send."""

from __future__ import annotations

from typing import Literal, Protocol

from setback.protocol.messages import ServerMessage


class Peer(Protocol):
    """A greeted connection as the lobby and the tables see it."""

    name: str
    kind: Literal["human", "bot"]
    token: str
    events: bool
    """Whether it asked for the event stream."""

    def send(self, message: ServerMessage) -> None:
        """Queue a message; never blocks, never raises (a dead peer drops it)."""

    def send_line(self, line: bytes) -> None:
        """Queue an already encoded line (newline included)."""
