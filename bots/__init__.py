"""The bot SDK, the built-in bots and the match runner."""

from setback.bots.base import Bot, RandomBot
from setback.bots.registry import BUILTIN, bot_name, load_bot_class

__all__ = ["BUILTIN", "Bot", "RandomBot", "bot_name", "load_bot_class"]
