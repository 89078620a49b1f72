"""The lobby: greeted connections, the tables, and what each request does.

:meth:`Lobby.handle` is the one place a client's message is dispatched. It is
plain synchronous code on the event loop: tests drive it with in-memory peers.
"""

from __future__ import annotations

import itertools
import secrets
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

import msgspec
import structlog

from setback.bots.levels import seatable
from setback.engine import Action, Game, RefusedCombination, Rules, Variant
from setback.protocol import MAJOR, PROTOCOL_VERSION, Code, encode
from setback.protocol.convert import rules_from_wire, rules_to_wire
from setback.protocol.messages import (
    Act,
    AddBot,
    Chat,
    ClientMessage,
    Clock,
    CreateTable,
    Error,
    Hello,
    Join,
    Joined,
    Leave,
    Left,
    ListTables,
    Ok,
    Ping,
    Pong,
    Ready,
    RequestId,
    Resync,
    SendChat,
    ServerPong,
    Spectate,
    Spectating,
    TableClosed,
    Tables,
    TableUpdate,
    Welcome,
)
from setback.server.config import ServerConfig
from setback.server.outgoing import LineSink
from setback.server.peer import Peer, send_chat
from setback.server.ratings import rating_key, rating_name, update_ratings
from setback.server.seats import RefusedError, TableOptions, Waits, options_from_saved
from setback.server.store import Store, TableRow, token_hash
from setback.server.table import Table
from setback.server.timesource import LoopTime, TimeSource

LISTED_TABLES = 256
"""The most tables one ``tables`` reply lists: at about 2.6 KB for the largest table info
(seven seats, every name as long as it may be), well within a server line's 1 MiB."""

log = structlog.get_logger("setback.lobby")
_OK: Final = encode(Ok(id=None))
"""An ``ok`` to a request without an id (each seat's ``ready`` at a game's start), made once."""

CAPABILITIES = ["chat", "spectate", "reconnect", "builtin_bots", "clocks", "events_optional", "resync", "variants"]


BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Letters that draw nothing: the Hangul fillers and the blank Braille pattern."""


def visible(text: str) -> bool:
    """Whether ``text`` draws something: a character that is no space, no combining mark
    (variation selectors are marks), no format character and no blank letter."""
    return any(
        not char.isspace() and char not in BLANK_LETTERS and unicodedata.category(char) not in ("Mn", "Me", "Cf")
        for char in text
    )

@dataclass
class Lobby:
    """Every table, and where each greeted peer is."""

    config: ServerConfig
    store: Store = field(default_factory=lambda: Store(None))
    tables: dict[str, Table] = field(default_factory=dict)
    peers: set[Peer] = field(default_factory=set)
    where: dict[Peer, Table] = field(default_factory=dict)
    browsing: set[Peer] = field(default_factory=set)
    """The greeted peers at no table: each table's updates reach them."""
    wake: Callable[[], None] = field(default=lambda: None)
    """Called when a table update is put off to the end of the turn, which sends it (:meth:`publish`)."""
    _due: dict[str, Table] = field(default_factory=dict)
    """Tables whose update waits for the end of the turn: one update a table a turn."""
    made: dict[Peer, list[Table]] = field(default_factory=dict)
    """The tables each peer made that may still wait for it (see :attr:`Table.creator`)."""
    made_from: dict[str, set[str]] = field(default_factory=dict)
    """The open tables made from each address, by id, whichever of its connections made them,
    connected or gone: what an address holds outlives its connections."""
    _maker: dict[str, str] = field(default_factory=dict)
    """The address each table of :attr:`made_from` was made from, by the table's id."""
    game_over_listeners: list[Callable[[str], None]] = field(default_factory=list)
    """Called with a table's id each time a game there is decided (match runners, tools)."""
    refusal_listeners: list[Callable[[str, str], None]] = field(default_factory=list)
    """Called with the name a refused hello gave and why it was refused (``code: message``),
    so that a match runner can say why a program it started never sat down."""
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    time: TimeSource = field(default_factory=LoopTime)
    """Where every table keeps its clocks, paces and grace periods."""

    # -- greeting ---------------------------------------------------------------------------

    def greet(self, peer: Peer, hello: Hello) -> Welcome:
        """Check a hello, take the peer in, give back its seat if its token holds one."""
        major = hello.version.partition(".")[0].lstrip("0")  # as a number: "01" is 1 (and int() stops at 4,300 digits)
        if major != str(MAJOR):
            raise RefusedError(
                Code.VERSION_UNSUPPORTED,
                f"this server speaks protocol {PROTOCOL_VERSION}; version {hello.version!r} is not compatible",
            )
        password = self.config.password
        if password is not None and not secrets.compare_digest(
            (hello.password or "").encode(), password.encode()
        ):  # in constant time
            raise RefusedError(Code.BAD_PASSWORD, "the password is missing or wrong")
        name = hello.name.strip()
        if not name or len(name) > self.config.max_name_chars or not name.isprintable() or not visible(name):
            limit = self.config.max_name_chars
            raise RefusedError(
                Code.INVALID_FIELD, f"a name is 1 to {limit} printable characters, one of them visible", "$.name",
            )
        peer.name = name
        peer.kind = hello.kind
        peer.events = hello.events
        minor = hello.version.partition(".")[2].lstrip("0") or "0"
        peer.minor = int(minor) if len(minor) <= 6 else 10**6  # (int() stops at 4,300 digits)
        hashed = token_hash(hello.token) if hello.token else None  # once, not once a table
        held = hashed is not None and any(t.book.holds(hashed) for t in self.tables.values())
        peer.token = hello.token if held and hello.token else secrets.token_urlsafe(18)
        self.peers.add(peer)
        self.browsing.add(peer)
        return Welcome(
            id=hello.id, version=PROTOCOL_VERSION, server=self.config.name, player=name, token=peer.token,
            limits=self.config.limits(), capabilities=CAPABILITIES, bots=seatable(),
        )

    def after_welcome(self, peer: Peer, hello: Hello) -> None:
        """Once the welcome is sent: put a returning player back in its seat, or say the token is dead."""
        token = hello.token
        if not token:
            return
        if token == peer.token:
            hashed = token_hash(token)
            for table in self.tables.values():
                if not reads(peer, table):
                    continue  # a seat it cannot play: its token says nothing to this client
                holder = next((s.peer for s in table.seats if s.token_hash == hashed), None)
                seat = table.book.reclaim(peer, hashed)
                if seat is not None:
                    if holder is not None and holder is not peer:
                        self._displaced(holder)
                    self._place(peer, table)
                    peer.send(Joined(table=table.id, seat=seat.index, token=token))
                    table.resume(peer, seat)
                    log.info("reconnected", table=table.id, seat=seat.index, name=peer.name)
                    return
        dead = "that token holds no seat; you are in the lobby with a new one"
        peer.send(Error(id=hello.id, code=Code.BAD_TOKEN, message=dead))

    def _displaced(self, peer: Peer) -> None:
        """``peer``'s seat was taken back with its token by another connection: it is back in
        the lobby, with a new token (its old one is the other connection's now; the next
        ``joined`` tells it the new one)."""
        self.where.pop(peer, None)
        self.browsing.add(peer)
        peer.token = secrets.token_urlsafe(18)

    def drop(self, peer: Peer) -> None:
        """The peer's connection is gone: tables it made and never came to wait for it no more."""
        self.peers.discard(peer)
        self.browsing.discard(peer)
        table = self.where.pop(peer, None)
        if table is not None:
            table.drop(peer)
            self._tidy(table)
        for made in self.made.pop(peer, []):
            if made.creator is peer:
                made.creator = None
                self._tidy(made)

    def _listed(self) -> list[Table]:
        """The tables a ``tables`` reply lists: at most :data:`LISTED_TABLES` (a reply stays
        within the line limit), waiting ones first, then those playing, then the rest, each
        oldest first."""
        order = {"waiting": 0, "playing": 1}
        ranked = sorted(self.tables.values(), key=lambda t: order.get(t.status, 2))  # stable: oldest first
        return ranked[:LISTED_TABLES]

    def _check_awaiting(self, peer: Peer) -> None:
        """A connection may have at most ``max_tables_awaiting_maker`` tables it made and has not
        sat at or watched yet; an address, ``max_tables_awaiting_address`` tables it made that
        are there only for someone to come (back): their maker, or players who dropped, while
        no connection is at them (every connection it ever had counts, not only those open)."""
        waiting = self.made[peer] = [t for t in self.made.get(peer, []) if t.creator is peer]
        limit = self.config.max_tables_awaiting_maker
        if len(waiting) >= limit:
            raise RefusedError(
                Code.TABLE_FULL, f"you have made {limit} tables you have not sat at or watched yet: go to one first"
            )
        limit = self.config.max_tables_awaiting_address
        made = (self.tables[t] for t in self.made_from.get(peer.host, ()))
        if sum(1 for t in made if t.creator is not None or t.hears.nobody_here()) >= limit:
            raise RefusedError(
                Code.TABLE_FULL,
                f"{limit} tables made from {peer.host} wait for their makers or for players who dropped: "
                "go to one first, or wait for them to close",
            )

    # -- requests ---------------------------------------------------------------------------------

    def handle(self, peer: Peer, message: ClientMessage) -> bool:
        """Carry out one request from a greeted peer; a refusal becomes a typed error (and True)."""
        try:
            if type(message) is Act:  # the hot path
                assert isinstance(message, Act)
                self.act(peer, message.request, message.action)
            else:
                self._dispatch(peer, message)
        except RefusedError as exc:
            peer.send(exc.answer(message.id))
            return True
        return False

    def act(self, peer: Peer, request: int, action: Action | str) -> None:
        """A seat's answer (an ``act``) to its decision ``request`` (the action read, or its text),
        carried out; :class:`RefusedError` (not sent) if refused."""
        self._table_of(peer).act(peer, request, action)

    def asks_ready(self, peer: Peer) -> bool:
        """Whether a ``ready`` from ``peer`` now is the one its table's game asks for (see
        :meth:`SeatBook.asks_ready`): the game paces it, so it costs nothing of the rate limit."""
        table = self.where.get(peer)
        return table is not None and table.book.asks_ready(peer)

    def _dispatch(self, peer: Peer, message: ClientMessage) -> None:
        match message:  # (the cases are tried in order, each a type check: the one of every game's start first)
            case Ready(ready=ready):
                table = self._table_of(peer)
                table.book.set_ready(peer, ready)
                if message.id is None and isinstance(peer, LineSink):  # every game's start, four times: natively
                    sink: LineSink = peer
                    sink.send_line(_OK)
                else:
                    peer.send(Ok(id=message.id))
                table.start_if_ready()
            case ListTables():
                peer.send(Tables(id=message.id, tables=[t.info() for t in self._listed() if reads(peer, t)]))
            case CreateTable():
                if message.spectate:
                    self._check_vacant(peer)
                self._check_awaiting(peer)
                table = self._create(message)
                table.creator = peer
                self.made[peer].append(table)
                self.made_from.setdefault(peer.host, set()).add(table.id)
                self._maker[table.id] = peer.host
                reply = table.info()
                reply.invite = table.options.invite
                peer.send(TableUpdate(id=message.id, table=reply))
                if message.spectate:  # watching before a table of bots can deal (which tells everyone)
                    self._watch(peer, table, message.id)
                else:
                    self._changed(table, told=peer)
                table.start_if_ready()
            case Join(table=table_id, seat=seat, ready=ready, invite=invite):
                table = self._vacant_peer(peer, table_id, invite)
                check_reads(peer, table)
                taken = table.join(peer, seat, ready)
                self._place(peer, table)
                peer.send(Joined(id=message.id, table=table.id, seat=taken.index, token=peer.token))
                table.send_snapshot(peer, taken.index)
                table.start_if_ready()
            case Spectate(table=table_id, invite=invite):
                table = self._vacant_peer(peer, table_id, invite)
                check_reads(peer, table)
                self._watch(peer, table, message.id)
            case Leave():
                table = self._table_of(peer)
                del self.where[peer]
                self.browsing.add(peer)  # back in the lobby first: it hears table_closed if it was the last
                peer.send(Left(id=message.id, table=table.id))  # before whatever its leaving sets off
                table.leave(peer)
                self._tidy(table)
            case Resync():
                if not self._table_of(peer).resync(peer, message.id):
                    peer.send(Ok(id=message.id))  # no game yet: nothing to show
            case AddBot(table=table_id, bot=bot, seat=seat):
                table = self._table_of(peer)
                if table.book.seat_of(peer) is None or table_id not in {None, table.id}:
                    raise RefusedError(Code.NOT_AT_TABLE, "only a player seated at a table may seat a bot there")
                table.book.add_bot(bot, seat)
                peer.send(Ok(id=message.id))
                table.start_if_ready()
            case SendChat(text=text, scope=scope):
                self._chat(peer, message.id, text, scope)
            case Ping(nonce=nonce):
                peer.send(ServerPong(id=message.id, nonce=nonce))
            case Pong():
                pass
            case Hello():
                raise RefusedError(Code.ALREADY_GREETED, "this connection has already said hello")

    def _create(self, message: CreateTable) -> Table:
        if len(self.tables) >= self.config.max_tables:
            raise RefusedError(Code.TABLE_FULL, f"the server holds its maximum of {self.config.max_tables} tables")
        try:
            rules = rules_from_wire(message.rules)
        except RefusedCombination as exc:
            raise RefusedError(Code.REFUSED, str(exc), options=list(exc.options)) from None
        except ValueError as exc:
            raise RefusedError(Code.BAD_RULES, str(exc)) from None
        self._check_clock(message.clock)
        if message.rated and message.seed is not None:
            seeded = "a seeded table cannot be rated: whoever chose the seed can know the deals"
            raise RefusedError(Code.BAD_RULES, seeded)
        unknown = sorted({b for b in message.bots if b not in seatable()})
        if unknown:
            known = ", ".join(seatable())
            raise RefusedError(Code.UNKNOWN_BOT, f"no built-in bot {', '.join(map(repr, unknown))}; try one of {known}")
        if len(message.bots) > rules.players:
            raise RefusedError(Code.TABLE_FULL, f"{len(message.bots)} bots do not fit at {rules.players} seats")
        name = (message.name or "").strip()
        limit = self.config.max_name_chars
        if len(name) > limit or not name.isprintable() or (name and not visible(name)):
            raise RefusedError(
                Code.INVALID_FIELD, f"a table name is up to {limit} printable characters, one visible", "$.name",
            )
        number = next(self._ids)
        table_id = f"t{number}"
        options = TableOptions(
            name=name or table_id, rules=rules, clock=message.clock, seed=message.seed, bot_chat=message.bot_chat,
            waits=self._waits(), rated=message.rated,
            invite=secrets.token_urlsafe(6) if message.private else None,
            bot_pace=self.config.bot_pace if message.bot_pace is None else message.bot_pace,
        )
        table = self._new_table(table_id, options)
        saved = options.saved()
        if self.config.local:
            saved["local"] = True
        self.store.save_table(table_id, number, options.name, saved)
        for bot in message.bots:  # before the lobby knows the table: it hears of it once, complete
            table.book.add_bot(bot, None)
        self.tables[table_id] = table
        log.info("table_created", table=table_id, rules=msgspec.to_builtins(rules_to_wire(rules)),
                 seeded=message.seed is not None)
        return table

    @staticmethod
    def _check_clock(clock: Clock) -> None:
        seconds = clock.decision_seconds
        if seconds is not None and not 0.01 <= seconds <= 3600:
            raise RefusedError(Code.BAD_RULES, "decision_seconds is 0.01 to 3600, or null for no clock")
        if clock.bot_after_timeouts is not None and clock.bot_after_timeouts < 1:
            raise RefusedError(Code.BAD_RULES, "bot_after_timeouts is at least 1, or null for never")

    def _waits(self) -> Waits:
        config = self.config
        return Waits(config.reconnect_grace, config.bot_table_pause, config.bot_table_pace)

    def _new_table(self, table_id: str, options: TableOptions) -> Table:
        """A table the lobby will hear from once it is in :attr:`tables`."""
        return Table(table_id, options, self._changed, self.store, self._game_over, self.time)

    def _table(self, table_id: str, invite: str | None = None, check_invite: bool = False) -> Table:
        table = self.tables.get(table_id)
        if table is None or (check_invite and table.options.invite not in {None, invite}):
            raise RefusedError(Code.NO_SUCH_TABLE, f"no table {table_id!r} (or a wrong invite code)")
        return table

    # -- records --------------------------------------------------------------------------------

    def restore(self) -> None:
        """Bring back every open table from the store, unfinished games where they stood (a
        table whose records cannot be read or replayed comes back broken, and every other
        table all the same); a local server's leftover tables are closed instead, and a local
        server brings back nothing (see :attr:`ServerConfig.local`)."""
        self._ids = itertools.count(self.store.last_table_number() + 1)
        for row in self.store.open_tables():
            if row.options.get("local"):  # its client is gone: nobody can sit there again
                self.store.close_table(row.id, row.game_id)
                log.info("local_table_closed", table=row.id)
                continue
            if self.config.local:
                continue  # a `setback serve` table: not this server's to play
            table = self.tables[row.id] = self._restored(row)
            self._tidy(table)  # nobody sat there or may come back: it closes now, as it would have

    def _restored(self, row: TableRow) -> Table:
        """The table ``row`` describes, its game where it stood; or, if its records cannot be
        read or replayed, the table broken (:meth:`Table.restore_failed`), named in the log."""
        waits = self._waits()
        try:
            options = options_from_saved(row.name, row.options, waits)
        except Exception as exc:  # options a damaged record holds: anything may fail on them
            options = TableOptions(name=row.name, rules=Rules(), clock=Clock(), waits=waits)
            return self._not_restored(self._new_table(row.id, options), row, row.damage or _reason(exc))
        table = self._new_table(row.id, options)
        if row.damage is not None:
            return self._not_restored(table, row, row.damage)
        try:
            table.restore(row)
        except Exception as exc:  # whatever a damaged record makes the replay raise: it breaks this table only
            return self._not_restored(table, row, _reason(exc))
        log.info("table_restored", table=row.id, game=row.game_id)
        return table

    @staticmethod
    def _not_restored(table: Table, row: TableRow, reason: str) -> Table:
        log.error("table_not_restored", table=row.id, game=row.game_id, reason=reason)
        table.restore_failed(reason, row.games_played)
        return table

    def _game_over(self, table: Table, game: Game) -> None:
        """A game is decided and recorded: rate it, then tell whoever listens."""
        self._rate(table, game)
        for listener in list(self.game_over_listeners):
            listener(table.id)

    def _rate(self, table: Table, game: Game) -> None:
        """Update the ratings of a rated table's players (Elo, each side against each other)."""
        if not (table.options.rated and table.options.seed is None) or game.outcome is None:
            return
        rules = game.rules
        names = [rating_key(rating_name(s.kind, s.name, s.builtin), rules.variant) for s in table.seats]
        sides = [rules.side_of(s) for s in range(rules.players)]
        update_ratings(self.store, names, sides, game.outcome.winner, frozenset(table.stood_in))

    def _table_of(self, peer: Peer) -> Table:
        table = self.where.get(peer)
        if table is None:
            raise RefusedError(Code.NOT_AT_TABLE, "you are not at a table")
        return table

    def _vacant_peer(self, peer: Peer, table_id: str, invite: str | None) -> Table:
        self._check_vacant(peer)
        return self._table(table_id, invite, check_invite=True)

    def _check_vacant(self, peer: Peer) -> None:
        if peer in self.where:
            raise RefusedError(Code.ALREADY_SEATED, f"you are at table {self.where[peer].id}; leave it first")

    def _watch(self, peer: Peer, table: Table, request: RequestId) -> None:
        self._place(peer, table)
        peer.send(Spectating(id=request, table=table.id))
        table.spectate(peer)

    def _chat(self, peer: Peer, request: RequestId, text: str, scope: str) -> None:
        text = text.strip()
        if not text or len(text) > self.config.max_chat_chars or not text.isprintable():
            raise RefusedError(Code.BAD_CHAT, f"chat is 1 to {self.config.max_chat_chars} printable characters")
        if scope == "lobby":
            self.store.add_chat(None, "lobby", peer.name, text)
            send_chat(self.peers, peer, Chat(id=request, scope="lobby", table=None, sender=peer.name, text=text))
            return
        table = self._table_of(peer)
        if peer.kind == "bot" and table.playing and not table.options.bot_chat:
            raise RefusedError(Code.CHAT_BARRED, "bots may not chat at this table while a hand is played")
        self.store.add_chat(table.id, "table", peer.name, text)
        table.hears.heard(peer.name, text)
        chat = Chat(id=request, scope="table", table=table.id, sender=peer.name, text=text)
        send_chat(table.hears.peers(), peer, chat)

    # -- what the lobby sees ------------------------------------------------------------------------

    def _changed(self, table: Table, soon: bool = False, told: Peer | None = None) -> None:
        """Tell the lobby, and everyone at the table, what the table looks like now; with
        ``soon``, at the end of the turn (the seats' readiness and a game's start or end:
        the four ``ready`` of a new game and its start are one update, not five).
        ``told``: a peer that has just heard it in a reply."""
        if self.tables.get(table.id) is not table:
            return  # being made (or gone): nobody is to hear of it yet
        if table.may_close():
            self._tidy(table)
            return
        if soon:
            if not self._due:
                self.wake()
            self._due[table.id] = table
            return
        self._due.pop(table.id, None)  # this update says it all
        self._tell(table, told)

    def publish(self) -> None:
        """End of a turn: send the table updates put off to it. A bug telling one table's
        loses that update only, never the turn's commit and messages (the server's flush)."""
        if self._due:
            due, self._due = self._due, {}
            for table in due.values():
                if self.tables.get(table.id) is table:
                    try:
                        self._tell(table, None)
                    except Exception:
                        log.exception("table_update_failed", table=table.id)

    def _tell(self, table: Table, told: Peer | None) -> None:
        line = encode(TableUpdate(table=table.info()))
        for peer in self.browsing:
            if peer is not told and reads(peer, table):
                peer.send_line(line)
        for peer in table.hears.peers():
            if peer not in self.browsing and peer is not told:  # a player joining hears it once
                peer.send_line(line)

    def _place(self, peer: Peer, table: Table) -> None:
        """``peer`` is at ``table`` now, seated or watching, and no longer in the lobby."""
        self.where[peer] = table
        self.browsing.discard(peer)

    def halt(self) -> None:
        """The server is stopping: every table's clock, bots and timers stop where they are.
        The store keeps the tables open, so the next start brings them back (a local server
        closes them: its games end with it)."""
        for table in self.tables.values():
            table.close()
            if self.config.local:
                self.store.close_table(table.id, table.game_id)

    def _tidy(self, table: Table) -> None:
        if table.may_close() and table.id in self.tables:
            del self.tables[table.id]
            host = self._maker.pop(table.id, None)
            if host is not None:
                made = self.made_from[host]
                made.discard(table.id)
                if not made:
                    del self.made_from[host]
            table.close()
            self.store.close_table(table.id, table.game_id)
            log.info("table_closed", table=table.id)
            closed = encode(TableClosed(table=table.id))
            for peer in self.browsing:
                peer.send_line(closed)


VARIANTS_SINCE = 4
"""The minor protocol version whose clients read a variant table (jokers, points by name)."""


def reads(peer: Peer, table: Table) -> bool:
    """Whether ``peer``'s protocol version reads everything ``table`` sends: any table of the
    standard game; a variant table from 1.4 on. A lobby lists a table only to peers that read it."""
    return peer.minor >= VARIANTS_SINCE or table.options.rules.variant is Variant.STANDARD


def check_reads(peer: Peer, table: Table) -> None:
    """Refuse ``peer`` a seat or a view at a table it cannot read (see :func:`reads`)."""
    if not reads(peer, table):
        variant = table.options.rules.variant.value
        raise RefusedError(
            Code.REFUSED,
            f"table {table.id} plays the {variant} variant: its cards (jokers) and points need protocol "
            f"1.{VARIANTS_SINCE} or later, and your hello announced 1.{peer.minor}",
        )


def _reason(exc: Exception) -> str:
    """Why a table could not be restored, in one line: a ValueError's message says it (a
    record that does not read or replay); any other exception's needs its type too."""
    return str(exc) if isinstance(exc, ValueError) else f"{type(exc).__name__}: {exc}"
