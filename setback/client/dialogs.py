"""The client's pop-up screens: a new table's options, yes-or-no questions, and the keys."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.console import RenderableType
from rich.measure import Measurement
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.events import Key
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from setback.engine import MAX_PLAYERS, MIN_BIDS, MIN_PLAYERS, TARGETS, VARIANTS, LowRule, Rules, Variant
from setback.protocol.convert import rules_from_wire, rules_to_wire
from setback.protocol.messages import Clock, CreateTable, TableInfo, WireRules
from setback.telling.story import VARIANT_NAMES, clock_text, rules_text, variant_text

CLOCKS: tuple[tuple[str, float | None], ...] = (
    ("no clock", None), ("15 s", 15.0), ("30 s", 30.0), ("60 s", 60.0), ("2 min", 120.0), ("5 min", 300.0),
)

TABLE_KEYS = """\
At the table
  ← →             choose a card or a bid (only legal ones)
  1-6             the card in that place: each keeps its number all hand
                  (joker, ten-point, pedro: from when trump is named)
  0 or p, 1-9     choose pass, or that bid (a bid of 10: ← →)
  Enter / Space   play the card or make the bid chosen
  mouse click     play a card or make a bid at once
  t               the last trick again     s  the score sheet
  c               chat with the table      Esc  close the chat
  r               ready for the next game (play again)
  b               seat a bot in a free seat, or for a player who is away
  l               leave the table          q  quit
"""
LOBBY_KEYS = """\
In the lobby
  ↑ ↓  Enter      choose a table and sit down in its lowest free seat
  1-7             sit down in that seat (partners share a letter)
  s               watch the table          n  create a table
  c               chat with the lobby      r  refresh
  ?               these keys               q  quit
"""
CLOSE = "Press Esc or ? to close; q quits."
KEYS = LOBBY_KEYS + CLOSE
HOUSE_RULES = """\
High and Low go to whoever was dealt them, Jack to whoever takes it,
Game (10=10 A=4 K=3 Q=2 J=1) to the most pips; a tie: the pitcher's
side if in it, else nobody. Short of the bid, the pitcher is set back.
"""
LOW_CAPTURED_RULES = """\
High goes to whoever was dealt it, Low and Jack to whoever takes them,
Game (10=10 A=4 K=3 Q=2 J=1) to the most pips; a tie: the pitcher's
side if in it, else nobody. Short of the bid, the pitcher is set back.
"""
STEAL_RULE = "The dealer may take the bid at the highest bid so far.\n"
LOW_CHOICES: tuple[tuple[str, LowRule], ...] = (("dealt", LowRule.DEALT), ("captured", LowRule.CAPTURED))
"""The Low field's choices: to the side dealt the lowest trump, or to the side that captures it."""


def house_rules(rules: WireRules) -> str:
    """How the points go at a table of ``rules``, and the dealer's steal where it is played."""
    text = LOW_CAPTURED_RULES if rules.low == "captured" else HOUSE_RULES
    if rules.game() is not Variant.STANDARD:  # its card points go as the Jack does
        text += f"{variant_text(rules)}:\neach card point to whoever takes that card.\n"
    return text + (STEAL_RULE if rules.dealer_steal is True else "")


class Tick(Checkbox):
    """A checkbox whose mark shows without colour: ``X`` when on, blank when off."""

    BUTTON_INNER = " "

    def on_mount(self) -> None:
        self._mark()

    def watch_value(self) -> None:
        super().watch_value()
        self._mark()

    def _mark(self) -> None:
        self.BUTTON_INNER = "X" if self.value else " "
        self.refresh()


