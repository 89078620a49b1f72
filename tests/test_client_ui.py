"""The text client, headless, against a real server on 127.0.0.1 with predictable bots.

Table seed 4 deals a first hand in which the player (seat 3, after three ``lowest``
bots, who always pass) bids 2, pitches, and later must follow suit holding cards that
do not follow.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from ui import (
    LowestBot,
    cards_kept,
    cards_shown,
    chip_for,
    client,
    game_of,
    my_decision,
    recorded,
    screen_text,
    sent_by,
    table_screen,
    taken,
    until,
)
from wire import running_server

from setback.bots import BUILTIN
from setback.client.app import SetbackApp
from setback.client.dialogs import ConfirmDialog, HelpDialog
from setback.client.panels import scores_table
from setback.client.render import suit_label
from setback.client.screens import Chip, TableScreen
from setback.client.state import Link, QuickGame
from setback.protocol.messages import Act, WireRules
from setback.server.app import Server
from setback.telling.story import SUIT_NAMES

SEED = 4
ME = 3


@pytest.fixture(autouse=True)
def lowest(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BUILTIN, "lowest", LowestBot)


def quick() -> QuickGame:
    """Four players: three ``lowest`` bots, then the player; dealt from :data:`SEED`."""
    return QuickGame(rules=WireRules(players=4), bots=3, seed=SEED, bot="lowest")


def first_legal(app: SetbackApp) -> str:
    """The legal card shown leftmost in the hand."""
    game = game_of(app)
    decision = my_decision(app)
    assert decision is not None
    playable = decision.playable()
    return next(f"play {c}" for c in game.places() if c is not None and c in playable)


def place_of(app: SetbackApp, action: str) -> int:
    """The number key of the card ``action`` plays."""
    game = game_of(app)
    return next(i + 1 for i, c in enumerate(game.places()) if c is not None and f"play {c}" == action)


async def wait_turn(app: SetbackApp, pilot: Pilot[None], hand: int = 1) -> bool:
    """Wait until the player must act in ``hand``; False once that hand is over."""
    await until(pilot, lambda: my_decision(app) is not None or game_of(app).hand_number > hand, "the player's turn")
    return game_of(app).hand_number == hand


async def test_a_whole_hand_bid_pitch_follow_and_the_summary() -> None:
    """Bid by number key, pitch with the arrows, follow with a click and number keys; then the summary."""
    async with running_server() as server:
        app = client(server.port, quick())
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.state.game is not None and my_decision(app) is not None, "a decision")
            sent = sent_by(app)
            decision = my_decision(app)
            assert decision is not None and decision.bidding and "bid 2" in decision.legal
            assert chip_for(app, "bid 2").display
            await until(pilot, lambda: "⏎ bid" in screen_text(app).splitlines()[-1], "the footer")
            assert "ready" not in screen_text(app).splitlines()[-1]  # during a hand, `r` would do nothing
            await pilot.press("2", "enter")
            await until(pilot, lambda: game_of(app).pitcher == ME, "the player to pitch")
            assert sent[-1] == Act(id=sent[-1].id, request=decision.request, action="bid 2")
            plays = 0
            while await wait_turn(app, pilot):
                decision = my_decision(app)
                assert decision is not None and not decision.bidding
                action = first_legal(app)
                leading = not game_of(app).trick
                if plays == 0:
                    assert leading, "the pitcher leads the first trick"
                    await pilot.press("right", "left", "enter")
                elif plays == 1:
                    await pilot.click(chip_for(app, action))
                else:
                    await pilot.press(str(place_of(app, action)), "enter")
                await taken(pilot, app, decision, "the play to be taken")
                assert isinstance(sent[-1], Act) and sent[-1].action == action
                plays += 1
            assert plays == 6
            result = game_of(app).last_result
            assert result is not None and result.pitcher == ME and result.bid == 2
            await pilot.pause()
            text = screen_text(app)
            verdict = "was SET BACK 2" if result.set_back else "made it"
            assert f"Hand 1: ann bid 2 and {verdict}" in text
            for words in ("High: ", "Low: ", "Jack: ", "Game: ", "Game pips: "):
                assert words in text
            assert "score to 11" in text
            assert scores_table(app.state).columns[2].header == "hand 1"  # the column of each side's last change


async def test_illegal_cards_cannot_be_chosen_and_nothing_is_sent() -> None:
    """Keys and clicks on a card that does not follow send nothing and keep the last legal
    choice chosen (Enter makes it); the arrows skip it."""
    async with running_server() as server:
        app = client(server.port, quick())
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: my_decision(app) is not None, "the bid")
            await pilot.press("2", "enter")
            checked = False
            while await wait_turn(app, pilot) and not checked:
                decision = my_decision(app)
                assert decision is not None
                game = game_of(app)
                places = game.places()
                order = [c for c in places if c is not None]
                illegal = [c for c in order if c not in decision.playable()]
                if not illegal:
                    await pilot.press(str(place_of(app, first_legal(app))), "enter")
                    await taken(pilot, app, decision, "the play")
                    continue
                sent = sent_by(app)
                screen = table_screen(app)
                card = illegal[0]
                chosen = screen.selected
                assert chosen in decision.legal
                await pilot.press(str(places.index(card) + 1))
                assert "cannot be played" in screen_text(app)
                await pilot.click(chip_for(app, f"play {card}"))
                assert sent == [], "nothing was sent"
                assert screen.selected == chosen, "the illegal card was not chosen: the last legal choice stays"
                assert chip_for(app, f"play {card}").has_class("-illegal")
                for _ in range(len(order) + 1):
                    await pilot.press("right")
                    assert screen.selected in decision.legal
                assert my_decision(app) is decision, "the decision still stands"
                await pilot.press("enter")
                await taken(pilot, app, decision, "the legal play")
                (act,) = [m for m in sent if isinstance(m, Act)]
                assert act.action in decision.legal
                checked = True
            assert checked


async def test_the_client_never_shows_or_keeps_cards_it_was_not_sent() -> None:
    """At every decision of a hand, each card in the model and on the screen came from the server,
    and no card still in another player's hand is there unless the server sent it (the draw)."""
    async with running_server() as server:
        app = client(server.port, quick())
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: my_decision(app) is not None, "the bid")
            checks = 0
            while await wait_turn(app, pilot):
                await pilot.pause()
                received = recorded(app).cards_received()
                kept, shown = cards_kept(app), cards_shown(app)
                assert kept <= received, kept - received
                assert shown <= received, shown - received
                assert {str(c) for c in game_of(app).hand} <= shown
                hidden = hidden_cards(server) - received
                assert hidden or checks, "at first, other players hold cards the client was never sent"
                assert not (kept | shown) & hidden
                checks += 1
                decision = my_decision(app)
                assert decision is not None
                if decision.bidding:
                    await pilot.press("2", "enter")
                else:
                    await pilot.press(str(place_of(app, first_legal(app))), "enter")
                await taken(pilot, app, decision, "the move")
            assert checks == 7


