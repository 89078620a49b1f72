"""``setback check-bot``: a bot put through the situations spec.md describes, each check
passed or failed with what the bot sent and what the spec expects.

:func:`run_checks` plays the bot through every session of :data:`~setback.conformance.checks.SESSIONS`
(a server of its own each, a tap between bot and server that meddles on cue) and judges
the transcripts with :data:`~setback.conformance.checks.CHECKS`.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from setback.conformance.checks import CHECKS, SESSIONS, Verdict
from setback.conformance.sessions import BotUnderTest, play_session

__all__ = ["Verdict", "run_checks"]


def run_checks(spec: str, seed: int = 1) -> list[Verdict]:
    """Every check's verdict for the bot ``spec`` (a SPEC of the SDK or ``cmd:PROGRAM``);
    ValueError for a SPEC that names no bot."""
    bot = BotUnderTest(spec, seed)
    with tempfile.TemporaryDirectory(prefix="setback-check-") as folder:
        transcripts = asyncio.run(_play_all(bot, Path(folder), seed))
    return [check(transcripts) for check in CHECKS]


async def _play_all(bot: BotUnderTest, folder: Path, seed: int) -> list:  # type: ignore[type-arg]
    return list(await asyncio.gather(*(
        play_session(bot, session, folder, seed + number) for number, session in enumerate(SESSIONS)
    )))
