"""The wire types: the checked-in schema matches the code, the codec's errors, the framing."""

from __future__ import annotations

import json
import re
from pathlib import Path

import msgspec
import pytest
from deals import cards
from hypothesis import given
from hypothesis import strategies as st

from setback.engine import (
    ACTIONS,
    MIN_BIDS,
    Action,
    Game,
    HandScored,
    LowRule,
    Rules,
    Setup,
    Variant,
    action_of,
    parse_action,
)
from setback.protocol import PROTOCOL_VERSION, Code, LineBuffer, ProtocolError, decode_client, decode_server, encode
from setback.protocol.codec import CODE_BITS, read_act
from setback.protocol.convert import (
    ACTION_TEXT,
    event_to_wire,
    result_from_wire,
    result_to_wire,
    rules_from_wire,
    rules_to_wire,
    view_to_wire,
)
from setback.protocol.messages import (
    Act,
    CardPlayedEvent,
    Decide,
    DecisionClock,
    EventMessage,
    Hello,
    Snapshot,
    WireHandResult,
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
    for field in ("`variant`", "`target`", "`JK`", "`awards`", "`refused`", "`options`", "`variants`"):
        assert field in entry, field


def test_the_spec_marks_optional_every_hello_field_with_a_default() -> None:
    """spec.md section 8's ``hello`` row marks a field optional (``?``) exactly when the code
    gives it a default, as Appendix A does: ``kind`` among them (a hello without it is a
    person's)."""
    spec = (ROOT / "spec.md").read_text()
    row = next(line for line in spec.splitlines() if line.startswith("| `hello` |"))
    marked = dict(re.findall(r"`(\w+)`(\??)", row.split("|")[2]))
    defaults = {field.name: field.default is not msgspec.NODEFAULT for field in msgspec.structs.fields(Hello)}
    assert {name: mark == "?" for name, mark in marked.items()} == {k: v for k, v in defaults.items() if k != "id"}
    assert defaults["kind"] and Hello(version="1.3", name="ann").kind == "human"


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


ACT_LINE = b'{"type":"act","request":%b,"action":"%b"}'


def quick_act(line: bytes, end: int) -> tuple[int, Action] | None:
    """What :func:`read_act` reads of ``line[:end]``: the request and the action (None: nothing)."""
    read = read_act(line, end)
    return None if read < 0 else (read >> CODE_BITS, ACTIONS[read & ((1 << CODE_BITS) - 1)])


@pytest.mark.parametrize(("request_text", "action"), [
    (b"0", b"pass"), (b"7", b"bid 2"), (b"123456789012345", b"play 10H"), (b"42", b"play JK"), (b"5", b"bid 10"),
])
def test_an_act_as_bots_write_it_is_read_without_the_decoder_as_the_decoder_reads_it(
    request_text: bytes, action: bytes
) -> None:
    """The server's hot path reads an ``act`` in its plain form itself: the same request and action."""
    line = ACT_LINE % (request_text, action)
    quick = quick_act(line, len(line))
    assert quick is not None and quick == quick_act(line + b"\n", len(line))
    assert quick == (int(request_text), parse_action(action.decode()))
    assert decode_client(line) == Act(request=int(request_text), action=action.decode())


@pytest.mark.parametrize("line", [
    ACT_LINE % (b"07", b"pass"), ACT_LINE % (b"-1", b"pass"), ACT_LINE % (b"", b"pass"),
    ACT_LINE % (b"1234567890123456", b"pass"), ACT_LINE % (b"1.0", b"pass"), ACT_LINE % (b"1", b'p\\"'),
    ACT_LINE % (b"1", b"p\\u0041"), ACT_LINE % (b"1", "é".encode()), ACT_LINE % (b"1", b"a\tb"),
    ACT_LINE % (b"1", b""), ACT_LINE % (b"1", b"PASS"), ACT_LINE % (b"1", b"play 10h"), ACT_LINE % (b"1", b"pass "),
    ACT_LINE % (b"1", b"pass") + b" ", ACT_LINE % (b"1", b"pass") + b"\r",
    ACT_LINE[:-1] % (b"1", b"pass") + b',"id":3}',
    b'{"type":"act","request":1,"action":"pass"', b'{"type":"act","request":1,"action":', b'{"type":"act","request":1',
    b'{"type":"act", "request":1,"action":"pass"}', b'{"type":"act","action":"pass","request":1}',
])
def test_any_other_act_is_left_to_the_decoder(line: bytes) -> None:
    """A number or text JSON writes otherwise, escapes, an action not as the server writes it, more
    fields, other spacing or order: the decoder's."""
    assert quick_act(line, len(line)) is None


def test_every_action_as_the_server_writes_it_is_read_without_the_decoder() -> None:
    """Each of the actions' texts (``legal``'s) is found by its bytes; one byte changed, it is not."""
    for code, text in enumerate(ACTION_TEXT):
        line = ACT_LINE % (b"3", text.encode())
        assert quick_act(line, len(line)) == (3, action_of(code))
        for at in range(len(text)):
            changed = text[:at] + chr(ord(text[at]) ^ 1) + text[at + 1:]
            if changed not in ACTION_TEXT:
                wrong = ACT_LINE % (b"3", changed.encode())
                assert quick_act(wrong, len(wrong)) is None


def test_every_action_is_written_as_its_own_json_string() -> None:
    """What lets an act's action be read as its bytes: no action's text needs escaping in JSON."""
    assert all(msgspec.json.encode(text) == b'"%b"' % text.encode() for text in ACTION_TEXT)


@given(
    st.one_of(st.binary(max_size=20), st.from_regex(rb"-?[0-9]{0,17}", fullmatch=True)),
    st.one_of(st.binary(max_size=20), st.binary(max_size=12).map(lambda text: text + b'"}')),
)
def test_whatever_is_read_without_the_decoder_the_decoder_reads_the_same(head: bytes, tail: bytes) -> None:
    line = b'{"type":"act","request":' + head + b',"action":"' + tail
    quick = quick_act(line, len(line))
    if quick is not None:
        assert decode_client(line) == Act(request=quick[0], action=str(quick[1]))


TODAYS_RULES_KEYS = {"players", "teams", "target", "forced_dealer_bid", "smudge", "no_junk", "hand_limit"}
"""The keys of a 1.2 ``rules`` object."""


def test_rules_of_todays_game_are_sent_as_a_1_2_peer_knows_them() -> None:
    """The club options at their defaults are left out of ``rules``: a 1.2 peer, which refuses
    options it does not know there, reads a table of today's game as before."""
    assert set(json.loads(msgspec.json.encode(rules_to_wire(Rules())))) == TODAYS_RULES_KEYS
    assert rules_from_wire(msgspec.json.decode(b'{"players":3}', type=WireRules)) == Rules(players=3)


@pytest.mark.parametrize("min_bid", MIN_BIDS)
@pytest.mark.parametrize("steal", [False, True])
@pytest.mark.parametrize("low", list(LowRule))
def test_club_options_cross_the_wire(min_bid: int, steal: bool, low: LowRule) -> None:
    """Every club option, at any value, reaches the peer inside ``rules`` and reads back the same."""
    rules = Rules(players=4, teams=2, smudge=True, min_bid=min_bid, dealer_steal=steal, low=low)
    line = msgspec.json.encode(rules_to_wire(rules))
    assert rules_from_wire(msgspec.json.decode(line, type=WireRules)) == rules
    sent = json.loads(line)
    assert ("min_bid" in sent, "dealer_steal" in sent, "low" in sent) == (min_bid != 1, steal, low is LowRule.CAPTURED)


def test_a_low_rule_the_wire_does_not_know_is_an_invalid_field() -> None:
    """``low`` is ``dealt`` or ``captured``; any other word is refused where it stands."""
    with pytest.raises(ProtocolError) as error:
        decode_client(b'{"type":"create_table","rules":{"low":"both"}}')
    assert (error.value.code, error.value.path) == (Code.INVALID_FIELD, "$.rules.low")


def test_a_stolen_hand_and_its_low_captor_reach_the_wire() -> None:
    """A hand's result on the wire says whether the dealer stole the bid and who captured Low."""
    rules = Rules(players=2, dealer_steal=True, low=LowRule.CAPTURED)
    game = Game(rules, 3, Setup((cards("AS 2H 3H 4H 5H 6H"), cards("7H 8H 9H 10H JH QH")), 0))
    for text in ("bid 2", "bid 2"):
        game.apply(parse_action(text))
    while not any(isinstance(e, HandScored) for e in game.events):
        game.apply(game.legal_actions()[0])
    result = next(e.result for e in game.events if isinstance(e, HandScored))
    wire = result_to_wire(result)
    assert (wire.stolen, wire.low_captured_by) == (True, result.low_captured_by)
    assert result_from_wire(msgspec.json.decode(msgspec.json.encode(wire), type=WireHandResult)) == result


def test_the_dealers_steal_is_among_the_legal_actions_of_its_view() -> None:
    """A dealer who may steal finds the bid equal to the highest so far in its view's ``legal``."""
    game = Game(Rules(players=2, dealer_steal=True), 3, Setup((cards("AS 2H 3H 4H 5H 6H"),
                                                                cards("7H 8H 9H 10H JH QH")), 0))
    game.apply(parse_action("bid 2"))
    assert view_to_wire(game.view(0)).legal == ["pass", "bid 2", "bid 3", "bid 4"]


def test_a_variant_hand_with_no_natural_trump_reaches_the_wire_and_back() -> None:
    """A joker pitched with no spade dealt: High and Low are null on the wire, the Joker and Game
    are awards by name, and the result reads back as the engine's."""
    rules = Rules(players=2, variant=Variant.JOKER)
    game = Game(rules, 3, Setup((cards("JK 2H 3H 4H 5H 6H"), cards("7C 8C 9C 10C QC KC")), 1))
    for text in ("bid 1", "pass", "play JK"):
        game.apply(parse_action(text))
    while not any(isinstance(e, HandScored) for e in game.events):
        game.apply(game.legal_actions()[0])
    result = next(e.result for e in game.events if isinstance(e, HandScored))
    wire = result_to_wire(result)
    assert (wire.high, wire.high_card, wire.low, wire.low_card) == (None, None, None, None)
    assert [(a.point, a.value, a.card) for a in wire.awards] == [("joker", 1, "JK"), ("game", 1, None)]
    assert result_from_wire(msgspec.json.decode(msgspec.json.encode(wire), type=WireHandResult)) == result
