"""The table a card player enjoys: the trick as it stands, stable keys, the score sheet, the
story told again after a reconnection, the keys that apply, and a big terminal's table.

The pure tests fold messages into the client's model and draw its panels; the headless ones
(Textual's pilot) play against a real server on 127.0.0.1 with predictable bots (seed 4: the
player, seat 3 after three ``lowest`` bots who always pass, bids and pitches).
"""

from __future__ import annotations

import io
import re
import socket
from pathlib import Path
from typing import Any

import msgspec
import pytest
from rich.console import Console, RenderableType
from textual.pilot import Pilot
from textual.widgets import OptionList
from ui import LowestBot, client, game_of, my_decision, screen_text, table_screen, taken, until
from wire import running_server

from setback.bots import BUILTIN
from setback.cli import build_parser
from setback.client.app import SetbackApp
from setback.client.dialogs import HelpDialog, ShowDialog
from setback.client.felt import table_picture
from setback.client.panels import (
    centre,
    points_won_lines,
    score_sheet,
    seat_clock,
    seats_table,
    sheet_labels,
    status_line,
    table_detail,
    table_row,
    waiting_room,
)
from setback.client.render import SUIT_STYLES, card_label, card_text, sorted_hand
from setback.client.screens import Chip, DiscoverScreen, LobbyScreen
from setback.client.state import ClientState, Link, LogKind, QuickGame
from setback.commands.common import rules_from
from setback.commands.play import play_options, players_default
from setback.engine import Card, CardPlayed, Event, Game, Rules, Suit, TrickWon, Variant
from setback.link.server_link import Address
from setback.protocol import PROTOCOL_VERSION
from setback.protocol.convert import event_to_wire, view_to_wire
from setback.protocol.messages import (
    ChatLine,
    Clock,
    CreateTable,
    DecisionClock,
    EventMessage,
    Joined,
    Limits,
    SeatInfo,
    Snapshot,
    TableInfo,
    TableUpdate,
    Welcome,
    WireAward,
    WireHandResult,
    WireRules,
)
from setback.server.app import Server
from setback.server.config import ServerConfig

SEED = 4
ME = 3
LIMITS = Limits(
    max_line_bytes=16384, max_messages_per_second=200.0, message_burst=400, hello_timeout_seconds=10.0,
    idle_timeout_seconds=60.0, heartbeat_seconds=20.0, reconnect_grace_seconds=120.0, max_chat_chars=500,
    max_name_chars=40,
)


@pytest.fixture(autouse=True)
def lowest(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BUILTIN, "lowest", LowestBot)


def quick(players: int = 4, **rules: object) -> QuickGame:
    return QuickGame(rules=WireRules(players=players, **rules), bots=players - 1, seed=SEED, bot="lowest")  # type: ignore[arg-type]


