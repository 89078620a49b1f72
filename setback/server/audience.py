"""Who hears a table, and how its game reaches each of them as their seat may see it.

The audience is a table's connected players (each with its seat) and its spectators (with
no seat). It is worked out once and kept until the table says seats or spectators changed
(:meth:`Audience.forget`). Every event is encoded once for all who may see it alike; only a
deal differs by seat.
"""

from __future__ import annotations

from collections import deque

from setback.engine import Event, HandDealt
from setback.protocol import encode
from setback.protocol.convert import event_to_wire
from setback.protocol.messages import ChatLine, EventMessage, ServerMessage, WireEvent
from setback.protocol.views import WireViews
from setback.server.peer import Peer
from setback.server.seats import Seat

RECALLED_CHAT = 50
"""The table's latest chat lines a snapshot recalls."""
RECALLED_RESULTS = 500
"""The most hands' results a snapshot recalls (the latest): a game with no hand limit may go
on for ever, a server line may not."""

Recipients = list[tuple[Peer, int | None]]
"""Peers with the seat each hears the table from (None: a spectator)."""


class Audience:
    """The listeners of one table: its seats' connected players and its spectators."""

    __slots__ = ("_listening", "_recipients", "chat", "seats", "spectators", "table_id")

    def __init__(self, table_id: str, seats: list[Seat]) -> None:
        self.table_id = table_id
        self.seats = seats
        """The table's chairs (the seat book's list, shared)."""
        self.spectators: set[Peer] = set()
        self.chat: deque[ChatLine] = deque(maxlen=RECALLED_CHAT)
        """The latest lines said at the table, oldest first (what a snapshot recalls; after a restart,
        the records' latest, :meth:`recall`)."""
        self._recipients: Recipients | None = None
        self._listening: Recipients | None = None

    def forget(self) -> None:
        """Seats, players or spectators may have changed: work the audience out again when asked."""
        self._recipients = self._listening = None

    def recipients(self) -> Recipients:
        """Each connected player with its seat, then each spectator with None."""
        if self._recipients is None:
            seated = [(s.peer, s.index) for s in self.seats if s.peer is not None]
            self._recipients = [*seated, *((p, None) for p in self.spectators)]
        return self._recipients

    def peers(self) -> list[Peer]:
        """Everyone who hears the table: its connected players, then its spectators."""
        return [peer for peer, _ in self.recipients()]

    def listeners(self) -> Recipients:
        """The recipients that asked for the event stream."""
        if self._listening is None:
            self._listening = [(p, s) for p, s in self.recipients() if p.events]
        return self._listening

    def nobody_here(self) -> bool:
        """No player is connected and nobody watches: the game is played on (at the bots'
        pace, thinking briefly) only for the players who may come back, and for its result;
        the table counts against the address that made it (spec.md, "The lobby flow")."""
        return not self.spectators and all(s.peer is None for s in self.seats)

    def only_bots_watched(self) -> bool:
        """Built-in bots hold every seat and someone watches: they play at a pace to follow."""
        return bool(self.spectators) and all(s.kind == "builtin" for s in self.seats)

    def abandoned(self) -> bool:
        """No player, bot client or spectator is here or expected back (a seat whose player
        left during the game is played by its stand-in, and its token holds nothing)."""
        return not self.spectators and all(
            s.kind in {"empty", "builtin"} or (s.peer is None and s.token_hash is None) for s in self.seats
        )

    def broadcast(self, message: ServerMessage) -> None:
        """``message`` to every recipient, encoded once."""
        line = encode(message)
        for peer, _ in self.recipients():
            peer.send_line(line)

    def send_event(self, event: Event, recipients: Recipients, views: WireViews) -> None:
        """One event to each recipient as its seat may see it (only a deal differs by seat); a
        card played with the seat now winning the trick (``views`` have just taken it in)."""
        if isinstance(event, HandDealt):
            for peer, seat in recipients:
                peer.send(EventMessage(table=self.table_id, event=event_to_wire(event, seat)))
            return
        self.tell(recipients, event_to_wire(event, None, views.winning))

    def tell(self, recipients: Recipients, event: WireEvent) -> None:
        """An event every recipient may see alike, encoded once."""
        line = encode(EventMessage(table=self.table_id, event=event))
        for peer, _ in recipients:
            peer.send_line(line)

    def heard(self, sender: str, text: str) -> None:
        """A line of chat was said here: a snapshot recalls the latest (:data:`RECALLED_CHAT`)."""
        self.chat.append(ChatLine(sender=sender, text=text))

    def recall(self, lines: list[tuple[str, str]]) -> None:
        """The lines said here before a restart, oldest first (sender, text), as the records kept them."""
        self.chat.extend(ChatLine(sender=sender, text=text) for sender, text in lines)
