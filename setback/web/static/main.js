// The page's start and its loop: a message arrives, the state changes in one place
// (state.js), the screen is drawn from the state (lobby.js, table.js).

import { byId } from "./dom.js";
import { Link, socketUrl } from "./link.js";
import { drawLobby, setupLobby } from "./lobby.js";
import { connection, createState, myTurn, receive, sending } from "./state.js";
import { drawTable, setupTable, shownHand } from "./table.js";
import { whyNot } from "./cards.js";
import { variantOf } from "./variants.js";
import { Inbox } from "./pace.js";

const PROTOCOL = "1.4";
const KEPT = { name: "setback.name", token: "setback.token", watching: "setback.watching", password: "setback.password", seats: "setback.seats" };
// The name is kept in the browser; the seat's token, what is watched and the password in
// this tab only, so that two tabs are two players (and a reload is the same one). The
// browser also keeps the seats its tabs hold, so that a tab closed by mistake (a phone's
// swipe) can be opened again at its seat: a new tab takes a kept seat that no open tab
// answers for (asked over a BroadcastChannel), the most recent first. Two tabs opened in the
// same instant may both find one seat free: each claims it on the channel, and the tab with
// the lower id takes it while the other goes to the lobby as a new player.
const SEAT_KEPT_MS = 2 * 3600 * 1000;
const SEATS_KEPT = 4;
const ASK_MS = 250;
const TAB = `${Date.now().toString(36)}.${Math.random().toString(36).slice(2)}`;
let claimed = null; // the kept seat this tab is taking, before the server has given it

/** A table to make on arrival, from the address's fragment (`setback play --bots 3 --web`),
 * or one to sit at (a private table's link: `#table=t3&invite=CODE`). A link may choose the
 * rules, the clock and the table's name, never the seed: whoever wrote a seeded link would
 * know every deal of the guest's table (the dialog's Seed field is the guest's own choice). */
function quickPlan(fragment) {
  const [table, invite] = [fragment.get("table"), fragment.get("invite")];
  if (table && invite && !fragment.get("bots")) return { join: { table, invite } };
  const bots = Number(fragment.get("bots"));
  if (!Number.isInteger(bots) || bots < 1) return null;
  let rules;
  try {
    rules = JSON.parse(fragment.get("rules") || "{}");
  } catch {
    return null;
  }
  rules = { players: bots + 1, ...rules };
  const seconds = Number(fragment.get("clock"));
  return {
    bots, rules, name: fragment.get("table") || undefined, levels: (fragment.get("level") || "").split(",").filter(Boolean),
    clock: { decision_seconds: seconds > 0 ? seconds : null },
  };
}

const fragment = new URLSearchParams(location.hash.slice(1));
if (fragment.get("name")) localStorage.setItem(KEPT.name, fragment.get("name").slice(0, 40));
const state = createState(localStorage.getItem(KEPT.name) || "", quickPlan(fragment));
if (location.hash) history.replaceState(null, "", location.pathname + location.search); // a reload makes no second table
state.token = sessionStorage.getItem(KEPT.token);
const watched = sessionStorage.getItem(KEPT.watching);
if (watched && !state.token) Object.assign(state, { table: watched, spectating: true });

const seatChannel = typeof BroadcastChannel === "function" ? new BroadcastChannel("setback.seats") : null;
if (seatChannel) {
  seatChannel.addEventListener("message", (event) => {
    const asked = event.data && event.data.ask;
    const mine = state.token || claimed;
    if (Array.isArray(asked) && mine && asked.includes(mine)) seatChannel.postMessage({ holds: mine });
  });
}

/** The seats this browser's tabs held lately, the most recent first. */
function keptSeats() {
  try {
    const seats = JSON.parse(localStorage.getItem(KEPT.seats) || "[]");
    return Array.isArray(seats) ? seats.filter((s) => s && typeof s.token === "string" && Date.now() - s.at < SEAT_KEPT_MS) : [];
  } catch {
    return [];
  }
}

/** Keep this tab's seat (a fresh time: it is still held) and forget the one it left. */
function keepSeat(left) {
  const seats = keptSeats().filter((s) => s.token !== state.token && s.token !== left);
  if (state.token) seats.unshift({ token: state.token, at: Date.now() });
  localStorage.setItem(KEPT.seats, JSON.stringify(seats.slice(0, SEATS_KEPT)));
}

