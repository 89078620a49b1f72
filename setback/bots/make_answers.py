"""``python -m setback.bots.make_answers``: record how ``search`` bids and fit the expert's model
of it, ``answers.json`` (:mod:`setback.bots.answers` says what it predicts).

1. **Record** (:func:`decisions`): each deal of seeds ``--first`` onwards is dealt heads up,
   standard rules, at 0-0. Its eldest bids as ``search@budget_ms=None,playouts=PLAYOUTS`` would
   (high bid none); then, for each bid the eldest might have made (a pass, which forces the
   dealer, and 1 to 3), the dealer bids as that search would facing it. A row is one decision:
   the seat's role, the high bid it faced, its hand (a mask), the tactics' count of it
   (:func:`setback.bots.answers.inputs`: the raw points and whether it is near solid) and the
   bid it made (0: pass). Each seat's search is seeded by the deal, so a deal always records
   the same rows; deals run on ``--jobs`` processes or on Ray (``--ray``, as ``setback match --ray``).
2. **Fit** (:func:`setback.bots.answers.fit`): smoothed frequencies, written to ``answers.json``;
   ``--held-out FILE`` scores the model on other deals' rows against the tactics' count
   (:func:`setback.bots.answers.report`).

The shipped file: ``python -m setback.bots.make_answers --deals 1200 --rows answers-train.jsonl --jobs 2``,
its held-out deals ``--first 100000 --deals 300 --rows answers-test.jsonl --jobs 2 --no-fit``,
then ``--deals 0 --rows answers-train.jsonl --held-out answers-test.jsonl``.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator, Sequence

from setback.bots import deals
from setback.bots.answers import FILE, SMOOTHING, TABLES, fit, inputs, report, write
from setback.bots.search import SearchBot
from setback.engine import ACTIONS, PASS_CODE, Game, mask_of

PLAYOUTS = 1500
"""Rollouts per bid of the search recorded (``search@budget_ms=None,playouts=PLAYOUTS``): the
one the expert is screened against."""

Row = deals.Row
"""One decision: ``seed``, ``role``, ``high``, ``hand``, ``value``, ``solid``, ``bid``."""


def decisions(seed: int, playouts: int = PLAYOUTS) -> list[Row]:
    """The rows of deal ``seed`` (module docstring, step 1)."""
    rules = TABLES[0]
    game = Game(rules, seed)
    rows = [_decide(game, seed, playouts, 0)]
    top = rules.top_bid
    for high in range(top):
        trial = Game.replay(rules, seed, (ACTIONS[PASS_CODE + high],))
        rows.append(_decide(trial, seed, playouts, high))
    return rows


def _decide(game: Game, seed: int, playouts: int, high: int) -> Row:
    """The search's bid at the seat to act in ``game`` (facing ``high``), as a row."""
    seat = game.to_act
    assert seat is not None
    view = game.view(seat)
    hand = mask_of(view.hand)
    value, solid = inputs(hand, game.rules)
    bid = SearchBot(seed * 8 + seat, None, playouts).bid(view)
    return {
        "seed": seed, "role": "dealer" if seat == view.dealer else "eldest", "high": high, "hand": hand,
        "value": round(value, 4), "solid": solid, "bid": bid.code - PASS_CODE,
    }


def _decisions(args: tuple[int, int]) -> list[Row]:
    return decisions(*args)


def record(seeds: Sequence[int], jobs: int = 1, playouts: int = PLAYOUTS,
           ray: str | None = None) -> Iterator[list[Row]]:
    """The rows of each deal of ``seeds``, in order: on ``jobs`` processes, or on Ray when ``ray``
    is given (``local`` starts a local instance, else an address as ``setback match --ray`` takes)."""
    return deals.run("setback.bots.make_answers", "_decisions", [(seed, playouts) for seed in seeds], jobs, ray)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m setback.bots.make_answers", description=__doc__.split("\n\n")[0])
    deals.add_arguments(parser, 1200, "record")
    parser.add_argument("--playouts", type=int, default=PLAYOUTS, help="the recorded search's rollouts per bid")
    parser.add_argument("--smoothing", type=float, default=SMOOTHING,
                        help="pseudo-decisions drawn from the coarser level")
    parser.add_argument("--hold-out", type=int, default=0, metavar="N",
                        help="fit without the rows file's last N deals, and report the model on them")
    args = parser.parse_args(argv)
    if args.deals:
        seeds = range(args.first, args.first + args.deals)
        deals.record(args.rows, record(seeds, args.jobs, args.playouts, args.ray), "recorded")
    if args.no_fit:
        return
    rows = deals.read_rows(args.rows)
    recorded = sorted({r["seed"] for r in rows})
    held = set(recorded[len(recorded) - args.hold_out:]) if args.hold_out else set()
    tested = [r for r in rows if r["seed"] in held]
    rows = [r for r in rows if r["seed"] not in held]
    answers = fit(rows, args.smoothing)
    meta = {"rows": len(rows), "deals": len({r["seed"] for r in rows}), "playouts": args.playouts,
            "smoothing": args.smoothing}
    write(answers, meta)
    print(f"wrote {FILE} from {meta['rows']} rows of {meta['deals']} deals", flush=True)
    if args.held_out is not None:
        tested += deals.read_rows(args.held_out)
    if tested:
        print(json.dumps(report(answers, tested)), flush=True)


if __name__ == "__main__":
    main()
