"""The rollouts' inner loop: the tactics' policy playing a sampled hand out, and the sampler's deal.

:class:`setback.bots.search.Rollout` and its kin are the bots' interface to a policy (a subclass
may change how a seat bids or plays); :class:`Policy` is the policy itself, played for every seat,
and :func:`deal_within_voids` deals a sample's hidden cards. Both are compiled with mypyc with
the engine (``setback/compiled.py``), which is where a search spends its time: they make the same
decisions and the same draws of the random generator, compiled or not.
"""

from __future__ import annotations

import math
import random

from setback.bots.tactics import PIPS, TRUMPS, Trumps, bid_amount, cards, choose_bid, follow_card, lead_card, pitch_card
from setback.engine import GameState, Phase


class Policy:
    """The cheap policy every seat follows when a sampled hand is played out; with ``club``, the
    dealer takes the steal as the tactics do. With ``memo``, each hand's bid and pitch are worked
    out once for the policy's life (they depend on the hand and the seat only)."""

    def __init__(self, state: GameState, club: bool = True, memo: bool = False) -> None:
        rules = state.rules
        self.players = rules.players
        self.side_of = state.side_of
        self.partners = tuple([len(rules.seats_of(rules.side_of(s))) - 1 for s in range(self.players)])
        self.steals = club and rules.dealer_steal
        self.smudge = rules.smudge
        self.top = rules.top_bid
        self.variant = rules.variant
        self.trumps = TRUMPS[rules.variant]
        self.memo = memo
        self.amounts: dict[tuple[int, int], int] = {}
        self.pitches: dict[tuple[int, int], int] = {}

    def action(self, state: GameState) -> int:
        """The action code the policy takes in ``state``."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seat = state.to_act
        hand = state.hands[seat]
        if state.phase is Phase.BIDDING:
            pitcher = state.pitcher
            partner_high = pitcher is not None and self.side_of[pitcher] == self.side_of[seat]
            amount = self.amount(hand, seat)
            return choose_bid(legal, amount, state.high_bid, partner_high, self.steals, self.smudge, self.top)
        trump = state.trump
        if trump is None:
            return self.pitch(hand, seat)
        t = self.trumps[trump]
        trick = state.trick
        hands = state.hands
        if not trick:
            others = 0
            for mask in hands:
                others |= mask
            return lead_card(hand, t, others & ~hand)
        after = 0
        nxt = state.next_seat
        other = nxt[seat]
        while other != state.leader:
            after |= hands[other]
            other = nxt[other]
        return self.follow(state, legal, t, seat, after)

    def follow(self, state: GameState, legal: tuple[int, ...], t: Trumps, seat: int, after: int) -> int:
        """The tactics' card for ``seat`` following to the trick in ``state``, ``after`` the cards
        the seats still to play to it may hold."""
        trick = state.trick
        values = t.values
        value = 0
        for card in trick:
            value += 10 if values[card] else PIPS[card]
        return follow_card(
            legal, t, trick[0], state.best, self.side_of[state.winner] == self.side_of[seat],
            len(trick) == self.players - 1, value, after,
        )

    def amount(self, hand: int, seat: int) -> int:
        """What ``seat`` bids holding ``hand``: the tactics' point count."""
        if not self.memo:
            return bid_amount(hand, self.players, self.partners[seat], 0.0, self.variant)
        key = (hand, seat)
        amount = self.amounts.get(key)
        if amount is None:
            amount = self.amounts[key] = bid_amount(hand, self.players, self.partners[seat], 0.0, self.variant)
        return amount

    def pitch(self, hand: int, seat: int) -> int:
        """The card ``seat`` pitches holding ``hand``: the tactics'."""
        if not self.memo:
            return pitch_card(hand, self.players, self.partners[seat], self.variant)
        key = (hand, seat)
        card = self.pitches.get(key)
        if card is None:
            card = self.pitches[key] = pitch_card(hand, self.players, self.partners[seat], self.variant)
        return card

    def play_out(self, state: GameState, hand: int) -> None:
        """Play the rest of hand number ``hand`` in ``state`` (to the game's end if it ends first)."""
        while state.hand_number == hand and state.phase is not Phase.GAME_OVER:
            state.apply_action(self.action(state))

    def finish(self, state: GameState, hand: int) -> list[int]:
        """Play the rest of hand number ``hand`` in ``state`` and return its actions."""
        plays = []
        while state.hand_number == hand and state.phase is not Phase.GAME_OVER:
            code = self.action(state)
            plays.append(code)
            state.apply_action(code)
        return plays


def deal_within_voids(
    rng: random.Random, seat: int, own: int, unknown: int, order: list[int], voids: list[int],
    sizes: tuple[int, ...] | list[int], tries: int = 20,
) -> list[int]:
    """Each seat's holding: ``seat``'s ``own``, the ``unknown`` cards dealt at random to the other
    seats (in ``order``, each as many as ``sizes`` says) outside the suits each has shown it is
    void in (``voids``), drawn again up to ``tries`` times, then dealt ignoring the voids."""
    for attempt in range(tries + 1):
        holdings = [0] * len(sizes)
        holdings[seat] = own
        left = unknown
        dealt = True
        for other in order:
            allowed = left if attempt == tries else left & ~voids[other]
            pool = cards(allowed)
            size = sizes[other]
            if len(pool) < size:
                dealt = False
                break
            mask = 0
            for card in sample(rng, pool, size):
                mask |= 1 << card
            holdings[other] = mask
            left &= ~mask
        if dealt:
            return holdings
    raise AssertionError("the cards left cannot fill the other hands")


def sample(rng: random.Random, population: list[int], k: int) -> list[int]:
    """``rng.sample(population, k)``: the same cards, drawn by the same calls of ``rng``
    (CPython 3.11's algorithm, spelled out to run compiled; a subclass of :class:`random.Random`
    is asked itself, as it may draw otherwise)."""
    if type(rng) is not random.Random:
        return rng.sample(population, k)
    n = len(population)
    if not 0 <= k <= n:
        raise ValueError("Sample larger than population or is negative")
    result = [0] * k
    setsize = 21
    if k > 5:
        setsize += 4 ** math.ceil(math.log(k * 3, 4))
    if n <= setsize:
        pool = list(population)
        for i in range(k):
            j = _below(rng, n - i)
            result[i] = pool[j]
            pool[j] = pool[n - i - 1]
    else:
        selected: set[int] = set()
        for i in range(k):
            j = _below(rng, n)
            while j in selected:
                j = _below(rng, n)
            selected.add(j)
            result[i] = population[j]
    return result


def _below(rng: random.Random, n: int) -> int:
    """``rng._randbelow(n)`` of :class:`random.Random`: a number in ``[0, n)`` from its bits."""
    bits = n.bit_length()
    r = rng.getrandbits(bits)
    while r >= n:
        r = rng.getrandbits(bits)
    return r
