"""The bot SDK, the built-in bots and the match runner.

Write a bot by subclassing :class:`Bot` (``setback new-bot NAME`` writes one to start
from); :class:`BotSeat` asks a bot for its decisions under a table's :class:`Limits`;
:func:`play_match` plays a :class:`MatchPlan` through the engine.
"""

from setback.bots.base import Bot, Decision, GameStart, Notice, RandomBot
from setback.bots.heuristic import HeuristicBot
from setback.bots.match import MatchPlan, play_match, play_with
from setback.bots.registry import BUILTIN, bot_factory, bot_name, load_bot_class
from setback.bots.search import SearchBot
from setback.bots.seat import BotSeat, Clock, Limits, fallback
from setback.bots.tally import MatchResult

__all__ = [
    "BUILTIN", "Bot", "BotSeat", "Clock", "Decision", "GameStart", "HeuristicBot", "Limits", "MatchPlan", "MatchResult",
    "Notice", "RandomBot", "SearchBot", "bot_factory", "bot_name", "fallback", "load_bot_class", "play_match",
    "play_with",
]
