"""The model of how ``search`` bids (``answers.json``) and the expert that uses it (``@answer``):
it ships and loads, its fit is reproducible and follows the decisions, the samples and the
rollouts use it as they say, and the expert stays repeatable and blind to hidden cards."""

from __future__ import annotations

import random

from deals import act, deal

from setback.bots import ExpertBot, bot_factory
from setback.bots.answers import (
    BINS,
    FAR,
    TOP,
    Answers,
    context,
    count_bid,
    fit,
    inputs,
    legal_bids,
    model,
    report,
)
from setback.bots.expert import AnswerRollout
from setback.bots.make_answers import decisions, score_of
from setback.bots.reading import AnswerReader
from setback.engine import PASS_CODE, Game, Phase, Rules, Variant, View, mask_of, state_from_view

SEAT_0 = "AS KS 10S 5S 2H 8C"
"""Heads up, the eldest's hand (a bid of 2 or 3 by the count)."""
SEAT_1 = ("2C 5D 7H 9S 3D 4D", "JC QD 7H 9S 3D JH")
"""Two dealer's hands that share the cards it plays first and differ in the rest."""


def test_the_shipped_model_loads_for_the_heads_up_table_only() -> None:
    """``answers.json`` gives each role and high bid a chance for every bid, summing to one, none
    to a bid the seat may not make; a table it was not made for has no model."""
    heads_up = model(Rules(players=2))
    assert heads_up is not None
    assert set(heads_up.chances) == {("eldest", 0), *(("dealer", h) for h in range(TOP))}
    for (role, high), table in heads_up.chances.items():
        assert len(table) == 2 * BINS
        for row in table:
            assert abs(sum(row) - 1) < 1e-3
            assert all(row[b] == 0 for b in range(TOP + 1) if b not in legal_bids(role, high))
    assert model(Rules(players=4, teams=2)) is None
    assert model(Rules(players=2, variant=Variant.JOKER)) is None
    assert {(m, t) for m in range(1, FAR + 1) for t in range(1, FAR + 1)} - set(heads_up.scored) == {(FAR, FAR)}
    for chances in heads_up.scored.values():
        assert set(chances) == set(heads_up.chances)
        for (role, high), table in chances.items():
            assert all(abs(sum(row) - 1) < 1e-3 for row in table)
            assert all(row[b] == 0 for row in table for b in range(TOP + 1) if b not in legal_bids(role, high))


def rows_of(role: str, high: int, value: float, bids: list[int]) -> list[dict[str, object]]:
    """Decisions of one role facing ``high`` with hands of ``value`` points (not near solid)."""
    return [{"seed": i, "role": role, "high": high, "value": value, "solid": False, "bid": b}
            for i, b in enumerate(bids)]


def test_the_fit_follows_the_decisions_and_leans_on_the_bin_when_rare() -> None:
    """A hand whose decisions were mostly 3 is given 3 as its likeliest bid; a near solid hand
    never recorded takes its bin's chances; a bin never recorded takes the nearest one's."""
    rows = rows_of("dealer", 2, 2.6, [3] * 9 + [0]) + rows_of("dealer", 2, 1.6, [0] * 10)
    answers = fit(rows)
    assert max(range(TOP + 1), key=lambda b: answers.chance("dealer", 2, 2.6, False, b)) == 3
    assert answers.chance("dealer", 2, 2.6, True, 3) > 0.5
    assert answers.chance("dealer", 2, 4.5, False, 3) == answers.chance("dealer", 2, 2.7, False, 3) > 0.5
    assert answers.chance("dealer", 2, 1.6, False, 0) > 0.8
    assert answers.draw("dealer", 2, 2.6, False, 0.99) == 4 or answers.draw("dealer", 2, 2.6, False, 0.5) == 3
    assert answers.draw("dealer", 2, 1.6, False, 0.0) == 0


def test_a_context_is_each_sides_points_to_go_until_no_hand_reaches_the_target() -> None:
    """0-0 and every score from which no hand reaches 11 is the far context; else each side's
    points to go count, at least 1."""
    assert context(0, 0, 11) == context(6, -3, 11) == (FAR, FAR)
    assert context(7, 0, 11) == (4, FAR)
    assert context(3, 10, 11) == (FAR, 1)
    assert context(12, 12, 11) == (1, 1)


