"""The browser table end to end: Chromium (Debian's ``chromium``) driven by Playwright, at a
real server's page, as a guest at a LAN evening would use it.

One browser serves every test (each page has a context of its own: its own storage, as
another phone would). Every page must end with no script error and no breach of the
Content-Security-Policy. Screenshots go to ``$SETBACK_TEST_OUTPUT`` (else a temporary
folder, named in the output) for a person to look at.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import subprocess
import time
import urllib.parse
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from wire import RawClient, running_web_server, web_port

from setback.server.app import Server
from setback.web import Site

playwright_api = pytest.importorskip("playwright.async_api")

pytestmark = pytest.mark.asyncio(loop_scope="session")

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 640}
BIG_SCREEN = {"width": 1920, "height": 1080}
PACE = 0.2
MOVE_MS = 2000
"""How long a move's click waits for its button (one that went away is looked for again)."""
"""The page's pauses after a card, a trick and a hand, as a share of a person's (tests need not wait)."""
CARD = re.compile(r"^(10|[2-9JQKA])[CDHS]$")
HOSTILE_NAME = '<img src=x onerror="document.title=1">'
HOSTILE_TABLE = "<script>alert(1)</script><b>bold</b>"
HOSTILE_CHAT = '<i>hi</i> & <a href="#x">x</a>'


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def browser() -> AsyncIterator[Any]:
    if not _chromium_here():
        if os.environ.get("CI"):
            pytest.fail(f"no Chromium at {CHROMIUM}, and apt-get could not install it")
        pytest.skip("no Chromium, and this user cannot install it: apt-get install chromium")
    async with playwright_api.async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        await launched.close()


def _chromium_here() -> bool:
    """Whether Chromium is here, after installing Debian's where it is missing, as the README's
    test command needs on a fresh machine (as root, where apt-get is; .ci/run installs it first)."""
    if Path(CHROMIUM).exists():
        return True
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        return False
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "chromium"]):
        if subprocess.run(command, env=env, capture_output=True, timeout=900, check=False).returncode != 0:
            return False
    return Path(CHROMIUM).exists()


@pytest.fixture(scope="session")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Where the screenshots (and the figures the tests measure) are written."""
    folder = Path(os.environ.get("SETBACK_TEST_OUTPUT") or tmp_path_factory.mktemp("shots"))
    folder.mkdir(parents=True, exist_ok=True)
    yield folder
    print(f"\nscreenshots of the browser table: {folder}")


def figure(shots: Path, name: str, value: Any) -> None:
    """Note a figure the tests measured in ``figures.json`` beside the screenshots."""
    path = shots / "figures.json"
    known = json.loads(path.read_text()) if path.exists() else {}
    known[name] = value
    path.write_text(json.dumps(known, indent=2) + "\n")


@dataclass
class Guest:
    """One browser page (a phone, a laptop), with what it received and what went wrong in it."""

    page: Any
    frames: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    async def screenshot(self, path: Path) -> None:
        await self.page.screenshot(path=str(path))

    def text_of(self, selector: str) -> Any:
        return self.page.locator(selector).inner_text()


@asynccontextmanager
async def guest(browser: Any, url: str, viewport: dict[str, int] = LAPTOP) -> AsyncIterator[Guest]:
    """A page in a context of its own at ``url``; at the end, no script error and no refused
    file or script (a CSP breach is a console error)."""
    context = await browser.new_context(viewport=viewport)
    visitor = await open_tab(context, url)
    try:
        yield visitor
    finally:
        await context.close()
    assert visitor.errors == []


async def open_tab(context: Any, url: str) -> Guest:
    """A new page (a tab) of ``context`` (a browser, with its storage) at ``url``, keeping
    what it receives and its script errors."""
    page = await context.new_page()
    visitor = Guest(page)

    def on_console(message: Any) -> None:
        if message.type == "error":
            visitor.errors.append(message.text)

    def on_socket(socket: Any) -> None:
        socket.on("framereceived", lambda payload: visitor.frames.append(json.loads(payload)))

    page.on("console", on_console)
    page.on("pageerror", lambda error: visitor.errors.append(str(error)))
    page.on("dialog", lambda dialog: visitor.errors.append(f"a dialog opened: {dialog.message}"))
    page.on("websocket", on_socket)
    await page.goto(url)
    return visitor


def page_url(server: Server) -> str:
    return f"http://127.0.0.1:{web_port(server)}/?pace={PACE}"


def serving() -> Any:
    """A server whose watched tables of bots play fast, with its browser table."""
    return running_web_server(bot_table_pace=0.05, bot_table_pause=0.3)


async def enter(visitor: Guest, name: str) -> None:
    page = visitor.page
    await page.fill("#name", name)
    await page.click("text=Enter the lobby")
    await page.locator("#lobby").wait_for()


async def create(
    visitor: Guest, players: int = 4, bots: int | None = None, typed: dict[str, str] | None = None
) -> None:
    """Make a table from the lobby's dialog (bots in every other seat unless told; ``typed``:
    the dialog's text fields to fill in, by name)."""
    page = visitor.page
    await page.click("#new-table")
    await page.select_option("#create-form select[name=players]", str(players))
    await page.select_option("#create-form select[name=bots]", str(players - 1 if bots is None else bots))
    for field_name, text in (typed or {}).items():
        await page.fill(f"#create-form input[name={field_name}]", text)
    await page.click("text=Create and sit down")
    await page.locator("#table").wait_for()


async def move(visitor: Guest) -> bool:
    """Make this page's move if it is to act (pass or the lowest bid; the first card it may
    play); whether it moved.

    A button seen can be gone by the time it is clicked (the page redraws once its move is
    sent, and the hand's last card brings the summary, not another turn): then it did not
    move, and the caller looks again."""
    page = visitor.page
    for target in (page.locator("#actions button.bid"), page.locator("#hand button.playable")):
        if await target.count():
            try:
                await target.first.click(timeout=MOVE_MS)
            except playwright_api.TimeoutError:
                return False
            return True
    return False


SUMMARY_WATCH = """() => {
    if (window.summariesSeen) return;
    window.summariesSeen = [];
    const look = () => {
        for (const panel of document.querySelectorAll(".panel.summary")) {
            const label = panel.getAttribute("aria-label");
            if (window.summariesSeen.some((s) => s.label === label)) continue;
            const rows = [...panel.querySelectorAll("table.points tr")].map((r) => [r.dataset.point, r.innerText]);
            window.summariesSeen.push({label, text: panel.innerText, rows});
        }
    };
    new MutationObserver(look).observe(document.body, {childList: true, subtree: true});
    look();
}"""
"""Keeps every hand summary the page draws, as it is drawn: a summary closes at the page's
next turn, which on a busy machine can come before a test's next look."""