def drawn(renderable: RenderableType, width: int = 80) -> str:
    console = Console(width=width, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def seated(players: int = 4, seat: int = ME, **rules: object) -> ClientState:
    """The model of a client welcomed by a 1.3 server and seated at table t1."""
    state = ClientState(name="ann")
    state.receive(Welcome(version=PROTOCOL_VERSION, server="club", player="ann", token="tok", limits=LIMITS,
                          capabilities=[], bots=["random"]))
    state.receive(Joined(table="t1", seat=seat, token="tok"))
    wire_rules = WireRules(players=players, **rules)  # type: ignore[arg-type]
    seats = [SeatInfo(seat=s, name=f"p{s}", kind="human", ready=False, connected=True) for s in range(players)]
    state.receive(TableUpdate(table=TableInfo(
        table="t1", name="Friday", rules=wire_rules, clock=Clock(decision_seconds=30), seats=seats, spectators=0,
        status="waiting", games_played=0, seeded=False,
    )))
    return state


def mid_trick(state: ClientState, seat: int) -> Game:
    """A game played to its second card of the first trick, the client given a snapshot of it."""
    rules = Rules(players=4)
    game = Game(rules, 21)
    while not (game.view(None).trick and len(game.view(None).trick) == 2):
        game.apply(game.legal_actions()[-1])
    state.receive(Snapshot(table="t1", view=view_to_wire(game.view(seat)), players=[f"p{s}" for s in range(4)]))
    return game


# -- the model and the panels -------------------------------------------------------------------


def test_the_card_winning_the_trick_is_marked_as_the_server_says() -> None:
    """The seats mark the card the view names as winning, and the line under them says whose it is."""
    state = seated()
    game = mid_trick(state, ME)
    winning = game.view(None).winning
    assert winning is not None
    card = next(d.card for d in game.view(None).trick if d.seat == winning)
    seats = drawn(seats_table(state, 0.0, ascii=True)).splitlines()
    row = next(line for line in seats if f"p{winning} " in line)
    assert f"{card}*" in row
    assert sum("*" in line for line in seats) == 1
    assert f"p{winning}'s {card}* wins so far" in drawn(centre(state, ascii=True), width=120)


def test_a_finished_trick_stays_on_the_table_until_the_next_lead() -> None:
    """After a trick is won its cards stay in the seats, the winner's marked, until a card is led."""
    state = seated()
    game = mid_trick(state, ME)
    events: list[Event] = []
    while not any(isinstance(e, TrickWon) for e in events):
        events += game.apply(game.legal_actions()[0])
    won = next(e for e in events if isinstance(e, TrickWon))
    for event in events:
        winning = game.view(None).winning if isinstance(event, CardPlayed) else None
        state.receive(EventMessage(table="t1", event=event_to_wire(event, ME, winning)))
    seats = drawn(seats_table(state, 0.0, ascii=True))
    for play in won.plays:
        assert str(play.card) in seats
    winner_card = next(p.card for p in won.plays if p.seat == won.winner)
    assert f"{winner_card}*" in seats
    lead = game.legal_actions()[0]
    for event in game.apply(lead):
        state.receive(EventMessage(table="t1", event=event_to_wire(event, ME, game.view(None).winning)))
    seats = drawn(seats_table(state, 0.0, ascii=True))
    assert f"{str(lead)[5:]}*" in seats
    assert all(str(p.card) not in seats for p in won.plays)


def test_the_header_keeps_the_games_number_after_a_snapshot() -> None:
    """A snapshot of the second game keeps "game 2" on the top bar (the client came back to it)."""
    state = seated()
    view = view_to_wire(Game(Rules(players=4), 3).view(ME))
    state.receive(Snapshot(table="t1", view=view, game=1))
    assert "game 2" in status_line(state).plain


def test_a_spectators_clocks_are_the_servers() -> None:
    """Watching, the clock of the seat to act is the one the snapshot gave, counted down; a seat
    whose clock the server did not give shows none rather than a guess."""
    state = seated(seat=ME)
    game = Game(Rules(players=4), 3)
    to_act = game.to_act
    assert to_act is not None and to_act != ME
    clock = DecisionClock(limit_ms=30_000, remaining_ms=12_000)
    state.receive(Snapshot(table="t1", view=view_to_wire(game.view(ME)), clock=clock), now=100.0)
    assert seat_clock(state, to_act, 102.0) == "0:10"
    state.receive(Snapshot(table="t1", view=view_to_wire(game.view(ME)), clock=None), now=200.0)
    assert state.game is not None
    state.game.turn_remaining_ms = None
    assert "~" not in seat_clock(state, to_act, 201.0)


def test_a_snapshot_tells_the_story_so_far_in_the_log() -> None:
    """The log of the table's game and chat is told again from a snapshot: earlier hands, this
    hand's bids and tricks, the chat; the client's own lines (connected, reconnected) stay."""
    state = seated()
    state.say(LogKind.GAME, "a line of before")
    game = mid_trick(state, ME)
    result = WireHandResult(
        hand_number=1, dealer=0, pitcher=1, bid=2, trump="H", high=1, high_card="AH", low=2, low_card="2H",
        jack=None, game=1, game_pips=[0, 20, 3, 0], points=[0, 3, 1, 0], set_back=False, deltas=[0, 3, 1, 0],
        scores=[0, 3, 1, 0],
    )
    view = view_to_wire(game.view(ME))
    state.receive(Snapshot(table="t1", view=view, players=[f"p{s}" for s in range(4)], results=[result],
                           chat=[ChatLine(sender="p1", text="nice one")]))
    lines = ["".join(map(str, entry.line)) for entry in state.log]
    assert "a line of before" not in lines, "what the snapshot tells replaces the table's old lines"
    assert any(line.startswith("Connected to club") for line in lines)
    assert "Hand 1: p1 bid 2 and made it." in lines
    assert f"Hand {view.hand_number}: p{view.dealer} deals." in lines
    assert any(line.endswith(" pitches for " + str(view.bid) + ".") for line in lines)
    assert lines[-1] == "<p1> nice one"
    assert state.game is not None and state.game.results == [result]


def test_the_score_sheet_gives_each_hand_by_side_and_the_running_totals() -> None:
    state = seated(teams=2)
    game = Game(Rules(players=4, teams=2), 5)
    state.receive(Snapshot(table="t1", view=view_to_wire(game.view(ME)), results=[
        WireHandResult(hand_number=1, dealer=0, pitcher=1, bid=2, trump="S", high=1, high_card="AS", low=1,
                       low_card="2S", jack=3, game=0, game_pips=[20, 10], points=[1, 3], set_back=False,
                       deltas=[1, 3], scores=[1, 3]),
        WireHandResult(hand_number=2, dealer=1, pitcher=0, bid=3, trump="D", high=0, high_card="AD", low=3,
                       low_card="2D", jack=None, game=1, game_pips=[5, 30], points=[1, 2], set_back=True,
                       deltas=[-3, 2], scores=[-2, 5]),
    ]))
    assert state.game is not None
    sheet = drawn(score_sheet(state.game, state.names(), ascii=True)).splitlines()
    hand_one = next(line for line in sheet if line.lstrip().startswith("1 "))
    hand_two = next(line for line in sheet if line.lstrip().startswith("2 "))
    assert "2 S made" in hand_one and hand_one.split()[-4:] == ["+1", "1", "+3", "3"]
    assert "3 D set" in hand_two and hand_two.split()[-4:] == ["-3", "-2", "+2", "5"]
    assert "A: p0 & p2 · B: p1 & p3" in " ".join(sheet)


def test_the_score_sheet_marks_a_stolen_hand_and_tells_alike_names_apart() -> None:
    """A hand the dealer took at the highest bid so far says "stolen"; three bots whose names
    cut alike head their columns with their seats' numbers, each column another."""
    state = seated(players=3)
    game = Game(Rules(players=3), 5)
    names = ["heuristic-0", "heuristic-1", "heuristic-2"]
    state.receive(Snapshot(table="t1", view=view_to_wire(game.view(2)), players=names, results=[
        WireHandResult(hand_number=1, dealer=0, pitcher=0, bid=2, trump="S", high=0, high_card="AS", low=1,
                       low_card="2S", jack=None, game=0, game_pips=[20, 10, 3], points=[2, 1, 0], set_back=False,
                       deltas=[2, 1, 0], scores=[2, 1, 0], stolen=True),
    ]))
    assert state.game is not None
    sheet = drawn(score_sheet(state.game, state.names(), ascii=True), width=80).splitlines()
    assert "stolen" in next(line for line in sheet if line.lstrip().startswith("1 "))
    heading = sheet[0]
    assert all(f"{seat} heu" in heading for seat in (1, 2, 3)), heading
    assert sheet_labels(state.game.rules, ["ann", "bob", "cy"]) == ["ann", "bob", "cy"]


def test_a_new_hands_felt_labels_the_trick_kept_from_the_hand_before() -> None:
    """Until the first lead of a hand, the hand before's last trick lies on the felt as that
    hand's, never as "trick 0"."""
    state = seated()
    game = Game(Rules(players=4), 21)
    state.receive(Snapshot(table="t1", view=view_to_wire(game.view(ME)), players=[f"p{s}" for s in range(4)]))
    while game.view(None).hand_number < 2 or game.view(None).pitcher is None:
        for event in game.apply(game.legal_actions()[-1]):
            state.receive(EventMessage(table="t1", event=event_to_wire(event, ME, game.view(None).winning)))
    rows = "\n".join(drawn(table_picture(state, 0.0, False, 72, 19), width=72).splitlines())
    assert "trick 0" not in rows and "hand 1's last trick" in rows


def test_a_private_tables_waiting_room_shows_its_code_while_a_seat_is_free() -> None:
    """The code a private table was made with stays on the table screen until every seat is taken."""
    state = seated()
    info = state.tables["t1"]
    free = [msgspec.structs.replace(seat, name=None, kind="empty") if seat.seat == 1 else seat for seat in info.seats]
    state.receive(TableUpdate(table=msgspec.structs.replace(info, private=True, invite="TX-42", seats=free)))
    assert "invite code is TX-42" in drawn(waiting_room(state), width=120)
    state.receive(TableUpdate(table=msgspec.structs.replace(info, private=True, invite=None)))
    assert "TX-42" not in drawn(waiting_room(state), width=120)


def test_the_waiting_room_of_a_team_table_shows_the_sides() -> None:
    state = seated(teams=2)
    text = drawn(waiting_room(state))
    assert "seat 1 (A): p0" in text and "seat 2 (B): p1" in text and "seat 4 (B): p3 (you)" in text


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_a_big_screen_seats_everyone_around_the_table(players: int) -> None:
    """On a big terminal every seat's name shows whole, on a row of its own or apart from the
    others, around the felt; this player's at the bottom."""
    state = seated(players=players, seat=players - 1)
    game = Game(Rules(players=players), 9)
    state.receive(Snapshot(table="t1", view=view_to_wire(game.view(players - 1)),
                           players=[f"player{s}" for s in range(players)]))
    rows = drawn(table_picture(state, 0.0, False, 72, 19), width=72).splitlines()
    assert sum("╭" in row for row in rows) == 1 and sum("╰" in row for row in rows) == 1
    for seat in range(players):
        assert sum(f"player{seat}" in row for row in rows) == 1, seat
    assert any(f"player{players - 1} (you)" in row for row in rows[-4:]), "the player sits at the bottom"


# -- at the table, headless ------------------------------------------------------------------


async def to_my_play(app: SetbackApp, pilot: Pilot[None], bid: str = "2") -> None:
    """Bid ``bid`` (by its key) and wait for the lead."""
    await until(pilot, lambda: my_decision(app) is not None, "the bid")
    await pilot.press(bid, "enter")
    await until(pilot, lambda: (d := my_decision(app)) is not None and not d.bidding, "the lead")


def chips_shown(app: SetbackApp) -> dict[str, Card]:
    """Each number shown on a card of the hand, and the card under it."""
    return {c.border_title or "": c.card for c in table_screen(app).query("#hand Chip").results(Chip)
            if c.display and c.card is not None}


async def test_the_winning_card_is_marked_in_the_trick_on_screen() -> None:
    async with running_server() as server:
        app = client(server.port, quick())
        async with app.run_test(size=(80, 24)) as pilot:
            await to_my_play(app, pilot)
            while not game_of(app).trick:
                decision = my_decision(app)
                await pilot.press("enter")
                await taken(pilot, app, decision)
                await until(pilot, lambda: my_decision(app) is not None, "the next play", 15)
            await pilot.pause()
            game = game_of(app)
            assert game.winning is not None
            card = game.played_by(game.winning)
            assert card is not None
            text = screen_text(app)
            assert f"{str(card)[:-1]}{card.suit.symbol}★" in text and "wins so far" in text


async def test_the_number_keys_keep_their_cards_when_trump_is_named_and_cards_are_played() -> None:
    """A card keeps the number it was dealt under, whatever trump is; a card played leaves its
    place empty and the others keep theirs."""
    async with running_server() as server:
        app = client(server.port, quick())
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: my_decision(app) is not None, "the bid")
            await pilot.pause()
            dealt = chips_shown(app)
            assert len(dealt) == 6
            await pilot.press("2", "enter")
            await until(pilot, lambda: (d := my_decision(app)) is not None and not d.bidding, "the lead")
            first_suit = dealt["1"].suit
            key, card = next((k, c) for k, c in dealt.items() if c.suit != first_suit)
            await pilot.press(key)
            assert table_screen(app).selected == f"play {card}"
            decision = my_decision(app)
            await pilot.press("enter")
            await taken(pilot, app, decision)
            await pilot.pause()
            assert game_of(app).trump == card.suit != first_suit
            shown = chips_shown(app)
            assert shown == {k: c for k, c in dealt.items() if c != card}
            for chip in table_screen(app).query("#hand Chip").results(Chip):
                if chip.display and chip.card is not None:
                    assert (chip.border_subtitle == "T") == (chip.card.suit == card.suit), "trump's cards say so"


