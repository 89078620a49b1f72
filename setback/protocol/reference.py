"""spec.md's tables of every message's fields, rendered from the msgspec types.

The types are the ones :mod:`setback.protocol.schema` describes. What a type cannot say
(a seat is 0 to ``players`` - 1, a card is its text form) is in :data:`ALLOWED`; since
which version a message or a field exists is read from its docstring's "since X.Y" (a
message's: in the first paragraph of its class's docstring; none: 1.0, or for a field the
message's version). spec.md holds a copy between :data:`BEGIN` and :data:`END`, which a test keeps equal
to :func:`fields_markdown`; ``setback schema --markdown`` prints it, and
``setback schema --update-spec spec.md`` writes it in place.
"""

from __future__ import annotations

import ast
import inspect
import json
import re
from collections.abc import Iterator
from functools import cache

import msgspec
import msgspec.inspect as mi

from setback.protocol import messages
from setback.protocol.messages import ClientBase, ClientMessage, ServerMessage

BEGIN = "<!-- fields:begin -->"
END = "<!-- fields:end -->"

_SINCE = re.compile(r"\b[Ss]ince (\d+\.\d+)")

SEAT = "a seat"
SIDE = "a side"
CARD = "a card"
CARDS = "cards"
SUIT = "a suit"
PER_SIDE = "one a side"
PER_SEAT = "one a seat"
LEGEND = (
    "In the tables, a *seat* is 0 to `players` - 1 and a *side* 0 to sides - 1 (section 3), "
    "one a side (or seat) means a list indexed by side (or seat) number, a *card* is its text "
    "form (section 1) and a *suit* a letter `C`, `D`, `H` or `S`. *default* is what a missing "
    "field reads as; *since* is blank for 1.0."
)

