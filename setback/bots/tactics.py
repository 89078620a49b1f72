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
"""

from __future__ import annotations

from typing import Final

SUIT: Final = tuple(0x1FFF << (13 * s) for s in range(4))
"""Each suit's cards as a mask."""
ACE, KING, QUEEN, JACK, TEN = 12, 11, 10, 9, 8
"""Ranks as offsets within a suit (the 2 is 0)."""
PIPS: Final = tuple((0, 0, 0, 0, 0, 0, 0, 0, 10, 1, 2, 3, 4)[c % 13] if c < 52 else 0 for c in range(66))
"""What each card counts towards Game, by card code (the jokers, 63-65, count 0)."""
UNSEEN_AT_DEAL: Final = 46
"""Cards a seat cannot see once it has its six."""


def cards(mask: int) -> list[int]:
    """The card codes of ``mask``, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def none_dealt(specific: int, players: int) -> float:
    """The chance that none of ``specific`` unseen cards was dealt to the other seats."""
    dealt = 6 * (players - 1)
    chance = 1.0
    for i in range(specific):
        chance *= (UNSEEN_AT_DEAL - dealt - i) / (UNSEEN_AT_DEAL - i)
    return chance


def pitch_value(hand: int, trump: int, players: int, partners: int = 0) -> float:
    """The points the pitcher's side can expect with ``trump``: High, Low, Jack and Game.

    ``partners`` is the number of the pitcher's partners (0 in cutthroat). Low is counted as
    dealt also when it goes to its captor (``low`` captured): see the module's docstring.
    """
    trumps = (hand >> (13 * trump)) & 0x1FFF
    if not trumps:
        return 0.0
    top = trumps.bit_length() - 1
    low = (trumps & -trumps).bit_length() - 1
    length = trumps.bit_count()
    opponents = players - 1 - partners
    share = (1 + partners) / players
    high = none_dealt(ACE - top, opponents + 1) if partners else none_dealt(ACE - top, players)
    low_point = none_dealt(low, players) + (1 - none_dealt(low, players)) * partners / max(players - 1, 1)
    if trumps >> JACK & 1:
        guards = (trumps >> QUEEN).bit_count() + max(0, length - 2) * 0.5
        jack = min(0.95, 0.5 + 0.2 * guards + 0.1 * partners)
    else:
        dealt = 6 * (players - 1) / UNSEEN_AT_DEAL
        jack = dealt * min(0.5, 0.08 * length + 0.15 * (top > JACK)) * (1 + partners)
    tens = sum(1 for s in range(4) if hand >> (13 * s + TEN) & 1)
    game = min(0.9, share * (0.6 + 0.12 * length + 0.2 * (trumps >> TEN & 1) + 0.1 * tens))
    return high + low_point + jack + game


def best_trump(hand: int, players: int, partners: int = 0) -> tuple[int, float]:
    """The suit the hand would pitch and the points it expects there."""
    return max(((s, pitch_value(hand, s, players, partners)) for s in range(4)), key=lambda sv: sv[1])


def near_solid(hand: int, trump: int) -> bool:
    """A hand for a bid of 4: the ace, the jack and the ten of trump and at least two more trumps."""
    trumps = (hand >> (13 * trump)) & 0x1FFF
    return all(trumps >> r & 1 for r in (ACE, JACK, TEN)) and trumps.bit_count() >= 5


def bid_amount(hand: int, players: int, partners: int = 0, boldness: float = 0.0) -> int:
    """What the hand bids when it may (0: pass): 1 with 1-2 countable points, 2 with 2-3, and so on.

    ``boldness`` is added to the points counted (negative for a cautious bidder).
    """
    trump, value = best_trump(hand, players, partners)
    value += boldness
    if value >= 3.0 and near_solid(hand, trump):
        return 4
    if value >= 2.5:
        return 3
    if value >= 1.75:
        return 2
    return 1 if value >= 0.7 else 0


def choose_bid(
    legal: tuple[int, ...], amount: int, high_bid: int, partner_high: bool, steals: bool = False,
    smudge: bool = False,
) -> int:
    """The action code to take from ``legal`` (pass 52, bid n 52 + n) for a hand worth ``amount``.

    A hand outbids a partner only to bid 3 or more; a forced dealer bids the least it may.
    With ``steals``, a dealer offered the steal (the highest bid so far is legal) takes the bid
    at that amount when its hand is worth it, rather than bidding higher: the same points with
    less to make. Only a hand for 4 bids 4 with ``smudge``, where a made 4 wins the game.
    """
    if partner_high and amount < 3:
        amount = 0
    if steals and high_bid and high_bid <= amount and 52 + high_bid in legal:
        return 56 if smudge and amount == 4 and 56 in legal else 52 + high_bid
    if amount > high_bid and 52 + amount in legal:
        return 52 + amount
    return 52 if 52 in legal else legal[0]


def pitch_card(hand: int, players: int, partners: int = 0) -> int:
    """The pitcher's first lead: its highest trump in its best suit (below a lone-guarded jack)."""
    trump, _ = best_trump(hand, players, partners)
    mine = cards(hand & SUIT[trump])
    top = mine[-1]
    if top % 13 == JACK and len(mine) > 1:
        return mine[-2]
    return top


