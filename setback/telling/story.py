"""What happened at a table, in words: the lines of the client's log and hand summaries.

A :data:`Line` is a tuple of plain text and :class:`~setback.engine.Card` values, so the
screen can draw each card with its suit symbol and colour (see :mod:`setback.client.render`)
while the words stay plain. Nothing here draws, sends or keeps anything.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from setback.engine import DEFAULT_HAND_LIMIT, VARIANTS, Card, Point, Suit
from setback.protocol.messages import (
    BidEvent,
    CardPlayedEvent,
    CardsDrawnEvent,
    Clock,
    DealerChosenEvent,
    GameWonEvent,
    HandDealtEvent,
    HandScoredEvent,
    PassedEvent,
    PitcherChosenEvent,
    SeatCard,
    ThrownInEvent,
    TimedOutEvent,
    TrickWonEvent,
    TrumpPitchedEvent,
    TurnEvent,
    WireAward,
    WireEvent,
    WireHandResult,
    WireOutcome,
    WireRules,
    WireView,
)

Line = tuple[str | Card, ...]
"""Words and cards, in reading order."""

SUIT_NAMES = {Suit.CLUBS: "clubs", Suit.DIAMONDS: "diamonds", Suit.HEARTS: "hearts", Suit.SPADES: "spades"}

REASONS = {
    "smudge": "a made bid of 4 (smudge)",
    "smudge_failed": "the other side's failed bid of 4",
    "pitcher_reached_target": "the pitcher's side reached the target",
    "highest_score": "the highest score at or over the target",
    "hand_limit": "the highest score at the hand limit",
}


JOKER_GLYPH = "\N{PLAYING CARD BLACK JOKER}"
"""A joker's mark in place of a suit symbol, 🃏 (DejaVu Sans, Debian's default font, has it; a
terminal gives it two cells): not ★, which marks the card winning a trick."""

JOKER_LABELS = {"JK": JOKER_GLYPH, "BJ": f"B{JOKER_GLYPH}", "LJ": f"L{JOKER_GLYPH}"}
"""Each joker's glyph form: the one joker ``🃏``; the big and little ones ``B🃏`` and ``L🃏``."""

VARIANT_NAMES = {"standard": "Standard", "joker": "Joker", "ten_point": "Ten-point", "pedro": "Pedro"}
"""Each variant (the wire's spelling) as people name it."""


def card_label(card: Card, ascii: bool = False) -> str:
    """``10♥``, or ``10H`` with ``ascii``; a joker ``🃏``, ``B🃏`` or ``L🃏``, or with ``ascii`` its
    text form, ``JK``, ``BJ`` or ``LJ``."""
    text = str(card)
    if ascii:
        return text
    return JOKER_LABELS[text] if card.is_joker else text[:-1] + card.suit.symbol


def variant_text(rules: WireRules, brief: bool = False) -> str:
    """The variant played and its points in play, in the order results list them:
    ``Ten-point: High Low Jack Off-jack Big joker Little joker Three Game``; ``brief``: only how
    many (``Ten-point: 10 points``)."""
    variant = rules.game()
    if brief:
        return f"{VARIANT_NAMES[variant.value]}: {VARIANTS[variant].most_points} points"
    points = " ".join(p.words for p in VARIANTS[variant].points_named)
    return f"{VARIANT_NAMES[variant.value]}: {points}"


def side_of(rules: WireRules, seat: int) -> int:
    """The side ``seat`` scores for (spec.md section 3)."""
    return seat if rules.teams is None else seat % rules.teams


def sides(rules: WireRules) -> int:
    return rules.players if rules.teams is None else rules.teams


def seats_of(rules: WireRules, side: int) -> list[int]:
    return [s for s in range(rules.players) if side_of(rules, s) == side]


def side_name(rules: WireRules, side: int, names: Sequence[str]) -> str:
    """The names of the seats on ``side``, joined with ``&``."""
    return " & ".join(names[s] for s in seats_of(rules, side))


def rules_text(rules: WireRules, brief: bool = False, usual_limit: bool = True) -> str:
    """The table's options in a few words: ``4 players · 2 teams · to 11 · smudge``; ``brief``
    leaves out what the seats already show (``2 teams · to 11 · smudge``), and without
    ``usual_limit`` the hand limit is named only when it is not the default."""
    words = [] if brief else [f"{rules.players} players"]
    if rules.variant is not msgspec.UNSET and rules.variant != "standard":
        words.insert(0, rules.variant.replace("_", "-"))
    if rules.teams or not brief:
        words.append(f"{rules.teams} teams" if rules.teams else "cutthroat")
    words.append(f"to {rules.points_to_win()}")
    if not rules.forced_dealer_bid:
        words.append("dealer may pass")
    if rules.smudge:
        words.append("smudge")
    if rules.no_junk:
        words.append("no junk")
    if rules.min_bid == 2:
        words.append("bids from 2")
    if rules.dealer_steal is True:
        words.append("dealer may steal")
    if rules.low == "captured":
        words.append("low captured")
    if rules.hand_limit is None:
        words.append("no hand limit")
    elif (usual_limit and not brief) or rules.hand_limit != DEFAULT_HAND_LIMIT:  # announced in the long form
        words.append(f"{rules.hand_limit} hands at most")
    return " · ".join(words)