ALLOWED: dict[str, str] = {
    "Hello.version": "`MAJOR.MINOR` or `MAJOR`, ASCII digits (section 7)",
    "Hello.name": "1 to `max_name_chars` printable characters (section 7)",
    "CreateTable.name": "up to `max_name_chars` printable characters",
    "CreateTable.seed": "0 to 2^63 - 1",
    "CreateTable.bots": "names from `welcome.bots`, at most `players`",
    "Join.table": "a table id",
    "Join.seat": SEAT,
    "Spectate.table": "a table id",
    "AddBot.table": "your own table's id",
    "AddBot.bot": "a name from `welcome.bots`",
    "AddBot.seat": SEAT,
    "Act.request": "the `request` of your pending `decide`",
    "Act.action": "an action's text form (section 2)",
    "SendChat.text": "1 to `max_chat_chars` printable characters",
    "WireRules.players": "2 to 7",
    "WireRules.teams": "`null`, or a divisor T of `players` with at least 2 a side (`null` refused with `pedro`)",
    "WireRules.target": "7, 10, 11, 21, 31, 52 (10, 31, 52 since 1.4)",
    "WireRules.hand_limit": "`null` or at least 1",
    "WireRules.min_bid": "1, 2 (refused with `ten_point`)",
    "Clock.decision_seconds": "`null`, or 0.01 to 3600",
    "Clock.bot_after_timeouts": "`null`, or at least 1",
    "SeatInfo.seat": SEAT,
    "SeatInfo.name": "`null` for an empty seat",
    "TableInfo.table": "the table's id, e.g. `t3`",
    "SeatCard.seat": SEAT,
    "SeatCard.card": CARD,
    "WireBid.seat": SEAT,
    "WireBid.bid": "the variant's bids (1 to 4 in the standard game); `null` for a pass",
    "WireTrick.number": "1 to 6",
    "WireTrick.leader": SEAT,
    "WireTrick.cards": f"{CARDS}, in playing order from the leader",
    "WireTrick.winner": SEAT,
    "WireHandResult.hand_number": "1, 2, ...",
    "WireHandResult.dealer": SEAT,
    "WireHandResult.pitcher": SEAT,
    "WireHandResult.bid": "the variant's bids (1 to 4 in the standard game)",
    "WireHandResult.trump": SUIT,
    "WireHandResult.high": f"{SEAT}; `null`: no natural trump dealt (a variant's hand)",
    "WireHandResult.high_card": f"{CARD}; `null` with `high`",
    "WireHandResult.low": f"{SEAT}; `null`: no natural trump dealt (a variant's hand)",
    "WireHandResult.low_card": f"{CARD}; `null` with `low`",
    "WireHandResult.awards": "in the order of section 3's points; empty from an older peer",
    "WireAward.value": "1, 2 or 3 (section 3)",
    "WireAward.side": SIDE,
    "WireAward.seat": f"{SEAT}; `null` for Game",
    "WireAward.card": f"{CARD}; `null` for Game",
    "WireHandResult.jack": f"{SEAT}; `null`: not dealt",
    "WireHandResult.game": f"{SIDE}; `null`: nobody",
    "WireHandResult.low_captured_by": f"{SEAT}; `null` from an older peer",
    "WireHandResult.game_pips": PER_SIDE,
    "WireHandResult.points": PER_SIDE,
    "WireHandResult.deltas": PER_SIDE,
    "WireHandResult.scores": PER_SIDE,
    "WireOutcome.winner": SIDE,
    "WireOutcome.reason": "`smudge`, `smudge_failed`, `pitcher_reached_target`, `highest_score`, `hand_limit`",
    "WireOutcome.scores": PER_SIDE,
    "WireView.seat": f"{SEAT}; `null` for a spectator",
    "WireView.hand_number": "1, 2, ...",
    "WireView.dealer": SEAT,
    "WireView.to_act": f"{SEAT}; `null` once the game is over",
    "WireView.hand": f"{CARDS}, by ascending index; empty for a spectator",
    "WireView.hand_sizes": PER_SEAT,
    "WireView.pitcher": f"{SEAT}; `null` while bidding",
    "WireView.bid": "the variant's bids (1 to 4 in the standard game); `null` while bidding",
    "WireView.trump": f"{SUIT}; `null` until the pitcher leads",
    "WireView.scores": PER_SIDE,
    "WireView.legal": "actions' text forms (section 2), ascending by code",
    "DecisionClock.limit_ms": "`null` without a clock",
    "DecisionClock.remaining_ms": "0 to `limit_ms`; `null` without a clock",
    "CardsDrawnEvent.draws": "one a contender, ascending by seat",
    "DealerChosenEvent.dealer": SEAT,
    "HandDealtEvent.hand_number": "1, 2, ...",
    "HandDealtEvent.dealer": SEAT,
    "HandDealtEvent.pone": SEAT,
    "HandDealtEvent.cut": "4 to 48 (0 for a set deal)",
    "HandDealtEvent.cards": f"six {CARDS}, by ascending index; empty for a spectator",
    "PassedEvent.seat": SEAT,
    "BidEvent.seat": SEAT,
    "BidEvent.amount": "the variant's bids (1 to 4 in the standard game)",
    "ThrownInEvent.dealer": SEAT,
    "PitcherChosenEvent.pitcher": SEAT,
    "PitcherChosenEvent.bid": "the variant's bids (1 to 4 in the standard game)",
    "TrumpPitchedEvent.seat": SEAT,
    "TrumpPitchedEvent.trump": SUIT,
    "CardPlayedEvent.seat": SEAT,
    "CardPlayedEvent.card": CARD,
    "TrickWonEvent.number": "1 to 6",
    "TrickWonEvent.winner": SEAT,
    "TimedOutEvent.seat": SEAT,
    "TimedOutEvent.action": "an action's text form (section 2)",
    "TimedOutEvent.timeouts": "1, 2, ... (in a row)",
    "TurnEvent.seat": SEAT,
    "TurnEvent.limit_ms": "`null` for a built-in bot or an untimed table",
    "TurnEvent.remaining_ms": "`null` for a built-in bot or an untimed table",
    "Welcome.version": "`MAJOR.MINOR`",
    "Welcome.capabilities": (
        "`chat`, `spectate`, `reconnect`, `builtin_bots`, `clocks`, `events_optional`, `resync`, `variants`"
    ),
    "Error.code": "a code of section 12",
    "Error.path": "a JSON path such as `$.rules.players`",
    "Error.options": "two option names, e.g. `[\"variant\", \"teams\"]`",
    "Joined.seat": SEAT,
    "GameStarted.game": "0, 1, ... at this table",
    "GameStarted.players": "one name a seat",
    "GameOver.game": "0, 1, ... at this table",
    "Decide.seat": SEAT,
    "Snapshot.players": "one name a seat",
    "Snapshot.game": "0, 1, ... at this table",
    "Snapshot.results": "oldest first, at most 500",
    "Snapshot.chat": "oldest first, at most 50",
    "Snapshot.clock": "`null` once the game is over",
    "CreateTable.bot_pace": "`null`, or 0 to 10 seconds",
    "TableInfo.bot_pace": "0 to 10 seconds",
    "WireView.winning": f"{SEAT}; `null` while the trick in play is empty",
    "CardPlayedEvent.winning": SEAT,
    "Chat.table": "`null` for lobby chat",
}
"""What each field may hold beyond what its type says, by ``Struct.field``."""


