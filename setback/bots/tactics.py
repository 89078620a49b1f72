"""The seeds' advice for bidding and play, on bit masks, shared by ``heuristic`` and ``search``.

Cards are codes 0-51 (``13 * suit + rank - 2``) and hands bit masks, as in the fast core,
so the same judgement serves a bot reading its :class:`~setback.engine.View` and a
search playing thousands of hands out on :class:`~setback.engine.GameState`.

Bidding counts the points a hand can expect as pitcher in its best suit (High and Low
by the chance that no other seat was dealt a higher or lower trump, Jack by holding
it and protecting it, Game by tens and trump length) and bids what it can count.
Play pitches the highest trump, draws trumps with the boss trump, protects the jack,
captures tens for Game, never overtrumps a partner who is winning and throws counters
to a partner's safe trick.

The club options (RULES.md, "Club options") change the judgement where a club player's
would: a dealer who may steal takes the bid at the highest bid so far rather than bidding
higher; with Low to its captor, the lowest trump in play (``low``, a card code; -1 when there
is none to fight for) is captured, given to a partner's safe trick and kept from the other
side's, like the jack. Bids count Low as dealt under either rule: counting it by the rate at
which the pitcher's side captures it (about its share of the seats, whatever its trumps)
bid less, and lost to today's count at a four-player cutthroat table (23% of the games
against 27%, 800 duplicate games), where the bolder bidder wins; it did no better elsewhere.

Every variant (RULES.md, "Variants") is judged through its :class:`Trumps`: which cards are
trump once it is named (the off-card and the jokers too), how they rank, and what capturing
each scores. Bidding adds to High, Low, Jack and Game the variant's other card points (the
joker, the off-jack, the big and little joker, the three of trump, the five and the off-five),
each by the chance the pitcher's side captures it: a high one held is kept like the jack, a
low one held is captured under the side's winning trump, and one not held is drawn out by
leading the boss trump. Play keeps every point card from the other side's tricks, gives it
to a partner's safe trick and captures it, as it does the jack. In the standard game the
judgement is the seeds' as above, number for number.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from setback.engine.tables import TABLES, TrumpTables
from setback.engine.variants import VARIANTS, Variant

SUIT: Final = tuple(0x1FFF << (13 * s) for s in range(4))
"""Each suit's printed cards as a mask."""
ACE, KING, QUEEN, JACK, TEN = 12, 11, 10, 9, 8
"""Ranks as offsets within a suit (the 2 is 0)."""
PIPS: Final = tuple((0, 0, 0, 0, 0, 0, 0, 0, 10, 1, 2, 3, 4)[c % 13] if c < 52 else 0 for c in range(66))
"""What each card counts towards Game, by card code (the jokers, 63-65, count 0)."""
UNSEEN_AT_DEAL: Final = 46
"""Cards a seat cannot see once it has its six, in the standard game's deck."""
SPADES: Final = 3
"""The suit a pitched joker makes trump."""


@dataclass(frozen=True, slots=True)
class Trumps:
    """One variant's trump suit once ``suit`` is named, as the tactics judge it.

    ``members`` are its cards (the printed suit, the off-card, the jokers), ``extras`` those
    printed elsewhere or nowhere. ``lead_strength[led][card]`` is how strongly ``card`` wins a
    trick led by the card ``led`` (the engine's own scale: above 100 a trump, -1 never wins);
    ``place[card]`` is a trump's place in the suit (1 the lowest, 0 not a trump) and ``key`` an
    order of every card for throwing away (side cards by rank, then trumps by place).
    ``values[card]`` are the points capturing it scores (the jack 1; the variant's others),
    ``ten_place`` the place of the ten of trump: a trump at or above it is a high trump.
    ``order`` are the members high to low, ``deck`` the variant's number of cards.
    """

    suit: int
    members: int
    extras: int
    suit_masks: tuple[int, ...]  # (four; of any length: see tables.SHIFT)
    lead_strength: tuple[tuple[int, ...], ...]
    place: tuple[int, ...]
    key: tuple[int, ...]
    values: tuple[int, ...]
    ten_place: int
    order: tuple[int, ...]
    deck: int
    jack: int
    others: tuple[tuple[int, int], ...]
    """The card points other than the jack: ``(card, value)``."""


