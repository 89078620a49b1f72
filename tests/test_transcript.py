"""spec.md's annotated session (Appendix B) is what the server does today."""

from __future__ import annotations

from pathlib import Path

from setback.conformance.transcript import (
    BEGIN,
    END,
    TEN_BEGIN,
    TEN_END,
    TEN_SHOWN_TRICKS,
    record,
    record_ten_point,
    transcript_markdown,
)
from setback.protocol.reference import block_of

ROOT = Path(__file__).resolve().parent.parent


async def test_the_server_still_plays_spec_md_s_session() -> None:
    """Played again against a fresh server, the session is line for line spec.md's copy
    (when the server's behaviour changes on purpose, write it again with
    `setback schema --update-spec spec.md` and read the difference)."""
    spec = (ROOT / "spec.md").read_text(encoding="utf-8")
    assert transcript_markdown(await record()) == block_of(spec, BEGIN, END)


async def test_the_session_shows_what_spec_md_says_it_shows() -> None:
    """The hello, the lobby, the bid, the pitch, the illegal card, the return with snapshot and
    decide, the score, game over, ready, the leave and the goodbye, each with its comment."""
    lines = await record()
    said = [line.text for line in lines if not line.comment]
    for needle in ('"type":"welcome"', '"type":"tables"', '"kind":"bid"', '"kind":"trump_pitched"',
                   '"code":"illegal_action"', '"type":"snapshot"', '"kind":"hand_scored"', '"type":"game_over"',
                   '"type":"ready"', '"type":"left"', '"type":"goodbye"'):
        assert any(needle in text for text in said), needle
    comments = [line for line in lines if line.comment]
    assert len(comments) >= 10 and not lines[-1].comment


async def test_the_server_still_plays_spec_md_s_ten_point_hand() -> None:
    """Appendix C, played again against a fresh server, is line for line spec.md's copy."""
    spec = (ROOT / "spec.md").read_text(encoding="utf-8")
    assert transcript_markdown(await record_ten_point(), TEN_SHOWN_TRICKS) == block_of(spec, TEN_BEGIN, TEN_END)


async def test_the_ten_point_hand_shows_a_joker_a_bid_above_4_the_pitch_and_the_awards() -> None:
    lines = [line.text for line in await record_ten_point() if not line.comment]
    dealt = next(text for text in lines if '"kind":"hand_dealt"' in text)
    assert '"variant":"ten_point"' in lines[2] and ('"BJ"' in dealt or '"LJ"' in dealt)
    for needle in ('"action":"bid 5"', '"kind":"trump_pitched"', '"kind":"trick_won"', '"awards":[{"point":"high"',
                   '"point":"three"', '"type":"game_over"'):
        assert any(needle in text for text in lines), needle
