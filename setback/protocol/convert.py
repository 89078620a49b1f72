"""Engine values to wire messages and back: views, events, rules, results."""

from __future__ import annotations

from typing import Final

from msgspec import UNSET

from setback.engine import (
    ACTIONS,
    CARD_TEXT,
    Award,
    BidMade,
    Card,
    CardPlayed,
    CardsDrawn,
    DealerChosen,
    Draw,
    Event,
    GameWon,
    HandDealt,
    HandResult,
    HandScored,
    HandThrownIn,
    LowRule,
    Outcome,
    Passed,
    Phase,
    PitcherChosen,
    Point,
    Rules,
    Suit,
    TrickWon,
    TrumpPitched,
    Variant,
    View,
    WinReason,
    parse_action,
)
from setback.protocol.messages import (
    BidEvent,
    CardPlayedEvent,
    CardsDrawnEvent,
    DealerChosenEvent,
    GameWonEvent,
    HandDealtEvent,
    HandScoredEvent,
    PassedEvent,
    PitcherChosenEvent,
    SeatCard,
    ThrownInEvent,
    TrickWonEvent,
    TrumpPitchedEvent,
    WireAward,
    WireBid,
    WireEvent,
    WireHandResult,
    WireOutcome,
    WireRules,
    WireTrick,
    WireView,
)

ACTION_TEXT: Final[tuple[str, ...]] = tuple(str(action) for action in ACTIONS)


def rules_to_wire(rules: Rules) -> WireRules:
    """The rules on the wire: a club option or the variant at its default is left out (see
    :class:`WireRules`); ``teams`` and ``target`` are always sent."""
    return WireRules(
        players=rules.players, teams=rules.teams, target=rules.target,
        forced_dealer_bid=rules.forced_dealer_bid, smudge=rules.smudge,
        no_junk=rules.no_junk, hand_limit=rules.hand_limit,
        min_bid=UNSET if rules.min_bid == 1 else rules.min_bid,
        dealer_steal=True if rules.dealer_steal else UNSET,
        low="captured" if rules.low is LowRule.CAPTURED else UNSET,
        variant=UNSET if rules.variant is Variant.STANDARD else rules.variant.value,
    )


def rules_from_wire(rules: WireRules) -> Rules:
    """The engine's rules, an option left out at its default (``target`` and ``teams``: the
    variant's, as :class:`WireRules` reads them); ValueError when the options do
    not go together (:class:`RefusedCombination` for a pair RULES.md refuses)."""
    return Rules(
        players=rules.players, teams=rules.teams, target=None if rules.target is UNSET else rules.target,
        forced_dealer_bid=rules.forced_dealer_bid, smudge=rules.smudge,
        no_junk=rules.no_junk, hand_limit=rules.hand_limit,
        min_bid=1 if rules.min_bid is UNSET else rules.min_bid,
        dealer_steal=rules.dealer_steal is True,
        low=LowRule.CAPTURED if rules.low == "captured" else LowRule.DEALT,
        variant=Variant.STANDARD if rules.variant is UNSET else Variant(rules.variant),
    )


def result_to_wire(r: HandResult) -> WireHandResult:
    return WireHandResult(
        hand_number=r.hand_number, dealer=r.dealer, pitcher=r.pitcher, bid=r.bid,
        trump=r.trump.letter, high=r.high, high_card=_text(r.high_card), low=r.low,
        low_card=_text(r.low_card), jack=r.jack, game=r.game, game_pips=list(r.game_pips),
        points=list(r.points), set_back=r.set_back, deltas=list(r.deltas), scores=list(r.scores),
        stolen=r.stolen, low_captured_by=r.low_captured_by,
        awards=[WireAward(point=a.point.value, value=a.value, side=a.side, seat=a.seat, card=_text(a.card))
                for a in r.awards],
    )


def _text(card: Card | None) -> str | None:
    return None if card is None else CARD_TEXT[card]


def _card(text: str | None) -> Card | None:
    return None if text is None else Card.parse(text)


def outcome_to_wire(o: Outcome) -> WireOutcome:
    return WireOutcome(
        winner=o.winner, reason=o.reason.value, hands_dealt=o.hands_dealt, scores=list(o.scores)
    )


def bid_to_wire(bid: Passed | BidMade) -> WireBid:
    return WireBid(bid.seat, bid.amount if isinstance(bid, BidMade) else None)


def trick_to_wire(trick: TrickWon) -> WireTrick:
    plays = trick.plays
    return WireTrick(trick.trick_number, plays[0].seat, [CARD_TEXT[p.card] for p in plays], trick.winner)


