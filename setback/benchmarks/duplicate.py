"""Where one bot gains on another, from the records of a heads-up duplicate match.

A duplicate match plays each deal twice, the bots' seats swapped, so hand *k* of the two games
deals the same cards to each seat (spec.md, section 5, Matches). For each such pair of hands,
the first decision at which the two games differ was taken from the same seat, with the same
cards and the same auction and tricks before it, by bot 0 in one game and bot 1 in the other:
the **divergence** says which bot chose what where (the eldest's bid, the dealer's, the pitch,
a lead or a follow, by the pitcher or a defender, in which trick), and the pair says what it
came to: bot 0's score change less bot 1's over the two hands (**net**, points), and bot 0's
change of its chance of winning the game over them (**equity**, by the expert's table of
chances, :mod:`setback.bots.odds`; the hand that ends a game counts the game's result). Pairs
whose scores before the hand differ (later hands of games that went differently) mix the
choice with its score; ``same score`` counts only the others.

Run: ``python -m setback.benchmarks.duplicate FILE.jsonl [--json]`` on the records of
``setback match A B --duplicate --out FILE.jsonl`` (heads up; bot 0 is A).
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from setback.bots.odds import odds, win_chance
from setback.engine.record import rules_of

Record = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Divergence:
    """The first decision two games of a hand pair took differently: ``kind`` (``bid-eldest``,
    ``bid-dealer``, ``pitch``, ``lead``, ``follow``), ``role`` (``pitcher`` or ``defender`` for a
    card, empty for a bid), ``trick`` (1-6, 0 for a bid) and each bot's choice (a bid's amount,
    0 for a pass; a card's text)."""

    kind: str
    role: str
    trick: int
    choices: tuple[str, str]


@dataclass(frozen=True, slots=True)
class HandPair:
    """Hand ``number`` of deal ``deal`` in both its games: where they first differed (None when
    every decision was the same), bot 0's net points and equity over both, and whether both
    began at the same scores."""

    deal: int
    number: int
    divergence: Divergence | None
    net: int
    equity: float | None
    same_score: bool


def decisions(hand: dict[str, Any]) -> list[tuple[str, int, int, str]]:
    """A recorded hand's decisions in order: (kind, seat, trick, choice)."""
    out = []
    dealer = hand["dealer"]
    for bid in hand["bids"]:
        kind = "bid-dealer" if bid["seat"] == dealer else "bid-eldest"
        out.append((kind, bid["seat"], 0, str(bid["bid"] or 0)))
    for t, trick in enumerate(hand["tricks"]):
        seat = trick["leader"]
        for i, card in enumerate(trick["cards"]):
            kind = "pitch" if t == 0 and i == 0 else "lead" if i == 0 else "follow"
            out.append((kind, seat, t + 1, card))
            seat = 1 - seat
    return out


def scored(record: Record) -> list[dict[str, Any]]:
    """The record's hands that were scored (not thrown in)."""
    return [h for h in record["hands"] if h["result"] is not None]


def before(hand: dict[str, Any]) -> list[int]:
    """The scores at the start of a scored hand."""
    result = hand["result"]
    return [s - d for s, d in zip(result["scores"], result["deltas"], strict=True)]


def equities(record: Record, bot: int) -> dict[int, float] | None:
    """For each scored hand's number, how much ``bot``'s chance of winning changed over it (None
    at a table without chances)."""
    rules = rules_of(record["rules"])
    table = odds(rules)
    if table is None:
        return None
    seat = record["match"]["seating"].index(bot)
    hands = scored(record)
    out = {}
    for i, hand in enumerate(hands):
        start = win_chance(table, rules, before(hand), hand["dealer"], seat)
        if i + 1 < len(hands):
            end = win_chance(table, rules, hand["result"]["scores"], hands[i + 1]["dealer"], seat)
        else:
            end = 1.0 if record["outcome"]["winner"] == seat else 0.0
        out[hand["number"]] = end - start
    return out


def deals(records: Iterable[Record]) -> dict[int, tuple[Record, Record]]:
    """The two games of each deal, bot 0 at seat 0 first (deals with one game only are left out)."""
    by_deal: dict[int, list[Record]] = defaultdict(list)
    for record in records:
        if record["match"]["seating"] and rules_of(record["rules"]).players != 2:
            raise ValueError("the duplicate comparison is heads up")
        by_deal[record["match"]["deal"]].append(record)
    return {
        d: (games[0], games[1]) if games[0]["match"]["seating"][0] == 0 else (games[1], games[0])
        for d, games in sorted(by_deal.items())
        if len(games) == 2
    }