async def test_the_score_sheet_and_the_last_trick_open_on_their_keys() -> None:
    async with running_server() as server:
        app = client(server.port, quick())
        async with app.run_test(size=(80, 24)) as pilot:
            await to_my_play(app, pilot)
            while game_of(app).hand_number == 1:
                decision = my_decision(app)
                if decision is not None:
                    await pilot.press("enter")
                    await taken(pilot, app, decision)
                await pilot.pause(0.02)
            await until(pilot, lambda: game_of(app).results != [], "the first hand's result")
            await pilot.press("s")
            await until(pilot, lambda: isinstance(app.screen, ShowDialog), "the score sheet")
            await pilot.pause()
            text = screen_text(app)
            result = game_of(app).results[0]
            assert "Score sheet · to 11" in text
            row = next(line for line in text.splitlines() if re.search(r"│\s+1\s+ann\s", line))
            assert f"{result.deltas[ME]:+d}" in row
            await pilot.press("s")
            await until(pilot, lambda: not isinstance(app.screen, ShowDialog), "the table again")
            await pilot.press("t")
            await until(pilot, lambda: isinstance(app.screen, ShowDialog), "the last trick")
            await pilot.pause()
            last = game_of(app).last_trick
            assert last is not None
            assert f"Trick {last.number} of hand {last.hand}" in screen_text(app)
            assert "★ took the trick" in screen_text(app)
            await pilot.press("escape")


