"""A game told hand by hand, in plain text for a terminal or a log."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator

from setback.engine import (
    BidMade,
    Card,
    CardPlayed,
    CardsDrawn,
    DealerChosen,
    Event,
    GameWon,
    HandDealt,
    HandResult,
    HandScored,
    HandThrownIn,
    LowRule,
    Passed,
    PitcherChosen,
    Rules,
    TrickWon,
    TrumpPitched,
)
from setback.protocol.convert import result_to_wire
from setback.telling.story import card_label, more_points


def side_name(rules: Rules, side: int, names: list[str]) -> str:
    """``names`` of the seats on ``side``, joined with ``&``."""
    return " & ".join(names[s] for s in rules.seats_of(side))


def describe_result(result: HandResult, rules: Rules, names: list[str], ascii: bool = True) -> list[str]:
    """The lines of a hand's summary: who took High, Low (its captor with ``low`` captured), Jack
    and Game, and the bid (or the dealer's steal) made or set back."""
    if result.high is None or result.low is None or result.high_card is None or result.low_card is None:
        high_low = "  High, Low: nobody (no natural trump dealt)"
    else:
        low_card = card_label(result.low_card, ascii)
        low = f"{names[result.low]} ({low_card})"
        taker = result.low_captured_by
        if rules.low is LowRule.CAPTURED and taker is not None:
            low = f"captured by {names[taker]} ({low_card}" + (
                ")" if taker == result.low else f", dealt to {names[result.low]})"
            )
        high_low = f"  High: {names[result.high]} ({card_label(result.high_card, ascii)})   Low: {low}"
    lines = [
        high_low,
        "  Jack: " + (names[result.jack] if result.jack is not None else "not dealt")
        + "   Game: "
        + (side_name(rules, result.game, names) if result.game is not None else "nobody")
        + "  (pips " + ", ".join(str(p) for p in result.game_pips) + ")",
    ]
    more = more_points(result_to_wire(result), names)
    if more:
        lines.append(f"  Points: {more}")
    pitcher = names[result.pitcher]
    how = f", the dealer, took the bid at {result.bid}" if result.stolen else f" bid {result.bid}"
    if result.set_back:
        lines.append(f"  {pitcher}{how} and was SET BACK {result.bid}")
    else:
        lines.append(f"  {pitcher}{how} and made it")
    lines.append(
        "  Score: "
        + ", ".join(
            f"{side_name(rules, side, names)} {score} ({delta:+d})"
            for side, (score, delta) in enumerate(zip(result.scores, result.deltas, strict=True))
        )
    )
    return lines


TIMED_OUT = " (timed out)"
"""Marks a move the server made for a seat whose clock ran out."""


def narrate(
    events: Iterable[Event], rules: Rules, names: list[str], timed_out: Collection[int] = (), ascii: bool = True,
) -> Iterator[str]:
    """One line (or a few) per event worth telling; hands are told as they were dealt.
    ``timed_out``: the indexes of the game's actions the clock chose, each marked where it is
    told. Cards and suits in letters (``10H``), or, without ``ascii``, with their symbols (``10♥``)."""

    def card(played: Card) -> str:
        return card_label(played, ascii)

    action = -1  # the index of the action the event came of
    late: set[Card] = set()  # the cards of the trick in play that the clock chose
    high = 0  # the hand's highest bid so far: a dealer's bid equal to it is the steal
    for event in events:
        if isinstance(event, Passed | BidMade | CardPlayed):
            action += 1
        clock = TIMED_OUT if action in timed_out and isinstance(event, Passed | BidMade | CardPlayed) else ""
        match event:
            case CardsDrawn(draws=draws):
                yield "Draw for dealer: " + ", ".join(f"{names[d.seat]} {card(d.card)}" for d in draws)
            case DealerChosen(dealer=dealer):
                yield f"{names[dealer]} deals first."
            case HandDealt(hand_number=number, dealer=dealer, hands=hands):
                high = 0
                yield f"\nHand {number}: {names[dealer]} deals."
                for seat, cards in enumerate(hands):
                    if cards:
                        yield f"  {names[seat]}: {' '.join(card(c) for c in cards)}"
            case Passed(seat=seat):
                yield f"  {names[seat]} passes{clock}."
            case BidMade(seat=seat, amount=amount):
                if amount == high:  # only the dealer's steal equals the highest bid so far
                    yield f"  {names[seat]}, the dealer, takes the bid at {amount}{clock}."
                else:
                    yield f"  {names[seat]} bids {amount}{clock}."
                high = amount
            case HandThrownIn():
                yield "  Everyone passed: the hand is thrown in."
            case PitcherChosen(pitcher=pitcher, bid=bid):
                yield f"  {names[pitcher]} pitches for {bid}."
            case TrumpPitched(trump=trump):
                yield f"  Trump is {trump.name.lower()} {trump.letter if ascii else trump.symbol}."
            case CardPlayed(card=played):
                if clock:
                    late.add(played)
            case TrickWon(trick_number=number, winner=winner, plays=plays):
                laid = "  ".join(f"{names[p.seat]} {card(p.card)}{TIMED_OUT if p.card in late else ''}" for p in plays)
                late.clear()
                yield f"  Trick {number}: {laid}  -> {names[winner]}"
            case HandScored(result=result):
                yield from describe_result(result, rules, names, ascii)
            case GameWon(outcome=outcome):
                why = outcome.reason.value.replace("_", " ")
                winners = side_name(rules, outcome.winner, names)
                yield f"\n{winners} won the game ({why}) after {outcome.hands_dealt} hands."