def lead_card(hand: int, trump: int, unseen: int, low: int = -1) -> int:
    """A lead after the first trick: the boss trump while others may hold trumps, else (once no
    trump is out) the low trump to be captured if the hand holds it, or a boss side card, else junk."""
    trumps = hand & SUIT[trump]
    out_trumps = unseen & SUIT[trump]
    if trumps and out_trumps and trumps.bit_length() > out_trumps.bit_length():
        return trumps.bit_length() - 1
    if not out_trumps and low >= 0 and hand >> low & 1:
        return low
    if not out_trumps:
        for suit in range(4):
            mine = hand & SUIT[suit]
            if suit != trump and mine and mine.bit_length() > (unseen & SUIT[suit]).bit_length():
                return mine.bit_length() - 1
    return min(cards(hand), key=lambda c: _junk_key(c, trump, low))


def _junk_key(card: int, trump: int, low: int = -1) -> tuple[int, int, int]:
    """Order to throw cards away: not the jack of trump (nor the low trump to be captured), few
    pips, trumps late, low first."""
    is_trump = card // 13 == trump
    rank = card % 13
    kept = (is_trump and rank == JACK) or card == low
    return (kept, PIPS[card] + 20 * (is_trump and rank >= TEN), rank + 13 * is_trump)


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


def strength(card: int, trump: int, led: int) -> int:
    """How strongly ``card`` wins a trick with this trump and suit led (higher wins, -1 cannot)."""
    suit = card // 13
    return 100 + card % 13 if suit == trump else card % 13 if suit == led else -1


def follow_card(
    legal: tuple[int, ...] | list[int],
    trump: int,
    led: int,
    best: int,
    partner_winning: bool,
    last: bool,
    trick_value: int,
    unseen: int,
    low: int = -1,
) -> int:
    """A card for a trick in progress whose winning card has strength ``best``.

    ``trick_value`` is the trick's pips (the jack of trump counts 10, and so does the ``low``
    trump to be captured); ``unseen`` the cards that may still be played after this seat.
    """
    out_trumps = unseen & SUIT[trump]
    if partner_winning:
        safe = last or (best >= 100 and best - 100 >= out_trumps.bit_length() - 13 * trump - 1)
        if safe:
            return max(legal, key=lambda c: (_gift(c, trump, low), -strength(c, trump, led)))
        return min(legal, key=lambda c: _junk_key(c, trump, low))
    winners = [c for c in legal if strength(c, trump, led) > best]
    if winners:
        jack = 13 * trump + JACK
        boss = [c for c in winners if c // 13 == trump and c >= out_trumps.bit_length() - 1]
        if last or not out_trumps or boss:
            pool = winners if last or not out_trumps else boss
            tens = [c for c in pool if c % 13 == TEN or c == jack]
            if tens:
                return tens[0]
            cheapest = min(pool, key=lambda c: strength(c, trump, led))
            if trick_value or cheapest // 13 != trump or cheapest % 13 < TEN:
                return cheapest
    return min(legal, key=lambda c: _junk_key(c, trump, low))


def _gift(card: int, trump: int, low: int = -1) -> int:
    """What a card adds to a partner's safe trick: the jack of trump, the low trump to be
    captured, then pips of side cards."""
    if card // 13 == trump:
        return 15 if card % 13 == JACK else 12 if card == low else 10 if card % 13 == TEN else -1
    return PIPS[card]