def view_to_wire(view: View) -> WireView:
    """A view on the wire; it holds exactly what the engine's view holds."""
    return WireView(
        seat=view.seat,
        rules=rules_to_wire(view.rules),
        phase=view.phase.value,
        hand_number=view.hand_number,
        dealer=view.dealer,
        to_act=view.to_act,
        hand=[CARD_TEXT[c] for c in view.hand],
        hand_sizes=list(view.hand_sizes),
        bids=[bid_to_wire(b) for b in view.bids],
        pitcher=view.pitcher,
        bid=view.bid,
        trump=view.trump.letter if view.trump is not None else None,
        trick=[SeatCard(d.seat, CARD_TEXT[d.card]) for d in view.trick],
        tricks=[trick_to_wire(t) for t in view.tricks],
        scores=list(view.scores),
        last_result=result_to_wire(view.last_result) if view.last_result else None,
        legal=[ACTION_TEXT[a.code] for a in view.legal],
        outcome=outcome_to_wire(view.outcome) if view.outcome else None,
        winning=view.winning,
    )


def event_to_wire(event: Event, seat: int | None, winning: int | None = None) -> WireEvent:
    """``event`` as ``seat`` (None: a spectator) may see it on the wire; ``winning``, for a card
    played, is the seat winning the trick once it lies there (the views know it: ``WireViews``)."""
    match event:
        case CardsDrawn(draws=draws):
            return CardsDrawnEvent(draws=[SeatCard(d.seat, str(d.card)) for d in draws])
        case DealerChosen(dealer=dealer):
            return DealerChosenEvent(dealer=dealer)
        case HandDealt():
            own = event.hands[seat] if seat is not None else ()
            return HandDealtEvent(
                hand_number=event.hand_number, dealer=event.dealer, pone=event.pone, cut=event.cut,
                cards=[str(c) for c in own],
            )
        case Passed(seat=who):
            return PassedEvent(seat=who)
        case BidMade(seat=who, amount=amount):
            return BidEvent(seat=who, amount=amount)
        case HandThrownIn(hand_number=number, dealer=dealer):
            return ThrownInEvent(hand_number=number, dealer=dealer)
        case PitcherChosen(pitcher=pitcher, bid=bid):
            return PitcherChosenEvent(pitcher=pitcher, bid=bid)
        case TrumpPitched(seat=who, trump=trump):
            return TrumpPitchedEvent(seat=who, trump=trump.letter)
        case CardPlayed(seat=who, card=card):
            return CardPlayedEvent(seat=who, card=str(card), winning=winning)
        case TrickWon(trick_number=number, winner=winner, plays=plays):
            laid = [SeatCard(p.seat, str(p.card)) for p in plays]
            return TrickWonEvent(number=number, winner=winner, plays=laid)
        case HandScored(result=result):
            return HandScoredEvent(result=result_to_wire(result))
        case GameWon(outcome=outcome):
            return GameWonEvent(outcome=outcome_to_wire(outcome))
    raise TypeError(f"no wire form for {event!r}")


# -- and back: what a Python bot or client rebuilds from the wire -------------------------


def result_from_wire(r: WireHandResult) -> HandResult:
    return HandResult(
        hand_number=r.hand_number, dealer=r.dealer, pitcher=r.pitcher, bid=r.bid, trump=Suit.parse(r.trump),
        high=r.high, high_card=_card(r.high_card), low=r.low, low_card=_card(r.low_card),
        jack=r.jack, game=r.game, game_pips=tuple(r.game_pips), points=tuple(r.points), set_back=r.set_back,
        deltas=tuple(r.deltas), scores=tuple(r.scores), stolen=r.stolen, low_captured_by=r.low_captured_by,
        awards=tuple(Award(Point(a.point), a.value, a.side, a.seat, _card(a.card)) for a in r.awards),
    )


def outcome_from_wire(o: WireOutcome) -> Outcome:
    return Outcome(winner=o.winner, reason=WinReason(o.reason), hands_dealt=o.hands_dealt, scores=tuple(o.scores))


def view_from_wire(view: WireView, time_left: float | None = None) -> View:
    """The engine's :class:`View` a wire view was made from (``time_left`` from the decision's clock)."""
    rules = rules_from_wire(view.rules)
    n = rules.players
    return View(
        seat=view.seat,
        rules=rules,
        phase=Phase(view.phase),
        hand_number=view.hand_number,
        dealer=view.dealer,
        to_act=view.to_act,
        hand=tuple(Card.parse(c) for c in view.hand),
        hand_sizes=tuple(view.hand_sizes),
        bids=tuple(Passed(b.seat) if b.bid is None else BidMade(b.seat, b.bid) for b in view.bids),
        pitcher=view.pitcher,
        bid=view.bid,
        trump=Suit.parse(view.trump) if view.trump is not None else None,
        trick=tuple(Draw(p.seat, Card.parse(p.card)) for p in view.trick),
        tricks=tuple(
            TrickWon(
                t.number, t.winner, tuple(Draw((t.leader + i) % n, Card.parse(c)) for i, c in enumerate(t.cards))
            )
            for t in view.tricks
        ),
        scores=tuple(view.scores),
        last_result=result_from_wire(view.last_result) if view.last_result is not None else None,
        legal=tuple(parse_action(a) for a in view.legal),
        outcome=outcome_from_wire(view.outcome) if view.outcome is not None else None,
        time_left=time_left,
        winning=view.winning,
    )
