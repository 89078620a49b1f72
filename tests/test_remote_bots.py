"""Bots over the protocol: views survive the wire, `setback bot` plays whole games, drops are
survived with the seat token, and a failing bot gets the fallback instead of hanging a table."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from wire import RawClient, running_server

from setback.bots import Bot, GameStart, HeuristicBot
from setback.bots import seat as bot_seat
from setback.bots.remote import Seating, SeatRefusedError, play_remote
from setback.engine import Action, Game, Rules, Variant, View
from setback.link.seat_tokens import SeatTokens
from setback.link.server_link import Address, ServerLink
from setback.protocol import encode
from setback.protocol.convert import view_from_wire, view_to_wire
from setback.protocol.messages import CreateTable, Decide, DecisionClock, WireRules
from setback.protocol.views import WireViews
from setback.server.app import Server
from setback.server.config import ServerConfig
from setback.server.turnclock import NO_CLOCK


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
    the very bytes of encoding a ``Decide`` in their decision lines."""
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

    clocks = [DecisionClock(limit_ms=1000, remaining_ms=rng.randrange(1000)), NO_CLOCK,
              DecisionClock(limit_ms=90_000, remaining_ms=None)]
    request = 7

    def same_everywhere() -> None:
        nonlocal request
        for seat in [None, *range(players)]:
            view = game.view(seat)
            assert views.view(seat, game.to_act, game.legal_codes()) == view_to_wire(view)
        if game.to_act is not None:
            seat = game.to_act
            clock = rng.choice(clocks)
            table = rng.choice(["t1", 'a "quoted" \\ table é'])
            line = views.decide_line(table, request, seat, game.legal_codes(), clock)
            expected = Decide(table=table, request=request, seat=seat, view=view_to_wire(game.view(seat)), clock=clock)
            assert line == encode(expected)  # the very bytes msgspec writes
            request += rng.choice([1, 1000])

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


@pytest.mark.parametrize("variant", list(Variant))
def test_views_follow_every_variant(variant: Variant) -> None:
    """At every variant (its jokers and off-cards lead and win tricks by their own strength),
    the server's event-fed :class:`WireViews` give view_to_wire's view of every seat at every
    action of whole seeded games (the trick's winner so far above all), and the very bytes of
    encoding a ``Decide`` in the decision line of the seat to act."""
    for seed in range(3):
        rules = Rules(players=4 if variant is Variant.PEDRO else 3 + seed, variant=variant)
        game = Game(rules, seed)
        views = WireViews(rules)
        rng = random.Random(seed)
        for event in game.events:
            views.note(event)
        while not game.is_over:
            for seat in [None, *range(rules.players)]:
                assert views.view(seat, game.to_act, game.legal_codes()) == view_to_wire(game.view(seat))
            to_act = game.to_act
            assert to_act is not None
            decide = Decide(table="t1", request=9, seat=to_act, view=view_to_wire(game.view(to_act)), clock=NO_CLOCK)
            assert views.decide_line("t1", 9, to_act, game.legal_codes(), NO_CLOCK) == encode(decide)
            assert views.last_result_json == msgspec.json.encode(views.last_result)  # what the records keep
            for event in game.apply(rng.choice(game.legal_actions())):
                views.note(event)


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
        assert re.search(rb"game_over .*won='[012] of 2'", err), err.decode()  # each game's result, and the tally
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


