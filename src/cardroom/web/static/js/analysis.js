// The analysis page of a finished table: asks the server to analyse it (once: the result is
// stored), waits, then shows the players' figures, a chart drawn here (SVG) and the decisions.
import { _, LANG, cardText, clear, el, ngettext, num as localNum, percentText, readJson, startI18n } from "./common.js";
import { LEVEL_WORDS, isRealtime, pageOf } from "./games.js";

await startI18n();

const $ = (id) => document.getElementById(id);
const parts = location.pathname.split("/").filter(Boolean); // ["analysis", id]
const TABLE = decodeURIComponent(parts[1] || "");
const SVG = "http://www.w3.org/2000/svg";  // the xmlns of SVG (a name, nothing is loaded)
const COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"];
const MARKS = { inaccuracy: _("inaccuracy"), mistake: _("mistake"), blunder: _("blunder") };
let data = null;

function showError(text) {
  $("a-error").textContent = text || "";
}

function choice(label) {
  if (label === "claim") return _("claim");
  if (label === "pass") return _("pass");
  return cardText(label);
}

function num(x, digits = 1) {
  return x === null || x === undefined ? "–" : localNum(x, digits);
}

function table(node, heads, rows) {
  clear(node);
  node.append(el("thead", {}, el("tr", {}, heads.map((h) => el("th", { scope: "col" }, h)))));
  node.append(el("tbody", {}, rows.map((cells) => el("tr", {}, cells.map((c, i) => (i === 0 ? el("th", { scope: "row" }, c) : el("td", {}, c)))))));
}

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children.flat()) if (c) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

function showTurnBased(a) {
  $("a-intro").textContent = _("For every decision, the expert valued each choice from the player's own seat (never the hidden cards), over {worlds} likely deals of the cards it could not see. The loss is what a choice cost against the best one, in chips expected at the end of the round: from 1, 3 and 6 chips it is an inaccuracy, a mistake or a blunder. Accuracy is the share of the chips at stake that the player's choices kept.", { worlds: a.worlds });
  const hindsight = a.hindsight;
  const heads = [_("Player"), _("Decisions"), _("Accuracy"), _("Chips lost"), MARKS.inaccuracy, MARKS.mistake, MARKS.blunder];
  if (hindsight) heads.push(_("Lost in hindsight"));
  heads.push(_("Plays like"));
  table($("a-summary"), heads, a.summary.map((p) => {
    const row = [a.players[p.seat], String(p.decisions), p.accuracy === null ? "–" : percentText(p.accuracy), num(p.lost), String(p.marks.inaccuracy), String(p.marks.mistake), String(p.marks.blunder)];
    if (hindsight) row.push(num(p.hindsight_lost));
    row.push(p.like ? _(LEVEL_WORDS[p.like] || p.like) : "–");
    return row;
  }));
  const select = clear($("a-round"));
  a.rounds.forEach((r, i) => select.append(el("option", { value: String(i) }, _("Round {number}", { number: r.number }))));
  $("a-rounds").hidden = false;
  drawRound();
}

function drawRound() {
  const a = data;
  const r = a.rounds[Number($("a-round").value) || 0];
  drawChart(a, r);
  const all = $("a-all").checked;
  // the mark and the chips first: at 390 px they are the columns read
  const heads = [_("Decision"), _("Player"), _("Mark"), _("Chips against the best"), _("Played"), _("Best")];
  if (a.hindsight) heads.push(_("In hindsight"));
  const rows = r.decisions.filter((d) => all || d.mark).map((d) => {
    // the decision as the replay numbers it (its step in the round), linked to that moment
    const step = d.frame === undefined ? String(d.step) : String(d.frame + 1);
    const at = UPLOAD || d.frame === undefined ? step
      : el("a", { href: `/replay/${encodeURIComponent(TABLE)}#round=${r.number}&step=${step}` }, step);
    const behind = d.loss > 0 ? `${localNum(-d.loss, 1)} ± ${num(d.noise)}` : num(0);
    const row = [at, a.players[d.seat], d.mark ? MARKS[d.mark] : "", behind, choice(d.chosen), choice(d.best)];
    if (a.hindsight) row.push(num(d.hindsight_loss));
    return row;
  });
  if (!rows.length) rows.push([_("No decision earned a mark in this round."), "", "", "", "", ""].concat(a.hindsight ? [""] : []));
  table($("a-decisions"), heads, rows);
  // each mark's reason in words, under the table (readable at 390 px)
  const reasons = r.decisions.filter((d) => d.mark).map((d) => el("li", {}, _(
    "Step {step}, {player}: {best} keeps about {chips} more chips by the end of the round than {played}, with the player's own later moves played well.",
    { step: d.frame === undefined ? d.step : d.frame + 1, player: a.players[d.seat], best: choice(d.best), chips: num(d.loss), played: choice(d.chosen) })));
  clear($("a-reasons")).append(...reasons);
}

