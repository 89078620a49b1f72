"""examples/rescore.py re-scores records from spec.md's format alone: 0 differences over games
of every variant, and a record changed by one point is caught."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from setback.engine import Game, LowRule, Rules, Variant, game_record

ROOT = Path(__file__).resolve().parent.parent
TABLES = [
    Rules(players=2, variant=Variant.JOKER, low=LowRule.CAPTURED),
    Rules(players=5, variant=Variant.TEN_POINT, no_junk=True),
    Rules(players=7, variant=Variant.TEN_POINT, dealer_steal=True),
    Rules(players=6, variant=Variant.PEDRO, teams=2, low=LowRule.CAPTURED),
    Rules(players=4, variant=Variant.PEDRO, dealer_steal=True, min_bid=2),
    Rules(players=4, teams=2, hand_limit=8),
]


def rescore(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "examples" / "rescore.py"), str(path)],
                          capture_output=True, text=True, check=False, timeout=120)


def records(tmp_path: Path) -> Path:
    """Seeded games of random legal play at :data:`TABLES`, as ``setback match --out`` writes them."""
    path = tmp_path / "games.jsonl"
    with path.open("w") as out:
        for number, rules in enumerate(TABLES):
            for seed in range(3):
                game = Game(rules, 100 * number + seed)
                rng = random.Random(seed)
                while not game.is_over:
                    game.apply(rng.choice(game.legal_actions()))
                out.write(json.dumps(game_record(game)) + "\n")
    return path


def test_records_of_every_variant_rescore_with_no_difference(tmp_path: Path) -> None:
    done = rescore(records(tmp_path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{3 * len(TABLES)} games" in done.stdout and ": 0 differences" in done.stdout


def test_a_point_moved_in_a_record_is_a_difference(tmp_path: Path) -> None:
    path = records(tmp_path)
    games = [json.loads(line) for line in path.read_text().splitlines()]
    hand = next(h for h in games[4]["hands"] if h["result"] is not None)  # a ten_point game
    hand["result"]["awards"][0]["side"] = 1 - hand["result"]["awards"][0]["side"]
    path.write_text("".join(json.dumps(g) + "\n" for g in games))
    done = rescore(path)
    assert done.returncode == 1 and ": 1 differences" in done.stdout, done.stdout
