"""The text client when the server stops: it says so, waits longer and longer between tries to
reconnect (at most :data:`STOPPED_LONGEST_WAIT`), and is back when the server is."""

from __future__ import annotations

import re
import time
from pathlib import Path

from ui import client, my_decision, screen_text, until
from wire import running_server

from setback.client.panels import lobby_prompt, prompt, status_line
from setback.client.session import STOPPED_FIRST_WAIT, STOPPED_LONGEST_WAIT
from setback.client.state import ClientState, Link, QuickGame
from setback.link.server_link import backoff
from setback.protocol.messages import WireRules
from setback.server.app import Server
from setback.server.config import ServerConfig


def test_the_waits_after_a_goodbye_double_up_to_half_a_minute() -> None:
    waits = [backoff(attempt, STOPPED_FIRST_WAIT, STOPPED_LONGEST_WAIT) for attempt in range(1, 9)]
    assert waits == [1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0, 30.0]
    assert backoff(5000, STOPPED_FIRST_WAIT, STOPPED_LONGEST_WAIT) == 30.0


def test_the_screen_says_the_server_stopped_and_when_the_next_try_is() -> None:
    state = ClientState(name="ann")
    state.link = Link.ONLINE
    state.connection(Link.RECONNECTING, "server shutting down", stopped=True)
    assert "[server stopped]" in status_line(state).plain
    trying = "The server stopped (server shutting down); trying again"
    assert f"{trying} now…" in prompt(state, 100.0, False).plain
    state.retrying(112.0)
    assert f"{trying} in 12 s…" in prompt(state, 100.0, False).plain
    assert f"{trying} in 2 s…" in lobby_prompt(state, 110.5).plain
    assert any(str(entry.line[0]).startswith("The server stopped (server shutting down)") for entry in state.log)


async def test_after_a_goodbye_the_client_waits_and_comes_back_to_a_restarted_server() -> None:
    server = Server(ServerConfig(host="127.0.0.1", port=0))
    await server.start()
    port = server.port
    restarted: Server | None = None
    try:
        app = client(port)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.state.link is Link.ONLINE, "the welcome")
            await server.stop()
            await until(pilot, lambda: app.state.retry_at is not None, "a wait before the next try")
            retry_at = app.state.retry_at
            assert retry_at is not None and 0 < retry_at - time.monotonic() <= STOPPED_FIRST_WAIT
            await pilot.pause()
            text = screen_text(app)
            assert "[server stopped]" in text
            assert re.search(r"The server stopped \(server shutting down\); trying again (in \d+ s|now)", text)
            restarted = Server(ServerConfig(host="127.0.0.1", port=port, name="again"))
            await restarted.start()
            await until(pilot, lambda: app.state.link is Link.ONLINE, "the reconnection")
            await pilot.pause()
            assert app.state.stopped is None and app.state.server == "again"
            text = screen_text(app)
            assert "[server stopped]" not in text and not re.search(r"trying again (in \d+ s|now)", text)
    finally:
        await server.stop()
        if restarted is not None:
            await restarted.stop()


async def test_a_restarted_client_sits_down_again_where_it_was(tmp_path: Path) -> None:
    """The seat's token is kept in a file: quitting and starting the client again (as after a
    crash, or a closed terminal) puts the player back in the seat, the decision still waiting."""
    tokens = tmp_path / "seats.json"
    async with running_server() as server:
        first = client(server.port, QuickGame(rules=WireRules(players=2), bots=1), seat_tokens=tokens)
        async with first.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: my_decision(first) is not None, "a decision")
            table, seat = first.state.table, first.state.seat
            request = my_decision(first)
            assert request is not None
        assert tokens.stat().st_mode & 0o077 == 0, "a token is a secret: the file is its owner's only"
        again = client(server.port, seat_tokens=tokens)
        async with again.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: my_decision(again) is not None, "the same decision, after the restart")
            assert (again.state.table, again.state.seat) == (table, seat)
            back = my_decision(again)
            assert back is not None and back.legal == request.legal