def hand_pairs(records: Iterable[Record]) -> Iterator[HandPair]:
    """Every hand scored in both games of its deal, compared (module docstring)."""
    for deal, (first, second) in deals(records).items():
        e0, e1 = equities(first, 0), equities(second, 0)
        second_hands = {h["number"]: h for h in scored(second)}
        for h0 in scored(first):
            h1 = second_hands.get(h0["number"])
            if h1 is None:
                continue
            r0, r1 = h0["result"], h1["result"]
            net = (r0["deltas"][0] - r0["deltas"][1]) + (r1["deltas"][1] - r1["deltas"][0])
            equity = None if e0 is None or e1 is None else e0[h0["number"]] + e1[h1["number"]]
            divergence = None
            for x, y in zip(decisions(h0), decisions(h1), strict=False):
                if x != y:
                    kind, seat, trick, _ = x
                    # bot 0 sits at seat 0 in the first game, seat 1 in the second
                    mine, theirs = (x[3], y[3]) if seat == 0 else (y[3], x[3])
                    role = "" if trick == 0 else "pitcher" if seat == r0["pitcher"] else "defender"
                    divergence = Divergence(kind, role, trick, (mine, theirs))
                    break
            yield HandPair(deal, h0["number"], divergence, net, equity, before(h0) == before(h1))


def tally(pairs: Iterable[HandPair]) -> dict[tuple[str, ...], list[HandPair]]:
    """The pairs grouped by where they first differed: by kind, by kind and role and trick, a
    bid by both bots' amounts; each again among pairs of the same score."""
    groups: dict[tuple[str, ...], list[HandPair]] = defaultdict(list)
    for pair in pairs:
        d = pair.divergence
        keys: list[tuple[str, ...]]
        if d is None:
            keys = [("same play",)]
        elif d.trick == 0:
            keys = [(d.kind,), (d.kind, f"bot 0 {d.choices[0]}, bot 1 {d.choices[1]}")]
        else:
            keys = [("cards",), (d.kind, d.role, f"trick {d.trick}")]
        for key in keys:
            groups[key].append(pair)
            if pair.same_score:
                groups[("same score", *key)].append(pair)
    return groups


def summary(records: list[Record]) -> dict[str, Any]:
    """The comparison as data: the games, bot 0's wins, the pairs, and for each group of
    :func:`tally` its pairs, bot 0's net points and equity (a fraction of a game; None at a
    table without chances)."""
    pairs = list(hand_pairs(records))
    groups = []
    for key, group in sorted(tally(pairs).items()):
        known = all(p.equity is not None for p in group)
        groups.append({
            "group": list(key),
            "pairs": len(group),
            "net": sum(p.net for p in group),
            "equity": sum(p.equity or 0.0 for p in group) if known else None,
        })
    wins = sum(r["outcome"]["winner"] == r["match"]["seating"].index(0) for r in records)
    return {"games": len(records), "bot0_wins": wins, "pairs": len(pairs), "groups": groups}


def report(records: list[Record]) -> str:
    """The comparison as text (:func:`summary`)."""
    data = summary(records)
    games, wins = data["games"], data["bot0_wins"]
    lines = [
        f"{games} games, bot 0 won {wins} ({wins / max(games, 1):.3f}); {data['pairs']} hands played in both "
        "games of their deal",
        "first difference in a pair of hands: pairs, bot 0's net points (sum, mean), equity x100 (sum, mean)",
    ]
    for group in data["groups"]:
        n, net = group["pairs"], group["net"]
        line = f"  {' / '.join(group['group']):48} {n:5} {net:+6d} {net / n:+6.2f}"
        if group["equity"] is not None:
            equity = 100 * group["equity"]
            line += f" {equity:+8.1f} {equity / n:+6.2f}"
        lines.append(line)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m setback.benchmarks.duplicate",
        description="where bot 0 gains or loses on bot 1, from a heads-up duplicate match's records",
    )
    parser.add_argument("records", type=Path, help="the match's --out FILE.jsonl")
    parser.add_argument("--json", action="store_true", help="print the comparison as JSON")
    args = parser.parse_args(argv)
    with args.records.open() as lines:
        records = [json.loads(line) for line in lines if line.strip()]
    print(json.dumps(summary(records)) if args.json else report(records))


if __name__ == "__main__":
    main()

