"""A table: its seats, its game, its clock, its spectators and its stand-in bots.

Everything that decides the game is the engine's; the table only routes: it takes
a seat's action, applies it through :class:`setback.engine.Game`, sends every
seat the events as that seat may see them, and asks the seat to act next for its
decision, on the clock. It runs on the event loop and never blocks it: built-in
bots think in a worker thread.
"""

from __future__ import annotations

import asyncio
import secrets
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

import msgspec
import structlog

from setback.bots import BUILTIN
from setback.engine import Action, Event, Game, HandDealt, HandScored, parse_action, plain
from setback.protocol import Code, encode
from setback.protocol.convert import ACTION_TEXT, event_to_wire, outcome_to_wire, rules_to_wire
from setback.protocol.messages import (
    SEED_LIMIT,
    ChatLine,
    DecisionClock,
    Error,
    EventMessage,
    GameOver,
    GameStarted,
    RequestId,
    ServerMessage,
    Snapshot,
    TableInfo,
    TimedOutEvent,
    TurnEvent,
    WireEvent,
)
from setback.protocol.views import WireViews
from setback.server.peer import Peer
from setback.server.ratings import rating_name
from setback.server.seats import STAND_IN, Pending, RefusedError, Seat, TableOptions, builtin_bot
from setback.server.store import (
    BY_CLOCK,
    BY_PLAYER,
    BY_STAND_IN,
    SeatRow,
    Store,
    TableRow,
    replay,
    stood_in_seats,
    token_hash,
)

log = structlog.get_logger("setback.table")
QUIET_THINK_SECONDS = 0.01
"""What a built-in bot or stand-in is given to think at a table nobody is at (``search`` keeps to
half of it): a game played to an empty room must cost next to nothing."""
NO_CLOCK = DecisionClock(limit_ms=None, remaining_ms=None)
"""The clock of every decision at a table without one (shared: never changed)."""
RECALLED_CHAT = 50
"""The table's latest chat lines a snapshot recalls."""
RECALLED_RESULTS = 500
"""The most hands' results a snapshot recalls (the latest): a game with no hand limit may go
on for ever, a server line may not."""


