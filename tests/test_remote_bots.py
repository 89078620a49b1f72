"""Bots over the protocol: views survive the wire, `setback bot` plays whole games, drops are
survived with the seat token, and a failing bot gets the fallback instead of hanging a table."""

from __future__ import annotations

import asyncio
import os
import random
import re
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st
from wire import RawClient, running_server

from setback.bots import Bot, HeuristicBot
from setback.bots.remote import Seating, play_remote
from setback.client.link import Address, ServerLink
from setback.engine import Action, Game, Rules, View
from setback.protocol import decode_server
from setback.protocol.convert import view_from_wire, view_to_wire
from setback.protocol.messages import Decide, DecisionClock
from setback.protocol.views import WireViews


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32), players=st.integers(2, 7), steps=st.integers(0, 400),
    teams=st.sampled_from([None, 2, 3]), smudge=st.booleans(), forced=st.booleans(), no_junk=st.booleans(),
    target=st.sampled_from([7, 11, 21]), hand_limit=st.sampled_from([1, 2, 100, None]),
)
def test_views_survive_the_wire(
    seed: int, players: int, steps: int, teams: int | None, smudge: bool, forced: bool, no_junk: bool,
    target: int, hand_limit: int | None,
) -> None:
    """view_from_wire(view_to_wire(v)) == v for every seat and spectators, and the server's
    event-fed :class:`WireViews` give exactly view_to_wire's view after every action, and
    the same in their decision lines."""
    if teams is not None and (players % teams or players // teams < 2):
        teams = None
    rules = Rules(
        players=players, teams=teams, target=target, smudge=smudge, forced_dealer_bid=forced, no_junk=no_junk,
        hand_limit=hand_limit,
    )
    game = Game(rules, seed)
    views = WireViews(rules)
    for event in game.events:
        views.note(event)
    rng = random.Random(seed)

    clock = DecisionClock(limit_ms=1000, remaining_ms=rng.randrange(1000))

    def same_everywhere() -> None:
        for seat in [None, *range(players)]:
            view = game.view(seat)
            assert views.view(seat, game.to_act, game.legal_codes()) == view_to_wire(view)
        if game.to_act is not None:
            seat = game.to_act
            line = views.decide_line("t1", 7, seat, game.legal_codes(), clock)
            expected = Decide(table="t1", request=7, seat=seat, view=view_to_wire(game.view(seat)), clock=clock)
            assert line.endswith(b"\n") and line.count(b"\n") == 1
            assert decode_server(line) == expected

    same_everywhere()
    for _ in range(steps):
        if game.is_over:
            break
        for event in game.apply(rng.choice(game.legal_actions())):
            views.note(event)
        same_everywhere()
    for seat in [None, *range(players)]:
        view = game.view(seat)
        assert view_from_wire(view_to_wire(view)) == view


async def host_table(port: int, players: int, bots: list[str]) -> tuple[RawClient, str]:
    host = await RawClient.connect(port)
    await host.hello("host", kind="human")
    await host.send(type="create_table", id=1, rules={"players": players, "target": 7}, bots=bots,
                    clock={"decision_seconds": 5})
    table = (await host.expect("table", id=1))["table"]["table"]
    await host.send(type="spectate", id=2, table=table)
    await host.expect("spectating", id=2)
    return host, table


async def test_setback_bot_command_plays_games_and_keeps_stdout_clean() -> None:
    async with running_server() as server:
        host, table = await host_table(server.port, 2, ["random"])
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "setback", "bot", "heuristic", "--server", f"127.0.0.1:{server.port}",
            "--table", table, "--games", "2", "--name", "hugo",
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env={**os.environ},
        )
        out, err = await asyncio.wait_for(process.communicate(), 120)
        assert process.returncode == 0, err.decode()
        assert out == b""
        assert re.search(rb"done .*decisions=[1-9]\d* errors=0 .*games=2 .*timeouts=0", err), err.decode()
        overs = [m for m in host.backlog + host.received if m["type"] == "game_over"]
        while len(overs) < 2:
            overs.append(await host.expect("game_over"))
        await host.close()


async def test_a_bot_that_has_played_its_games_gives_its_seat_back() -> None:
    """After its last game the bot sends ``leave`` and waits for ``left``: its seat is free at once,
    not held for the reconnect grace as a dropped connection's would be."""
    async with running_server() as server:
        host, table = await host_table(server.port, 2, ["random"])
        link = ServerLink(Address("127.0.0.1", server.port), "once", kind="bot")
        assert await asyncio.wait_for(play_remote(link, HeuristicBot(seed=2), Seating(table, 1), games=1), 60) == 1
        newcomer = await RawClient.connect(server.port)
        await newcomer.hello("newcomer")
        await newcomer.send(type="join", id=1, table=table, seat=1)
        reply = await newcomer.read()
        while reply["type"] not in {"joined", "error"}:
            reply = await newcomer.read()
        assert reply["type"] == "joined", reply
        await newcomer.close()
        await host.close()


class DroppingBot(HeuristicBot):
    """Plays well, but the test cuts its connection after its fifth decision."""

    cut: asyncio.Event

    def play(self, view: View) -> Action:
        decisions = getattr(self, "decisions", 0) + 1
        self.decisions = decisions
        if decisions == 5:
            self.cut.set()
        return super().play(view)


async def test_a_dropped_bot_reconnects_with_its_token_and_finishes() -> None:
    async with running_server() as server:
        host, table = await host_table(server.port, 2, ["random"])
        bot = DroppingBot(seed=1)
        bot.cut = asyncio.Event()
        link = ServerLink(Address("127.0.0.1", server.port), "dropper", kind="bot")
        playing = asyncio.ensure_future(play_remote(link, bot, Seating(table), games=1))
        await asyncio.wait_for(bot.cut.wait(), 30)
        victim = next(c for c in server.connections if c.name == "dropper")
        assert victim.transport is not None
        victim.transport.abort()
        assert await asyncio.wait_for(playing, 60) == 1
        over = await host.expect("game_over", timeout=30)
        assert over["outcome"]["winner"] in {0, 1}
        await host.close()


class BrokenBot(Bot):
    def bid(self, view: View) -> Action:
        raise RuntimeError("no idea")

    def play(self, view: View) -> Action:
        raise RuntimeError("no idea")


async def test_a_raising_bot_plays_the_fallback_and_the_game_ends() -> None:
    async with running_server() as server:
        host, table = await host_table(server.port, 2, ["random"])
        link = ServerLink(Address("127.0.0.1", server.port), "broken", kind="bot")
        assert await asyncio.wait_for(play_remote(link, BrokenBot(), Seating(table), games=1), 60) == 1
        await host.close()


def test_bot_command_reports_a_bad_spec() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "setback", "bot", "nonsense", "--table", "t1"],
        capture_output=True, text=True, check=False, timeout=60,
    )
    assert done.returncode == 2 and "unknown bot" in done.stderr
