"""The rollouts' inner loop: the tactics' policy playing a sampled hand out, and the sampler.

:class:`setback.bots.search.Rollout` and its kin are the bots' interface to a policy (a subclass
may change how a seat bids or plays); :class:`Policy` is the policy itself, played for every seat,
:class:`Sampler` deals a sample's hidden cards (by :func:`deal_within_voids`). Both are compiled with mypyc with
the engine (``setback/compiled.py``), which is where a search spends its time: they make the same
decisions and the same draws of the random generator, compiled or not.
"""

from __future__ import annotations

import math
import random

from setback.bots.tactics import PIPS, TRUMPS, Trumps, bid_amount, cards, choose_bid, follow_card, lead_card, pitch_card
from setback.engine import BidMade, GameState, Phase, View, mask_of, played_by, suit_cards, suit_of


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
        seat = state.to_act
        hand = state.hands[seat]
        if state.phase is Phase.PLAYING and not state.trick and not hand & (hand - 1):
            return hand.bit_length() - 1  # the only card to lead (any card may be led)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
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
    sizes: tuple[int, ...] | list[int], tries: int = 20, pools: dict[int, list[int]] | None = None,
) -> list[int]:
    """Each seat's holding: ``seat``'s ``own``, the ``unknown`` cards dealt at random to the other
    seats (in ``order``, each as many as ``sizes`` says) outside the suits each has shown it is
    void in (``voids``), drawn again up to ``tries`` times, then dealt ignoring the voids.
    ``pools``, when given, keeps each mask's list of cards for later calls (the same draws)."""
    for attempt in range(tries + 1):
        holdings = [0] * len(sizes)
        holdings[seat] = own
        left = unknown
        dealt = True
        for other in order:
            allowed = left if attempt == tries else left & ~voids[other]
            pool = pools.get(allowed) if pools is not None else None
            if pool is None:
                pool = cards(allowed)
                if pools is not None:
                    pools[allowed] = pool
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


def voids(view: View) -> list[int]:
    """For each seat, the mask of the suits it has shown it holds no more of (a suit's cards as
    the variant has them once trump is named: an off-card or a joker is trump's)."""
    out = [0] * view.rules.players
    trump = view.trump
    variant = view.rules.variant
    for trick in (*(t.plays for t in view.tricks), view.trick):
        if not trick or trump is None:
            continue
        led = suit_of(trick[0].card, trump, variant)
        for play in trick[1:]:
            if suit_of(play.card, trump, variant) not in (led, trump):
                out[play.seat] |= suit_cards(led, trump, variant)
    return out


def bids_to_explain(view: View) -> list[tuple[int, int]]:
    """The other seats' bids, as ``(seat, amount)``, that a sample should give them a hand for.

    A forced dealer's bid explains nothing: the dealer had to bid.
    """
    rules = view.rules
    out = []
    high = 0
    for bid in view.bids:
        if isinstance(bid, BidMade):
            forced = high == 0 and bid.seat == view.dealer and rules.forced_dealer_bid
            if bid.seat != view.seat and not forced:
                out.append((bid.seat, bid.amount))
            high = bid.amount
    return out


class Sampler:
    """Deals the cards a seat cannot see to the other seats at random, within what the seat knows.

    With ``infer_bids``, a sample is redrawn (a few times at most) until every other seat
    that bid was dealt a hand the tactics' point count would bid as much on.
    """

    def __init__(self, view: View, infer_bids: bool = True) -> None:
        assert view.seat is not None
        rules = view.rules
        self.seat = view.seat
        self.own = mask_of(view.hand)
        self.played = played_by(view)
        played = 0
        for mask in self.played:
            played |= mask
        self.unknown = mask_of(rules.of_variant.deck) & ~self.own & ~played
        self.sizes = view.hand_sizes
        self.voids = voids(view)
        others = [s for s in range(rules.players) if s != self.seat]
        self.order = sorted(others, key=lambda s: (self.unknown & ~self.voids[s]).bit_count())
        self.players = rules.players
        self.variant = rules.variant
        self.bids = [
            (seat, amount, len(rules.seats_of(rules.side_of(seat))) - 1)
            for seat, amount in (bids_to_explain(view) if infer_bids else [])
        ]
        self.pools: dict[int, list[int]] = {}
        """The cards of each mask a seat was dealt from, listed once (:func:`deal_within_voids`)."""

    def deal(self, rng: random.Random, tries: int = 8) -> list[int]:
        """Each seat's holding: the viewer's own, the others sampled (see the class docstring)."""
        holdings = self._deal_within_voids(rng)
        for _ in range(tries if self.bids else 0):
            if all(
                bid_amount(holdings[seat] | self.played[seat], self.players, partners, 0.0, self.variant) >= amount
                for seat, amount, partners in self.bids
            ):
                break
            holdings = self._deal_within_voids(rng)
        return holdings

    def _deal_within_voids(self, rng: random.Random, tries: int = 20) -> list[int]:
        """A sample that keeps every void shown (dropped only if no such sample is found)."""
        return deal_within_voids(
            rng, self.seat, self.own, self.unknown, self.order, self.voids, self.sizes, tries, self.pools,
        )


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
