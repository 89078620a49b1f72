"""Every message of the wire protocol, as msgspec Structs (spec.md, "Messages").

One base class per direction sets the tag field ``type``; :data:`ClientMessage` and
:data:`ServerMessage` are the unions a peer decodes. Game events travel inside
:class:`EventMessage` as :data:`WireEvent`, tagged by ``kind``. Cards, suits and
actions travel in their text forms (``AS``, ``H``, ``bid 2``).

Evolution (spec.md, "Versioning"): a field added in a minor version has a default;
no field ever changes type; unknown fields are ignored by every decoder.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

import msgspec

from setback.engine.rules import DEFAULT_HAND_LIMIT
from setback.engine.variants import VARIANTS
from setback.engine.variants import Variant as EngineVariant

Variant = Literal["standard", "joker", "ten_point", "pedro"]
"""The ``variant`` option's values (the engine's :class:`~setback.engine.Variant`)."""
Point = Literal[
    "high", "low", "jack", "game", "joker", "off_jack", "big_joker", "little_joker", "three", "five", "off_five"
]
"""A point's name in a hand's result (the engine's :class:`~setback.engine.Point`)."""

RequestId = int | str | None


def _absent_means(default: object) -> msgspec.Meta:
    """The schema of an option left out of the JSON at its default: the default it reads as."""
    return msgspec.Meta(extra_json_schema={"default": default})


_VARIANTS_TARGET = msgspec.Meta(extra_json_schema={
    "default": 11, "description": "left out: the variant's default (11; joker 10, ten_point 21, pedro 31)",
})
"""The schema of ``target``: a missing one reads as the variant's default target."""

_VARIANTS_TEAMS = msgspec.Meta(extra_json_schema={
    "default": None, "description": "left out: the variant's sides (`null`; pedro `players / 2`)",
})
"""The schema of ``teams``: a missing one reads as the variant's sides, ``null`` as cutthroat."""


class WireRules(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A table's options (spec.md section 3).

    The club options (since 1.3: min_bid, dealer_steal, low) and the variant (since 1.4) are
    left out while they have their default, and a missing one reads as its default: a table
    of today's game is sent exactly as a 1.2 peer knows it. A missing ``target`` reads as the
    variant's default (11 in the standard game, as before 1.4); a server always sends it.
    A missing ``teams`` reads as the variant's sides (cutthroat, as before 1.4; pedro pairs),
    and an explicit ``null`` as cutthroat: it is decided when the rules are made or decoded,
    so ``teams`` is never left unset after that and is always sent.
    """

    players: int = 4
    if TYPE_CHECKING:
        teams: int | None = None
    else:
        teams: Annotated[int | None, _VARIANTS_TEAMS] | msgspec.UnsetType = msgspec.UNSET
    target: Annotated[int, _VARIANTS_TARGET] | msgspec.UnsetType = msgspec.UNSET
    """Left out (``create_table`` only: a server always sends it): the variant's default target."""
    forced_dealer_bid: bool = True
    smudge: bool = False
    no_junk: bool = False
    hand_limit: int | None = DEFAULT_HAND_LIMIT
    min_bid: Annotated[int, _absent_means(1)] | msgspec.UnsetType = msgspec.UNSET
    """Since 1.3: the lowest bid, 1 or 2."""
    dealer_steal: Annotated[bool, _absent_means(False)] | msgspec.UnsetType = msgspec.UNSET
    """Since 1.3: the dealer may take the bid at the highest bid so far."""
    low: Annotated[Literal["dealt", "captured"], _absent_means("dealt")] | msgspec.UnsetType = msgspec.UNSET
    """Since 1.3: Low to the side dealt the lowest trump (``dealt``) or to the side that captures it
    (``captured``)."""
    variant: Annotated[Variant, _absent_means("standard")] | msgspec.UnsetType = msgspec.UNSET
    """Since 1.4: the game played (spec.md section 3, "Variants")."""

    def __post_init__(self) -> None:
        given: object = self.teams  # UNSET only until here (the type the code reads leaves it out)
        if given is msgspec.UNSET:  # left out: the variant's sides (spec.md section 3)
            self.teams = self.players // 2 if VARIANTS[self.game()].partnerships_only else None

    def game(self) -> EngineVariant:
        """The engine's variant (the standard game when left out): ask it which suit a card
        belongs to (:func:`setback.engine.suit_of`, :func:`setback.engine.is_trump`)."""
        return EngineVariant("standard" if self.variant is msgspec.UNSET else self.variant)

    def points_to_win(self) -> int:
        """The target: as given, else the variant's default."""
        return VARIANTS[self.game()].default_target if self.target is msgspec.UNSET else self.target


class Clock(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A table's clock: seconds per decision (None: untimed) and what happens on timeouts."""

    decision_seconds: float | None = 60.0
    bot_after_timeouts: int | None = 3
    """Consecutive timeouts after which a built-in bot takes the seat (None: never)."""


# -- client to server --------------------------------------------------------------


class ClientBase(msgspec.Struct, tag_field="type", kw_only=True):
    id: RequestId = None
    """Chosen by the client; echoed in the reply or error that answers this message."""


class IdOnly(msgspec.Struct):
    """Any message, read for its ``id`` alone (to answer a line refused with the right id)."""

    id: RequestId = None


VERSION_PATTERN = r"^[0-9]+(\.[0-9]+)?$(?!\n)"
"""``MAJOR.MINOR`` in ASCII digits, or ``MAJOR``, and nothing around them. Python's ``$`` (which
msgspec uses) also matches before a final newline, JSON Schema's does not: the lookahead makes
both read it as the end of the text (Python's end-of-text escape is no JSON Schema pattern)."""


class Hello(ClientBase, tag="hello", kw_only=True):
    version: Annotated[str, msgspec.Meta(pattern=VERSION_PATTERN)]
    """``MAJOR.MINOR`` (or ``MAJOR``)."""
    name: str
    kind: Literal["human", "bot"] = "human"
    """A person or a program; a hello without it is a person's (every version alike)."""
    token: str | None = None
    password: str | None = None
    events: bool = True
    """Receive the event stream; a stateless bot may turn it off and rely on decide views."""


class ListTables(ClientBase, tag="list_tables", kw_only=True):
    pass


SEED_LIMIT = 2**63
"""Seeds are whole numbers from 0 up to, not including, 2^63 (what a record's file keeps);
the n-th game at a seeded table is dealt from (seed + n) mod 2^63."""

Seed = Annotated[int, msgspec.Meta(ge=0, le=SEED_LIMIT - 1)]

MAX_BOT_PACE = 10.0
"""The longest a table may ask its bots to wait before each move, in seconds."""
DEFAULT_BOT_PACE = 0.8
"""The seconds a bot waits before its move while a person sits at its table, unless the table
or the server (``setback serve --bot-pace``) says otherwise: long enough to see a card land."""

BotPace = Annotated[float, msgspec.Meta(ge=0, le=MAX_BOT_PACE)]


class CreateTable(ClientBase, tag="create_table", kw_only=True):
    name: str | None = None
    rules: WireRules = msgspec.field(default_factory=WireRules)
    clock: Clock = msgspec.field(default_factory=Clock)
    seed: Seed | None = None
    bots: list[str] = msgspec.field(default_factory=list)
    """Built-in bots to seat at once, in the lowest free seats."""
    bot_chat: bool = False
    rated: bool = False
    """Games here count towards the players' ratings (never at a seeded table)."""
    private: bool = False
    """Joining or watching needs the invite code the server gives in the reply."""
    spectate: bool = False
    """Watch the table from the start: ``spectating`` follows the reply, before any game (since 1.1)."""
    bot_pace: BotPace | None = None
    """Seconds each built-in or stand-in bot waits before its move while a person sits here, so
    that people see every card land (0: no wait); None: the server's default (since 1.3)."""


class Join(ClientBase, tag="join", kw_only=True):
    table: str
    seat: int | None = None
    ready: bool = False
    invite: str | None = None


class Spectate(ClientBase, tag="spectate", kw_only=True):
    table: str
    invite: str | None = None


class Leave(ClientBase, tag="leave", kw_only=True):
    pass


class Resync(ClientBase, tag="resync", kw_only=True):
    """Ask for the table as it stands: a ``snapshot``, and the pending ``decide`` if your seat
    is to act (since 1.2)."""


class AddBot(ClientBase, tag="add_bot", kw_only=True):
    table: str | None = None
    """The table to seat the bot at; None: the sender's own table."""
    bot: str = "random"
    seat: int | None = None


class Ready(ClientBase, tag="ready", kw_only=True):
    ready: bool = True


class Act(ClientBase, tag="act", kw_only=True):
    request: int
    action: str


class SendChat(ClientBase, tag="chat", kw_only=True):
    text: str
    scope: Literal["table", "lobby"] = "table"


class Ping(ClientBase, tag="ping", kw_only=True):
    nonce: int | None = None


class Pong(ClientBase, tag="pong", kw_only=True):
    nonce: int | None = None


ClientMessage = (
    Hello | ListTables | CreateTable | Join | Spectate | Leave | Resync | AddBot | Ready | Act | SendChat | Ping
    | Pong
)

# -- what the server describes ---------------------------------------------------


class Limits(msgspec.Struct, kw_only=True):
    max_line_bytes: int
    max_messages_per_second: float
    message_burst: int
    hello_timeout_seconds: float
    idle_timeout_seconds: float
    heartbeat_seconds: float
    reconnect_grace_seconds: float
    max_chat_chars: int
    max_name_chars: int


class SeatInfo(msgspec.Struct, kw_only=True):
    seat: int
    name: str | None
    kind: Literal["empty", "human", "bot", "builtin"]
    ready: bool
    connected: bool
    timeouts: int = 0
    replaced_by_bot: bool = False
    rating: float | None = None
    """The player's rating from rated tables, when it has one."""


class TableInfo(msgspec.Struct, kw_only=True):
    table: str
    name: str
    rules: WireRules
    clock: Clock
    seats: list[SeatInfo]
    spectators: int
    status: Literal["waiting", "playing", "finished", "broken"]
    games_played: int
    seeded: bool
    """True when the creator chose the seed: its deals are known to whoever chose it."""
    rated: bool = False
    private: bool = False
    invite: str | None = None
    """The invite code: only in the reply to the table's creator."""
    bot_pace: float = 0.0
    """The seconds its bots wait before each move while a person sits here (since 1.3; an older
    server's bots never wait for people)."""


class SeatCard(msgspec.Struct):
    seat: int
    card: str


class WireBid(msgspec.Struct):
    seat: int
    bid: int | None
    """None for a pass."""


class WireTrick(msgspec.Struct):
    number: int
    leader: int
    cards: list[str]
    winner: int


class WireAward(msgspec.Struct, kw_only=True):
    """One point of a hand won: ``value`` to ``side``; ``seat`` the player dealt the card (High,
    Low with ``low`` dealt) or who captured it (Low with ``low`` captured, every card point), None
    for Game; ``card`` the card that scored, None for Game (since 1.4)."""

    point: Point
    value: int
    side: int
    seat: int | None
    card: str | None


class WireHandResult(msgspec.Struct, kw_only=True):
    hand_number: int
    dealer: int
    pitcher: int
    bid: int
    trump: str
    high: int | None
    """A seat; None when no natural trump was dealt (a variant's hand, protocol 1.4): nobody takes High."""
    high_card: str | None
    low: int | None
    """A seat; None when no natural trump was dealt (a variant's hand, protocol 1.4): nobody takes Low."""
    low_card: str | None
    jack: int | None
    game: int | None
    game_pips: list[int]
    points: list[int]
    set_back: bool
    deltas: list[int]
    scores: list[int]
    stolen: bool = False
    """Since 1.3: the dealer took the bid at the highest bid so far (``dealer_steal``)."""
    low_captured_by: int | None = None
    """Since 1.3: the seat that captured the lowest trump in a trick (Low's holder with ``low`` captured)."""
    awards: list[WireAward] = msgspec.field(default_factory=list)
    """Since 1.4: every point won, by name, in the order the variant lists its points; ``points``
    are their sums by side."""


class WireOutcome(msgspec.Struct, kw_only=True):
    winner: int
    reason: str
    hands_dealt: int
    scores: list[int]


class WireView(msgspec.Struct, kw_only=True):
    """A seat's view (spec.md, "Views"): everything that seat may know, nothing else."""

    seat: int | None
    rules: WireRules
    phase: Literal["bidding", "playing", "game_over"]
    hand_number: int
    dealer: int
    to_act: int | None
    hand: list[str]
    hand_sizes: list[int]
    bids: list[WireBid]
    pitcher: int | None
    bid: int | None
    trump: str | None
    trick: list[SeatCard]
    tricks: list[WireTrick]
    scores: list[int]
    last_result: WireHandResult | None
    legal: list[str]
    outcome: WireOutcome | None
    winning: int | None = None
    """The seat whose card wins the trick in play so far; None while no card is in it (since 1.3)."""


class DecisionClock(msgspec.Struct, kw_only=True):
    limit_ms: int | None
    remaining_ms: int | None


# -- events, tagged by kind ------------------------------------------------------------


class EventBase(msgspec.Struct, tag_field="kind", kw_only=True):
    pass


class CardsDrawnEvent(EventBase, tag="cards_drawn", kw_only=True):
    draws: list[SeatCard]


class DealerChosenEvent(EventBase, tag="dealer_chosen", kw_only=True):
    dealer: int


class HandDealtEvent(EventBase, tag="hand_dealt", kw_only=True):
    hand_number: int
    dealer: int
    pone: int
    cut: int
    cards: list[str]
    """The receiving seat's own six cards; empty for a spectator."""


class PassedEvent(EventBase, tag="passed", kw_only=True):
    seat: int


class BidEvent(EventBase, tag="bid", kw_only=True):
    seat: int
    amount: int


class ThrownInEvent(EventBase, tag="thrown_in", kw_only=True):
    hand_number: int
    dealer: int


class PitcherChosenEvent(EventBase, tag="pitcher_chosen", kw_only=True):
    pitcher: int
    bid: int


class TrumpPitchedEvent(EventBase, tag="trump_pitched", kw_only=True):
    seat: int
    trump: str


class CardPlayedEvent(EventBase, tag="card_played", kw_only=True):
    seat: int
    card: str
    winning: int | None = None
    """The seat whose card wins the trick so far, this one included (since 1.3)."""


class TrickWonEvent(EventBase, tag="trick_won", kw_only=True):
    number: int
    winner: int
    plays: list[SeatCard]


class HandScoredEvent(EventBase, tag="hand_scored", kw_only=True):
    result: WireHandResult


class GameWonEvent(EventBase, tag="game_won", kw_only=True):
    outcome: WireOutcome


class TimedOutEvent(EventBase, tag="timed_out", kw_only=True):
    """The seat's clock ran out; the server played ``action`` for it."""

    seat: int
    action: str
    timeouts: int


class TurnEvent(EventBase, tag="turn", kw_only=True):
    """The seat to act now, and its clock (both null for a built-in bot or an untimed table)."""

    seat: int
    limit_ms: int | None
    remaining_ms: int | None


WireEvent = (
    CardsDrawnEvent
    | DealerChosenEvent
    | HandDealtEvent
    | PassedEvent
    | BidEvent
    | ThrownInEvent
    | PitcherChosenEvent
    | TrumpPitchedEvent
    | CardPlayedEvent
    | TrickWonEvent
    | HandScoredEvent
    | GameWonEvent
    | TimedOutEvent
    | TurnEvent
)

# -- server to client --------------------------------------------------------------


class ServerBase(msgspec.Struct, tag_field="type", kw_only=True):
    pass


class Welcome(ServerBase, tag="welcome", kw_only=True):
    id: RequestId = None
    version: str
    server: str
    player: str
    token: str
    limits: Limits
    capabilities: list[str]
    bots: list[str]
    """The built-in bots this server can seat."""


class Error(ServerBase, tag="error", kw_only=True):
    id: RequestId = None
    code: str
    message: str
    path: str | None = None
    fatal: bool = False
    request: int | None = None
    """Your pending request, which stands: the ``request`` to answer after ``stale_request`` or
    ``illegal_action``; None in other errors (since 1.3)."""
    options: list[str] | None = None
    """The two table options that do not go together, after ``refused`` for a combination
    (``["variant", "teams"]``); None in other errors (since 1.4)."""


class Ok(ServerBase, tag="ok", kw_only=True):
    id: RequestId = None


class Tables(ServerBase, tag="tables", kw_only=True):
    id: RequestId = None
    tables: list[TableInfo]


class TableUpdate(ServerBase, tag="table", kw_only=True):
    id: RequestId = None
    table: TableInfo


class Joined(ServerBase, tag="joined", kw_only=True):
    id: RequestId = None
    table: str
    seat: int
    token: str
    """The seat token: hello with it to take the seat back after a drop."""


class Spectating(ServerBase, tag="spectating", kw_only=True):
    id: RequestId = None
    table: str


class Left(ServerBase, tag="left", kw_only=True):
    id: RequestId = None
    table: str


class GameStarted(ServerBase, tag="game_started", kw_only=True):
    table: str
    game: int
    rules: WireRules
    players: list[str]


class GameOver(ServerBase, tag="game_over", kw_only=True):
    """Sent to every seat and spectator, events or not: send ``ready`` to play again."""

    table: str
    game: int
    outcome: WireOutcome


class EventMessage(ServerBase, tag="event", kw_only=True):
    table: str
    event: WireEvent


class Decide(ServerBase, tag="decide", kw_only=True):
    """The seat must act: answer with ``act`` carrying ``request``."""

    table: str
    request: int
    seat: int
    view: WireView
    clock: DecisionClock


class ChatLine(msgspec.Struct, kw_only=True):
    """A line said at a table, as a snapshot recalls it."""

    sender: str
    text: str


class Snapshot(ServerBase, tag="snapshot", kw_only=True):
    """The table as it stands, and what a player at a real table would remember of it."""

    id: RequestId = None
    """The ``id`` of the ``resync`` it answers; None in any other snapshot (since 1.3)."""
    table: str
    view: WireView
    players: list[str] = msgspec.field(default_factory=list)
    """The name at each seat."""
    game: int | None = None
    """The game's number at this table, as in ``game_started`` (since 1.3)."""
    results: list[WireHandResult] = msgspec.field(default_factory=list)
    """The results of this game's scored hands so far, oldest first: a score history (since 1.3)."""
    chat: list[ChatLine] = msgspec.field(default_factory=list)
    """The table's latest chat lines, oldest first (since 1.3)."""
    clock: DecisionClock | None = None
    """The clock of the seat to act, as a ``turn`` event gives it, its remaining time as of now;
    None once the game is over (since 1.3)."""


class TableClosed(ServerBase, tag="table_closed", kw_only=True):
    """A table is gone (everyone left): sent to the lobby."""

    table: str


class Chat(ServerBase, tag="chat", kw_only=True):
    id: RequestId = None
    """Only in the sender's own copy: the id of its ``chat`` request (since 1.1)."""
    scope: Literal["table", "lobby"]
    table: str | None
    sender: str
    text: str


class ServerPing(ServerBase, tag="ping", kw_only=True):
    nonce: int | None = None


class ServerPong(ServerBase, tag="pong", kw_only=True):
    id: RequestId = None
    nonce: int | None = None


class Goodbye(ServerBase, tag="goodbye", kw_only=True):
    reason: str


ServerMessage = (
    Welcome
    | Error
    | Ok
    | Tables
    | TableUpdate
    | Joined
    | Spectating
    | Left
    | GameStarted
    | GameOver
    | EventMessage
    | Decide
    | Snapshot
    | TableClosed
    | Chat
    | ServerPing
    | ServerPong
    | Goodbye
)
