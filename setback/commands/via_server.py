"""Match games played through a real server over TCP (``setback match --via-server``).

One :class:`~setback.server.app.Server` runs in this process on a loopback port. Each
game gets its own table, created with the game's seed, rules and clock; each seat's bot
joins it over the protocol: a Python bot through :func:`~setback.bots.remote.play_remote`
(the same bot, seeded the same way, as offline), a ``cmd:`` bot as the program it names,
started with the table in its environment (spec.md, "External bots") and stopped once the
game is over. The record is read back from the server's own records and carries the same
fields as an offline one, so for the same seeds and deterministic bots both modes give
identical games. A ``cmd:`` bot's decision stats hold the decisions and timeouts the server saw;
the runner cannot time it, so its ``seconds`` stay 0 (the result shows no ms/decision).
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from setback.bots.external import run_program
from setback.bots.registry import EXTERNAL, ExternalBotError, bot_factory, hello_name
from setback.bots.remote import Seating, play_remote
from setback.bots.seat import DecisionStats
from setback.engine import game_record
from setback.link.server_link import Address, ServerLink
from setback.match.plan import MatchPlan
from setback.match.runner import Played, match_fields
from setback.protocol.convert import rules_to_wire
from setback.protocol.messages import Clock, CreateTable, TableUpdate
from setback.server.app import Server
from setback.server.config import ServerConfig
from setback.server.history import replayed
from setback.server.store import BY_CLOCK, GameRow

SIT_DOWN_SECONDS = 30.0
"""How long every bot of a game has to take its seat before the match stops with an error."""


def via_server_records(plan: MatchPlan, indexes: list[int], jobs: int) -> Iterator[Played]:
    """Games ``indexes`` of ``plan``, played through a server, in order."""
    with tempfile.TemporaryDirectory(prefix="setback-match-") as folder:
        records = asyncio.run(_play_all(plan, indexes, max(1, jobs), Path(folder) / "match.sqlite3"))
    for record in records:
        yield Played.of(record)


async def _play_all(plan: MatchPlan, indexes: list[int], jobs: int, db: Path) -> list[dict[str, Any]]:
    server = Server(ServerConfig(  # the match's own server: every table is made from 127.0.0.1, as fast as games end
        host="127.0.0.1", port=0, db=str(db), idle_timeout=3600, reconnect_grace=5, max_tables_awaiting_address=1 << 16,
    ))
    await server.start()
    address = Address("127.0.0.1", server.port)
    try:
        limit = asyncio.Semaphore(jobs)

        async def one(index: int) -> dict[str, Any]:
            async with limit:
                return await _play_one(plan, index, server, address)

        return list(await asyncio.gather(*(one(index) for index in indexes)))
    finally:
        await server.stop()


async def _play_one(plan: MatchPlan, index: int, server: Server, address: Address) -> dict[str, Any]:
    seating = plan.seating(index)
    seed = plan.game_seed(index)
    host = ServerLink(address, f"match-{index}", kind="bot", events=False)
    await host.connect()
    await host.send(CreateTable(
        id=1, name=f"match game {index}", rules=rules_to_wire(plan.rules), seed=seed,
        clock=Clock(decision_seconds=plan.limits.decision_seconds, bot_after_timeouts=None),
    ))
    while not isinstance(reply := await host.receive(), TableUpdate) or reply.id != 1:
        pass
    table = reply.table.table
    over = asyncio.Event()

    def decided(where: str) -> None:
        if where == table:
            over.set()

    refused: dict[str, str] = {}

    def said_no(name: str, why: str) -> None:
        refused[name] = why

    server.lobby.game_over_listeners.append(decided)
    server.lobby.refusal_listeners.append(said_no)
    deciding = [DecisionStats() for _ in seating]
    sdk: list[asyncio.Future[int]] = []
    external: list[asyncio.Future[int]] = []
    seated: list[tuple[str, asyncio.Future[Any]]] = []
    """Each seat's bot, named, as it plays: one that ends before the game does stops the match."""
    names: list[str] = []
    """The name each seat's bot says in its hello."""
    for seat, b in enumerate(seating):
        spec = plan.specs[b]
        name = hello_name(spec, index, seat, server.config.max_name_chars)
        names.append(name)
        if spec.startswith(EXTERNAL):
            external.append(asyncio.ensure_future(run_program(spec, address.host, address.port, table, seat, name)))
            seated.append((f"{spec} (seat {seat})", external[-1]))
        else:
            bot = bot_factory(spec)(seed + seat)
            link = ServerLink(address, name, kind="bot")
            sdk.append(asyncio.ensure_future(
                play_remote(link, bot, Seating(table, seat), games=1, decision_seconds=plan.limits.decision_seconds,
                            deciding=deciding[seat])
            ))
            seated.append((f"{spec} (seat {seat})", sdk[-1]))
    try:
        await _until_over(over, server, table, index, seated, lambda seat: refused.get(names[seat]))
        server.flush()
        if sdk:  # they end on game_over, having counted their decisions; external programs never end
            await asyncio.wait(sdk, timeout=5)
    finally:
        await host.close()  # (its table, until someone sits there, closes with it)
        server.lobby.game_over_listeners.remove(decided)
        server.lobby.refusal_listeners.remove(said_no)
        players: list[asyncio.Future[Any]] = [*sdk, *external]
        for player in players:
            player.cancel()
        await asyncio.gather(*players, return_exceptions=True)
    row = server.store.finished_game_at(table)
    assert row is not None, f"no finished game recorded at {table}"
    for seat, b in enumerate(seating):
        if plan.specs[b].startswith(EXTERNAL):
            deciding[seat] = _server_decisions(row, seat)
    return game_record(replayed(row), players=[plan.specs[b] for b in seating],
                       match=match_fields(plan, index, deciding))


