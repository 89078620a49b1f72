"""``python -m setback.bots.make_answers``: record how ``search`` bids and fit the expert's model
of it, ``answers.json`` (:mod:`setback.bots.answers` says what it predicts).

1. **Record** (:func:`decisions`): each deal of seeds ``--first`` onwards is dealt heads up,
   standard rules, at 0-0 or, with ``--scored``, at a score drawn from its seed
   (:func:`score_of`: mostly scores from which a hand can decide the game). Its eldest bids as
   ``search@budget_ms=None,playouts=PLAYOUTS`` would (high bid none); then, for each bid the
   eldest might have made (a pass, which forces the dealer, and 1 to 3), the dealer bids as that
   search would facing it. A row is one decision: the seat's role, the high bid it faced, its
   hand (a mask), the tactics' count of it (:func:`setback.bots.answers.inputs`: the raw points
   and whether it is near solid), the bid it made (0: pass) and the score (``mine``, ``theirs``:
   its side's and the other's). Each seat's search is seeded by the deal, so a deal always
   records the same rows; deals run on ``--jobs`` processes or on Ray (``--ray``, as
   ``setback match --ray``).
2. **Fit** (:func:`setback.bots.answers.fit`): smoothed frequencies in each context of the
   score, written to ``answers.json``; ``--held-out FILE`` scores the model on other deals'
   rows against the tactics' count (:func:`setback.bots.answers.report`), apart at the scores
   where no hand decides the game (``far``) and where one may (``decisive``), and ``--compare
   ANSWERS_JSON`` scores another model on them beside it.

The shipped file (setback/benchmarks/README.md, "A model of how ``search`` bids"): 0-0 deals
``--deals 2400 --rows zero.jsonl --jobs 2 --no-fit``, scored deals ``--scored --first 200000
--deals N --rows scored-train.jsonl --jobs 2 --no-fit`` and, held out, ``--scored --first
300000 --deals 500 --rows scored-test.jsonl --jobs 2 --no-fit``; then the first 2,000 0-0 deals
and the scored ones fitted (``head -n 10000 zero.jsonl > fit.jsonl; cat scored-train.jsonl >>
fit.jsonl``), the rest held out (``tail -n 2000 zero.jsonl > test.jsonl; cat scored-test.jsonl
>> test.jsonl``): ``--deals 0 --rows fit.jsonl --held-out test.jsonl``.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Iterator, Sequence
from pathlib import Path

from setback.bots import deals
from setback.bots.answers import FAR, FILE, SMOOTHING, TABLES, TOP, fit, inputs, load, report, row_context, write
from setback.bots.odds import key_of
from setback.bots.search import SearchBot
from setback.engine import ACTIONS, PASS_CODE, Game, Setup, mask_of

PLAYOUTS = 1500
"""Rollouts per bid of the search recorded (``search@budget_ms=None,playouts=PLAYOUTS``): the
one the expert is screened against."""

Row = deals.Row
"""One decision: ``seed``, ``role``, ``high``, ``hand``, ``value``, ``solid``, ``bid``."""


def decisions(seed: int, playouts: int = PLAYOUTS, scored: bool = False) -> list[Row]:
    """The rows of deal ``seed`` (module docstring, step 1), at 0-0 or, ``scored``, at the
    score :func:`score_of` draws from the seed."""
    rules = TABLES[0]
    dealt = Game(rules, seed)
    scores = score_of(seed, rules.target) if scored else (0, 0)
    setup = Setup(tuple(dealt.view(s).hand for s in range(rules.players)), dealt.view(0).dealer, scores)
    rows = [_decide(Game(rules, seed, setup), seed, playouts, 0)]
    top = rules.top_bid
    for high in range(top):
        trial = Game.replay(rules, seed, (ACTIONS[PASS_CODE + high],), setup)
        rows.append(_decide(trial, seed, playouts, high))
    return rows


def score_of(seed: int, target: int) -> tuple[int, int]:
    """The score (seat 0's, seat 1's) deal ``seed`` is recorded at with ``--scored``: each seat's
    drawn alone, at 3 in 5 a score from which one hand can reach ``target`` (each alike), else
    one from which none can (-3 up, each alike), so the scores where a hand can decide the game,
    where ``search`` bids differently (:func:`setback.bots.answers.context`), are well covered."""
    rng = random.Random(seed * 2 + 1)
    near = range(target - TOP, target)

    def one() -> int:
        return rng.choice(near) if rng.random() < 0.6 else rng.randint(-3, target - TOP - 1)

    first = one()  # seat 0's drawn first
    return first, one()


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
        "mine": view.scores[seat], "theirs": view.scores[1 - seat],
    }


def _decisions(args: tuple[int, int, bool]) -> list[Row]:
    return decisions(*args)


def record(seeds: Sequence[int], jobs: int = 1, playouts: int = PLAYOUTS,
           ray: str | None = None, scored: bool = False) -> Iterator[list[Row]]:
    """The rows of each deal of ``seeds``, in order: on ``jobs`` processes, or on Ray when ``ray``
    is given (``local`` starts a local instance, else an address as ``setback match --ray`` takes)."""
    tasks = [(seed, playouts, scored) for seed in seeds]
    return deals.run("setback.bots.make_answers", "_decisions", tasks, jobs, ray)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m setback.bots.make_answers", description=__doc__.split("\n\n")[0])
    deals.add_arguments(parser, 1200, "record")
    parser.add_argument("--playouts", type=int, default=PLAYOUTS, help="the recorded search's rollouts per bid")
    parser.add_argument("--smoothing", type=float, default=SMOOTHING,
                        help="pseudo-decisions drawn from the coarser level")
    parser.add_argument("--scored", action="store_true",
                        help="record each deal at a score drawn from its seed (score_of), not at 0-0")
    parser.add_argument("--compare", type=Path, metavar="ANSWERS_JSON",
                        help="also report the model of this answers.json on the held-out rows")
    parser.add_argument("--hold-out", type=int, default=0, metavar="N",
                        help="fit without the rows file's last N deals, and report the model on them")
    args = parser.parse_args(argv)
    if args.deals:
        seeds = range(args.first, args.first + args.deals)
        deals.record(args.rows, record(seeds, args.jobs, args.playouts, args.ray, args.scored), "recorded")
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
    models = {"fitted": answers}
    if args.compare is not None:
        models["compared"] = load(args.compare)[str(key_of(TABLES[0]))]
    groups = {"far": [r for r in tested if row_context(r) == (FAR, FAR)],
              "decisive": [r for r in tested if row_context(r) != (FAR, FAR)]}
    for group, rows in groups.items():
        for name, of in models.items():
            if rows:
                print(group, name, json.dumps(report(of, rows)), flush=True)


if __name__ == "__main__":
    main()