async def test_a_client_back_after_a_restart_has_the_log_and_the_chat_again(tmp_path: Path) -> None:
    """Quit mid-game and started again (a crash, a closed terminal), the client takes its seat
    back and its log tells the hands played, this hand's bids and the table's chat again."""
    tokens = tmp_path / "seats.json"
    async with running_server() as server:
        first = client(server.port, quick(), seat_tokens=tokens)
        async with first.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: my_decision(first) is not None, "the bid")
            await pilot.press("c", *"good luck", "enter")
            await until(pilot, lambda: "<ann> good luck" in screen_text(first), "the chat line")
            await pilot.press("2", "enter")
            while game_of(first).hand_number == 1 or my_decision(first) is None:
                decision = my_decision(first)
                if decision is not None and game_of(first).hand_number == 1:
                    await pilot.press("enter")
                    await taken(pilot, first, decision)
                await pilot.pause(0.02)
            verdict = next("".join(map(str, e.line)) for e in first.state.log if e.kind is LogKind.SUMMARY)
        again = client(server.port, seat_tokens=tokens)
        async with again.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: my_decision(again) is not None, "the seat again")
            await pilot.pause()
            lines = ["".join(map(str, e.line)) for e in again.state.log]
            assert verdict in lines
            assert "<ann> good luck" in lines
            assert any(line.startswith("Hand 2: ") and line.endswith(" deals.") for line in lines)
            assert len(game_of(again).results) == 1
            text = screen_text(again)
            assert "<ann> good luck" in text