def test_a_context_leans_on_the_far_table_and_follows_its_own_decisions() -> None:
    """Decisions at 10-0 where ``search`` outbids a 3 with 4 give that context 4 as the likeliest
    bid, while at 0-0 the same hand passes; a context never recorded reads the far table."""
    far = rows_of("dealer", 3, 1.6, [0] * 30)
    near = [{**row, "mine": 10, "theirs": 0} for row in rows_of("dealer", 3, 1.6, [4] * 30)]
    answers = fit(far + near)
    assert answers.chance("dealer", 3, 1.6, False, 0) > 0.8
    assert answers.at(10, 0, 11).chance("dealer", 3, 1.6, False, 4) > 0.8
    assert answers.at(0, 10, 11) is answers and answers.at(3, 2, 11) is answers
    assert answers.of_side([0, 10], 1, 11).chance("dealer", 3, 1.6, False, 4) > 0.8


def test_recording_and_fitting_a_tiny_seeded_set_is_reproducible() -> None:
    """The same deals record the same decisions (the eldest's, and the dealer's facing each
    high bid) and fit the same model; the report scores the count and the model."""
    rows = [row for seed in (1, 2) for row in decisions(seed, playouts=20)]
    assert rows == [row for seed in (1, 2) for row in decisions(seed, playouts=20)]
    assert [(r["role"], r["high"]) for r in rows[:5]] == [("eldest", 0), *(("dealer", h) for h in range(TOP))]
    assert all(r["bid"] in legal_bids(r["role"], r["high"]) for r in rows)
    assert fit(rows) == fit(list(rows))
    scores = report(fit(rows), rows)
    assert scores["dealer"]["decisions"] == 8 and 0 <= scores["dealer"]["count_accuracy"] <= 1
    scored = decisions(3, playouts=20, scored=True)
    assert scored == decisions(3, playouts=20, scored=True)
    assert [r["hand"] for r in scored] == [r["hand"] for r in decisions(3, playouts=20)]
    eldest = (scored[0]["mine"], scored[0]["theirs"])
    assert sorted(eldest) == sorted(score_of(3, 11))
    assert all((r["theirs"], r["mine"]) == eldest for r in scored[1:])


def test_the_scores_drawn_cover_where_a_hand_decides_the_game() -> None:
    """Each deal's score is the seed's; most put a side within a hand of the target, some none."""
    drawn = [score_of(seed, 11) for seed in range(400)]
    assert drawn == [score_of(seed, 11) for seed in range(400)]
    assert all(-3 <= s <= 10 for score in drawn for s in score)
    near = sum(max(score) >= 7 for score in drawn)
    assert 250 < near < 390


def test_the_count_bid_is_the_tactics() -> None:
    """The count's bid: 3 from 2.5 points, 4 only near solid, a forced dealer's least bid is 1."""
    assert count_bid(2.6, False, "eldest", 0) == 3
    assert count_bid(3.2, True, "eldest", 0) == 4
    assert count_bid(0.2, False, "dealer", 0) == 1
    assert count_bid(2.6, False, "dealer", 3) == 0


def always(role: str, high: int, bid: int) -> Answers:
    """A model in which a seat of ``role`` facing ``high`` always bids ``bid``, whatever its hand."""
    return Answers({(role, high): [[float(b == bid) for b in range(TOP + 1)] for _ in range(2 * BINS)]})


def test_a_bids_rollouts_answer_as_the_model_says() -> None:
    """In an eldest's rollout the dealer bids what the model draws, not what the tactics count:
    a dealer that always outbids a 3 with 4 does so on hands the count passes."""
    game = deal(Rules(players=2), 1, SEAT_0, SEAT_1[0])
    view = game.view(0)
    state = state_from_view(view, [mask_of(view.hand), game._state.hands[1]])
    rollout = AnswerRollout(state, always("dealer", 3, 4), 0, random.Random(1))
    state.apply_action(PASS_CODE + 3)
    assert state.phase is Phase.BIDDING
    assert rollout.action(state) == PASS_CODE + 4


def test_a_bids_rollouts_answer_as_the_model_says_at_the_score() -> None:
    """At 0-10, the dealer (seat 1, one point to go) answers by the model's context for it."""
    game = deal(Rules(players=2), 1, SEAT_0, SEAT_1[0], scores=(0, 10))
    view = game.view(0)
    state = state_from_view(view, [mask_of(view.hand), game._state.hands[1]])
    never = always("dealer", 3, 0)
    answers = Answers(never.chances, {(1, FAR): always("dealer", 3, 4).chances})
    rollout = AnswerRollout(state, answers, 0, random.Random(1))
    state.apply_action(PASS_CODE + 3)
    assert rollout.action(state) == PASS_CODE + 4
    assert AnswerRollout(state, never, 0, random.Random(1)).action(state) == PASS_CODE


