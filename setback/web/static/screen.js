// The big screen: one table from a distance, for a TV or a projector on the LAN. It is a
// spectator (it sees what any spectator sees: seats, the trick, the scores, no hand),
// drawn as the table page draws a spectator's table, large; when its game is over it
// moves on by itself to the next game being played. `?table=t3` keeps it at one table.

import { byId } from "./dom.js";
import { Link, socketUrl } from "./link.js";
import { Inbox, paceAsked } from "./pace.js";
import { connection, createState, receive } from "./state.js";
import { drawTable } from "./table.js";

const PROTOCOL = "1.4";
const NAME = "big screen";
const LOOK_MS = 5000;
// How often the screen looks for a game to show while it shows none, or a finished one.
const RESULT_MS = 20000;
// How long a finished game's result stays up before the screen moves on (scaled by ?pace).

const asked = new URLSearchParams(location.search);
const pinned = asked.get("table");
const state = createState(NAME);
const screen = { drawing: false, overSince: null, lastLook: 0 };

const link = new Link(socketUrl(), {
  onOpen: () => link.send({ type: "hello", version: PROTOCOL, name: NAME, kind: "human" }),
  onMessage(message) {
    if (message.type === "ping") link.send({ type: "pong", nonce: message.nonce });
    else inbox.push(message);
  },
  onDrop(why) {
    connection(state, "reconnecting", why);
    draw();
  },
});

const send = (message) => link.send(message);

const inbox = new Inbox({
  fold(message, now) {
    for (const answer of receive(state, message, now)) send(answer);
    if (message.type === "welcome") link.settled();
    if (message.type === "tables") choose();
  },
  drawn: () => draw(),
});

const playing = (info) => info.status === "playing";

/** The table to show: the pinned one, else one being played (another than the one just
 * shown, if there is one), else none. */
function next(current) {
  const tables = [...state.tables.values()];
  if (pinned) return tables.find((t) => t.table === pinned) || null;
  const live = tables.filter(playing);
  return live.find((t) => t.table !== current) || live[0] || null;
}

/** The list of tables arrived: watch the table to show, if it is not the one watched. */
function choose() {
  const watched = state.table;
  const info = watched === null ? null : state.tables.get(watched);
  const over = !info || !playing(info);
  if (watched !== null && !over) return;
  if (watched !== null && screen.overSince !== null && performance.now() - screen.overSince < RESULT_MS * paceAsked()) return;
  const target = next(watched);
  if (!target || target.table === watched) return;
  screen.overSince = null;
  if (watched !== null) send({ type: "leave" });
  send({ type: "spectate", table: target.table });
}

/** Look again, every few seconds, whether the screen should show another game. */
setInterval(() => {
  if (state.link !== "online") return;
  const game = state.game;
  const info = state.table === null ? null : state.tables.get(state.table);
  const over = state.table === null || !info || !playing(info) || (game && game.outcome);
  if (!over) {
    screen.overSince = null;
    return;
  }
  if (screen.overSince === null) screen.overSince = performance.now();
  send({ type: "list_tables" });
}, LOOK_MS);

function draw() {
  if (screen.drawing) return;
  screen.drawing = true;
  requestAnimationFrame(() => {
    screen.drawing = false;
    byId("where").textContent = state.server;
    byId("link").textContent = state.link === "online" ? "" : state.link;
    byId("link").className = `link link-${state.link}`;
    const watching = state.table !== null;
    byId("waiting").hidden = watching;
    byId("table").hidden = !watching;
    const info = watching ? state.tables.get(state.table) : null;
    byId("screen-note").textContent = watching
      ? `${info ? info.name : state.table}${pinned ? "" : " · the next game follows by itself"}`
      : "";
    if (watching) drawTable(state, { send, tell() {}, act() {}, dismissSummary() {} }, { chosen: null }, performance.now());
    document.title = watching && info ? `${info.name} · Setback` : "Big screen · Setback";
  });
}

link.open();
draw();
