"""A table's seat book: who holds which chair, who is away and for how long, and what the
records keep of it.

The book seats players and built-in bots, frees chairs, keeps a dropped player's chair for
the grace period and gives it back to its token, and writes every change of a chair to the
store. Whether a game is in play, and a stand-in for a player away from one, are its
table's (:class:`Sitting`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import structlog

from setback.bots.levels import seatable
from setback.engine import Rules
from setback.protocol import Code
from setback.protocol.messages import Error
from setback.server.peer import Peer
from setback.server.ratings import rating_key, rating_name
from setback.server.seats import RefusedError, Seat, builtin_bot
from setback.server.store import SeatRow, Store, token_hash
from setback.server.timesource import TimeSource

log = structlog.get_logger("setback.table")


class Sitting(Protocol):
    """What the seat book needs of its table."""

    @property
    def playing(self) -> bool:
        """A game is in play."""

    def changed(self, soon: bool = False) -> None:
        """What the lobby shows of the table may have changed."""

    def came(self, peer: Peer) -> None:
        """``peer`` sits or watches at the table."""

    def stand_in(self, seat: Seat, why: str) -> None:
        """A built-in bot plays the seat of the game in play until its player is back."""

    def guard(self, step: Callable[..., None], *args: object) -> None:
        """Run a step of the table; a bug breaks that table only."""


class SeatBook:
    """The chairs of one table, in seat order, kept in step with the store."""

    __slots__ = ("grace", "host", "seats", "store", "table_id", "time", "variant")

    def __init__(
        self, host: Sitting, table_id: str, rules: Rules, store: Store, time: TimeSource, grace: float,
    ) -> None:
        self.host = host
        self.table_id = table_id
        self.variant = rules.variant
        """The game the table plays: a seat's rating shown is its player's rating at it."""
        self.store = store
        self.time = time
        self.grace = grace
        """How long a dropped player's chair waits for its token (seconds)."""
        self.seats = [Seat(i) for i in range(rules.players)]
        """Every chair, by its index (an emptied chair is replaced by a new :class:`Seat`)."""

    # -- comings and goings -------------------------------------------------------------

    def join(self, peer: Peer, seat: int | None, ready: bool) -> Seat:
        """Seat ``peer`` (in ``seat`` or the lowest free one), between games."""
        chosen = self.free(seat, self.host.playing)
        self.host.came(peer)
        return self._seated(self.sit(chosen, peer, ready))

    def add_bot(self, name: str, seat: int | None) -> Seat:
        """A built-in bot in a free seat (or the lowest free one); during a game, a stand-in in
        the seat ``seat`` of a player who is away (it gives the seat back when they return)."""
        self.check_bot(name)
        self.check(seat)
        playing = self.host.playing
        if playing and seat is not None:
            away = self.seats[seat]
            if away.kind in {"human", "bot"} and away.peer is None:
                if away.bot is None:  # (asked twice, it is there already)
                    self.host.stand_in(away, "asked")  # the table need not wait out the grace period
                return away
        return self._seated(self.sit_builtin(self.free(seat, playing), name))

    def _seated(self, seat: Seat) -> Seat:
        self.host.changed()
        return seat

    def asks_ready(self, peer: Peer) -> bool:
        """Whether a ``ready`` from ``peer`` now is the one the game asks for: the first that
        marks its seat ready since a game started (one a seat a game)."""
        seat = self.seat_of(peer)
        return seat is not None and seat.owes_ready and not (self.host.playing and seat.bot is not None)

    def set_ready(self, peer: Peer, ready: bool) -> None:
        """``peer`` is ready for the next game (or not); said during a game from a seat its
        stand-in plays, it takes the seat back (and is not yet ready for the next game)."""
        seat = self.seat_of(peer)
        if seat is None:
            raise RefusedError(Code.NOT_AT_TABLE, "only a seated player can be ready")
        if ready and self.host.playing and seat.bot is not None:
            seat.seat_bot(None)
            seat.timeouts = 0
            log.info("seat_taken_back", table=self.table_id, seat=seat.index)
        else:
            seat.ready = ready
            if ready:
                seat.owes_ready = False
        self.host.changed(soon=True)

    def leave(self, seat: Seat) -> None:
        """The seat's player leaves it: a stand-in plays it to the end of the game in play, or it is freed."""
        seat.peer = None
        if self.host.playing:
            seat.token_hash = None
            seat.ready = False  # whoever left is not ready for another game here
            self.save(seat)
            self.host.stand_in(seat, "left")  # which tells everyone
            return
        self.empty(seat)
        self.host.changed()

    def drop(self, seat: Seat) -> None:
        """The seat's player's connection died: keep the seat for the grace period."""
        seat.peer = None
        self.hold(seat)
        log.info("seat_dropped", table=self.table_id, seat=seat.index, name=seat.name)

    def hold_all(self) -> None:
        """Keep every player's chair for its token the grace period (a restart: nobody is back yet)."""
        for seat in self.seats:
            if seat.kind in {"human", "bot"}:
                self.hold(seat)

    def hold(self, seat: Seat) -> None:
        """Keep the seat for its token the grace period (then a stand-in plays it, or it is freed)."""
        seat.grace = self.time.call_later(self.grace, self._grace_over, seat.index, seat.token_hash)

    def _grace_over(self, index: int, held_by: str | None) -> None:
        seat = self.seats[index]
        if seat.peer is not None or seat.token_hash != held_by:
            return
        seat.grace = None
        if self.host.playing:
            if seat.bot is None:  # (a stand-in may already be there, asked for by the table)
                self.host.guard(self.host.stand_in, seat, "away")  # which tells everyone
        else:
            self.empty(seat)
            self.host.changed()

    def reclaim(self, peer: Peer, hashed: str) -> Seat | None:
        """Give ``peer`` back the seat held for the token hashed ``hashed``, from its stand-in
        or from another connection (which is told)."""
        seat = self.held_for(hashed)
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
        self.host.changed()
        return seat

    # -- the chairs ---------------------------------------------------------------------

    def holds(self, hashed: str) -> bool:
        """Whether a seat is held for the token whose :func:`token_hash` is ``hashed``."""
        return any(s.token_hash == hashed for s in self.seats)

    def held_for(self, hashed: str) -> Seat | None:
        """The seat held for the token hashed ``hashed``, if one is."""
        return next((s for s in self.seats if s.token_hash == hashed), None)

    def seat_of(self, peer: Peer) -> Seat | None:
        return next((s for s in self.seats if s.peer is peer), None)

    def check(self, seat: int | None) -> None:
        """Refuse a seat number the table does not have (``invalid_field``)."""
        if seat is not None and not 0 <= seat < len(self.seats):
            raise RefusedError(Code.INVALID_FIELD, f"no seat {seat} at a table of {len(self.seats)}", "$.seat")

    def free(self, seat: int | None, playing: bool) -> Seat:
        """The chair ``seat`` (or the lowest free one) for someone to take, or why not."""
        self.check(seat)
        if playing:
            raise RefusedError(Code.GAME_IN_PROGRESS, "a game is being played; spectate or wait for it to end")
        if seat is not None:
            if self.seats[seat].taken:
                raise RefusedError(Code.SEAT_TAKEN, f"seat {seat} is taken")
            return self.seats[seat]
        free = next((s for s in self.seats if not s.taken), None)
        if free is None:
            raise RefusedError(Code.TABLE_FULL, "every seat is taken")
        return free

    def sit(self, chosen: Seat, peer: Peer, ready: bool) -> Seat:
        """``peer`` takes the free chair ``chosen``, held for its token from now on."""
        chosen.kind = peer.kind
        chosen.name = peer.name
        chosen.token_hash = token_hash(peer.token)
        chosen.peer = peer
        chosen.ready = ready
        return self.taken(chosen)

    @staticmethod
    def check_bot(name: str) -> None:
        """Refuse a built-in bot or level the server does not have (``unknown_bot``)."""
        if name not in seatable():
            raise RefusedError(Code.UNKNOWN_BOT, f"no built-in bot {name!r}; try one of {', '.join(seatable())}")

    def sit_builtin(self, chosen: Seat, name: str) -> Seat:
        """The built-in bot ``name`` (one :meth:`check_bot` let by) takes the free chair ``chosen``."""
        chosen.kind = "builtin"
        chosen.name = f"{name}-{chosen.index}"
        chosen.seat_bot(builtin_bot(name, chosen.index))
        chosen.builtin = name
        chosen.ready = True
        return self.taken(chosen)

    def taken(self, seat: Seat) -> Seat:
        """A chair was just taken: its rating looked up, its record written."""
        seat.rating = self.rating(seat)
        self.save(seat)
        return seat

    def empty(self, seat: Seat) -> None:
        """Free the chair: its grace timer and its bot stop, the record says it is empty."""
        if seat.grace is not None:
            seat.grace.cancel()
        seat.seat_bot(None)
        self.seats[seat.index] = Seat(seat.index)
        self.save(self.seats[seat.index])

    def rating(self, seat: Seat) -> float | None:
        """The rating of whoever holds the chair at the table's variant, if the records know one."""
        known = self.store.rating_of(rating_key(rating_name(seat.kind, seat.name, seat.builtin), self.variant))
        return known[0] if known else None

    def new_game(self) -> None:
        """A game starts: every player owes a ``ready`` for the next one, stand-ins go, the
        timeouts count afresh."""
        for seat in self.seats:
            seat.total_timeouts = 0  # a table info counts this game's
            if seat.kind != "builtin":
                seat.ready = False
                seat.owes_ready = True
                seat.seat_bot(None)
                seat.timeouts = 0

    def game_over(self) -> None:
        """A game was decided and rated: the ratings looked up again, the seats of players who
        left (their stand-ins played on) freed."""
        for seat in self.seats:
            seat.rating = self.rating(seat)
        for seat in self.seats:
            if seat.kind != "builtin" and seat.bot is not None and seat.peer is None:
                self.empty(seat)

    def save(self, seat: Seat) -> None:
        self.store.save_seat(self.table_id, SeatRow(seat.index, seat.kind, seat.name, seat.token_hash, seat.builtin))

    def take_back(self, saved: list[SeatRow]) -> None:
        """Fill the chairs as the records left them (a restart): nobody is connected yet. A
        chair the table does not have raises ValueError before any is filled."""
        for row in saved:
            if not 0 <= row.seat < len(self.seats):
                raise ValueError(f"a seat {row.seat} at a table of {len(self.seats)}")
        for row in saved:
            seat = self.seats[row.seat]
            seat.kind = row.kind
            seat.name = row.name
            seat.token_hash = row.token_hash
            seat.builtin = row.bot
            if row.kind == "builtin" and row.bot in seatable():
                seat.seat_bot(builtin_bot(row.bot, seat.index))
                seat.ready = True
            seat.rating = self.rating(seat)
