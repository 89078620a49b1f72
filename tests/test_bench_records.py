"""``setback bench records``: the records file's size against the games' records, its WAL's
peak while written through the server's own calls, and a restart of the tables in play."""

from __future__ import annotations

import pytest

from setback.benchmarks import records
from setback.server import store


def test_bench_records_measures_the_file_against_the_records_and_restores_every_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every mark is measured once its games are over; the closed file holds the records and
    a little more; the WAL stays within its limit however fast the games are written (here a
    megabyte, where the run writes some thirty) and is gone at close; a new store and ``setback
    serve``'s start bring back every table with its unfinished game."""
    monkeypatch.setattr(store, "WAL_LIMIT_BYTES", 1 << 20)
    result = records.run([60, 200], tables=20, per_turn=10)
    assert [row["games"] >= mark for row, mark in zip(result["marks"], [60, 200], strict=True)] == [True, True]
    last = result["marks"][-1]
    assert last["records_bytes"]["all"] == sum(last["records_bytes"][part] for part in ("journal", "games", "hands"))
    assert min(last["records_bytes"].values()) > 0
    closed = result["closed"]
    assert closed["wal_bytes"] == 0
    assert 1 <= closed["ratio"] < 2, "the file is the records, with the b-trees' own room"
    assert len(result["wal_peak_by_tenth"]) == 10
    assert max(result["wal_peak_by_tenth"]) <= 2 << 20
    again = result["restart"]
    assert again["tables"] == again["tables_with_game"] == again["serve_tables_playing"] == 20