async def play_to_summary(visitor: Guest, timeout: float = 90.0) -> dict[str, Any]:
    """This page moves whenever it is to act until it has drawn a hand's summary; that first
    summary as drawn: its ``label`` ("Hand N summary"), ``text`` and point ``rows``."""
    page = visitor.page
    await page.evaluate(SUMMARY_WATCH)
    async with asyncio.timeout(timeout):
        while not (seen := await page.evaluate("() => window.summariesSeen")):
            if not await move(visitor):
                await asyncio.sleep(0.1)
    first: dict[str, Any] = seen[0]
    return first


async def play_until(visitors: list[Guest], done: str, timeout: float = 90.0,
                     shots: dict[int, Path] | None = None) -> None:
    """Every page moves whenever it is to act, until each has shown ``done`` (a selector; a
    hand's summary closes by itself at this page's turn, so not all at once); ``shots``: a
    screenshot of page ``i`` as it first shows it."""
    shown: set[int] = set()
    async with asyncio.timeout(timeout):
        while True:
            for i, visitor in enumerate(visitors):
                if i not in shown and await visitor.page.locator(done).count():
                    shown.add(i)
                    if shots and i in shots:
                        await visitor.screenshot(shots[i])
            if len(shown) == len(visitors):
                return
            moved = [await move(v) for v in visitors]
            await asyncio.sleep(0.05 if any(moved) else 0.15)


def cards_in(value: Any) -> Iterator[str]:
    """Every card named anywhere in a message."""
    if isinstance(value, str) and CARD.match(value):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from cards_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from cards_in(item)


def assert_only_seen_cards(frames: list[dict[str, Any]], seat: int | None) -> None:
    """No frame names a card the page's seat (None: a spectator) could not have seen at a
    real table: its own hand, the cards played face up, the draw for the deal. (A scored
    hand's High and Low were played face up in it, seen or not by a page that came later:
    a snapshot's score history names them.)"""
    seen: set[str] = set()
    for frame in frames:
        view: dict[str, Any] | None = frame.get("view")
        if view is not None:
            assert view["seat"] == seat
            if seat is None:
                assert view["hand"] == []
            seen |= set(view["hand"]) | set(cards_in(view["trick"])) | set(cards_in(view["tricks"]))
            seen |= set(cards_in(view.get("last_result"))) | set(cards_in(frame.get("results")))
        event = frame.get("event") or {}
        if event.get("kind") == "hand_dealt":
            assert seat is not None or event["cards"] == []
            seen |= set(event["cards"])
        if event.get("kind") in {"card_played", "trick_won", "cards_drawn", "hand_scored"}:
            seen |= set(cards_in(event))
        unseen = set(cards_in(frame)) - seen
        assert not unseen, (unseen, json.dumps(frame))


async def test_a_guest_plays_a_hand_against_three_bots(browser: Any, shots: Path) -> None:
    """The lobby, a table made with every default and three bots, bids offered as the legal
    choices only, a whole hand played by clicks and keys, the summary, the scores."""
    async with serving() as server, guest(browser, page_url(server)) as ann:
        other = await RawClient.connect(server.port)  # someone waiting in the lobby for a partner
        await other.hello("cy", kind="human")
        await other.send(type="create_table", id=1, name="Friday club", rules={"players": 4, "teams": 2},
                         clock={"decision_seconds": 30})
        await other.expect("table", id=1)
        await other.send(type="join", id=2, table="t1", seat=1, ready=True)
        await other.expect("joined", id=2)
        page = ann.page
        await enter(ann, "ann")
        began = time.perf_counter()
        await page.reload()
        await page.locator(".table-card .sit").first.wait_for()
        figure(shots, "load_to_lobby_ms", round(1000 * (time.perf_counter() - began)))
        figure(shots, "page_bytes", Site(tls=False).size)
        card = page.locator(".table-card", has_text="Friday club")
        assert "30 s a move" in await card.inner_text() and await card.locator(".side-A").count() == 2
        await ann.screenshot(shots / "lobby-1280x800.png")
        await create(ann)
        facts = await ann.text_of("#facts")  # read once: the facts change as the hand begins
        assert "Bidding" in facts or "Trump" in facts, facts
        await page.evaluate(SUMMARY_WATCH)  # the summary closes at this page's next turn, maybe before a look
        summaries = "() => window.summariesSeen.length"
        keyed = shot = False
        async with asyncio.timeout(90):
            while not await page.evaluate(summaries):
                offered = await page.locator("#actions button.bid").evaluate_all(
                    "buttons => buttons.map((b) => b.dataset.action)")  # at one instant: the bar redraws
                if offered:
                    decide = next(f for f in reversed(ann.frames) if f["type"] == "decide")
                    assert offered == [a for a in decide["view"]["legal"] if not a.startswith("play")]
                playable = page.locator("#hand button.playable")
                if await playable.count() and await page.locator("#felt .played").count() >= 2 and not shot:
                    await ann.screenshot(shots / "table-mid-trick-1280x800.png")
                    shot = True
                    assert await page.locator("#felt .played.winning").count() == 1  # the trick's winner so far
                    blocked = page.locator("#hand button.blocked")
                    if await blocked.count():  # a card that cannot follow says why
                        await blocked.first.click(force=True)  # (aria-disabled: Playwright would wait)
                        await page.locator("#notice", has_text="cannot be played").wait_for()
                if not keyed:  # a desktop plays by keys too
                    hand = await page.locator("#hand .card").evaluate_all(
                        "cards => cards.map((c) => [c.dataset.card, c.classList.contains('playable')])")
                    legal = [card for card, ok in hand if ok]
                    if legal:
                        await page.keyboard.press(str([card for card, _ in hand].index(legal[0]) + 1))
                        keyed = True
                        await asyncio.sleep(0.1)
                        continue
                if await page.evaluate(summaries):  # the hand ended while this page looked: no move in the next
                    break
                if not await move(ann):
                    await asyncio.sleep(0.1)
        drawn = (await page.evaluate("() => window.summariesSeen"))[0]
        scored = next(f["event"]["result"] for f in ann.frames if f.get("event", {}).get("kind") == "hand_scored")
        assert drawn["label"] == f"Hand {scored['hand_number']} summary"
        for point in ("High", "Low", "Jack", "Game", "Pips"):
            assert point in drawn["text"]
        assert "made it" in drawn["text"] or "set back" in drawn["text"]
        shown = await page.locator("#scoreline .score-value").all_inner_texts()
        assert [int(value) for value in shown] == scored["scores"]  # (no other hand ends without this page's moves)
        ok = page.locator(".panel.summary button", has_text="OK")
        if await ok.count():
            await ann.screenshot(shots / "hand-summary-1280x800.png")
        try:
            await ok.click(timeout=MOVE_MS)
        except playwright_api.TimeoutError:  # gone by itself: it was this player's turn in the next hand
            assert f"Hand {scored['hand_number'] + 1}" in await ann.text_of("#facts")
        await page.click("#show-scores")
        history = await ann.text_of("#scores-body table.history")
        assert all(f"{score} (" in history for score in scored["scores"])
        await page.keyboard.press("Escape")
        await page.set_viewport_size(BIG_SCREEN)  # a big screen: the felt and the cards grow with it
        await page.locator("#hand .card").first.wait_for()
        grown = await page.evaluate("""() => [document.querySelector('#felt').getBoundingClientRect().height,
            document.querySelector('#hand .card').getBoundingClientRect().width]""")
        assert grown[0] >= 0.6 * BIG_SCREEN["height"] and grown[1] >= 80, grown
        await ann.screenshot(shots / "table-1920x1080.png")
        assert keyed
        assert_only_seen_cards(ann.frames, seat=3)
        await other.close()


