"""``search``: placeholder."""
from setback.bots.heuristic import HeuristicBot as SearchBot

__all__ = ["SearchBot"]
