// The lobby: the tables with their rules, clocks, seats and status; sitting, watching,
// making a table with every option; the lobby's chat. Drawn from the state alone.

import { byId, el, fill } from "./dom.js";
import { preferredBot } from "./state.js";
import { sideLetter, sideOf } from "./story.js";
import { clockText, rulesText, seatWord } from "./words.js";
import { POINT_WORDS, VARIANTS, variantOf, variantText } from "./variants.js";

const TARGETS = [7, 10, 11, 21, 31, 52];

const STATUS = { waiting: "waiting for players", playing: "playing", finished: "between games", broken: "stopped by a fault" };
const KINDS = { human: "", bot: "bot", builtin: "built-in bot" };

/** Bind the lobby's forms once; `actions` sends what they ask for. */
export function setupLobby(actions, getState) {
  const dialog = byId("create");
  const form = byId("create-form");
  byId("new-table").addEventListener("click", () => {
    prepareCreate(form, getState());
    dialog.showModal();
  });
  byId("create-cancel").addEventListener("click", () => dialog.close());
  form.elements.players.addEventListener("change", () => seatChoices(form));
  form.elements.variant.addEventListener("change", () => variantChoices(form));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const message = createMessage(form, getState());
    if (typeof message === "string") actions.tell(message);
    else {
      dialog.close();
      actions.send(message);
    }
  });
  byId("lobby-say").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = byId("lobby-text");
    if (input.value.trim()) actions.send({ type: "chat", scope: "lobby", text: input.value });
    input.value = "";
  });
  const invite = byId("invite");
  byId("invite-cancel").addEventListener("click", () => invite.close());
  byId("invite-form").addEventListener("submit", (event) => {
    event.preventDefault();
    invite.close();
    const code = byId("invite-code").value.trim();
    if (code && invite.pending) actions.send({ ...invite.pending, invite: code });
  });
}

function options(select, values, chosen) {
  fill(select, values.map(([value, text]) => el("option", { value, selected: String(value) === String(chosen) }, text)));
}

function prepareCreate(form, state) {
  form.elements.name.value = `${state.name}'s table`;
  options(form.elements.players, [2, 3, 4, 5, 6, 7].map((n) => [n, `${n}`]), form.elements.players.value || 4);
  const bots = state.bots.length ? state.bots : ["random"];
  options(form.elements.bot, bots.map((b) => [b, b]), preferredBot(state));
  variantChoices(form);
}

/** The targets, sides and hints of the variant chosen: "the variant's" target (its default)
 * unless another is chosen, its sides by default (pedro: pairs, said in the hint). */
function variantChoices(form) {
  const variant = VARIANTS[form.elements.variant.value];
  const target = form.elements.target.value;
  options(form.elements.target, [["", `the variant's (${variant.target})`], ...TARGETS.map((t) => [t, `${t}`])], target);
  byId("variant-points").textContent = `Points in play: ${variant.points.map((p) => POINT_WORDS[p]).join(" ")}`;
  byId("sides-hint").textContent = variant.pairsOnly
    ? `${variant.name} is played in partnerships only: pairs unless you choose (partners sit across).`
    : "Each for themselves unless you choose teams (partners sit across).";
  seatChoices(form);
}

/** The sides and bot counts a number of players allows (spec.md section 3). */
function seatChoices(form) {
  const players = Number(form.elements.players.value);
  const teams = [["", "each for themselves"]];
  for (let t = 2; t <= players / 2; t++) if (players % t === 0) teams.push([t, `${t} teams of ${players / t}`]);
  const pairs = VARIANTS[form.elements.variant.value].pairsOnly && players % 2 === 0 ? players / 2 : "";
  options(form.elements.teams, teams, pairs); // each for themselves unless chosen (pedro: pairs), as `setback play` and the text client
  const bots = [...Array(players + 1).keys()].map((n) => [n,
    n === players ? `${n}: bots only, you watch` : n === players - 1 ? `${n}: you and bots` : `${n}`]);
  options(form.elements.bots, bots, players - 1);
}

/** The `create_table` the form asks for, or why it cannot be made. */
function createMessage(form, state) {
  const f = form.elements;
  const players = Number(f.players.value);
  const seconds = Number(f.decision_seconds.value || 0);
  if (!(seconds === 0 || (seconds >= 0.01 && seconds <= 3600))) return "Seconds a move are 0 (no clock) or 0.01 to 3600.";
  const limit = f.hand_limit.value.trim();
  if (limit && !/^[1-9][0-9]*$/.test(limit)) return "The hand limit is a whole number, at least 1 (or empty for none).";
  const seedText = f.seed.value.trim();
  if (seedText && !(/^[0-9]+$/.test(seedText) && Number.isSafeInteger(Number(seedText)))) {
    return `A seed is a whole number from 0 to ${Number.MAX_SAFE_INTEGER}.`;
  }
  const count = Number(f.bots.value);
  const message = {
    type: "create_table",
    name: f.name.value.trim() || undefined,
    rules: {
      players, teams: f.teams.value ? Number(f.teams.value) : null,
      ...(f.target.value ? { target: Number(f.target.value) } : {}), // left out: the variant's own
      ...(f.variant.value !== "standard" ? { variant: f.variant.value } : {}),
      forced_dealer_bid: f.forced_dealer_bid.checked, smudge: f.smudge.checked, no_junk: f.no_junk.checked,
      hand_limit: limit ? Number(limit) : null,
      // the club options, sent only when set: a table of today's game is asked for as in 1.2
      ...(f.min_bid.value === "2" ? { min_bid: 2 } : {}),
      ...(f.dealer_steal.checked ? { dealer_steal: true } : {}),
      ...(f.low.value === "captured" ? { low: "captured" } : {}),
    },
    clock: {
      decision_seconds: seconds > 0 ? seconds : null,
      bot_after_timeouts: f.bot_after_timeouts.value ? Number(f.bot_after_timeouts.value) : null,
    },
    bots: Array(count).fill(f.bot.value || preferredBot(state)),
    bot_chat: f.bot_chat.checked, rated: f.rated.checked, private: f.private.checked,
    spectate: count >= players,
  };
  if (seedText) message.seed = Number(seedText);
  return message;
}

