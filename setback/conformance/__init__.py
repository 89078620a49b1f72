"""``setback check-bot``: a bot put through the situations spec.md describes, each check
passed or failed with what the bot sent and what the spec expects.

:func:`run_checks` plays the bot through every session of :data:`~setback.conformance.checks.SESSIONS`
(a server of its own each, a tap between bot and server that meddles on cue), or of
:func:`~setback.conformance.checks.sessions_of` a variant, and judges the transcripts with
:func:`~setback.conformance.checks.checks_of` those sessions.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from setback.conformance.checks import Verdict, checks_of, sessions_of
from setback.conformance.sessions import BotUnderTest, Session, play_session
from setback.engine import Variant

__all__ = ["Verdict", "run_checks"]


def run_checks(spec: str, seed: int = 1, variant: Variant = Variant.STANDARD) -> list[Verdict]:
    """Every check's verdict for the bot ``spec`` (a SPEC of the SDK or ``cmd:PROGRAM``) at
    tables of ``variant``; ValueError for a SPEC that names no bot."""
    bot = BotUnderTest(spec, seed)
    sessions = sessions_of(variant)
    with tempfile.TemporaryDirectory(prefix="setback-check-") as folder:
        transcripts = asyncio.run(_play_all(bot, sessions, Path(folder), seed))
    return [check(transcripts) for check in checks_of(sessions)]


async def _play_all(bot: BotUnderTest, sessions: tuple[Session, ...], folder: Path, seed: int) -> list:  # type: ignore[type-arg]
    return list(await asyncio.gather(*(
        play_session(bot, session, folder, seed + number) for number, session in enumerate(sessions)
    )))
