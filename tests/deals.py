"""Helpers for tests that set up a hand: cards from text, a game from a set deal."""

from __future__ import annotations

from setback.engine import Card, Game, HandResult, HandScored, Rules, Setup, parse_action


def cards(text: str) -> tuple[Card, ...]:
    """``"AS 10H QD"`` as cards."""
    return tuple(Card.parse(word) for word in text.split())


def deal(
    rules: Rules, dealer: int, *hands: str, scores: tuple[int, ...] | None = None, seed: int = 0
) -> Game:
    """A game whose first hand is ``hands`` (one string of six cards a seat) dealt by ``dealer``."""
    return Game(rules, seed, Setup(tuple(cards(h) for h in hands), dealer, scores))


def act(game: Game, *moves: str) -> None:
    """Apply ``moves`` (``"pass"``, ``"bid 2"``, ``"AS"`` for ``play AS``) in turn."""
    for move in moves:
        text = move if move.split()[0] in {"pass", "bid", "play"} else f"play {move}"
        game.apply(parse_action(text))


def last_result(game: Game) -> HandResult:
    """The result of the latest hand scored."""
    results = [e.result for e in game.events if isinstance(e, HandScored)]
    assert results, "no hand has been scored"
    return results[-1]
