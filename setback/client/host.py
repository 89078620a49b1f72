"""What a screen of the text client needs of the app that shows it, and nothing more.

The screens (:mod:`setback.client.screens`) turn keys and clicks into requests and ask the
app (:class:`~setback.client.app.SetbackApp`) to connect, send, retry or quit; they see it
as a :class:`ClientHost`, so they never import the app that shows them (the arrow runs one
way, app to screens).
"""

from __future__ import annotations

from typing import Protocol

from setback.client.options import PlayOptions
from setback.client.state import ClientState
from setback.link.server_link import Address, ServerLink
from setback.protocol.messages import ClientMessage


class ClientHost(Protocol):
    """The text client as its screens see it."""

    options: PlayOptions
    ascii: bool
    """Cards and borders drawn in ASCII only."""
    state: ClientState
    """The one model of everything the client knows, folded from the server's messages."""

    def connect(self, address: Address, link: ServerLink | None = None) -> None:
        """Connect to the server at ``address`` and show the lobby (or the table, once seated)."""

    async def send(self, message: ClientMessage) -> None:
        """Send ``message`` to the server (nothing while no server is connected)."""

    async def retry(self, password: str | None = None) -> None:
        """After the connection was given up: try the same server again."""

    async def discover_again(self) -> None:
        """Give up the server that does not answer and show the servers on the LAN again."""

    async def quit(self) -> None:
        """Close the session and leave the client."""
