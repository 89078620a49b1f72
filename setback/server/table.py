"""A table: its seats' comings and goings, its games one after another, what the lobby shows.

Who sits where is the seat book's (:mod:`.seatbook`); the game in play, decision by decision,
is its :class:`~setback.server.play.Play`'s; who hears the table is its audience
(:mod:`.audience`). The table starts games, keeps seats for players who dropped, takes a
table back from the records, and breaks alone if a step of it fails. Every wait is set on
the table's :class:`~setback.server.timesource.TimeSource`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final, Literal

from setback.engine import Action, Game, plain
from setback.protocol import Code
from setback.protocol.convert import outcome_to_wire
from setback.protocol.messages import Error, GameOver, RequestId, TableInfo
from setback.protocol.views import TableRules
from setback.server.audience import RECALLED_CHAT, Audience
from setback.server.logger import Logger
from setback.server.peer import Peer
from setback.server.play import Play
from setback.server.seatbook import SeatBook
from setback.server.seats import Pending, RefusedError, Seat, TableOptions
from setback.server.store import Store, TableRow, replay, stood_in_seats
from setback.server.timesource import Cancellable, LoopTime, TimeSource
from setback.server.turnclock import TurnClock

log: Final = Logger("setback.table")
"""(Kept bound: :mod:`.logger`; a line a game at least.)"""


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
    time: TimeSource = field(default_factory=LoopTime)
    """Where the table's clock, paces, pauses and grace periods are kept."""
    play: Play | None = None
    """The game in play, or the last one, as it ended (None until the first)."""
    games_played: int = 0
    broken: bool = False
    damage: str | None = None
    """Why the table's records could not be restored, if they could not (see :meth:`restore_failed`)."""
    creator: Peer | None = None
    """The connection that made the table, until it sits or watches here, or goes: the table
    waits for it (someone passing through does not close it), then closes once it empties."""
    _rematch: Cancellable | None = None
    """The next game of a watched table of built-in bots only (nobody there says ready)."""

    def __post_init__(self) -> None:
        self.book = SeatBook(
            self, self.id, self.options.rules, self.store, self.time, self.options.waits.reconnect_grace
        )
        self.seats: list[Seat] = self.book.seats
        self.hears = Audience(self.id, self.seats)
        self.spectators: set[Peer] = self.hears.spectators
        self.clock = TurnClock(self.options.clock.decision_seconds, self.time)
        self._rules_made: TableRules | None = None

    @property
    def table_rules(self) -> TableRules:
        """The table's rules as the wire and the records have them: made once for every game
        and table update (again only if the options' rules were replaced)."""
        made = self._rules_made = TableRules.of(self.options.rules, self._rules_made)
        return made

    @property
    def game(self) -> Game | None:
        return None if self.play is None else self.play.game

    @property
    def game_id(self) -> int | None:
        return None if self.play is None else self.play.game_id

    @property
    def pending(self) -> Pending | None:
        """The decision the game waits for, if any."""
        return None if self.play is None else self.play.pending

    @property
    def stood_in(self) -> set[int]:
        """The seats a stand-in played a decision of this game for (their ratings keep out of it)."""
        return set() if self.play is None else self.play.stood_in

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
            table=self.id, name=self.options.name, rules=self.table_rules.wire,
            clock=self.options.clock, seats=[s.info() for s in self.seats],
            spectators=len(self.spectators), status=self.status, games_played=self.games_played,
            seeded=self.options.seed is not None, rated=self.options.rated and self.options.seed is None,
            private=self.options.invite is not None, bot_pace=self.options.bot_pace,
        )

    def may_close(self) -> bool:
        """Nobody is here or expected back, and no game is in play that must end first: a game
        with a hand limit is played out by its bots (its result counts), one without is not,
        nor one of built-in bots only (nobody plays it for anyone). A table whose records could
        not be restored never closes: closing it would record over them."""
        if self.creator is not None or self.damage is not None or not self.hears.abandoned():
            return False
        only_bots = all(s.kind == "builtin" for s in self.seats)
        return not self.playing or only_bots or self.options.rules.hand_limit is None

    # -- seats (the rest is the seat book's: :attr:`book`) -------------------------------------

    def join(self, peer: Peer, seat: int | None, ready: bool) -> Seat:
        """Seat ``peer`` (in ``seat`` or the lowest free one); it may join mid-game only in its own seat."""
        if self.broken:
            raise RefusedError(Code.INTERNAL, "this table is broken; create another")
        return self.book.join(peer, seat, ready)

    def leave(self, peer: Peer) -> None:
        """The peer leaves its seat (a stand-in bot finishes a game in play) or stops watching."""
        self.spectators.discard(peer)
        seat = self.book.seat_of(peer)
        if seat is None:
            self.changed()
        else:
            self.book.leave(seat)

    def drop(self, peer: Peer) -> None:
        """The peer's connection died: its seat is kept for the grace period."""
        self.spectators.discard(peer)
        seat = self.book.seat_of(peer)
        if seat is not None:
            self.book.drop(seat)
        self.changed()

    def resume(self, peer: Peer, seat: Seat) -> None:
        """Bring a returning seat up to date: the snapshot, then its pending decision, if any."""
        if self.play is not None:
            self.play.resume(peer, seat)

    def resync(self, peer: Peer, request: RequestId) -> bool:
        """``peer`` asks for the table as it stands: its snapshot (answering ``request``), and its
        pending decision. False when the table has had no game yet: there is nothing to show."""
        return self.play is not None and self.play.resync(peer, self.book.seat_of(peer), request)

    def came(self, peer: Peer) -> None:
        """``peer`` sits or watches here: if it made the table, the table waits for it no more."""
        if peer is self.creator:
            self.creator = None

    def stand_in(self, seat: Seat, why: str) -> None:
        """A built-in bot plays the seat until its player comes back (or the game ends)."""
        assert self.play is not None
        self.play.stand_in(seat, why)

    def spectate(self, peer: Peer) -> None:
        self.came(peer)
        self.spectators.add(peer)
        self.send_snapshot(peer, None)
        self.changed()
        self._play_on_soon()

    # -- the game ----------------------------------------------------------------------------

    def start_if_ready(self) -> None:
        """Start a game once every seat is taken and ready (built-in bots always are); a table
        of built-in bots only, once someone watches it (nobody is there to play for)."""
        if self.playing or self.broken:
            return
        ready = all(s.taken and (s.ready or s.kind == "builtin") for s in self.seats)
        if ready and (self.spectators or not all(s.kind == "builtin" for s in self.seats)):
            self.guard(self._start)

    def _start(self) -> None:
        play = self.play = Play.deal(self)
        self.book.new_game()
        self.changed(soon=True)
        play.advance()

    def restore(self, row: TableRow) -> None:
        """Take back the seats and the unfinished game of a table read from the store.

        Nobody is connected yet: every player's seat waits the grace period for its token, and
        the table's latest chat lines are recalled from the records;
        the unfinished game is replayed from its seed and actions, each by the seat that
        took it, to exactly where it stood, and the seat to act is asked again (with a new
        request number and a fresh clock). Records this table cannot play on (an action
        that is not legal or not that seat's, a seat the table does not have) raise a
        ValueError before anything is taken back: see :meth:`restore_failed`.
        """
        saved = row.game
        game = None if saved is None else replay(Game(self.options.rules, saved.seed), saved.actions)
        self.book.take_back(row.seats)
        self.games_played = row.games_played
        self.hears.recall(self.store.table_chat(self.id, RECALLED_CHAT))
        self.book.hold_all()  # between games too: a player who never comes back frees the seat
        if saved is not None and game is not None:
            self.play = Play(self, game, saved.id, set(stood_in_seats(saved.actions)), self.table_rules)
            self.play.restart()

    def restore_failed(self, reason: str, games_played: int) -> None:
        """The table's records could not be restored (``reason``): it is broken, holds no seat
        and stays so, listed, until the server stops. Nothing of it is recorded again, so its
        records stay as they were, for the next start to try again (spec.md, "Durability")."""
        self.broken = True
        self.damage = reason
        self.games_played = games_played

    def act(self, peer: Peer, request: int, action: Action | str) -> None:
        """A seat's answer to its decision request (the action read, or its text): checked, applied,
        or refused with the request standing."""
        play = self.play
        pending = None if play is None else play.pending
        if play is None or pending is None or self.seats[pending.seat].peer is not peer:
            if self.book.seat_of(peer) is None:
                raise RefusedError(Code.NOT_AT_TABLE, "you have no seat at this table")
            raise RefusedError(Code.NOT_YOUR_TURN, "it is not your turn")
        play.act(pending, request, action)

    def decided(self, game: Game) -> None:
        """Tell everyone, record the game, rate it, free the seats of players who left."""
        assert game.outcome is not None and self.play is not None
        self.hears.broadcast(GameOver(table=self.id, game=self.games_played, outcome=outcome_to_wire(game.outcome)))
        self.games_played += 1
        self.store.finish_game(self.play.game_id, self.id, self.games_played, plain(game.outcome))
        self.on_game_over(self, game)
        outcome = game.outcome
        log.info("game_over", table=self.id, game=self.games_played - 1, winner=outcome.winner,
                 reason=outcome.reason.value, scores=list(outcome.scores), hands=outcome.hands_dealt)
        self.book.game_over()
        self.changed(soon=True)
        self._play_on_soon()

    def _play_on_soon(self) -> None:
        """A finished table of built-in bots only, now watched, deals again after the pause."""
        if self._rematch is None and not self.playing and self.hears.only_bots_watched():
            self._rematch = self.time.call_later(self.options.waits.bot_table_pause, self._play_on)

    def _play_on(self) -> None:
        self._rematch = None
        if self.hears.only_bots_watched():
            self.start_if_ready()

    # -- what the table sends ----------------------------------------------------------------

    def changed(self, soon: bool = False) -> None:
        """Seats, players or spectators may have changed: forget who hears the table, tell the
        lobby (``soon``: at the end of the turn will do)."""
        self.hears.forget()
        self.on_change(self, soon)

    def send_snapshot(self, peer: Peer, seat: int | None, request: RequestId = None) -> bool:
        """Send ``peer`` the table as it stands for ``seat`` (None: a spectator; between games, the
        last game as it ended), with what a player at a real table would remember: the game's
        number, its hands' results, the latest chat; ``request``: the resync it answers. False
        when the table has had no game since the server started: there is nothing to send."""
        if self.play is None:
            return False
        peer.send(self.play.snapshot(seat, request))
        return True

    # -- failure isolation ----------------------------------------------------------------------

    def guard(self, step: Callable[..., None], *args: object) -> None:
        """Run a step of this table; a bug breaks this table only, never the server."""
        try:
            step(*args)
        except Exception:
            log.exception("table_failed", table=self.id)
            self.fail()

    def close(self) -> None:
        """Stop the clock, the bots (their threads end) and the timers: the table is gone, or
        the server is stopping."""
        if self.play is not None:
            self.play.stop()
        if self._rematch is not None:
            self._rematch.cancel()
        for seat in self.seats:
            seat.seat_bot(None)

    def fail(self) -> None:
        """Mark the table broken, tell everyone at it, stop its clock."""
        self.broken = True
        if self.play is not None:
            self.play.stop()
        self.hears.broadcast(Error(code=Code.INTERNAL, message=f"table {self.id} failed and was stopped"))
        self.changed()