def test_samples_read_the_bid_by_the_model() -> None:
    """The dealer who saw the eldest bid 3 keeps samples by the model's chance of that bid: with
    a model in which only hands of 2.5 points or more bid 3, every sample kept is such a hand."""
    game = deal(Rules(players=2), 1, SEAT_0, SEAT_1[0])
    act(game, "bid 3")
    view = game.view(1)
    rows = rows_of("eldest", 0, 2.7, [3] * 20) + rows_of("eldest", 0, 2.4, [2] * 20)
    rows += rows_of("eldest", 0, 1.5, [2] * 20)
    reader = AnswerReader(view, fit(rows, smoothing=0.0), tries=50)
    rng = random.Random(3)
    kept = [inputs(reader.deal(rng)[0], view.rules)[0] for _ in range(20)]
    assert all(value >= 2.5 for value in kept)


def test_samples_read_the_bid_by_the_models_context_at_the_score() -> None:
    """At 10-0 the eldest's bid of 3 is read in its context: there only hands of 2.5 points or
    more bid 3, while the far table (which would keep weak hands) is not read."""
    game = deal(Rules(players=2), 1, SEAT_0, SEAT_1[0], scores=(10, 0))
    act(game, "bid 3")
    view = game.view(1)
    strong = rows_of("eldest", 0, 2.7, [3] * 20) + rows_of("eldest", 0, 2.4, [2] * 20)
    strong += rows_of("eldest", 0, 1.5, [2] * 20)
    weak = rows_of("eldest", 0, 1.5, [3] * 20) + rows_of("eldest", 0, 2.7, [2] * 20)
    far = fit(weak, smoothing=0.0)
    answers = Answers(far.chances, {(1, FAR): fit(strong, smoothing=0.0).chances})
    reader = AnswerReader(view, answers, tries=50)
    rng = random.Random(3)
    kept = [inputs(reader.deal(rng)[0], view.rules)[0] for _ in range(20)]
    assert all(value >= 2.5 for value in kept)


def eldest_views(dealer_hand: str) -> list[View]:
    """The eldest's views at its bid and at its follow to the dealer's pitch (the dealer bid 3
    over its 2), the dealer holding ``dealer_hand``."""
    game = deal(Rules(players=2), 1, SEAT_0, dealer_hand)
    views = [game.view(0)]
    act(game, "bid 2", "bid 3", "9S")
    views.append(game.view(0))
    return views


def test_the_answering_expert_sees_only_what_its_seat_sees_and_repeats() -> None:
    """With ``@answer``, two deals that differ only in cards the eldest cannot see give it the
    same decisions, and the same seed decides the same again."""
    first, second = (eldest_views(hand) for hand in SEAT_1)
    assert first == second and first[-1].phase is Phase.PLAYING and first[-1].to_act == 0
    bot = bot_factory("expert@budget_ms=None,answer=true,playouts=60")
    for a, b in zip(first, second, strict=True):
        decide = [bot(3).bid if a.phase is Phase.BIDDING else bot(3).play for _ in range(3)]
        assert decide[0](a) == decide[1](b) == decide[2](a)


def test_the_answering_expert_plays_heads_up_games_legally_and_repeatably() -> None:
    """Counted, the expert with ``@answer`` (and each half alone) makes the same choices for a seed."""
    halves = ({"answer": True}, {"answer": True, "answer_read": False}, {"answer": True, "answer_rollouts": False})
    for options in halves:
        game = Game(Rules(players=2), 4)
        choices: list[list[int]] = [[], []]
        while not game.is_over and len(choices[0]) < 16:
            view = game.view(game.to_act)
            for out in choices:
                bot = ExpertBot(5, budget_ms=None, playouts=40, solves=3, **options)  # type: ignore[arg-type]
                out.append((bot.bid(view) if view.phase is Phase.BIDDING else bot.play(view)).code)
            game.apply(game.view(game.to_act).legal[[a.code for a in view.legal].index(choices[0][-1])])
        assert choices[0] == choices[1]
