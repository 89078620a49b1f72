#!/usr/bin/env node
// A Setback bot in plain Node.js (no packages), written from spec.md alone.
//
// Usage: node bot.js HOST PORT TABLE [SEAT] [NAME]
//   or set SETBACK_HOST, SETBACK_PORT, SETBACK_TABLE, SETBACK_SEAT, SETBACK_NAME
//   (how `setback match cmd:...` starts external bots; spec.md, "External bots").
// It joins the table ready, answers every `decide` with a legal action (another one when
// an answer is refused), says `ready` after every `game_over`, answers pings, and comes
// back to its seat with its token after a dropped connection or a server restart.
"use strict";

const net = require("net");

const args = process.argv.slice(2);
const host = args[0] || process.env.SETBACK_HOST || "127.0.0.1";
const port = Number(args[1] || process.env.SETBACK_PORT || 7411);
const table = args[2] || process.env.SETBACK_TABLE;
const seatText = args[3] || process.env.SETBACK_SEAT;
const name = args[4] || process.env.SETBACK_NAME || "node-bot";

const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const rank = (card) => RANKS.indexOf(card.slice(0, -1)); // 0 (two) .. 12 (ace)
const suit = (card) => card.slice(-1);
const PIPS = { A: 4, K: 3, Q: 2, J: 1, "10": 10 };
const pips = (card) => PIPS[card.slice(0, -1)] || 0;

// Bidding (section 10 views): count likely points in the best suit if it were trump.
function chooseBid(view) {
  const bySuit = {};
  for (const card of view.hand) (bySuit[suit(card)] = bySuit[suit(card)] || []).push(card);
  let best = 0;
  for (const cards of Object.values(bySuit)) {
    let points = 0;
    const ranks = cards.map(rank);
    if (ranks.includes(12)) points += 1; // the ace: High
    if (ranks.some((r) => r <= 1)) points += 1; // a two or three: likely Low
    if (ranks.includes(9) && cards.length >= 3) points += 1; // the jack, with cover
    if (cards.length >= 4) points += 0.5;
    best = Math.max(best, points);
  }
  const legalBids = view.legal.filter((a) => a.startsWith("bid ")).map((a) => Number(a.slice(4)));
  const want = Math.min(3, Math.floor(best));
  const fits = legalBids.filter((b) => b <= want);
  if (fits.length) return `bid ${Math.max(...fits)}`;
  return view.legal.includes("pass") ? "pass" : `bid ${Math.min(...legalBids)}`;
}

// Play: lead the strongest trump; otherwise win the trick as cheaply as possible, or
// throw the least valuable card.
function choosePlay(view) {
  const cards = view.legal.map((a) => a.slice(5));
  const trump = view.trump;
  const strength = (card, led) =>
    suit(card) === trump ? 100 + rank(card) : suit(card) === led ? rank(card) : -1;
  if (view.trick.length === 0) {
    const trumps = cards.filter((c) => suit(c) === trump);
    const pool = trumps.length ? trumps : cards;
    const pick = pool.reduce((a, b) => (rank(b) > rank(a) ? b : a));
    return `play ${pick}`;
  }
  const led = suit(view.trick[0].card);
  const best = Math.max(...view.trick.map((p) => strength(p.card, led)));
  const winners = cards.filter((c) => strength(c, led) > best);
  if (winners.length) {
    const pick = winners.reduce((a, b) => (strength(b, led) < strength(a, led) ? b : a));
    return `play ${pick}`;
  }
  const pick = cards.reduce((a, b) => (pips(b) * 20 + rank(b) < pips(a) * 20 + rank(a) ? b : a));
  return `play ${pick}`;
}

// The connection (spec.md sections 7, 13): hello, join, and after a drop or a server
// restart, hello again with the seat's token until the server takes us back.
let socket = null;
let token = null; // from welcome, then from joined: it holds our seat
let seated = false;
let lastDecide = null; // the pending decide and what we answered, for an illegal_action
let attempts = 0;
const MAX_ATTEMPTS = 40; // about a minute of backoff: 0.25 s doubling to 2 s

function connect() {
  socket = net.createConnection({ host, port }, () => {
    attempts = 0;
    const hello = { type: "hello", version: "1.2", name, kind: "bot", events: false };
    if (token) hello.token = token;
    send(hello);
  });
  socket.setNoDelay(true);
  let pending = "";
  socket.on("data", (chunk) => {
    pending += chunk.toString("utf8");
    let newline;
    while ((newline = pending.indexOf("\n")) >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      if (line.trim()) handle(JSON.parse(line));
    }
  });
  socket.on("error", (error) => console.error(`node-bot: ${error.message}`));
  socket.on("close", () => {
    if (!seated || ++attempts > MAX_ATTEMPTS) process.exit(seated ? 1 : 0);
    setTimeout(connect, Math.min(2000, 250 * 2 ** Math.min(attempts - 1, 3)));
  });
}

function send(message) {
  socket.write(JSON.stringify(message) + "\n");
}

function handle(message) {
  switch (message.type) {
    case "welcome": {
      if (!table) {
        console.error("node-bot: no table given");
        process.exit(2);
      }
      if (seated && message.token === token) break; // our seat again: joined, snapshot, decide follow
      token = message.token;
      const join = { type: "join", id: "join", table, ready: true };
      if (seatText !== undefined && seatText !== "") join.seat = Number(seatText);
      send(join);
      break;
    }
    case "joined":
      seated = true;
      token = message.token;
      break;
    case "decide": {
      const view = message.view;
      const chosen = view.phase === "playing" ? choosePlay(view) : chooseBid(view);
      const action = view.legal.includes(chosen) ? chosen : view.legal[0];
      lastDecide = { request: message.request, view, action };
      send({ type: "act", request: message.request, action });
      break;
    }
    case "game_over":
      send({ type: "ready" });
      break;
    case "ping":
      send({ type: "pong", nonce: message.nonce });
      break;
    case "error":
      console.error(`node-bot: ${message.code}: ${message.message}`);
      if (message.code === "illegal_action" && lastDecide) {
        // The request stands (section 12): answer it again, with another legal action.
        const other = lastDecide.view.legal.find((a) => a !== lastDecide.action) || lastDecide.action;
        lastDecide.action = other;
        send({ type: "act", request: lastDecide.request, action: other });
      } else if (message.code === "bad_token" && seated) {
        process.exit(1); // another connection holds our seat now
      } else if (message.fatal || message.id === "join") {
        process.exit(1);
      }
      break;
    default:
      break; // snapshot, table, chat, goodbye (a restarted server takes us back) ...: nothing to do
  }
}

connect();