async def test_two_guests_play_together_and_a_reload_comes_back(browser: Any, shots: Path) -> None:
    """A laptop makes a table with two bots, a phone sits in the last seat; they chat and play;
    the laptop reloads mid-trick and is back in its seat, its hand and its turn as they were."""
    async with serving() as server, guest(browser, page_url(server)) as ann, \
            guest(browser, page_url(server), PHONE) as bob:
        await enter(ann, "ann")
        await create(ann, players=4, bots=2)
        await enter(bob, "bob")
        await bob.page.locator(".sit").first.click()
        await bob.page.locator("#table").wait_for()
        await ann.page.fill("#table-text", "good luck, bob")
        await ann.page.press("#table-text", "Enter")
        await bob.page.locator("#table-log", has_text="good luck, bob").wait_for()
        async with asyncio.timeout(60):  # to ann's turn in a trick under way
            while not (await ann.page.locator("#hand button.playable").count()
                       and await ann.page.locator("#felt .played").count()):
                moved = await move(bob)
                if not await ann.page.locator("#hand button.playable").count():
                    moved = await move(ann) or moved
                await asyncio.sleep(0.05 if moved else 0.1)
        hand = [await c.get_attribute("data-card") for c in await ann.page.locator("#hand .card").all()]
        trick = await ann.page.locator("#felt .played .card").count()
        await ann.page.reload()
        await ann.page.locator("#hand button.playable").first.wait_for()
        assert [await c.get_attribute("data-card") for c in await ann.page.locator("#hand .card").all()] == hand
        assert await ann.page.locator("#felt .played .card").count() == trick
        assert "ann" in await ann.text_of("#felt .seat.me")
        await bob.screenshot(shots / "table-360x640.png")
        await play_until([ann, bob], ".panel.summary", shots={1: shots / "hand-summary-360x640.png"})
        assert await bob.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert_only_seen_cards(bob.frames, seat=3)


LOOK_AT_BIDDING = """() => {
    const bids = [...document.querySelectorAll('#actions button.bid')];
    const summary = document.querySelector('.panel.summary');
    const ok = summary && summary.querySelector('button');
    const at = ok && ok.getBoundingClientRect();
    const hit = at && document.elementFromPoint(at.left + at.width / 2, at.top + at.height / 2);
    return {bids: bids.map((b) => b.getBoundingClientRect().bottom),
            summary: summary && summary.getAttribute('aria-label'), ok: Boolean(hit && ok.contains(hit))};
}"""
"""At one instant: the bottoms of the bid buttons on screen, the label of the hand's summary on
the felt (null: none) and whether its OK button is in view (not scrolled away under the felt)."""


async def test_a_summary_stays_up_for_the_first_bidder_and_gives_way_to_bids_to_beat(
    browser: Any, shots: Path
) -> None:
    """On a phone, heads-up against a bot: when this player bids first in a hand, the last
    hand's summary is still on the felt, the bids in view under it without scrolling (before,
    it closed at once and the first bidder never read it); its bid leaves it up, and the next
    hand's first card takes it away. When a bid was made before this player's turn, the
    summary gives way so that the bid to beat shows."""
    async with serving() as server, guest(browser, page_url(server), PHONE) as ann:
        page = ann.page
        await enter(ann, "ann")
        await create(ann, players=2, bots=1)
        firsts = seconds = 0
        async with asyncio.timeout(120):
            while not firsts:
                look = await page.evaluate(LOOK_AT_BIDDING)
                if look["bids"]:
                    decide = next(f for f in reversed(ann.frames) if f["type"] == "decide")
                    if decide["view"]["phase"] != "bidding":  # the page drew a frame not kept here yet
                        await asyncio.sleep(0.05)
                        continue
                    scored = [f for f in ann.frames if f.get("event", {}).get("kind") == "hand_scored"]
                    if not decide["view"]["bids"] and scored:  # first to bid after a scored hand
                        hand = scored[-1]["event"]["result"]["hand_number"]
                        assert look["summary"] == f"Hand {hand} summary" and look["ok"], look
                        assert max(look["bids"]) <= PHONE["height"], look  # no scrolling to bid
                        await ann.screenshot(shots / "summary-while-bidding-first-360x640.png")
                        firsts += 1
                    elif decide["view"]["bids"]:
                        assert look["summary"] is None, look  # the bid to beat shows on the felt
                        seconds += 1
                if not firsts and not await move(ann):
                    await asyncio.sleep(0.1)
        assert seconds  # heads-up, this player bid second in a hand before
        await page.locator("#actions button.bid").first.click(timeout=MOVE_MS)
        async with asyncio.timeout(60):
            while not await page.locator("#felt .played").count():  # up until the hand's first card
                if not (await page.locator("#hand button.playable").count()
                        or (await page.evaluate(LOOK_AT_BIDDING))["summary"]):
                    assert await page.locator("#felt .played").count()  # nothing took it away but a card
                if not await move(ann):
                    await asyncio.sleep(0.05)
        await page.locator(".panel.summary").wait_for(state="detached", timeout=MOVE_MS)
        assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert_only_seen_cards(ann.frames, seat=next(f["seat"] for f in ann.frames if f["type"] == "decide"))


async def seated_tab(context: Any, url: str) -> Guest:
    """A tab of ``context`` where ann made a table with a bot and sits at it."""
    tab = await open_tab(context, url)
    await enter(tab, "ann")
    await create(tab, players=2, bots=1)
    await tab.page.locator("#felt .seat.me", has_text="ann").wait_for()
    return tab


