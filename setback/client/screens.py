"""The client's three screens: finding a server, the lobby, and the table.

Each screen draws the :class:`~setback.client.state.ClientState` in :meth:`show` and turns
keys and clicks into requests through the app's session. No screen keeps game state of
its own beyond what the player has picked but not yet played.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import ClassVar, Literal, cast

from rich.console import Group
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.events import Click
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Input, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from setback.client.dialogs import ConfirmDialog, CreateTableDialog, HelpDialog, InviteDialog, ShowDialog
from setback.client.discover import FoundServer, browse, with_fallback
from setback.client.felt import table_picture
from setback.client.host import ClientHost
from setback.client.panels import (
    centre,
    contract_line,
    last_trick_lines,
    lobby_prompt,
    points_won_lines,
    prompt,
    score_sheet,
    score_sheet_panel,
    scores_table,
    seats_table,
    status_line,
    table_detail,
    table_row,
)
from setback.client.render import card_label, card_text, line_text
from setback.client.state import ClientState, GameView, Link, LogKind
from setback.engine import MAX_BID, MAX_PLAYERS, Card, Variant, is_trump, suit_of
from setback.link.server_link import Address
from setback.protocol.messages import (
    Act,
    AddBot,
    ClientMessage,
    CreateTable,
    Join,
    Leave,
    ListTables,
    Ready,
    SendChat,
    Spectate,
)
from setback.telling.story import SUIT_NAMES

HAND_CHIPS = 6
ACTION_CHIPS = 1 + MAX_BID
"""Pass and every bid of the widest variant's range (only the legal ones show)."""
ROOMY_COLUMNS, ROOMY_ROWS = 120, 40
"""From this size on the seats sit around a picture of the table."""
CENTRE_ROWS = 12
"""The rows a big table screen keeps under its picture for the trick and the hand's summary."""
PICTURE_ROWS = 19
"""The picture of the table is no taller than this."""
SHEET_ROWS = 8
"""The latest hands the score sheet beside a big table shows."""
LOG_STYLES = {
    LogKind.GAME: "",
    LogKind.SUMMARY: "bold",
    LogKind.CHAT: "italic",
    LogKind.INFO: "dim",
    LogKind.ERROR: "bold red1",
}


class Log(RichLog, can_focus=False):
    """The scrolling log; the mouse wheel scrolls it, keys stay with the screen."""


