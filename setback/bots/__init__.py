"""The bot SDK, the built-in bots and the seat that asks a bot under a table's clock.

Write a bot by subclassing :class:`Bot` (``setback new-bot NAME`` writes one to start
from); :class:`BotSeat` asks a bot for its decisions under a table's :class:`Limits`.
Matches between bots are played by :mod:`setback.match`.
"""

from setback.bots.base import Bot, Decision, GameStart, Notice, RandomBot
from setback.bots.beginner import BeginnerBot
from setback.bots.expert import ExpertBot
from setback.bots.heuristic import HeuristicBot
from setback.bots.registry import BUILTIN, bot_factory, bot_name, load_bot_class
from setback.bots.search import SearchBot
from setback.bots.seat import BotSeat, DecisionStats, Limits, fallback

__all__ = [
    "BUILTIN", "BeginnerBot", "Bot", "BotSeat", "Decision", "DecisionStats", "ExpertBot", "GameStart", "HeuristicBot",
    "Limits", "Notice", "RandomBot", "SearchBot", "bot_factory", "bot_name", "fallback", "load_bot_class",
]
