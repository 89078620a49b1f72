"""spec.md's tables of every message's fields are the code's (setback/protocol/reference.py)."""

from __future__ import annotations

from pathlib import Path

import msgspec.inspect as mi

from setback.engine import WinReason
from setback.protocol import messages
from setback.protocol.reference import ALLOWED, BEGIN, END, block_of, fields_markdown, replace_block, since, structs
from setback.server.audience import RECALLED_CHAT, RECALLED_RESULTS
from setback.server.lobby import CAPABILITIES

ROOT = Path(__file__).resolve().parent.parent


def test_spec_fields_match_the_code() -> None:
    """spec.md's Appendix A is what `setback schema --markdown` prints (regenerate it with
    `setback schema --update-spec spec.md` when this fails)."""
    spec = (ROOT / "spec.md").read_text(encoding="utf-8")
    assert block_of(spec, BEGIN, END) == fields_markdown().strip()


def test_every_allowed_note_names_a_field_of_its_struct() -> None:
    """A note for a field that was renamed or removed is an error, not a silent leftover."""
    for key in ALLOWED:
        struct, _, name = key.partition(".")
        cls = getattr(messages, struct)
        assert name in {f.name for f in mi.type_info(cls).fields}, key  # type: ignore[attr-defined]


def test_every_message_and_object_has_a_table() -> None:
    text = fields_markdown()
    for union in (messages.ClientMessage, messages.ServerMessage, messages.WireEvent):
        info = mi.type_info(union)
        assert isinstance(info, mi.UnionType)
        for member in info.types:
            assert isinstance(member, mi.StructType)
            assert f"#### `{member.tag}`" in text
    for nested in ("WireRules", "Clock", "TableInfo", "SeatInfo", "WireView", "WireTrick", "WireHandResult"):
        assert f"#### `{nested}`" in text


def test_the_tables_say_what_a_reader_had_to_guess() -> None:
    """The types issue 21 names: `request` an integer, `tricks[].cards` strings and `trick`
    objects, `hand_sizes` and `scores` lists, an empty seat's `name` null."""
    text = fields_markdown()
    assert "| `request` | integer | required |" in text
    assert "| `cards` | list of string | required | cards, in playing order from the leader |" in text
    assert "| `trick` | list of `SeatCard` | required |" in text
    assert "| `hand_sizes` | list of integer | required | one a seat |" in text
    assert "| `name` | string or null | required | `null` for an empty seat |" in text


def test_since_comes_from_the_docstrings() -> None:
    text = fields_markdown()
    assert "#### `resync` (since 1.2)" in text
    assert "| `spectate` | boolean | `false` |  | 1.1 |" in text


def test_the_notes_list_the_server_s_capabilities_and_the_outcome_reasons() -> None:
    """Lists and bounds the tables spell out that live elsewhere in the code."""
    assert ALLOWED["Welcome.capabilities"] == ", ".join(f"`{c}`" for c in CAPABILITIES)
    assert set(ALLOWED["WireOutcome.reason"].split(", ")) == {f"`{r.value}`" for r in WinReason}
    assert ALLOWED["Snapshot.results"].endswith(f"at most {RECALLED_RESULTS}")
    assert ALLOWED["Snapshot.chat"].endswith(f"at most {RECALLED_CHAT}")


OPTIONAL_SINCE_1_0 = frozenset({
    "Hello.kind", "Hello.token", "Hello.password", "Hello.events", "CreateTable.name", "CreateTable.rules",
    "CreateTable.clock", "CreateTable.seed", "CreateTable.bots", "CreateTable.bot_chat", "CreateTable.rated",
    "CreateTable.private", "Join.seat", "Join.ready", "Join.invite", "Spectate.invite", "AddBot.table", "AddBot.bot",
    "AddBot.seat", "Ready.ready", "SendChat.scope", "Ping.nonce", "Pong.nonce", "Error.path", "Error.fatal",
    "Snapshot.players", "ServerPing.nonce", "ServerPong.nonce", "WireRules.players", "WireRules.teams",
    "WireRules.target", "WireRules.forced_dealer_bid", "WireRules.smudge", "WireRules.no_junk",
    "WireRules.hand_limit", "Clock.decision_seconds", "Clock.bot_after_timeouts", "TableInfo.rated",
    "TableInfo.private", "TableInfo.invite", "SeatInfo.timeouts", "SeatInfo.replaced_by_bot", "SeatInfo.rating",
})
"""The optional fields (``id`` aside) that 1.0 had: every other one came later, and says since when."""


def test_every_field_added_after_1_0_says_since_when() -> None:
    """A field added in a minor version has a default (spec.md, "Versioning"): its docstring
    must say "since X.Y", or the tables would date it 1.0."""
    undated = {
        f"{cls.__name__}.{f.name}" for cls in structs() for f in mi.type_info(cls).fields  # type: ignore[attr-defined]
        if not f.required and f.name != "id" and since(cls, f.name) == "1.0"
    }
    assert undated == OPTIONAL_SINCE_1_0


def test_replace_block_keeps_what_is_around_it() -> None:
    text = f"before\n{BEGIN}\nold\n{END}\nafter\n"
    assert replace_block(text, BEGIN, END, "new\n") == f"before\n{BEGIN}\nnew\n{END}\nafter\n"
