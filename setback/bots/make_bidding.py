"""``python -m setback.bots.make_bidding``: play deals out for the expert's bidding model and
fit it, ``bidding.json`` (:mod:`setback.bots.bidding` says what it predicts).

1. **Play** (:func:`study`): each deal of seeds ``--first`` onwards is dealt heads up, standard
   rules, at 0-0. At each of the two bids (the eldest's, then the dealer's after the eldest bid
   as ``search`` would), the expert's rollouts value every legal bid (``--rollouts`` of them, its
   model off), and every legal bid is then played to the end of the hand on the true deal: the
   other seat's bid by ``search@budget_ms=None,playouts=REPLY`` and every card by
   ``search@budget_ms=None,playouts=PLAY`` on both sides (each seat seeded by the deal, so a
   deal always plays the same). A row is one bid: the bidder's inputs, the rollouts' mean points
   of the bid and the points the play made of it (the bidder's side's less the other's).
   Rows go to ``--rows`` (JSON lines), deals on ``--jobs`` processes or on Ray (``--ray``,
   as ``setback match --ray``); the results are the same either way.
2. **Fit** (:func:`fit_rows`): a ridge regression per seat and bid, written to ``bidding.json``.
   ``--held-out FILE`` scores, on other deals' rows, the bids the model and the rollouts choose
   (:func:`report`).

The shipped file: ``python -m setback.bots.make_bidding --deals 1800 --rows train.jsonl``
(about 25 minutes of one core of the shared machine: 14,477 rows), its held-out deals
``--first 100000 --deals 400 --rows test.jsonl --no-fit``, then the report
``--deals 0 --rows train.jsonl --held-out test.jsonl``.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from setback.bots import deals
from setback.bots.bidding import (
    FEATURES,
    FILE,
    INPUTS,
    MODELLED,
    RIDGE,
    ROLES,
    TABLES,
    Model,
    features,
    fit,
    high_bid,
    role,
    select,
)
from setback.bots.expert import ExpertBot
from setback.bots.odds import key_of
from setback.bots.search import SearchBot
from setback.engine import ACTIONS, PASS_CODE, Game, Phase

PLAY = 100
"""Rollouts per card decision of the play-outs (``search@budget_ms=None,playouts=PLAY``)."""
REPLY = 600
"""Rollouts per bid of the other seat in the play-outs."""
ROLLOUTS = 1200
"""The expert's rollouts valuing the bids (its default heads up)."""

Row = deals.Row
"""One bid of one deal: ``seed``, ``role``, ``amount``, ``inputs``, ``rollout``, ``value``."""


def play_out(game: Game, seed: int, play: int = PLAY, reply: int = REPLY) -> list[int]:
    """Play the hand in progress of ``game`` to its end by ``search`` on every seat; each
    side's score change."""
    seats = game.rules.players
    bidders = [SearchBot(seed * 8 + s, None, reply) for s in range(seats)]
    players = [SearchBot(seed * 8 + 4 + s, None, play) for s in range(seats)]
    hand = game.hand_number
    before = game.scores
    while not game.is_over and game.hand_number == hand:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        game.apply(bidders[seat].bid(view) if view.phase is Phase.BIDDING else players[seat].play(view), seat)
    return [a - b for a, b in zip(game.scores, before, strict=True)]


def study(seed: int, play: int = PLAY, reply: int = REPLY, rollouts: int = ROLLOUTS) -> list[Row]:
    """The rows of deal ``seed`` (module docstring, step 1)."""
    rules = TABLES[0]
    game = Game(rules, seed)
    rows: list[Row] = []
    while game.phase is Phase.BIDDING and game.hand_number == 1:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        if len(view.legal) > 1:
            expert = ExpertBot(seed, budget_ms=None, playouts=rollouts, odds=False, bid_model=False)
            legal, tally = expert.rollout_means(view)
            inputs = features(view)
            side = rules.side_of(seat)
            for i, code in enumerate(legal):
                trial = Game.replay(rules, seed, (*game.actions, ACTIONS[code]))
                deltas = play_out(trial, seed, play, reply)
                value = deltas[side] - (sum(deltas) - deltas[side]) / (len(deltas) - 1)
                rows.append({
                    "seed": seed, "role": role(view), "amount": code - PASS_CODE, "high": high_bid(view),
                    "inputs": inputs, "rollout": tally.points[i] / max(1, tally.count[i]), "value": value,
                })
        game.apply(SearchBot(seed * 8 + seat, None, reply).bid(view), seat)
    return rows


def _study(args: tuple[int, int, int, int]) -> list[Row]:
    return study(*args)


def play_deals(seeds: Sequence[int], jobs: int = 1, ray: str | None = None, play: int = PLAY,
               reply: int = REPLY, rollouts: int = ROLLOUTS) -> Iterator[list[Row]]:
    """The rows of each deal of ``seeds``, in order: on ``jobs`` processes, or on Ray when ``ray``
    is given (``local`` starts a local instance, else an address as ``setback match --ray`` takes)."""
    tasks = [(seed, play, reply, rollouts) for seed in seeds]
    return deals.run("setback.bots.make_bidding", "_study", tasks, jobs, ray)