function drawChart(a, r) {
  const W = 640, H = 300, L = 44, R = 12, T = 12, B = 34;
  const n = r.decisions.length + 1; // the decisions, then the end of the round
  const series = a.players.map(() => []);
  r.decisions.forEach((d, i) => series[d.seat].push([i, d.value, d.mark]));
  r.final_chips.forEach((c, seat) => { if (series[seat].length || c) series[seat].push([n - 1, c, null]); });
  const values = series.flat().map((p) => p[1]).concat(r.start_chips);
  const lo = Math.min(0, ...values), hi = Math.max(1, ...values);
  const x = (i) => L + (n <= 1 ? 0 : (i * (W - L - R)) / (n - 1));
  const y = (v) => T + ((hi - v) * (H - T - B)) / (hi - lo || 1);
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": _("Chart of each player's expected chips at the end of round {number}", { number: r.number }), class: "a-svg" });
  for (let k = 0; k <= 4; k++) {
    const v = lo + ((hi - lo) * k) / 4;
    chart.append(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), stroke: "#dfe4e1" }));
    chart.append(svg("text", { x: L - 4, y: y(v) + 4, "text-anchor": "end", "font-size": 11, fill: "#5f6b66" }, Math.round(v)));
  }
  chart.append(svg("text", { x: L, y: H - 8, "font-size": 11, fill: "#5f6b66" }, _("decisions in the round →")));
  chart.append(svg("text", { x: W - R, y: H - 8, "text-anchor": "end", "font-size": 11, fill: "#5f6b66" }, _("end")));
  series.forEach((pts, seat) => {
    if (!pts.length) return;
    const colour = COLOURS[seat % COLOURS.length];
    chart.append(svg("polyline", { points: pts.map(([i, v]) => `${x(i)},${y(v)}`).join(" "), fill: "none", stroke: colour, "stroke-width": 2 }));
    for (const [i, v, mark] of pts) {
      const size = mark === "blunder" ? 6 : mark === "mistake" ? 5 : mark === "inaccuracy" ? 4 : 3;
      chart.append(svg("circle", { cx: x(i), cy: y(v), r: size, fill: mark ? "#fff" : colour, stroke: colour, "stroke-width": mark ? 2 : 1 },
        svg("title", {}, _("{label}: {words}", { label: a.players[seat], words: `${num(v)}${mark ? ` (${MARKS[mark]})` : ""}` }))));
    }
  });
  const legend = el("ul", { class: "a-legend" }, a.players.map((p, seat) => el("li", {},
    el("span", { class: "a-swatch", style: `background:${COLOURS[seat % COLOURS.length]}` }), p)));
  const box = clear($("a-chart"));
  box.append(chart, legend, el("p", { class: "hint" }, _("A hollow, larger point is a marked decision.")));
}

