"""A seat's view of a hand in progress, turned back into a playable :class:`GameState`.

A view hides the other seats' cards; search code samples them (a determinization)
and continues the hand on the fast core. :func:`hand_actions` and :func:`played_by`
read what a view shows of the hand so far; :func:`state_from_view` builds the state, and
:class:`Positions` builds it for one view and many samples of its hidden cards.
"""

from __future__ import annotations

import _random
from collections.abc import Sequence

from setback.engine.actions import PASS_CODE
from setback.engine.deck import mask_of
from setback.engine.events import BidMade, Phase
from setback.engine.game import View
from setback.engine.state import GameState, trump_ends


def hand_actions(view: View) -> tuple[int, ...]:
    """The action codes taken so far in the view's hand: the bids in order, then every play in order."""
    bids = tuple(PASS_CODE + b.amount if isinstance(b, BidMade) else PASS_CODE for b in view.bids)
    plays = tuple(int(p.card) for trick in view.tricks for p in trick.plays)
    return bids + plays + tuple(int(p.card) for p in view.trick)


def played_by(view: View) -> tuple[int, ...]:
    """For each seat, the bit mask of the cards it has played in the view's hand."""
    masks = [0] * view.rules.players
    for trick in view.tricks:
        for play in trick.plays:
            masks[play.seat] |= 1 << play.card
    for play in view.trick:
        masks[play.seat] |= 1 << play.card
    return tuple(masks)


def state_from_view(view: View, holdings: Sequence[int], seed: int = 0) -> GameState:
    """The game at ``view``'s moment, with ``holdings[s]`` (a bit mask) the cards seat ``s`` holds now.

    ``holdings`` must give the viewer its own hand and every other seat as many cards as
    ``view.hand_sizes`` says (ValueError otherwise). With the true holdings the state is the
    real game's, up to later deals, which come from ``seed``. The scores a view shows during
    a hand are those before it (a hand changes them only when it is scored).
    """
    if view.phase is Phase.GAME_OVER:
        raise ValueError("the game is over")
    if len(holdings) != view.rules.players or any(
        h.bit_count() != n for h, n in zip(holdings, view.hand_sizes, strict=True)
    ):
        raise ValueError(f"holdings must give each seat its number of cards, {view.hand_sizes}")
    if view.seat is not None and mask_of(view.hand) != holdings[view.seat]:
        raise ValueError("holdings must give the viewer its own hand")
    played = played_by(view)
    dealt = [h | p for h, p in zip(holdings, played, strict=True)]
    return GameState.from_position(
        view.rules, dealt, view.dealer, hand_actions(view),
        scores=view.scores,
        hand_number=view.hand_number, seed=seed,
    )


class Positions:
    """:func:`state_from_view` for one view and many samples of its hidden cards: the view's hand
    is replayed once, for the first sample, and each later sample's state is a copy of that one
    given the sample's hands (the state :func:`state_from_view` builds, field for field, but that
    the states share one generator, seeded ``seed``, for the hands after this one: a search that
    plays past the hand gives each copy its own, as :meth:`GameState.clone` takes)."""

    def __init__(self, view: View, seed: int = 0) -> None:
        self.view = view
        self.seed = seed
        self.played = played_by(view)
        self.sizes = view.hand_sizes
        self.own = mask_of(view.hand) if view.seat is not None else -1
        self.seat = view.seat if view.seat is not None else -1
        self.captures: list[tuple[int, int]] = []
        """Each card of the hand's finished tricks and the seat that took it, trick by trick, in
        the order of the cards' codes (the order a state notes its scoring captures in)."""
        for trick in view.tricks:
            taken = sorted([int(p.card) for p in trick.plays])
            self.captures.extend([(card, trick.winner) for card in taken])
        self.first: GameState | None = None
        self.deals = _random.Random(seed)

    def state(self, holdings: Sequence[int]) -> GameState:
        """The game at the view's moment with ``holdings[s]`` the cards seat ``s`` holds now
        (ValueError when they do not fit the view, as :func:`state_from_view` says)."""
        first = self.first
        if first is None:
            first = self.first = state_from_view(self.view, holdings, self.seed)
            first.rng = self.deals
        elif len(holdings) != len(self.sizes) or any(
            h.bit_count() != n for h, n in zip(holdings, self.sizes, strict=True)
        ):
            raise ValueError(f"holdings must give each seat its number of cards, {self.sizes}")
        elif self.seat >= 0 and holdings[self.seat] != self.own:
            raise ValueError("holdings must give the viewer its own hand")
        state = first.clone(self.deals)
        state.hands = list(holdings)
        dealt = tuple([h | p for h, p in zip(holdings, self.played, strict=True)])
        state.dealt = dealt
        tables = state.trump_tables
        if tables is not None:
            state.high_card, state.low_card, watched = trump_ends(tables, dealt)
            state.watched = watched
            state.takers = {card: seat for card, seat in self.captures if watched >> card & 1}
        return state