async def test_a_tab_closed_by_mistake_opens_again_at_its_seat(browser: Any, shots: Path) -> None:
    """A phone's tab swiped away during a game: the same browser opening the address again sits
    at the seat the tab left, while a tab opened beside a live one is another player."""
    async with serving() as server:
        context = await browser.new_context(viewport=PHONE)
        try:
            first = await seated_tab(context, page_url(server))
            second = await open_tab(context, page_url(server))  # the name is kept: it enters by itself
            await second.page.locator("#lobby").wait_for()
            await second.page.locator(".table-card .watch").first.wait_for()
            assert not [f for f in second.frames if f.get("type") in ("joined", "snapshot")]
            assert not [f for f in first.frames if f.get("type") == "error"]
            tabs = [first, second]
            await first.page.close()
            third = await open_tab(context, page_url(server))
            tabs.append(third)
            await third.page.locator("#felt .seat.me", has_text="ann").wait_for()
            assert await third.page.locator("#hand .card").count() > 0
            await third.screenshot(shots / "tab-opened-again-360x640.png")
            assert [f["seat"] for f in third.frames if f.get("type") == "joined"] == [
                f["seat"] for f in first.frames if f.get("type") == "joined"]
            assert [v.errors for v in tabs] == [[], [], []]
        finally:
            await context.close()


async def test_two_tabs_opened_in_the_same_instant_take_a_kept_seat_once(browser: Any) -> None:
    """The tab at a seat closed; two tabs of that browser open at once: one sits at the seat,
    the other is a new player in the lobby (and no tab takes the seat from the other)."""
    async with serving() as server:
        context = await browser.new_context(viewport=PHONE)
        try:
            first = await seated_tab(context, page_url(server))
            await first.page.close()
            tabs = await asyncio.gather(open_tab(context, page_url(server)), open_tab(context, page_url(server)))
            seated = [asyncio.ensure_future(t.page.locator("#felt .seat.me", has_text="ann").wait_for()) for t in tabs]
            done, waiting = await asyncio.wait(seated, timeout=20, return_when=asyncio.FIRST_COMPLETED)
            for wait in waiting:
                wait.cancel()
            assert done
            await tabs[seated.index(next(iter(done)))].page.locator("#hand .card").first.wait_for()
            await asyncio.sleep(1.0)  # a second taker would have taken the seat by now
            joined = [[f for f in t.frames if f.get("type") == "joined"] for t in tabs]
            assert sorted(len(j) for j in joined) == [0, 1]
            assert sorted([await t.page.locator("#felt .seat.me").count() for t in tabs]) == [0, 1]
            assert sorted([await t.page.locator("#lobby:visible").count() for t in tabs]) == [0, 1]
            assert [t.errors for t in tabs] == [[], []]
        finally:
            await context.close()


async def test_a_private_tables_code_and_link_are_on_its_screen_while_seats_are_free(browser: Any, shots: Path) -> None:
    """The creator of a private table sees its invite code and a link on the table screen; a
    guest opening the link sits down there; with no seat free the code is no longer shown."""
    async with serving() as server, guest(browser, page_url(server), PHONE) as ann, \
            guest(browser, page_url(server)) as bob:
        page = ann.page
        await enter(ann, "ann")
        await page.click("#new-table")
        await page.select_option("#create-form select[name=players]", "2")
        await page.select_option("#create-form select[name=bots]", "0")
        await page.check("#create-form input[name=private]")
        await page.click("text=Create and sit down")
        code = await page.locator("#actions .invite-code").inner_text()
        made = next(f["table"] for f in ann.frames if f.get("type") == "table")
        assert code == made["invite"]
        link = await page.input_value("#actions .invite-link")
        assert link.endswith(f"#table={made['table']}&invite={code}")
        await ann.screenshot(shots / "invite-360x640.png")
        await bob.page.goto(link)
        await enter_name_only(bob, "bob")
        await bob.page.locator("#felt .seat.me", has_text="bob").wait_for()
        await page.locator("#felt .seat", has_text="bob").wait_for()
        assert await page.locator("#actions .invite").count() == 0


async def test_a_links_seed_is_not_taken_and_a_seeded_table_says_so_on_its_screen(browser: Any, shots: Path) -> None:
    """A shared link's fragment chooses the rules and the bots, not the seed (its author would
    know the deals): the table it makes is not seeded. A table made with the dialog's own Seed
    field is, and its screen says so while it waits and while it plays."""
    fragment = urllib.parse.urlencode({"name": "ann", "bots": "1", "rules": '{"players":2}', "seed": "42"})
    async with serving() as server, guest(browser, f"{page_url(server)}#{fragment}") as ann, \
            guest(browser, page_url(server)) as bob:
        await ann.page.locator("#table").wait_for()
        await ann.page.locator("#facts .fact").first.wait_for()
        made = next(f for f in ann.frames if f.get("type") == "table")["table"]
        assert made["rules"]["players"] == 2 and made["seeded"] is False
        assert await ann.page.locator("#facts .seeded").count() == 0
        page = bob.page
        await enter(bob, "bob")
        await create(bob, players=2, bots=1, typed={"seed": "42"})
        await page.locator("#facts .seeded", has_text="Seeded").wait_for()
        assert next(f for f in bob.frames if f.get("type") == "table")["table"]["seeded"] is True
        await page.locator("#actions button.bid, #hand button.playable").first.wait_for()
        assert await page.locator("#facts .seeded").count() == 1
        await bob.screenshot(shots / "seeded-table-1280x800.png")


async def test_the_games_end_offers_one_play_again_and_leaves_the_last_trick_in_view(
        browser: Any, shots: Path) -> None:
    """A game of one hand (hand limit 1) ends: the winner is told under the felt, the last
    trick stays on it, and one button offers to play again, which makes the seat ready."""
    async with serving() as server, guest(browser, page_url(server), PHONE) as ann:
        page = ann.page
        await enter(ann, "ann")
        await create(ann, players=2, bots=1, typed={"hand_limit": "1"})
        await play_until([ann], "#actions .outcome")
        assert await page.locator("#felt .played").count() == 2  # the last trick, uncovered
        assert await page.locator("#felt .panel").count() == 0
        again = page.locator("button", has_text="Play again")
        assert await again.count() == 1 and await page.locator("button", has_text="Ready").count() == 0
        await ann.screenshot(shots / "game-over-360x640.png")
        await again.click()
        await page.locator("#table-log", has_text="You are ready").wait_for()


async def enter_name_only(visitor: Guest, name: str) -> None:
    """Give the welcome's name and go on, wherever the page goes next."""
    await visitor.page.fill("#name", name)
    await visitor.page.click("text=Enter the lobby")


async def slow_player(client: RawClient, seconds: float) -> None:
    """Answer every decision with the first legal action, after ``seconds`` (a person's pace)."""
    while True:
        message = await client.read(60)
        if message["type"] == "decide":
            await asyncio.sleep(seconds)
            await client.send(type="act", request=message["request"], action=message["view"]["legal"][0])


