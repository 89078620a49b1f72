"""``python -m setback.bots.make_odds``: write the expert's chances of winning, ``odds.json``
(:mod:`setback.bots.odds` says how they are made; about 5 minutes of one core)."""

from __future__ import annotations

import json

from setback.bots.odds import FILE, TABLES, count_hands, key_of, solve


def main() -> None:
    """Count and solve every table of :data:`setback.bots.odds.TABLES` and write them to the file."""
    out = {}
    for rules in TABLES:
        key = key_of(rules)
        assert key is not None
        out[key] = [round(c, 4) for c in solve(rules, count_hands(rules))]
        print(key, "done", flush=True)
    FILE.write_text(json.dumps(out, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
