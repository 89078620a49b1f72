"""``setback play``: the full-screen text client (Textual).

:class:`SetbackApp` owns the :class:`~setback.client.state.ClientState` and the network
:class:`~setback.client.session.Session`; after every change the session reports, it
shows the lobby or the table screen and lets it draw the state.
"""

from __future__ import annotations

import structlog
from textual import events
from textual.app import App

from setback.client.dialogs import InviteDialog
from setback.client.options import PlayOptions
from setback.client.screens import ClientScreen, DiscoverScreen, LobbyScreen, TableScreen
from setback.client.session import Session
from setback.client.state import ClientState, Link
from setback.link.seat_tokens import SeatTokens
from setback.link.server_link import Address, ServerLink
from setback.protocol.messages import ClientMessage

log = structlog.get_logger("setback.client")

MIN_COLUMNS, MIN_ROWS = 80, 24
"""The smallest terminal that shows a whole table: under it the client says so."""
TOO_SMALL_NOTICE_SECONDS = 24 * 3600.0
"""The "too small" notice stays until the terminal is big enough (Textual's notices need a time)."""

CSS = """
Screen { layout: vertical; }
#status { height: 1; padding: 0 1; background: $boost; }
#main { height: 1fr; }
#left { width: 1fr; padding: 0 1; }
#contract { height: auto; max-height: 3; }
#seats { height: auto; margin-top: 1; }
#centre { height: 1fr; margin-top: 1; }
#right { width: 40%; min-width: 34; max-width: 64; border-left: solid $panel-lighten-2; padding: 0 0 0 1; }
#scores { height: auto; max-height: 9; }
#sheet { height: auto; max-height: 12; margin-top: 1; display: none; }
#log { height: 1fr; border-top: solid $panel-lighten-2; scrollbar-size-vertical: 1; }
#prompt { height: auto; max-height: 2; padding: 0 1; }
#chat { height: 1; margin: 0 1; display: none; }
#bottom { height: 3; padding: 0 1; }
#hand { width: auto; height: 3; }
#actions_label { width: auto; height: 3; padding: 1 1 0 1; }
#actions { width: auto; height: 3; }
Chip { height: 3; border: round $panel-lighten-2; border-title-color: $text-muted; }
Chip.card { width: 7; content-align: center middle; }
Chip.action { width: auto; min-width: 5; padding: 0 1; }
Chip.-legal { border: round $success; border-title-color: $text; }
Chip.-illegal { border: blank; }
Chip.-gone { border: blank; }
Chip.-selected { border: double $warning; background: $warning 25%; text-style: bold; }
LobbyScreen #tables { height: 1fr; }
LobbyScreen #detail { height: auto; max-height: 4; padding: 0 1; }
LobbyScreen #log { height: 7; border-top: solid $panel-lighten-2; }
DiscoverScreen #servers { height: 1fr; }
DiscoverScreen .hint { padding: 0 1; }
DiscoverScreen #address { margin: 0 1; }
HelpDialog, ConfirmDialog, CreateTableDialog, InviteDialog, ShowDialog { align: center middle; }
#show { width: auto; max-width: 100%; height: auto; max-height: 100%; padding: 1 2; }
#show { border: round $accent; background: $surface; }
#show .title { text-style: bold; margin-bottom: 1; }

#show .hint { margin-top: 1; color: $text-muted; }
#help { width: auto; max-width: 100%; height: auto; padding: 1 2; border: round $accent; background: $surface; }
#confirm { width: 60; height: auto; padding: 1 2; border: round $warning; background: $surface; }
#confirm .hint { margin-top: 1; color: $text-muted; }
#create { width: 64; height: auto; padding: 0 2; border: round $accent; background: $surface; }
#invite { width: 60; height: auto; padding: 1 2; border: round $accent; background: $surface; }
#create .title { text-style: bold; margin-bottom: 1; }
#fields { grid-size: 4; grid-columns: 9 1fr 8 1fr; grid-rows: 1; grid-gutter: 1 1; height: auto; margin-bottom: 1; }
#create Checkbox { height: 1; }
#problem { height: auto; }
#buttons { height: 1; margin-top: 1; }
#buttons Button { margin-right: 2; }
"""