@dataclass
class Table:
    """A table and its game, run on the event loop."""

    id: str
    options: TableOptions
    on_change: Callable[[Table, bool], None]
    """Called whenever what the lobby shows of the table changes (True: telling it may wait
    for the end of the turn)."""
    store: Store
    on_game_over: Callable[[Table, Game], None] = lambda table, game: None
    """Called once a game is decided and recorded (ratings)."""
    game_id: int | None = None
    seats: list[Seat] = field(default_factory=list)
    spectators: set[Peer] = field(default_factory=set)
    game: Game | None = None
    stood_in: set[int] = field(default_factory=set)
    """The seats a stand-in bot played a decision of this game for (their ratings keep out of
    it). The game's actions themselves are the engine's and the journal's: kept once."""
    games_played: int = 0
    broken: bool = False
    damage: str | None = None
    """Why the table's records could not be restored, if they could not (see :meth:`restore_failed`)."""
    creator: Peer | None = None
    """The connection that made the table, until it sits or watches here, or goes: the table
    waits for it (someone passing through does not close it), then closes once it empties."""
    pending: Pending | None = None
    _requests: int = 0
    _sent: int = 0
    _views: WireViews | None = None
    """Every seat's wire view of the game, fed with each of its events."""
    _audience: list[tuple[Peer, int | None]] | None = None
    """Who hears the table (see :meth:`_recipients`), until :meth:`_changed` forgets it."""
    _listening: list[tuple[Peer, int | None]] | None = None
    _rematch: asyncio.TimerHandle | None = None
    """The next game of a watched table of built-in bots only (nobody there says ready)."""
    chat: deque[ChatLine] = field(default_factory=lambda: deque(maxlen=RECALLED_CHAT))
    """The latest lines said at the table, oldest first (kept in memory: a restart forgets them)."""

    def __post_init__(self) -> None:
        self.seats = [Seat(i) for i in range(self.options.rules.players)]

    # -- what the lobby shows ---------------------------------------------------------

    @property
    def status(self) -> Literal["waiting", "playing", "finished", "broken"]:
        if self.broken:
            return "broken"
        if self.game is not None and not self.game.is_over:
            return "playing"
        return "finished" if self.games_played else "waiting"

    @property
    def playing(self) -> bool:
        return self.status == "playing"

    def info(self) -> TableInfo:
        return TableInfo(
            table=self.id, name=self.options.name, rules=rules_to_wire(self.options.rules),
            clock=self.options.clock, seats=[s.info() for s in self.seats],
            spectators=len(self.spectators), status=self.status, games_played=self.games_played,
            seeded=self.options.seed is not None, rated=self.options.rated and self.options.seed is None,
            private=self.options.invite is not None, bot_pace=self.options.bot_pace,
        )

    def is_abandoned(self) -> bool:
        """No player, bot client or spectator is here or expected back (a seat whose player
        left during the game is played by its stand-in, and its token holds nothing)."""
        return not self.spectators and all(
            s.kind in {"empty", "builtin"} or (s.peer is None and s.token_hash is None) for s in self.seats
        )

    def may_close(self) -> bool:
        """Nobody is here or expected back, and no game is in play that must end first: a game
        with a hand limit is played out by its bots (its result counts), one without is not,
        nor one of built-in bots only (nobody plays it for anyone). A table whose records could
        not be restored never closes: closing it would record over them."""
        if self.creator is not None or self.damage is not None or not self.is_abandoned():
            return False
        only_bots = all(s.kind == "builtin" for s in self.seats)
        return not self.playing or only_bots or self.options.rules.hand_limit is None

    # -- seats --------------------------------------------------------------------------

    def holds(self, hashed: str) -> bool:
        """Whether a seat here is held for the token whose :func:`token_hash` is ``hashed``."""
        return any(s.token_hash == hashed for s in self.seats)

    def seat_of(self, peer: Peer) -> Seat | None:
        return next((s for s in self.seats if s.peer is peer), None)

    def join(self, peer: Peer, seat: int | None, ready: bool) -> Seat:
        """Seat ``peer`` (in ``seat`` or the lowest free one); it may join mid-game only in its own seat."""
        if self.broken:
            raise RefusedError(Code.INTERNAL, "this table is broken; create another")
        chosen = self._free_seat(seat)
        chosen.kind = peer.kind
        chosen.name = peer.name
        self._came(peer)
        chosen.token_hash = token_hash(peer.token)
        chosen.peer = peer
        chosen.ready = ready
        return self._seated(chosen)

    def add_bot(self, name: str, seat: int | None) -> Seat:
        """A built-in bot in a free seat (or the lowest free one); during a game, a stand-in in
        the seat ``seat`` of a player who is away (it gives the seat back when they return)."""
        if name not in BUILTIN:
            raise RefusedError(Code.UNKNOWN_BOT, f"no built-in bot {name!r}; try one of {', '.join(sorted(BUILTIN))}")
        self._check_seat(seat)
        if self.playing and seat is not None:
            away = self.seats[seat]
            if away.kind in {"human", "bot"} and away.peer is None:
                if away.bot is None:  # (asked twice, it is there already)
                    self._stand_in(away, "asked")  # the table need not wait out the grace period
                return away
        chosen = self._free_seat(seat)
        chosen.kind = "builtin"
        chosen.name = f"{name}-{chosen.index}"
        chosen.seat_bot(builtin_bot(name, chosen.index))
        chosen.builtin = name
        chosen.ready = True
        return self._seated(chosen)

    def _check_seat(self, seat: int | None) -> None:
        if seat is not None and not 0 <= seat < len(self.seats):
            raise RefusedError(Code.INVALID_FIELD, f"no seat {seat} at a table of {len(self.seats)}", "$.seat")

    def _seated(self, seat: Seat) -> Seat:
        """A seat was just taken: its rating, the record, the lobby told."""
        seat.rating = self._rating(seat)
        self._save_seat(seat)
        self._changed()
        return seat

    def _free_seat(self, seat: int | None) -> Seat:
        self._check_seat(seat)
        if self.playing:
            raise RefusedError(Code.GAME_IN_PROGRESS, "a game is being played; spectate or wait for it to end")
        if seat is not None:
            if self.seats[seat].taken:
                raise RefusedError(Code.SEAT_TAKEN, f"seat {seat} is taken")
            return self.seats[seat]
        free = next((s for s in self.seats if not s.taken), None)
        if free is None:
            raise RefusedError(Code.TABLE_FULL, "every seat is taken")
        return free

    def asks_ready(self, peer: Peer) -> bool:
        """Whether a ``ready`` from ``peer`` now is the one the game asks for: the first that
        marks its seat ready since a game started (one a seat a game)."""
        seat = self.seat_of(peer)
        return seat is not None and seat.owes_ready and not (self.playing and seat.bot is not None)

    def set_ready(self, peer: Peer, ready: bool) -> None:
        seat = self.seat_of(peer)
        if seat is None:
            raise RefusedError(Code.NOT_AT_TABLE, "only a seated player can be ready")
        if ready and self.playing and seat.bot is not None:  # back from a stand-in: not yet ready for the next game
            seat.seat_bot(None)
            seat.timeouts = 0
            log.info("seat_taken_back", table=self.id, seat=seat.index)
        else:
            seat.ready = ready
            if ready:
                seat.owes_ready = False
        self._changed(soon=True)

    def leave(self, peer: Peer) -> None:
        """The peer leaves its seat (a stand-in bot finishes a game in play) or stops watching."""
        self.spectators.discard(peer)
        seat = self.seat_of(peer)
        if seat is not None:
            seat.peer = None
            if self.playing:
                seat.token_hash = None
                seat.ready = False  # whoever left is not ready for another game here
                self._save_seat(seat)
                self._stand_in(seat, "left")  # which tells everyone
                return
            self._empty(seat)
        self._changed()

    def _empty(self, seat: Seat) -> None:
        if seat.grace is not None:
            seat.grace.cancel()
        seat.seat_bot(None)
        self.seats[seat.index] = Seat(seat.index)
        self._save_seat(self.seats[seat.index])

    def _rating(self, seat: Seat) -> float | None:
        known = self.store.rating_of(rating_name(seat.kind, seat.name, seat.builtin))
        return known[0] if known else None

    def _came(self, peer: Peer) -> None:
        """``peer`` sits or watches here: if it made the table, the table waits for it no more."""
        if peer is self.creator:
            self.creator = None

    def _save_seat(self, seat: Seat) -> None:
        self.store.save_seat(self.id, SeatRow(seat.index, seat.kind, seat.name, seat.token_hash, seat.builtin))

    def spectate(self, peer: Peer) -> None:
        self._came(peer)
        self.spectators.add(peer)
        self.send_snapshot(peer, None)
        self._changed()
        self._play_on_soon()

    # -- dropped connections and reconnection ---------------------------------------------

    def drop(self, peer: Peer) -> None:
        """The peer's connection died: keep its seat for the grace period."""
        self.spectators.discard(peer)
        seat = self.seat_of(peer)
        if seat is None:
            self._changed()
            return
        seat.peer = None
        loop = asyncio.get_running_loop()
        seat.grace = loop.call_later(self.options.waits.reconnect_grace, self._grace_over, seat.index, seat.token_hash)
        log.info("seat_dropped", table=self.id, seat=seat.index, name=seat.name)
        self._changed()

    def _grace_over(self, index: int, held_by: str | None) -> None:
        seat = self.seats[index]
        if seat.peer is not None or seat.token_hash != held_by:
            return
        seat.grace = None
        if self.playing:
            if seat.bot is None:  # (a stand-in may already be there, asked for by the table)
                self._guard(self._stand_in, seat, "away")  # which tells everyone
        else:
            self._empty(seat)
            self._changed()

    def reclaim(self, peer: Peer, hashed: str) -> Seat | None:
        """Give ``peer`` back the seat held for the token hashed ``hashed`` (then call :meth:`resume`)."""
        seat = next((s for s in self.seats if s.token_hash == hashed), None)
        if seat is None:
            return None
        if seat.grace is not None:
            seat.grace.cancel()
            seat.grace = None
        if seat.peer is not None and seat.peer is not peer:
            seat.peer.send(Error(code=Code.BAD_TOKEN, message="this seat was taken back from another connection"))
        seat.peer = peer
        if seat.kind != "builtin":
            seat.seat_bot(None)
            seat.timeouts = 0
        self._changed()
        return seat

    def resume(self, peer: Peer, seat: Seat) -> None:
        """Bring a returning seat up to date: the snapshot, then its pending decision, if any."""
        self.send_snapshot(peer, seat.index)
        pending = self.pending
        if pending is not None and pending.seat == seat.index:
            if pending.deadline is None and pending.thinking is None:
                self._start_clock(pending)  # held since a restart (section 18)
            self._send_decide(seat, pending)

    def resync(self, peer: Peer, request: RequestId) -> bool:
        """``peer`` asks for the table as it stands: its snapshot (answering ``request``), and its
        pending decision. False when the table has had no game yet: there is nothing to show."""
        seat = self.seat_of(peer)
        if not self.send_snapshot(peer, None if seat is None else seat.index, request):
            return False
        pending = self.pending
        if seat is not None and pending is not None and pending.seat == seat.index and seat.bot is None:
            self._send_decide(seat, pending)
        return True

    # -- the game ----------------------------------------------------------------------------

    def start_if_ready(self) -> None:
        """Start a game once every seat is taken and ready (built-in bots always are); a table
        of built-in bots only, once someone watches it (nobody is there to play for)."""
        if self.playing or self.broken:
            return
        ready = all(s.taken and (s.ready or s.kind == "builtin") for s in self.seats)
        if ready and (self.spectators or not all(s.kind == "builtin" for s in self.seats)):
            self._guard(self._start)

    def _start(self) -> None:
        chosen = self.options.seed
        seed = secrets.randbits(63) if chosen is None else (chosen + self.games_played) % SEED_LIMIT
        names = self._names()
        rules = msgspec.to_builtins(rules_to_wire(self.options.rules))
        rated = self.options.rated and self.options.seed is None
        self.game_id = self.store.start_game(self.id, self.games_played, seed, rules, names, rated)
        self._begin(Game(self.options.rules, seed))
        for seat in self.seats:
            seat.total_timeouts = 0  # a table info counts this game's
            if seat.kind != "builtin":
                seat.ready = False
                seat.owes_ready = True
                seat.seat_bot(None)
                seat.timeouts = 0
        started = GameStarted(
            table=self.id, game=self.games_played, rules=rules_to_wire(self.options.rules), players=names
        )
        self._broadcast(started)
        log.info("game_started", table=self.id, game=self.games_played, players=names)
        self._changed(soon=True)
        self._advance()

    def restore(self, row: TableRow) -> None:
        """Take back the seats and the unfinished game of a table read from the store.

        Nobody is connected yet: every player's seat waits the grace period for its token;
        the unfinished game is replayed from its seed and actions, each by the seat that
        took it, to exactly where it stood, and the seat to act is asked again (with a new
        request number and a fresh clock). Records this table cannot play on (an action
        that is not legal or not that seat's, a seat the table does not have) raise a
        ValueError before anything is taken back: see :meth:`restore_failed`.
        """
        saved_game = row.game
        game = None if saved_game is None else replay(Game(self.options.rules, saved_game.seed), saved_game.actions)
        for saved in row.seats:
            if not 0 <= saved.seat < len(self.seats):
                raise ValueError(f"a seat {saved.seat} at a table of {len(self.seats)}")
        self.games_played = row.games_played
        for saved in row.seats:
            seat = self.seats[saved.seat]
            seat.kind = saved.kind
            seat.name = saved.name
            seat.token_hash = saved.token_hash
            seat.builtin = saved.bot
            if saved.kind == "builtin" and saved.bot in BUILTIN:
                seat.seat_bot(builtin_bot(saved.bot, seat.index))
                seat.ready = True
            seat.rating = self._rating(seat)
        loop = asyncio.get_running_loop()
        for seat in self.seats:  # between games too: a player who never comes back frees the seat
            if seat.kind in {"human", "bot"}:
                seat.grace = loop.call_later(
                    self.options.waits.reconnect_grace, self._grace_over, seat.index, seat.token_hash
                )
        if saved_game is None or game is None:
            return
        self.game_id = saved_game.id
        self._begin(game)
        self.stood_in = set(stood_in_seats(saved_game.actions))
        self._sent = game.event_count
        assert self._views is not None
        for event in game.events:
            self._views.note(event)
        self._guard(self._advance)
        pending = self.pending
        if pending is not None and pending.timer is not None and self.seats[pending.seat].peer is None:
            pending.timer.cancel()  # the server was away, not the player: the clock waits for them
            pending.timer = pending.deadline = None

    def restore_failed(self, reason: str, games_played: int) -> None:
        """The table's records could not be restored (``reason``): it is broken, holds no seat
        and stays so, listed, until the server stops. Nothing of it is recorded again, so its
        records stay as they were, for the next start to try again (spec.md, "Durability")."""
        self.broken = True
        self.damage = reason
        self.games_played = games_played

    def _begin(self, game: Game) -> None:
        self.game = game
        self.stood_in = set()
        self._sent = 0
        self._views = WireViews(game.rules)

    def act(self, peer: Peer, request: int, text: str) -> None:
        """A seat's answer to its decision request: checked, applied, or refused with the request standing."""
        pending = self.pending
        game = self.game
        if pending is None or game is None or self.seats[pending.seat].peer is not peer:
            if self.seat_of(peer) is None:
                raise RefusedError(Code.NOT_AT_TABLE, "you have no seat at this table")
            raise RefusedError(Code.NOT_YOUR_TURN, "it is not your turn")
        if request != pending.request:
            stale = f"request {request} is not pending; answer request {pending.request}"
            raise RefusedError(Code.STALE_REQUEST, stale, request=pending.request)
        index = pending.seat
        try:
            action = parse_action(text)
            game.apply(action, index)
        except ValueError as exc:  # unreadable, or IllegalActionError: nothing changed
            raise RefusedError(Code.ILLEGAL_ACTION, str(exc), request=pending.request) from None
        self.seats[index].timeouts = 0
        self._applied(action, index, BY_PLAYER)

    def _apply(self, action: Action, seat: int, by: int) -> None:
        """Apply an action the server chose (timeout policy, a bot): it must be legal."""
        assert self.game is not None
        self.game.apply(action, seat)
        self._applied(action, seat, by)

    def _applied(self, action: Action, seat: int, by: int) -> None:
        """Record the action and who chose it (before anyone hears of it), then move the game on."""
        assert self.game is not None and self.game_id is not None
        self._clear_pending()
        text = ACTION_TEXT[action.code]
        self.store.add_action(self.game_id, seat, text, by)
        if by == BY_STAND_IN:
            self.stood_in.add(seat)
        self._advance()

    def _clear_pending(self) -> None:
        """The pending decision is no longer wanted: stop its clock (or pace) and its bot."""
        pending = self.pending
        if pending is not None:
            if pending.timer is not None:
                pending.timer.cancel()
            if pending.thinking is not None:
                pending.thinking.cancel()
        self.pending = None

    def _advance(self) -> None:
        """Send the new events, then ask the next seat to act (or finish the game)."""
        game = self.game
        assert game is not None
        listeners = self._listeners()
        views = self._views
        assert views is not None
        events = game.events_since(self._sent)
        self._sent += len(events)
        for event in events:
            views.note(event)
            if type(event) is HandScored and self.game_id is not None:
                assert views.last_result is not None
                self.store.add_hand(self.game_id, event.result.hand_number, views.last_result)
            if listeners:
                self._send_event(event, listeners)
        to_act = game.to_act
        if to_act is None:
            self._game_over(game)
            return
        self._requests += 1
        seat = self.seats[to_act]
        limit = self.options.clock.decision_seconds
        pending = Pending(self._requests, to_act, None)
        self.pending = pending
        if listeners:
            limit_ms = round(limit * 1000) if limit is not None and seat.bot is None else None
            self._tell(listeners, TurnEvent(seat=to_act, limit_ms=limit_ms, remaining_ms=limit_ms))
        if seat.bot is not None:
            self._think(seat, pending)
            return
        self._start_clock(pending)
        self._send_decide(seat, pending)

    def _start_clock(self, pending: Pending) -> None:
        """Start the clock of the decision ``pending`` (at a table that has one)."""
        limit = self.options.clock.decision_seconds
        if limit is not None:
            loop = asyncio.get_running_loop()
            pending.deadline = loop.time() + limit
            pending.timer = loop.call_at(pending.deadline, self._guard, self._timed_out, pending.request)

    def _game_over(self, game: Game) -> None:
        """Tell everyone, record the game, rate it, free the seats of players who left."""
        assert game.outcome is not None and self.game_id is not None
        self._broadcast(GameOver(table=self.id, game=self.games_played, outcome=outcome_to_wire(game.outcome)))
        self.games_played += 1
        self.store.finish_game(self.game_id, self.id, self.games_played, plain(game.outcome))
        self.on_game_over(self, game)
        for seat in self.seats:
            seat.rating = self._rating(seat)
        outcome = game.outcome
        log.info("game_over", table=self.id, game=self.games_played - 1, winner=outcome.winner,
                 reason=outcome.reason.value, scores=list(outcome.scores), hands=outcome.hands_dealt)
        for seat in self.seats:
            if seat.kind != "builtin" and seat.bot is not None and seat.peer is None:
                self._empty(seat)
        self._changed(soon=True)
        self._play_on_soon()

    def _only_bots_watched(self) -> bool:
        return bool(self.spectators) and all(s.kind == "builtin" for s in self.seats)

    def _play_on_soon(self) -> None:
        """A finished table of built-in bots only, now watched, deals again after the pause."""
        if self._rematch is None and not self.playing and self._only_bots_watched():
            self._rematch = asyncio.get_running_loop().call_later(self.options.waits.bot_table_pause, self._play_on)

    def _play_on(self) -> None:
        self._rematch = None
        if self._only_bots_watched():
            self.start_if_ready()

    def _send_decide(self, seat: Seat, pending: Pending) -> None:
        if seat.peer is None or self.game is None:
            return
        limit = self.options.clock.decision_seconds
        remaining = None
        if pending.deadline is not None:
            remaining = max(0, round((pending.deadline - asyncio.get_running_loop().time()) * 1000))
        assert self._views is not None
        clock = NO_CLOCK if limit is None else DecisionClock(limit_ms=round(limit * 1000), remaining_ms=remaining)
        legal = self.game.legal_codes()
        seat.peer.send_line(self._views.decide_line(self.id, pending.request, seat.index, legal, clock))

    def _think(self, seat: Seat, pending: Pending) -> None:
        """A built-in bot decides (its own thread or task, under :data:`BUILTIN_LIMITS`); its
        answer is applied if that decision is still wanted. A failing bot gets the fallback."""
        assert self.game is not None and seat.bot is not None
        loop = asyncio.get_running_loop()
        asked = loop.time()
        quiet = self.nobody_here()  # then it thinks briefly: the game goes on only for who may come back
        view = self.game.view(seat.index, QUIET_THINK_SECONDS if quiet else None)
        task = asyncio.ensure_future(seat.bot.decide(view))
        pending.thinking = task
        by = BY_PLAYER if seat.kind == "builtin" else BY_STAND_IN
        if quiet or self._only_bots_watched():  # at a pace spectators can follow, or nobody needs
            paced, pause = self.options.waits.bot_table_pace, 0.0
        else:
            paced, pause = 0.0, self._pause_for_people()

        def done(finished: asyncio.Future[Action]) -> None:
            if self.pending is not pending or finished.cancelled():
                return
            action = finished.result()
            wait = max(asked + paced, loop.time() + pause) - loop.time()
            if wait > 0:
                pending.timer = loop.call_later(wait, self._paced, pending, action, seat.index, by)
                return
            self._guard(self._apply, action, seat.index, by)

        task.add_done_callback(done)

    def _pause_for_people(self) -> float:
        """How long a bot waits, once it has decided, before its move, so that the people at the
        table see every card land: the table's ``bot_pace`` while a person sits here connected,
        twice that for the lead after a finished trick and the first bid after a scored hand (the
        trick, or the hand's summary, stays in view a moment); nothing at a table of bots and
        bot programs (matches, benchmarks). Counted from the decision, which comes after the
        move before it has been sent: the moves reach people at least this far apart. A person's
        clock starts only once their turn comes, after the bots' pauses."""
        pace = self.options.bot_pace
        if not pace or not any(s.kind == "human" and s.peer is not None for s in self.seats):
            return 0.0
        views = self._views
        assert views is not None
        after_trick = views.phase == "playing" and not views.trick and bool(views.tricks)
        after_hand = views.phase == "bidding" and not views.bids and views.last_result is not None
        return 2 * pace if after_trick or after_hand else pace

    def nobody_here(self) -> bool:
        """No player is connected and nobody watches: the game is played on (at the bots'
        pace, thinking briefly) only for the players who may come back, and for its result;
        the table counts against the address that made it (spec.md, "The lobby flow")."""
        return not self.spectators and all(s.peer is None for s in self.seats)

    def _paced(self, pending: Pending, action: Action, seat: int, by: int) -> None:
        if self.pending is pending:
            self._guard(self._apply, action, seat, by)

    def _fallback(self) -> Action:
        """The timeout policy: the legal action with the lowest code (spec.md, "Clocks")."""
        assert self.game is not None
        return self.game.legal_actions()[0]

    def _timed_out(self, request: int) -> None:
        pending = self.pending
        if pending is None or pending.request != request or self.game is None:
            return
        seat = self.seats[pending.seat]
        seat.timeouts += 1
        seat.total_timeouts += 1
        action = self._fallback()
        log.info("timed_out", table=self.id, seat=seat.index, action=str(action), timeouts=seat.timeouts)
        self._tell(self._listeners(), TimedOutEvent(seat=seat.index, action=str(action), timeouts=seat.timeouts))
        limit = self.options.clock.bot_after_timeouts
        if limit is not None and seat.timeouts >= limit and seat.bot is None:
            self._stand_in(seat, "timeouts", think=False)
        self._apply(action, seat.index, BY_CLOCK)

    def _stand_in(self, seat: Seat, why: str, think: bool = True) -> None:
        """A built-in bot plays the seat until its player comes back (or the game ends)."""
        seat.seat_bot(builtin_bot(STAND_IN, seat.index))
        log.info("stand_in", table=self.id, seat=seat.index, why=why)
        self._changed()
        pending = self.pending
        if think and pending is not None and pending.seat == seat.index:
            if pending.timer is not None:
                pending.timer.cancel()
            self._think(seat, pending)

    # -- sending --------------------------------------------------------------------------------

    def _changed(self, soon: bool = False) -> None:
        """Seats, players or spectators may have changed: forget who hears the table, tell the
        lobby (``soon``: at the end of the turn will do)."""
        self._audience = self._listening = None
        self.on_change(self, soon)

    def _recipients(self) -> list[tuple[Peer, int | None]]:
        """Each connected player with its seat, then each spectator with None."""
        if self._audience is None:
            seated = [(s.peer, s.index) for s in self.seats if s.peer is not None]
            self._audience = [*seated, *((p, None) for p in self.spectators)]
        return self._audience

    def audience(self) -> list[Peer]:
        """Everyone who hears the table: its connected players, then its spectators."""
        return [peer for peer, _ in self._recipients()]

    def _listeners(self) -> list[tuple[Peer, int | None]]:
        """The recipients that asked for the event stream."""
        if self._listening is None:
            self._listening = [(p, s) for p, s in self._recipients() if p.events]
        return self._listening

    def _broadcast(self, message: ServerMessage) -> None:
        line = encode(message)
        for peer, _ in self._recipients():
            peer.send_line(line)

    def _send_event(self, event: Event, recipients: list[tuple[Peer, int | None]]) -> None:
        """One event to each recipient as its seat may see it (only a deal differs by seat); a
        card played with the seat now winning the trick (the views have just taken it in)."""
        if isinstance(event, HandDealt):
            for peer, seat in recipients:
                peer.send(EventMessage(table=self.id, event=event_to_wire(event, seat)))
            return
        assert self._views is not None
        self._tell(recipients, event_to_wire(event, None, self._views.winning))

    def _tell(self, recipients: list[tuple[Peer, int | None]], event: WireEvent) -> None:
        """An event every recipient may see alike, encoded once."""
        line = encode(EventMessage(table=self.id, event=event))
        for peer, _ in recipients:
            peer.send_line(line)

    def send_snapshot(self, peer: Peer, seat: int | None, request: RequestId = None) -> bool:
        """Send ``peer`` the table as it stands for ``seat`` (None: a spectator; between games, the
        last game as it ended), with what a player at a real table would remember: the game's
        number, its hands' results, the latest chat; ``request``: the resync it answers. False
        when the table has had no game since the server started: there is nothing to send."""
        game = self.game
        if game is None:
            return False
        views = self._views
        assert views is not None
        view = views.view(seat, game.to_act, game.legal_codes())
        peer.send(Snapshot(
            id=request, table=self.id, view=view, players=self._names(),
            game=self.games_played - 1 if game.is_over else self.games_played,
            results=views.results[-RECALLED_RESULTS:], chat=list(self.chat), clock=self._turn_clock(),
        ))
        return True

    def _turn_clock(self) -> DecisionClock | None:
        """The clock of the seat to act as of now, as its ``turn`` event gave it (None between games)."""
        pending, limit = self.pending, self.options.clock.decision_seconds
        if pending is None:
            return None
        if limit is None or self.seats[pending.seat].bot is not None:
            return NO_CLOCK
        limit_ms = round(limit * 1000)
        if pending.deadline is None:  # held until its player is back (section 18)
            return DecisionClock(limit_ms=limit_ms, remaining_ms=limit_ms)
        remaining = max(0, round((pending.deadline - asyncio.get_running_loop().time()) * 1000))
        return DecisionClock(limit_ms=limit_ms, remaining_ms=remaining)

    def heard(self, sender: str, text: str) -> None:
        """A line of chat was said here: a snapshot recalls the latest (:data:`RECALLED_CHAT`)."""
        self.chat.append(ChatLine(sender=sender, text=text))

    def _names(self) -> list[str]:
        """The name at each seat, as games and snapshots give them."""
        return [s.name or f"seat {s.index}" for s in self.seats]

    # -- failure isolation ----------------------------------------------------------------------

    def _guard(self, step: Callable[..., None], *args: object) -> None:
        """Run a step of this table; a bug breaks this table only, never the server."""
        try:
            step(*args)
        except Exception:
            log.exception("table_failed", table=self.id)
            self.fail()

    def close(self) -> None:
        """Stop the clock, the bots (their threads end) and the timers: the table is gone, or
        the server is stopping."""
        self._clear_pending()
        if self._rematch is not None:
            self._rematch.cancel()
        for seat in self.seats:
            seat.seat_bot(None)

    def fail(self) -> None:
        """Mark the table broken, tell everyone at it, stop its clock."""
        self.broken = True
        self._clear_pending()
        self._broadcast(Error(code=Code.INTERNAL, message=f"table {self.id} failed and was stopped"))
        self._changed()
