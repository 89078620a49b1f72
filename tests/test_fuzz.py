"""Hostile input against a live server while a normal game runs on another table.

Hypothesis throws arbitrary bytes, truncated and oversized lines, deep and huge JSON,
wrong types, and replayed and out-of-order messages. The server must answer each with
its documented error, never crash, never show the attacker a hidden card, and the normal
game's record must be the one the engine plays with no attacker at all.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from wire import RawClient

from setback.engine import Game, Rules, parse_action
from setback.protocol import Code
from setback.server.app import Server
from setback.server.config import ServerConfig

SEED = 31
DOCUMENTED = {code.value for code in Code}
FUZZ_EXAMPLES = int(os.environ.get("SETBACK_FUZZ_EXAMPLES", "150"))


class Arena:
    """A server on its own thread and loop, with a seeded two-player game being played slowly."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.done = threading.Event()
        """Set when the normal game is over (the server keeps serving until stop)."""
        self.server: Server | None = None
        self.finals: list[dict[str, Any]] = []
        self.actions: list[str] = []
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        assert self.ready.wait(10)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_until_complete(self._main())
        finally:
            self.loop.close()

    async def _main(self) -> None:
        self.server = Server(ServerConfig(host="127.0.0.1", port=0, max_messages_per_second=10_000,
                                          message_burst=10_000))
        await self.server.start()
        players = [await RawClient.connect(self.server.port) for _ in range(2)]
        for i, player in enumerate(players):
            await player.hello(f"p{i}")
        await players[0].send(type="create_table", id=1, rules={"players": 2}, seed=SEED,
                              clock={"decision_seconds": None})
        table = (await players[0].expect("table", id=1))["table"]["table"]
        for seat, player in enumerate(players):
            await player.send(type="join", id=2, table=table, seat=seat, ready=True)
        self.ready.set()
        self.finals = list(await asyncio.gather(*(self._play(p) for p in players)))
        for player in players:
            await player.close()
        self.done.set()
        await self.server.wait_stopped()

    async def _play(self, player: RawClient) -> dict[str, Any]:
        while True:
            message = await player.read(60)
            if message["type"] == "decide":
                await asyncio.sleep(0.002)
                action = message["view"]["legal"][0]
                self.actions.append(action)
                await player.send(type="act", request=message["request"], action=action)
            elif message["type"] == "game_over":
                return message

    @property
    def port(self) -> int:
        assert self.server is not None
        return self.server.port

    def stop(self) -> None:
        async def halt() -> None:
            assert self.server is not None
            await self.server.stop()

        asyncio.run_coroutine_threadsafe(halt(), self.loop).result(10)
        self.thread.join(10)


@contextmanager
def attacker(port: int) -> Iterator[socket.socket]:
    sock = socket.create_connection(("127.0.0.1", port), timeout=2)
    try:
        yield sock
    finally:
        sock.close()


def replies(sock: socket.socket, wait: float = 0.05) -> list[dict[str, Any]]:
    sock.settimeout(wait)
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except (TimeoutError, ConnectionError):
        pass
    return [json.loads(line) for line in data.splitlines() if line.strip()]


VALID = [
    {"type": "hello", "version": "1.0", "name": "mallory", "kind": "bot"},
    {"type": "list_tables"},
    {"type": "spectate", "table": "t1"},
    {"type": "join", "table": "t1", "seat": 0},
    {"type": "act", "request": 1, "action": "pass"},
    {"type": "act", "request": 3, "action": "play AS"},
    {"type": "chat", "text": "hi", "scope": "table"},
    {"type": "leave"},
    {"type": "ready"},
    {"type": "hello", "version": "1.0", "name": "mallory", "token": "stolen"},
]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@st.composite
def hostile_lines(draw: st.DrawFn) -> bytes:
    kind = draw(st.sampled_from(["bytes", "truncated", "mutated", "deep", "huge", "oversized", "valid", "json"]))
    if kind == "bytes":
        return draw(st.binary(max_size=200)) + b"\n"
    base = json.dumps(draw(st.sampled_from(VALID))).encode()
    if kind == "truncated":
        return base[: draw(st.integers(0, len(base) - 1))] + b"\n"
    if kind == "mutated":
        message: dict[str, Any] = dict(draw(st.sampled_from(VALID)))
        message[draw(st.sampled_from([*message, "type", "id", "request"]))] = draw(json_values)
        return json.dumps(message).encode() + b"\n"
    if kind == "deep":
        depth = draw(st.integers(100, 8000))
        return b"[" * depth + b"]" * depth + b"\n"
    if kind == "huge":
        return json.dumps({f"k{i}": i for i in range(draw(st.integers(100, 1500)))}).encode() + b"\n"
    if kind == "oversized":
        return b'{"type":"chat","text":"' + b"x" * draw(st.integers(17_000, 40_000)) + b'"}\n'
    if kind == "json":
        return json.dumps(draw(json_values)).encode() + b"\n"
    return base + b"\n"


def check(received: list[dict[str, Any]]) -> None:
    """Every reply is a documented message; the attacker never sees a hidden card."""
    for message in received:
        assert isinstance(message, dict) and "type" in message
        if message["type"] == "error":
            assert message["code"] in DOCUMENTED
        assert message["type"] != "decide"
        if message["type"] == "snapshot":
            assert message["view"]["hand"] == []
        if message["type"] == "event" and message["event"]["kind"] == "hand_dealt":
            assert message["event"]["cards"] == []


def test_fuzzing_a_live_server_disturbs_nothing() -> None:
    arena = Arena()
    tried = 0

    @settings(max_examples=FUZZ_EXAMPLES, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(st.lists(hostile_lines(), min_size=1, max_size=8), st.booleans())
    def attack(lines: list[bytes], greet_first: bool) -> None:
        nonlocal tried
        tried += 1
        with attacker(arena.port) as sock:
            if greet_first:
                sock.sendall(json.dumps(VALID[0]).encode() + b"\n")
            for line in lines:
                try:
                    sock.sendall(line)
                except (BrokenPipeError, ConnectionResetError):
                    break
            check(replies(sock))

    try:
        attack()
        with attacker(arena.port) as sock:  # still serving
            sock.sendall(b'{"type":"ping","id":"alive"}\n')
            assert any(m.get("id") == "alive" for m in replies(sock, 0.5))
        assert arena.done.wait(120), "the normal game did not finish"
    finally:
        arena.stop()
    assert tried == FUZZ_EXAMPLES
    game = Game(Rules(players=2), SEED)
    for text in arena.actions:
        game.apply(parse_action(text))
    assert game.is_over and game.outcome is not None
    for final in arena.finals:
        assert final["outcome"]["scores"] == list(game.outcome.scores)
        assert final["outcome"]["winner"] == game.outcome.winner
    # and the choices were the engine's own first-legal ones: the same game as with no attacker
    alone = Game(Rules(players=2), SEED)
    while not alone.is_over:
        alone.apply(alone.legal_actions()[0])
    assert [str(a) for a in alone.actions] == arena.actions
