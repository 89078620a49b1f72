"""The Node.js bot in examples/, written from spec.md alone, plays whole games on a real server."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest
from wire import RawClient, running_server

NODE = shutil.which("node")
BOT = Path(__file__).resolve().parent.parent / "examples" / "node" / "bot.js"


@pytest.mark.skipif(NODE is None, reason="needs Node.js (node) on the PATH")
async def test_node_bot_plays_several_games() -> None:
    assert NODE is not None
    async with running_server() as server:
        host = await RawClient.connect(server.port)
        await host.hello("host", kind="human")
        await host.send(type="create_table", id=1, rules={"players": 3, "target": 7}, bots=["random", "random"],
                        clock={"decision_seconds": 5})
        table = (await host.expect("table", id=1))["table"]["table"]
        await host.send(type="spectate", id=2, table=table)
        await host.expect("spectating", id=2)
        bot = await asyncio.create_subprocess_exec(
            NODE, str(BOT), "127.0.0.1", str(server.port), table, "2", "nodey",
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            outcomes = [await host.expect("game_over", timeout=60) for _ in range(3)]
        finally:
            bot.terminate()
            _, errors = await bot.communicate()
        assert all(o["outcome"]["winner"] in {0, 1, 2} for o in outcomes)
        timeouts = [m for m in host.received + host.backlog
                    if m["type"] == "event" and m["event"]["kind"] == "timed_out"]
        assert timeouts == [], "the node bot let its clock run out"
        assert b"error" not in errors, errors.decode()
        await host.close()
