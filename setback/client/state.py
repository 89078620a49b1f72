"""What the text client knows, folded from the server's messages: the model the screen draws.

:class:`ClientState` is pure and synchronous, like a sans-IO protocol machine: the network
task hands it each server message (:meth:`ClientState.receive`) and each request it sends
(:meth:`ClientState.sending`), and sends whatever :meth:`~ClientState.receive` answers it
should (joining the table it just created, say). Widgets only read it.

It keeps only what arrived: this seat's own cards, the cards played face up, the number of
cards each other seat holds, never more. A spectator's hand is empty.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field
from enum import StrEnum

from setback.client.render import held_order
from setback.client.words import error_text, seat_word
from setback.engine import Card, Suit
from setback.protocol.messages import (
    Act,
    AddBot,
    BidEvent,
    CardPlayedEvent,
    Chat,
    ClientMessage,
    Clock,
    CreateTable,
    DealerChosenEvent,
    Decide,
    Error,
    EventMessage,
    GameStarted,
    GameWonEvent,
    HandDealtEvent,
    HandScoredEvent,
    Join,
    Joined,
    Left,
    ListTables,
    Ok,
    PassedEvent,
    PitcherChosenEvent,
    Ready,
    RequestId,
    SeatCard,
    ServerMessage,
    Snapshot,
    Spectate,
    Spectating,
    TableInfo,
    Tables,
    TableUpdate,
    ThrownInEvent,
    TimedOutEvent,
    TrickWonEvent,
    TrumpPitchedEvent,
    TurnEvent,
    Welcome,
    WireHandResult,
    WireOutcome,
    WireRules,
    WireTrick,
    WireView,
)
from setback.telling.story import Line, event_lines, hand_so_far, hands_so_far, rules_text

LOG_LENGTH = 500
"""Log lines kept; older ones scroll away."""

PREFERRED_BOTS = ("casual", "heuristic", "random")
"""Built-in bots a quick game seats, the first the server offers."""


class Link(StrEnum):
    """The state of the connection to the server."""

    CONNECTING = "connecting"
    ONLINE = "online"
    RECONNECTING = "reconnecting"
    OFFLINE = "offline"


class LogKind(StrEnum):
    GAME = "game"
    SUMMARY = "summary"
    CHAT = "chat"
    """Said at the table: a snapshot recalls it."""
    LOBBY_CHAT = "lobby_chat"
    INFO = "info"
    ERROR = "error"


RECALLED = frozenset({LogKind.GAME, LogKind.SUMMARY, LogKind.CHAT})
"""The lines a snapshot tells again: a table's game and its chat."""


@dataclass(frozen=True)
class LogEntry:
    kind: LogKind
    line: Line
    table: str | None = None
    """The table this client was at when the line was written (None: the lobby)."""


@dataclass(frozen=True)
class QuickGame:
    """A table to create and sit at as soon as the client is welcomed (``setback play --bots``)."""

    rules: WireRules
    bots: int
    clock: Clock = field(default_factory=lambda: Clock(decision_seconds=None))
    seed: int | None = None
    name: str | None = None
    bot: str | None = None
    """The level (or built-in bot) to seat; None: the first of :data:`PREFERRED_BOTS` the server offers."""
    bot_pace: float | None = None
    """How long its bots wait before each move (None: the server's pace)."""
    levels: tuple[str, ...] = ()
    """Each bot seat's level, in seat order, when they differ (empty: ``bot`` in every one)."""


@dataclass
class Decision:
    """A decision the server asked this seat for, and what the client did about it."""

    request: int
    legal: tuple[str, ...]
    """The legal actions in text form, as the server listed them."""
    limit_ms: int | None
    remaining_ms: int | None
    since: float
    """When it arrived (monotonic seconds): the clock runs from here."""
    sent: str | None = None
    """The action sent and not yet answered; the seat waits for the server meanwhile."""

    @property
    def bidding(self) -> bool:
        return not any(a.startswith("play ") for a in self.legal)

    def playable(self) -> frozenset[Card]:
        """The cards that may be played now."""
        return frozenset(Card.parse(a[5:]) for a in self.legal if a.startswith("play "))

    def seconds_left(self, now: float) -> float | None:
        if self.remaining_ms is None:
            return None
        return max(0.0, self.remaining_ms / 1000 - (now - self.since))


