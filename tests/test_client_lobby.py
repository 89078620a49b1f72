"""The text client's lobby and the ends of a game: create with options, leave, watch, chat,
errors in plain words, the winner and playing again, finding a server, and the command line."""

from __future__ import annotations

import argparse
import socket
import uuid
from collections.abc import Sequence

import pytest
from test_client_state import welcome
from textual.pilot import Pilot
from textual.widgets import Button, Checkbox, DataTable, Input, OptionList, Select, Static
from textual.widgets.select import InvalidSelectValueError
from ui import LowestBot, client, game_of, my_decision, screen_text, sent_by, taken, until
from wire import RawClient, running_server

from setback.bots import BUILTIN
from setback.cli import build_parser
from setback.client import screens
from setback.client.app import SetbackApp
from setback.client.dialogs import TARGET_DEFAULT, VARIANT_CHOICES, CreateTableDialog, InviteDialog
from setback.client.discover import FoundServer
from setback.client.panels import table_detail
from setback.client.screens import DiscoverScreen, LobbyScreen, Log, TableScreen
from setback.client.state import ClientState, Link, QuickGame
from setback.commands.common import rules_from
from setback.commands.embedded import embedded_config
from setback.commands.play import play, play_options, players_default
from setback.engine import Variant
from setback.link.server_link import Address
from setback.protocol import DEFAULT_PORT, PROTOCOL_VERSION
from setback.protocol.messages import CreateTable, Ready, WireRules
from setback.server.advertise import Advertisement
from setback.server.app import Server
from setback.server.config import ServerConfig


@pytest.fixture(autouse=True)
def lowest(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BUILTIN, "lowest", LowestBot)


async def new_table_dialog(pilot: Pilot[None], app: SetbackApp) -> CreateTableDialog:
    """From the lobby, once connected: press n and wait for the new-table dialog."""
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.state.server, "the lobby")
    await pilot.press("n")
    await until(pilot, lambda: isinstance(app.screen, CreateTableDialog), "the new-table dialog")
    assert isinstance(app.screen, CreateTableDialog)
    return app.screen


async def test_the_winner_is_shown_and_ready_plays_again() -> None:
    """Smudge with two sides: a failed bid of 4 ends the game at once; r starts the next one."""
    plan = QuickGame(rules=WireRules(players=2, smudge=True), bots=1, seed=2, bot="lowest")
    async with running_server() as server:
        app = client(server.port, plan)
        async with app.run_test(size=(80, 24)) as pilot:
            while app.state.game is None or game_of(app).outcome is None:
                await until(pilot, lambda: my_decision(app) is not None or (
                    app.state.game is not None and game_of(app).outcome is not None), "a decision or the end")
                decision = my_decision(app)
                if decision is None:
                    break
                await pilot.press("4" if "bid 4" in decision.legal else "right", "enter")
                await taken(pilot, app, decision, "the move")
            await pilot.pause()
            outcome = game_of(app).outcome
            assert outcome is not None and outcome.reason in {"smudge", "smudge_failed"}
            text = screen_text(app)
            assert "win the game" in text or "wins the game" in text
            assert "Play again" in text and "r: play again" in text
            sent = sent_by(app)
            await pilot.press("r")
            await until(pilot, lambda: app.state.game is not None and game_of(app).game == 1, "the next game")
            assert any(isinstance(m, Ready) for m in sent)
            assert game_of(app).outcome is None