def _trumps(tables: TrumpTables, deck: int) -> Trumps:
    suit = tables.trump
    strength = tables.lead_strength[13 * suit]  # any trump led: every member's rank shows
    order = tuple(sorted((c for c in range(len(strength)) if tables.members >> c & 1), key=lambda c: -strength[c]))
    place = [0] * len(strength)
    for i, card in enumerate(order):
        place[card] = len(order) - i
    values = [0] * len(strength)
    for _, value, card in tables.point_cards:
        values[card] = value
    jack = 13 * suit + JACK
    return Trumps(
        suit=suit, members=tables.members, extras=tables.extras, suit_masks=tables.suit_masks,
        lead_strength=tables.lead_strength, place=tuple(place),
        key=tuple(12 + place[c] if place[c] else c % 13 for c in range(len(strength))),
        values=tuple(values), ten_place=place[13 * suit + TEN], order=order, deck=deck, jack=jack,
        others=tuple((card, value) for _, value, card in tables.point_cards if card != jack),
    )


TRUMPS: Final = {
    variant: tuple(_trumps(t, len(tables.deck)) for t in tables.by_trump) for variant, tables in TABLES.items()
}
"""``TRUMPS[variant][suit]``: each variant's :class:`Trumps` for each suit named trump."""


def cards(mask: int) -> list[int]:
    """The card codes of ``mask``, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def top_trump(mask: int, t: Trumps) -> int:
    """The highest trump of ``mask`` (a card code), or -1 when it holds none."""
    printed = mask & SUIT[t.suit]
    best = printed.bit_length() - 1
    extra = mask & t.extras
    while extra:
        low = extra & -extra
        card = low.bit_length() - 1
        if best < 0 or t.place[card] > t.place[best]:
            best = card
        extra ^= low
    return best


def none_dealt(specific: int, players: int, unseen: int = UNSEEN_AT_DEAL) -> float:
    """The chance that none of ``specific`` cards of the ``unseen`` was dealt to the other seats."""
    dealt = 6 * (players - 1)
    chance = 1.0
    for i in range(specific):
        chance *= (unseen - dealt - i) / (unseen - i)
    return chance


def pitch_value(hand: int, t: Trumps, players: int, partners: int = 0) -> float:
    """The points the pitcher's side can expect with ``t``'s suit trump: High, Low, Jack, Game and
    the variant's other card points.

    ``partners`` is the number of the pitcher's partners (0 in cutthroat). Low is counted as
    dealt also when it goes to its captor (``low`` captured): see the module's docstring.
    """
    held = hand & t.members
    if not held:
        return 0.0
    trumps = (hand >> (13 * t.suit)) & 0x1FFF
    unseen = t.deck - 6
    top = trumps.bit_length() - 1
    length = held.bit_count()
    opponents = players - 1 - partners
    share = (1 + partners) / players
    high = low_point = 0.0
    if trumps:
        low = (trumps & -trumps).bit_length() - 1
        high = none_dealt(ACE - top, opponents + 1, unseen) if partners else none_dealt(ACE - top, players, unseen)
        out = none_dealt(low, players, unseen)
        low_point = out + (1 - out) * partners / max(players - 1, 1)
    dealt = 6 * (players - 1) / unseen
    if trumps >> JACK & 1:
        guards = (trumps >> QUEEN).bit_count() + max(0, length - 2) * 0.5
        jack = min(0.95, 0.5 + 0.2 * guards + 0.1 * partners)
    else:
        jack = dealt * min(0.5, 0.08 * length + 0.15 * (top > JACK)) * (1 + partners)
    tens = 0
    for suit in range(4):
        tens += hand >> (13 * suit + TEN) & 1
    game = min(0.9, share * (0.6 + 0.12 * length + 0.2 * (trumps >> TEN & 1) + 0.1 * tens))
    return high + low_point + jack + game + (_card_points(hand, t, length, partners, dealt) if t.others else 0.0)


def _card_points(hand: int, t: Trumps, length: int, partners: int, dealt: float) -> float:
    """What the variant's card points other than the jack are worth to the pitcher's side."""
    order = t.order
    place = t.place
    bosses = 0
    for card in order[:3]:
        bosses += hand >> card & 1
    total = 0.0
    for card, value in t.others:
        if hand >> card & 1:
            above = 0
            for c in order:
                if place[c] > place[card]:
                    above += hand >> c & 1
            if t.place[card] >= t.ten_place:  # kept like the jack, behind the trumps above it
                chance = min(0.95, 0.5 + 0.2 * above + 0.1 * max(0, length - 2) + 0.1 * partners)
            else:  # played under a trump of the side that wins the trick
                chance = min(0.9, 0.3 + 0.15 * bosses + 0.06 * length + 0.15 * partners)
        else:  # drawn out by the boss trump, or given by a partner
            chance = dealt * min(0.5, 0.08 * length + 0.12 * bosses) * (1 + partners)
        total += value * chance
    return total


def pitchable(hand: int, suit: int) -> int:
    """The cards of ``hand`` whose pitch makes ``suit`` trump: its printed cards (a joker for spades)."""
    return hand & SUIT[suit] | (hand >> 63 << 63 if suit == SPADES else 0)


_PITCH_VALUES: Final[dict[int, float]] = {}
""":func:`pitch_value` of a trump suit with no extras, by the suit's cards, the hand's tens, the
players, the partners and the deck's size (all it depends on there), as :func:`best_trump` met it."""