class HelpDialog(ModalScreen[bool]):
    """The keys, one screen; at a table, its rules first (the top bar may have no room for them).
    Answers True when ``q`` was pressed: the screen beneath quits, as ``q`` does there."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,enter", "close", "Close"), Binding("q", "quit", "Quit"),
    ]

    def __init__(self, table: TableInfo | None = None) -> None:
        super().__init__()
        self.table = table
        """The table this client is at; None in the lobby."""

    def compose(self) -> ComposeResult:
        text = Text()
        table = self.table
        if table is None:
            text.append(KEYS)
        else:  # the house rules a player may not know, then the table's keys (the lobby's do not fit)
            text.append(f"Table {table.name}\n", style="bold")
            text.append(f"  {rules_text(table.rules)}\n  {clock_text(table.clock)}\n")
            text.append(house_rules(table.rules))
            text.append(TABLE_KEYS + CLOSE)
        yield Static(text, id="help")

    def action_close(self) -> None:
        self.dismiss(False)

    def action_quit(self) -> None:
        self.dismiss(True)


class ShowDialog(ModalScreen[None]):
    """Something to look at (the score sheet, the last trick): any of its keys, or Esc, closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,enter,q", "close", "Close")]

    def __init__(self, title: str, body: RenderableType, keys: str) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.keys = keys
        """The key that opened it: it closes it too."""

    def compose(self) -> ComposeResult:
        with Vertical(id="show"):
            yield Label(self.title_text, classes="title")
            yield Static(self.body)
            yield Static(f"Esc or {self.keys}: back to the table", classes="hint")

    def on_mount(self) -> None:
        """As wide as what it shows (a score sheet's columns), up to the screen's width."""
        console = self.app.console
        wanted = Measurement.get(console, console.options, self.body).maximum
        hint = len(f"Esc or {self.keys}: back to the table")
        frame = 6  # the border and the padding, both sides
        self.query_one("#show", Vertical).styles.width = min(max(wanted, hint, len(self.title_text)) + frame,
                                                             self.app.size.width)

    def on_key(self, event: Key) -> None:
        if event.key == self.keys:
            event.stop()
            self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)