async def test_create_a_table_with_options_leave_watch_and_chat() -> None:
    async with running_server() as server:
        bea = await RawClient.connect(server.port)
        await bea.hello("bea", kind="human")
        await bea.send(type="create_table", id=1, name="Watched", rules={"players": 2}, bots=["lowest"])
        await bea.send(type="join", id=2, table="t1", ready=True)
        await bea.expect("joined")
        app = client(server.port)
        async with app.run_test(size=(80, 24)) as pilot:
            dialog = await new_table_dialog(pilot, app)
            dialog.query_one("#name", Input).value = "Friday"
            dialog.query_one("#players", Select).value = 3
            dialog.query_one("#target", Select).value = 7
            dialog.query_one("#clock", Select).value = 2
            dialog.query_one("#bots", Select).value = 2
            dialog.query_one("#smudge", Checkbox).value = True
            await pilot.click("#create_button")
            await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.state.game is not None, "the game")
            info = app.state.table_info
            assert info is not None and info.name == "Friday"
            assert info.rules.players == 3 and info.rules.target == 7 and info.rules.smudge
            assert info.clock.decision_seconds == 30.0
            await pilot.pause()
            assert "3 players · cutthroat · to 7 · smudge" in screen_text(app)
            await pilot.press("c")
            await pilot.press(*"good luck", "enter")
            await until(pilot, lambda: "<ann> good luck" in screen_text(app), "the chat line")
            await pilot.press("l")
            await pilot.press("y")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby again")
            await until(pilot, lambda: "Watched" in screen_text(app), "the other table listed")
            listing = app.screen.query_one("#tables", DataTable)
            listing.move_cursor(row=list(app.state.tables).index("t1"))
            await pilot.press("s")
            await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.state.spectating, "watching")
            await until(pilot, lambda: app.state.game is not None, "the watched game")
            assert game_of(app).hand == [] and app.state.seat is None
        await bea.close()


async def test_the_new_table_dialog_makes_a_club_table() -> None:
    """The club options in the new-table dialog: the table is made with them, and its top bar
    and its keys screen say them."""
    async with running_server() as server:
        app = client(server.port)
        async with app.run_test(size=(80, 24)) as pilot:
            dialog = await new_table_dialog(pilot, app)
            dialog.query_one("#players", Select).value = 2
            await pilot.pause()
            dialog.query_one("#bots", Select).value = 1
            dialog.query_one("#min_bid", Select).value = 2
            dialog.query_one("#low", Select).value = 1
            dialog.query_one("#steal", Checkbox).value = True
            await pilot.click("#create_button")
            await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.state.game is not None, "the game")
            info = app.state.table_info
            assert info is not None
            assert (info.rules.min_bid, info.rules.dealer_steal, info.rules.low) == (2, True, "captured")
            await pilot.pause()
            assert "bids from 2 · dealer may steal · low captured" in screen_text(app)
            await pilot.press("question_mark")
            await until(pilot, lambda: "Low and Jack to whoever takes them" in screen_text(app), "the house rules")
            assert "The dealer may take the bid at the highest bid so far." in screen_text(app)


async def test_a_table_of_bots_only_is_watched_and_plays_on() -> None:
    """Bots in every seat: the client watches instead of sitting, and the next game follows."""
    async with running_server(bot_table_pause=0.05, bot_table_pace=0.01) as server:
        app = client(server.port)
        async with app.run_test(size=(80, 24)) as pilot:
            dialog = await new_table_dialog(pilot, app)
            dialog.query_one("#players", Select).value = 2
            await pilot.pause()
            dialog.query_one("#bots", Select).value = 2
            await until(pilot, lambda: dialog.query_one("#watch_hint").display, "the watch hint")
            await pilot.pause()  # the hint takes its line, and the button moves down one
            await pilot.click("#create_button")
            await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.state.spectating, "watching")
            assert app.state.seat is None
            await until(pilot, lambda: app.state.game is not None and (game_of(app).game or 0) >= 1, "the next game",
                        timeout=60)
            assert game_of(app).hand == []
            assert "watching" in screen_text(app)
            # a spectator is offered no play keys (the footer is drawn again as the new game starts)
            await until(pilot, lambda: "leave" in screen_text(app).splitlines()[-1], "the spectator's footer")
            footer = screen_text(app).splitlines()[-1]
            assert "⏎" not in footer and "ready" not in footer
            assert any("Bots hold every seat: you watch." in entry.line for entry in app.state.log)


