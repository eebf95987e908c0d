// The replay viewer: the server turns a record into steps (POST /api/replay); this page steps.
import {
  _, LANG, cardFace, cardPhrase, cardText, clear, el, ngettext, rankName, rankSymbol, readJson, settlementTable, sortHand, startI18n,
} from "./common.js";
import { drawRealtime, realtimeLabels } from "./replay_realtime.js";
import { isRealtime as realtimeGame } from "./games.js";

await startI18n();

const $ = (id) => document.getElementById(id);
const parts = location.pathname.split("/").filter(Boolean); // ["replay"] or ["replay", id]
const TABLE = parts[1] ? decodeURIComponent(parts[1]) : null;

let replay = null;
let ri = 0; // round index
let si = 0; // step index
let source = null; // the uploaded record's text (sent again for each next page), or null
let loading = null; // the page being fetched

function showError(text) {
  $("replay-error").textContent = text || "";
}

/** Page `page` of the replay shown (a long game comes a page of rounds at a time). */
async function fetchPage(page) {
  if (source !== null) {
    return readJson(await fetch(`/api/replay?lang=${LANG}&page=${page}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: source,
      credentials: "same-origin",
    }));
  }
  return readJson(await fetch(`/api/replay/${encodeURIComponent(TABLE)}?lang=${LANG}&page=${page}`, { credentials: "same-origin" }));
}

async function load(record, label) {
  showError("");
  source = typeof record === "string" ? record : JSON.stringify(record);
  show(await fetchPage(0), label);
  $("upload-analyse").hidden = false;
}

function take(data) {
  const first = Number(data.first || 0);
  data.rounds.forEach((rd, i) => { replay.rounds[first + i] = rd; });
}

function show(data, label) {
  if (!data || !Array.isArray(data.rounds) || !data.rounds.length) throw new Error(_("This record has no round to show."));
  const total = Number(data.total || data.rounds.length);
  pause();
  replay = { ...data, rounds: new Array(total), pageRounds: Number(data.page_rounds || total) || 1 };
  take(data);
  ri = Number(data.first || 0);
  si = 0;
  $("replay-title").textContent = label;
  document.title = `cardroom: ${label}`;
  const notes = Array.isArray(data.rules_notes) ? data.rules_notes : [];
  $("r-rules").textContent = notes.join(" ");
  $("r-rules").hidden = !notes.length;
  $("viewer").hidden = false;
  if (isRealtime()) realtimeLabels();
  draw();
}

/** Make sure round `r` is here, asking the server for its page if not (false: it failed). */
async function ensure(r) {
  if (replay.rounds[r]) return true;
  const page = Math.floor(r / replay.pageRounds);
  $("r-pos").textContent = _("Loading rounds {first} to {last}…", { first: page * replay.pageRounds + 1, last: Math.min(replay.rounds.length, (page + 1) * replay.pageRounds) });
  try {
    loading = loading || fetchPage(page);
    take(await loading);
    showError("");
  } catch (err) {
    showError(err.message);
    return false;
  } finally {
    loading = null;
  }
  return !!replay.rounds[r];
}

const isRealtime = () => replay && realtimeGame(replay.game);

function round() {
  return replay.rounds[ri];
}

function players() {
  return replay.players || [];
}

function name(p) {
  const n = (replay.rounds[ri]?.players || players())[p];
  return typeof n === "string" ? n : n?.name || _("Player {number}", { number: Number(p) + 1 });
}

const LAST = -1; // as a step: the last step of its round

async function go(r, s) {
  if (!replay || loading) return;
  const nr = replay.rounds.length;
  if (r < 0) { r = 0; s = 0; }
  if (r >= nr) { r = nr - 1; s = LAST; }
  if (s < 0 && s !== LAST) {
    if (r > 0) { r -= 1; s = LAST; } else s = 0;
  }
  if (!(await ensure(r))) { draw(); return; }
  const steps = replay.rounds[r].steps.length;
  if (s === LAST) s = steps - 1;
  else if (s >= steps) {
    if (r < nr - 1) {
      if (!(await ensure(r + 1))) { draw(); return; }
      r += 1; s = 0;
    } else s = steps - 1;
  }
  ri = r;
  si = s;
  draw();
}

const PACE = 1000; // ms between two steps of the play-back
let playing = null; // the play-back's timer, or null

/** The Play/Pause button: its words and state follow the play-back. */
function drawPlay() {
  const button = $("r-play");
  button.textContent = playing ? _("❚❚ Pause") : _("▶ Play");
  button.setAttribute("aria-label", playing ? _("Pause the play-back") : _("Play the steps one after another"));
  button.setAttribute("aria-pressed", playing ? "true" : "false");
}

function atEnd() {
  return ri === replay.rounds.length - 1 && si === round().steps.length - 1;
}

/** Stop the play-back (a step already asked for still lands). */
function pause() {
  if (playing) clearTimeout(playing);
  playing = null;
  drawPlay();
}

/** Step on at a steady pace until the end of the record (from the start when already there). */
async function play() {
  if (!replay || playing) return;
  if (atEnd()) await go(0, 0);
  const tick = async () => {
    if (!playing) return;
    await go(ri, si + 1);
    if (!playing) return;
    if (atEnd()) pause();
    else playing = setTimeout(tick, PACE);
  };
  playing = setTimeout(tick, PACE);
  drawPlay();
}

function draw() {
  const rd = round();
  const step = rd.steps[si] || {};
  const last = si === rd.steps.length - 1;
  $("r-pos").textContent = _("Round {round} of {rounds} · step {step} of {steps}", { round: ri + 1, rounds: replay.rounds.length, step: si + 1, steps: rd.steps.length });
  const slider = $("r-slider");
  slider.max = String(rd.steps.length - 1);
  slider.value = String(si);
  $("r-first").disabled = ri === 0 && si === 0;
  $("r-prev").disabled = ri === 0 && si === 0;
  $("r-prev-round").disabled = ri === 0;
  const end = ri === replay.rounds.length - 1 && last;
  $("r-next").disabled = end;
  $("r-last").disabled = end;
  $("r-next-round").disabled = ri === replay.rounds.length - 1;
  if (isRealtime()) {
    drawRealtime(replay, ri, si, name, (s) => go(ri, s));
    return;
  }

  const board = clear($("r-board"));
  (step.board || []).forEach((b, i) => {
    const card = typeof b === "string" ? b : b.card;
    const chips = typeof b === "object" ? b.chips : undefined;
    board.append(el("div", { class: `box${i === 4 ? " dwarf" : ""}`, role: "group", "aria-label": _("{card} box", { card: cardPhrase(card) }) },
      cardFace(card, "small"),
      el("span", { class: "chips" }, String(chips ?? "–"),
        chips === undefined ? null : el("span", { class: "sr-only" }, " " + ngettext("chip", "chips", Number(chips)))),
      el("span", { class: "box-name", "aria-hidden": "true" }, i === 4 ? _("Yellow Dwarf") : cardText(card))));
  });

  const text = clear($("r-text"));
  for (const line of step.text || []) text.append(el("li", {}, String(line)));

  $("r-need").textContent = step.to_act === null || step.to_act === undefined ? _("The round is over.") : step.need ? _("Next card: {rank}", { rank: rankName(rankSymbol(step.need)) }) : _("Next card: any (a new sequence)");
  const seq = clear($("r-sequence"));
  const cards = step.sequence || [];
  if (!cards.length) seq.append(el("span", { class: "muted" }, _("No card on the table yet.")));
  cards.forEach((c, i) => seq.append(cardFace(c, i === cards.length - 1 ? "last" : "")));

  const list = clear($("r-players"));
  (step.hands || []).forEach((hand, p) => {
    const toAct = step.to_act === p;
    list.append(el("li", { class: `r-player${toAct ? " to-act" : ""}` },
      el("span", { class: "seat-head" }, toAct ? el("span", { class: "turn-mark", role: "img", "aria-label": _("to play") }, "▶") : null,
        el("span", { class: "seat-name" }, name(p)),
        el("span", { class: "muted" }, " " + ngettext("{n} chip", "{n} chips", Number(step.chips?.[p] ?? 0)) + " · " + ngettext("{n} card", "{n} cards", hand.length))),
      el("span", { class: "r-hand" }, sortHand(hand).map((c) => cardFace(c, "small")))));
  });

  const box = $("r-settlement");
  clear(box);
  box.hidden = !last;
  if (last && rd.settlement) drawSettlement(box, rd.settlement);
  else if (last) box.append(el("p", {}, _("The record stops here: this round was not finished.")));
}

function drawSettlement(box, s) {
  box.append(el("h2", {}, _("Settlement of round {number}", { number: ri + 1 })));
  if (s.winner !== undefined && s.winner !== null) {
    box.append(el("p", {}, s.grand_opera ? _("{name} went out with a Grand Opéra!", { name: name(s.winner) }) : _("{name} went out.", { name: name(s.winner) })));
  }
  if (Array.isArray(s.rows)) box.append(settlementTable(s, (row) => name(row.seat)));  // the table's columns
  if (s.board && typeof s.board === "object") {
    box.append(el("p", { class: "muted" }, _("Boxes after the round:") + " ",
      Object.entries(s.board).map(([card, chips]) => `${cardText(card)} ${chips}`).join(", ")));
  }
  const lines = Array.isArray(s.text) ? s.text : [];
  if (lines.length) box.append(el("ul", {}, lines.map((t) => el("li", {}, String(t)))));
  if (!Array.isArray(s.rows) && !lines.length && !s.board) {
    box.append(el("dl", {}, Object.entries(s).flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, typeof v === "object" ? JSON.stringify(v) : String(v))])));
  }
}

function onKey(e) {
  if (!replay || e.ctrlKey || e.metaKey || e.altKey) return;
  const tag = document.activeElement?.tagName;
  if (tag === "INPUT" && document.activeElement.type !== "range") return;
  const moves = {
    ArrowRight: () => go(ri, si + 1),
    ArrowLeft: () => (si > 0 ? go(ri, si - 1) : go(ri - 1, LAST)),
    ArrowDown: () => go(ri + 1, 0),
    PageDown: () => go(ri + 1, 0),
    ArrowUp: () => go(ri - 1, 0),
    PageUp: () => go(ri - 1, 0),
    Home: () => go(0, 0),
    End: () => go(replay.rounds.length, 0),
  };
  const f = moves[e.key];
  if (f) { f(); e.preventDefault(); }
}

$("r-first").addEventListener("click", () => go(0, 0));
$("r-prev-round").addEventListener("click", () => go(ri - 1, 0));
$("r-prev").addEventListener("click", () => (si > 0 ? go(ri, si - 1) : go(ri - 1, LAST)));
$("r-next").addEventListener("click", () => go(ri, si + 1));
$("r-next-round").addEventListener("click", () => go(ri + 1, 0));
$("r-last").addEventListener("click", () => go(replay.rounds.length, 0));
$("r-play").addEventListener("click", () => (playing ? pause() : play()));
$("r-slider").addEventListener("input", (e) => go(ri, Number(e.target.value)));
document.addEventListener("keydown", onKey);

$("upload-analyse").addEventListener("click", async () => {
  if (source === null) return;
  showError("");
  const button = $("upload-analyse");
  button.disabled = true;
  try {
    const answer = await readJson(await fetch(`/api/analysis/upload?lang=${LANG}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: source,
      credentials: "same-origin",
    }));
    if (answer.state === "failed") throw new Error(answer.message || _("The analysis failed: try again later."));
    location.href = `/analysis/${encodeURIComponent(answer.id)}`;
  } catch (err) {
    showError(err.message);
  } finally {
    button.disabled = false;
  }
});

