"""The match lab: bots against bots, straight through the engine, tallied from their records.

A :class:`MatchPlan` says what a match is; :func:`play_match` plays it (on one process or
many) and gives its :class:`MatchResult`; :func:`play_with` plays one game with given bots.
Tournaments (:mod:`setback.match.tournament`), sequential tests (:mod:`setback.match.sprt`),
Ray clusters (:mod:`setback.match.cluster`) and training samples (:mod:`setback.match.samples`)
build on them. The server never imports this package: it seats bots, it runs no match.
"""

from setback.match.plan import MatchPlan, game_seed
from setback.match.runner import play_match, play_with
from setback.match.tally import MatchResult

__all__ = ["MatchPlan", "MatchResult", "game_seed", "play_match", "play_with"]