async def test_the_new_table_dialog_offers_a_bot_a_seat_at_most() -> None:
    """The Bots choice runs from none to a bot in every seat, follows the Players choice, and the
    hint that the player only watches shows just when bots take every seat."""
    async with running_server() as server:
        app = client(server.port)
        async with app.run_test(size=(80, 24)) as pilot:
            dialog = await new_table_dialog(pilot, app)
            players, bots = dialog.query_one("#players", Select), dialog.query_one("#bots", Select)
            hint = dialog.query_one("#watch_hint")

            async def hinted() -> bool:
                await pilot.pause()
                return bool(hint.display)

            assert players.value == 4 and bots.value == 0 and not await hinted()
            with pytest.raises(InvalidSelectValueError):
                bots.value = 5
            bots.value = 3
            assert not await hinted()
            bots.value = 4
            assert await hinted()
            players.value = 2
            assert await hinted() and bots.value == 2, "a choice that no longer fits comes down to a bot a seat"
            with pytest.raises(InvalidSelectValueError):
                bots.value = 3
            bots.value = 1
            assert not await hinted()
            players.value = 7
            assert not await hinted() and bots.value == 1
            bots.value = 7
            assert await hinted()


async def test_the_new_table_dialog_offers_only_teams_that_fit() -> None:
    async with running_server() as server:
        app = client(server.port)
        async with app.run_test(size=(80, 24)) as pilot:
            dialog = await new_table_dialog(pilot, app)
            players, sides = dialog.query_one("#players", Select), dialog.query_one("#teams", Select)
            with pytest.raises(InvalidSelectValueError):
                sides.value = 3  # 4 players cannot sit as 3 teams
            sides.value = 2
            players.value = 6
            await pilot.pause()
            assert sides.value == 2, "two teams of three still fit"
            sides.value = 3
            players.value = 5
            await pilot.pause()
            assert sides.value == 0, "no teams fit five players: cutthroat"


def log_text(app: SetbackApp) -> str:
    """The log panel of the screen shown, a line a row."""
    return "\n".join(line.text for line in app.screen.query_one(Log).lines)


async def watch(pilot: Pilot[None], app: SetbackApp, table: str) -> None:
    """From the lobby: put the cursor on ``table``, press s, and wait to be watching it."""
    listing = app.screen.query_one("#tables", DataTable)
    listing.move_cursor(row=list(app.state.tables).index(table))
    await pilot.press("s")
    await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.state.table == table, f"watching {table}")
    await pilot.pause()


async def test_the_log_tells_only_the_table_at_hand() -> None:
    """Watching one table, then another: the first table's lines leave the log panel."""
    async with running_server() as server:
        bea = await RawClient.connect(server.port)
        await bea.hello("bea", kind="human")
        for request, name in ((1, "First"), (2, "Second")):
            await bea.send(type="create_table", id=request, name=name, rules={"players": 2})
            await bea.expect("table", id=request)
        app = client(server.port)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: "Second" in screen_text(app), "both tables listed")
            await watch(pilot, app, "t1")
            assert "You are watching table t1." in log_text(app)
            await pilot.press("l")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            await pilot.pause()
            assert "You left table t1." in log_text(app)
            await watch(pilot, app, "t2")
            text = log_text(app)
            assert "You are watching table t2." in text
            assert "t1" not in text, text
            assert f"Connected to setback as {app.state.name}." in text, "the lobby's lines stay"
        await bea.close()