async def test_a_spectator_never_holds_a_hidden_card(browser: Any, shots: Path) -> None:
    """A page watching a player and three bots holds no card in hand, and no frame it received
    names a card before it was played; after a reload it watches again."""
    async with serving() as server, guest(browser, page_url(server)) as eve:
        player = await RawClient.connect(server.port)
        await player.hello("fay", kind="human")
        await player.send(type="create_table", id=1, name="fay's table", bots=["random"] * 3)
        await player.expect("table", id=1)
        await player.send(type="join", id=2, table="t1", ready=True)
        await player.expect("joined", id=2)
        playing = asyncio.ensure_future(slow_player(player, 0.15))
        try:
            await enter(eve, "eve")
            await eve.page.click("text=Watch")
            await eve.page.locator("#table-title", has_text="(watching)").wait_for()
            await eve.page.locator("#felt .played").first.wait_for()
            await eve.page.reload()
            await eve.page.locator("#table-title", has_text="(watching)").wait_for()
            await eve.page.locator(".panel.summary").wait_for(timeout=60_000)
            await eve.screenshot(shots / "spectator-1280x800.png")
            assert await eve.page.locator("#hand .card").count() == 0
        finally:
            playing.cancel()
            await player.close()
        assert any(f.get("event", {}).get("kind") == "hand_scored" for f in eve.frames)
        assert_only_seen_cards(eve.frames, seat=None)


async def test_a_hostile_name_is_text_and_a_phone_never_scrolls_sideways(browser: Any, shots: Path) -> None:
    """Names, table names and chat that look like markup are shown as the text they are; at
    360x640 and other sizes, portrait and landscape, nothing scrolls sideways."""
    async with serving() as server, guest(browser, page_url(server), PHONE) as dan:
        hostile = await RawClient.connect(server.port)
        await hostile.hello(HOSTILE_NAME, kind="human")
        await hostile.send(type="create_table", id=1, name=HOSTILE_TABLE, rules={"players": 3}, bots=["random"])
        await hostile.expect("table", id=1)
        await hostile.send(type="join", id=2, table="t1", ready=True)
        await hostile.expect("joined", id=2)
        await enter(dan, "dan")
        await hostile.send(type="chat", scope="lobby", text=HOSTILE_CHAT)
        page = dan.page
        await page.locator("#lobby-log", has_text=HOSTILE_CHAT).wait_for()
        assert HOSTILE_TABLE in await dan.text_of("#tables")
        assert HOSTILE_NAME in await dan.text_of("#tables")
        marked_up = "main img, main script, main b:text('bold'), main i, main a:not(.evening-links a)"  # (ours: links)
        assert await page.locator(marked_up).count() == 0
        await dan.screenshot(shots / "lobby-360x640.png")
        sizes = [PHONE, {"width": 640, "height": 360}, {"width": 800, "height": 1280}, LAPTOP]
        for size in sizes:
            await page.set_viewport_size(size)
            for dialog in (False, True):
                if dialog:
                    await page.click("#new-table")
                width = await page.evaluate("document.documentElement.scrollWidth")
                assert width <= size["width"], (size, "lobby", dialog, width)
                if dialog:
                    await page.click("#create-cancel")
        await page.set_viewport_size(PHONE)
        await page.locator(".sit").first.click()
        await page.locator("#felt .seat").first.wait_for()
        assert HOSTILE_NAME in await dan.text_of("#felt")
        assert HOSTILE_TABLE in await dan.text_of("#table-title")
        for size in sizes:
            await page.set_viewport_size(size)
            width = await page.evaluate("document.documentElement.scrollWidth")
            assert width <= size["width"], (size, "table", width)
        assert await page.title() != "1"  # the name's onerror never ran
        await hostile.close()


async def test_a_guest_makes_a_club_table_and_its_summary_tells_the_club_options(browser: Any, shots: Path) -> None:
    """The dialog's club options make the table (min bid 2, the dealer's steal, Low captured):
    the page names them, offers no bid of 1, and its hand summary says who captured Low."""
    async with serving() as server, guest(browser, page_url(server)) as ann:
        page = ann.page
        await enter(ann, "ann")
        await page.click("#new-table")
        await page.select_option("#create-form select[name=players]", "2")
        await page.select_option("#create-form select[name=bots]", "1")
        await page.select_option("#create-form select[name=min_bid]", "2")
        await page.check("#create-form input[name=dealer_steal]")
        await page.select_option("#create-form select[name=low]", "captured")
        await page.click("text=Create and sit down")
        await page.locator("#table").wait_for()
        asked = next(f for f in ann.frames if f.get("type") == "table")["table"]["rules"]
        assert (asked["min_bid"], asked["dealer_steal"], asked["low"]) == (2, True, "captured")
        await page.locator("#table-log", has_text="bids from 2 · dealer may steal · low captured").wait_for()
        await page.evaluate(SUMMARY_WATCH)
        async with asyncio.timeout(90):
            while not await page.evaluate("() => window.summariesSeen.length"):
                offered = await page.locator("#actions button.bid").evaluate_all(
                    "buttons => buttons.map((b) => b.dataset.action)")
                assert "bid 1" not in offered
                if not await move(ann):
                    await asyncio.sleep(0.1)
        summary = (await play_to_summary(ann))["text"]
        assert "captured by" in summary
        await ann.screenshot(shots / "club-hand-summary-1280x800.png")


async def bots_play(server: Server, rules: dict[str, Any], games: int) -> None:
    """A table of built-in bots plays ``games`` games while a client watches it, then stops."""
    watcher = await RawClient.connect(server.port)
    await watcher.hello("watcher", kind="human")
    await watcher.send(type="create_table", id=1, rules=rules, bots=["heuristic"] * rules["players"],
                       spectate=True, seed=len(rules) + rules["players"])
    while games:
        message = await watcher.read(60)
        games -= message["type"] == "game_over"
    await watcher.close()
    await server.settle()


PAGE_BYTES = """() => performance.getEntries()
    .filter((e) => e.encodedBodySize !== undefined).reduce((n, e) => n + e.encodedBodySize, 0)"""
"""The bytes of every file and answer the page has loaded (bodies, as sent: no compression here)."""


def chart_points(series: list[list[int]]) -> list[tuple[int, int, int]]:
    """The points a game's chart must show: (side, hand, score), hand 0 the start at 0."""
    start = [0] * len(series[0])
    every = enumerate([start, *series])
    return sorted((side, hand, score) for hand, scores in every for side, score in enumerate(scores))