def hidden_cards(server: Server) -> set[str]:
    """The cards the other seats hold right now, as the server's game knows them."""
    game = server.lobby.tables["t1"].game
    assert game is not None
    return {str(c) for seat in range(game.rules.players) if seat != ME for c in game.view(seat).hand}


async def test_a_dropped_connection_comes_back_to_the_same_screen() -> None:
    """The server drops the player mid-hand; the client reconnects with its token, and the model
    and the table on screen are as they were, the same decision pending."""
    async with running_server() as server:
        app = client(server.port, quick())
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: my_decision(app) is not None, "the bid")
            await pilot.press("2", "enter")
            assert await wait_turn(app, pilot)
            lead = my_decision(app)
            await pilot.press(str(place_of(app, first_legal(app))), "enter")
            await until(pilot, lambda: my_decision(app) is not lead, "the lead")
            assert await wait_turn(app, pilot)
            await pilot.pause()
            before = snapshot(app)
            before_screen = table_part(app)
            token = app.session.link.token if app.session else None
            (connection,) = [c for c in server.connections if c.name == "ann"]
            assert connection.transport is not None
            connection.transport.abort()
            await until(pilot, lambda: reconnected(app), "the reconnection")
            await until(pilot, lambda: app.state.link is Link.ONLINE and my_decision(app) is not None, "the seat back")
            await pilot.pause()
            assert app.session is not None and app.session.link.token == token
            assert snapshot(app) == before
            assert table_part(app) == before_screen
            again = my_decision(app)
            await pilot.press(str(place_of(app, first_legal(app))), "enter")
            await until(pilot, lambda: my_decision(app) is not again, "the play after reconnecting")


async def test_while_reconnecting_no_bid_or_card_looks_pressable() -> None:
    async with running_server() as server:
        app = client(server.port, quick())
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: my_decision(app) is not None, "the bid")
            screen = table_screen(app)
            pressable = {c.choice for c in screen.query(Chip).results(Chip) if c.display and c.has_class("-legal")}
            assert "bid 2" in pressable
            app.state.link = Link.RECONNECTING
            screen.show(app.state)
            await pilot.pause()
            assert not [c for c in screen.query(Chip).results(Chip) if c.display and c.has_class("-legal")]
            assert chip_for(app, "bid 2").has_class("-illegal")
            app.state.link = Link.ONLINE
            screen.show(app.state)
            await pilot.pause()
            assert chip_for(app, "bid 2").has_class("-legal")