async def test_a_refusal_is_told_in_plain_words() -> None:
    async with running_server() as server:
        first, second = await RawClient.connect(server.port), await RawClient.connect(server.port)
        await first.hello("bea", kind="human")
        await second.hello("cy", kind="human")
        await first.send(type="create_table", id=1, name="Full", rules={"players": 2})
        await first.expect("table")
        await first.send(type="join", id=2, table="t1")
        await second.send(type="join", id=2, table="t1")
        await second.expect("joined")
        app = client(server.port)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: "Full" in screen_text(app), "the full table listed")
            await pilot.press("enter")
            await until(pilot, lambda: app.state.notice is not None, "the refusal")
            assert "There is no free seat there (joining)." in screen_text(app)  # said once, not twice
        await first.close()
        await second.close()


async def test_the_first_screen_lists_the_servers_found_and_joins_the_one_chosen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What the browse found, by name, then this computer; a server of another major is listed
    but cannot be chosen. (The browse is stood in for: no multicast needed.)"""
    name = f"Club {uuid.uuid4().hex[:6]}"
    async with running_server(name=name) as server:
        found = [FoundServer(name, Address("127.0.0.1", server.port), PROTOCOL_VERSION),
                 FoundServer("Attic", Address("192.0.2.9", 7411), "2.0")]

        async def browse(seconds: float, interfaces: Sequence[str] | None) -> list[FoundServer]:
            return found

        monkeypatch.setattr(screens, "browse", browse)
        app = client(None)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: "2 servers found" in screen_text(app), "the servers listed")
            screen = app.screen
            assert isinstance(screen, DiscoverScreen)
            assert [s.name for s in screen.servers] == ["Attic", name, "this computer"]
            listing = screen.query_one("#servers", OptionList)
            assert [listing.get_option_at_index(i).disabled for i in range(3)] == [True, False, False]
            assert "protocol 2.0: not compatible" in screen_text(app)
            listing.highlighted = 1
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.state.server, "the lobby")
            assert app.state.server == name
            assert app.state.address == f"127.0.0.1:{server.port}"


async def test_with_no_server_found_this_computer_is_offered(monkeypatch: pytest.MonkeyPatch) -> None:
    """A browse that finds nothing, or cannot run (no multicast), still leaves somewhere to go."""

    async def browse(seconds: float, interfaces: Sequence[str] | None) -> list[FoundServer]:
        return []

    monkeypatch.setattr(screens, "browse", browse)
    app = client(None)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "0 servers found" in screen_text(app), "the list")
        screen = app.screen
        assert isinstance(screen, DiscoverScreen)
        assert screen.servers == [FoundServer("this computer", Address("127.0.0.1", DEFAULT_PORT))]
        assert f"this computer  (127.0.0.1:{DEFAULT_PORT})" in screen_text(app)


@pytest.mark.multicast_loopback
async def test_servers_found_on_the_lan_are_offered_and_joined() -> None:
    """The first screen lists a server announced over mDNS (kept to loopback) and this computer.
    (It browses a second past the newly started responder's wait, as test_discovery does.)"""
    name = f"Club {uuid.uuid4().hex[:6]}"
    async with running_server(name=name) as server:
        advertisement = await Advertisement.start(name, "127.0.0.1", server.port)
        try:
            app = client(None, mdns_interfaces=["127.0.0.1"], browse_seconds=2.5)
            async with app.run_test(size=(80, 24)) as pilot:
                assert isinstance(app.screen, DiscoverScreen)
                await until(pilot, lambda: name in screen_text(app), "the server found")
                screen = app.screen
                assert isinstance(screen, DiscoverScreen)
                local = Address("127.0.0.1", DEFAULT_PORT)  # a real server there is offered instead
                assert "this computer" in screen_text(app) or any(s.address == local for s in screen.servers)
                screen.query_one("#servers", OptionList).highlighted = next(
                    i for i, found in enumerate(screen.servers) if found.name == name
                )
                await pilot.press("enter")
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.state.server, "the lobby")
                assert app.state.server == name
                assert app.state.address == f"127.0.0.1:{server.port}"
        finally:
            await advertisement.close()