async def test_the_evening_page_charts_each_game_and_a_replay_steps_through_every_trick(
        browser: Any, shots: Path) -> None:
    """After two games (a partnership table and a cutthroat one with the club options), the
    evening page from the lobby's link shows each with its players, rules and winner, its
    chart's points are the records' scores after each hand; the replay, stepped by keys to
    the end, shows every trick of the record with its winner, and each hand's points."""
    from setback.server.history import score_series

    async with running_web_server(bot_table_pace=0, bot_table_pause=0.1) as server:
        await asyncio.gather(bots_play(server, {"players": 4, "teams": 2}, 1),
                             bots_play(server, {"players": 3, "low": "captured", "dealer_steal": True}, 1))
        rows = server.store.finished_games()
        assert len(rows) == 2
        async with guest(browser, page_url(server)) as ann:
            page = ann.page
            await enter(ann, "ann")
            began = time.perf_counter()
            await page.click("text=The evening")
            await page.locator("body[data-loaded]").wait_for()
            figure(shots, "evening_load_ms", round(1000 * (time.perf_counter() - began)))
            figure(shots, "evening_bytes", await page.evaluate(PAGE_BYTES))
            for row in rows:
                card = page.locator(f".game-card[data-game='{row.id}']")
                assert all([name in await card.inner_text() for name in row.players])
                shown = await card.locator("circle").evaluate_all(
                    "dots => dots.map((d) => [d.dataset.side, d.dataset.hand, d.dataset.score].map(Number))")
                assert sorted(map(tuple, shown)) == chart_points(score_series(row))
                assert "win" in await card.locator(".winner").inner_text()
            assert "low captured" in await page.locator(".game-card").nth(0).inner_text() + \
                await page.locator(".game-card").nth(1).inner_text()
            await ann.screenshot(shots / "evening-1280x800.png")
            await page.set_viewport_size(PHONE)
            assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
            await ann.screenshot(shots / "evening-360x640.png")
            await page.set_viewport_size(LAPTOP)
            replayed_row = next(row for row in rows if len(row.players) == 3)  # the club options' game
            record = (await asyncio.to_thread(_get_json, f"http://127.0.0.1:{web_port(server)}/api/games/{replayed_row.id}"))
            began = time.perf_counter()
            await page.locator(f".game-card[data-game='{replayed_row.id}'] a", has_text="Replay").click()
            await page.locator("body[data-loaded]").wait_for()
            figure(shots, "replay_load_ms", round(1000 * (time.perf_counter() - began)))
            figure(shots, "replay_bytes", await page.evaluate(PAGE_BYTES))
            expected = [
                (h["number"], t + 1, [(trick["leader"] + i) % 3 for i in range(3)], trick["cards"], trick["winner"])
                for h in record["hands"] for t, trick in enumerate(h["tricks"])]
            seen: list[tuple[int, int, list[int], list[str], int]] = []
            points = 0
            shot = phone_shot = False
            for _ in range(len(expected) + 2 * len(record["hands"]) + 2):
                where = await page.locator("#replay-where").inner_text()
                hand = int(re.match(r"Hand (\d+)", where).group(1))  # type: ignore[union-attr]
                trick = page.locator(".replay-trick")
                if await trick.count():
                    plays = await trick.locator("li").evaluate_all(
                        "items => items.map((i) => [Number(i.dataset.seat), i.querySelector('.card').dataset.card])")
                    seen.append((hand, int(await trick.get_attribute("data-trick") or 0), [s for s, _ in plays],
                                 [c for _, c in plays], int(await trick.get_attribute("data-winner") or -1)))
                    assert await page.locator(".replay-cards .card").count() == 18  # every hand face up
                    if not shot:
                        await ann.screenshot(shots / "replay-1280x800.png")
                        shot = True
                if await page.locator("#replay-points .points").count():
                    points += 1
                    text = await page.locator("#replay-points").inner_text()
                    assert all(word in text for word in ("High", "Low", "Jack", "Game"))
                    if "captured by" in text and points > 1 and not phone_shot:
                        phone_shot = True
                        await page.set_viewport_size(PHONE)
                        await ann.screenshot(shots / "replay-points-360x640.png")
                        assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
                        await page.set_viewport_size(LAPTOP)
                if await page.locator("#next-trick:disabled").count():
                    break
                await page.keyboard.press("ArrowRight")
            assert seen == expected
            assert points == sum(1 for h in record["hands"] if h["result"])
            assert f"game={replayed_row.id}" in await page.input_value("#share-link")
            await page.keyboard.press("Home")
            assert (await page.locator("#replay-where").inner_text()).startswith("Hand 1 of")
            await page.goto(await page.input_value("#share-link"))  # a shared link opens at its moment
            await page.locator("body[data-loaded]").wait_for()
            assert (await page.locator("#replay-where").inner_text()).startswith("Hand 1 of")


def _get_json(url: str) -> Any:
    import urllib.request

    with urllib.request.urlopen(url, timeout=10) as answer:
        return json.loads(answer.read())


async def seat_a_player(server: Server, name: str, table: str, hand_limit: int,
                        pace: float, target: int = 11) -> tuple[RawClient, asyncio.Future[None]]:
    """A person (a client answering at ``pace``) with three bots at a new table playing to ``target``."""
    player = await RawClient.connect(server.port)
    await player.hello(name, kind="human")
    await player.send(type="create_table", id=1, name=f"{name}'s table", bots=["random"] * 3,
                      rules={"players": 4, "teams": 2, "hand_limit": hand_limit, "target": target})
    await player.expect("table", id=1)
    await player.send(type="join", id=2, table=table, ready=True)
    await player.expect("joined", id=2)
    return player, asyncio.ensure_future(slow_player(player, pace))


async def test_the_big_screen_shows_a_game_as_a_spectator_and_moves_on_to_the_next(browser: Any, shots: Path) -> None:
    """The big screen at 1920x1080 watches the game being played, holds no hidden card in any
    frame, and when that game is over moves on by itself to another table being played."""
    async with serving() as server:
        players = [await seat_a_player(server, "fay", "t1", hand_limit=1, pace=0.3)]
        try:
            async with guest(browser, f"http://127.0.0.1:{web_port(server)}/screen?pace={PACE}", BIG_SCREEN) as tv:
                page = tv.page
                await page.locator("#felt .seat", has_text="fay").wait_for()
                # to 52, at least 13 hands: still in play when the screen moves on (to 11, one game
                # ended in 3 hands, before the screen had left t1's finished game)
                players.append(await seat_a_player(server, "gus", "t2", hand_limit=100, pace=0.3, target=52))
                await page.locator("#felt .played").first.wait_for()
                assert await page.locator("#hand .card").count() == 0
                await tv.screenshot(shots / "big-screen-1920x1080.png")
                widths: list[float] = []
                async with asyncio.timeout(30):  # at one instant while a table is shown (not between two)
                    while not (widths and min(widths) > 0):
                        widths = await page.locator("#felt .seat").evaluate_all(
                            "nodes => nodes.map((n) => n.getBoundingClientRect().width)")
                        await asyncio.sleep(0.05)
                assert min(widths) >= 90  # readable from across a room
                await page.locator("#felt .seat", has_text="gus").wait_for(timeout=60_000)
                assert [f["table"] for f in tv.frames if f.get("type") == "spectating"] == ["t1", "t2"]
                assert_only_seen_cards(tv.frames, seat=None)
        finally:
            for player, playing in players:
                playing.cancel()
                await player.close()