async def _until_over(
    over: asyncio.Event, server: Server, table: str, index: int, players: list[tuple[str, asyncio.Future[Any]]],
    refusal: Callable[[int], str | None],
) -> None:
    """Wait for game ``index`` at ``table`` to end; :class:`ExternalBotError` as soon as a bot
    ends before it (a program that exits or cannot start) or some seat is still empty
    :data:`SIT_DOWN_SECONDS` after the table was made; the error says why the server refused
    that seat's hello (``refusal(seat)``), if it did."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + SIT_DOWN_SECONDS
    ended = asyncio.ensure_future(over.wait())
    try:
        while not over.is_set():
            await asyncio.wait([ended, *(p for _, p in players)], timeout=1.0, return_when=asyncio.FIRST_COMPLETED)
            if over.is_set():
                return
            for seat, (name, player) in enumerate(players):
                if player.done():
                    raise ExternalBotError(f"{name} {_how_it_ended(name, player)} before game {index} was over"
                                           + _refused(refusal(seat)))
            empty = [s.index for s in server.lobby.tables[table].seats if not s.taken]
            if empty and loop.time() > deadline:
                seats = ", ".join(map(str, empty))
                why = next((refusal(seat) for seat in empty if refusal(seat)), None)
                raise ExternalBotError(f"game {index}: nobody took seat {seats} within {SIT_DOWN_SECONDS:g} s"
                                       + (_refused(why) if why else " (does the bot join the table in SETBACK_TABLE?)"))
    finally:
        ended.cancel()


def _refused(why: str | None) -> str:
    return f" (the server refused its hello: {why})" if why else ""


def _how_it_ended(name: str, player: asyncio.Future[Any]) -> str:
    if player.cancelled():
        return "was stopped"
    error = player.exception()
    if error is not None:
        return f"failed: {error}" if not isinstance(error, OSError) else f"could not start: {error.strerror or error}"
    return f"exited with status {player.result()}" if name.startswith(EXTERNAL) else "ended"


def _server_decisions(row: GameRow, seat: int) -> DecisionStats:
    """What the server saw of ``seat``'s decisions: how many, and how many it timed out (no seconds)."""
    chosen = [by for who, _, by in row.actions if who == seat]
    return DecisionStats(decisions=len(chosen), timeouts=chosen.count(BY_CLOCK))
