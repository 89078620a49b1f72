// A game's score chart: each side's score after each hand, drawn as SVG by the page itself
// (no chart library). Each point carries its side, hand and score (data-*), as the text
// beside it says them, so a screen reader, a test or a person reading closely gets the
// same numbers the line shows.

import { svg } from "./dom.js";

const WIDTH = 320;
const HEIGHT = 150;
const PAD = { left: 28, right: 8, top: 10, bottom: 20 };
export const SIDE_COLOURS = ["#1f5fbf", "#b5530f", "#7b3fa0", "#0f7c7c", "#8a6d00", "#a3246a", "#4b5d1a"];

/** The chart of `hands` (each side's score after each hand, in order), every line starting
 * at 0 before the first hand, with the target as a dashed line; `names[s]` names side s. */
export function scoreChart(hands, names, target, marked = null) {
  const sides = names.length;
  const series = [Array(sides).fill(0), ...hands];
  const all = series.flat();
  const top = Math.max(target, ...all);
  const bottom = Math.min(0, ...all);
  const x = (i) => PAD.left + (series.length > 1 ? (i * (WIDTH - PAD.left - PAD.right)) / (series.length - 1) : 0);
  const y = (v) => PAD.top + ((top - v) * (HEIGHT - PAD.top - PAD.bottom)) / (top - bottom || 1);
  const grid = [bottom, 0, target].filter((v, i, list) => list.indexOf(v) === i).map((v) => [
    svg("line", { x1: PAD.left, x2: WIDTH - PAD.right, y1: y(v), y2: y(v), class: v === target ? "target" : "axis" }),
    svg("text", { x: PAD.left - 4, y: y(v) + 4, class: "tick", "text-anchor": "end" }, v)]);
  const hint = series.length > 1 ? [
    svg("text", { x: x(0), y: HEIGHT - 4, class: "tick" }, "start"),
    svg("text", { x: x(series.length - 1), y: HEIGHT - 4, class: "tick", "text-anchor": "end" }, `hand ${series.length - 1}`)] : [];
  const here = marked === null ? [] : [svg("line", { x1: x(marked), x2: x(marked), y1: PAD.top, y2: HEIGHT - PAD.bottom, class: "here" })];
  const lines = [...Array(sides).keys()].map((side) => svg("g", { class: "side-line", data: { side } },
    svg("polyline", { points: series.map((s, i) => `${x(i).toFixed(1)},${y(s[side]).toFixed(1)}`).join(" "), stroke: SIDE_COLOURS[side % SIDE_COLOURS.length] }),
    series.map((s, i) => svg("circle", {
      cx: x(i).toFixed(1), cy: y(s[side]).toFixed(1), r: i === marked ? 4 : 2.5, fill: SIDE_COLOURS[side % SIDE_COLOURS.length],
      data: { side, hand: i, score: s[side] },
    }, svg("title", {}, `${names[side]}: ${s[side]} after ${i === 0 ? "no hand" : `hand ${i}`}`)))));
  const said = names.map((name, side) => `${name} ${series[series.length - 1][side]}`).join(", ");
  return svg("svg", { class: "chart", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", "aria-label": `Scores after each hand, to ${target}; at the end ${said}` },
    grid, hint, here, lines);
}
