// What the server says, in plain words for a person (the terminal client's words, too).

const WORDS = {
  illegal_action: "The server refused that move",
  not_your_turn: "It is not your turn",
  stale_request: "That decision had already passed",
  seat_taken: "That seat is taken",
  table_full: "There is no free seat there",
  no_such_table: "That table is gone",
  already_seated: "You are already at a table: leave it first",
  not_at_table: "You are not at a table",
  game_in_progress: "A game is being played there: watch it, or wait for it to end",
  bad_rules: "Those table options do not go together",
  refused: "The server refused",
  unknown_bot: "The server has no such bot",
  bad_chat: "That chat message cannot be sent",
  chat_barred: "Bots may not chat during play at this table",
  rate_limited: "Too many messages: the server dropped some",
  bad_token: "Your seat could not be taken back; you are in the lobby",
  internal: "The server failed on that; the rest of the server is fine",
  version_unsupported: "This server speaks another version of the protocol",
  bad_password: "The server needs its password",
  server_full: "The server is full",
  idle_timeout: "The server closed the connection after a long silence",
  hello_timeout: "The server closed the connection before the hello",
  malformed: "The server could not read a message from this page (a bug)",
  unknown_type: "The server does not know a message this page sent (a bug)",
  invalid_field: "The server refused a field this page sent",
  line_too_long: "A message from this page was too long",
};

const ASKED = {
  act: "your move", create_table: "creating the table", join: "joining", spectate: "watching", leave: "leaving",
  ready: "getting ready", add_bot: "adding a bot", chat: "chat",
};

const SAID_IN_FULL = new Set(["game_in_progress", "table_full", "already_seated", "not_at_table", "not_your_turn",
  "bad_password", "server_full"]);

/** One sentence: what went wrong, about what, and the server's own explanation. */
export function errorText(error, request) {
  const words = WORDS[error.code] || "The server refused";
  if (error.code === "no_such_table" && request && request.invite) {
    return "That invite code is not the table's (or the table is gone): check it and try again.";
  }
  const about = request ? ASKED[request.type] : undefined;
  const head = about ? `${words} (${about})` : words;
  const detail = SAID_IN_FULL.has(error.code) ? "" : String(error.message || "").trim().replace(/\.$/, "");
  return detail ? `${head}: ${detail}.` : `${head}.`;
}

/** The table's options in a few words: `4 players · 2 teams · to 11 · smudge`; a variant's
 * table names the variant first (`ten-point · 4 players ...`). */
export function rulesText(rules) {
  const words = [`${rules.players} players`, rules.teams ? `${rules.teams} teams` : "cutthroat", `to ${rules.target}`];
  if (rules.variant && rules.variant !== "standard") words.unshift(rules.variant.replace("_", "-"));
  if (!rules.forced_dealer_bid) words.push("dealer may pass");
  if (rules.smudge) words.push("smudge");
  if (rules.no_junk) words.push("no junk");
  if (rules.min_bid === 2) words.push("bids from 2");  // the club options: absent at their defaults
  if (rules.dealer_steal === true) words.push("dealer may steal");
  if (rules.low === "captured") words.push("low captured");
  if (rules.hand_limit === null) words.push("no hand limit");
  else if (rules.hand_limit !== 100) words.push(`${rules.hand_limit} hands at most`);
  return words.join(" · ");
}

export function clockText(clock) {
  const seconds = clock.decision_seconds;
  return seconds === null ? "no clock" : `${seconds} s a move`;
}

export const REASONS = {
  smudge: "a made bid of 4 (smudge)",
  smudge_failed: "the other side's failed bid of 4",
  pitcher_reached_target: "the pitcher's side reached the target",
  highest_score: "the highest score at or over the target",
  hand_limit: "the highest score at the hand limit",
};

/** A seat as people count them, from 1 ("seat 3" is the wire's seat 2), everywhere a person reads one. */
export const seatWord = (seat) => `seat ${seat + 1}`;

/** `m:ss` for a clock's milliseconds. */
export function clockFace(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}