async def test_the_key_bar_offers_only_what_applies_and_stays_while_chatting() -> None:
    """No play key once the game is over, nor the last trick before one was played; with the
    chat line open the key bar is still there."""
    plan = QuickGame(rules=WireRules(players=2, smudge=True), bots=1, seed=2, bot="lowest")
    async with running_server() as server:
        app = client(server.port, plan)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: my_decision(app) is not None, "the bid")
            await pilot.pause()
            footer = screen_text(app).splitlines()[-1]
            assert "⏎ bid" in footer and "last trick" not in footer and "scores" not in footer
            await pilot.press("c")
            await pilot.pause()
            footer = screen_text(app).splitlines()[-1]
            assert "⏎ send" in footer and "Esc close the chat" in footer, "the key bar stays, for the chat"
            await pilot.press("escape")
            await pilot.pause()
            assert "⏎ bid" in screen_text(app).splitlines()[-1]
            while game_of(app).outcome is None:
                decision = my_decision(app)
                if decision is not None:
                    await pilot.press("4" if "bid 4" in decision.legal else "enter")
                    if "bid 4" in decision.legal:
                        await pilot.press("enter")
                    await taken(pilot, app, decision)
                await pilot.pause(0.02)
            await pilot.pause()
            footer = screen_text(app).splitlines()[-1]
            assert "⏎" not in footer and "choose" not in footer
            assert "ready" in footer and "scores" in footer


