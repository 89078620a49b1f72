"""``beginner``: a new player's plan and a new player's mistakes, so a newcomer can win.

It plays by a plan anyone learns in their first evening: bid the high trumps you hold, pitch
your longest suit, lead your top trump to pull the others' trumps, win a trick as cheaply as
you can and throw your lowest card when you cannot. Now and then, by its seeded ``rng``, it
makes the slips a new player makes: it bids one more than its count, throws a point card into
a trick the other side wins, and spends its trump instead of holding it for Jack and Game.
``mistakes`` is the chance of each slip where one is possible (0 plays the plan alone).
"""

from __future__ import annotations

from setback.bots.base import Bot
from setback.bots.heuristic import partners_of
from setback.bots.tactics import PIPS, TRUMPS, Trumps, choose_bid, pitchable, strength, top_trump
from setback.engine import ACTIONS, Action, BidMade, View, mask_of
from setback.engine.variants import VARIANTS


def longest_suit(hand: int, variant_trumps: tuple[Trumps, ...]) -> int:
    """The suit the hand holds most trumps of once it is named (ties to the higher top card)."""
    def weight(suit: int) -> tuple[int, int]:
        t = variant_trumps[suit]
        mine = hand & t.members
        return mine.bit_count(), t.place[top_trump(mine, t)] if mine else 0
    return max((s for s in range(4) if pitchable(hand, s)), key=weight)


def high_trumps(hand: int, t: Trumps) -> int:
    """How many trumps of ``hand`` rank at or above the jack of trump: what a beginner counts to bid."""
    return sum(1 for c in t.order if hand >> c & 1 and t.place[c] >= t.place[t.jack])


class BeginnerBot(Bot):
    """Bids its high trumps, pitches its longest suit, pulls trumps with its top trump, wins
    cheaply and throws low, with a new player's slips at the rate ``mistakes`` (seeded)."""

    name = "beginner"

    def __init__(self, seed: int = 0, mistakes: float = 0.2) -> None:
        super().__init__(seed)
        self.mistakes = mistakes

    def slips(self) -> bool:
        """Whether this decision is one of the bot's mistakes."""
        return self.rng.random() < self.mistakes

    def bid(self, view: View) -> Action:
        assert view.seat is not None
        rules = view.rules
        hand = mask_of(view.hand)
        trumps = TRUMPS[rules.variant]
        t = trumps[longest_suit(hand, trumps)]
        count = high_trumps(hand, t) + ((hand & t.members).bit_count() >= 3)
        amount = count - 1 if count >= 2 else 0
        if amount and self.slips():
            amount += 1  # a new player's hope: one more than the hand can count
        top = VARIANTS[rules.variant].top_bid
        made = [b for b in view.bids if isinstance(b, BidMade)]
        high = made[-1].amount if made else 0
        partner_high = bool(made) and partners_of(view, view.seat) > 0 and (
            rules.side_of(made[-1].seat) == rules.side_of(view.seat))
        legal = tuple(a.code for a in view.legal)
        return ACTIONS[choose_bid(legal, min(amount, top), high, partner_high, smudge=rules.smudge, top=top)]

    def play(self, view: View) -> Action:
        assert view.seat is not None
        legal = [a.code for a in view.legal]
        if len(legal) == 1:
            return view.legal[0]
        trumps = TRUMPS[view.rules.variant]
        if view.trump is None:
            t = trumps[longest_suit(mask_of(view.hand), trumps)]
            pitches = [c for c in legal if t.place[c]] or legal
            return ACTIONS[max(pitches, key=lambda c: t.place[c])]
        t = trumps[view.trump]
        if not view.trick:
            return ACTIONS[self.lead(legal, t)]
        led = view.trick[0].card
        best, winner = max((strength(p.card, t, led), p.seat) for p in view.trick)
        partner_winning = view.rules.side_of(winner) == view.rules.side_of(view.seat)
        return ACTIONS[self.follow(legal, t, led, best, partner_winning)]

    def lead(self, legal: list[int], t: Trumps) -> int:
        """Its top trump to pull the others' (the jack too, when it slips), else its top side card."""
        mine = [c for c in legal if t.place[c]]
        kept = [c for c in mine if not t.values[c]]
        if mine and (kept or self.slips()):
            return max(kept or mine, key=lambda c: t.place[c])
        side = [c for c in legal if not t.place[c]] or legal
        return max(side, key=lambda c: t.key[c])

    def follow(self, legal: list[int], t: Trumps, led: int, best: int, partner_winning: bool) -> int:
        """The cheapest card that wins (any trump, even one it should hold, when it slips), else its
        lowest card (a point card into the other side's trick, when it slips)."""
        row = t.lead_strength[led]
        lowest = min(legal, key=lambda c: (t.values[c] > 0, PIPS[c], t.key[c]))
        if partner_winning:
            return lowest
        winners = [c for c in legal if row[c] > best]
        side_winners = [c for c in winners if not t.place[c]]
        if side_winners or (winners and (PIPS[led] or self.slips())):
            return min(side_winners or winners, key=lambda c: row[c])
        if self.slips():
            return max(legal, key=lambda c: (PIPS[c] + 10 * t.values[c], -t.key[c]))
        return lowest
