// The replay viewer's real-time steps: both players' cards face up (the game is over), the
// middle piles, what happened (a refusal with its reason) and a time line in real seconds. What
// is a game's own (its piles, its call, its points) is its page face (games/<game>/web/realtime.js).
import { _, cardFace, clear, el } from "./common.js";
import { GAMES, isRealtime } from "./games.js";

/** Each real-time game's page face, by name. */
const FACES = Object.fromEntries(await Promise.all(Object.values(GAMES).filter((g) => isRealtime(g.name))
  .map(async (g) => [g.name, await import(`/games/${encodeURIComponent(g.name)}/realtime.js`)])));

const $ = (id) => document.getElementById(id);
const secs = (x) => Number(x || 0).toLocaleString(document.documentElement.lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** The labels of the step buttons for a real-time game. */
export function realtimeLabels() {
  const set = (id, text, label) => { $(id).textContent = text; $(id).setAttribute("aria-label", label); };
  set("r-prev", _("‹ Step"), _("Previous step"));
  set("r-next", _("Step ›"), _("Next step"));
  set("r-prev-round", _("« Game"), _("Previous game"));
  set("r-next-round", _("Game »"), _("Next game"));
  $("r-slider").setAttribute("aria-label", _("Step in this game"));
  const hint = document.querySelector("#viewer .hint");
  if (hint) hint.textContent = _("Keys: left and right arrows step by step, up and down arrows or Page Up and Page Down game by game, Home and End.");
}

/** Draw step `si` of game `rd` (game index `ri` of `games`); `name(seat)` gives a name;
 * `go(step)` moves to a step of this game (the time line's clicks). */
export function drawRealtime(replay, ri, si, name, go) {
  const rd = replay.rounds[ri];
  const step = rd.steps[si] || {};
  const face = FACES[replay.game];
  $("r-pos").textContent = _("Game {game} of {games} · step {step} of {steps} · {seconds} s of {total} s", {
    game: ri + 1, games: replay.rounds.length, step: si + 1, steps: rd.steps.length, seconds: secs(step.t), total: secs(rd.duration),
  });
  clear($("r-board")).hidden = true;
  drawTimeline(rd, si, go);

  const text = clear($("r-text"));
  if (si === 0) text.append(el("li", {}, _("The cards are dealt.")));
  for (const line of step.text || []) text.append(el("li", { class: step.accepted ? "" : "ev-refused" }, String(line)));
  if (step.refused) {
    text.append(el("li", { class: "ev-refused" }, _("{label}: {words}", { label: step.refused.action, words: step.refused.reason })));
  }

  $("r-need").textContent = step.timeout ? _("The countdown ran out.") : "";
  const middle = clear($("r-sequence"));
  const ends = face.replayEnds?.(step); // piles at either end of the middle, if any
  if (ends) middle.append(ends[0]);
  [0, 1].forEach((p) => middle.append(pile(_("pile {number}", { number: p + 1 }) + ` · ${step.centre_sizes[p]}`, step.centre[p], step.centre_sizes[p])));
  if (ends) middle.append(ends[1]);

  const list = clear($("r-players"));
  [0, 1].forEach((g) => {
    const acting = step.seat === g;
    const head = el("span", { class: "seat-head" },
      acting ? el("span", { class: "turn-mark", role: "img", "aria-label": _("acted") }, "▶") : null,
      el("span", { class: "seat-name" }, name(g)),
      step.called && step.called[g] ? el("span", { class: "muted" }, " · " + face.words(false).called) : null);
    const row = el("span", { class: "r-hand rt-replay-row" }, face.replayRow(step, g));
    list.append(el("li", { class: `r-player${acting ? " to-act" : ""}` }, head, row));
  });

  const box = $("r-settlement");
  clear(box);
  const last = si === rd.steps.length - 1;
  box.hidden = !last;
  if (!last) return;
  const res = rd.result || {};
  drawSettlement(box, res, face, name);
  drawMatch(box, res.match, name);
}

/** The match after this game: both scores, and its winner once the match is over. */
function drawMatch(box, match, name) {
  if (!match || !match.after) return;
  box.append(el("p", { class: "r-match-scores" }, _("Match scores: {first} {first_score}, {second} {second_score}", {
    first: name(0), first_score: match.after[0], second: name(1), second_score: match.after[1],
  })));
  if (match.winner !== null && match.winner !== undefined) {
    box.append(el("h2", { class: "match-winner" }, _("{name} wins the match", { name: name(match.winner) })));
  }
}

function drawSettlement(box, res, face, name) {
  if (res.ended && res.ended.reason === "abandoned") {
    box.append(el("p", {}, _("Nobody wins: both players were away too long.")));
    return;
  }
  if (res.winner === null || res.winner === undefined) {
    box.append(el("p", {}, _("The record stops here: this game was not finished.")));
    return;
  }
  if (res.ended && res.ended.reason === "forfeit") {
    box.append(el("h2", { class: "game-winner" }, _("{name} wins: {other} was away too long.", { name: name(res.winner), other: name(res.ended.seat) })));
    return;
  }
  box.append(el("h2", { class: "game-winner" }, _("{name} wins", { name: name(res.winner) })));
  const points = face.replayPoints?.(res); // what a won game scored, if the game scores
  if (points) box.append(points);
}

function pile(label, top, n) {
  const shown = top ? cardFace(top, "small") : el("span", { class: "card small rt-empty", "aria-hidden": "true" });
  return el("span", { class: "rt-replay-pile" }, shown, el("span", { class: "rt-count" }, label));
}

/** Every step as a tick at its time; the current one marked; a click goes to the nearest. */
function drawTimeline(rd, si, go) {
  const line = $("r-timeline");
  line.hidden = false;
  clear(line);
  const total = rd.duration || 1;
  rd.steps.forEach((s, i) => {
    if (i === 0) return;
    line.append(el("span", {
      class: `r-tick${s.accepted ? "" : " refused"}${s.timeout ? " timeout" : ""}${i === si ? " current" : ""}`,
      style: `left: ${(100 * s.t) / total}%`,
      "aria-hidden": "true",
    }));
  });
  line.onclick = (ev) => {
    const box = line.getBoundingClientRect();
    const t = ((ev.clientX - box.left) / box.width) * total;
    let best = 0;
    rd.steps.forEach((s, i) => { if (Math.abs(s.t - t) < Math.abs(rd.steps[best].t - t)) best = i; });
    go(best);
  };
}
