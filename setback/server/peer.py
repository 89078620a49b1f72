"""What a table needs of a connected player: a name, a kind, a token and a way to send."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, Protocol

import msgspec

from setback.protocol import encode
from setback.protocol.messages import Chat, ServerMessage


class Peer(Protocol):
    """A greeted connection as the lobby and the tables see it."""

    name: str
    kind: Literal["human", "bot"]
    token: str
    host: str
    """Its address, without the port."""
    events: bool
    """Whether it asked for the event stream."""
    minor: int
    """The minor protocol version its hello announced (``1.3``: 3): what it can read."""

    def send(self, message: ServerMessage) -> None:
        """Queue a message; never blocks, never raises (a dead peer drops it)."""

    def send_line(self, line: bytes) -> None:
        """Queue an already encoded line (newline included)."""


def send_chat(listeners: Iterable[Peer], sender: Peer, chat: Chat) -> None:
    """``chat`` (carrying the id of ``sender``'s request) to ``sender``; to every other listener
    without the id, encoded once."""
    line = encode(msgspec.structs.replace(chat, id=None))
    for peer in listeners:
        if peer is not sender:
            peer.send_line(line)
    sender.send(chat)
