"""What ``setback bench hostile`` tells besides memory and round trips: which attackers the
server still holds at the end, and its log lines that say it dropped one."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from setback.benchmarks.hostile import Peers, _drops


def test_drops_are_counted_from_the_servers_log_lines(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    lines = [
        {"event": "slow_peer_dropped", "level": "warning"}, {"event": "slow_peer_dropped"},
        {"event": "closed", "code": "rate_limited"}, {"event": "greeted"}, {"event": "server_full"},
    ]
    log.write_text("\n".join(json.dumps(line) for line in lines) + "\nnot json\n[1]\n")
    counts = _drops(log)
    assert counts["slow_peer_dropped"] == 2 and counts["server_full"] == 1 and counts["closed rate_limited"] == 1
    assert counts["unread_budget_exceeded"] == 0 and "greeted" not in counts


async def test_an_attacker_the_server_closed_is_not_still_connected() -> None:
    """Two attackers that never read; the server closes one: one is still connected."""
    accepted: list[asyncio.StreamWriter] = []
    both = asyncio.Event()

    def accept(_: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        accepted.append(writer)
        if len(accepted) == 2:
            both.set()

    listener = await asyncio.start_server(accept, "127.0.0.1", 0)
    port = listener.sockets[0].getsockname()[1]
    peers = Peers()
    for _ in range(2):
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        peers.keep(writer)
    await asyncio.wait_for(both.wait(), 10)
    assert peers.still_connected() == 2
    accepted[0].transport.abort()
    for _ in range(100):
        if peers.still_connected() == 1:
            break
        await asyncio.sleep(0.01)
    assert peers.still_connected() == 1
    await peers.close()
    accepted[1].close()
    listener.close()
    await listener.wait_closed()