@dataclass(frozen=True)
class Play:
    seat: int
    card: Card


@dataclass(frozen=True)
class Trick:
    """A finished trick: its plays from the leader, and who took it, in hand ``hand``."""

    number: int
    plays: tuple[Play, ...]
    winner: int
    hand: int = 0


@dataclass
class GameView:
    """The game at this client's table as this seat (or a spectator) knows it."""

    rules: WireRules
    seat: int | None
    players: list[str]
    game: int | None = None
    phase: str = "dealing"
    """``dealing`` (before the first hand), ``bidding``, ``playing`` or ``game_over``."""
    hand_number: int = 0
    dealer: int | None = None
    to_act: int | None = None
    turn_since: float | None = None
    """When ``to_act`` last changed (monotonic seconds)."""
    turn_remaining_ms: int | None = None
    """The clock of the seat to act when its turn began, as the server's ``turn`` event said."""
    hand: list[Card] = field(default_factory=list)
    """This seat's own cards (empty for a spectator)."""
    hand_sizes: list[int] = field(default_factory=list)
    bids: list[tuple[int, int | None]] = field(default_factory=list)
    """This hand's bids in order: (seat, amount), None for a pass."""
    pitcher: int | None = None
    bid: int | None = None
    trump: Suit | None = None
    trick: list[Play] = field(default_factory=list)
    winning: int | None = None
    """The seat whose card wins the trick in play so far, as the server said (None: no card yet)."""
    last_trick: Trick | None = None
    """The last finished trick: it stays on the table until the next card is led."""
    dealt: list[Card] = field(default_factory=list)
    """This seat's six cards of the hand in the order shown (:func:`held_order`): fixed at the
    deal, so that a number key means the same card all hand long, cards played or not; in a
    variant with an off-card or jokers, sorted once more when trump is named, so that the cards
    that belong to trump sit with it."""
    results: list[WireHandResult] = field(default_factory=list)
    """Every scored hand of this game, oldest first: the score sheet."""
    taken: list[int] = field(default_factory=list)
    """Tricks taken this hand, by seat."""
    scores: list[int] = field(default_factory=list)
    last_result: WireHandResult | None = None
    outcome: WireOutcome | None = None
    decision: Decision | None = None
    stood_in: bool = False
    """A stand-in bot plays this seat after its timeouts, until the player sends ``ready``."""

    def __post_init__(self) -> None:
        players = self.rules.players
        self.hand_sizes = self.hand_sizes or [0] * players
        self.taken = self.taken or [0] * players
        self.scores = self.scores or [0] * (players if self.rules.teams is None else self.rules.teams)

    def bid_of(self, seat: int) -> int | str | None:
        """What ``seat`` bid this hand: an amount, None for a pass, ``""`` when it has not spoken."""
        for who, amount in self.bids:
            if who == seat:
                return amount
        return ""

    def played_by(self, seat: int) -> Card | None:
        """The card ``seat`` laid in the trick in play, if any."""
        return next((p.card for p in self.trick if p.seat == seat), None)

    @property
    def on_table(self) -> tuple[list[Play], int | None, bool]:
        """The cards lying on the table: the trick in play and the seat winning it; or, until
        the next card is led, the last finished trick and who took it (True: it is over)."""
        if self.trick or self.last_trick is None:
            return self.trick, self.winning, False
        return list(self.last_trick.plays), self.last_trick.winner, True

    def places(self) -> list[Card | None]:
        """The hand as shown, left to right: the number keys count from 1 here, and a card
        played leaves its place empty (None)."""
        held = set(self.hand)
        return [card if card in held else None for card in self.dealt]


