"""The expert's chances of winning counted from match records (``make_odds --records``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from setback.bots.make_odds import count_records
from setback.engine import Rules
from setback.match import MatchPlan, play_match


def test_records_are_counted_by_dealer_and_pitcher(tmp_path: Path) -> None:
    """Every scored hand of the heads-up standard games counts once, as the dealer's side saw it;
    games of other rules are left out."""
    heads_up = tmp_path / "two.jsonl"
    three = tmp_path / "three.jsonl"
    records: list[dict[str, Any]] = []
    play_match(MatchPlan(("heuristic", "random"), Rules(players=2), 4, seed=7), on_record=records.append)
    heads_up.write_text("".join(json.dumps(r) + "\n" for r in records))
    others: list[dict[str, Any]] = []
    play_match(MatchPlan(("heuristic",) * 3, Rules(players=3), 2, seed=7), on_record=others.append)
    three.write_text("".join(json.dumps(r) + "\n" for r in others))

    counts = count_records(Rules(players=2), [heads_up, three])

    expected: dict[tuple[bool, int, int], int] = {}
    for record in records:
        for hand in record["hands"]:
            result = hand["result"]
            dealer = result["dealer"]
            key = (result["pitcher"] == dealer, result["deltas"][dealer], result["deltas"][1 - dealer])
            expected[key] = expected.get(key, 0) + 1
    assert dict(counts) == expected
    assert sum(counts.values()) == sum(len(r["hands"]) for r in records) > 0
    assert count_records(Rules(players=2, target=21), [heads_up]).total() == 0
