"""Rollouts in which every seat plays by what it could know, not by the sample's hidden cards.

:class:`setback.bots.search.Rollout` hands the tactics' lead the exact union of the other
seats' sampled hands and a follow the exact cards of the seats still to play, so in every
play-out each seat plays as if it saw the others' cards of that sample (heads up it knows
whether the other seat holds a trump at all, where a player sees 6 of the 46 cards it cannot
see). :class:`BlindRollout` gives the same policy only a seat's own knowledge instead: the
cards of the table's deck not in its hand and not played this hand, less the suits a seat has
shown it holds no more of (it played neither the suit led nor trump), in the real hand before
the decision (``shown``) and in the play-out since.

A play-out's first decision reads the cards played so far from the state's masks (what each
seat was dealt less what it holds) and notes the searched seat's own card, applied before the
play-out began; then the played cards and the voids shown are noted as the play-out goes, each
decision noting the card before it (:meth:`BlindRollout.action` is asked for every action of a
play-out).
"""

from __future__ import annotations

from collections.abc import Sequence

from setback.bots.search import Rollout
from setback.bots.tactics import lead_card
from setback.engine import GameState, Phase, mask_of


class BlindRollout(Rollout):
    """The search's rollout policy with each seat's cards to come read from its own view (see the
    module docstring). ``state`` is a decision's first sample (only what every sample shares is
    read from it: the deciding seat, its hand, the trick) and ``shown`` each seat's voids shown
    before the decision (:func:`setback.bots.playout.voids`)."""

    plays_by_policy = False

    def __init__(self, state: GameState, club: bool = True, shown: Sequence[int] = ()) -> None:
        super().__init__(state, club)
        self.deck = mask_of(state.rules.of_variant.deck)
        self.shown = list(shown) or [0] * self.players
        self.seat = state.to_act
        self.hand = state.hands[self.seat]
        playing = state.phase is Phase.PLAYING and state.trump is not None
        self.follows = state.follow_mask if playing and state.trick else 0
        """The suit the deciding seat follows (its cards as a mask), 0 when it does not follow."""
        self.voids = list(self.shown)
        self.played = 0
        """The cards played this hand, in the play-out under way."""
        self.state: GameState | None = None
        self.last = -1
        """The seat whose card the next decision notes, -1 for none."""
        self.card = 0
        self.suit = 0

    def action(self, state: GameState) -> int:
        if state is not self.state:
            self.start(state)
        elif self.last >= 0 and not (self.suit | state.trump_mask) >> self.card & 1:
            self.voids[self.last] |= self.suit
        if state.phase is not Phase.PLAYING or state.trump is None:
            self.last = -1
            code = super().action(state)
            if state.phase is Phase.PLAYING:
                self.played |= 1 << code
            return code
        code = self.choose(state)
        if state.trick:
            self.last, self.card, self.suit = state.to_act, code, state.follow_mask
        else:
            self.last = -1
        self.played |= 1 << code
        return code

    def start(self, state: GameState) -> None:
        """Begin a play-out at ``state``: the voids shown before the decision, the deciding seat's
        own card noted, and the cards played so far."""
        self.state = state
        voids = self.voids
        voids[:] = self.shown
        self.last = -1
        if self.follows:
            card = (self.hand & ~state.hands[self.seat]).bit_length() - 1
            if card >= 0 and not (self.follows | state.trump_mask) >> card & 1:
                voids[self.seat] |= self.follows
        dealt = held = 0
        for mask in state.dealt:
            dealt |= mask
        for mask in state.hands:
            held |= mask
        self.played = dealt & ~held

    def choose(self, state: GameState) -> int:
        """The tactics' card (trump named), each seat's hidden cards those it could think the
        others hold."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seat = state.to_act
        hand = state.hands[seat]
        assert state.trump is not None
        t = self.trumps[state.trump]
        unseen = self.deck & ~hand & ~self.played
        voids = self.voids
        nxt = state.next_seat
        trick = state.trick
        if not trick:
            others = 0
            other = nxt[seat]
            while other != seat:
                others |= unseen & ~voids[other]
                other = nxt[other]
            return lead_card(hand, t, others)
        after = 0
        other = nxt[seat]
        while other != state.leader:
            after |= unseen & ~voids[other]
            other = nxt[other]
        return self.policy.follow(state, legal, t, seat, after)
