// The evening page: the games finished on this server (today first, then earlier), each with
// its players, rules, winner and score chart, and the leaderboard. Read from the server's
// records (spec.md, "The evening over HTTP"); a game being played is not among them.

import { byId, el, fill } from "./dom.js";
import { scoreChart } from "./chart.js";
import { records, sideNames } from "./records.js";
import { sideLetter, sideOf } from "./story.js";
import { REASONS, rulesText } from "./words.js";
import { variantOf, variantText } from "./variants.js";

/** The day a game finished on, in this browser's time: "today", "yesterday", or its date. */
function dayOf(stamp) {
  const day = new Date(stamp);
  const today = new Date();
  const start = (d) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  const days = Math.round((start(today) - start(day)) / 86400000);
  if (days === 0) return "Today";
  if (days === 1) return "Yesterday";
  return day.toLocaleDateString(undefined, { weekday: "long", day: "numeric", month: "long", year: "numeric" });
}

const timeOf = (stamp) => new Date(stamp).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });

function gameCard(game) {
  const rules = game.rules;
  const names = sideNames(rules, game.players);
  const why = REASONS[game.reason] || String(game.reason || "").replaceAll("_", " ");
  const won = game.winners.length ? `${game.winners.join(" & ")} ${game.winners.length > 1 ? "win" : "wins"}` : "no winner";
  const scores = (game.scores || []).map((score, side) => `${names[side]} ${score}`).join(" · ");
  return el("article", { class: "game-card", data: { game: game.game_id }, "aria-labelledby": `game-${game.game_id}` },
    el("div", { class: "row spread" },
      el("h3", { id: `game-${game.game_id}` }, `Game ${game.game_id} · `, el("span", { text: game.table }), ` · ${timeOf(game.finished)}`),
      el("a", { class: "button", href: `/replay?game=${game.game_id}` }, "Replay")),
    el("p", { class: "players" }, game.players.map((name, seat) => {
      const letter = sideLetter(rules, sideOf(rules, seat));
      return el("span", { class: "player" }, letter ? el("span", { class: `side side-${letter}`, "aria-hidden": "true" }, letter) : null,
        el("span", { class: "name", text: name }), game.stood_in.includes(name) ? el("span", { class: "muted" }, " (a bot stood in)") : null);
    })),
    el("p", { class: "muted rules" }, rulesText(rules), game.rated ? " · rated" : ""),
    variantOf(rules) !== "standard" ? el("p", { class: "muted variant-points" }, variantText(rules)) : null,
    el("p", { class: "winner" }, el("b", { text: won }), `: ${scores}`, why ? ` (${why}, after ${game.hands.length} hand${game.hands.length === 1 ? "" : "s"} scored)` : ""),
    scoreChart(game.hands, names, rules.target),
    el("ul", { class: "legend" }, names.map((name, side) => el("li", { data: { side } }, el("span", { class: "swatch", "aria-hidden": "true" }), el("span", { text: name })))));
}

function drawGames(games) {
  const byDay = new Map();
  for (const game of games) {
    const day = dayOf(game.finished);
    if (!byDay.has(day)) byDay.set(day, []);
    byDay.get(day).push(game);
  }
  fill(byId("games"), [...byDay].map(([day, list]) => el("section", { class: "day", "aria-label": day },
    el("h2", {}, `${day}: ${list.length} game${list.length === 1 ? "" : "s"}`), list.map(gameCard))));
  byId("evening-note").textContent = games.length
    ? "Games finished on this server, the newest first. Games being played are watched from the tables."
    : "No game has finished on this server yet: the games appear here as they end.";
}

function drawLeaderboard(players) {
  fill(byId("leaderboard"), players.length ? el("table", { class: "history" },
    el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", {}, "Player"), el("th", {}, "Rating"), el("th", {}, "Games"), el("th", {}, "Wins"))),
    el("tbody", {}, players.map((p, i) => el("tr", {}, el("td", {}, i + 1),
      el("td", { text: p.player.replace(/^builtin:/, "bot ") }), el("td", {}, p.rating.toFixed(1)), el("td", {}, p.games), el("td", {}, p.wins)))))
    : el("p", { class: "muted" }, "No rated game yet: a table is rated when its creator asks for it."));
}

async function load() {
  try {
    const [games, board] = await Promise.all([records("/api/games"), records("/api/leaderboard")]);
    drawGames(games.games);
    drawLeaderboard(board.players);
  } catch (error) {
    byId("evening-note").textContent = `The records could not be read: ${error.message}.`;
  }
  document.body.dataset.loaded = "true";
}

load();
setInterval(() => {
  if (document.visibilityState === "visible") load();
}, 60000);
