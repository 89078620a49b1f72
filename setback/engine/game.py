"""The checking facade: a game you drive action by action and read as events and views."""

from __future__ import annotations

from dataclasses import dataclass

from setback.engine.actions import ACTIONS, Action
from setback.engine.cards import CARD_AT, SUITS, Card, Suit
from setback.engine.deck import cards_of, mask_of
from setback.engine.events import (
    BidMade,
    CardPlayed,
    Draw,
    Event,
    HandDealt,
    HandResult,
    HandScored,
    HandThrownIn,
    Outcome,
    Passed,
    Phase,
    TrickWon,
)
from setback.engine.rules import Rules
from setback.engine.state import GameState


@dataclass(frozen=True, slots=True)
class Setup:
    """A set first deal instead of the seeded draw and deal: for rule tests, puzzles and search.

    ``hands[s]`` are seat ``s``'s six cards, ``dealer`` deals, the sides start from
    ``scores`` (zeros when None); the hands after the first are dealt from the seed.
    """

    hands: tuple[tuple[Card, ...], ...]
    dealer: int
    scores: tuple[int, ...] | None = None


class IllegalActionError(ValueError):
    """The action is not legal for the seat to act in the game's current phase."""


class NotYourTurnError(IllegalActionError):
    """A seat tried to act when another seat is to act (or when the game is over)."""


@dataclass(frozen=True, slots=True)
class View:
    """Everything one seat (or, with ``seat`` None, a spectator) may know at this moment.

    ``hand`` is the viewer's own cards (empty for a spectator); ``legal`` is non-empty
    only when the viewer is the seat to act. ``bids`` and ``tricks`` cover the current
    hand; ``trick`` is the trick being played, in playing order. ``pitcher`` and ``bid``
    are set once bidding is over; ``trump`` once the pitcher has led. ``winning`` is the seat
    whose card wins the trick in play so far (None while no card is in it). ``last_result`` is
    the previous hand's result: None in the first hand and after a thrown-in one.
    ``time_left`` is the seconds left on the viewer's clock for this decision, given to
    :meth:`Game.view` by whoever runs the clock (the server, the bot SDK); the engine keeps
    no clocks.
    """

    seat: int | None
    rules: Rules
    phase: Phase
    hand_number: int
    dealer: int
    to_act: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    bids: tuple[Passed | BidMade, ...]
    pitcher: int | None
    bid: int | None
    trump: Suit | None
    trick: tuple[Draw, ...]
    tricks: tuple[TrickWon, ...]
    scores: tuple[int, ...]
    last_result: HandResult | None
    legal: tuple[Action, ...]
    outcome: Outcome | None
    time_left: float | None = None
    winning: int | None = None


def redact(event: Event, seat: int | None) -> Event:
    """The event as ``seat`` (None: a spectator) may see it: other seats' cards removed."""
    if isinstance(event, HandDealt):
        hands = tuple(cards if s == seat else () for s, cards in enumerate(event.hands))
        return HandDealt(event.hand_number, event.dealer, event.pone, event.cut, hands)
    return event


