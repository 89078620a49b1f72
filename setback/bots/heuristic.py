"""``heuristic``: the seeds' strategy advice, as a bot (see :mod:`setback.bots.tactics`)."""

from __future__ import annotations

from setback.bots.base import Bot
from setback.bots.tactics import (
    PIPS,
    TRUMPS,
    bid_amount,
    choose_bid,
    follow_card,
    lead_card,
    likely_low,
    pitch_card,
    strength,
)
from setback.engine import ACTIONS, Action, BidMade, LowRule, View, mask_of


def partners_of(view: View, seat: int) -> int:
    """How many partners ``seat`` has at this table (0 in cutthroat)."""
    return len(view.rules.seats_of(view.rules.side_of(seat))) - 1


def unseen_by(view: View) -> int:
    """The cards of the table's deck the viewer has not seen this hand: not in its hand, not played."""
    seen = mask_of(view.hand)
    for trick in view.tricks:
        for play in trick.plays:
            seen |= 1 << play.card
    for play in view.trick:
        seen |= 1 << play.card
    return mask_of(view.rules.of_variant.deck) & ~seen


def low_to_capture(view: View, hand: int, trump: int, unseen: int) -> int:
    """With ``low`` captured: the card most likely the lowest trump in play, if it is in the
    viewer's hand or the trick (see :func:`setback.bots.tactics.likely_low`); else -1."""
    trick = 0
    for play in view.trick:
        trick |= 1 << play.card
    taken = 0
    for done in view.tricks:
        for play in done.plays:
            taken |= 1 << play.card
    others = sum(view.hand_sizes) - len(view.hand)
    return likely_low(hand, trump, unseen, trick, taken, others / max(unseen.bit_count(), 1))


class HeuristicBot(Bot):
    """Counts sure points to bid, pitches its highest trump, protects the jack (and every other
    point card of the variant), captures tens and point cards, and plays to its partner: for
    2-7 players, cutthroat or partnerships, every option and variant.

    With ``club`` (the default) it plays the club options as a club player would (see
    :mod:`setback.bots.tactics`); ``club=False`` plays them as if it did not know them,
    legally but as in today's game: the baseline its play under them is measured against.
    """

    name = "heuristic"

    def __init__(self, seed: int = 0, boldness: float = 0.0, club: bool = True) -> None:
        super().__init__(seed)
        self.boldness = boldness
        self.club = club

    def bid(self, view: View) -> Action:
        assert view.seat is not None
        rules = view.rules
        hand = mask_of(view.hand)
        amount = bid_amount(hand, rules.players, partners_of(view, view.seat), self.boldness, rules.variant)
        made = [b for b in view.bids if isinstance(b, BidMade)]
        high = made[-1].amount if made else 0
        partner_high = bool(made) and rules.side_of(made[-1].seat) == rules.side_of(view.seat)
        legal = tuple(a.code for a in view.legal)
        steals = self.club and rules.dealer_steal
        return ACTIONS[choose_bid(legal, amount, high, partner_high, steals, rules.smudge, rules.top_bid)]

    def play(self, view: View) -> Action:
        assert view.seat is not None
        rules = view.rules
        hand = mask_of(view.hand)
        legal = [a.code for a in view.legal]
        if len(legal) == 1:
            return view.legal[0]
        if view.trump is None:
            return ACTIONS[pitch_card(hand, rules.players, partners_of(view, view.seat), rules.variant)]
        t = TRUMPS[rules.variant][view.trump]
        unseen = unseen_by(view)
        captured = self.club and rules.low is LowRule.CAPTURED
        low = low_to_capture(view, hand, t.suit, unseen) if captured else -1
        if not view.trick:
            return ACTIONS[lead_card(hand, t, unseen, low)]
        led = view.trick[0].card
        best, winner = max((strength(p.card, t, led), p.seat) for p in view.trick)
        value = sum(PIPS[p.card] for p in view.trick)
        value += 10 * any(t.values[p.card] or p.card == low for p in view.trick)
        return ACTIONS[follow_card(
            legal, t, led, best,
            partner_winning=rules.side_of(winner) == rules.side_of(view.seat),
            last=len(view.trick) == rules.players - 1,
            trick_value=value,
            unseen=unseen,
            low=low,
        )]
