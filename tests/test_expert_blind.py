"""The expert's blind rollouts: every seat plays by what it could know, not by the sample's
hidden cards (:mod:`setback.bots.blind`)."""

from __future__ import annotations

from deals import act, deal

from setback.bots import ExpertBot
from setback.bots.blind import BlindRollout
from setback.bots.playout import voids
from setback.bots.search import Rollout
from setback.engine import Card, Game, GameState, Phase, Rules, View, mask_of, state_from_view

LEADER = "KC 3C AH 4H 9D 6D"
"""The eldest: it pitches the 3 of clubs and leads the second trick holding the king of trumps."""


def position(eldest: str, dealer: str, *moves: str) -> tuple[Game, GameState]:
    """A heads-up game after ``bid 2``, ``pass`` and ``moves``, and its state as the true deal."""
    game = deal(Rules(players=2), 1, eldest, dealer)
    act(game, "bid 2", "pass", *moves)
    seat = game.to_act
    assert seat is not None
    view = game.view(seat)
    holdings = [0, 0]
    holdings[seat], holdings[1 - seat] = mask_of(view.hand), mask_of(game.view(1 - seat).hand)
    return game, state_from_view(view, holdings)


def code(text: str) -> int:
    return int(Card.parse(text))


def test_a_blind_lead_does_not_see_the_others_hand() -> None:
    """Two deals the eldest cannot tell apart (the dealer holds the queen of trumps or the ace):
    the search's rollout leads the king of trumps only where it sees that it is the boss; the
    blind rollout, to whom the ace is unseen in both, leads the same card from both."""
    (game_a, queen), (game_b, ace) = (
        position(LEADER, dealer, "3C", "2C") for dealer in ("2C QC 7S 8S 9S 10S", "2C AC 7S 8S 9S 10S"))
    assert game_a.view(0) == game_b.view(0)
    assert Rollout(queen).action(queen) == code("KC") != Rollout(ace).action(ace)
    assert BlindRollout(queen).action(queen) == BlindRollout(ace).action(ace) != code("KC")


def test_a_void_shown_before_the_decision_is_known() -> None:
    """The dealer showed it holds no trump (no club on the 3 of clubs): told so, the blind
    leader knows no trump is out against it and leads its boss ace of hearts; not told, it
    cannot tell the undealt trumps from the dealer's and throws a low card."""
    game, state = position(LEADER, "7S 8S 9S 10S 2D 3D", "3C", "7S")
    view = game.view(0)
    assert BlindRollout(state, shown=voids(view)).action(state) == code("AH")
    assert BlindRollout(state).action(state) != code("AH")


def test_voids_shown_in_a_play_out_are_noted() -> None:
    """A void shown by the searched seat's own card, and one shown inside the play-out, are
    known to the later leads of that play-out."""
    game, root = position(LEADER, "2D 7S 8S 9S 10S 3D", "3C")
    own = BlindRollout(root, shown=voids(game.view(1)))
    state = root.clone()
    state.apply_action(code("7S"))  # the searched seat's card, no club on a club led
    assert own.action(state) == code("AH")
    assert BlindRollout(state).action(state) != code("AH")

    game, root = position("AC 3C AH 4H 9D 6D", "2C 7S 8S 9S 10S 3D", "3C", "2C")
    rollout = BlindRollout(root)
    state = root.clone()
    plays = []
    for _ in range(3):
        plays.append(rollout.action(state))
        state.apply_action(plays[-1])
    assert plays[0] == code("AC") and plays[2] == code("AH")
    assert state.phase is Phase.PLAYING and BlindRollout(state).action(state) != code("AH")


def expert_views(dealer: str) -> list[View]:
    """The eldest's views at its bid and at its second lead, the dealer holding ``dealer``."""
    game = deal(Rules(players=2), 1, LEADER, dealer)
    views = [game.view(0)]
    act(game, "bid 2", "pass", "3C", "2C")
    views.append(game.view(0))
    return views


def test_the_blind_expert_sees_only_what_its_seat_sees() -> None:
    """The expert with blind rollouts decides the same at two deals its seat cannot tell apart,
    and the same again for the same seed."""
    first, second = (expert_views(dealer) for dealer in ("2C QC 7S 8S 9S 10S", "2C AC 7S 8S 9S 10S"))
    assert first == second
    for a, b in zip(first, second, strict=True):
        asks = [
            (bot.play(view) if view.phase is Phase.PLAYING else bot.bid(view))
            for bot, view in ((ExpertBot(3, budget_ms=None, playouts=60, blind=True), v) for v in (a, b, a))
        ]
        assert asks[0] == asks[1] == asks[2]