class SetbackApp(App[None]):
    """The text client; see the module docstring."""

    TITLE = "Setback"
    CSS = CSS
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, options: PlayOptions) -> None:
        super().__init__()
        self.options = options
        self.ascii = options.ascii
        self.state = ClientState(name=options.name, plan=options.plan)
        self.session: Session | None = None
        self._drawing = False
        self.asking_password = False
        self._too_small = False

    def on_resize(self, event: events.Resize) -> None:
        """While the terminal is too small, say what size shows the whole table (its size now,
        kept up to date); the notice goes once the terminal is big enough."""
        too_small = event.size.width < MIN_COLUMNS or event.size.height < MIN_ROWS
        if too_small or self._too_small:
            self.clear_notifications()
        if too_small:
            self.notify(
                f"This terminal is {event.size.width}x{event.size.height}; Setback needs "
                f"{MIN_COLUMNS}x{MIN_ROWS} to show the whole table. Make it larger.",
                title="Terminal too small", severity="warning", timeout=TOO_SMALL_NOTICE_SECONDS,
            )
        self._too_small = too_small

    def on_mount(self) -> None:
        for name, screen in (("discover", DiscoverScreen()), ("lobby", LobbyScreen()), ("table", TableScreen())):
            self.install_screen(screen, name)
            self.add_mode(name, name)
        if self.options.address is None:
            self.switch_mode("discover")
        else:
            self.connect(self.options.address)

    def connect(self, address: Address, link: ServerLink | None = None) -> None:
        """Connect to the server at ``address`` and show the lobby (or the table, once seated)."""
        if self.session is not None:
            return
        tokens = SeatTokens(self.options.seat_tokens) if self.options.seat_tokens is not None else None
        if link is None:
            link = ServerLink(address, self.options.name, password=self.options.password, tls=self.options.tls)
            if tokens is not None:  # a seat held from a run of the client before this one
                link.token = tokens.token(str(address), self.options.name)
        self.session = Session(link, self.state, self.changed, self.options.reconnect_attempts, tokens)
        self.run_worker(self._run_session(self.session), name="session")
        self.switch_mode("lobby")

    async def retry(self, password: str | None = None) -> None:
        """After the connection was given up: try the same server again (with the seat token;
        with ``password``, the one the player typed in)."""
        session = self.session
        if session is None or self.state.link is not Link.OFFLINE:
            return
        await session.close()
        self.session = None
        self.state.tell(None)
        self.state.needs_password = False
        if password is not None:
            session.link.password = password
        self.connect(session.link.address, session.link)

    async def discover_again(self) -> None:
        """Give up the server that does not answer and show the servers on the LAN again, to
        choose another (or type an address)."""
        session, self.session = self.session, None
        if session is not None:
            await session.close()
        self.state = type(self.state)(name=self.options.name)
        self.switch_mode("discover")
        screen = self.get_screen("discover")
        if isinstance(screen, DiscoverScreen):
            screen.action_rescan()

    def ask_password(self) -> None:
        """The server refused the hello for its password: ask for it, then try again."""
        if self.asking_password:
            return
        self.asking_password = True

        async def answered(password: str | None) -> None:
            self.asking_password = False
            if password is not None:
                await self.retry(password)

        self.push_screen(InviteDialog(self.state.server or self.state.address or "the server", password=True), answered)

    async def _run_session(self, session: Session) -> None:
        try:
            await session.run()
        except Exception as exc:
            log.exception("session_failed")
            self.state.connection(Link.OFFLINE, f"the client failed: {exc!r}")
            self.changed()

    async def send(self, message: ClientMessage) -> None:
        if self.session is None:
            return
        await self.session.send(message)

    def changed(self) -> None:
        """The state changed: draw it once, after the messages already queued."""
        if not self._drawing:
            self._drawing = True
            self.call_later(self._draw)

    def _draw(self) -> None:
        self._drawing = False
        if not self.is_running:  # shutting down: the screens are being taken apart
            return
        if self.current_mode not in {"discover", "lobby", "table"}:
            return
        if self.current_mode in {"lobby", "table"}:
            wanted = "table" if self.state.table is not None else "lobby"
            if wanted != self.current_mode:
                self.switch_mode(wanted)
                return
        screen = self.get_screen(self.current_mode)
        if isinstance(screen, ClientScreen) and screen.is_mounted:
            screen.show(self.state)
        if self.state.needs_password and self.state.link is Link.OFFLINE:
            self.ask_password()

    async def quit(self) -> None:
        if self.session is not None:
            await self.session.close()
        self.exit()

    async def on_unmount(self) -> None:
        if self.session is not None:
            await self.session.close()