def clock_text(clock: Clock) -> str:
    seconds = clock.decision_seconds
    return "no clock" if seconds is None else f"{seconds:g} s a move"


def plays_line(plays: Sequence[SeatCard], names: Sequence[str]) -> Line:
    """``ann 10♥ · bob J♥``: who laid which card, in order."""
    line: list[str | Card] = []
    for i, play in enumerate(plays):
        line += [" · " if i else "", f"{names[play.seat]} ", Card.parse(play.card)]
    return tuple(x for x in line if x != "")


def event_lines(event: WireEvent, rules: WireRules, names: Sequence[str], high_bid: int = 0) -> list[Line]:
    """The log's lines for one event (none for a single card played: tricks are told whole);
    ``high_bid`` is the highest bid of the hand before this event, so that a dealer's bid equal
    to it is told as the steal it is."""
    match event:
        case CardsDrawnEvent(draws=draws):
            return [("Draw for the deal: ", *plays_line(draws, names))]
        case DealerChosenEvent(dealer=dealer):
            return [(f"{names[dealer]} deals first.",)]
        case HandDealtEvent(hand_number=number, dealer=dealer):
            return [(f"Hand {number}: {names[dealer]} deals.",)]
        case PassedEvent(seat=seat):
            return [(f"{names[seat]} passes.",)]
        case BidEvent(seat=seat, amount=amount):
            if amount == high_bid:
                return [(f"{names[seat]}, the dealer, takes the bid at {amount}.",)]
            return [(f"{names[seat]} bids {amount}.",)]
        case ThrownInEvent(hand_number=number):
            return [(f"Everyone passed: hand {number} is thrown in.",)]
        case PitcherChosenEvent(pitcher=pitcher, bid=bid):
            return [(f"{names[pitcher]} pitches for {bid}.",)]
        case TrumpPitchedEvent(seat=seat, trump=trump):
            suit = Suit.parse(trump)
            return [(f"Trump is {SUIT_NAMES[suit]} ({suit.letter}), led by {names[seat]}.",)]
        case CardPlayedEvent():
            return []
        case TrickWonEvent(number=number, winner=winner, plays=plays):
            return [(f"Trick {number}: ", *plays_line(plays, names), f" → {names[winner]}")]
        case HandScoredEvent(result=result):
            return result_lines(result, rules, names)
        case GameWonEvent(outcome=outcome):
            return [outcome_line(outcome, rules, names)]
        case TimedOutEvent(seat=seat, action=action):
            return [(f"Time ran out for {names[seat]}: the server played ", *action_words(action), " for them.")]
        case TurnEvent():
            return []


def hands_so_far(results: Sequence[WireHandResult], rules: WireRules, names: Sequence[str]) -> list[Line]:
    """The game's hands so far, two lines each (whether the bid was made, the scores after):
    the log's recollection of what was played before this client came back."""
    lines: list[Line] = []
    for result in results:
        verdict, *_, totals = result_lines(result, rules, names)
        lines += [verdict, totals]
    return lines


def hand_so_far(view: WireView, names: Sequence[str]) -> list[Line]:
    """The hand in play told as the log tells it live, from a view: the deal, the bids, the
    pitcher and trump, and each finished trick with its winner (the trick in play is on the
    table); once the game is over, who won it."""
    rules = view.rules
    if view.outcome is not None:
        return [outcome_line(view.outcome, rules, names)]
    if not view.hand_number:
        return []
    players = rules.players
    events: list[WireEvent] = [HandDealtEvent(
        hand_number=view.hand_number, dealer=view.dealer, pone=(view.dealer - 1) % players, cut=0, cards=[],
    )]
    events += [PassedEvent(seat=b.seat) if b.bid is None else BidEvent(seat=b.seat, amount=b.bid) for b in view.bids]
    if view.pitcher is not None and view.bid is not None:
        events.append(PitcherChosenEvent(pitcher=view.pitcher, bid=view.bid))
    if view.trump is not None and view.pitcher is not None:
        events.append(TrumpPitchedEvent(seat=view.pitcher, trump=view.trump))
    for trick in view.tricks:
        plays = [SeatCard((trick.leader + i) % players, card) for i, card in enumerate(trick.cards)]
        events.append(TrickWonEvent(number=trick.number, winner=trick.winner, plays=plays))
    return [line for event in events for line in event_lines(event, rules, names)]