POINT_WORDS = {"high": "High", "low": "Low", "jack": "Jack", "game": "Game", "off_jack": "Off-jack",
               "big_joker": "Big joker", "little_joker": "Little joker", "three": "Three"}
TEN_POINT_SEED = 422
"""A ten_point deal (4 players) that gives ann, seat 4 after three bots, QS JS JC 2C QD and the
big joker, and the first bid: with spades trump, the off-jack and a joker are hers."""


async def test_a_ten_point_hand_shows_the_joker_sorts_the_off_jack_with_trump_and_names_every_point(
    browser: Any, shots: Path
) -> None:
    """At a ten_point table made in the dialog: the lobby and the table name the variant and its
    points; once ann pitches spades, her hand holds trump first in trump's order (JS, the off-jack
    JC marked as trump, the big joker) and the summary names every point won as the result's
    awards do; at a phone's size and a laptop's."""
    async with serving() as server:
        for viewport, size in ((LAPTOP, "1280x800"), (PHONE, "360x640")):
            async with guest(browser, page_url(server), viewport) as ann:
                page = ann.page
                await enter(ann, "ann")
                await page.click("#new-table")
                await page.select_option("#create-form select[name=variant]", "ten_point")
                assert "Off-jack Big joker Little joker Three" in await ann.text_of("#variant-points")
                await page.select_option("#create-form select[name=players]", "4")
                await page.select_option("#create-form select[name=bots]", "3")
                await page.fill("#create-form input[name=seed]", str(TEN_POINT_SEED))
                await page.click("text=Create and sit down")
                await page.locator("#table").wait_for()
                asked = next(f for f in ann.frames if f.get("type") == "table")["table"]["rules"]
                assert (asked["variant"], asked["target"]) == ("ten_point", 21)  # the variant's own target
                facts = page.locator("#facts .variant")
                await facts.wait_for()
                assert await facts.inner_text() == "Ten-point: High Low Jack Off-jack Big joker Little joker Three Game"
                await page.locator("#actions button.bid").first.wait_for(timeout=60_000)  # ann bids first
                joker = page.locator("#hand .card[data-card=BJ]")
                assert (await joker.inner_text()).split() == ["B"]  # its mark is drawn: no font needed
                assert await joker.locator("svg.joker-mark").count() == 2
                assert "big joker" in (await joker.get_attribute("aria-label") or "")
                before = await page.locator("#hand .card").evaluate_all("cs => cs.map((c) => c.dataset.card)")
                assert before == ["QS", "JS", "JC", "2C", "QD", "BJ"]  # printed suits, the joker last
                await page.locator("#actions button.bid").last.click()  # the top bid: ann pitches
                queen = page.locator("#hand .card.playable[data-card=QS]")
                await queen.wait_for()
                await queen.dispatch_event("click")  # on the card itself: the head's new line may move the hand
                await page.locator("#facts .trump", has_text="spades").wait_for()
                # trump_pitched and card_played come as two frames, and the page may draw between
                # them: trump named while the queen is still in the hand. Her hand is read once it is played.
                await page.locator("#hand .card[data-card=QS]").wait_for(state="detached")
                held = await page.locator("#hand .card").evaluate_all(
                    "cs => cs.map((c) => [c.dataset.card, c.classList.contains('trump-card'),"
                    " Boolean(c.querySelector('.trump-mark'))])")
                assert [card for card, _, _ in held] == ["JS", "JC", "BJ", "2C", "QD"], held  # trump's order
                assert [marked for _, marked, _ in held] == [False, True, True, False, False]
                assert [mark for _, _, mark in held] == [False, True, True, False, False] and "trump" in (
                    await page.locator("#hand .card[data-card=JC]").get_attribute("aria-label") or "")
                assert await page.locator("#hand .card[data-card=BJ].black").count() == 1  # trump's colour
                await ann.screenshot(shots / f"ten-point-hand-{size}.png")
                if viewport == LAPTOP:  # the head's extra lines (the points, "seeded") take from the felt
                    hand = await page.locator("#hand").bounding_box()
                    assert hand is not None and hand["y"] + hand["height"] <= LAPTOP["height"], hand
                drawn = await play_to_summary(ann)  # as drawn: it may close before a look
                shown, rows = drawn["label"], drawn["rows"]
                scored = next(f["event"]["result"] for f in ann.frames  # the hand shown: a bot's quick bid
                              if f.get("event", {}).get("kind") == "hand_scored"  # can close one and play on
                              and shown == f"Hand {f['event']['result']['hand_number']} summary")
                names = [s["name"] for s in next(
                    f for f in reversed(ann.frames) if f.get("type") == "table")["table"]["seats"]]
                won = [(point, text) for point, text in rows if "nobody" not in text and "not dealt" not in text]
                assert [p for p, _ in won] == [a["point"] for a in scored["awards"]]
                for (point, text), award in zip(won, scored["awards"], strict=True):
                    assert text.startswith(POINT_WORDS[point])
                    if award["seat"] is not None:
                        assert names[award["seat"]] in text
                    if award["value"] > 1:
                        assert f"({award['value']})" in text
                await ann.screenshot(shots / f"ten-point-summary-{size}.png")
                await page.click("#show-scores")
                sheet = await page.locator("#scores-body table.history td.more-points").nth(  # a row a hand
                    scored["hand_number"] - 1).inner_text()
                for award in scored["awards"]:
                    if award["point"] not in {"high", "low", "jack", "game"}:
                        assert f"{POINT_WORDS[award['point']]}" in sheet
                await page.keyboard.press("Escape")


async def test_a_pedro_table_starts_in_pairs_and_a_cutthroat_one_is_refused_in_words(browser: Any) -> None:
    """The dialog's pedro starts its sides at pairs and says why; chosen each for themselves,
    the server's refused answer is shown, naming both options, and the page stays in the lobby."""
    async with serving() as server, guest(browser, page_url(server), PHONE) as ann:
        page = ann.page
        await enter(ann, "ann")
        await page.click("#new-table")
        await page.select_option("#create-form select[name=variant]", "pedro")
        assert await page.locator("#create-form select[name=teams]").input_value() == "2"
        assert "partnerships only" in await ann.text_of("#sides-hint")
        assert "the variant's (31)" in await ann.text_of("#create-form select[name=target]")
        await page.select_option("#create-form select[name=teams]", "")
        await page.select_option("#create-form select[name=bots]", "3")
        await page.click("text=Create and sit down")
        notice = page.locator("#notice", has_text="variant pedro does not go with teams")
        await notice.wait_for()
        assert (await notice.inner_text()).startswith("The server refused (creating the table)")
        assert await page.locator("#lobby").is_visible() and not await page.locator(".table-card").count()


