"""A bot at a server's table: the protocol side of the SDK (``setback bot``).

:func:`play_remote` joins a table, answers every ``decide`` through
:class:`~setback.bots.BotSeat` (so a bot that raises or overruns gets the fallback,
never a hung seat), tells the bot's hooks, says ``ready`` after each game, and after a
dropped connection reconnects with its seat token and carries on where the game is.
After its last game it leaves the table, so the seat is free at once rather than held
for a reconnection. It writes nothing on stdout: that is the bot's own.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass

import structlog

from setback.bots.base import Bot
from setback.bots.seat import BotSeat, Clock, Limits
from setback.client.link import LinkClosedError, ServerLink
from setback.protocol.convert import outcome_from_wire, result_from_wire, view_from_wire
from setback.protocol.messages import (
    Act,
    Decide,
    Error,
    EventMessage,
    GameOver,
    HandScoredEvent,
    Join,
    Joined,
    Leave,
    Left,
    Ready,
)

log = structlog.get_logger("setback.bot")

LEAVE_SECONDS = 5.0
"""How long a bot that has played its games waits for ``left`` before it closes anyway."""


@dataclass(frozen=True)
class Seating:
    """Where the bot sits: a table, a seat (None: the lowest free one), a private table's invite."""

    table: str
    seat: int | None = None
    invite: str | None = None


class SeatRefusedError(RuntimeError):
    """The server would not seat the bot (the error's code and text)."""


async def play_remote(
    link: ServerLink, bot: Bot, seating: Seating, games: int | None = None, limit: float | None = None,
    reconnect_attempts: int = 30, clock: Clock | None = None,
) -> int:
    """Play until ``games`` games are over (None: until the server closes); the games played.

    ``limit`` caps the bot's own time per decision (the table's clock caps it anyway);
    ``clock``, when given, gets the bot's decision times, timeouts and errors.
    """
    await link.connect()
    await link.send(Join(id="join", table=seating.table, seat=seating.seat, ready=True, invite=seating.invite))
    agent: BotSeat | None = None
    played = 0
    hand = 0
    try:
        while games is None or played < games:
            try:
                message = await link.receive()
            except LinkClosedError as closed:
                if closed.goodbye:
                    log.info("server_stopped", reason=closed.reason)
                    break
                if link.seat is None:
                    raise
                log.info("reconnecting", table=link.table, seat=link.seat, reason=closed.reason)
                await link.reconnect(attempts=reconnect_attempts)
                continue
            match message:
                case Joined(seat=seat):
                    if agent is None:
                        agent = BotSeat(bot, seat, Limits(decision=limit))
                case Error(id="join", code=code, message=text):
                    raise SeatRefusedError(f"{code}: {text}")
                case Error(code=code, message=text):
                    log.warning("server_error", code=code, message=text)
                case Decide(request=request, view=wire, clock=timer):
                    assert agent is not None
                    remaining = timer.remaining_ms / 1000 if timer.remaining_ms is not None else None
                    view = view_from_wire(wire, remaining)
                    if view.hand_number != hand:
                        hand = view.hand_number
                        await agent.notify(bot.on_hand_start, view)
                    action = await agent.decide(view)
                    await link.send(Act(request=request, action=str(action)))
                case EventMessage(event=HandScoredEvent(result=result)) if agent is not None:
                    await agent.notify(bot.on_hand_end, result_from_wire(result))
                case GameOver(outcome=outcome):
                    played += 1
                    if agent is not None:
                        await agent.notify(bot.on_game_end, outcome_from_wire(outcome))
                    hand = 0
                    if games is None or played < games:
                        await link.send(Ready())
                case _:
                    pass
        if games is not None and played == games:
            await _leave(link)
    finally:
        if agent is not None:
            agent.close()
            if clock is not None:
                clock.add(agent.clock)
        await link.close()
    return played


async def _leave(link: ServerLink) -> None:
    """Give the seat back: ``leave``, then wait (a while) for ``left`` or a refusal."""
    with contextlib.suppress(LinkClosedError, TimeoutError):
        await link.send(Leave(id="leave"))
        async with asyncio.timeout(LEAVE_SECONDS):
            while True:
                match await link.receive():
                    case Left() | Error(id="leave"):
                        return
                    case _:
                        pass
