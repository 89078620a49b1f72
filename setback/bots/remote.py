"""A bot at a server's table: the protocol side of the SDK (``setback bot``).

:func:`play_remote` joins a table, answers every ``decide`` through
:class:`~setback.bots.BotSeat` (so a bot that raises or overruns gets the fallback,
never a hung seat), tells the bot's hooks, says ``ready`` after each game, and after a
dropped connection, or a server that stops and comes back, reconnects with its seat token
and carries on where the game is (a token kept in a file lets a restarted bot do the same).
Timeouts the server's clock decided are logged and counted; a stand-in that took the seat
after too many of them is asked to give it back.
After its last game it leaves the table, so the seat is free at once rather than held
for a reconnection. It writes nothing on stdout: that is the bot's own.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass

import structlog

from setback.bots.base import Bot, GameStart
from setback.bots.seat import BotSeat, DecisionStats, Limits, Replaced
from setback.engine import Action, View
from setback.link.seat_tokens import SeatTokens
from setback.link.server_link import LinkClosedError, ServerLink
from setback.protocol.convert import outcome_from_wire, result_from_wire, rules_from_wire, view_from_wire
from setback.protocol.messages import (
    Act,
    CreateTable,
    Decide,
    Error,
    EventMessage,
    GameOver,
    GameStarted,
    HandScoredEvent,
    Join,
    Joined,
    Leave,
    Left,
    Ready,
    TableInfo,
    TableUpdate,
    TimedOutEvent,
)
from setback.telling.story import rules_text

log = structlog.get_logger("setback.bot")

LEAVE_SECONDS = 5.0
"""How long a bot that has played its games waits for ``left`` before it closes anyway."""


@dataclass(frozen=True)
class Seating:
    """Where the bot sits: a table, a seat (None: the lowest free one), a private table's
    invite; or, with ``create``, the table that request makes (``table`` is then unused)."""

    table: str
    seat: int | None = None
    invite: str | None = None
    create: CreateTable | None = None


class SeatRefusedError(RuntimeError):
    """The server would not seat the bot (the error's code and text)."""


async def play_remote(
    link: ServerLink, bot: Bot, seating: Seating, games: int | None = None, decision_seconds: float | None = None,
    reconnect_attempts: int = 30, deciding: DecisionStats | None = None, tokens: SeatTokens | None = None,
    replaced: dict[int, Replaced] | None = None,
) -> int:
    """Play until ``games`` games are over (None: until the server closes for good); the games played.

    ``decision_seconds`` caps the bot's own time per decision (the table's clock caps it anyway);
    ``deciding``, when given, gets the bot's decision times, timeouts and errors. ``tokens``,
    when given, keeps the seat's token, so that the bot, restarted, sits down again where
    it was while the server holds its seat (and says so in the log, ``back_in_saved_seat``):
    a seat kept at ``seating``'s table (and seat, when it names one), so that two bots of one
    name each come back to their own; unless ``seating`` creates a table: that makes a new
    one, always. While its table waits for players, the log says which table and what it
    waits for (``waiting_for_players``).
    ``replaced``, when given, gets each request the SDK answered with the fallback, and what
    the bot did instead (``setback check-bot``).
    """
    where = str(link.address)
    kept = None
    if tokens is not None and seating.create is None:
        kept = tokens.token(where, link.name, seating.table, seating.seat)
    link.token = kept
    welcome = await link.connect()
    resumed = kept is not None and welcome.token == kept  # a token the server took back puts us in our seat
    joining: str | None = None
    if not resumed:
        table, invite = seating.table, seating.invite
        if seating.create is not None:
            table, invite = await _create(link, seating.create)
        await link.send(Join(id="join", table=table, seat=seating.seat, ready=True, invite=invite))
        joining = table
    agent: BotSeat | None = None
    played = won = 0
    side: int | None = None
    """The bot's side, as its last decision's view tells it."""
    hand = 0
    taking_back = False
    answered: tuple[int, View, Action] | None = None
    """The pending request, its view and the action sent for it: refused, it stands (spec.md section 12)."""
    awaited = ""
    """What the bot's table was last said to wait for."""
    try:
        while games is None or played < games:
            try:
                message = await link.receive()
            except LinkClosedError as closed:
                if link.seat is None:
                    if closed.goodbye:
                        log.info("server_stopped", reason=closed.reason)
                        break
                    raise
                if closed.goodbye:  # a restarted server brings its tables back, and our seat with them
                    log.warning("server_stopped", reason=closed.reason, waiting="for it to come back")
                log.info("reconnecting", table=link.table, seat=link.seat, reason=closed.reason)
                await link.reconnect(attempts=reconnect_attempts)
                continue
            match message:
                case Joined(table=table_id, seat=seat, token=token):
                    if resumed and agent is None:
                        log.info("back_in_saved_seat", table=table_id, seat=seat + 1, server=where,
                                 note="this bot's seat was kept for it; --create makes a new table")
                    if agent is None:
                        agent = BotSeat(bot, seat, Limits(decision_seconds))
                    if tokens is not None:
                        tokens.keep(where, link.name, token, table_id, seat)
                case Error(id="join", code=code, message=text):
                    raise SeatRefusedError(f"{code}: {text}")
                case Error(code="bad_token") if kept is not None and link.seat is None:
                    log.info("kept_token_expired", server=where)  # the server no longer held that seat
                    if tokens is not None:
                        tokens.forget(where, kept)
                case Error(code="bad_token", message=text) if link.seat is not None:
                    raise SeatRefusedError(f"bad_token: {text} (the seat is no longer this bot's)")
                case EventMessage(event=TimedOutEvent(seat=seat, action=played_for_us, timeouts=row)) if (
                    seat == link.seat
                ):
                    log.warning("server_timed_out", seat=seat, action=played_for_us, in_a_row=row)
                    if agent is not None:
                        agent.deciding.timeouts += 1
                case TableUpdate(table=info) if info.table in (link.table, joining):
                    if (waits := waiting_for(info, link.seat)) != awaited and waits:
                        log.info("waiting_for_players", table=info.table, name=info.name, waiting_for=waits,
                                 invite=info.invite)
                    awaited = waits
                    if link.seat is None:
                        continue
                    standing_in = info.seats[link.seat].replaced_by_bot
                    if standing_in and not taking_back:  # after too many timeouts: take the seat back
                        log.warning("stand_in_took_the_seat", seat=link.seat, taking_it_back=True)
                        await link.send(Ready())
                    taking_back = standing_in
                case Error(code="illegal_action", message=text) if answered is not None:
                    request, view, refused = answered
                    again = next((a for a in view.legal if a != refused), refused)
                    log.warning("action_refused", request=request, action=str(refused), message=text,
                                answering=str(again))
                    answered = (request, view, again)
                    await link.send(Act(request=request, action=str(again)))
                case Error(code=code, message=text):
                    if code in ("stale_request", "not_your_turn"):
                        answered = None
                    log.warning("server_error", code=code, message=text)
                case Decide(request=request, view=wire, clock=timer):
                    assert agent is not None
                    remaining = timer.remaining_ms / 1000 if timer.remaining_ms is not None else None
                    view = view_from_wire(wire, remaining)
                    side = view.rules.side_of(wire.seat) if wire.seat is not None else None
                    if view.hand_number != hand:
                        hand = view.hand_number
                        await agent.notify(bot.on_hand_start, view)
                    action = await agent.decide(view)
                    if replaced is not None and agent.replaced is not None:
                        replaced[request] = agent.replaced
                    answered = (request, view, action)
                    await link.send(Act(request=request, action=str(action)))
                case EventMessage(event=HandScoredEvent(result=result)) if agent is not None:
                    await agent.notify(bot.on_hand_end, result_from_wire(result))
                case GameStarted(players=players, rules=rules) if agent is not None and link.seat is not None:
                    await agent.notify(bot.on_game_start, GameStart(link.seat, tuple(players), rules_from_wire(rules)))
                case GameOver(outcome=outcome):
                    played += 1
                    if side is not None and outcome.winner == side:
                        won += 1
                    log.info("game_over", winner=outcome.winner, our_side=side, scores=outcome.scores,
                             reason=outcome.reason, won=f"{won} of {played}")
                    if agent is not None:
                        await agent.notify(bot.on_game_end, outcome_from_wire(outcome))
                    hand = 0
                    if games is None or played < games:
                        await link.send(Ready())
                case _:
                    pass
        if games is not None and played == games:
            await _leave(link)
            if tokens is not None and link.token is not None:
                tokens.forget(where, link.token)
    finally:
        if agent is not None:
            agent.close()
            if deciding is not None:
                deciding.add(agent.deciding)
        await link.close()
    return played


def waiting_for(info: TableInfo, mine: int | None) -> str:
    """What a table that has not started its game waits for, in words ("" once it plays):
    its free seats to be taken, and its players who are not ready (seats counted from 1)."""
    if info.status not in ("waiting", "finished"):
        return ""
    free = [seat.seat + 1 for seat in info.seats if seat.kind == "empty"]
    unready = [seat.name or f"seat {seat.seat + 1}" for seat in info.seats
               if seat.kind != "empty" and not seat.ready and seat.seat != mine]
    said = []
    if free:
        said.append(f"{len(free)} free seat{'s' if len(free) > 1 else ''} ({', '.join(map(str, free))}) to be taken")
    if unready:
        said.append(f"{', '.join(unready)} to be ready")
    return "; ".join(said)


async def _create(link: ServerLink, request: CreateTable) -> tuple[str, str | None]:
    """Make the table ``request`` asks for: its id and invite code (SeatRefusedError if refused)."""
    await link.send(request)
    while True:
        match await link.receive():
            case TableUpdate(id=request.id, table=info):
                log.info("table_created", table=info.table, invite=info.invite, rules=rules_text(info.rules))
                return info.table, info.invite
            case Error(id=request.id, code=code, message=text):
                raise SeatRefusedError(f"{code}: {text}")
            case _:
                pass


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
