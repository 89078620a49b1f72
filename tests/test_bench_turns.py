"""``python -m setback.benchmarks.turns``: the server's work a decision with in-memory bots,
over TCP's lines and the WebSocket's frames, the same games every run (their instructions are
compared under callgrind)."""

from __future__ import annotations

from setback.benchmarks import turns


async def test_every_run_plays_the_same_games_over_either_transport() -> None:
    """Each table is seeded with its number, so two runs record the same moves in the same
    order, and the WebSocket's bots play the TCP bots' games; other tables, other games."""
    first = await turns.measure(2, 300)
    again = await turns.measure(2, 300)
    framed = await turns.measure(2, 300, transport="ws")
    more = await turns.measure(3, 300)
    assert [run["decisions"] >= 300 for run in (first, again, framed, more)] == [True] * 4
    assert first["cpu_us_per_decision"] > 0
    assert (framed["transport"], more["tables"]) == ("ws", 3)
    assert again["plays"] == first["plays"] == framed["plays"]
    assert more["plays"] != first["plays"]