class ConfirmDialog(ModalScreen[bool]):
    """A yes-or-no question; y or Enter says yes, n or Esc says no."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "answer(True)", "Yes"), Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm"):
            yield Static(self.question)
            yield Static("y: yes   n: no", classes="hint")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)


def side_choices(players: int) -> list[tuple[str, int]]:
    """The Sides field's choices at a table of ``players``: cutthroat, or teams of two or more
    that divide the players (spec.md section 3)."""
    teams = [t for t in range(2, players // 2 + 1) if players % t == 0]
    return [("cutthroat", 0)] + [(f"{t} teams of {players // t}", t) for t in teams]


def default_sides(variant: Variant, players: int) -> int:
    """The Sides a new table starts from: cutthroat, but pairs (``players // 2`` teams) in a
    variant played in partnerships only (pedro), as the server's default."""
    return players // 2 if VARIANTS[variant].partnerships_only and players % 2 == 0 else 0


def sides_hint(variant: Variant) -> str:
    """What the Sides field means when left alone, for ``variant``."""
    if VARIANTS[variant].partnerships_only:
        return f"Sides: {VARIANT_NAMES[variant.value]} is played in partnerships only (pairs unless you choose)."
    return "Sides: cutthroat unless you choose teams."


TARGET_DEFAULT = 0
"""The Target field's first choice: the variant's own default target."""


def target_choices(variant: Variant) -> list[tuple[str, int]]:
    """The Target field's choices: the variant's default first, then every target."""
    return [(f"the variant's ({VARIANTS[variant].default_target})", TARGET_DEFAULT)] + [(str(t), t) for t in TARGETS]


VARIANT_CHOICES: tuple[tuple[str, Variant], ...] = tuple((VARIANT_NAMES[v.value], v) for v in Variant)
"""The Variant field's choices, the standard game first (the default)."""


def bot_choices(players: int) -> list[tuple[str, int]]:
    """The Bots field's choices at a table of ``players``: none up to a bot in every seat."""
    return [(str(n), n) for n in range(players + 1)]


class CreateTableDialog(ModalScreen[CreateTable | None]):
    """Every table option and a clock; answers the ``create_table`` to send, or None."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, rules: WireRules, clock: float | None, bot: str, levels: Sequence[str] = ()) -> None:
        super().__init__()
        self.rules = rules
        self.clock = clock
        self.levels = list(dict.fromkeys([*levels, bot]))
        """The levels (and built-in bots) the server seats, offered in the Level field."""
        self.bot = bot
        """The level chosen at first."""

    def compose(self) -> ComposeResult:
        rules = self.rules
        club = rules_from_wire(rules)
        players = [(str(n), n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)]
        with Vertical(id="create"):
            yield Label("New table", classes="title")
            with Grid(id="fields"):
                yield Label("Name")
                yield Input(placeholder="e.g. Friday", id="name", compact=True, max_length=40)
                yield Label("Variant")
                variant = rules.game()
                yield Select([(label, i) for i, (label, _) in enumerate(VARIANT_CHOICES)],
                             value=next(i for i, (_, v) in enumerate(VARIANT_CHOICES) if v is variant),
                             allow_blank=False, id="variant", compact=True)
                yield Label("Players")
                yield Select(players, value=rules.players, allow_blank=False, id="players", compact=True)
                yield Label("Sides")
                sides = side_choices(rules.players)
                fits = rules.teams in {t for _, t in sides}
                yield Select(sides, value=rules.teams if fits and rules.teams else 0, allow_blank=False, id="teams",
                             compact=True)
                yield Label("Target")
                chosen = rules.points_to_win()  # the variant's own target stays "the variant's"
                target = TARGET_DEFAULT if chosen == VARIANTS[variant].default_target else chosen
                yield Select(target_choices(variant), value=target, allow_blank=False, id="target", compact=True)
                yield Label("Clock")
                clock_value = next((i for i, (_, s) in enumerate(CLOCKS) if s == self.clock), 0)
                yield Select([(label, i) for i, (label, _) in enumerate(CLOCKS)], value=clock_value,
                             allow_blank=False, id="clock", compact=True)
                yield Label("Bots")
                yield Select(bot_choices(rules.players), value=0, allow_blank=False, id="bots", compact=True)
                yield Label("Level")
                yield Select([(name, name) for name in self.levels], value=self.bot, allow_blank=False, id="level",
                             compact=True)
                yield Label("Min bid")
                yield Select([(str(b), b) for b in MIN_BIDS], value=club.min_bid, allow_blank=False, id="min_bid",
                             compact=True)
                yield Label("Low")
                yield Select([(label, i) for i, (label, _) in enumerate(LOW_CHOICES)],
                             value=next(i for i, (_, low) in enumerate(LOW_CHOICES) if low is club.low),
                             allow_blank=False, id="low", compact=True)
            yield Tick("dealer must bid (forced bid)", rules.forced_dealer_bid, id="forced", compact=True)
            yield Tick("dealer may steal: take the bid at the highest so far", club.dealer_steal, id="steal",
                       compact=True)
            yield Tick("smudge: a made 4 wins, a failed one loses (two sides)", rules.smudge, id="smudge", compact=True)
            yield Tick("no junk: only the pitcher's side scores", rules.no_junk, id="no_junk", compact=True)
            yield Tick("rated: games count towards ratings", False, id="rated", compact=True)
            yield Tick("private: joining needs the invite code", False, id="private", compact=True)
            yield Static(sides_hint(rules.game()), classes="hint", id="sides_hint")
            yield Static("Bots in every seat: you watch them play.", classes="hint", id="watch_hint")
            yield Static("", id="problem")
            with Horizontal(id="buttons"):
                yield Button("Create", variant="primary", id="create_button", compact=True)
                yield Button("Cancel", id="cancel_button", compact=True)

    def on_mount(self) -> None:
        self._show_watch_hint()

    @on(Select.Changed, "#players")
    def players_changed(self) -> None:
        """Offer no more bots than seats and only teams that fit; a choice that no longer fits
        comes down to a bot a seat, or to cutthroat."""
        players = self._value("players")
        bots = self.query_one("#bots", Select)
        chosen = min(self._value("bots"), players)
        bots.set_options(bot_choices(players))
        bots.value = chosen
        sides = self.query_one("#teams", Select)
        teams = self._value("teams")
        options = side_choices(players)
        sides.set_options(options)
        sides.value = teams if teams in {t for _, t in options} else default_sides(self._variant(), players)
        self._show_watch_hint()

    @on(Select.Changed, "#variant")
    def variant_changed(self) -> None:
        """A variant's own target and sides: the Target field offers its default, and Sides
        starts from its pairs (pedro) or cutthroat; the hint says which."""
        variant = self._variant()
        target = self.query_one("#target", Select)
        chosen = self._value("target")
        target.set_options(target_choices(variant))
        target.value = chosen
        self.query_one("#teams", Select).value = default_sides(variant, self._value("players"))
        self.query_one("#sides_hint", Static).update(sides_hint(variant))

    def _variant(self) -> Variant:
        return VARIANT_CHOICES[self._value("variant")][1]

    @on(Select.Changed, "#bots")
    def bots_changed(self) -> None:
        self._show_watch_hint()

    def _show_watch_hint(self) -> None:
        """The hint that the player only watches shows when bots take every seat."""
        self.query_one("#watch_hint", Static).display = self._value("bots") == self._value("players")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "cancel_button":
            self.dismiss(None)
            return
        self.action_create()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_create()

    def _value(self, widget_id: str) -> int:
        value = self.query_one(f"#{widget_id}", Select).value
        assert isinstance(value, int)
        return value

    def action_create(self) -> None:
        teams = self._value("teams")
        try:
            rules = rules_to_wire(Rules(
                players=self._value("players"), teams=teams or None, target=self._value("target") or None,
                variant=self._variant(),
                forced_dealer_bid=self.query_one("#forced", Checkbox).value,
                smudge=self.query_one("#smudge", Checkbox).value, no_junk=self.query_one("#no_junk", Checkbox).value,
                hand_limit=self.rules.hand_limit, min_bid=self._value("min_bid"),
                dealer_steal=self.query_one("#steal", Checkbox).value, low=LOW_CHOICES[self._value("low")][1],
            ))
        except ValueError as exc:
            self.query_one("#problem", Static).update(Text(str(exc), style="bold red1"))
            return
        bots = self._value("bots")
        if bots > rules.players:
            self.query_one("#problem", Static).update(
                Text(f"At most {rules.players} bots at a table of {rules.players}.", style="bold red1")
            )
            return
        name = self.query_one("#name", Input).value.strip() or None
        clock = Clock(decision_seconds=CLOCKS[self._value("clock")][1])
        self.dismiss(CreateTable(
            name=name, rules=rules, clock=clock, bots=[str(self.query_one("#level", Select).value)] * bots,
            rated=self.query_one("#rated", Checkbox).value, private=self.query_one("#private", Checkbox).value,
            spectate=bots == rules.players,  # bots in every seat: watch them from the first deal
        ))

    def action_cancel(self) -> None:
        self.dismiss(None)


class InviteDialog(ModalScreen[str | None]):
    """Asks for a private table's invite code (or, with ``password``, for the server's password)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, table: str, password: bool = False) -> None:
        super().__init__()
        self.table = table
        self.password = password

    def compose(self) -> ComposeResult:
        with Vertical(id="invite"):
            if self.password:
                yield Label(f"{self.table} needs its password (Esc: not now)", classes="title")
                yield Input(placeholder="password", id="code", compact=True, password=True, max_length=200)
            else:
                yield Label(f"Table {self.table} is private: its invite code?", classes="title")
                yield Input(placeholder="invite code", id="code", compact=True, max_length=40)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