@dataclass
class ClientState:
    """Everything the screen shows; see the module docstring."""

    name: str
    plan: QuickGame | None = None
    link: Link = Link.CONNECTING
    address: str = ""
    server: str = ""
    version: str = ""
    """The protocol version the server speaks (its welcome's)."""
    bots: list[str] = field(default_factory=list)
    tables: dict[str, TableInfo] = field(default_factory=dict)
    table: str | None = None
    seat: int | None = None
    spectating: bool = False
    game: GameView | None = None
    log: deque[LogEntry] = field(default_factory=lambda: deque(maxlen=LOG_LENGTH))
    logged: int = 0
    """Log lines ever written (the screen appends those it has not shown)."""
    log_epoch: int = 0
    """Counts the times lines were taken out of the log (on moving to another table): the
    screen then draws the log anew."""
    stopped: str | None = None
    """Why the server said it stopped (its goodbye), until it welcomes this client again."""
    retry_at: float | None = None
    """When (monotonic seconds) the next try to reconnect begins; None while trying, or online."""
    notice: str | None = None
    """The latest thing that went wrong, in plain words, until the next action clears it."""
    invites: dict[str, str] = field(default_factory=dict)
    """The invite codes of the private tables this client created, by table."""
    needs_password: bool = False
    """The server refused the hello for its password: the screen asks for it."""
    requests: dict[RequestId, ClientMessage] = field(default_factory=dict)
    """Requests sent with an id and not yet answered."""

    # -- reading ------------------------------------------------------------------------------

    @property
    def table_info(self) -> TableInfo | None:
        return self.tables.get(self.table) if self.table is not None else None

    def names(self) -> list[str]:
        """A name for every seat at this client's table."""
        game, info = self.game, self.table_info
        if game is not None and game.players and (game.outcome is None or info is None):
            return game.players  # a finished game's table shows who sits there now
        if info is not None:  # (a seat emptied at the end of the game keeps the name of who played it)
            played = game.players if game is not None else []
            return [s.name or (played[s.seat] if s.seat < len(played) else seat_word(s.seat)) for s in info.seats]
        players = game.rules.players if game is not None else 0
        return [seat_word(s) for s in range(players)]

    @property
    def recalls(self) -> bool:
        """Whether the server's snapshots tell the story so far (protocol 1.3 on): then the log of
        a table's game and chat is told again from each snapshot."""
        major, _, minor = self.version.partition(".")
        if not major.isdigit() or not (minor or "0").isdigit():
            return False
        return (int(major), int(minor or "0")) >= (1, 3)

    @property
    def my_turn(self) -> bool:
        game = self.game
        return game is not None and game.decision is not None and game.decision.sent is None

    def away_seat(self) -> int | None:
        """The first seat at this table whose player is away with no bot standing in, if any."""
        info = self.table_info
        if info is None:
            return None
        return next((s.seat for s in info.seats
                     if s.kind in {"human", "bot"} and not s.connected and not s.replaced_by_bot), None)

    def preferred_bot(self) -> str:
        return next((b for b in PREFERRED_BOTS if b in self.bots), self.bots[0] if self.bots else "random")

    # -- writing ------------------------------------------------------------------------------

    def say(self, kind: LogKind, *line: str | Card) -> None:
        self.log.append(LogEntry(kind, tuple(line), self.table))
        self.logged += 1

    def _keep_log_of(self, table: str) -> None:
        """Take out the lines written at other tables: the log tells this table's game only."""
        kept = [entry for entry in self.log if entry.table in (None, table)]
        if len(kept) != len(self.log):
            self.log = deque(kept, maxlen=LOG_LENGTH)
            self.log_epoch += 1

    def connection(self, link: Link, detail: str = "", stopped: bool = False) -> None:
        """The connection changed state (the network task tells); ``stopped``: the server said
        goodbye, with ``detail`` as its reason."""
        if link == self.link:
            return
        self.link = link
        self.retry_at = None
        if link is Link.RECONNECTING and stopped:
            self.stopped = detail or "no reason given"
            self.say(LogKind.ERROR, f"The server stopped ({self.stopped}); reconnecting, less often as time goes by…")
        elif link is Link.RECONNECTING:
            self.say(LogKind.ERROR, f"Connection lost ({detail}); reconnecting…" if detail else "Reconnecting…")
        elif link is Link.OFFLINE:
            self.notice = f"Disconnected: {detail}" if detail else "Disconnected from the server."
            self.say(LogKind.ERROR, self.notice)
            if self.game is not None:
                self.game.decision = None

    def retrying(self, at: float) -> None:
        """The last try to reconnect failed; the next begins at ``at`` (monotonic seconds)."""
        self.retry_at = at

    def sending(self, message: ClientMessage) -> None:
        """A request is about to go out."""
        if message.id is not None:
            self.requests[message.id] = message
        if isinstance(message, Act) and self.game is not None and self.game.decision is not None:
            self.game.decision.sent = message.action
        self.notice = None

    def tell(self, text: str | None) -> None:
        """Show ``text`` as the notice (why the client refused a key, say); None clears it."""
        self.notice = text

    def receive(self, message: ServerMessage, now: float | None = None) -> list[ClientMessage]:
        """Fold one server message in; return the requests the client should send in answer."""
        now = time.monotonic() if now is None else now
        match message:
            case Welcome():
                return self._welcomed(message)
            case Error():
                self._error(message)
            case Ok(id=request):
                self._ok(self.requests.pop(request, None))
            case Tables(tables=tables, id=request):
                self.requests.pop(request, None)
                self.tables = {t.table: t for t in tables}
            case TableUpdate(table=info, id=request):
                return self._table_update(info, self.requests.pop(request, None))
            case Joined(table=table, seat=seat, id=request):
                self.requests.pop(request, None)
                self._arrive(table, seat)
                return [ListTables()]
            case Spectating(table=table, id=request):
                self.requests.pop(request, None)
                self._arrive(table, None)
                return [ListTables()]
            case Left(table=table, id=request):
                self.requests.pop(request, None)
                self.say(LogKind.INFO, f"You left table {table}.")
                self.table, self.seat, self.spectating, self.game = None, None, False, None
                return [ListTables()]
            case GameStarted():
                self._game_started(message)
            case Snapshot(table=table) if table == self.table:
                self._snapshot(message, now)
            case Decide(table=table) if table == self.table:
                self._decide(message, now)
            case EventMessage(table=table) if table == self.table:
                self._event(message, now)
            case Chat(sender=sender, text=text, scope="table"):
                self.say(LogKind.CHAT, f"<{sender}> {text}")
            case Chat(sender=sender, text=text):
                self.say(LogKind.LOBBY_CHAT, f"(lobby) <{sender}> {text}")
        return []

    # -- the lobby ------------------------------------------------------------------------------

    def _welcomed(self, welcome: Welcome) -> list[ClientMessage]:
        first = not self.server
        self.server, self.name, self.bots = welcome.server, welcome.player, list(welcome.bots)
        self.version = welcome.version
        self.link = Link.ONLINE
        self.stopped = self.retry_at = None
        self.requests.clear()
        if first:
            self.say(LogKind.INFO, f"Connected to {welcome.server} as {welcome.player}.")
        else:
            self.say(LogKind.INFO, "Reconnected.")
        answer: list[ClientMessage] = [ListTables()]
        if not first and self.spectating and self.table is not None:  # watch again what we watched
            answer.append(Spectate(table=self.table))
            self.table, self.spectating, self.game = None, False, None
        plan, self.plan = self.plan, None
        if plan is not None:
            bots = list(plan.levels) or [plan.bot or self.preferred_bot()] * plan.bots
            answer.append(CreateTable(
                name=plan.name, rules=plan.rules, clock=plan.clock, seed=plan.seed, bots=bots,
                spectate=len(bots) >= plan.rules.players, bot_pace=plan.bot_pace,
            ))
        return answer

    def _table_update(self, info: TableInfo, request: ClientMessage | None) -> list[ClientMessage]:
        before = self.tables.get(info.table)
        self.tables[info.table] = info
        if info.invite:
            self.invites[info.table] = info.invite
        if info.table == self.table and before is not None:
            for line in seat_changes(before, info, self.seat):
                self.say(LogKind.INFO, line)
        if isinstance(request, CreateTable) and self.table is None:
            rated = "; rated: its games count towards ratings" if info.rated else ""
            self.say(LogKind.INFO, f"Table {info.name} created: {rules_text(info.rules)}{rated}.")
            if info.invite:
                self.say(LogKind.INFO, f"It is private: its invite code is {info.invite}.")
            if request.spectate:
                self.say(LogKind.INFO, "Bots hold every seat: you watch.")  # the server seats us as spectator
                return []
            return [Join(table=info.table, ready=True, invite=info.invite)]
        return []

    def _ok(self, request: ClientMessage | None) -> None:
        match request:
            case Ready(ready=True) if self.game is not None and self.game.outcome is None:
                self.game.stood_in = False
                self.say(LogKind.INFO, "You play your seat again from the next decision.")
            case Ready(ready=True):
                self.say(LogKind.INFO, "You are ready: the next game starts when every seat is.")
            case AddBot():
                self.say(LogKind.INFO, "A bot took a seat.")

    def _arrive(self, table: str, seat: int | None) -> None:
        if table != self.table:
            self.game = None
            self._keep_log_of(table)
        self.table, self.seat, self.spectating = table, seat, seat is None
        if self.game is not None:
            self.game.seat = seat
        if seat is None:
            self.say(LogKind.INFO, f"You are watching table {table}.")
        else:
            self.say(LogKind.INFO, f"You sit at table {table}, {seat_word(seat)}.")

    def _error(self, error: Error) -> None:
        request = self.requests.pop(error.id, None)
        game = self.game
        if isinstance(request, Act | None) and game is not None and game.decision is not None:
            game.decision.sent = None
        if error.code == "bad_token" and self.table is None:  # a token kept from a run before this one
            self.say(LogKind.INFO, "The seat you had here last time is no longer held; you are in the lobby.")
            return
        if error.code == "bad_token":
            self.table, self.seat, self.spectating, self.game = None, None, False, None
        self.notice = error_text(error, request)
        self.say(LogKind.ERROR, self.notice)

    # -- the game -------------------------------------------------------------------------------

    def _new_game(self, rules: WireRules, players: list[str]) -> GameView:
        game = GameView(rules=rules, seat=self.seat, players=players)
        self.game = game
        return game

    def _game_started(self, started: GameStarted) -> None:
        if started.table != self.table:
            return
        game = self._new_game(started.rules, list(started.players))
        game.game = started.game
        names = ", ".join(started.players)
        self.say(LogKind.INFO, f"Game {started.game + 1} begins: {names}; {rules_text(started.rules)}.")

    def _ensure_game(self, rules: WireRules) -> GameView:
        if self.game is None:
            names = self.names()
            players = names if len(names) == rules.players else [seat_word(s) for s in range(rules.players)]
            return self._new_game(rules, players)
        return self.game

    def _take_view(self, view: WireView, now: float) -> None:
        """Everything a view says replaces what was known (after joining, reconnecting, deciding)."""
        game = self._ensure_game(view.rules)
        game.rules, game.seat, game.phase = view.rules, view.seat, view.phase
        game.hand_number, game.dealer = view.hand_number, view.dealer
        self._turn(game, view.to_act, now)
        game.hand = [Card.parse(c) for c in view.hand]
        mine = [Card.parse(card) for trick in view.tricks for seat, card in trick_plays(trick, view.rules.players)
                if seat == view.seat]
        mine += [Card.parse(p.card) for p in view.trick if p.seat == view.seat]
        game.hand_sizes = list(view.hand_sizes)
        game.bids = [(b.seat, b.bid) for b in view.bids]
        game.pitcher, game.bid = view.pitcher, view.bid
        game.trump = Suit.parse(view.trump) if view.trump is not None else None
        game.dealt = held_order([*game.hand, *mine], game.trump, view.rules.game())
        game.trick = [Play(p.seat, Card.parse(p.card)) for p in view.trick]
        game.winning = view.winning
        game.taken = [0] * view.rules.players
        for trick in view.tricks:
            game.taken[trick.winner] += 1
        if view.tricks:
            last = view.tricks[-1]
            plays = tuple(Play(s, Card.parse(c)) for s, c in trick_plays(last, view.rules.players))
            game.last_trick = Trick(last.number, plays, last.winner, view.hand_number)
        elif game.last_trick is not None and game.last_trick.hand < view.hand_number - 1:
            game.last_trick = None  # the hand before's last trick stays in view until the next lead
        game.scores = list(view.scores)
        game.last_result = view.last_result
        game.outcome = view.outcome
        if view.to_act is None or view.to_act != view.seat:
            game.decision = None

    def _snapshot(self, snapshot: Snapshot, now: float) -> None:
        """The table as it stands, and the story so far: the log of this table's game and chat
        is told again from it (what happened while this client was away, or before it came)."""
        self._take_view(snapshot.view, now)
        game = self.game
        assert game is not None
        if snapshot.players:
            game.players = list(snapshot.players)
        if snapshot.game is not None:
            game.game = snapshot.game
        if snapshot.results or not game.results:
            game.results = list(snapshot.results)
        clock = snapshot.clock
        if clock is not None and game.to_act is not None:
            game.turn_since, game.turn_remaining_ms = now, clock.remaining_ms
        if not self.recalls:
            return
        kept = [e for e in self.log if not (e.kind in RECALLED and e.table == self.table)]
        self.log = deque(kept, maxlen=LOG_LENGTH)
        self.log_epoch += 1
        names = self.names()
        for line in hands_so_far(game.results, game.rules, names):
            self.say(LogKind.SUMMARY, *line)
        for line in hand_so_far(snapshot.view, names):
            self.say(LogKind.GAME, *line)
        for said in snapshot.chat:
            self.say(LogKind.CHAT, f"<{said.sender}> {said.text}")

    def _forget_acts(self) -> None:
        """Moves answered by events (a move that works gets no reply of its own)."""
        for request, message in list(self.requests.items()):
            if isinstance(message, Act):
                del self.requests[request]

    def _decide(self, decide: Decide, now: float) -> None:
        self._forget_acts()
        self.notice = None
        self._take_view(decide.view, now)
        game = self.game
        assert game is not None
        game.stood_in = False
        game.decision = Decision(
            request=decide.request, legal=tuple(decide.view.legal), limit_ms=decide.clock.limit_ms,
            remaining_ms=decide.clock.remaining_ms, since=now,
        )

    @staticmethod
    def _turn(game: GameView, seat: int | None, now: float) -> None:
        if seat != game.to_act:
            game.to_act = seat
            game.turn_since = now if seat is not None else None
            game.turn_remaining_ms = None

    def _event(self, message: EventMessage, now: float) -> None:
        game = self.game
        if game is None:
            return
        event = message.event
        high_bid = max((amount for _, amount in game.bids if amount is not None), default=0)
        for line in event_lines(event, game.rules, self.names(), high_bid):
            self.say(LogKind.SUMMARY if isinstance(event, HandScoredEvent) else LogKind.GAME, *line)
        players = game.rules.players
        if isinstance(event, PassedEvent | BidEvent | CardPlayedEvent | TimedOutEvent) and event.seat == game.seat:
            game.decision = None
            self._forget_acts()
        match event:
            case DealerChosenEvent(dealer=dealer):
                game.dealer = dealer
            case HandDealtEvent(hand_number=number, dealer=dealer, cards=cards):
                game.phase, game.hand_number, game.dealer = "bidding", number, dealer
                game.hand = [Card.parse(c) for c in cards]
                game.dealt = held_order(game.hand, None, game.rules.game())
                game.hand_sizes = [6] * players
                game.bids, game.pitcher, game.bid, game.trump = [], None, None, None
                game.trick, game.taken, game.winning = [], [0] * players, None  # the last trick stays in view
                self._turn(game, (dealer + 1) % players, now)
            case PassedEvent(seat=seat) | BidEvent(seat=seat):
                game.bids.append((seat, event.amount if isinstance(event, BidEvent) else None))
                self._turn(game, None if seat == game.dealer else (seat + 1) % players, now)
            case ThrownInEvent():
                game.last_trick = None  # no trick was played this hand
                self._turn(game, None, now)
            case PitcherChosenEvent(pitcher=pitcher, bid=bid):
                game.phase, game.pitcher, game.bid = "playing", pitcher, bid
                self._turn(game, pitcher, now)
            case TrumpPitchedEvent(trump=trump):
                game.trump = Suit.parse(trump)
                game.dealt = held_order(game.dealt, game.trump, game.rules.game())
            case CardPlayedEvent(seat=seat, card=text, winning=winning):
                card = Card.parse(text)
                game.trick.append(Play(seat, card))
                game.winning = winning
                game.hand_sizes[seat] = max(0, game.hand_sizes[seat] - 1)
                if seat == game.seat and card in game.hand:
                    game.hand.remove(card)
                self._turn(game, None if len(game.trick) == players else (seat + 1) % players, now)
            case TrickWonEvent(number=number, winner=winner, plays=plays):
                game.last_trick = Trick(number, tuple(_plays(plays)), winner, game.hand_number)
                game.trick, game.winning = [], None
                game.taken[winner] += 1
                self._turn(game, winner if any(game.hand_sizes) else None, now)
            case HandScoredEvent(result=result):
                game.last_result = result
                game.results.append(result)
                game.scores = list(result.scores)
                self._turn(game, None, now)
            case TurnEvent(seat=seat, remaining_ms=remaining):
                self._turn(game, seat, now)
                game.turn_since = now
                game.turn_remaining_ms = remaining
            case TimedOutEvent(seat=seat, timeouts=timeouts) if seat == game.seat:
                info = self.table_info
                limit = info.clock.bot_after_timeouts if info is not None else None
                game.stood_in = limit is not None and timeouts >= limit
            case GameWonEvent(outcome=outcome):
                game.phase, game.outcome, game.decision = "game_over", outcome, None
                game.scores = list(outcome.scores)
                self._turn(game, None, now)