class TimeNotingBot(HeuristicBot):
    """Notes the time each decision was given."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.given: list[float | None] = []
        self.starts: list[GameStart] = []

    def on_game_start(self, start: GameStart) -> None:
        self.starts.append(start)

    def bid(self, view: View) -> Action:
        self.given.append(view.time_left)
        return super().bid(view)

    def play(self, view: View) -> Action:
        self.given.append(view.time_left)
        return super().play(view)


async def test_a_remote_bot_is_given_the_time_the_tables_clock_leaves() -> None:
    """The table's clock (5 s here), less a margin for the answer's way back; or the bot's own
    limit when that is shorter."""
    async with running_server() as server:
        host, table = await host_table(server.port, 2, ["random"])
        free = TimeNotingBot(seed=3)
        link = ServerLink(Address("127.0.0.1", server.port), "timed", kind="bot")
        assert await asyncio.wait_for(play_remote(link, free, Seating(table), games=1), 60) == 1
        assert free.given and all(t is not None and 4.0 < t <= 5.0 - 0.2 for t in free.given)
        assert link.seat == 1 and free.starts == [GameStart(1, ("random-0", "timed"), Rules(players=2, target=7))]
        capped = TimeNotingBot(seed=3)
        link = ServerLink(Address("127.0.0.1", server.port), "capped", kind="bot")
        assert await asyncio.wait_for(play_remote(link, capped, Seating(table), games=1, decision_seconds=0.5), 60) == 1
        assert capped.given and set(capped.given) == {0.5}
        await host.close()


async def killed_mid_game(
    server: Server, tokens: SeatTokens, name: str = "phoenix"
) -> tuple[RawClient, str, ServerLink]:
    """A bot ``name`` at a table hosted for it, killed mid-game (no leave: the connection
    just goes), its seat's token kept: the host, the table and the link it played on."""
    host, table = await host_table(server.port, 2, ["random"])
    bot = DroppingBot(seed=1)
    bot.cut = asyncio.Event()
    link = ServerLink(Address("127.0.0.1", server.port), name, kind="bot")
    first = asyncio.ensure_future(play_remote(link, bot, Seating(table), games=1, tokens=tokens))
    await asyncio.wait_for(bot.cut.wait(), 30)
    first.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await first
    assert tokens.token(f"127.0.0.1:{server.port}", name, table) is not None
    return host, table, link


