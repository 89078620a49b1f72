"""How ``setback play`` was asked to run: the options the text client starts from."""

from __future__ import annotations

import ssl
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from setback.client.state import QuickGame
from setback.link.server_link import Address
from setback.protocol.messages import WireRules


@dataclass(frozen=True)
class PlayOptions:
    """How ``setback play`` was asked to run."""

    name: str
    address: Address | None = None
    """The server; None: look for one on the LAN first."""
    password: str | None = None
    """The server's password, when it has one (``setback serve --password``)."""
    plan: QuickGame | None = None
    """A table to create and sit at on arrival (``--bots``)."""
    rules: WireRules = field(default_factory=WireRules)
    """The options a new table starts from in the lobby's dialog."""
    clock: float | None = None
    ascii: bool = False
    """Suit letters instead of symbols."""
    tls: ssl.SSLContext | None = None
    """Speak TLS to the server (``--tls``, ``--tls-ca``)."""
    embedded: bool = False
    """The server runs inside this client (``--bots`` and no HOST): quitting stops it, and its games."""
    browse_seconds: float = 1.5
    mdns_interfaces: Sequence[str] | None = None
    reconnect_attempts: int = 30
    seat_tokens: Path | None = None
    """The file that keeps seat tokens across runs (None: keep none, as for an embedded server)."""
