"""Re-score Setback game records from spec.md's record format alone (section 5, "Re-scoring").

Reads the JSON lines ``setback match --out`` writes (any variant, any table), plays no game
and imports nothing of setback: for every hand it works out again from the rules, the deal,
the bids and the tricks who wins each trick and who takes every point, by name, and the score
changes, and counts each difference from what the record says. Prints one line of totals;
exit status 1 if anything differs.

    python examples/rescore.py GAMES.jsonl [MORE.jsonl ...]
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from typing import Any

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
PIPS = {"A": 4, "K": 3, "Q": 2, "J": 1, "10": 10}
JOKERS = {"JK", "BJ", "LJ"}
SAME_COLOUR = {"C": "S", "S": "C", "D": "H", "H": "D"}


def trump_order(variant: str, trump: str) -> list[str]:
    """Trump's cards, high to low (spec.md section 3, "Variants")."""
    order = [rank + trump for rank in reversed(RANKS)]
    other = SAME_COLOUR[trump]
    if variant == "joker":
        return [*order, "JK"]
    if variant == "ten_point":
        at = order.index("J" + trump) + 1
        return [*order[:at], "J" + other, "BJ", "LJ", *order[at:]]
    if variant == "pedro":
        at = order.index("5" + trump) + 1
        return [*order[:at], "5" + other, *order[at:]]
    return order


def card_points(variant: str, trump: str) -> list[tuple[str, str, int]]:
    """The points won by capturing a card: (name, card, value)."""
    other = SAME_COLOUR[trump]
    points = [("jack", "J" + trump, 1)]
    if variant == "joker":
        points.append(("joker", "JK", 1))
    elif variant == "ten_point":
        points += [("off_jack", "J" + other, 1), ("big_joker", "BJ", 1), ("little_joker", "LJ", 1)]
        points.append(("three", "3" + trump, 3))
    elif variant == "pedro":
        points += [("five", "5" + trump, 2), ("off_five", "5" + other, 3)]
    return points


def trick_winner(cards: list[str], trump: str, strength: dict[str, int]) -> int:
    """The place, in playing order, of the card that wins the trick: the highest trump, else
    the highest card of the suit the first card belongs to."""
    led = trump if cards[0] in strength else cards[0][-1]

    def wins(card: str) -> tuple[int, int]:
        if card in strength:
            return (2, strength[card])
        return (1, RANKS.index(card[:-1])) if card[-1] == led else (0, 0)

    return max(range(len(cards)), key=lambda i: wins(cards[i]))


def game_side(pips: list[int], pitcher_side: int) -> int | None:
    """Who takes Game: the strictly highest total, a tie with the pitcher's side to it, else nobody."""
    top = max(pips)
    leaders = [side for side, total in enumerate(pips) if total == top]
    if not top or (len(leaders) > 1 and pitcher_side not in leaders):
        return None
    return leaders[0] if len(leaders) == 1 else pitcher_side


def rescore(record: dict[str, Any], tally: Counter[str]) -> None:
    """Check one game's every hand and its final scores, adding differences to ``tally``."""
    rules = record["rules"]
    variant = rules.get("variant", "standard")
    teams = rules.get("teams")
    sides = teams or rules["players"]

    def side_of(seat: int) -> int:
        return seat if teams is None else seat % teams

    setup = record.get("setup") or {}
    scores = list(setup.get("scores") or [0] * sides)
    for hand in record["hands"]:
        tally["hands"] += 1
        if hand["thrown_in"]:
            continue
        tricks, deal = hand["tricks"], hand["deal"]
        trump = "S" if tricks[0]["cards"][0] in JOKERS else tricks[0]["cards"][0][-1]
        order = trump_order(variant, trump)
        strength = {card: len(order) - i for i, card in enumerate(order)}
        dealt_to = {card: seat for seat, cards in enumerate(deal) for card in cards}
        captor: dict[str, int] = {}
        pips = [0] * sides
        for trick in tricks:
            cards = trick["cards"]
            winner = (trick["leader"] + trick_winner(cards, trump, strength)) % rules["players"]
            tally["trick winners differing"] += winner != trick["winner"]
            for card in cards:
                captor[card] = winner
                if card not in JOKERS:
                    pips[side_of(winner)] += PIPS.get(card[:-1], 0)
        awards: list[tuple[str, int, int]] = []  # (point, value, side)
        naturals = [card for card in order if card in dealt_to and card not in JOKERS]
        if naturals:
            high, low = naturals[0], naturals[-1]
            awards.append(("high", 1, side_of(dealt_to[high])))
            low_seat = captor[low] if rules.get("low", "dealt") == "captured" else dealt_to[low]
            awards.append(("low", 1, side_of(low_seat)))
        for name, card, value in card_points(variant, trump):
            if card in dealt_to:
                awards.append((name, value, side_of(captor[card])))
        bids = [b for b in hand["bids"] if b["bid"] is not None]
        pitcher, bid = bids[-1]["seat"], bids[-1]["bid"]  # each bid outbids (or, stolen, equals) the last
        game = game_side(pips, side_of(pitcher))
        if game is not None:
            awards.append(("game", 1, game))
        points = [0] * sides
        for _, value, side in awards:
            points[side] += value
        mine = side_of(pitcher)
        made = points[mine] >= bid
        deltas = [0 if rules.get("no_junk") else p for p in points]
        deltas[mine] = points[mine] if made else -bid
        scores = [s + d for s, d in zip(scores, deltas, strict=True)]
        result = hand["result"]
        told = sorted((a["point"], a["value"], a["side"]) for a in result.get("awards", []))
        tally["point lists differing"] += told != sorted(awards)
        tally["points differing"] += result["points"] != points
        tally["score changes differing"] += result["deltas"] != deltas or result["scores"] != scores
        tally["set-backs differing"] += result["set_back"] == made
    tally["games"] += 1
    tally["final scores differing"] += record["scores"] != scores


def main(paths: list[str]) -> int:
    tally: Counter[str] = Counter()
    for path in paths:
        with open(path, encoding="utf-8") as lines:
            for line in lines:
                if line.strip():
                    rescore(json.loads(line), tally)
    differing = sum(n for what, n in tally.items() if what.endswith("differing"))
    print(f"{tally['games']} games, {tally['hands']} hands: {differing} differences", dict(tally))
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