class Game:
    """A game of Setback under ``rules``, dealt from ``seed``.

    Every action is checked before it is applied; an illegal one raises
    :class:`IllegalActionError` and changes nothing. ``events`` is the full,
    unredacted log; :meth:`view` and :func:`redact` give what one seat may see.
    """

    def __init__(self, rules: Rules | None = None, seed: int = 0, setup: Setup | None = None) -> None:
        self.rules = rules or Rules()
        self.seed = seed
        self.setup = setup
        self._log: list[Event] = []
        if setup is None:
            self._state = GameState(self.rules, seed, self._log)
        else:
            masks = [mask_of(cards) for cards in setup.hands]
            self._state = GameState.from_deal(self.rules, masks, setup.dealer, seed, setup.scores, self._log)
        self._actions: list[Action] = []
        self._bids: list[Passed | BidMade] = []
        self._tricks: list[TrickWon] = []
        self._last_result: HandResult | None = None
        self._noted = 0
        """How many events of the log the three above have taken in (see :meth:`_note`)."""
        self._legal: tuple[int, tuple[int, ...]] = (-1, ())
        """The legal codes, with the number of actions they were found after."""

    @classmethod
    def replay(
        cls,
        rules: Rules,
        seed: int,
        actions: list[Action] | tuple[Action, ...],
        setup: Setup | None = None,
    ) -> Game:
        """Play ``actions`` again from the start; raises if one of them is illegal."""
        game = cls(rules, seed, setup)
        for action in actions:
            game.apply(action)
        return game

    @property
    def phase(self) -> Phase:
        return self._state.phase

    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is; None once the game is over."""
        return None if self._state.phase is Phase.GAME_OVER else self._state.to_act

    @property
    def outcome(self) -> Outcome | None:
        return self._state.outcome

    @property
    def is_over(self) -> bool:
        return self._state.phase is Phase.GAME_OVER

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._state.scores)

    @property
    def hand_number(self) -> int:
        return self._state.hand_number

    @property
    def events(self) -> tuple[Event, ...]:
        """Every event so far, unredacted (it holds every seat's cards)."""
        return tuple(self._log)

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action applied so far; with the rules and seed, the whole game."""
        return tuple(self._actions)

    def legal_actions(self) -> tuple[Action, ...]:
        """What the seat to act may do, ascending by code; empty once the game is over."""
        return tuple(ACTIONS[code] for code in self.legal_codes())

    def legal_codes(self) -> tuple[int, ...]:
        """The codes of :meth:`legal_actions`, without building the actions (found once a turn)."""
        done, codes = self._legal
        if done != len(self._actions):
            codes = self._state.legal_actions()
            self._legal = (len(self._actions), codes)
        return codes

    def is_legal(self, action: Action) -> bool:
        return action.code in self.legal_codes()

    def apply(self, action: Action, seat: int | None = None) -> list[Event]:
        """Apply ``action`` for the seat to act (checked to be ``seat`` when given).

        Returns the events it produced. Raises :class:`NotYourTurnError` or
        :class:`IllegalActionError` (naming the phase and the action) and changes
        nothing when the action may not be taken now.
        """
        start = len(self._log)
        self.carry_out(action, seat)
        return self._log[start:]

    def carry_out(self, action: Action, seat: int | None = None) -> None:
        """:meth:`apply`, without making the list of its events (a server reads them with
        :meth:`events_since`, with those of the actions it chose)."""
        state = self._state
        if state.phase is Phase.GAME_OVER:
            raise NotYourTurnError(f"the game is over; {action} is not taken")
        if seat is not None and seat != state.to_act:
            raise NotYourTurnError(f"seat {seat} cannot {action}: it is seat {state.to_act}'s turn")
        code = action.code
        if code not in self.legal_codes():
            raise IllegalActionError(
                f"{action} is not legal for seat {state.to_act} in phase {state.phase.value}; "
                f"legal: {', '.join(str(a) for a in self.legal_actions())}"
            )
        state.apply_action(code)
        self._actions.append(action)

    def events_since(self, index: int) -> list[Event]:
        """The events from ``index`` on (cheaper than slicing :attr:`events`)."""
        return self._log[index:]

    def event_at(self, index: int) -> Event:
        """The event numbered ``index`` (0: the first; below :attr:`event_count`): a server reads
        each new one this way, with no list made of them."""
        return self._log[index]

    @property
    def event_count(self) -> int:
        return len(self._log)

    def _note(self) -> None:
        """Take the events since the last view into the current hand's bids and tricks and the
        last result. Done when a view is asked for, not on every action: a server table that
        asks only remote players builds its views from the events itself."""
        log = self._log
        start, self._noted = self._noted, len(log)
        for event in log[start:]:
            if type(event) is CardPlayed:  # most events, and nothing to keep
                continue
            if isinstance(event, (Passed, BidMade)):  # a tuple: Passed | BidMade would make a union each time
                self._bids.append(event)
            elif isinstance(event, TrickWon):
                self._tricks.append(event)
            elif isinstance(event, HandDealt):
                self._bids = []
                self._tricks = []
            elif isinstance(event, HandScored):
                self._last_result = event.result
            elif isinstance(event, HandThrownIn):  # the previous hand has no result
                self._last_result = None

    def view(self, seat: int | None, time_left: float | None = None) -> View:
        """What ``seat`` may know now; ``None`` for a spectator. The only view ever sent to anyone.
        ``time_left``: the seconds the seat has for its decision, when it is to act on a clock."""
        state = self._state
        if seat is not None and not 0 <= seat < state.players:
            raise ValueError(f"no seat {seat} at a table of {state.players}")
        self._note()
        bids = tuple(self._bids)
        tricks = tuple(self._tricks)
        bidding_over = state.phase is not Phase.BIDDING and bool(bids)
        over = state.phase is Phase.GAME_OVER
        to_act = None if over else state.to_act
        leader = state.leader if state.trick else 0
        trick = tuple(Draw((leader + i) % state.players, CARD_AT[c]) for i, c in enumerate(state.trick))
        return View(
            seat=seat,
            rules=self.rules,
            phase=state.phase,
            hand_number=state.hand_number,
            dealer=state.dealer,
            to_act=to_act,
            hand=cards_of(state.hands[seat]) if seat is not None else (),
            hand_sizes=tuple(map(int.bit_count, state.hands)),
            bids=bids,
            pitcher=state.pitcher if bidding_over else None,
            bid=state.high_bid if bidding_over else None,
            trump=SUITS[state.trump] if state.trump is not None else None,
            trick=trick,
            tricks=tricks,
            scores=tuple(state.scores),
            last_result=self._last_result,
            legal=self.legal_actions() if seat is not None and seat == to_act else (),
            outcome=state.outcome,
            time_left=time_left,
            winning=state.winner if state.trick else None,
        )