def best_trump(hand: int, players: int, partners: int = 0, variant: Variant = Variant.STANDARD) -> tuple[int, float]:
    """The suit the hand would pitch (one it holds a card to pitch for) and the points it expects there."""
    trumps = TRUMPS[variant]
    best = -1
    most = 0.0
    tens = -1
    for suit in range(4):
        if pitchable(hand, suit):
            t = trumps[suit]
            if t.extras or t.others:
                value = pitch_value(hand, t, players, partners)
            else:  # the printed suit alone: the value is its trumps', the tens' and the table's
                if tens < 0:
                    tens = 0
                    for s in range(4):
                        tens += hand >> (13 * s + TEN) & 1
                key = (hand >> (13 * suit) & 0x1FFF) | tens << 13 | players << 16 | partners << 20 | t.deck << 24
                known = _PITCH_VALUES.get(key)
                if known is None:
                    known = _PITCH_VALUES[key] = pitch_value(hand, t, players, partners)
                value = known
            if best < 0 or value > most:
                best, most = suit, value
    if best < 0:
        raise ValueError("a hand with no card to pitch has no best trump")
    return best, most


def near_solid(hand: int, trump: int) -> bool:
    """A hand for a bid of 4: the ace, the jack and the ten of trump and at least two more trumps."""
    trumps = (hand >> (13 * trump)) & 0x1FFF
    return bool(trumps >> ACE & 1 and trumps >> JACK & 1 and trumps >> TEN & 1) and trumps.bit_count() >= 5


def bid_amount(
    hand: int, players: int, partners: int = 0, boldness: float = 0.0, variant: Variant = Variant.STANDARD,
) -> int:
    """What the hand bids when it may (0: pass): 1 with 1-2 countable points, 2 with 2-3, and so on.

    ``boldness`` is added to the points counted (negative for a cautious bidder). In a variant
    a hand bids the points it counts (rounded up from three tenths below), up to the top bid
    only when it counts nearly all of it.
    """
    trump, value = best_trump(hand, players, partners, variant)
    value += boldness
    if variant is Variant.STANDARD:
        if value >= 3.0 and near_solid(hand, trump):
            return 4
        if value >= 2.5:
            return 3
        if value >= 1.75:
            return 2
        return 1 if value >= 0.7 else 0
    top = VARIANTS[variant].top_bid
    amount = min(top - 1, int(value + 0.3)) if value < top - 0.2 else top
    return amount if value >= 0.7 else 0


def choose_bid(
    legal: tuple[int, ...], amount: int, high_bid: int, partner_high: bool, steals: bool = False,
    smudge: bool = False, top: int = 4,
) -> int:
    """The action code to take from ``legal`` (pass 52, bid n 52 + n) for a hand worth ``amount``.

    A hand outbids a partner only to bid three quarters of the ``top`` bid or more (3 of 4); a
    forced dealer bids the least it may. With ``steals``, a dealer offered the steal (the highest
    bid so far is legal) takes the bid at that amount when its hand is worth it, rather than
    bidding higher: the same points with less to make. Only a hand for the top bid bids it with
    ``smudge``, where a made top bid wins the game.
    """
    if partner_high and amount < (3 * top + 3) // 4:
        amount = 0
    if steals and high_bid and high_bid <= amount and 52 + high_bid in legal:
        return 52 + top if smudge and amount == top and 52 + top in legal else 52 + high_bid
    if amount > high_bid and 52 + amount in legal:
        return 52 + amount
    return 52 if 52 in legal else legal[0]


def pitch_card(hand: int, players: int, partners: int = 0, variant: Variant = Variant.STANDARD) -> int:
    """The pitcher's first lead: its highest printed trump in its best suit (below a point card,
    such as the jack, that has another trump to guard it; a joker when it has no spade)."""
    trump, _ = best_trump(hand, players, partners, variant)
    mine = cards(pitchable(hand, trump))
    t = TRUMPS[variant][trump]
    mine.sort(key=lambda c: t.place[c])
    top = mine[-1]
    if t.values[top] and len(mine) > 1:
        return mine[-2]
    return top


