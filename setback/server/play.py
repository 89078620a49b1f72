"""The game in play at a table: each decision asked for, answered, timed out or made by a bot,
recorded, and told to everyone as their seat may see it.

Everything that decides the game is the engine's; the play only routes: it takes a seat's
action, applies it through :class:`setback.engine.Game`, records it, sends the events
(:mod:`.audience`), and asks the seat to act next for its decision, on the clock
(:mod:`.turnclock`), or lets its bot decide (:mod:`.pacing`). What it needs of its table
beyond that is :class:`Host`.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Final, Protocol

from setback.engine import Action, Game, HandScored, parse_action
from setback.protocol import Code
from setback.protocol.messages import SEED_LIMIT, GameStarted, RequestId, Snapshot, TimedOutEvent, TurnEvent
from setback.protocol.views import TableRules, WireViews
from setback.server.audience import RECALLED_RESULTS, Audience
from setback.server.logger import Logger
from setback.server.outgoing import LineSink
from setback.server.pacing import QUIET_THINK_SECONDS, pause_for_people, think
from setback.server.peer import Peer
from setback.server.seats import STAND_IN, Pending, RefusedError, Seat, TableOptions, builtin_bot, seat_names
from setback.server.store import BY_CLOCK, BY_PLAYER, BY_STAND_IN, Store
from setback.server.timesource import TimeSource
from setback.server.turnclock import TurnClock

log: Final = Logger("setback.table")
"""(Kept bound: :mod:`.logger`; a line a game at least.)"""

_BY_PLAYER: Final = BY_PLAYER
_BY_STAND_IN: Final = BY_STAND_IN
"""The store's, held here: compiled, a name imported from a module that is not is looked up at each use."""


class Host(Protocol):
    """What the game in play needs of the table it is played at."""

    id: str
    games_played: int
    seats: list[Seat]
    hears: Audience
    options: TableOptions
    store: Store
    time: TimeSource
    clock: TurnClock

    @property
    def table_rules(self) -> TableRules:
        """The table's rules as the wire and the records have them, made once."""

    def changed(self, soon: bool = False) -> None:
        """What the lobby shows of the table may have changed."""

    def decided(self, game: Game) -> None:
        """The game is over (its last events sent): record, rate and tell it."""

    def guard(self, step: Callable[..., None], *args: object) -> None:
        """Run a step of the table; a bug breaks that table only."""


