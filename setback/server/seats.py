"""A table's parts: its seats, its options, the decision it waits for, the built-in bots."""

from __future__ import annotations

import asyncio
import secrets
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Literal

import msgspec

from setback.bots import BotSeat, Limits
from setback.bots.levels import maker
from setback.engine import Action, Rules
from setback.protocol import Code
from setback.protocol.convert import rules_from_wire, rules_to_wire
from setback.protocol.messages import DEFAULT_BOT_PACE, Clock, Error, RequestId, SeatInfo, WireRules
from setback.server.peer import Peer
from setback.server.timesource import Cancellable

STAND_IN = "heuristic"
"""The built-in bot that plays a seat whose player timed out too often, left or stayed away."""
BUILTIN_LIMITS = Limits(decision_seconds=10.0)
"""Built-in bots play off the table's clock, but none may think longer than this."""


BUILTIN_THREADS = ThreadPoolExecutor(max_workers=8, thread_name_prefix="builtin-bot")
"""The threads every built-in bot of the server thinks on (started as needed, shared by all)."""


def builtin_bot(name: str, seat: int) -> BotSeat:
    """The built-in bot or level ``name`` at ``seat``, asked the way every bot is (:class:`setback.bots.BotSeat`)."""
    return BotSeat(maker(name)(secrets.randbits(32)), seat, BUILTIN_LIMITS, BUILTIN_THREADS)


class RefusedError(Exception):
    """A request the server refuses, with the error code to send (fatal codes close the connection)."""

    def __init__(
        self, code: Code, message: str, path: str | None = None, request: int | None = None,
        options: list[str] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.path = path
        """For ``invalid_field``: the JSON path of the field refused, as msgspec names it."""
        self.request = request
        """For a refused answer whose decision stands: the number of the request to answer."""
        self.options = options
        """For ``refused`` table options: the two options that do not go together."""

    def answer(self, request_id: RequestId) -> Error:
        """The error that tells the peer, answering its message ``request_id``."""
        return Error(
            id=request_id, code=self.code, message=self.message, path=self.path, request=self.request,
            options=self.options,
        )


@dataclass
class Seat:
    """One chair. ``peer`` is the connected player (None when empty, a built-in, or away)."""

    index: int
    kind: Literal["empty", "human", "bot", "builtin"] = "empty"
    name: str | None = None
    token_hash: str | None = None
    """The SHA-256 of the token that holds the seat (never the token itself)."""
    peer: Peer | None = None
    ready: bool = False
    bot: BotSeat | None = None
    """The built-in bot playing the seat: a built-in seat's own, or a stand-in's."""
    builtin: str | None = None
    """A built-in seat's bot name."""
    rating: float | None = None
    timeouts: int = 0
    """Consecutive decisions lost to the clock."""
    total_timeouts: int = 0
    """Decisions lost to the clock in the game in play (between games, in the last one)."""
    owes_ready: bool = False
    """A game's start cleared the seat's readiness, and its player has not said ready since:
    the game asks for that ``ready``, which costs nothing of the rate limit."""
    grace: Cancellable | None = None
    """The end of the grace period the seat is kept for its token, while its player is away."""

    @property
    def taken(self) -> bool:
        return self.kind != "empty"

    def seat_bot(self, bot: BotSeat | None) -> None:
        """Put ``bot`` in the seat (None: no bot), letting the one it replaces go (its thread ends)."""
        if self.bot is not None and self.bot is not bot:
            self.bot.close()
        self.bot = bot

    def info(self) -> SeatInfo:
        builtin = self.kind == "builtin"
        return SeatInfo(
            seat=self.index, name=self.name, kind=self.kind, ready=self.ready or builtin,
            connected=builtin or self.peer is not None, timeouts=self.total_timeouts,
            replaced_by_bot=not builtin and self.bot is not None, rating=self.rating,
        )


def seat_names(seats: list[Seat]) -> list[str]:
    """The name at each seat, as games and snapshots give them."""
    return [s.name or f"seat {s.index}" for s in seats]


class Pending:
    """The decision a seat owes: its request number and its deadline (the table's time)."""

    __slots__ = ("deadline", "request", "seat", "thinking", "timer")

    def __init__(self, request: int, seat: int, deadline: float | None) -> None:
        self.request = request
        self.seat = seat
        self.deadline = deadline
        self.timer: Cancellable | None = None
        """The clock's timer, or the wait before a paced bot's move."""
        self.thinking: asyncio.Future[Action] | None = None
        """A built-in bot's decision in progress."""


@dataclass(frozen=True)
class Waits:
    """The server's waits, the same at every table (``ServerConfig``'s): never stored with one."""

    reconnect_grace: float = 120.0
    bot_table_pause: float = 5.0
    bot_table_pace: float = 1.0


@dataclass
class TableOptions:
    name: str
    rules: Rules
    clock: Clock
    seed: int | None = None
    bot_chat: bool = False
    waits: Waits = field(default_factory=Waits)
    rated: bool = False
    invite: str | None = None
    """A private table's invite code: joining or watching needs it."""
    bot_pace: float = 0.0
    """Seconds a bot waits before its move while a person sits here (see ``Table._pause_for_people``)."""

    def saved(self) -> dict[str, object]:
        """What the store keeps of the options (the waits are the server's)."""
        return {
            "rules": msgspec.to_builtins(rules_to_wire(self.rules)), "clock": msgspec.to_builtins(self.clock),
            "seed": self.seed, "bot_chat": self.bot_chat, "rated": self.rated, "invite": self.invite,
            "bot_pace": self.bot_pace,
        }


def options_from_saved(name: str, data: dict[str, Any], waits: Waits) -> TableOptions:
    """The options :meth:`TableOptions.saved` wrote, with the server's waits."""
    return TableOptions(
        name=name,
        rules=rules_from_wire(msgspec.convert(data["rules"], WireRules)),
        clock=msgspec.convert(data["clock"], Clock),
        seed=data["seed"],
        bot_chat=data["bot_chat"],
        waits=waits,
        rated=data["rated"],
        invite=data["invite"],
        bot_pace=data.get("bot_pace", DEFAULT_BOT_PACE),  # tables saved before 1.3 take today's default
    )