function showRealtime(a) {
  $("a-intro").textContent = _("A reaction time runs from the moment a card could be played to the moment it was played. A play missed is a card that could be played and was covered (or flipped away) by the other side first.");
  const slaps = Boolean(pageOf(a.game).slaps); // a game with a slap race
  if (!UPLOAD) $("a-replay").href = `/t/${encodeURIComponent(TABLE)}`; // the finished table shows its result
  const heads = [_("Player"), _("Plays"), _("Median reaction"), _("Mean reaction"), _("Fastest"), _("Plays missed"), _("Plays refused"), _("Stalemate calls")];
  if (slaps) heads.push(_("Slaps won"), _("Slaps lost"));
  const stepSecs = (i) => localNum(i * a.histogram_step, Number.isInteger(a.histogram_step) ? 0 : 2);
  const sec = (v) => (v === null ? "–" : _("{seconds} s", { seconds: localNum(v, 2) }));
  table($("a-summary"), heads, a.players.map((p) => {
    const row = [p.name, String(p.plays), sec(p.median), sec(p.mean), sec(p.fastest), String(p.missed), String(p.refused), String(p.calls)];
    if (slaps) row.push(String(p.slaps_won), String(p.slaps_lost));
    return row;
  }));
  const W = 640, H = 220, L = 36, B = 30, T = 10;
  const bars = a.players[0].histogram.length;
  const top = Math.max(1, ...a.players.flatMap((p) => p.histogram));
  const bw = (W - L - 10) / bars;
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": _("Histogram of each player's reaction times"), class: "a-svg" });
  a.players.forEach((p, seat) => {
    p.histogram.forEach((count, i) => {
      const h = ((H - T - B) * count) / top;
      const w = bw / a.players.length - 1;
      chart.append(svg("rect", { x: L + i * bw + seat * (w + 1), y: H - B - h, width: Math.max(1, w), height: h, fill: COLOURS[seat] },
        svg("title", {}, _("{label}: {words}", { label: p.name, words: count }))));
    });
  });
  for (let i = 0; i <= bars; i += 4) {
    chart.append(svg("text", { x: L + i * bw, y: H - B + 14, "text-anchor": i === bars ? "end" : "middle", "font-size": 11, fill: "#5f6b66" }, i === bars ? _("{seconds} s or more", { seconds: stepSecs(i) }) : _("{seconds} s", { seconds: stepSecs(i) })));
  }
  chart.append(svg("text", { x: L - 4, y: T + 10, "text-anchor": "end", "font-size": 11, fill: "#5f6b66" }, top));
  const legend = el("ul", { class: "a-legend" }, a.players.map((p, seat) => el("li", {}, el("span", { class: "a-swatch", style: `background:${COLOURS[seat]}` }), p.name)));
  clear($("a-histogram")).append(chart, legend);
  $("a-realtime").hidden = false;
}

function show(a) {
  data = a;
  $("a-state").textContent = "";
  $("a-result").hidden = false;
  if (isRealtime(a.game)) showRealtime(a);
  else showTurnBased(a);
}

async function ask(method) {
  return readJson(await fetch(`/api/analysis/${encodeURIComponent(TABLE)}?lang=${LANG}`, { method, credentials: "same-origin" }));
}

const UPLOAD = TABLE.startsWith("u-"); // a record file opened in the replay viewer

async function start() {
  $("a-title").textContent = UPLOAD ? _("Analysis of a record file") : _("Analysis of table {id}", { id: TABLE });
  document.title = `cardroom: ${$("a-title").textContent}`;
  $("a-replay").href = UPLOAD ? "/replay" : `/replay/${encodeURIComponent(TABLE)}`;
  try {
    let answer = await ask("POST");
    while (answer.state === "queued" || answer.state === "running") {
      $("a-state").textContent = answer.state === "queued"
        ? ngettext("Waiting for the analyst: {n} game before this one.", "Waiting for the analyst: {n} games before this one.", answer.ahead)
        : _("The expert is going through every decision of the game: this takes a few seconds.");
      await new Promise((resolve) => setTimeout(resolve, 1500));
      answer = await ask("GET");
    }
    if (answer.state === "done") show(answer.analysis);
    else showError(answer.message || _("The analysis failed: try again later."));
  } catch (err) {
    showError(err.message);
  }
}

$("a-round").addEventListener("change", drawRound);
$("a-all").addEventListener("change", drawRound);
start();
