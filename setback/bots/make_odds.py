"""``python -m setback.bots.make_odds``: write the expert's chances of winning, ``odds.json``
(:mod:`setback.bots.odds` says how they are made; about 5 minutes of one core).

``--records FILE...`` counts the hands of the heads-up standard table from match records
(spec.md section 5) instead of the tactics' play-outs: every scored hand of every game in the
files played by those rules. The shipped table of that game is counted so from the expert's
games against ``search`` (setback/benchmarks/README.md, "The endgame solved from four cards,
the chances counted from the games"),
whose pitchers bid and make far more than the tactics' count; the other tables keep the
tactics' counts.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from setback.bots.odds import FILE, TABLES, Outcome, count_hands, key_of, solve
from setback.engine import Rules
from setback.engine.record import rules_of

RECORDED = Rules(players=2)
"""The table whose hands ``--records`` counts."""


def count_records(rules: Rules, paths: Sequence[Path]) -> Counter[Outcome]:
    """What the hands of the games played by ``rules`` in the record files ``paths`` did
    (:data:`setback.bots.odds.Outcome`: whether the dealer's side pitched, and each side's change)."""
    counts: Counter[Outcome] = Counter()
    for path in paths:
        with path.open() as lines:
            for line in lines:
                record = json.loads(line)
                if rules_of(record["rules"]) != rules:
                    continue
                for hand in record["hands"]:
                    result = hand.get("result")
                    if not result or result.get("pitcher") is None:
                        continue  # thrown in
                    dealer_side = rules.side_of(result["dealer"])
                    pitcher_side = rules.side_of(result["pitcher"])
                    deltas = result["deltas"]
                    counts[(pitcher_side == dealer_side, deltas[dealer_side], deltas[1 - dealer_side])] += 1
    return counts


def main(argv: Sequence[str] | None = None) -> None:
    """Count and solve every table of :data:`setback.bots.odds.TABLES` and write them to the file."""
    parser = argparse.ArgumentParser(prog="python -m setback.bots.make_odds", description=__doc__)
    parser.add_argument("--records", nargs="+", type=Path, default=[], metavar="FILE",
                        help="count the heads-up standard table's hands from these match records")
    args = parser.parse_args(argv)
    out = {}
    for rules in TABLES:
        key = key_of(rules)
        assert key is not None
        counts = count_records(rules, args.records) if args.records and rules == RECORDED else count_hands(rules)
        out[key] = [round(c, 4) for c in solve(rules, counts)]
        print(key, "done", sum(counts.values()), "hands", flush=True)
    FILE.write_text(json.dumps(out, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
