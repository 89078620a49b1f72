"""The wire types: the checked-in schema matches the code, the codec's errors, the framing."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from setback.engine import Game, Rules
from setback.protocol import PROTOCOL_VERSION, Code, LineBuffer, ProtocolError, decode_client, decode_server, encode
from setback.protocol.convert import event_to_wire, view_to_wire
from setback.protocol.messages import (
    Act,
    CardPlayedEvent,
    Decide,
    DecisionClock,
    EventMessage,
    Hello,
    Snapshot,
    WireRules,
)
from setback.protocol.schema import schema_text

ROOT = Path(__file__).resolve().parent.parent


def test_checked_in_schema_matches_the_code() -> None:
    """setback/protocol/schema.json is what `setback schema` prints (regenerate it when this fails)."""
    assert (ROOT / "setback" / "protocol" / "schema.json").read_text() == schema_text()


def test_the_spec_speaks_this_version_and_says_what_it_changed() -> None:
    """spec.md names the protocol version the code speaks, and its changelog has an entry for it
    naming the fields that version added (a minor version: new fields with defaults)."""
    spec = (ROOT / "spec.md").read_text()
    assert f"wire protocol (version **{PROTOCOL_VERSION}**)" in spec
    entries = re.split(r"\n(?=- )", spec.partition("## Changelog")[2])  # the top-level items
    entry = "\n".join(item for item in entries if item.startswith(f"- {PROTOCOL_VERSION}:"))
    assert entry, f"no changelog entry for {PROTOCOL_VERSION}"
    for field in ("`winning`", "`card_played`", "`snapshot`", "`results`", "`chat`", "`clock`", "`bot_pace`"):
        assert field in entry, field


def test_old_peers_decode_the_new_fields_away_and_new_ones_default_them() -> None:
    """A 1.3 snapshot, card and view decode without their new fields (as from a 1.2 server), with
    the defaults: no game number, no results or chat, no clock, no winner."""
    line = b'{"type":"event","table":"t1","event":{"kind":"card_played","seat":1,"card":"AS"}}'
    event = decode_server(line)
    assert isinstance(event, EventMessage) and isinstance(event.event, CardPlayedEvent)
    assert event.event.winning is None
    view = view_to_wire(Game(Rules(), 3).view(None))
    old = {k: v for k, v in json.loads(encode(Snapshot(table="t1", view=view))).items()
           if k not in {"game", "results", "chat", "clock"}}
    del old["view"]["winning"]
    snapshot = decode_server(json.dumps(old).encode())
    assert isinstance(snapshot, Snapshot)
    assert (snapshot.game, snapshot.results, snapshot.chat, snapshot.clock, snapshot.view.winning) == (
        None, [], [], None, None)


def test_schema_names_every_message_type() -> None:
    schema = json.loads(schema_text())
    for union in ("clientMessage", "serverMessage"):
        mapping = schema["$defs"][union]["discriminator"]["mapping"]
        assert mapping, union
    client = set(schema["$defs"]["clientMessage"]["discriminator"]["mapping"])
    assert {"hello", "act", "create_table", "join", "chat", "ping", "pong"} <= client


def test_messages_round_trip() -> None:
    hello = Hello(version="1.0", name="ann", kind="bot", id=4)
    assert decode_client(encode(hello)) == hello
    act = Act(request=3, action="play 10H")
    assert decode_client(encode(act)) == act


def test_views_and_events_on_the_wire_decode_as_server_messages() -> None:
    game = Game(Rules(players=3, teams=None), 8)
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        view = view_to_wire(game.view(seat))
        line = encode(Decide(table="t1", request=1, seat=seat, view=view, clock=DecisionClock(limit_ms=None,
                                                                                               remaining_ms=None)))
        assert decode_server(line) == decode_server(line)
        for event in game.apply(game.legal_actions()[-1]):
            for viewer in (None, 0, 1, 2):
                decode_server(encode(EventMessage(table="t1", event=event_to_wire(event, viewer))))


def test_wire_rules_reject_unknown_options() -> None:
    with pytest.raises(ProtocolError) as error:
        decode_client(b'{"type":"create_table","rules":{"players":4,"jokers":true}}')
    assert error.value.code == Code.INVALID_FIELD
    assert WireRules().players == 4


def test_line_buffer_splits_and_bounds() -> None:
    buffer = LineBuffer(limit=10)
    assert buffer.feed(b"abc\nde") == ([b"abc"], False)
    assert buffer.feed(b"f\n") == ([b"def"], False)
    lines, overlong = buffer.feed(b"0123456789abc\nok\n")
    assert overlong and lines == [b"ok"]
    lines, overlong = buffer.feed(b"x" * 30)
    assert overlong and lines == []
    assert buffer.feed(b"still the long line\nnext\n") == ([b"next"], False)


@given(chunks=st.lists(st.binary(max_size=40), max_size=30), limit=st.integers(2, 64))
def test_line_buffer_never_returns_a_line_over_its_limit(chunks: list[bytes], limit: int) -> None:
    buffer = LineBuffer(limit=limit)
    for chunk in chunks:
        lines, _ = buffer.feed(chunk)
        assert all(len(line) + 1 <= limit and b"\n" not in line for line in lines)


@given(chunks=st.lists(st.binary(max_size=12).map(lambda b: b.replace(b"\x00", b"\n")), max_size=30),
       limit=st.integers(2, 16))
def test_line_buffer_gives_the_lines_of_the_stream_however_it_is_cut(chunks: list[bytes], limit: int) -> None:
    """Whatever the chunks, the lines are the stream's whole lines that fit the limit, in order."""
    buffer = LineBuffer(limit=limit)
    got: list[bytes] = []
    for chunk in chunks:
        got += buffer.feed(chunk)[0]
    *whole, _rest = b"".join(chunks).split(b"\n")
    assert got == [line for line in whole if len(line) + 1 <= limit]


@given(st.binary(max_size=300))
def test_decoding_any_bytes_gives_a_message_or_a_protocol_error(data: bytes) -> None:
    try:
        decode_client(data)
    except ProtocolError as error:
        assert error.code in {Code.MALFORMED, Code.UNKNOWN_TYPE, Code.INVALID_FIELD}
