"""A decision's compiled rollouts (``setback.bots.rollouts``) and its samples' states
(``setback.engine.Positions``) play as the bots' Python does: the same states, the same ends,
the same draws of the generator."""

from __future__ import annotations

import random

from setback.bots.answers import model
from setback.bots.expert import AnswerRollout, MemoRollout
from setback.bots.playout import Sampler
from setback.bots.search import Rollout
from setback.engine import Game, GameState, Phase, Positions, Rules, Variant, state_from_view


def fields(state: GameState) -> dict[str, object]:
    """Every field of ``state`` (compiled or not) but its generator and log."""
    names = [name for name in dir(state) if not name.startswith("_") and not callable(getattr(state, name))]
    assert "takers" in names and "hands" in names
    return {name: getattr(state, name) for name in names if name not in {"rng", "log"}}


def test_positions_give_the_state_of_the_view_for_every_sample() -> None:
    """At every decision of seeded hands (bids, the pitch, tricks under way; the standard game, a
    variant with off-cards and jokers, three seats), each sample's state from :class:`Positions`
    has every field of :func:`state_from_view`'s, and plays out to the same end."""
    for rules, seed in ((Rules(players=2), 1), (Rules(players=2, variant=Variant.JOKER), 2), (Rules(players=3), 3)):
        rng = random.Random(seed)
        game = Game(rules, seed)
        hand = game.hand_number
        while not game.is_over and game.hand_number == hand:
            view = game.view(game.to_act)
            positions = Positions(view)
            sampler = Sampler(view)
            for _ in range(4):
                holdings = sampler.deal(rng)
                state, expected = positions.state(holdings), state_from_view(view, holdings)
                assert fields(state) == fields(expected)
                ends = []
                for s in (state, expected):
                    copy = s.clone(random.Random(7))
                    Rollout(copy).play_out(copy)
                    ends.append((fields(copy), copy.rng.random()))
                assert ends[0] == ends[1]
            game.apply(rng.choice(game.legal_actions()))


def test_compiled_rollouts_play_out_as_the_rollouts_do() -> None:
    """From seeded samples of bids and of cards, :class:`setback.bots.rollouts.Plays` plays each
    action out to the state the rollout's own Python play leaves, drawing the same numbers: the
    search's rollout, the expert's memo rollout and its answer rollout."""
    rules = Rules(players=2)
    answers = model(rules)
    assert answers is not None
    for seed in range(3):
        rng = random.Random(seed)
        game = Game(rules, seed)
        hand = game.hand_number
        while not game.is_over and game.hand_number == hand:
            view = game.view(game.to_act)
            root = state_from_view(view, Sampler(view).deal(rng))
            pairs: list[tuple[Rollout, Rollout]] = [(Rollout(root), Rollout(root))]
            if view.phase is Phase.BIDDING:
                pairs.append((MemoRollout(root), MemoRollout(root)))
                pairs.append((
                    AnswerRollout(root, answers, root.to_act, random.Random(5)),
                    AnswerRollout(root, answers, root.to_act, random.Random(5)),
                ))
            for python, twin in pairs:
                compiled = twin.compiled()
                assert compiled is not None
                for code in root.legal_actions():
                    ends = []
                    for play in (python.play_out, compiled.play_out):
                        state = root.clone(random.Random(code))
                        state.apply_action(code)
                        play(state)
                        ends.append((fields(state), state.rng.random()))
                    assert ends[0] == ends[1]
            game.apply(rng.choice(game.legal_actions()))