async def test_suits_without_colour_and_in_letters(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    plan = QuickGame(rules=WireRules(players=2), bots=1, seed=2, bot="lowest")
    async with running_server() as server:
        app = client(server.port, plan, ascii=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: my_decision(app) is not None, "a decision")
            await pilot.pause()
            assert app.no_color
            text = screen_text(app)
            for card in game_of(app).hand:
                assert f" {card} " in text
            assert not set("♣♦♥♠") & set(text.split("Draw for the deal")[0])


def parse(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(["play", *argv])


def test_the_command_line_plans_a_game_against_bots() -> None:
    args = parse("--bots", "3", "--name", "ann", "--smudge", "--target", "7", "--clock", "30", "--seed", "9")
    options = play_options(args, rules_from(args, players_default(args)))
    assert options.address is None and options.name == "ann"
    plan = options.plan
    assert plan is not None and plan.bots == 3 and plan.seed == 9 and plan.name == "ann's table"
    assert plan.rules.players == 4 and plan.rules.smudge and plan.rules.target == 7
    assert plan.clock.decision_seconds == 30.0
    there = parse("pitch.example:7000", "--teams", "2")
    options = play_options(there, rules_from(there, players_default(there)))
    assert options.address == Address("pitch.example", 7000) and options.plan is None
    assert options.rules.teams == 2


def test_the_command_line_chooses_the_bots_level() -> None:
    """--level seats bots of that level at the --bots table (none: the client's preferred, casual)."""
    args = parse("--bots", "2", "--level", "strong")
    plan = play_options(args, rules_from(args, players_default(args))).plan
    assert plan is not None and plan.bot == "strong" and plan.bots == 2
    args = parse("--bots", "2")
    plan = play_options(args, rules_from(args, players_default(args))).plan
    assert plan is not None and plan.bot is None
    with pytest.raises(SystemExit):
        parse("--bots", "2", "--level", "grandmaster")
    args = parse("--bots", "3", "--level", "beginner,strong,expert")
    plan = play_options(args, rules_from(args, players_default(args))).plan
    assert plan is not None and plan.levels == ("beginner", "strong", "expert")
    state = ClientState(name="ann", plan=plan)
    create = state.receive(welcome(["beginner", "casual", "strong", "expert"]))[1]
    assert isinstance(create, CreateTable) and create.bots == ["beginner", "strong", "expert"]
    args = parse("--bots", "3", "--level", "beginner,strong")
    with pytest.raises(ValueError, match="one for each of the 3 bots"):
        play_options(args, rules_from(args, players_default(args)))


async def test_play_level_seats_bots_named_by_their_level() -> None:
    """A quick game of --level beginner: the table screen and the lobby's line name each bot seat
    after its level, so everyone sees how well it plays."""
    plan = QuickGame(rules=WireRules(players=3), bots=2, bot="beginner")
    async with running_server() as server:
        app = client(server.port, plan)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.state.game is not None, "the game")
            await pilot.pause()
            text = screen_text(app)
            assert "beginner-0" in text and "beginner-1" in text
            detail = table_detail(app.state.table_info).plain
            assert "1: beginner-0 (bot)" in detail and "2: beginner-1 (bot)" in detail


async def test_the_new_table_dialog_chooses_the_bots_level() -> None:
    """The Level field offers the server's levels, weakest first, casual chosen; the bots seated
    are of the level chosen, named after it."""
    async with running_server() as server:
        app = client(server.port)
        async with app.run_test(size=(80, 24)) as pilot:
            dialog = await new_table_dialog(pilot, app)
            level = dialog.query_one("#level", Select)
            assert level.value == "casual"
            offered = [str(option) for option in dialog.levels]
            assert offered[:4] == ["beginner", "casual", "strong", "expert"]
            dialog.query_one("#players", Select).value = 2
            await pilot.pause()
            dialog.query_one("#bots", Select).value = 1
            level.value = "strong"
            await pilot.pause()
            await pilot.click("#create_button")
            await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.state.game is not None, "the game")
            info = app.state.table_info
            assert info is not None and [s.name for s in info.seats if s.kind == "builtin"] == ["strong-0"]
            await pilot.pause()
            assert "strong-0" in screen_text(app)


