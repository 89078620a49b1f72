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


async def test_the_census_tells_held_attackers_from_those_cut_with_a_line_and_without(tmp_path: Path) -> None:
    """Three attackers that never read; the server cuts two, naming one in its log: one held,
    one dropped with a line, one cut silently."""
    accepted: list[asyncio.StreamWriter] = []
    all_in = asyncio.Event()

    def accept(_: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        accepted.append(writer)
        if len(accepted) == 3:
            all_in.set()

    listener = await asyncio.start_server(accept, "127.0.0.1", 0)
    port = listener.sockets[0].getsockname()[1]
    peers = Peers()
    for _ in range(3):
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        peers.keep(writer)
    await asyncio.wait_for(all_in.wait(), 10)
    by_port = {writer.get_extra_info("peername")[1]: writer for writer in accepted}
    named, silent, held = sorted(by_port)
    log = tmp_path / "server.log"
    log.write_text(json.dumps({"event": "slow_peer_dropped", "peer": f"127.0.0.1:{named}"}) + "\n")
    by_port[named].transport.abort()
    by_port[silent].transport.abort()
    census = await peers.census(log)
    assert census == {"still_connected": 1, "dropped_with_a_line": 1, "cut_silently": 1}
    await peers.close()
    by_port[held].close()
    listener.close()
    await listener.wait_closed()
