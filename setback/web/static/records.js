// The server's records over HTTP (spec.md, "The evening over HTTP"), for the evening page
// and the replay: finished games only.

import { sideCount, sideLetter, sideName } from "./story.js";

/** JSON from the server's records at `path`; an Error saying what went wrong otherwise. */
export async function records(path) {
  const answer = await fetch(path, { cache: "no-store" });
  const body = await answer.json().catch(() => ({}));
  if (!answer.ok) throw new Error(body.error || `the server answered ${answer.status}`);
  return body;
}

/** The names of a game's sides: "A: ann & cy" at a partnership table, else each player. */
export function sideNames(rules, players) {
  return [...Array(sideCount(rules)).keys()].map((side) => {
    const letter = sideLetter(rules, side);
    const names = sideName(rules, side, players);
    return letter ? `${letter}: ${names}` : names;
  });
}

