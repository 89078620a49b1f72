"""The duplicate comparison of a heads-up match's records (setback/benchmarks/duplicate.py)."""

from __future__ import annotations

from typing import Any

from setback.benchmarks.duplicate import decisions, equities, hand_pairs, report, summary, tally
from setback.engine import Rules
from setback.match.plan import MatchPlan
from setback.match.runner import run_game


def records(bots: tuple[str, str], games: int = 4, seed: int = 7) -> list[dict[str, Any]]:
    plan = MatchPlan(bots, Rules(players=2), games, seed=seed, duplicate=True)
    return [run_game(plan, i) for i in range(games)]


def test_a_bot_against_itself_never_differs() -> None:
    """The same deterministic bot in both seats plays both games of a deal alike: no pair of
    hands differs, and every pair nets 0 points and 0 chance of winning."""
    pairs = list(hand_pairs(records(("heuristic", "heuristic"))))
    assert pairs
    assert all(p.divergence is None and p.net == 0 and p.same_score for p in pairs)
    assert all(p.equity is not None and abs(p.equity) < 1e-9 for p in pairs)


def test_a_divergence_names_each_bots_own_choice() -> None:
    """Where two games of a deal first differ, every decision before is the same, and the choice
    given to bot 0 is the one made in the game where bot 0 held that seat."""
    played = records(("heuristic", "random"), games=6)
    pairs = list(hand_pairs(played))
    differing = [p for p in pairs if p.divergence is not None]
    assert differing
    for pair in differing:
        first, second = (r for r in played if r["match"]["deal"] == pair.deal)
        one = next(h for h in first["hands"] if h["number"] == pair.number)
        two = next(h for h in second["hands"] if h["number"] == pair.number)
        a, b = decisions(one), decisions(two)
        at = next(i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y)
        seat = a[at][1]
        mine = a[at] if first["match"]["seating"][seat] == 0 else b[at]
        assert pair.divergence is not None and pair.divergence.choices[0] == mine[3]
    assert sum(len(g) for k, g in tally(pairs).items() if len(k) == 1) == len(pairs)
    assert "bot 0 won" in report(played)
    data = summary(played)
    assert data["games"] == len(played) and data["pairs"] == len(pairs)
    kinds = [g for g in data["groups"] if len(g["group"]) == 1]
    assert sum(g["pairs"] for g in kinds) == len(pairs)
    assert sum(g["net"] for g in kinds) == sum(p.net for p in pairs)


def test_a_games_equity_adds_up_to_its_result() -> None:
    """Bot 0's changes of its chance of winning over a game's hands add up to the game's result
    less its chance at the start."""
    from setback.bots.odds import odds, win_chance

    rules = Rules(players=2)
    table = odds(rules)
    assert table is not None
    for record in records(("heuristic", "random")):
        seat = record["match"]["seating"].index(0)
        changes = equities(record, 0)
        assert changes is not None
        first = next(h for h in record["hands"] if h["result"] is not None)
        start = win_chance(table, rules, [0, 0], first["dealer"], seat)
        won = 1.0 if record["outcome"]["winner"] == seat else 0.0
        assert abs(sum(changes.values()) - (won - start)) < 1e-9