def lead_card(hand: int, t: Trumps, unseen: int, low: int = -1) -> int:
    """A lead after the first trick: the boss trump while others may hold trumps, else (once no
    trump is out) the low trump to be captured if the hand holds it, or a boss side card, else junk."""
    trumps = hand & t.members
    out_trumps = unseen & t.members
    if trumps and out_trumps:
        mine = top_trump(trumps, t)
        if t.place[mine] > t.place[top_trump(out_trumps, t)]:
            return mine
    if not out_trumps and low >= 0 and hand >> low & 1:
        return low
    if not out_trumps:
        for suit in range(4):
            mine = hand & t.suit_masks[suit]
            if suit != t.suit and mine and mine.bit_length() > (unseen & t.suit_masks[suit]).bit_length():
                return mine.bit_length() - 1
    return junk(cards(hand), t, low)


def junk(pool: tuple[int, ...] | list[int], t: Trumps, low: int = -1) -> int:
    """The first card of ``pool`` to throw away (the least by :func:`_junk_key`)."""
    best = -1
    least = 0
    for card in pool:
        key = _junk_key(card, t, low)
        if best < 0 or key < least:
            best, least = card, key
    if best < 0:
        raise ValueError("no card to throw away")
    return best


def _junk_key(card: int, t: Trumps, low: int = -1) -> int:
    """Order to throw cards away: not a point card of trump such as the jack (nor the low trump to
    be captured), few pips, trumps late, low first (one number, compared as those three in turn:
    pips are below 100, and so is a card's :attr:`Trumps.key`)."""
    kept = 1 if t.values[card] or card == low else 0
    pips = PIPS[card] + (20 if t.place[card] >= t.ten_place else 0)
    return 10000 * kept + 100 * pips + t.key[card]


def likely_low(hand: int, trump: int, unseen: int, trick: int, taken: int, in_play: float) -> int:
    """With Low to its captor: the card, in ``hand`` or in the ``trick``, that is most likely the
    lowest trump in play, or -1 when Low is taken already or is likely an unseen card.

    ``taken`` are the cards of the hand's finished tricks; ``in_play`` is the chance that an
    unseen card was dealt (not left in the undealt stock). A known trump is the low when no
    unseen trump below it was dealt: it is named when that chance is at least one half.
    """
    suit = SUIT[trump]
    open_ = (hand | trick | unseen) & suit
    fallen = taken & suit
    if fallen:
        open_ &= (fallen & -fallen) - 1  # only a trump below every one taken can still be the low
    chance = 1.0
    while open_:
        card = (open_ & -open_).bit_length() - 1
        if not unseen >> card & 1:
            return card
        chance *= 1.0 - in_play
        if chance < 0.5:
            return -1
        open_ &= open_ - 1
    return -1


def strength(card: int, t: Trumps, led: int) -> int:
    """How strongly ``card`` wins a trick led by the card ``led`` (higher wins, -1 cannot)."""
    return t.lead_strength[led][card]


def follow_card(
    legal: tuple[int, ...] | list[int],
    t: Trumps,
    led: int,
    best: int,
    partner_winning: bool,
    last: bool,
    trick_value: int,
    unseen: int,
    low: int = -1,
) -> int:
    """A card for a trick led by the card ``led`` whose winning card has strength ``best``.

    ``trick_value`` is the trick's pips (a point card of trump such as the jack counts 10, and so
    does the ``low`` trump to be captured); ``unseen`` the cards that may still be played after
    this seat.
    """
    row = t.lead_strength[led]
    out_trumps = unseen & t.members
    out_top = t.place[top_trump(out_trumps, t)] if out_trumps else 0
    if partner_winning:
        safe = last or (best >= 100 and best - 100 >= out_top)
        if safe:
            best_gift = -1
            gift = weakest = 0
            for card in legal:  # the greatest gift, the weakest card of those
                value = _gift(card, t, low)
                if best_gift < 0 or value > gift or (value == gift and row[card] < weakest):
                    best_gift, gift, weakest = card, value, row[card]
            return best_gift
        return junk(legal, t, low)
    winners = [c for c in legal if row[c] > best]
    if winners:
        boss = [c for c in winners if t.place[c] > out_top]
        if last or not out_trumps or boss:
            pool = winners if last or not out_trumps else boss
            scoring = [c for c in pool if (c < 52 and c % 13 == TEN) or t.values[c]]
            if scoring:
                return scoring[0]
            cheapest = pool[0]
            for card in pool:
                if row[card] < row[cheapest]:
                    cheapest = card
            if trick_value or t.place[cheapest] < t.ten_place:
                return cheapest
    return junk(legal, t, low)


def _gift(card: int, t: Trumps, low: int = -1) -> int:
    """What a card adds to a partner's safe trick: a point card of trump (the jack; in pedro the
    fives first), the low trump to be captured, then pips of side cards."""
    if t.place[card]:
        value = t.values[card]
        if value:
            return 14 + value
        return 12 if card == low else 10 if card == 13 * t.suit + TEN else -1
    return PIPS[card]
