"""Over raw sockets: bots play at a person's pace (a table's ``bot_pace``) where a person sits,
and at their own speed everywhere else. The tables run on a clock the test moves
(``clocks.ManualClock``): the gaps are the tables' time, however slow the machine."""

from __future__ import annotations

import itertools
from typing import Any, ClassVar

from clocks import ManualClock, TimedClient
from wire import running_server

from setback.bots import BUILTIN, Bot
from setback.engine import Action, View
from setback.server.app import Server

PACE = 0.3
SLACK = 0.9
"""The gaps are measured where the lines arrive (on the tables' clock, read before it moves on)."""


async def seated(
    server: Server, time: ManualClock, kind: str, bot_pace: float, clock: dict[str, Any] | None = None,
    bot: str = "random",
) -> TimedClient:
    """A ``kind`` connection at seat 3 of a four-seat table after three ``bot`` bots."""
    player = await TimedClient.on(server, time)
    await player.hello("ann", kind=kind)
    await player.send(type="create_table", id=1, rules={"players": 4}, seed=7, bots=[bot] * 3,
                      clock=clock or {"decision_seconds": None}, bot_pace=bot_pace)
    table = (await player.expect("table", id=1))["table"]["table"]
    await player.send(type="join", id=2, table=table, ready=True)
    await player.expect("joined", id=2)
    return player


MOVES = {"bid", "passed", "card_played"}


async def bot_moves(player: TimedClient, count: int) -> list[tuple[float, dict[str, Any], bool]]:
    """The first ``count`` moves (bids, passes, cards), answering each ``decide`` with its first
    legal action: each as (when it arrived, its event, whether the seat before it was a bot's)."""
    moves: list[tuple[float, dict[str, Any], bool]] = []
    after_bot = False
    while len(moves) < count:
        message = await player.read(60)
        if message["type"] == "decide":
            await player.send(type="act", request=message["request"], action=message["view"]["legal"][0])
        elif message["type"] == "event":
            event = message["event"]
            if event["kind"] in MOVES:
                bot = event["seat"] != 3
                moves.append((player.clock.now(), event, bot and after_bot))
                after_bot = bot
            elif event["kind"] == "hand_dealt":
                after_bot = False
    return moves


async def test_at_a_table_with_a_person_the_bots_wait_the_pace_between_moves() -> None:
    """Between two bots' moves in a row (bids and cards) at least ``bot_pace`` passes, so that a
    person sees each card land."""
    async with running_server(time := ManualClock()) as server:
        player = await seated(server, time, "human", PACE)
        moves = await bot_moves(player, 16)
        gaps = [now - before for (before, _, _), (now, _, paced) in itertools.pairwise(moves) if paced]
        assert len(gaps) >= 5
        assert min(gaps) >= PACE * SLACK
        await player.close()


async def test_a_lead_after_a_trick_waits_longer() -> None:
    """A bot leading the next trick waits twice the pace: the finished trick stays a moment."""
    async with running_server(time := ManualClock()) as server:
        player = await seated(server, time, "human", PACE)
        won_at: float | None = None
        waits: list[float] = []
        while len(waits) < 2:
            message = await player.read(60)
            if message["type"] == "decide":
                await player.send(type="act", request=message["request"], action=message["view"]["legal"][0])
                continue
            event = message.get("event", {})
            if event.get("kind") == "trick_won":
                won_at = time.now() if event["winner"] != 3 else None  # a bot leads next
            elif event.get("kind") == "card_played" and won_at is not None:
                waits.append(time.now() - won_at)
                won_at = None
            elif event.get("kind") == "hand_scored":
                won_at = None
        assert min(waits) >= 2 * PACE * SLACK
        await player.close()


async def test_at_a_table_of_bots_and_bot_programs_nobody_waits() -> None:
    """No person sits there (a bot program holds the fourth seat, as in a match): the bots do
    not wait, however long the table's pace; a whole hand takes less than one pause."""
    async with running_server(time := ManualClock()) as server:
        program = await seated(server, time, "bot", 10.0)
        start = time.now()
        await bot_moves(program, 4 + 24)
        assert time.now() - start < 10.0, "not one pause of the table's pace was waited"
        await program.close()


async def test_a_persons_clock_does_not_run_while_the_bots_pause() -> None:
    """The clock of a person starts when their turn comes, after the bots before them paused:
    every decision arrives with its whole time, and a prompt answer never times out."""
    async with running_server(time := ManualClock()) as server:
        player = await seated(server, time, "human", PACE, clock={"decision_seconds": 0.5, "bot_after_timeouts": None})
        decisions = 0
        while decisions < 4:
            message = await player.read(60)
            assert not (message["type"] == "event" and message["event"]["kind"] == "timed_out")
            if message["type"] == "decide":
                assert message["clock"] == {"limit_ms": 500, "remaining_ms": 500}
                await player.send(type="act", request=message["request"], action=message["view"]["legal"][0])
                decisions += 1
        await player.close()


class ClockReader(Bot):
    """Plays its first legal action and notes each decision's clock (``view.time_left``)."""

    clocks: ClassVar[list[float | None]] = []

    def bid(self, view: View) -> Action:
        ClockReader.clocks.append(view.time_left)
        return view.legal[0]

    play = bid


async def test_a_bot_at_a_persons_table_searches_no_longer_than_the_pace(monkeypatch: Any) -> None:
    """Where a person sits, a built-in bot's decision is given the table's pace as its clock (a
    search keeps within it), so the person never waits longer than the pace for its thinking."""
    monkeypatch.setitem(BUILTIN, "clock-reader", ClockReader)
    monkeypatch.setattr(ClockReader, "clocks", [])
    async with running_server(time := ManualClock()) as server:
        player = await seated(server, time, "human", PACE, bot="clock-reader")
        await bot_moves(player, 8)
        await player.close()
    assert len(ClockReader.clocks) >= 6
    assert all(t is not None and 0 < t <= PACE for t in ClockReader.clocks)