class Play:
    """One game at a table, from its first decision to its outcome."""

    def __init__(self, host: Host, game: Game, game_id: int, stood_in: set[int], table_rules: TableRules) -> None:
        self.host = host
        self.table_id = host.id
        self.game = game
        self.game_id = game_id
        self.seats = host.seats
        self.hears = host.hears
        self.options = host.options
        self.store = host.store
        self.journal = host.store.turn.game(game_id)
        """Where the game's actions are journaled (compiled, where the store is not)."""
        self.time = host.time
        self.clock = host.clock
        self.stood_in = stood_in
        """The seats a stand-in bot played a decision of this game for (their ratings keep out of
        it). The game's actions themselves are the engine's and the journal's: kept once."""
        self.pending: Pending | None = None
        self._spare: Pending | None = None
        """The last decision's, taken for the next one if nothing was set to call back on it (no
        clock, no bot): a decision's new object and its freeing cost some 370 instructions."""
        self.views = WireViews(game.rules, table_rules)
        """Every seat's wire view of the game, fed with each of its events."""
        self.sent = 0

    @staticmethod
    def deal(host: Host) -> Play:
        """A new game at ``host`` (its seed the table's next, or a random one), recorded and told."""
        options = host.options
        seed = secrets.randbits(63) if options.seed is None else (options.seed + host.games_played) % SEED_LIMIT
        names = seat_names(host.seats)
        rules = host.table_rules
        rated = options.rated and options.seed is None
        game_id = host.store.start_game(host.id, host.games_played, seed, rules.saved, names, rated)
        host.hears.broadcast(GameStarted(table=host.id, game=host.games_played, rules=rules.wire, players=names))
        log.info("game_started", table=host.id, game=host.games_played, players=names)
        return Play(host, Game(options.rules, seed), game_id, set(), rules)

    def restart(self) -> None:
        """Go on with a game replayed after a restart, its events so far told before: the seat
        to act is asked again, with a new request number, its clock held while its player is
        away (the server was away, not the player: the clock waits for them)."""
        self.sent = self.game.event_count
        for event in self.game.events:
            self.views.note(event)
        self.host.guard(self.advance)
        pending = self.pending
        if pending is not None and pending.timer is not None and self.seats[pending.seat].peer is None:
            self.clock.hold(pending)

    # -- a seat's answer, and what the server chooses ------------------------------------------

    def act(self, pending: Pending, request: int, answer: Action | str) -> None:
        """The answer to ``request`` of the seat whose decision ``pending`` is (the action, or its
        text as sent): checked, applied, or refused with the request standing."""
        if request != pending.request:
            stale = f"request {request} is not pending; answer request {pending.request}"
            raise RefusedError(Code.STALE_REQUEST, stale, request=pending.request)
        index = pending.seat
        try:
            action = parse_action(answer) if isinstance(answer, str) else answer
            self.game.carry_out(action, index)
        except ValueError as exc:  # unreadable, or IllegalActionError: nothing changed
            raise RefusedError(Code.ILLEGAL_ACTION, str(exc), request=pending.request) from None
        self.seats[index].timeouts = 0
        self._applied(action, index, _BY_PLAYER)

    def _apply(self, action: Action, seat: int, by: int) -> None:
        """Apply an action the server chose (timeout policy, a bot): it must be legal."""
        self.game.carry_out(action, seat)
        self._applied(action, seat, by)

    def _applied(self, action: Action, seat: int, by: int) -> None:
        """Record the action and who chose it (before anyone hears of it), then move the game on."""
        self.stop()
        self.journal.add_code(seat, action.code, by)
        if by == _BY_STAND_IN:
            self.stood_in.add(seat)
        self.advance()

    def stop(self) -> None:
        """The pending decision is no longer wanted: stop its clock (or pace) and its bot."""
        pending = self.pending
        if pending is not None:
            if pending.timer is None and pending.thinking is None:
                self._spare = pending  # held by nothing else that outlives this decision
            else:
                if pending.timer is not None:
                    pending.timer.cancel()
                if pending.thinking is not None:
                    pending.thinking.cancel()
        self.pending = None

    # -- asking the next seat --------------------------------------------------------------------

    def advance(self) -> None:
        """Send the new events, then ask the next seat to act (or finish the game)."""
        game, views = self.game, self.views
        listeners = self.hears.listeners()
        sent, count = self.sent, game.event_count
        self.sent = count
        for index in range(sent, count):  # (each by a native call: a slice of them costs a list)
            event = game.event_at(index)
            views.note(event)
            if type(event) is HandScored:  # the wire's result, as the views encoded it
                self.journal.add_hand(event.result.hand_number, views.last_result_json)
            if listeners:
                self.hears.send_event(event, listeners, views)
        to_act = game.to_act
        if to_act is None:
            self.host.decided(game)
            return
        request = self.clock.next_request()  # the table's count, kept where it is read natively
        seat = self.seats[to_act]
        pending = self._spare
        if pending is None:
            pending = Pending(request, to_act, None)
        else:
            self._spare = None
            pending.request = request
            pending.seat = to_act
            pending.deadline = None
        self.pending = pending
        if listeners:
            limit_ms = self.clock.limit_ms(seat.bot is not None)
            self.hears.tell(listeners, TurnEvent(seat=to_act, limit_ms=limit_ms, remaining_ms=limit_ms))
        if seat.bot is not None:
            self._think(seat, pending)
            return
        self.start_clock(pending)
        self.send_decide(seat, pending)

    def start_clock(self, pending: Pending) -> None:
        clock = self.clock
        if clock.limit is not None:  # (at a table without a clock nothing is built to call back: bot tables' hot path)
            clock.start(pending, self.host.guard, self._timed_out, pending.request)

    def send_decide(self, seat: Seat, pending: Pending) -> None:
        """Ask the seat's connected player for the decision ``pending``, on what is left of its clock."""
        peer = seat.peer
        if peer is None:
            return
        legal = self.game.legal_codes()
        clock = self.clock.for_decide(pending)
        line = self.views.decide_line(self.table_id, pending.request, seat.index, legal, clock)
        if isinstance(peer, LineSink):  # every connection: a native call (the protocol's is by name)
            sink: LineSink = peer
            sink.send_line(line)
        else:
            peer.send_line(line)

    def resume(self, peer: Peer, seat: Seat, request: RequestId = None) -> None:
        """Bring a returning (or resyncing) seat up to date: its snapshot (answering ``request``),
        then its pending decision, if it has one and no stand-in plays it. A stand-in that
        was deciding it for the player, now back, is called off: the decision is theirs, on
        a fresh clock, and only their answer is taken (spec.md, section 13)."""
        peer.send(self.snapshot(seat.index, request))
        pending = self.pending
        if pending is not None and pending.seat == seat.index and seat.bot is None:
            if pending.thinking is not None:
                self._call_off(pending)
            if pending.deadline is None:
                self.start_clock(pending)  # held since a restart (section 18), or taken back
            self.send_decide(seat, pending)

    @staticmethod
    def _call_off(pending: Pending) -> None:
        """The bot deciding ``pending`` (thinking, or waiting to make its move) is no longer
        wanted: its answer, whenever it comes, is dropped, and the clock starts afresh."""
        if pending.timer is not None:
            pending.timer.cancel()
        if pending.thinking is not None:
            pending.thinking.cancel()
        pending.timer = pending.thinking = None
        pending.deadline = None

    def resync(self, peer: Peer, seat: Seat | None, request: RequestId) -> bool:
        """``peer`` (at ``seat``, or watching) asks for the table as it stands: its snapshot
        answering ``request``, and its pending decision."""
        if seat is None:
            peer.send(self.snapshot(None, request))
        else:
            self.resume(peer, seat, request)
        return True

    def snapshot(self, seat: int | None, request: RequestId) -> Snapshot:
        """The game as ``seat`` sees it (None: a spectator), its hands' results and the latest chat."""
        game, views, pending = self.game, self.views, self.pending
        by_bot = pending is not None and self.seats[pending.seat].bot is not None
        games_played = self.host.games_played
        return Snapshot(
            id=request, table=self.host.id, view=views.view(seat, game.to_act, game.legal_codes()),
            players=seat_names(self.seats),
            game=games_played - 1 if game.is_over else games_played,
            results=views.results[-RECALLED_RESULTS:], chat=list(self.hears.chat),
            clock=self.clock.for_turn(pending, by_bot),
        )

    # -- bots, stand-ins and the clock running out --------------------------------------------

    def _think(self, seat: Seat, pending: Pending) -> None:
        """A built-in bot decides (its own thread or task, under :data:`BUILTIN_LIMITS`); its
        answer is applied if that decision is still wanted. A failing bot gets the fallback."""
        assert seat.bot is not None
        quiet = self.hears.nobody_here()  # then it thinks briefly: the game goes on only for who may come back
        think_for = QUIET_THINK_SECONDS if quiet else None
        if quiet or self.hears.only_bots_watched():  # at a pace spectators can follow, or nobody needs
            paced, pause = self.options.waits.bot_table_pace, 0.0
        else:
            paced, pause = 0.0, pause_for_people(self.options.bot_pace, self.seats, self.views)
            think_for = self.options.bot_pace if pause else None  # a person never waits longer for its search
        view = self.game.view(seat.index, think_for)
        by = BY_PLAYER if seat.kind == "builtin" else BY_STAND_IN

        def move(wanted: Pending, action: Action) -> None:
            if self.pending is wanted:
                self.host.guard(self._apply, action, seat.index, by)

        think(seat.bot, view, pending, self.time, paced, pause, self._wanted, move)

    def _wanted(self, pending: Pending) -> bool:
        return self.pending is pending

    def _timed_out(self, request: int) -> None:
        """The clock of decision ``request`` ran out: the lowest legal action is played for the
        seat (spec.md, "Clocks"), and too many in a row hand it to a stand-in."""
        pending = self.pending
        if pending is None or pending.request != request:
            return
        seat = self.seats[pending.seat]
        seat.timeouts += 1
        seat.total_timeouts += 1
        action = self.game.legal_actions()[0]
        log.info("timed_out", table=self.host.id, seat=seat.index, action=str(action), timeouts=seat.timeouts)
        timed_out = TimedOutEvent(seat=seat.index, action=str(action), timeouts=seat.timeouts)
        self.hears.tell(self.hears.listeners(), timed_out)
        limit = self.options.clock.bot_after_timeouts
        if limit is not None and seat.timeouts >= limit and seat.bot is None:
            self.stand_in(seat, "timeouts", think=False)
        self._apply(action, seat.index, BY_CLOCK)

    def stand_in(self, seat: Seat, why: str, think: bool = True) -> None:
        """A built-in bot plays the seat until its player comes back (or the game ends)."""
        seat.seat_bot(builtin_bot(STAND_IN, seat.index))
        log.info("stand_in", table=self.host.id, seat=seat.index, why=why)
        self.host.changed()
        pending = self.pending
        if think and pending is not None and pending.seat == seat.index:
            if pending.timer is not None:
                pending.timer.cancel()
            self._think(seat, pending)
