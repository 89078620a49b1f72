"""Match games played through a real server over TCP (``setback match --via-server``).

One :class:`~setback.server.app.Server` runs in this process on a loopback port. Each
game gets its own table, created with the game's seed, rules and clock; each seat's bot
joins it over the protocol: a Python bot through :func:`~setback.bots.remote.play_remote`
(the same bot, seeded the same way, as offline), a ``cmd:`` bot as the program it names,
started with the table in its environment (spec.md, "External bots") and stopped once the
game is over. The record is read back from the server's own records and carries the same
fields as an offline one, so for the same seeds and deterministic bots both modes give
identical games. A ``cmd:`` bot's clock holds the decisions and timeouts the server saw;
the runner cannot time it, so its ``seconds`` stay 0 (the result shows no ms/decision).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from setback.bots.match import MatchPlan, match_fields
from setback.bots.registry import EXTERNAL, bot_factory
from setback.bots.remote import Seating, play_remote
from setback.bots.seat import Clock
from setback.client.link import Address, ServerLink
from setback.engine import game_record
from setback.protocol.convert import rules_to_wire
from setback.protocol.messages import Clock as TableClock
from setback.protocol.messages import CreateTable, TableUpdate
from setback.server.app import Server
from setback.server.config import ServerConfig
from setback.server.history import replayed
from setback.server.store import GameRow

STOP_SECONDS = 5.0
"""How long an external bot may take to end after SIGTERM before it is killed."""


def via_server_records(plan: MatchPlan, indexes: list[int], jobs: int) -> Iterator[dict[str, Any]]:
    """The records of games ``indexes`` of ``plan``, played through a server, in order."""
    with tempfile.TemporaryDirectory(prefix="setback-match-") as folder:
        records = asyncio.run(_play_all(plan, indexes, max(1, jobs), Path(folder) / "match.sqlite3"))
    yield from records


async def _play_all(plan: MatchPlan, indexes: list[int], jobs: int, db: Path) -> list[dict[str, Any]]:
    server = Server(ServerConfig(host="127.0.0.1", port=0, db=str(db), idle_timeout=3600, reconnect_grace=5))
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
    decision = plan.limits.decision
    await host.send(CreateTable(
        id=1, name=f"match game {index}", rules=rules_to_wire(plan.rules), seed=seed,
        clock=TableClock(decision_seconds=decision, bot_after_timeouts=None),
    ))
    while not isinstance(reply := await host.receive(), TableUpdate) or reply.id != 1:
        pass
    await host.close()
    table = reply.table.table
    over = asyncio.Event()

    def decided(where: str) -> None:
        if where == table:
            over.set()

    server.lobby.game_over_listeners.append(decided)
    clocks = [Clock() for _ in seating]
    sdk: list[asyncio.Future[int]] = []
    external: list[asyncio.Future[None]] = []
    for seat, b in enumerate(seating):
        spec = plan.specs[b]
        if spec.startswith(EXTERNAL):
            external.append(asyncio.ensure_future(_external(spec, address, table, seat)))
        else:
            bot = bot_factory(spec)(seed + seat)
            link = ServerLink(address, f"{spec}#{seat}", kind="bot")
            sdk.append(asyncio.ensure_future(
                play_remote(link, bot, Seating(table, seat), games=1, limit=decision, clock=clocks[seat])
            ))
    try:
        await over.wait()
        server.flush()
        if sdk:  # they end on game_over, having counted their clocks; external programs never end
            await asyncio.wait(sdk, timeout=5)
    finally:
        server.lobby.game_over_listeners.remove(decided)
        players: list[asyncio.Future[Any]] = [*sdk, *external]
        for player in players:
            player.cancel()
        await asyncio.gather(*players, return_exceptions=True)
    row = server.store.finished_game_at(table)
    assert row is not None, f"no finished game recorded at {table}"
    for seat, b in enumerate(seating):
        if plan.specs[b].startswith(EXTERNAL):
            clocks[seat] = _server_clock(row, seat)
    return game_record(replayed(row), players=[plan.specs[b] for b in seating],
                       match=match_fields(plan, index, clocks))


def _server_clock(row: GameRow, seat: int) -> Clock:
    """What the server saw of ``seat``'s decisions: how many, and how many it timed out (no seconds)."""
    late = [timed_out for who, _, timed_out in row.actions if who == seat]
    return Clock(decisions=len(late), timeouts=sum(late))


async def _external(spec: str, address: Address, table: str, seat: int) -> None:
    """Run a ``cmd:`` bot until cancelled (the game over), then stop it (SIGTERM, then SIGKILL)."""
    command = shlex.split(spec[len(EXTERNAL):])
    env = {
        **os.environ, "SETBACK_HOST": address.host, "SETBACK_PORT": str(address.port),
        "SETBACK_TABLE": table, "SETBACK_SEAT": str(seat), "SETBACK_NAME": f"{command[0]}#{seat}",
    }
    process = await asyncio.create_subprocess_exec(*command, env=env, stdin=asyncio.subprocess.DEVNULL)
    try:
        await process.wait()
    finally:
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.terminate()
            try:
                await asyncio.wait_for(process.wait(), STOP_SECONDS)
            except TimeoutError:
                process.kill()
                await process.wait()