async def test_a_restarted_bot_sits_down_again_with_its_kept_token(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Killed mid-game and started again, the bot is put back in its seat (it was held for
    it) rather than refused, says so, and plays the game out; its token is forgotten once it
    leaves."""
    tokens = SeatTokens(tmp_path / "seats.json")
    async with running_server() as server:
        host, table, link = await killed_mid_game(server, tokens)
        again = ServerLink(Address("127.0.0.1", server.port), "phoenix", kind="bot")
        played = await asyncio.wait_for(play_remote(again, HeuristicBot(seed=1), Seating(table), games=1,
                                                    tokens=tokens), 60)
        assert played == 1 and again.seat == link.seat is not None
        assert tokens.token(f"127.0.0.1:{server.port}", "phoenix") is None
        said = capsys.readouterr().err
        assert re.search(rf"back_in_saved_seat .*seat={link.seat + 1} .*table={table}", said), said
        await host.close()


async def test_two_bots_of_one_name_each_come_back_to_their_own_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two bots called ``twin`` at two tables of one server, both killed mid-game and started
    again at their tables: each is put back in its own seat (the second's kept seat did not
    write over the first's), and each plays its game out."""
    tokens = SeatTokens(tmp_path / "seats.json")
    async with running_server() as server:
        killed = [await killed_mid_game(server, tokens, "twin") for _ in range(2)]
        assert killed[0][1] != killed[1][1]
        again = [ServerLink(Address("127.0.0.1", server.port), "twin", kind="bot") for _ in killed]
        played = await asyncio.wait_for(asyncio.gather(*(
            play_remote(link, HeuristicBot(seed=1), Seating(table), games=1, tokens=tokens)
            for link, (_, table, _) in zip(again, killed, strict=True)
        )), 90)
        assert played == [1, 1]
        assert [(link.table, link.seat) for link in again] == [(table, first.seat) for _, table, first in killed]
        said = capsys.readouterr().err
        for _, table, first in killed:
            assert first.seat is not None
            assert re.search(rf"back_in_saved_seat .*seat={first.seat + 1} .*table={table}", said), said
        for host, _, _ in killed:
            await host.close()


async def test_a_bot_that_creates_makes_a_new_table_and_says_what_it_waits_for(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With a seat kept for it at another table, a bot asked to create a table makes a new one
    (not back to the old seat), and says which table and what it waits for: its free seats."""
    tokens = SeatTokens(tmp_path / "seats.json")
    async with running_server() as server:
        host, table, _ = await killed_mid_game(server, tokens)
        capsys.readouterr()
        again = ServerLink(Address("127.0.0.1", server.port), "phoenix", kind="bot")
        create = CreateTable(id="create", rules=WireRules(players=3))
        playing = asyncio.ensure_future(play_remote(again, HeuristicBot(1), Seating("", create=create), tokens=tokens))
        try:
            said = ""
            async with asyncio.timeout(20):
                while "waiting_for_players" not in said:
                    await asyncio.sleep(0.1)
                    said += capsys.readouterr().err
        finally:
            playing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await playing
        assert again.table is not None and again.table != table and "back_in_saved_seat" not in said
        waits = r"waiting_for='2 free seats \(2, 3\) to be taken'"
        assert re.search(rf"waiting_for_players .*table={again.table} .*{waits}", said), said
        await host.close()


async def test_a_bot_waits_for_a_stopped_server_to_come_back(tmp_path: Path) -> None:
    """The server says goodbye and starts again on its file: the bot reconnects with its token
    and plays the game out where it stood."""
    db = str(tmp_path / "club.sqlite3")
    server = Server(ServerConfig(host="127.0.0.1", port=0, db=db))
    await server.start()
    port = server.port
    host, table = await host_table(port, 2, ["random"])
    bot = DroppingBot(seed=4)
    bot.cut = asyncio.Event()
    link = ServerLink(Address("127.0.0.1", port), "patient", kind="bot")
    playing = asyncio.ensure_future(play_remote(link, bot, Seating(table), games=1))
    await asyncio.wait_for(bot.cut.wait(), 30)
    await server.stop()
    await host.close()
    again = Server(ServerConfig(host="127.0.0.1", port=port, db=db))
    await again.start()
    try:
        watcher = await RawClient.connect(port)
        await watcher.hello("watcher")
        await watcher.send(type="spectate", id=1, table=table)
        await watcher.expect("spectating", id=1)
        assert await asyncio.wait_for(playing, 60) == 1
        await watcher.expect("game_over", timeout=30)
        await watcher.close()
    finally:
        await again.stop()


class LateOnceBot(HeuristicBot):
    """Thinks past the table's clock on its first card, then plays at once."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.late = True
        self.plays = 0

    async def play(self, view: View) -> Action:  # type: ignore[override]
        self.plays += 1
        if self.late:
            self.late = False
            await asyncio.sleep(0.6)
        return super().play(view)


async def test_a_bot_the_server_timed_out_is_told_and_takes_its_seat_back(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The server's clock ran out (the bot answered after it), a stand-in took the seat after
    one timeout; the bot logs both, asks for the seat back and is asked again."""
    monkeypatch.setattr(bot_seat, "ANSWER_MARGIN_SECONDS", -1.0)  # as if the answer were slow to arrive
    async with running_server() as server:
        host = await RawClient.connect(server.port)
        await host.hello("host", kind="human")
        await host.send(type="create_table", id=1, rules={"players": 2, "target": 7},
                        clock={"decision_seconds": 0.3, "bot_after_timeouts": 1})
        table = (await host.expect("table", id=1))["table"]["table"]
        await host.send(type="join", id=2, table=table, seat=0, ready=True)
        await host.expect("joined", id=2)

        async def unhurried_host() -> None:  # plays slowly enough for the bot to come back
            while (message := await host.read(timeout=30))["type"] != "game_over":
                if message["type"] == "decide":
                    await asyncio.sleep(0.03)
                    await host.send(type="act", request=message["request"], action=message["view"]["legal"][0])

        bot = LateOnceBot(seed=5)
        link = ServerLink(Address("127.0.0.1", server.port), "late", kind="bot")
        played, _ = await asyncio.wait_for(
            asyncio.gather(play_remote(link, bot, Seating(table, 1), games=1), unhurried_host()), 120
        )
        err = capsys.readouterr().err
        assert played == 1 and "server_timed_out" in err and "stand_in_took_the_seat" in err
        assert bot.plays > 1, "it was asked again: the seat was its own again"
        await host.close()


async def test_setback_bot_makes_a_table_of_its_own_and_plays_there() -> None:
    async with running_server() as server:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "setback", "bot", "heuristic", "--server", f"127.0.0.1:{server.port}",
            "--create", "--bots", "random", "--target", "7", "--clock", "5", "--games", "1",
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env={**os.environ},
        )
        out, err = await asyncio.wait_for(process.communicate(), 120)
        assert process.returncode == 0, err.decode()
        said = err.decode()
        assert "table_created" in said and "rules='2 players · cutthroat · to 7" in said, said
        assert re.search(r"done .*games=1", said) and out == b""


async def test_a_kept_token_the_server_no_longer_holds_is_dropped_quietly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tokens = SeatTokens(tmp_path / "seats.json")
    async with running_server() as server:
        host, table = await host_table(server.port, 2, ["random"])
        tokens.keep(f"127.0.0.1:{server.port}", "stale", "a-token-from-yesterday", table, 1)
        link = ServerLink(Address("127.0.0.1", server.port), "stale", kind="bot")
        playing = play_remote(link, HeuristicBot(1), Seating(table), games=1, tokens=tokens)
        assert await asyncio.wait_for(playing, 60) == 1
        err = capsys.readouterr().err
        assert "kept_token_expired" in err and "server_error" not in err
        await host.close()


async def test_a_bot_whose_seat_another_connection_takes_back_stops_saying_so() -> None:
    """Told ``bad_token`` while seated (its token was used by another connection), the bot
    stops with the reason instead of waiting in the lobby for ever."""
    async with running_server() as server:
        host, table = await host_table(server.port, 2, ["random"])
        link = ServerLink(Address("127.0.0.1", server.port), "taken", kind="bot")
        playing = asyncio.ensure_future(play_remote(link, HeuristicBot(seed=3), Seating(table, 1)))
        for _ in range(200):
            if link.seat is not None:
                break
            await asyncio.sleep(0.05)
        assert link.seat == 1 and link.token is not None
        thief = await RawClient.connect(server.port)
        await thief.send(type="hello", version="1.2", name="taken", kind="bot", token=link.token)
        await thief.expect("joined")
        with pytest.raises(SeatRefusedError, match="bad_token"):
            await asyncio.wait_for(playing, 30)
        await thief.close()
        await host.close()


def test_a_kept_token_is_not_handed_to_a_second_process_while_the_first_plays(tmp_path: Path) -> None:
    """A token kept by a process that is still running is not for another process: the second
    makes its own seat. Once that process has ended, the token is there to come back with."""
    tokens = SeatTokens(tmp_path / "seats.json")
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys; from pathlib import Path; from setback.link.seat_tokens import SeatTokens; "
         f"SeatTokens(Path({str(tmp_path / 'seats.json')!r})).keep('h:1', 'bob', 'T0KEN', 't1', 0); "
         "print('kept', flush=True); sys.stdin.read()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "kept"
        assert tokens.token("h:1", "bob") is None
    finally:
        holder.communicate("", timeout=30)
    assert tokens.token("h:1", "bob") == "T0KEN"
    tokens.keep("h:1", "ann", "MINE", "t1", 1)
    assert tokens.token("h:1", "ann") == "MINE"  # this process's own, after a reconnection