def test_the_command_line_refuses_what_does_not_fit() -> None:
    for argv, words in (
        (("--level", "strong"), "--level"),
        (("--bots", "4", "--players", "4"), "--bots is 1 to 3"),
        (("--bots", "1", "--teams", "3"), "teams=3"),
        (("--name", "x" * 41), "--name"),
        (("--clock", "-1"), "--clock"),
        (("host", "--db", "x.sqlite3"), "--db"),
    ):
        args = parse(*argv)
        with pytest.raises(ValueError, match=words):
            play_options(args, rules_from(args, players_default(args)))


def test_the_embedded_server_listens_on_loopback_only() -> None:
    config = embedded_config()
    assert config.host == "127.0.0.1" and config.port == 0 and config.db is None
    assert embedded_config("games.sqlite3").db == "games.sqlite3"


async def test_an_unreachable_server_is_told_and_tried_again_on_r() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app = client(port)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.state.link is Link.OFFLINE, "giving up")
        await pilot.pause()
        assert f"nothing answers at 127.0.0.1:{port}" in screen_text(app)
        assert "r: try again" in screen_text(app)
        server = Server(ServerConfig(host="127.0.0.1", port=port, name="late"))
        await server.start()
        try:
            await pilot.press("r")
            await until(pilot, lambda: app.state.link is Link.ONLINE, "the connection")
            assert app.state.server == "late"
        finally:
            await server.stop()



async def test_play_runs_the_client_against_its_own_server_and_stops_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """``setback play --bots 3``: a server on 127.0.0.1 for the client's whole run, stopped after."""
    seen: list[Address | None] = []

    async def run(app: SetbackApp) -> None:
        address = app.options.address
        seen.append(address)
        assert address is not None and address.host == "127.0.0.1"
        assert app.options.embedded, "the client knows quitting stops the game"
        peer = await RawClient.connect(address.port)
        welcome = await peer.hello("probe")
        assert welcome["server"] == "this computer"
        await peer.close()

    monkeypatch.setattr(SetbackApp, "run_async", run)
    args = parse("--bots", "3", "--name", "ann")
    options = play_options(args, rules_from(args, players_default(args)))
    await play(options, embedded=True)
    (address,) = seen
    assert address is not None
    with pytest.raises(OSError):
        await RawClient.connect(address.port)


def test_serve_can_keep_quiet_on_the_lan() -> None:
    assert build_parser().parse_args(["serve", "--no-advertise"]).no_advertise
    assert not build_parser().parse_args(["serve"]).no_advertise


async def test_a_server_with_a_password() -> None:
    """Without it the client asks for it (a wrong one is asked for again); with it, it is in."""
    async with running_server(password="pitch") as server:
        refused = client(server.port)
        async with refused.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(refused.screen, InviteDialog), "the password asked for")
            assert "needs its password" in screen_text(refused)
            await pilot.press(*"wrong", "enter")
            await until(pilot, lambda: refused.state.link is Link.OFFLINE and isinstance(refused.screen, InviteDialog),
                        "asked again")
            await pilot.press(*"pitch", "enter")
            await until(pilot, lambda: refused.state.link is Link.ONLINE, "the welcome with the typed password")
        welcomed = client(server.port, password="pitch")
        async with welcomed.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: welcomed.state.link is Link.ONLINE, "the welcome")