def action_words(action: str) -> Line:
    """An action's text form for people: ``pass``, ``bid 2``, or the card itself."""
    verb, _, rest = action.partition(" ")
    return (Card.parse(rest),) if verb == "play" else (action,)


def result_lines(
    result: WireHandResult, rules: WireRules, names: Sequence[str], scores: bool = True
) -> list[Line]:
    """A hand's summary: the bid (or the dealer's steal) made or set back, High, Low (its captor
    with ``low`` captured), Jack, Game with the pips, and (with ``scores``) the scores."""
    pitcher = names[result.pitcher]
    how = f", the dealer, took the bid at {result.bid}" if result.stolen else f" bid {result.bid}"
    if result.set_back:
        verdict = f"Hand {result.hand_number}: {pitcher}{how} and was SET BACK {result.bid}."
    else:
        verdict = f"Hand {result.hand_number}: {pitcher}{how} and made it."
    jack = names[result.jack] if result.jack is not None else "not dealt"
    game = side_name(rules, result.game, names) if result.game is not None else "nobody"
    pips = " · ".join(
        f"{side_name(rules, side, names)} {pips}" for side, pips in enumerate(result.game_pips)
    )
    totals = " · ".join(
        f"{side_name(rules, side, names)} {score} ({delta:+d})"
        for side, (score, delta) in enumerate(zip(result.scores, result.deltas, strict=True))
    )
    return [
        (verdict,),
        high_low_words(result, rules, names),
        (f"Jack: {jack}   Game: {game}",),
        *([(f"Points: {more}",)] if (more := more_points(result, names)) else []),
        (f"Game pips: {pips}",),
        *([(f"Score: {totals}",)] if scores else []),
    ]


def more_points(result: WireHandResult, names: Sequence[str]) -> str:
    """The points a variant adds to High, Low, Jack and Game, each with who took it:
    ``Off-jack ann · Three (3) bob``; empty in the standard game."""
    return " · ".join(
        award_words(a, names) for a in result.awards if a.point not in BASIC_POINTS and a.seat is not None
    )


def points_won(result: WireHandResult, rules: WireRules, names: Sequence[str]) -> str:
    """Every point the hand gave, by name and with who took it, in the order of the result's
    ``awards``: ``High ann · Low bob · Jack ann · Off-jack ann · Three (3) bob · Game ann & cy``;
    empty for a result from a peer before 1.4 (which sends no awards)."""
    return " · ".join(award_words(a, names, rules) for a in result.awards)


def award_words(award: WireAward, names: Sequence[str], rules: WireRules | None = None) -> str:
    """``Three (3) bob``: a point, its value when more than 1, and the seat that took it (or,
    for Game with ``rules`` given, the side)."""
    value = f" ({award.value})" if award.value > 1 else ""
    if award.seat is not None:
        who = names[award.seat]
    else:
        who = side_name(rules, award.side, names) if rules is not None else ""
    return f"{Point(award.point).words}{value} {who}".rstrip()


BASIC_POINTS = frozenset({"high", "low", "jack", "game"})
"""The points every variant has, which the summary names on their own lines."""


def high_low_words(result: WireHandResult, rules: WireRules, names: Sequence[str]) -> Line:
    """``High: ann A♥   Low: bob 2♥`` (see :func:`low_words`), or, when no natural trump was dealt
    (a variant's pitched joker), that nobody takes them."""
    if result.high is None or result.high_card is None or result.low is None or result.low_card is None:
        return ("High, Low: nobody (no natural trump dealt)",)
    return (f"High: {names[result.high]} ", Card.parse(result.high_card), "   ",
            *low_words(result.low, result.low_card, result, rules, names))


def low_words(low_seat: int, low_card: str, result: WireHandResult, rules: WireRules, names: Sequence[str]) -> Line:
    """``Low: ann 2♥``; with ``low`` captured, ``Low: captured by bob 2♥, dealt to ann``."""
    low = Card.parse(low_card)
    taker = result.low_captured_by
    if rules.low != "captured" or taker is None:
        return (f"Low: {names[low_seat]} ", low)
    dealt = "" if taker == low_seat else f", dealt to {names[low_seat]}"
    return (f"Low: captured by {names[taker]} ", low, *((dealt,) if dealt else ()))


def outcome_line(outcome: WireOutcome, rules: WireRules, names: Sequence[str]) -> Line:
    winners = side_name(rules, outcome.winner, names)
    verb = "wins" if len(seats_of(rules, outcome.winner)) == 1 else "win"
    scores = " to ".join(str(s) for s in sorted(outcome.scores, reverse=True))
    why = REASONS.get(outcome.reason, outcome.reason.replace("_", " "))
    hands = f"{outcome.hands_dealt} hand{'s' if outcome.hands_dealt != 1 else ''}"
    return (f"{winners} {verb} the game, {scores}, after {hands} ({why}).",)