def fields_markdown() -> str:
    """The tables, as spec.md holds them between :data:`BEGIN` and :data:`END`."""
    client, server, objects, events = _groups()
    common = ", ".join(f"`{f.name}` ({_type(f.type)}, default {_default_text(f)})"
                       for f in mi.type_info(ClientBase).fields)  # type: ignore[attr-defined]
    parts = [
        LEGEND + "\n",
        "### Client to server\n",
        f"Every message has `type`, its name (required), and {common}: both left out of the tables.\n",
        *(_table(c, skip_id=True) for c in client),
        "### Server to client\n",
        "Every message has `type`, its name (left out of the tables).\n",
        *(_table(c) for c in server),
        "### Objects inside messages\n",
        *(_table(c) for c in objects),
        "### Events\n",
        "The `event` object of an `event` message; `kind` is its name (left out of the tables).\n",
        *(_table(c) for c in events),
    ]
    return "\n".join(parts)


def structs() -> list[type]:
    """Every Struct of the protocol, in the order of the tables: client messages, server
    messages, the objects inside them, the events."""
    return [cls for group in _groups() for cls in group]


def since(cls: type, field: str | None = None) -> str:
    """The version that brought the message ``cls`` (its docstring's first paragraph says), or
    its ``field`` (the field's docstring says; else the message's)."""
    own = _since((cls.__doc__ or "").split("\n\n")[0])
    return own if field is None else _since(_field_doc(cls, field) or "", own)


def replace_block(text: str, begin: str, end: str, block: str) -> str:
    """``text`` with what lies between the markers ``begin`` and ``end`` replaced by ``block``."""
    start, stop = text.index(begin) + len(begin), text.index(end)
    return f"{text[:start]}\n{block.strip()}\n{text[stop:]}"


def block_of(text: str, begin: str, end: str) -> str:
    """What lies between the markers ``begin`` and ``end`` of ``text``, stripped."""
    return text[text.index(begin) + len(begin):text.index(end)].strip()


# -- the tables ------------------------------------------------------------------------------


def _table(cls: type, skip_id: bool = False) -> str:
    info = mi.type_info(cls)
    assert isinstance(info, mi.StructType)
    name = f"`{info.tag}`" if info.tag is not None else f"`{cls.__name__}`"
    brought = since(cls)
    heading = f"#### {name}" + (f" (since {brought})" if brought != "1.0" else "") + "\n"
    rows = [f for f in info.fields if not (skip_id and f.name == "id")]
    if not rows:
        return heading + "\nNo other fields.\n"
    lines = ["| field | type | default | allowed | since |", "| --- | --- | --- | --- | --- |"]
    for f in rows:
        default = "required" if f.required else _default_text(f)
        allowed = ALLOWED.get(f"{cls.__name__}.{f.name}") or _constraints(f.type)
        field_since = since(cls, f.name)
        shown = "" if field_since == "1.0" else field_since
        lines.append(f"| `{f.encode_name}` | {_type(f.type)} | {default} | {allowed} | {shown} |")
    return heading + "\n" + "\n".join(lines) + "\n"


