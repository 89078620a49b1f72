"""The games a bot under test plays, each at a table of a server of our own, through a tap.

A :class:`Session` names a table (players, sides, clock, games) and the faults the tap
puts in it, by the number of the ``decide`` they come at. :func:`play_session` runs one:
a fresh server on 127.0.0.1, the table with built-in ``heuristic`` bots in the other seats,
the bot under test started to sit in the last seat, and the tap between the two. What
crossed the tap, and when each fault came, is the session's :class:`Transcript`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from msgspec import UNSET

from setback.bots.external import run_program
from setback.bots.registry import EXTERNAL, bot_factory, external_command
from setback.bots.remote import Seating, play_remote
from setback.bots.seat import Replaced
from setback.conformance.tap import Heard, PassAll, Pipe, Tap
from setback.engine import Variant
from setback.link import Address, LinkClosedError, ServerLink
from setback.protocol.messages import (
    Act,
    Clock,
    CreateTable,
    Decide,
    Error,
    GameOver,
    Join,
    Ready,
    TableUpdate,
    WireRules,
)
from setback.server.app import Server
from setback.server.config import ServerConfig

Fault = Literal["ping", "illegal", "resync", "drop", "stale", "restart"]
"""What the tap does at a ``decide``: sends the bot a ``ping`` first; refuses the bot's first
answer with a made-up ``illegal_action``; asks the server to ``resync`` (so the ``decide``
comes again); cuts the connection; holds the ``decide`` back until the clock has played
for the seat (the bot's answer is then stale); stops the server (``goodbye``) and starts
it again on its records."""

PING_NONCE = 424242
"""The nonce of the tap's own ``ping``."""



@dataclass(frozen=True)
class Session:
    """A table the bot plays at, and what goes wrong there."""

    name: str
    players: int
    teams: int | None = None
    games: int = 1
    decision_seconds: float = 10.0
    target: int = 7
    variant: Variant = Variant.STANDARD
    """The game the table plays (spec.md section 3, "Variants")."""
    faults: dict[int, Fault] = field(default_factory=dict)
    passers: bool = False
    """The other seats pass whenever they may (played by the check over the protocol), so
    that every hand the bot deals comes to it as a forced bid; else built-in ``heuristic`` bots."""

    @property
    def seat(self) -> int:
        """The bot under test sits last: the built-in bots take the lowest seats."""
        return self.players - 1


@dataclass(frozen=True)
class Struck:
    """A fault as the tap put it in."""

    fault: Fault
    at: float
    request: int
    connection: int


@dataclass
class Transcript:
    """What one session showed."""

    session: Session
    heard: list[Heard]
    struck: list[Struck]
    ended_early: str | None = None
    """How the bot ended before its games were over (exited, crashed, came back without its
    seat's token), or None."""
    finished: bool = False
    """Whether every game of the session was over in time."""
    replaced: dict[int, Replaced] = field(default_factory=dict)
    """The requests an SDK bot's seat answered with the fallback, and what the bot did instead
    (the lines on the wire are then the SDK's, not the bot's)."""


class Faults(PassAll):
    """The tap's meddling for one session."""

    def __init__(self, session: Session, restart: Callable[[], Awaitable[None]]) -> None:
        self.session = session
        self.restart = restart
        self.decides = 0
        self.struck: list[Struck] = []
        self.refuse: int | None = None
        """The request whose next answer is refused with a made-up ``illegal_action``."""
        self.held: list[dict[str, Any]] | None = None
        """While a resync is under way: the bot's lines held back until its decide came again."""
        self.resending: int | None = None
        self.token: str | None = None
        """The seat's token, as the server last gave it to the bot (in a ``welcome`` or ``joined``)."""
        self.seat_lost = False
        """Whether the bot said ``hello`` again without that token: the server holds the seat
        for the token alone, so the bot has no part in the rest of the session."""
        self._tasks: set[asyncio.Task[None]] = set()

    def _later(self, work: Awaitable[None]) -> None:
        async def run() -> None:
            await work

        task = asyncio.ensure_future(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def from_server(self, pipe: Pipe, message: dict[str, Any]) -> bool:
        kind = message.get("type")
        if kind in ("welcome", "joined") and isinstance(token := message.get("token"), str):
            self.token = token
        if kind != "decide":
            return False
        request = int(message["request"])
        if self.resending == request and self.held is not None:  # the decide again, after the resync
            await pipe.to_bot(message, made_up=False)
            held, self.held, self.resending = self.held, None, None
            for line in held:
                await pipe.to_server(line, made_up=False)
            return True
        self.decides += 1
        fault = self.session.faults.get(self.decides)
        if fault is None:
            return False
        self.struck.append(Struck(fault, time.monotonic(), request, pipe.number))
        match fault:
            case "ping":
                await pipe.to_bot({"type": "ping", "nonce": PING_NONCE})
            case "illegal":
                self.refuse = request
            case "resync":
                await pipe.to_bot(message, made_up=False)
                self.held, self.resending = [], request
                await pipe.to_server({"type": "resync"})
                return True
            case "drop":
                await pipe.to_bot(message, made_up=False)
                pipe.cut()
                return True
            case "stale":
                limit = (message.get("clock") or {}).get("limit_ms") or 1000
                self._later(self._deliver_late(pipe, message, limit / 1000 + 0.5))
                return True
            case "restart":
                await pipe.to_bot(message, made_up=False)
                self._later(self.restart())
                return True
        return False

    async def _deliver_late(self, pipe: Pipe, message: dict[str, Any], seconds: float) -> None:
        await asyncio.sleep(seconds)
        await pipe.to_bot(message, made_up=False)

    async def from_bot(self, pipe: Pipe, message: dict[str, Any]) -> bool:
        kind = message.get("type")
        if kind == "hello" and self.token is not None and message.get("token") != self.token:
            self.seat_lost = True
        if kind == "pong" and message.get("nonce") == PING_NONCE:
            return True  # the answer to the tap's own ping: not the server's business
        if kind == "act" and self.refuse is not None and message.get("request") == self.refuse:
            self.refuse = None
            await pipe.to_bot({
                "type": "error", "id": message.get("id"), "code": "illegal_action",
                "message": "check-bot refused this answer on purpose: the request stands, answer it again",
                "path": None, "fatal": False, "request": message.get("request"),
            })
            return True
        if self.held is not None:
            self.held.append(message)
            return True
        return False

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


class BotUnderTest:
    """The bot being checked: a SPEC of the SDK, played in this process, or a ``cmd:`` program."""

    def __init__(self, spec: str, seed: int = 0) -> None:
        self.spec = spec
        self.seed = seed
        if spec.startswith(EXTERNAL):
            external_command(spec)  # ValueError now for a program that cannot be named
        else:
            bot_factory(spec)

    async def play(self, port: int, table: str, seat: int, games: int, replaced: dict[int, Replaced]) -> str:
        """Play until the games are over (or until cancelled); how it ended. ``replaced`` gets
        the requests an SDK bot's seat answered with the fallback, and what the bot did."""
        if not self.spec.startswith(EXTERNAL):
            link = ServerLink(Address("127.0.0.1", port), "check-bot", kind="bot")
            bot = bot_factory(self.spec)(self.seed)
            played = await play_remote(link, bot, Seating(table, seat), games=games, replaced=replaced)
            return f"ended after {played} games"
        status = await run_program(self.spec, "127.0.0.1", port, table, seat, "check-bot")
        return f"exited with status {status}"


async def play_session(bot: BotUnderTest, session: Session, folder: Path, seed: int) -> Transcript:
    """Run ``session`` for ``bot``; the transcript, whatever the bot did. The session ends as
    soon as its games are over, the bot has ended (its process exited), or the bot came back
    without its seat's token (the seat is then lost to it), else after a minute and a minute a game."""
    config = ServerConfig(
        host="127.0.0.1", port=0, db=str(folder / f"{session.name.replace(' ', '-')}.sqlite3"),
        reconnect_grace=60, idle_timeout=3600,
    )
    servers = [Server(config)]
    await servers[0].start()
    tap = Tap(servers[0].port)

    async def restart() -> None:
        tap.down = True
        await servers[-1].stop()
        servers.append(Server(config))
        await servers[-1].start()
        tap.upstream = servers[-1].port
        tap.down = False

    faults = Faults(session, restart)
    tap.meddler = faults
    port = await tap.start()
    maker = ServerLink(Address("127.0.0.1", servers[0].port), "check-bot-table", kind="bot", events=False)
    await maker.connect()
    await maker.send(CreateTable(
        id="check", name=f"check-bot: {session.name}"[:40], seed=seed,
        rules=WireRules(players=session.players, teams=session.teams, target=session.target,
                        variant=UNSET if session.variant is Variant.STANDARD else session.variant.value),
        clock=Clock(decision_seconds=session.decision_seconds, bot_after_timeouts=None),
        bots=[] if session.passers else ["heuristic"] * (session.players - 1),
    ))
    while not isinstance(reply := await maker.receive(), TableUpdate) or reply.id != "check":
        if isinstance(reply, Error) and reply.id == "check":
            raise RuntimeError(f"check-bot could not make its table: {reply.code}: {reply.message}")
    table = reply.table.table
    others = [asyncio.ensure_future(_pass_when_you_may(servers[0].port, table, seat))
              for seat in range(session.players - 1)] if session.passers else []
    transcript = Transcript(session, tap.heard, faults.struck)
    playing = asyncio.ensure_future(bot.play(port, table, session.seat, session.games, transcript.replaced))

    def over() -> int:
        return sum(1 for h in tap.heard if h.sender == "server" and not h.to_server and h.type == "game_over")

    def done() -> bool:
        return over() >= session.games or playing.done() or faults.seat_lost

    try:
        await tap.wait_for(done, 60.0 + 60.0 * session.games)
        transcript.finished = over() >= session.games
        if playing.done() and not transcript.finished:
            transcript.ended_early = _how(playing)
        elif faults.seat_lost and not transcript.finished:
            transcript.ended_early = "came back without its seat's token, so its seat was no longer its own"
    finally:
        for task in (playing, *others):
            task.cancel()
        await asyncio.gather(playing, *others, return_exceptions=True)
        await faults.close()
        await maker.close()
        await tap.stop()
        await servers[-1].stop()
    return transcript


async def _pass_when_you_may(port: int, table: str, seat: int) -> None:
    """Sit at ``seat`` and pass whenever passing is legal (else the lowest legal action),
    game after game, until the server closes."""
    link = ServerLink(Address("127.0.0.1", port), f"check-passer-{seat}", kind="bot", events=False)
    await link.connect()
    await link.send(Join(table=table, seat=seat, ready=True))
    try:
        while True:
            try:
                message = await link.receive()
            except LinkClosedError:
                return
            match message:
                case Decide(request=request, view=view):
                    await link.send(Act(request=request, action="pass" if "pass" in view.legal else view.legal[0]))
                case GameOver():
                    await link.send(Ready())
                case _:
                    pass
    finally:
        await link.close()


def _how(playing: asyncio.Future[str]) -> str:
    if playing.cancelled():
        return "was stopped"
    error = playing.exception()
    if error is not None:
        return f"failed: {error!r}"
    return playing.result()