async def test_a_big_terminal_lays_the_seats_around_the_table() -> None:
    async with running_server() as server:
        app = client(server.port, quick())
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: my_decision(app) is not None, "the bid")
            await pilot.pause()
            rows = screen_text(app).splitlines()
            assert any("╭" in row and "╮" in row for row in rows[:20])
            me = next(i for i, row in enumerate(rows) if "ann (you)" in row)
            across = next(i for i, row in enumerate(rows) if "lowest-1" in row)
            assert across < me, "the seat across is above this player's"
            assert "Score sheet" in screen_text(app)
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            assert "player" in screen_text(app) and "held" in screen_text(app), "the seats' table again"


async def test_the_log_wraps_again_when_the_terminal_is_resized() -> None:
    async with running_server() as server:
        app = client(server.port, quick())
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: my_decision(app) is not None, "the bid")
            await pilot.pause()
            whole = "Game 1 begins: lowest-0, lowest-1, lowest-2, ann;"
            assert whole not in screen_text(app), "at 80 columns the line is wrapped"
            await pilot.resize_terminal(160, 40)
            await until(pilot, lambda: whole in screen_text(app), "the line on one row")


async def test_the_too_small_notice_stays_until_the_terminal_is_big_enough() -> None:
    async with running_server() as server:
        app = client(server.port)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await until(pilot, lambda: "Connected to" in screen_text(app), "the lobby")
            await pilot.resize_terminal(70, 20)
            await until(pilot, lambda: "This terminal is 70x20" in screen_text(app), "the notice")
            await pilot.pause(0.5)
            assert app._notifications and all(n.timeout > 3600 for n in app._notifications)
            await pilot.resize_terminal(75, 20)
            await until(pilot, lambda: "This terminal is 75x20" in screen_text(app), "the notice, its size now")
            assert len(app.screen.query("Toast")) == 1
            await pilot.resize_terminal(80, 24)
            await until(pilot, lambda: not app._notifications, "the notice gone")


async def test_the_lobby_help_lists_every_key_and_q_quits_from_it() -> None:
    async with running_server() as server:
        app = client(server.port)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.state.server, "the lobby")
            await pilot.press("question_mark")
            await until(pilot, lambda: isinstance(app.screen, HelpDialog), "the keys")
            await pilot.pause()
            text = screen_text(app)
            for words in ("1-7", "sit down in that seat", "watch the table", "create a table", "chat with the lobby",
                          "refresh", "q  quit"):
                assert words in text, words
            await pilot.press("q")
            await until(pilot, lambda: not app.is_running, "the client to quit")