class ChatLine(Input):
    """The line a chat is typed in. While it is open the letters are the chat's, so the key bar
    says what its keys do instead of the screen's."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "submit", "send", key_display="⏎"),
        Binding("escape", "screen.close_chat", "close the chat", key_display="Esc"),
    ]


class ClientScreen(Screen[None]):
    """What every screen of the client shares: the app, the log, the chat line."""

    logged = 0
    log_epoch = 0

    @property
    def client(self) -> ClientHost:
        return cast("ClientHost", self.app)

    @property
    def state(self) -> ClientState:
        return self.client.state

    def show(self, state: ClientState) -> None:
        """Draw ``state``."""

    def on_screen_resume(self) -> None:
        self.show(self.state)

    def show_log(self, state: ClientState) -> None:
        """Append the log lines this screen has not shown yet (all of them, after lines were taken out)."""
        view = self.query_one(Log)
        fresh = min(state.logged - self.logged, len(state.log))
        if state.log_epoch != self.log_epoch:
            self.log_epoch = state.log_epoch
            view.clear()
            fresh = len(state.log)
        self.logged = state.logged
        if fresh <= 0:
            return
        entries = list(state.log)[-fresh:]
        for entry in entries:
            view.write(line_text(entry.line, self.client.ascii, LOG_STYLES[entry.kind]))

    def on_resize(self) -> None:
        """Once laid out at the new size, the log is written anew (each line wraps to its new
        width) and the rest is drawn again."""
        self.call_after_refresh(self._redraw)

    def _redraw(self) -> None:
        self.log_epoch = -1
        if self.is_mounted:
            self.show(self.state)

    def action_chat(self) -> None:
        """The chat line takes the prompt's place while it is open: the key bar stays in view."""
        chat = self.query_one("#chat", Input)
        self.query_one("#prompt", Static).display = False
        chat.display = True
        chat.focus()

    def action_close_chat(self) -> None:
        chat = self.query_one("#chat", Input)
        chat.value = ""
        chat.display = False
        self.query_one("#prompt", Static).display = True
        self.set_focus(None)

    @on(Input.Submitted, "#chat")
    async def send_chat(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        self.action_close_chat()
        if text:
            scope: Literal["table", "lobby"] = "table" if self.state.table is not None else "lobby"
            await self.client.send(SendChat(text=text, scope=scope))

    def action_help(self) -> None:
        self.app.push_screen(HelpDialog(self.state.table_info), self._quit_from_help)

    async def _quit_from_help(self, quit: bool | None) -> None:
        if quit:
            await self.action_quit()

    def action_servers(self) -> None:
        """The server chosen does not answer: back to the list of servers, to choose another."""
        if self.state.link is Link.OFFLINE:
            self.run_worker(self.client.discover_again())

    async def action_quit(self) -> None:
        game = self.state.game
        if self.state.seat is not None and game is not None and game.outcome is None:
            if self.client.options.embedded:
                question = "Quit? The game runs on this computer, so it ends now."
            else:
                question = "Quit? Your seat is kept for a while; then a bot plays it."
            self.app.push_screen(ConfirmDialog(question), self._quit_if)
            return
        await self.client.quit()

    async def _quit_if(self, answer: bool | None) -> None:
        if answer:
            await self.client.quit()


class DiscoverScreen(ClientScreen):
    """Finding servers on the LAN, with this computer as the fallback, or an address typed in.
    The first server offered is highlighted, so Enter joins it; ``r`` looks again."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "rescan", "Look again"), Binding("q", "quit", "Quit"), Binding("escape", "quit", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.servers: list[FoundServer] = []

    def action_rescan(self) -> None:
        self.query_one("#status", Static).update(Text("Setback · looking for servers on your network…", style="bold"))
        self.run_worker(self._browse(), exclusive=True)

    def compose(self) -> ComposeResult:
        yield Static(Text("Setback · looking for servers on your network…", style="bold"), id="status")
        yield OptionList(id="servers")
        yield Static("Or type an address (host or host:port) and press Enter:", classes="hint")
        yield Input(placeholder="host[:port]", id="address", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self.run_worker(self._browse(), exclusive=True)

    async def _browse(self) -> None:
        options = self.client.options
        found = await browse(options.browse_seconds, options.mdns_interfaces)
        servers = with_fallback(found)
        listing = self.query_one("#servers", OptionList)
        listing.clear_options()
        listing.add_options([Option(s.label(), id=str(i), disabled=not s.compatible) for i, s in enumerate(servers)])
        self.servers = servers
        listing.highlighted = next((i for i, s in enumerate(servers) if s.compatible), None)
        heading = f"Setback · {len(found)} server{'s' if len(found) != 1 else ''} found on your network · r: look again"
        self.query_one("#status", Static).update(Text(heading, style="bold"))
        listing.focus()

    @on(OptionList.OptionSelected, "#servers")
    def chosen(self, event: OptionList.OptionSelected) -> None:
        index = int(event.option.id or 0)
        self.client.connect(self.servers[index].address)

    @on(Input.Submitted, "#address")
    def typed(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text:
            return
        try:
            address = Address.parse(text)
        except ValueError:
            self.query_one("#status", Static).update(Text(f"Not an address: {text}", style="bold red1"))
            return
        self.client.connect(address)


class LobbyScreen(ClientScreen):
    """The tables on the server, with their rules and seats; create, join, watch, chat."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new", "New table"),
        Binding("enter,j", "join", "Sit", show=False),
        *(Binding(str(seat + 1), f"join({seat})", show=False) for seat in range(MAX_PLAYERS)),
        Binding("s", "watch", "Watch"),
        Binding("c", "chat", "Chat"),
        Binding("r", "refresh", "Refresh"),
        Binding("d", "servers", "Other servers"),
        Binding("question_mark", "help", "Help"),
        Binding("q", "quit", "Quit"),
        Binding("escape", "close_chat", show=False),
    ]

    offline: bool | None = None
    """Whether the footer's keys were last chosen for a connection given up."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``d`` (back to the servers found) only once the connection is given up."""
        if action == "servers":
            return self.state.link is Link.OFFLINE
        return True

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        table: DataTable[str] = DataTable(id="tables", cursor_type="row", zebra_stripes=True)
        table.add_columns("table", "rules", "clock", "seats", "status")
        yield table
        yield Static(id="detail")
        yield Log(id="log", wrap=True, min_width=20, max_lines=500)
        yield Static(id="prompt")
        yield ChatLine(placeholder="say something to the lobby; Enter sends, Esc closes", id="chat", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#tables", DataTable).focus()
        self.set_interval(0.5, self._tick)

    def _tick(self) -> None:
        """Count down to the next try to reconnect."""
        if self.is_current and self.state.link is Link.RECONNECTING:
            self.query_one("#prompt", Static).update(lobby_prompt(self.state, time.monotonic()))

    def show(self, state: ClientState) -> None:
        self.query_one("#status", Static).update(status_line(state))
        tables: DataTable[str] = self.query_one("#tables", DataTable)
        current = self._current()
        tables.clear()
        for info in state.tables.values():
            tables.add_row(*table_row(info), key=info.table)
        ids = list(state.tables)
        if current in ids:
            tables.move_cursor(row=ids.index(current))
        self._show_detail()
        self.query_one("#prompt", Static).update(lobby_prompt(state, time.monotonic()))
        self.show_log(state)
        offline = state.link is Link.OFFLINE
        if offline != self.offline:
            self.offline = offline
            self.refresh_bindings()

    def _current(self) -> str | None:
        tables: DataTable[str] = self.query_one("#tables", DataTable)
        if not tables.row_count:
            return None
        key = tables.coordinate_to_cell_key(tables.cursor_coordinate).row_key
        return key.value

    @on(DataTable.RowHighlighted)
    def highlighted(self) -> None:
        self._show_detail()

    def _show_detail(self) -> None:
        state = self.state
        detail = table_detail(state.tables.get(self._current() or ""), online=state.link is Link.ONLINE)
        self.query_one("#detail", Static).update(detail)

    @on(DataTable.RowSelected)
    async def selected(self) -> None:
        await self.action_join()

    async def action_join(self, seat: int | None = None) -> None:
        """Sit at the table under the cursor: in ``seat``, or the lowest free one."""
        table = self._current()
        if table is not None:
            self._with_invite(table, lambda code: Join(table=table, seat=seat, ready=True, invite=code))

    async def action_watch(self) -> None:
        table = self._current()
        if table is not None:
            self._with_invite(table, lambda code: Spectate(table=table, invite=code))

    def _with_invite(self, table: str, request: Callable[[str | None], ClientMessage]) -> None:
        """Send ``request``; for a private table, once its invite code is asked for."""
        info = self.state.tables.get(table)
        if info is None or not info.private:
            self.run_worker(self.client.send(request(None)))
            return

        async def answered(code: str | None) -> None:
            if code is not None:
                await self.client.send(request(code))

        self.app.push_screen(InviteDialog(table), answered)

    async def action_refresh(self) -> None:
        """Ask for the tables again; after the connection was given up, try to connect again."""
        if self.state.link is Link.OFFLINE:
            await self.client.retry()
            return
        await self.client.send(ListTables())

    def action_new(self) -> None:
        options = self.client.options
        dialog = CreateTableDialog(options.rules, options.clock, self.state.preferred_bot(), self.state.bots)
        self.app.push_screen(dialog, self._create)

    async def _create(self, message: CreateTable | None) -> None:
        if message is not None:
            await self.client.send(message)


class Chip(Static):
    """A card in the hand or a choice (a bid, play again) that a click picks."""

    class Picked(Message):
        def __init__(self, chip: Chip) -> None:
            super().__init__()
            self.chip = chip

    def __init__(self, classes: str) -> None:
        super().__init__("", classes=classes)
        self.choice: str | None = None
        self.card: Card | None = None

    def on_click(self, event: Click) -> None:
        event.stop()
        self.post_message(self.Picked(self))


class TableScreen(ClientScreen):
    """A table: the seats and the trick, the contract, the scores, the log, your hand and choices."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "choose", key_display="←→"),
        Binding("right", "move(1)", show=False),
        Binding("enter,space", "confirm('play')", "play", key_display="⏎"),
        Binding("enter,space", "confirm('bid')", "bid", key_display="⏎"),
        Binding("enter,space", "confirm('')", show=False),  # no decision: the prompt says whose turn it is
        *(Binding(str(n), f"number({n})", show=False) for n in range(10)),
        Binding("p", "number(0)", show=False),
        Binding("t", "last_trick", "last trick"),
        Binding("s", "score_sheet", "scores"),
        Binding("c", "chat", "chat"),
        Binding("r", "ready", "ready"),
        Binding("b", "add_bot", "bot", show=False),
        Binding("l", "leave", "leave"),
        Binding("d", "servers", "other servers"),
        Binding("question_mark", "help", "keys"),
        Binding("q", "quit", "quit"),
        Binding("escape", "close_chat", show=False),
    ]

    AUTO_FOCUS = ""

    selected: str | None = None
    """The action the keyboard has picked (``play 10H``, ``bid 2``), not yet sent."""
    request: int | None = None
    footer_for: tuple[object, ...] | None = None
    """What the footer's keys were last chosen for (see :meth:`_keys_apply`)."""

    PLAYER_ACTIONS: ClassVar[frozenset[str]] = frozenset({"move", "confirm", "number", "ready", "add_bot"})
    """The keys a spectator has no use for: it holds no cards and no seat to make ready."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only the keys that do something now: none of a player's for a spectator; choosing
        and playing (or bidding) only while this seat is to act; ``r`` only when it counts; the
        last trick once one was played, the score sheet once a hand was scored."""
        if action == "ready":
            return self._ready_counts()
        if action == "servers":
            return self.state.link is Link.OFFLINE
        if action in self.PLAYER_ACTIONS and self.state.spectating:
            return False
        game = self.state.game
        match action:
            case "move":
                return self._deciding() != ""
            case "confirm":
                return parameters == (self._deciding(),)
            case "last_trick":
                return game is not None and game.last_trick is not None
            case "score_sheet":
                return game is not None and bool(game.results)
        return True

    def _deciding(self) -> str:
        """``play`` or ``bid`` while this seat is to act and has not answered yet, else empty."""
        game = self.state.game
        decision = game.decision if game is not None else None
        if self.state.link is not Link.ONLINE or decision is None or decision.sent is not None:
            return ""
        return "bid" if decision.bidding else "play"

    def _keys_apply(self) -> tuple[object, ...]:
        """What decides which keys the footer shows."""
        game = self.state.game
        return (
            self.state.spectating, self.state.link is Link.OFFLINE, self._ready_counts(), self._deciding(),
            game is not None and game.last_trick is not None, game is not None and bool(game.results),
        )

    def _ready_counts(self) -> bool:
        """Whether ``r`` does something now: try again once the connection is given up; for a
        seated player, ready for the next game, or take the seat back from its stand-in."""
        state = self.state
        if state.link is Link.OFFLINE:
            return True
        game = state.game
        return state.seat is not None and (game is None or game.outcome is not None or game.stood_in)

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield Static(id="contract")
                yield Static(id="seats")
                yield Static(id="centre")
            with Vertical(id="right"):
                yield Static(id="scores")
                yield Static(id="sheet")
                yield Log(id="log", wrap=True, min_width=20, max_lines=500)
        yield Static(id="prompt")
        yield ChatLine(placeholder="say something to the table; Enter sends, Esc closes", id="chat", compact=True)
        with Horizontal(id="bottom"):
            with Horizontal(id="hand"):
                for _ in range(HAND_CHIPS):
                    yield Chip(classes="card")
            yield Static("", id="actions_label")
            with Horizontal(id="actions"):
                for _ in range(ACTION_CHIPS):
                    yield Chip(classes="action")
        yield Footer()

    def on_mount(self) -> None:
        self.set_interval(0.5, self._tick)

    def _tick(self) -> None:
        game = self.state.game
        counting = (game is not None and game.to_act is not None) or self.state.link is Link.RECONNECTING
        if self.is_current and counting:
            self._show_clocks(self.state)

    # -- drawing --------------------------------------------------------------------------------

    def show(self, state: ClientState) -> None:
        ascii = self.client.ascii
        game = state.game
        self.query_one("#status", Static).update(status_line(state))
        self.query_one("#centre", Static).update(centre(state, ascii))
        sheet = self.query_one("#sheet", Static)
        sheet.display = self.roomy and game is not None
        if game is None:
            self.query_one("#contract", Static).update("")
            self.query_one("#seats", Static).update("")
            self.query_one("#scores", Static).update("")
        else:
            self.query_one("#contract", Static).update(contract_line(game, state.names(), ascii))
            self.query_one("#scores", Static).update(scores_table(state))
            if sheet.display:
                sheet.update(score_sheet_panel(game, state.names(), ascii, SHEET_ROWS))
        self._sync_selection(game)
        self._show_clocks(state)
        live = state.link is Link.ONLINE  # while (re)connecting, nothing on screen looks pressable
        self._show_hand(game, live)
        self._show_actions(state, game, live)
        self.show_log(state)
        footer_for = self._keys_apply()
        if footer_for != self.footer_for:
            self.footer_for = footer_for
            self.refresh_bindings()

    @property
    def roomy(self) -> bool:
        """A big terminal: the seats sit around the table, the score sheet beside it."""
        return self.size.width >= ROOMY_COLUMNS and self.size.height >= ROOMY_ROWS

    def _show_clocks(self, state: ClientState) -> None:
        now = time.monotonic()
        if state.game is not None:
            seats = self.query_one("#seats", Static)
            if self.roomy:
                width = self.query_one("#left", Vertical).content_size.width
                height = min(PICTURE_ROWS, self.query_one("#main", Horizontal).size.height - CENTRE_ROWS)
                seats.update(table_picture(state, now, self.client.ascii, width, height))
            else:
                seats.update(seats_table(state, now, self.client.ascii))
        self.query_one("#prompt", Static).update(prompt(state, now, self.client.ascii))

    def _show_hand(self, game: GameView | None, live: bool) -> None:
        """The hand in the places it was dealt in, each card under its number key; a card played
        leaves its place empty, and trump's cards say so once trump is named."""
        chips = list(self.query("#hand Chip").results(Chip))
        cards = self.hand_order(game)
        decision = game.decision if game is not None else None
        playing = live and decision is not None and decision.sent is None and not decision.bidding
        playable = decision.playable() if decision is not None and playing else frozenset()
        trump = game.trump if game is not None else None
        game_variant = game.rules.game() if game is not None else Variant.STANDARD
        for place, chip in enumerate(chips):
            card = cards[place] if place < len(cards) else None
            chip.display = place < len(cards)
            chip.card, chip.choice = card, None if card is None else f"play {card}"
            chip.set_class(card is None, "-gone")
            if card is None:
                chip.remove_class("-legal", "-illegal", "-selected")
                chip.border_title = chip.border_subtitle = ""
                chip.update("")
                continue
            legal = playing and card in playable
            chip.set_class(legal, "-legal")
            chip.set_class(playing and not legal, "-illegal")
            chip.set_class(legal and self.selected == chip.choice, "-selected")
            chip.border_title = str(place + 1)
            chip.border_subtitle = "T" if trump is not None and is_trump(card, trump, game_variant) else ""
            label = card_text(card, self.client.ascii, trump, game_variant)
            if playing and not legal:
                label.stylize("dim")
            chip.update(label)

    def _show_actions(self, state: ClientState, game: GameView | None, live: bool) -> None:
        chips = list(self.query("#actions Chip").results(Chip))
        choices: list[tuple[str, str, str]] = []
        heading = ""
        decision = game.decision if game is not None else None
        if decision is not None and decision.sent is None and decision.bidding:
            heading = "Bid:"
            for action in decision.legal:
                amount = action.partition(" ")[2]
                choices.append((action, "Pass" if action == "pass" else amount, "0" if action == "pass" else amount))
        elif game is not None and game.outcome is not None and state.seat is not None:
            choices.append(("ready", "Play again", "r"))
        self.query_one("#actions_label", Static).update(Text(heading, style="bold"))
        for place, chip in enumerate(chips):
            if place >= len(choices):
                chip.display = False
                chip.choice = None
                continue
            action, label, key = choices[place]
            chip.display = True
            chip.choice = action
            chip.border_title = key
            chip.set_class(live, "-legal")
            chip.set_class(not live, "-illegal")
            chip.set_class(live and self.selected == action, "-selected")
            chip.update(Text(label, style="" if live else "dim"))

    # -- choosing -------------------------------------------------------------------------------

    def hand_order(self, game: GameView | None) -> list[Card | None]:
        """The hand as shown, left to right: the number keys count from 1 here (None: a place
        whose card was played)."""
        return game.places() if game is not None else []

    def choices(self) -> list[str]:
        """The legal actions in the order shown, while this seat is to act."""
        game = self.state.game
        decision = game.decision if game is not None else None
        if game is None or decision is None or decision.sent is not None:
            return []
        if decision.bidding:
            return list(decision.legal)
        playable = decision.playable()
        return [f"play {card}" for card in self.hand_order(game) if card is not None and card in playable]

    def _sync_selection(self, game: GameView | None) -> None:
        """A new decision starts with its first legal choice picked (None stays None after a refusal)."""
        decision = game.decision if game is not None else None
        if decision is None:
            self.selected, self.request = None, None
            return
        if decision.request != self.request:
            self.request = decision.request
            choices = self.choices()
            self.selected = choices[0] if choices else None
        elif self.selected not in decision.legal:
            self.selected = None

    def _pick(self, action: str) -> None:
        self.selected = action
        self.state.tell(None)
        self.show(self.state)

    def action_move(self, step: int) -> None:
        choices = self.choices()
        if not choices:
            return
        place = choices.index(self.selected) if self.selected in choices else -step
        self._pick(choices[(place + step) % len(choices)])

    def action_number(self, number: int) -> None:
        game = self.state.game
        decision = game.decision if game is not None else None
        if game is None or decision is None or decision.sent is not None:
            self._not_your_turn()
            return
        if decision.bidding:
            action = "pass" if number == 0 else f"bid {number}"
            if action in decision.legal:
                self._pick(action)
            else:
                allowed = ", ".join(decision.legal)
                self._refuse(f"You cannot {'pass' if number == 0 else f'bid {number}'} now; you may: {allowed}.")
            return
        cards = self.hand_order(game)
        if 1 <= number <= len(cards):
            card = cards[number - 1]
            if card is None:
                self._refuse(f"The card in place {number} has been played.")
            elif card in decision.playable():
                self._pick(f"play {card}")
            else:
                self._refuse(self.why_not(game, card))

    def why_not(self, game: GameView, card: Card) -> str:
        """Why ``card`` cannot be played now, by the following rule (RULES.md, "Each hand", 4)."""
        ascii = self.client.ascii
        label = card_label(card, ascii)
        if game.trick and game.trump is not None:
            led = suit_of(game.trick[0].card, game.trump, game.rules.game())
            if led == game.trump:
                return f"{label} cannot be played: trump was led, and you hold trump."
            symbol = card_label(game.trick[0].card, ascii)[-1]
            return (
                f"{label} cannot be played: {SUIT_NAMES[led]} ({symbol}) were led; "
                f"play {SUIT_NAMES[led]} or trump."
            )
        return f"{label} cannot be played now."

    def _not_your_turn(self) -> None:
        game = self.state.game
        if game is not None and game.to_act is not None and game.to_act != game.seat:
            self._refuse(f"Not your turn: waiting for {self.state.names()[game.to_act]}.")

    def _refuse(self, text: str) -> None:
        """Say why a key did nothing; the last legal choice stays chosen, so Enter still makes it."""
        self.state.tell(text)
        self.show(self.state)

    async def action_confirm(self, kind: str = "") -> None:
        """Send the move chosen (``kind``: which the key bar showed, ``play`` or ``bid``)."""
        game = self.state.game
        decision = game.decision if game is not None else None
        if decision is None or decision.sent is not None:
            self._not_your_turn()
            return
        if self.selected in decision.legal:
            await self.client.send(Act(request=decision.request, action=self.selected))
        else:
            what = "a bid" if decision.bidding else "a card"
            self._refuse(f"Choose {what} first: ←/→ or its number.")

    @on(Chip.Picked)
    async def picked(self, event: Chip.Picked) -> None:
        chip = event.chip
        if chip.choice == "ready":
            await self.action_ready()
            return
        game = self.state.game
        decision = game.decision if game is not None else None
        if chip.choice is None or game is None:
            return
        if decision is None or decision.sent is not None:
            self._not_your_turn()
            return
        if chip.choice in decision.legal:
            self.selected = chip.choice
            await self.client.send(Act(request=decision.request, action=chip.choice))
        elif chip.card is not None:
            self._refuse(self.why_not(game, chip.card))

    # -- looking again ---------------------------------------------------------------------------

    def action_last_trick(self) -> None:
        game = self.state.game
        if game is not None:
            body = last_trick_lines(game, self.state.names(), self.client.ascii)
            self.app.push_screen(ShowDialog("The last trick", body, "t"))

    def action_score_sheet(self) -> None:
        game = self.state.game
        if game is not None:
            names = self.state.names()
            sheet = Group(score_sheet(game, names, self.client.ascii), Text(""), points_won_lines(game, names))
            self.app.push_screen(ShowDialog(f"Score sheet · to {game.rules.points_to_win()}", sheet, "s"))

    # -- the table --------------------------------------------------------------------------------

    async def action_ready(self) -> None:
        """Ready for the next game; after the connection was given up, try to connect again."""
        if self.state.link is Link.OFFLINE:
            await self.client.retry()
        elif self._ready_counts():
            await self.client.send(Ready())

    async def action_add_bot(self) -> None:
        """Before a game, a bot in a free seat; during one, a bot for a player who is away."""
        state = self.state
        game = state.game
        if state.seat is None:
            return
        if game is None or game.outcome is not None:
            await self.client.send(AddBot(bot=state.preferred_bot()))
        elif (away := state.away_seat()) is not None:
            await self.client.send(AddBot(bot=state.preferred_bot(), seat=away))

    async def action_leave(self) -> None:
        game = self.state.game
        if self.state.seat is not None and game is not None and game.outcome is None:
            question = "Leave the table? A bot plays your seat for the rest of this game."
            self.app.push_screen(ConfirmDialog(question), self._leave_if)
            return
        await self.client.send(Leave())

    async def _leave_if(self, answer: bool | None) -> None:
        if answer:
            await self.client.send(Leave())