/** Sit or watch: straight away, or after asking for the invite code of a private table. */
function go(actions, state, info, request) {
  const known = state.invites.get(info.table);
  if (!info.private || known) {
    actions.send(known ? { ...request, invite: known } : request);
    return;
  }
  const dialog = byId("invite");
  dialog.pending = request;
  byId("invite-code").value = "";
  dialog.showModal();
}

function seatLine(state, info, seat, free) {
  const letter = sideLetter(info.rules, sideOf(info.rules, seat.seat));
  const side = letter ? el("span", { class: `side side-${letter}`, title: `side ${letter}` }, letter) : null;
  if (seat.kind === "empty") {
    const label = `Sit in ${seatWord(seat.seat)}${letter ? `, side ${letter}` : ""}`;
    return el("li", { class: "seat-line empty" }, side,
      free ? el("button", { type: "button", class: "sit", "aria-label": `${label} at ${info.name}`,
        on: { click: () => go(free.actions, state, info, { type: "join", table: info.table, seat: seat.seat, ready: true }) } },
      `Sit in ${seatWord(seat.seat)}`) : el("span", { class: "muted" }, `${seatWord(seat.seat)}: free`));
  }
  const notes = [KINDS[seat.kind], seat.connected ? "" : "away", seat.replaced_by_bot ? "a bot stands in" : "",
    seat.ready && info.status !== "playing" ? "ready" : ""].filter(Boolean);
  return el("li", { class: "seat-line" }, side,
    el("span", { class: "who" }, el("span", { class: "name", text: seat.name })),
    seat.rating !== null ? el("span", { class: "rating", title: "rating" }, ` ${Math.round(seat.rating)}`) : null,
    notes.length ? el("span", { class: "muted" }, ` · ${notes.join(" · ")}`) : null);
}

function tableCard(state, info, actions) {
  const seatable = state.table === null && info.status !== "playing" && info.status !== "broken";
  const marks = [info.private ? "private" : "", info.rated ? "rated" : "", info.seeded ? "seeded" : ""].filter(Boolean);
  const status = info.status === "playing" ? `playing game ${info.games_played + 1}` : STATUS[info.status];
  return el("article", { class: ["table-card", info.table === state.table && "here"], "aria-label": `Table ${info.name}`, data: { table: info.table } },
    el("header", { class: "row spread" },
      el("h3", { class: "table-name", text: info.name }),
      el("span", { class: `status status-${info.status}` }, status)),
    el("p", { class: "rules" }, `${rulesText(info.rules)} · ${clockText(info.clock)}`,
      marks.length ? el("span", { class: "marks" }, ` · ${marks.join(" · ")}`) : null),
    variantOf(info.rules) !== "standard" ? el("p", { class: "variant-points muted" }, variantText(info.rules)) : null,
    el("ul", { class: "seat-lines" }, info.seats.map((s) => seatLine(state, info, s, seatable ? { actions } : null))),
    el("div", { class: "row" },
      state.table === null ? el("button", { type: "button", class: "watch", "aria-label": `Watch ${info.name}`,
        on: { click: () => go(actions, state, info, { type: "spectate", table: info.table }) } }, "Watch") : null,
      el("span", { class: "muted" }, info.spectators ? `${info.spectators} watching` : "")));
}

/** Draw the list of tables and the lobby's chat. */
export function drawLobby(state, actions) {
  const tables = [...state.tables.values()];
  fill(byId("tables"), tables.length
    ? tables.map((info) => tableCard(state, info, actions))
    : el("p", { class: "muted" }, "No tables yet: make one with “New table”."));
  fillLog(byId("lobby-log"), state.log.filter((e) => e.table === null).slice(-80));
}

/** Show `entries` in the log `node`, kept scrolled to the newest unless its reader scrolled up. */
export function fillLog(node, entries) {
  const atEnd = node.scrollHeight - node.scrollTop - node.clientHeight < 24;
  fill(node, entries.map(logItem));
  if (atEnd) node.scrollTop = node.scrollHeight;
}

/** One line of a log: a chat line as its sender and its words, others as they are. */
function logItem(entry) {
  if (entry.kind === "chat") {
    return el("li", { class: "chat-line" }, el("b", { class: "sender", text: entry.sender }), " ", el("span", { text: entry.said }));
  }
  return el("li", { class: `log-${entry.kind}`, text: entry.text });
}