async def test_the_server_list_highlights_the_first_offers_a_rescan_and_a_way_back() -> None:
    """The first server offered is highlighted (Enter joins it); r looks again; after a server
    that does not answer, d goes back to the list."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # each look lasts 1 s: "looking for servers" shows that long, long enough to be seen on a
    # loaded machine (at 0.2 s a busy CI run missed it)
    app = client(None, mdns_interfaces=["127.0.0.1"], browse_seconds=1.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DiscoverScreen) and app.screen.servers, "the list")
        listing = app.screen.query_one("#servers", OptionList)
        assert listing.highlighted == 0
        assert "r: look again" in screen_text(app) or "Look again" in screen_text(app)
        await pilot.press("r")
        await until(pilot, lambda: "looking for servers" in screen_text(app), "looking again")
        await until(pilot, lambda: "found on your network" in screen_text(app), "the list again")
        app.connect(Address("127.0.0.1", port))
        await until(pilot, lambda: app.state.link is Link.OFFLINE, "giving up")
        await pilot.pause()
        assert "d: other servers" in screen_text(app)
        await pilot.press("d")
        await until(pilot, lambda: isinstance(app.screen, DiscoverScreen), "the list of servers")
        await until(pilot, lambda: "found on your network" in screen_text(app), "the servers found")
        server = Server(ServerConfig(host="127.0.0.1", port=port, name="late"))
        await server.start()
        try:
            app.screen.query_one("#address").focus()
            await pilot.press(*f"127.0.0.1:{port}", "enter")
            await until(pilot, lambda: app.state.link is Link.ONLINE, "another server")
            assert app.state.server == "late"
        finally:
            await server.stop()



def test_play_asks_its_table_for_a_bot_pace() -> None:
    """``setback play --bots N --bot-pace S``: the table it creates asks for that pace; none
    asked, the server's; one out of range is refused before anything starts."""
    def planned(*argv: str) -> QuickGame:
        args = build_parser().parse_args(["play", "--bots", "3", *argv])
        plan = play_options(args, rules_from(args, players_default(args))).plan
        assert plan is not None
        return plan

    plan = planned("--bot-pace", "0.3")
    state = ClientState(name="ann", plan=plan)
    answers = state.receive(Welcome(version=PROTOCOL_VERSION, server="club", player="ann", token="tok",
                                    limits=LIMITS, capabilities=[], bots=["heuristic"]))
    assert [a.bot_pace for a in answers if isinstance(a, CreateTable)] == [0.3]
    assert planned().bot_pace is None
    with pytest.raises(ValueError, match="--bot-pace"):
        planned("--bot-pace", "11")


def test_a_snapshot_of_a_finished_game_tells_who_won() -> None:
    """Back at a table between games, the log ends with the game's outcome."""
    state = seated(players=2, seat=1)
    game = Game(Rules(players=2), 4)
    while not game.is_over:
        game.apply(game.legal_actions()[-1])
    state.receive(Snapshot(table="t1", view=view_to_wire(game.view(1)), players=["p0", "p1"], game=0))
    assert game.outcome is not None
    winner = f"p{game.outcome.winner}"
    assert "".join(map(str, state.log[-1].line)).startswith(f"{winner} wins the game")


TEN_POINT_SEED = 422
"""A ten_point deal (4 players) giving the player, seat 4, QS JS JC 2C QD and the big joker."""


async def test_a_ten_point_hand_shows_the_joker_and_sorts_the_off_jack_with_trump() -> None:
    """At a ten_point table: the joker has its glyph (``B🃏``), the hand sorts in printed suits
    (the joker last) until the player pitches spades, then the off-jack JC and the big joker sit
    with trump, after JS, marked ``T`` and drawn in trump's colour; the contract line names the
    variant (its points' sum where the row is narrow) and the bids offered are 4 to 10 (by key, 4 to 9)."""
    plan = QuickGame(rules=WireRules(players=4, variant="ten_point"), bots=3, seed=TEN_POINT_SEED, bot="lowest")
    async with running_server() as server:
        app = client(server.port, plan)
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: my_decision(app) is not None, "the bid")
            await pilot.pause()
            dealt = chips_shown(app)
            assert [str(dealt[str(n)]) for n in range(1, 7)] == ["QS", "JS", "JC", "2C", "QD", "BJ"]
            await until(pilot, lambda: "B🃏" in screen_text(app), "the joker's glyph")
            await until(pilot, lambda: "Ten-point: 10 points" in screen_text(app), "the variant, narrow")
            assert "Your bid: ←/→ or 0 (pass) 4-9, then Enter." in screen_text(app)
            await pilot.press("left", "enter")  # from Pass back round to the top bid, 10
            await until(pilot, lambda: (d := my_decision(app)) is not None and not d.bidding, "the lead")
            decision = my_decision(app)
            await pilot.press("1", "enter")  # QS: spades are trump
            await taken(pilot, app, decision)
            await until(pilot, lambda: game_of(app).trump is not None, "trump")
            await pilot.pause()
            shown = chips_shown(app)
            assert [str(shown[str(n)]) for n in range(2, 7)] == ["JS", "JC", "BJ", "2C", "QD"]
            marks = {str(c.card): c.border_subtitle for c in table_screen(app).query("#hand Chip").results(Chip)
                     if c.display and c.card is not None}
            assert marks == {"JS": "T", "JC": "T", "BJ": "T", "2C": "", "QD": ""}