async def test_a_ten_point_games_evening_card_and_replay_name_its_points(browser: Any, shots: Path) -> None:
    """A ten_point game of bots: the evening page names the variant and its points; the replay
    of a scored hand lists every point of the record's awards, by name and with who took it,
    and draws its jokers."""
    async with running_web_server(bot_table_pace=0, bot_table_pause=0.1) as server:
        await bots_play(server, {"players": 3, "variant": "ten_point"}, 1)
        row = server.store.finished_games()[0]
        record = await asyncio.to_thread(_get_json, f"http://127.0.0.1:{web_port(server)}/api/games/{row.id}")
        async with guest(browser, f"http://127.0.0.1:{web_port(server)}/evening") as ann:
            page = ann.page
            await page.locator("body[data-loaded]").wait_for()
            card = page.locator(f".game-card[data-game='{row.id}']")
            assert "Ten-point: High Low Jack Off-jack Big joker Little joker Three Game" in await card.inner_text()
            hand = next(h for h in record["hands"] if h["result"] and len(h["result"]["awards"]) > 4)
            await page.goto(f"http://127.0.0.1:{web_port(server)}/replay?game={row.id}&hand={hand['number']}"
                            f"&trick={len(hand['tricks']) + 1}")
            await page.locator("#replay-points").wait_for()
            rows = await page.locator("#replay-points table.points tr").evaluate_all(
                "rows => rows.map((r) => [r.dataset.point, r.innerText])")
            won = [(point, text) for point, text in rows if "nobody" not in text and "not dealt" not in text]
            assert [p for p, _ in won] == [a["point"] for a in hand["result"]["awards"]]
            for (point, text), award in zip(won, hand["result"]["awards"], strict=True):
                assert text.startswith(POINT_WORDS[point])
                if award["seat"] is not None:
                    assert record["players"][award["seat"]] in text
            assert "Ten-point" in await page.locator("#replay-rules").inner_text()
            await ann.screenshot(shots / "ten-point-replay-points-1280x800.png")


async def test_the_dialogs_level_seats_bots_named_by_it_for_the_table_and_the_lobby(browser: Any, shots: Path) -> None:
    """The new-table dialog's Level offers the server's levels weakest first, casual chosen; the
    bots of the level chosen are named after it on the table and on another guest's lobby line."""
    async with serving() as server, guest(browser, page_url(server)) as ann, \
            guest(browser, page_url(server), PHONE) as bob:
        page = ann.page
        await enter(ann, "ann")
        await enter(bob, "bob")
        await page.click("#new-table")
        level = page.locator("#create-form select[name=bot]")
        offered = await level.evaluate("select => [...select.options].map((o) => o.value)")
        assert offered[:4] == ["beginner", "casual", "strong", "expert"]
        assert await level.input_value() == "casual"
        await page.select_option("#create-form select[name=players]", "3")
        await page.select_option("#create-form select[name=bots]", "2")
        await level.select_option("strong")
        await level.scroll_into_view_if_needed()
        await ann.screenshot(shots / "levels-dialog-1280x800.png")
        await page.click("text=Create and sit down")
        await page.locator("#table").wait_for()
        seats = next(f for f in ann.frames if f.get("type") == "table")["table"]["seats"]
        assert [s["name"] for s in seats if s["kind"] == "builtin"] == ["strong-0", "strong-1"]
        await page.locator("#table", has_text="strong-0").wait_for()
        await ann.screenshot(shots / "levels-table-1280x800.png")
        line = bob.page.locator(".seat-line", has_text="strong-1")
        await line.wait_for()
        assert "built-in bot" in await line.inner_text()
        await bob.screenshot(shots / "levels-lobby-360x640.png")


async def test_a_links_level_seats_its_bots(browser: Any, shots: Path) -> None:
    """``setback play --bots 2 --level beginner,strong --web``: the link's levels seat the bots
    they name, one a seat."""
    wanted = {"name": "ann", "bots": "2", "rules": '{"players":3}', "level": "beginner,strong"}
    fragment = urllib.parse.urlencode(wanted)
    async with serving() as server, guest(browser, f"{page_url(server)}#{fragment}", PHONE) as ann:
        await ann.page.locator("#table").wait_for()
        made = next(f for f in ann.frames if f.get("type") == "table")["table"]
        assert [s["name"] for s in made["seats"] if s["kind"] == "builtin"] == ["beginner-0", "strong-1"]
        await ann.page.locator("#table", has_text="strong-1").wait_for()
        await ann.screenshot(shots / "levels-table-360x640.png")


PHONE_TALL = {"width": 360, "height": 740}


async def test_a_bot_seats_level_is_named_in_full_on_a_phone(browser: Any, shots: Path) -> None:
    """At 360x740, four seats of bots of the four levels: every bot seat's badge says its level
    in full (the seat's name may be cut short, the level never), inside its seat."""
    wanted = {"name": "ann", "bots": "3", "rules": '{"players":4}', "level": "beginner,expert,casual"}
    fragment = urllib.parse.urlencode(wanted)
    async with serving() as server, guest(browser, f"{page_url(server)}#{fragment}", PHONE_TALL) as ann:
        page = ann.page
        await page.locator("#table", has_text="casual-2").wait_for()
        await page.locator(".seat .level-word", has_text="casual").wait_for()
        await ann.screenshot(shots / "levels-badges-360x740.png")
        badges = await page.locator(".seat").evaluate_all("""seats => seats.map((seat) => {
            const badge = seat.querySelector(".level-word");
            if (!badge) return null;
            const box = badge.getBoundingClientRect(), around = seat.getBoundingClientRect();
            return {text: badge.lastChild.textContent, scroll: badge.scrollWidth, client: badge.clientWidth,
                    inside: box.left >= around.left - 0.5 && box.right <= around.right + 0.5
                            && box.top >= around.top - 0.5 && box.bottom <= around.bottom + 0.5,
                    seen: box.width > 0 && box.left >= 0 && box.right <= innerWidth};
        })""")
        shown = [b for b in badges if b is not None]
        assert sorted(b["text"] for b in shown) == ["beginner", "casual", "expert"], badges
        for b in shown:
            assert b["scroll"] <= b["client"] and b["inside"] and b["seen"], b
