"""A game told hand by hand, in plain text for a terminal or a log."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from setback.engine import (
    BidMade,
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


def side_name(rules: Rules, side: int, names: list[str]) -> str:
    """``names`` of the seats on ``side``, joined with ``&``."""
    return " & ".join(names[s] for s in rules.seats_of(side))


def describe_result(result: HandResult, rules: Rules, names: list[str]) -> list[str]:
    """The lines of a hand's summary: who took High, Low (its captor with ``low`` captured), Jack
    and Game, and the bid (or the dealer's steal) made or set back."""
    low = f"{names[result.low]} ({result.low_card})"
    taker = result.low_captured_by
    if rules.low is LowRule.CAPTURED and taker is not None:
        low = f"captured by {names[taker]} ({result.low_card}" + (
            ")" if taker == result.low else f", dealt to {names[result.low]})"
        )
    lines = [
        f"  High: {names[result.high]} ({result.high_card})   Low: {low}",
        "  Jack: " + (names[result.jack] if result.jack is not None else "not dealt")
        + "   Game: "
        + (side_name(rules, result.game, names) if result.game is not None else "nobody")
        + "  (pips " + ", ".join(str(p) for p in result.game_pips) + ")",
    ]
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


def narrate(events: Iterable[Event], rules: Rules, names: list[str]) -> Iterator[str]:
    """One line (or a few) per event worth telling; hands are told as they were dealt."""
    high = 0
    for event in events:
        match event:
            case CardsDrawn(draws=draws):
                yield "Draw for dealer: " + ", ".join(f"{names[d.seat]} {d.card}" for d in draws)
            case DealerChosen(dealer=dealer):
                yield f"{names[dealer]} deals first."
            case HandDealt(hand_number=number, dealer=dealer, hands=hands):
                high = 0
                yield f"\nHand {number}: {names[dealer]} deals."
                for seat, cards in enumerate(hands):
                    if cards:
                        yield f"  {names[seat]}: {' '.join(str(c) for c in cards)}"
            case Passed(seat=seat):
                yield f"  {names[seat]} passes."
            case BidMade(seat=seat, amount=amount):
                if amount == high:  # only the dealer's steal equals the highest bid so far
                    yield f"  {names[seat]}, the dealer, takes the bid at {amount}."
                else:
                    yield f"  {names[seat]} bids {amount}."
                high = amount
            case HandThrownIn():
                yield "  Everyone passed: the hand is thrown in."
            case PitcherChosen(pitcher=pitcher, bid=bid):
                yield f"  {names[pitcher]} pitches for {bid}."
            case TrumpPitched(trump=trump):
                yield f"  Trump is {trump.name.lower()} {trump.symbol}."
            case CardPlayed():
                pass
            case TrickWon(trick_number=number, winner=winner, plays=plays):
                laid = "  ".join(f"{names[p.seat]} {p.card}" for p in plays)
                yield f"  Trick {number}: {laid}  -> {names[winner]}"
            case HandScored(result=result):
                yield from describe_result(result, rules, names)
            case GameWon(outcome=outcome):
                why = outcome.reason.value.replace("_", " ")
                winners = side_name(rules, outcome.winner, names)
                yield f"\n{winners} won the game ({why}) after {outcome.hands_dealt} hands."