def test_a_joker_has_its_glyph_and_the_wires_spelling_in_ascii() -> None:
    """``B🃏``/``L🃏``/``🃏`` in symbols, ``BJ``/``LJ``/``JK`` with --ascii; a card that belongs to
    trump takes trump's colour once trump is known (the off-jack JC with spades trump)."""
    assert [card_label(Card.parse(t)) for t in ("BJ", "LJ", "JK")] == ["B🃏", "L🃏", "🃏"]
    assert [card_label(Card.parse(t), ascii=True) for t in ("BJ", "LJ", "JK")] == ["BJ", "LJ", "JK"]
    off_jack = Card.parse("JC")
    assert card_text(off_jack).style == SUIT_STYLES[Suit.CLUBS]
    assert card_text(off_jack, trump=Suit.SPADES, variant=Variant.TEN_POINT).style == SUIT_STYLES[Suit.SPADES]
    assert card_text(off_jack, trump=Suit.SPADES).style == SUIT_STYLES[Suit.CLUBS]  # the standard game: a club
    hand = [Card.parse(t) for t in ("2C", "BJ", "QD", "JC", "5S", "LJ", "3H")]
    assert [str(c) for c in sorted_hand(hand, None, Variant.TEN_POINT)] == ["5S", "3H", "JC", "2C", "QD", "BJ", "LJ"]
    assert [str(c) for c in sorted_hand(hand, Suit.SPADES, Variant.TEN_POINT)] == [
        "JC", "BJ", "LJ", "5S", "3H", "2C", "QD"]


def test_a_variant_tables_lobby_line_waiting_room_and_result_name_its_points() -> None:
    """The lobby's detail line and the waiting room name the variant and its points in play; a
    hand's result in the log names each point won with who took it."""
    state = seated(variant="ten_point")
    info = state.table_info
    assert info is not None
    points = "Ten-point: High Low Jack Off-jack Big joker Little joker Three Game"
    assert points in table_detail(info).plain
    assert points in drawn(waiting_room(state), width=120)
    assert table_row(info)[1].startswith("ten-point")


def test_the_score_sheet_names_every_point_each_hand_gave_and_who_took_it() -> None:
    """Under the score sheet, a ten_point hand's awards by name, value and taker (Game: the side)."""
    state = seated(variant="ten_point")
    game = Game(Rules(players=4, variant=Variant.TEN_POINT), TEN_POINT_SEED)
    won: list[tuple[Any, int, int, str | None]] = [
        ("high", 1, 3, "QS"), ("low", 1, 2, "4S"), ("jack", 1, 3, "JS"), ("off_jack", 1, 3, "JC"),
        ("big_joker", 1, 3, "BJ"), ("three", 3, 1, "3S"), ("game", 1, 2, None)]  # point names: the wire's Literal
    awards = [WireAward(point=p, value=v, side=s, seat=s if p != "game" else None, card=c) for p, v, s, c in won]
    state.receive(Snapshot(table="t1", view=view_to_wire(game.view(ME)), results=[
        WireHandResult(hand_number=1, dealer=2, pitcher=3, bid=10, trump="S", high=3, high_card="QS", low=2,
                       low_card="4S", jack=3, game=2, game_pips=[0, 3, 24, 16], points=[0, 3, 2, 4], set_back=True,
                       deltas=[0, 3, 2, -10], scores=[0, 3, 2, -10], awards=awards),
    ]))
    assert state.game is not None
    lines = drawn(points_won_lines(state.game, state.names()), width=120)
    assert "1: High p3 · Low p2 · Jack p3 · Off-jack p3 · Big joker p3 · Three (3) p1 · Game p2" in lines