def _plays(plays: list[SeatCard]) -> list[Play]:
    return [Play(p.seat, Card.parse(p.card)) for p in plays]


def trick_plays(trick: WireTrick, players: int) -> list[tuple[int, str]]:
    """A finished trick's cards with the seat that laid each, from its leader."""
    return [((trick.leader + i) % players, card) for i, card in enumerate(trick.cards)]



def seat_changes(before: TableInfo, after: TableInfo, mine: int | None) -> list[str]:
    """What changed at the seats of a table, for the others there to read (``mine``: our seat)."""
    lines = []
    for old, new in zip(before.seats, after.seats, strict=False):
        if new.seat == mine:
            continue
        name = new.name or old.name or seat_word(new.seat)
        if old.name != new.name:
            if old.name is not None:
                lines.append(f"{old.name} left {seat_word(old.seat)}.")
            if new.name is not None:
                lines.append(f"{new.name} sat down in {seat_word(new.seat)}.")
        elif new.replaced_by_bot and not old.replaced_by_bot:
            lines.append(f"A bot plays for {name} now.")
        elif old.replaced_by_bot and not new.replaced_by_bot:
            lines.append(f"{name} plays their seat again.")
        elif old.connected and not new.connected and new.kind != "builtin":
            lines.append(f"{name} lost their connection; their seat is kept for them.")
        elif new.connected and not old.connected and new.kind != "builtin":
            lines.append(f"{name} is back.")
    return lines