async def test_a_private_table_asks_for_its_invite_code() -> None:
    """Sitting at a private table asks for the invite code; the right code seats the player."""
    async with running_server() as server:
        host = await RawClient.connect(server.port)
        await host.hello("host", kind="human")
        await host.send(type="create_table", id=1, name="Secret", rules={"players": 2}, private=True)
        invite = (await host.expect("table", id=1))["table"]["invite"]
        app = client(server.port)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: "Secret" in screen_text(app), "the private table listed")
            await pilot.press("enter")
            await until(pilot, lambda: "invite code" in screen_text(app), "the invite question")
            app.screen.query_one(Input).value = invite
            await pilot.press("enter")
            await until(pilot, lambda: app.state.seat is not None, "a seat at the private table")
        await host.close()


async def test_a_seat_is_chosen_by_its_number_and_partners_share_a_letter() -> None:
    """At a team table the line under the list shows each seat's side; a number key sits there."""
    async with running_server() as server:
        host = await RawClient.connect(server.port)
        await host.hello("host", kind="human")
        await host.send(type="create_table", id=1, name="Partners", rules={"players": 4, "teams": 2})
        await host.expect("table", id=1)
        app = client(server.port)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: "Partners" in screen_text(app), "the table listed")
            text = screen_text(app)
            assert "1 A: empty" in text and "2 B: empty" in text and "3 A: empty" in text  # seats count from 1
            await pilot.press("3")
            await until(pilot, lambda: app.state.seat is not None, "the seat")
            assert app.state.seat == 2
        await host.close()


async def test_a_terminal_under_80x24_is_told_its_size_once_each_time_it_shrinks() -> None:
    async with running_server() as server:
        app = client(server.port)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await until(pilot, lambda: "Connected to" in screen_text(app), "the lobby")
            assert "Terminal too small" not in screen_text(app)
            await pilot.resize_terminal(70, 24)
            await until(pilot, lambda: "This terminal is 70x24" in screen_text(app), "the warning")
            await pilot.resize_terminal(70, 20)  # still too small: not said again
            await pilot.pause()
            assert len(app.screen.query("Toast")) == 1
            await pilot.resize_terminal(100, 30)
            await pilot.resize_terminal(80, 23)
            await until(pilot, lambda: "This terminal is 80x23" in screen_text(app), "the warning again")


async def test_the_new_table_dialog_makes_a_pedro_table_in_pairs_and_shows_a_refused_one() -> None:
    """The Variant field: pedro starts the sides at pairs (the hint says it is played in
    partnerships only) and the target at the variant's own (31, left to the server); chosen
    cutthroat, the dialog stays open with the refusal naming both options; the table made is
    pedro's, and the lobby names its points."""
    async with running_server() as server:
        app = client(server.port)
        async with app.run_test(size=(100, 30)) as pilot:
            dialog = await new_table_dialog(pilot, app)
            dialog.query_one("#variant", Select).value = next(
                i for i, (_, v) in enumerate(VARIANT_CHOICES) if v is Variant.PEDRO)
            await pilot.pause()
            assert dialog.query_one("#teams", Select).value == 2
            assert dialog.query_one("#target", Select).value == TARGET_DEFAULT
            assert "partnerships only" in str(dialog.query_one("#sides_hint", Static).render())
            dialog.query_one("#teams", Select).value = 0
            dialog.query_one("#create_button", Button).press()  # not a click: the sides' hint may still move it
            problem = dialog.query_one("#problem", Static)
            await until(pilot, lambda: "does not go with" in str(problem.render()), "the refusal")
            assert isinstance(app.screen, CreateTableDialog)
            assert "variant pedro does not go with teams none (cutthroat)" in str(problem.render())
            dialog.query_one("#teams", Select).value = 2
            dialog.query_one("#bots", Select).value = 3
            await pilot.pause()
            dialog.query_one("#create_button", Button).press()  # not a click: the refusal's line moved the form
            await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.state.table_info is not None,
                        "the table")
            info = app.state.table_info
            assert info is not None
            assert (info.rules.variant, info.rules.teams, info.rules.target) == ("pedro", 2, 31)
            assert "Pedro: High Low Jack Five Off-five Game" in table_detail(info).plain