/** The token of a kept seat no open tab holds (a tab closed at it) and no tab opened with
 * this one claims first, or null. */
async function seatLeftBehind() {
  const seats = keptSeats();
  if (!seatChannel || !seats.length) return null;
  const taken = new Set(); // held by an open tab, or claimed by a tab of a lower id
  const listen = (event) => {
    const told = event.data || {};
    if (typeof told.holds === "string") taken.add(told.holds);
    if (typeof told.claim === "string" && typeof told.tab === "string" && told.tab < TAB) taken.add(told.claim);
  };
  const pause = () => new Promise((resolve) => setTimeout(resolve, ASK_MS));
  seatChannel.addEventListener("message", listen);
  try {
    seatChannel.postMessage({ ask: seats.map((s) => s.token) });
    await pause();
    const free = seats.find((s) => !taken.has(s.token));
    if (!free) return null;
    claimed = free.token;
    seatChannel.postMessage({ claim: free.token, tab: TAB });
    await pause();
    if (taken.has(free.token)) claimed = null;
    return claimed;
  } finally {
    seatChannel.removeEventListener("message", listen);
  }
}

const ui = { chosen: null, drawing: false, keptToken: null };
let nextId = 1;

const link = new Link(socketUrl(), {
  onOpen() {
    const hello = { type: "hello", version: PROTOCOL, name: state.name, kind: "human" };
    if (state.token) hello.token = state.token;
    const password = sessionStorage.getItem(KEPT.password);
    if (password) hello.password = password;
    link.send(hello);
  },
  onMessage(message) {
    if (message.type === "ping") {
      link.send({ type: "pong", nonce: message.nonce });
      return;
    }
    inbox.push(message);
  },
  onDrop(why) {
    const stopped = state.stopped ? `the server stopped: ${state.stopped}` : why;
    connection(state, link.held ? "offline" : "reconnecting", stopped);
    draw();
  },
});

/** Send `message` with an id of its own; say so when there is no connection to send it on. */
function send(message) {
  const request = { ...message, id: nextId++ };
  sending(state, request);
  if (!link.send(request)) {
    state.requests.delete(request.id);
    state.notice = "Not connected: that was not sent. The page reconnects by itself.";
  }
  draw();
}

/** The server's messages, folded into the state at a pace people can follow. */
const inbox = new Inbox({
  fold(message, now) {
    const answers = receive(state, message, now);
    after(message);
    for (const answer of answers) send(answer);
  },
  drawn: () => draw(),
  mine: (ev) => !state.game || (ev.kind === "card_played" && ev.seat === state.game.seat),
});

/** What a message means for the page beyond the state: what to keep, whether to retry. */
function after(message) {
  if (message.type === "welcome") {
    link.settled();
    localStorage.setItem(KEPT.name, message.player);
  } else if (message.type === "error" && message.fatal) {
    if (message.code === "bad_password" || message.code === "version_unsupported") link.hold();
  }
  if (state.token) sessionStorage.setItem(KEPT.token, state.token);
  else sessionStorage.removeItem(KEPT.token);
  if (state.token !== ui.keptToken) {
    keepSeat(ui.keptToken);
    ui.keptToken = state.token;
  }
  if (state.spectating && state.table !== null) sessionStorage.setItem(KEPT.watching, state.table);
  else if (state.table !== null || state.link === "online") sessionStorage.removeItem(KEPT.watching);
  if (state.game && state.game.decision === null) ui.chosen = null;
}

const actions = {
  send,
  tell(text) {
    state.notice = text;
    draw();
  },
  act(action) {
    const decision = state.game && state.game.decision;
    if (!myTurn(state)) {
      actions.tell(decision ? "Your move is on its way." : "It is not your turn.");
      return;
    }
    ui.chosen = null;
    send({ type: "act", request: decision.request, action });
  },
  dismissSummary() {
    if (state.game) state.game.summary = null;
    draw();
  },
};

function draw() {
  if (ui.drawing) return;
  ui.drawing = true;
  requestAnimationFrame(() => {
    ui.drawing = false;
    render(performance.now());
  });
}

