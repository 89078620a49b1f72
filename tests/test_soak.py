"""A real `setback serve` under many tables for minutes: the figures issue 23 asks for, run
only when asked (``pytest -m soak``; docs/development.md)."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_durability import ServeProcess
from test_serve_cli import free_port

from setback.benchmarks.server import Tally, playing, rss_kb

WARM_UP_DECISIONS = 300
"""About one game's decisions at a table of four first-legal bots (some 280). Until the
tables have played about that many each, the server's memory still grows (by some 12 MB at
500 tables); after, at 500 tables, it stayed within 0.5 MB in every run measured."""
MEMORY_BOUND = 0.10
"""How much more resident memory the server may hold at the end than after warm-up. Flat,
it moves by well under 1% (0.0% at 500 tables over a minute on two shared cores, some
5,000 decisions a second); over ten minutes at that rate, 10% (some 7 MB) is less than a
leak of 3 bytes a decision, or of 1 KB a game, would add."""


def _mb(kb: int) -> str:
    return f"{kb / 1024:.1f} MB"


@pytest.fixture
def records(tmp_path: Path) -> Iterator[Path]:
    """The server's records file, removed afterwards: some 100 MB after ten minutes at 500 tables."""
    yield tmp_path / "soak.sqlite3"
    for path in tmp_path.glob("soak.sqlite3*"):
        path.unlink()


@pytest.mark.soak
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the server's memory from /proc")
async def test_tables_play_for_minutes_with_flat_memory(records: Path) -> None:
    """``SETBACK_SOAK_TABLES`` (500) tables of four minimal bots play game after game over
    TCP against `setback serve` for ``SETBACK_SOAK_SECONDS`` (600): no bot gets an error or
    loses its connection, and the server's resident memory at the end is within
    :data:`MEMORY_BOUND` of what it held after warm-up (the later of the first tenth of the
    time and :data:`WARM_UP_DECISIONS` a table, but no later than half the time)."""
    seconds = float(os.environ.get("SETBACK_SOAK_SECONDS", "600"))
    tables = int(os.environ.get("SETBACK_SOAK_TABLES", "500"))
    server = ServeProcess(records, free_port())
    try:
        await (await server.connect()).close()
        tally = Tally(rtts=None, counting=True)
        seating = time.monotonic()
        async with playing("setback", server.port, tables, tally) as bots:
            began = time.monotonic()
            await asyncio.sleep(seconds / 10)
            for _ in range(int(seconds * 0.4 / 0.5)):  # then up to half the time, until the tables are warm
                if tally.decisions >= WARM_UP_DECISIONS * tables:
                    break
                await asyncio.sleep(0.5)
            warm = time.monotonic() - began
            start, counted = rss_kb(server.process.pid), tally.decisions
            await asyncio.sleep(max(0.0, began + seconds / 2 - time.monotonic()))
            middle = rss_kb(server.process.pid)
            await asyncio.sleep(max(0.0, began + seconds - time.monotonic()))
            end = rss_kb(server.process.pid)
            lost = sum(bot.done() for bot in bots)
            assert server.process.poll() is None, "the server died"
    finally:
        server.kill()
    print(
        f"\nsoak: {tables} tables for {seconds:g} s (seated in {began - seating:.1f} s, warm after {warm:.0f} s "
        f"and {counted:,} decisions): server RSS start {_mb(start)}, middle {_mb(middle)}, end {_mb(end)} "
        f"({100 * (end - start) / start:+.1f}%); {tally.decisions:,} decisions "
        f"({tally.decisions / seconds:,.0f}/s); {tally.errors} protocol errors; {lost} connections lost"
    )
    assert tally.errors == 0
    assert lost == 0
    assert end <= start * (1 + MEMORY_BOUND), f"the server's memory grew from {_mb(start)} to {_mb(end)}"