def _type(t: mi.Type) -> str:
    """A JSON type in words: ``integer``, ``list of string``, ``SeatCard``, ``string or null``."""
    match t:
        case mi.Metadata():
            return _type(t.type)
        case mi.IntType():
            return "integer"
        case mi.FloatType():
            return "number"
        case mi.StrType():
            return "string"
        case mi.BoolType():
            return "boolean"
        case mi.NoneType():
            return "null"
        case mi.LiteralType():
            return "string" if all(isinstance(v, str) for v in t.values) else "integer"
        case mi.ListType():
            return f"list of {_type(t.item_type)}"
        case mi.StructType() if t.tag_field is not None:
            return f"object: `{t.cls.__name__}`"
        case mi.StructType():
            return f"`{t.cls.__name__}`"
        case mi.UnionType() if all(isinstance(u, mi.StructType) and u.tag_field == "kind" for u in t.types):
            return "an event object (below)"
        case mi.UnionType():
            words = [_type(u) for u in t.types]
            return ", ".join(words[:-1]) + " or " + words[-1]
    raise TypeError(f"no words for the type {t!r}")


def _constraints(t: mi.Type) -> str:
    """What the type itself allows beyond its JSON type: an enum, a range, a pattern."""
    match t:
        case mi.Metadata():
            return _constraints(t.type)
        case mi.LiteralType():
            return ", ".join(f"`{v}`" for v in t.values)
        case mi.IntType() | mi.FloatType():
            low, high = t.ge, t.le
            if low is not None and high is not None:
                return f"{low} to {high}"
            return f"at least {low}" if low is not None else (f"at most {high}" if high is not None else "")
        case mi.StrType() if t.pattern is not None:
            return f"matches `{t.pattern}`"
        case mi.UnionType():
            return "; ".join(c for c in (_constraints(u) for u in t.types) if c)
    return ""


def _default_text(f: mi.Field) -> str:
    if f.default_factory is not msgspec.NODEFAULT:
        made = f.default_factory()
        return "`[]`" if made == [] else "every field's default"
    if f.default is msgspec.NODEFAULT:  # left out while it has its default (msgspec.UNSET)
        extra = (f.type.extra_json_schema if isinstance(f.type, mi.Metadata) else None) or {}
        if "description" in extra:
            return str(extra["description"])
        if extra.get("default") is None:
            return "absent"
        return f"`{json.dumps(extra['default'])}` (left out while so)"
    return f"`{json.dumps(f.default)}`"


def _since(doc: str, otherwise: str = "1.0") -> str:
    found = _SINCE.search(doc)
    return found.group(1) if found else otherwise


# -- the types, in the order a reader meets them -------------------------------------------------


def _groups() -> tuple[list[type], list[type], list[type], list[type]]:
    """The client messages, the server messages, the objects inside them, the events."""
    client, server = _union_members(ClientMessage), _union_members(ServerMessage)
    events = _union_members(messages.WireEvent)
    return client, server, [c for c in _nested(client + server) if c not in events], events


def _union_members(union: object) -> list[type]:
    info = mi.type_info(union)
    assert isinstance(info, mi.UnionType)
    return [t.cls for t in info.types if isinstance(t, mi.StructType)]


def _nested(roots: list[type]) -> list[type]:
    """Every Struct inside ``roots``' fields, each once, in the order they are first met."""
    seen: list[type] = []

    def visit(t: mi.Type) -> Iterator[type]:
        match t:
            case mi.Metadata():
                yield from visit(t.type)
            case mi.StructType():
                yield t.cls
                for f in t.fields:
                    yield from visit(f.type)
            case mi.ListType():
                yield from visit(t.item_type)
            case mi.UnionType():
                for u in t.types:
                    yield from visit(u)

    for root in roots:
        for f in mi.type_info(root).fields:  # type: ignore[attr-defined]
            for cls in visit(f.type):
                if cls not in seen and cls not in roots:
                    seen.append(cls)
    return seen


@cache
def _docstrings() -> dict[str, dict[str, str]]:
    """Each Struct's field docstrings (the string after a field's line), by class and field name."""
    found: dict[str, dict[str, str]] = {}
    for node in ast.parse(inspect.getsource(messages)).body:
        if isinstance(node, ast.ClassDef):
            docs = found[node.name] = {}
            for field, after in zip(node.body, node.body[1:], strict=False):
                if isinstance(field, ast.AnnAssign) and isinstance(field.target, ast.Name) \
                        and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant) \
                        and isinstance(after.value.value, str):
                    docs[field.target.id] = after.value.value
    return found


def _field_doc(cls: type, name: str) -> str | None:
    """The docstring of the field ``name`` of ``cls``, or of the base class that declares it."""
    return next((d[name] for c in cls.__mro__ if name in (d := _docstrings().get(c.__name__, {}))), None)