const LINK_WORDS = { connecting: "connecting…", online: "online", reconnecting: "reconnecting…", offline: "offline" };

function render(now) {
  byId("where").textContent = state.server;
  const linkNote = byId("link");
  linkNote.textContent = state.name ? LINK_WORDS[state.link] : "";
  linkNote.className = `link link-${state.link}`;
  const rename = byId("rename");
  rename.hidden = !state.name || state.table !== null;
  rename.textContent = state.name;
  rename.setAttribute("aria-label", `Your name: ${state.name}. Change it`);
  const notice = byId("notice");
  notice.hidden = !state.notice;
  notice.textContent = state.notice || "";
  const screen = !state.name || state.needsPassword || ui.renaming ? "welcome" : state.table !== null ? "table" : "lobby";
  for (const id of ["welcome", "lobby", "table"]) byId(id).hidden = id !== screen;
  byId("password-row").hidden = !state.needsPassword;
  if (screen === "lobby") drawLobby(state, actions);
  if (screen === "table") drawTable(state, actions, ui, now);
  document.title = myTurn(state) ? "Your turn · Setback" : state.table !== null ? `Table · Setback` : "Setback";
}

// -- the person's input ------------------------------------------------------------------

byId("name-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const name = byId("name").value.trim();
  if (!name) return;
  const password = byId("password").value;
  if (state.needsPassword) sessionStorage.setItem(KEPT.password, password);
  localStorage.setItem(KEPT.name, name);
  const renamed = state.name !== name && state.link === "online";
  Object.assign(state, { name, needsPassword: false, notice: null });
  ui.renaming = false;
  if (renamed && link.socket) link.socket.close(); // a new hello, under the new name
  link.open();
  draw();
});

byId("rename").addEventListener("click", () => {
  ui.renaming = true;
  byId("name").value = state.name;
  draw();
});

function onKey(event) {
  const target = event.target;
  if (event.ctrlKey || event.metaKey || event.altKey || document.querySelector("dialog[open]")) return;
  if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement) return;
  const game = state.game;
  if (!game || state.table === null) return;
  if (event.key === "Escape" && game.summary) {
    actions.dismissSummary();
    return;
  }
  if (!myTurn(state)) return;
  const legal = game.decision.legal;
  const bidding = !legal.some((a) => a.startsWith("play "));
  const key = event.key;
  if (bidding) {
    const action = key === "p" || key === "0" ? "pass" : /^[1-9]$/.test(key) ? `bid ${key}` : null;
    if (action && legal.includes(action)) actions.act(action);
    else if (action) actions.tell(`You cannot ${action} now; you may: ${legal.join(", ")}.`);
    return;
  }
  const cards = shownHand(game);
  const pick = (i) => {
    const card = cards[i];
    if (legal.includes(`play ${card}`)) actions.act(`play ${card}`);
    else actions.tell(whyNot(card, game.trick, game.trump, true, variantOf(game.rules)));
  };
  if (/^[1-9]$/.test(key) && Number(key) <= cards.length) pick(Number(key) - 1);
  else if (key === "ArrowLeft" || key === "ArrowRight") {
    const step = key === "ArrowLeft" ? -1 : 1;
    ui.chosen = ui.chosen === null ? (step > 0 ? 0 : cards.length - 1) : (ui.chosen + step + cards.length) % cards.length;
    draw();
  } else if ((key === "Enter" || key === " ") && ui.chosen !== null) {
    event.preventDefault();
    pick(ui.chosen);
  } else return;
  event.preventDefault();
}

document.addEventListener("keydown", onKey);
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") link.check();
  else if (state.token) keepSeat(null); // a tab is closed from hidden: the seat's time is now
});
window.addEventListener("online", () => link.check());
setInterval(() => {
  if (state.game && state.game.toAct !== null && state.table !== null) draw(); // the clocks
}, 500);

setupLobby(actions, () => state);
setupTable(actions);
byId("name").value = state.name;
if (state.name && !state.token && !watched) {
  seatLeftBehind().then((token) => {
    if (token && link.socket === null) state.token = token; // (the name form may have connected meanwhile)
    claimed = null; // the seat is this tab's token now, or not taken
    link.open();
  });
} else if (state.name) link.open();
draw();
