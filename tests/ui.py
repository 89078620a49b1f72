"""Helpers for headless tests of the text client against a real in-process server."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable

import msgspec
from textual.pilot import Pilot

from setback.bots import Bot
from setback.client.app import SetbackApp
from setback.client.options import PlayOptions
from setback.client.screens import Chip, TableScreen
from setback.client.state import ClientState, Decision, GameView, QuickGame
from setback.engine import Action, View
from setback.link.server_link import Address
from setback.protocol.messages import ClientMessage, ListTables, ServerMessage

CARD = re.compile(r"(?<![0-9A-Za-z])(10|[2-9JQKA])([CDHS])(?![0-9A-Za-z])")
SHOWN_CARD = re.compile(r"(10|[2-9JQKA])([♣♦♥♠])")
LETTER = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


class LowestBot(Bot):
    """A predictable bot for tests: always the legal action with the lowest code."""

    name = "lowest"

    def bid(self, view: View) -> Action:
        return view.legal[0]

    def play(self, view: View) -> Action:
        return view.legal[0]


class RecordingState(ClientState):
    """The client's model, keeping every message it was handed."""

    def __init__(self, name: str, plan: QuickGame | None = None) -> None:
        super().__init__(name=name, plan=plan)
        self.received: list[ServerMessage] = []

    def receive(self, message: ServerMessage, now: float | None = None) -> list[ClientMessage]:
        self.received.append(message)
        return super().receive(message, now)

    def cards_received(self) -> set[str]:
        """Every card text in every message received."""
        return {r + s for m in self.received for r, s in CARD.findall(msgspec.json.encode(m).decode())}


def client(port: int | None, plan: QuickGame | None = None, name: str = "ann", **options: object) -> SetbackApp:
    """The client for the server on 127.0.0.1:``port`` (None: find one first), its model recording."""
    address = Address("127.0.0.1", port) if port is not None else None
    app = SetbackApp(PlayOptions(name=name, address=address, plan=plan, **options))  # type: ignore[arg-type]
    app.state = RecordingState(name, plan)
    return app


def recorded(app: SetbackApp) -> RecordingState:
    state = app.state
    assert isinstance(state, RecordingState)
    return state


def sent_by(app: SetbackApp) -> list[ClientMessage]:
    """From now on, every message the app's link sends is also appended to the list returned,
    but for the session's poll of the tables every few seconds (an id-less ``list_tables``),
    which would otherwise land between a key pressed and the check of what it sent."""
    assert app.session is not None
    link = app.session.link
    send = link.send
    sent: list[ClientMessage] = []

    async def spy(message: ClientMessage) -> None:
        if not (isinstance(message, ListTables) and message.id is None):
            sent.append(message)
        await send(message)

    link.send = spy  # type: ignore[method-assign]
    return sent


def screen_text(app: SetbackApp) -> str:
    """The screen as plain text, a line a row."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def cards_shown(app: SetbackApp) -> set[str]:
    return {rank + LETTER[suit] for rank, suit in SHOWN_CARD.findall(screen_text(app))}


def cards_kept(app: SetbackApp) -> set[str]:
    """Every card text in the client's model (its repr names each card by its text form)."""
    return {r + s for r, s in CARD.findall(repr(app.state))}


async def until(pilot: Pilot[None], condition: Callable[[], object], what: str, timeout: float = 15.0) -> None:
    """Let the app run until ``condition`` holds; fail naming ``what`` after ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.02)


def game_of(app: SetbackApp) -> GameView:
    game = app.state.game
    assert game is not None
    return game


def my_decision(app: SetbackApp) -> Decision | None:
    """The decision the player may make now (None while waiting)."""
    game = app.state.game
    decision = game.decision if game is not None else None
    return decision if decision is not None and decision.sent is None else None


def table_screen(app: SetbackApp) -> TableScreen:
    screen = app.screen
    assert isinstance(screen, TableScreen)
    return screen


def chip_for(app: SetbackApp, action: str) -> Chip:
    return next(c for c in table_screen(app).query(Chip).results(Chip) if c.choice == action and c.display)


async def taken(pilot: Pilot[None], app: SetbackApp, decision: Decision | None, what: str = "the move") -> None:
    """Wait until ``decision`` is no longer the one pending (the move was taken, or refused)."""
    await until(pilot, lambda: my_decision(app) is not decision, what)
