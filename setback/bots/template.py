'''``setback new-bot NAME``: a commented bot to copy, run and change.'''

from __future__ import annotations

import re
from pathlib import Path

TEMPLATE = '''"""{class_name}: a Setback bot. Run it against the built-in bots:

    setback match {stem}.py:{class_name} random --games 20 --seed 1
    setback match {stem}.py:{class_name} heuristic --games 200 --seed 1 --duplicate

Every decision gets a View of your seat (see setback.engine.View):
  view.hand       your cards (Card values: card.suit, card.rank 2-14, str(card) == "10H")
  view.legal      the actions you may take now; return one of them
  view.bids       this hand's bids so far (Passed / BidMade, with .seat and .amount)
  view.pitcher, view.bid   who won the bidding, and at what (None while bidding)
  view.trump      the trump suit once the pitcher has led (None before)
  view.trick      the trick so far, in playing order (Draw: .seat and .card)
  view.tricks     the tricks already played this hand (TrickWon: .number, .winner and
                  .plays, Draws in playing order)
  view.scores     the scores by side; view.rules.side_of(seat) is a seat's side
  view.time_left  seconds left for this decision (over it, the runner plays for you)
bid() and play() may also be written `async def`. A bot plays one seat of one game (a new
instance each game: keep a model you load at module level). Optional hooks, which you
may override: on_game_start(start) (start.seat, start.players: who sits where, by SPEC
in a match or name at a server; start.rules), on_hand_start(view), on_hand_end(result),
on_game_end(outcome). What you print goes to stderr, not into the match's result.
"""

from setback.bots import Bot
from setback.engine import Action, Bid, Play, View


class {class_name}(Bot):
    name = "{stem}"

    def bid(self, view: View) -> Action:
        # Count the high cards (ace, king, jack) of the suit you hold most of.
        suits = [card.suit for card in view.hand]
        longest = max(set(suits), key=suits.count)
        strength = sum(1 for card in view.hand if card.suit == longest and card.rank in (14, 13, 11))
        # Bid that many points (at most 2) if it is legal, else take the first legal action:
        # a pass when passing is allowed, the lowest bid when the dealer is forced to bid.
        wanted = Bid(min(strength, 2)) if strength else None
        return wanted if wanted in view.legal else view.legal[0]

    def play(self, view: View) -> Action:
        plays = [action for action in view.legal if isinstance(action, Play)]
        if not view.trick:
            # Leading (the pitcher's first lead names trump): lead your highest card.
            return max(plays, key=lambda play: play.card.rank)
        # Following: play your lowest legal card, saving the rest for later.
        # Idea: win the trick when it holds a ten (Game) or the jack of trump.
        return min(plays, key=lambda play: play.card.rank)
'''


def write_template(name: str, directory: Path) -> tuple[Path, str]:
    """Write ``directory/NAME.py`` from the template; the path and the bot's class name.

    NAME is a Python identifier (letters, digits, underscores); an existing file is kept
    (ValueError).
    """
    stem = name.removesuffix(".py")
    if not stem.isidentifier():
        raise ValueError(f"bot name {name!r} must be a Python identifier (letters, digits, _)")
    class_name = "".join(part[:1].upper() + part[1:] for part in re.split(r"_+", stem) if part)
    if not class_name.endswith("Bot"):
        class_name += "Bot"
    path = directory / f"{stem}.py"
    if path.exists():
        raise ValueError(f"{path} exists; choose another name")
    path.write_text(TEMPLATE.format(class_name=class_name, stem=stem), encoding="utf-8")
    return path, class_name