def reconnected(app: SetbackApp) -> bool:
    return any(entry.line == ("Reconnected.",) for entry in app.state.log)


def snapshot(app: SetbackApp) -> tuple[object, ...]:
    game = game_of(app)
    decision = game.decision
    assert decision is not None
    return (
        app.state.table, app.state.seat, game.hand_number, game.dealer, game.to_act, sorted(game.hand), game.bids,
        game.pitcher, game.bid, game.trump, game.trick, game.last_trick, game.taken, game.scores,
        game.hand_sizes, decision.request, decision.legal,
    )


def table_part(app: SetbackApp) -> list[str]:
    """The table on screen without the log: the left panel, the prompt and the hand."""
    lines = screen_text(app).splitlines()
    return [line[:46] for line in lines[:19]] + lines[19:23]


LONG_NAME = "Wilhelmina-Longname"
LONG_BOT = "lowest-of-the-low"


async def test_at_80_columns_the_dealer_pitcher_and_trump_stay_in_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """With long names at 80x24, the line above the seats names the dealer during the bidding,
    and the pitcher with the bid and trump once they are known: none is cut off."""
    monkeypatch.setitem(BUILTIN, LONG_BOT, LowestBot)
    plan = QuickGame(rules=WireRules(players=4), bots=3, seed=SEED, bot=LONG_BOT)
    async with running_server() as server:
        app = client(server.port, plan, name=LONG_NAME)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: my_decision(app) is not None, "the bid")
            await pilot.pause()
            dealer = game_of(app).dealer
            assert dealer is not None
            dealer_fact = f"Dealer {app.state.names()[dealer]}"
            assert len(dealer_fact) > len("Dealer lowest-0"), "a long name deals"
            assert dealer_fact in screen_text(app)
            await pilot.press("2", "enter")
            assert await wait_turn(app, pilot)
            await pilot.press("enter")  # the lead: the first legal card is picked already
            await until(pilot, lambda: game_of(app).trump is not None, "trump")
            await pilot.pause()
            trump = game_of(app).trump
            assert trump is not None
            text = screen_text(app)
            assert f"Trump {suit_label(trump)} {SUIT_NAMES[trump]}" in text
            assert f"Pitcher {LONG_NAME} bid 2" in text
            assert dealer_fact in text


async def test_at_80_columns_the_top_bar_keeps_the_hand_and_the_options() -> None:
    """Every option on at 80 columns: the top bar keeps the hand number and shows each option
    (the seats tell the number of players); the keys screen gives all the rules."""
    rules = WireRules(players=4, teams=2, target=7, forced_dealer_bid=False, smudge=True, no_junk=True)
    plan = QuickGame(rules=rules, bots=3, seed=SEED, bot="lowest", name="Friday")
    async with running_server() as server:
        app = client(server.port, plan)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: my_decision(app) is not None, "a decision")
            await pilot.pause()
            top = screen_text(app).splitlines()[0]
            assert top.lstrip().startswith(f"Friday · hand {game_of(app).hand_number} · ")
            for option in ("2 teams", "to 7", "dealer may pass", "smudge", "no junk"):
                assert option in top
            await pilot.press("question_mark")
            await until(pilot, lambda: isinstance(app.screen, HelpDialog), "the keys screen")
            await pilot.pause()
            text = screen_text(app)
            assert "Table Friday" in text and "no clock" in text
            assert "4 players · 2 teams · to 7 · dealer may pass · smudge · no junk" in text
            assert "a tie: the pitcher's" in text  # the house rules a player may not know
            assert "Press Esc or ? to close; q quits." in text  # all of it fits at 80x24


async def test_quitting_mid_game_says_what_becomes_of_the_game() -> None:
    """At a server the seat is kept; against this computer's own server, quitting ends the game.
    The question says "quit" once; n goes back to the table."""
    async with running_server() as server:
        kept = await quit_question(server, embedded=False)
        assert kept == "Quit? Your seat is kept for a while; then a bot plays it."
        ended = await quit_question(server, embedded=True)
        assert ended == "Quit? The game runs on this computer, so it ends now."


async def quit_question(server: Server, embedded: bool) -> str:
    """Press q mid-game: the question asked (checked to say "quit" once), answered n."""
    app = client(server.port, quick(), embedded=embedded)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: my_decision(app) is not None, "the bid")
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the question")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ConfirmDialog) and dialog.question.lower().count("quit") == 1
        assert "Quit? " in screen_text(app)
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table again")
        return dialog.question