async function uploaded(input) {
  const file = input.files?.[0];
  if (!file) return;
  if (file.size > 2 * 1024 * 1024) { showError(_("That file is larger than 2 MB: choose a cardroom record.")); return; }
  try {
    await load(await file.text(), file.name);
  } catch (err) {
    showError(err.message);
  }
}

$("upload-file").addEventListener("change", (e) => uploaded(e.target));
// a file chosen while the page's words were still loading is read now
if ($("upload-file").files?.length) uploaded($("upload-file"));

async function loadTable() {
  const url = `/t/${encodeURIComponent(TABLE)}/record`;
  $("finished").hidden = false;
  $("record-link").href = url;
  $("analyse-link").href = `/analysis/${encodeURIComponent(TABLE)}`;
  try {
    source = null;
    const data = await fetchPage(0);
    $("record-link").setAttribute("download", `${data.game}-${TABLE}.json`);
    show(data, _("Replay of table {id}", { id: TABLE }));
    await openMoment();
  } catch (err) {
    showError(err.message);
    $("finished").hidden = true;
  }
}

/** `#round=R&step=S` (the analysis's links): open round R at step S, both as shown (from 1). */
async function openMoment() {
  const wanted = new URLSearchParams(location.hash.slice(1));
  const r = Number(wanted.get("round")), s = Number(wanted.get("step"));
  if (Number.isInteger(r) && r >= 1 && Number.isInteger(s) && s >= 1) await go(r - 1, s - 1);
}

if (TABLE) loadTable();