def fit_rows(rows: Sequence[Row], ridge: float = RIDGE, inputs: Sequence[str] = INPUTS,
             roles: Sequence[str] = MODELLED) -> Model:
    """The model fitted to ``rows``: one ridge regression per seat of ``roles`` and bid, on the
    ``inputs`` (module docstring, step 2)."""
    groups: dict[tuple[str, int], list[tuple[list[float], float]]] = defaultdict(list)
    for row in rows:
        if row["role"] in roles:
            groups[row["role"], row["amount"]].append((select(inputs, row["inputs"], row["rollout"]), row["value"]))
    weights: dict[str, dict[int, list[float]]] = {r: {} for r in roles}
    for (seat, amount), group in sorted(groups.items()):
        weights[seat][amount] = [round(w, 6) for w in fit(group, ridge)]
    return Model(weights, tuple(inputs))


def report(bids: Model, rows: Sequence[Row]) -> dict[str, dict[str, float]]:
    """On ``rows`` (deals not fitted), for each seat: the mean points of the hand the play-outs
    made of the bid chosen by the model, by the rollouts, by always bidding 2 (or the least
    legal bid above), and by hindsight (the best of the play-outs), over the decisions."""
    decisions: dict[tuple[int, str], list[Row]] = defaultdict(list)
    for row in rows:
        decisions[row["seed"], row["role"]].append(row)
    choosers: dict[str, Callable[[list[Row]], Row]] = {
        "model": lambda d: max(d, key=lambda r: _value(bids, r)),
        "rollouts": lambda d: max(d, key=lambda r: r["rollout"]),
        "always_2": lambda d: min(d, key=lambda r: (r["amount"] < 2, abs(r["amount"] - 2))),
        "hindsight": lambda d: max(d, key=lambda r: r["value"]),
    }
    out: dict[str, dict[str, float]] = {}
    for seat in ROLES:
        mine = [d for (_, r), d in sorted(decisions.items()) if r == seat]
        out[seat] = {name: round(sum(pick(d)["value"] for d in mine) / max(1, len(mine)), 3)
                     for name, pick in choosers.items()}
        out[seat]["decisions"] = len(mine)
    return out


def _value(bids: Model, row: Row) -> float:
    """The model's value of a row's bid (the rollouts' mean where it has none)."""
    value = bids.value(row["role"], row["amount"], row["inputs"], row["rollout"])
    return float(row["rollout"]) if value is None else value


def write(bids: Model, meta: dict[str, Any]) -> None:
    """Write ``bids`` as the model of :data:`setback.bots.bidding.TABLES` to ``bidding.json``."""
    key = key_of(TABLES[0])
    table = {r: {str(a): w for a, w in sorted(weights.items())} for r, weights in bids.weights.items()}
    made = {"inputs": list(bids.inputs), "made": meta, "tables": {key: table}}
    FILE.write_text(json.dumps(made, separators=(",", ":")) + "\n")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m setback.bots.make_bidding", description=__doc__.split("\n\n")[0])
    deals.add_arguments(parser, 1800, "play out")
    parser.add_argument("--play", type=int, default=PLAY, help="rollouts per card decision of the play-outs")
    parser.add_argument("--reply", type=int, default=REPLY, help="rollouts per bid of the other seat")
    parser.add_argument("--rollouts", type=int, default=ROLLOUTS, help="the expert's rollouts per bid decision")
    parser.add_argument("--inputs", default=",".join(INPUTS),
                        help=f"the inputs the model uses (the first the constant), of {', '.join(FEATURES)}")
    parser.add_argument("--roles", default=",".join(MODELLED),
                        help=f"the seats the model corrects, of {', '.join(ROLES)}")
    parser.add_argument("--ridge", type=float, default=RIDGE, help="the ridge penalty")
    args = parser.parse_args(argv)
    if args.deals:
        seeds = range(args.first, args.first + args.deals)
        deals.record(args.rows, play_deals(seeds, args.jobs, args.ray, args.play, args.reply, args.rollouts), "played")
    if args.no_fit:
        return
    rows = deals.read_rows(args.rows)
    bids = fit_rows(rows, args.ridge, args.inputs.split(","), args.roles.split(","))
    meta = {"rows": len(rows), "deals": len({r["seed"] for r in rows}), "play": args.play, "reply": args.reply,
            "rollouts": args.rollouts, "ridge": args.ridge}
    write(bids, meta)
    print(f"wrote {FILE} from {meta['rows']} rows of {meta['deals']} deals", flush=True)
    if args.held_out is not None:
        print(json.dumps(report(bids, deals.read_rows(args.held_out))), flush=True)


if __name__ == "__main__":
    main()
