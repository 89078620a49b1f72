"""The expert's bidding model: it ships and loads, it corrects the rollouts' values as it
says, the expert bids legally and repeatably with it, and training it is reproducible."""

from __future__ import annotations

import pytest

from setback.bots import ExpertBot
from setback.bots.bidding import FEATURES, INPUTS, MODELLED, ROLES, Model, features, fit, model
from setback.bots.make_bidding import fit_rows, report, study
from setback.engine import PASS_CODE, Game, Phase, Rules, Variant


def test_the_shipped_model_loads_for_the_heads_up_table_only() -> None:
    """``bidding.json`` has weights over its inputs for every bid of the seats it corrects heads
    up; a table it was not trained for has no model."""
    heads_up = model(Rules(players=2))
    assert heads_up is not None
    assert heads_up.inputs == INPUTS and set(heads_up.weights) == set(MODELLED)
    for seat in MODELLED:
        assert set(heads_up.weights[seat]) == {0, 1, 2, 3, 4}
        assert all(len(w) == len(INPUTS) for w in heads_up.weights[seat].values())
    assert model(Rules(players=4, teams=2)) is None
    assert model(Rules(players=2, variant=Variant.JOKER)) is None


SAME = [0.0] * (len(FEATURES) - 1) + [1.0]
"""Weights that predict the rollouts' own mean points."""
PLUS = [1.0] + [0.0] * (len(FEATURES) - 2) + [1.0]
"""Weights that predict a point more than the rollouts' mean."""


def flat(weights: list[float], three: list[float] | None = None) -> Model:
    """A model with ``weights`` for every seat and bid (``three`` for a bid of 3)."""
    return Model({seat: {a: three if a == 3 and three else weights for a in range(5)} for seat in ROLES}, FEATURES)


def test_a_bids_value_is_the_rollouts_moved_by_the_models_correction() -> None:
    """A model that predicts the rollouts' own mean points leaves every bid at the rollouts' mean
    value; one that adds a point to a bid of 3 raises that bid's value by one point's worth."""
    game = Game(Rules(players=2), 4)
    view = game.view(game.to_act)
    identity, raised = flat(SAME), flat(SAME, PLUS)
    bot = ExpertBot(2, budget_ms=None, playouts=60, odds=False)
    legal, tally = bot.rollout_means(view)
    means = [tally.values[i] / tally.count[i] for i in range(len(legal))]
    for bids, bonus in ((identity, 0.0), (raised, 1.0)):
        _, values = ExpertBot(2, budget_ms=None, playouts=60, odds=False).bid_values(view, bids)
        extra = [bonus if code - PASS_CODE == 3 else 0.0 for code in legal]
        assert values == pytest.approx([m + e for m, e in zip(means, extra, strict=True)])


def test_with_the_odds_a_point_counts_as_the_rollouts_slope() -> None:
    """At a table with chances of winning, a point of correction moves a bid's value by the
    slope of the chance in a point fitted over the rollouts: above zero, below one."""
    game = Game(Rules(players=2), 4)
    view = game.view(game.to_act)
    base = ExpertBot(2, budget_ms=None, playouts=60).bid_values(view, flat(SAME))
    up = ExpertBot(2, budget_ms=None, playouts=60).bid_values(view, flat(PLUS))
    steps = {round(b - a, 9) for a, b in zip(base[1], up[1], strict=True)}
    assert len(steps) == 1 and 0 < steps.pop() < 1


@pytest.mark.parametrize("rules", [
    *(Rules(players=2, variant=v) for v in Variant if v is not Variant.PEDRO),
    *(Rules(players=4, variant=v) for v in Variant),
    Rules(players=3),
])
def test_the_expert_bids_legally_and_repeatably_at_every_variant(rules: Rules) -> None:
    """Over the first hands' auctions the expert's bid is legal and the same for the same seed."""
    for seed in range(3):
        game = Game(rules, seed)
        while game.phase is Phase.BIDDING and game.hand_number == 1:
            view = game.view(game.to_act)
            first, again = (ExpertBot(seed, budget_ms=None, playouts=30).bid(view) for _ in range(2))
            assert first == again and first in view.legal
            game.apply(first)


def test_the_model_changes_the_heads_up_bid_only_as_an_option() -> None:
    """``bid_model=False`` bids by the rollouts alone; on some heads-up deal the model bids otherwise."""
    differ = 0
    for seed in range(12):
        game = Game(Rules(players=2), seed)
        view = game.view(game.to_act)
        with_model = ExpertBot(seed, budget_ms=None, playouts=60, answer=False).bid(view)  # the model alone
        without = ExpertBot(seed, budget_ms=None, playouts=60, answer=False, bid_model=False).bid(view)
        differ += with_model != without
    assert differ > 0


def test_training_from_a_tiny_seeded_set_is_reproducible() -> None:
    """The same deals give the same rows and the same weights, and the report ranks hindsight first."""
    rows = [row for seed in (1, 2) for row in study(seed, play=6, reply=10, rollouts=20)]
    assert rows == [row for seed in (1, 2) for row in study(seed, play=6, reply=10, rollouts=20)]
    assert {row["role"] for row in rows} == set(ROLES)
    assert all(len(row["inputs"]) == len(FEATURES) - 1 for row in rows)
    first, second = fit_rows(rows), fit_rows(list(rows))
    assert first == second
    assert fit_rows(rows, inputs=FEATURES, roles=ROLES) == fit_rows(rows, inputs=FEATURES, roles=ROLES)
    scores = report(first, rows)
    for seat in ROLES:
        assert scores[seat]["hindsight"] >= max(scores[seat]["model"], scores[seat]["rollouts"])


def test_the_fit_recovers_weights_that_explain_the_values() -> None:
    """Values made exactly by known weights (the ridge barely at work) are fitted back to them."""
    game = Game(Rules(players=2), 0)
    inputs = features(game.view(game.to_act))
    rows = [([1.0, float(i % 7), float(i % 3), float(i % 5)], 2.0 + 0.5 * (i % 7) - (i % 3) + 0.25 * (i % 5))
            for i in range(200)]
    assert fit(rows, ridge=1e-9) == pytest.approx([2.0, 0.5, -1.0, 0.25], abs=1e-6)
    assert len(inputs) == len(FEATURES) - 1
