// The lobby: create a table and sit down at it (every option in words), my tables, open tables.
import { _, LANG, clear, el, fillIfChanged, forgetShown, ngettext, personName, ratingText, readJson, startI18n } from "./common.js";
import {
  CHOICES, END_KINDS, LEVEL_WORDS, LEVELS, PLAYERS_MAX, PLAYERS_MIN, PRESETS, PRESET_SOURCES, PRESET_WORDS,
  SOURCES, estimateMinutes,
} from "./options.js";
import { GAMES, isRealtime } from "./games.js";

await startI18n();
const $ = (id) => document.getElementById(id);
// each level's fixed rating (cardroom.web.ratings.BOT_RATINGS, the leaderboard's), beside its name
const STRENGTH = await fetch("/api/levels").then((r) => (r.ok ? r.json() : {})).catch(() => ({}));
const NAME_KEY = "cardroom.name";
const STATUS_WORDS = { waiting: N_("waiting"), playing: N_("playing"), "round-over": N_("round over"), over: N_("over") };

function N_(message) {
  return message;
}

function levelText(lv) {
  const word = _(LEVEL_WORDS[lv] || lv);
  const rating = STRENGTH.levels?.[lv]?.rating;
  return typeof rating === "number" ? `${word} (${ratingText(rating)})` : word; // the hint says what the number is
}

/** A bot under its table's name for it, as its seat and log show it: "Bot 2" at a turn-based
 * table, "Hard bot" at a real-time table (the same msgids as the tables' pages). */
function botName(row, s, i) {
  if (isRealtime(row.game) && LEVEL_WORDS[s.level]) return _("{level} bot", { level: _(LEVEL_WORDS[s.level]) });
  return _("Bot {number}", { number: (s.seat ?? i) + 1 });
}

function presetValues() {
  return PRESETS[$("f-preset").value] || PRESETS.classic;
}

function fillStatic() {
  for (const link of document.querySelectorAll("[data-rules]")) {
    link.href = `/rules/${link.dataset.rules}?lang=${LANG}`;
  }
  // the real-time form's games, from the registry
  const race = $("rt-game");
  for (const g of Object.values(GAMES).filter((g) => isRealtime(g.name))) race.append(el("option", { value: g.name }, _(g.title)));
  race.dispatchEvent(new Event("change")); // its options shown
  for (let n = PLAYERS_MIN; n <= PLAYERS_MAX; n++) {
    $("f-players").append(el("option", { value: n, selected: n === 3 }, String(n)));
  }
  for (const name of Object.keys(PRESETS)) {
    $("f-preset").append(el("option", { value: name }, _(PRESET_WORDS[name])));
  }
  for (const [value, words] of END_KINDS) $("f-end-kind").append(el("option", { value }, _(words)));
  const box = $("f-options");
  for (const [name, spec] of Object.entries(CHOICES)) {
    const group = el("fieldset", { class: "opt-group", "data-option": name }, el("legend", {}, _(spec.label)));
    for (const [value, words] of spec.values) {
      group.append(el("label", { class: "check opt-choice" },
        el("input", { type: "radio", name: `opt-${name}`, id: `opt-${name}-${value}`, value }),
        el("span", {}, _(words))));
    }
    box.append(group);
  }
  const saved = localStorage.getItem(NAME_KEY);
  if (saved) $("f-name").value = saved;
}

/** Check each option's value in the chosen rules; reset chips and end. */
function applyPreset() {
  const name = $("f-preset").value;
  const p = presetValues();
  for (const group of document.querySelectorAll("[data-option]")) {
    const radio = document.getElementById(`opt-${group.dataset.option}-${String(p[group.dataset.option])}`);
    if (radio) radio.checked = true;
  }
  $("f-preset-about").textContent = _("From {source}.", { source: _(SOURCES[PRESET_SOURCES[name]]) });
  $("f-chips").value = p.starting_chips;
  const [kind, n] = String(p.end).split(":");
  $("f-end-kind").value = kind;
  if (n) $("f-end-n").value = n;
  endKindChanged();
}

function endKindChanged() {
  const kind = $("f-end-kind").value;
  const needsN = kind === "rounds" || kind === "target";
  $("f-end-n-label").hidden = !needsN;
  $("f-end-n-words").textContent = kind === "target" ? _("Chips to hold") : _("Rounds");
  if (needsN && kind === "target" && Number($("f-end-n").value) < 20) $("f-end-n").value = 2 * (Number($("f-chips").value) || 60);
  showEstimate();
}

/** "About 7 minutes with bots": measured by benchmarks/game_length.py. */
function showEstimate() {
  const kind = $("f-end-kind").value;
  const minutes = estimateMinutes(Number($("f-players").value), kind, Number($("f-end-n").value), Number($("f-chips").value));
  $("f-estimate").textContent = minutes === null
    ? _("No estimate of the length for this target.")
    : ngettext("About {n} minute with bots; people take a little longer.", "About {n} minutes with bots; people take a little longer.", minutes);
}

function buildSeats() {
  const n = Number($("f-players").value);
  const list = $("f-seats");
  const old = [...list.querySelectorAll("li")].map((li) => ({
    kind: li.querySelector(".seat-kind")?.value,
    level: li.querySelector(".seat-level")?.value,
  }));
  clear(list);
  list.append(el("li", {}, el("span", { class: "seat-no" }, "1"), el("span", {}, _("You"))));
  for (let g = 1; g < n; g++) {
    const prev = old[g] || {};
    const kind = el("select", { class: "seat-kind", "aria-label": _("Seat {number}", { number: g + 1 }) },
      el("option", { value: "person" }, _("a person")),
      el("option", { value: "bot" }, _("a bot")));
    kind.value = prev.kind || "bot";
    const level = el("select", { class: "seat-level", "aria-label": _("Seat {number} bot level", { number: g + 1 }) },
      LEVELS.map((lv) => el("option", { value: lv }, levelText(lv))));
    level.value = prev.level || "medium";
    const sync = () => { level.hidden = kind.value !== "bot"; };
    kind.addEventListener("change", sync);
    sync();
    list.append(el("li", {}, el("span", { class: "seat-no" }, String(g + 1)), kind, level));
  }
}

function formBody() {
  const n = Number($("f-players").value);
  const seats = [{ kind: "person" }];
  for (const li of [...$("f-seats").querySelectorAll("li")].slice(1)) {
    const kind = li.querySelector(".seat-kind").value;
    seats.push(kind === "bot" ? { kind, level: li.querySelector(".seat-level").value } : { kind });
  }
  const options = {};
  const preset = presetValues();
  for (const group of document.querySelectorAll("[data-option]")) {
    const name = group.dataset.option;
    const value = group.querySelector("input:checked")?.value;
    if (value === undefined || value === String(preset[name])) continue;
    options[name] = name === "may_stop" ? value === "true" : value;
  }
  const kind = $("f-end-kind").value;
  const end = kind === "rounds" || kind === "target" ? `${kind}:${$("f-end-n").value.trim()}` : kind;
  const chipsText = $("f-chips").value.trim();
  return {
    players: n,
    preset: $("f-preset").value,
    options,
    seats,
    starting_chips: /^\d+$/.test(chipsText) ? Number(chipsText) : chipsText,
    end,
    takeover_after: Number($("f-takeover").value || 0),
    title: $("f-title").value.trim(),
    public: $("f-public").checked,
    hints: $("f-hints").checked,
    // untouched: the server's default (a learning table against bots only)
    learning: $("f-learning").dataset.touched ? $("f-learning").checked : null,
    rated: $("f-rated").checked,
    name: $("f-name").value.trim(),
  };
}

async function create(event) {
  event.preventDefault();
  const errorBox = $("create-error");
  errorBox.textContent = "";
  const body = formBody();
  if (!body.name) {
    errorBox.textContent = _("Write your name (1 to 24 characters) so the others know who you are.");
    $("f-name").focus();
    return;
  }
  localStorage.setItem(NAME_KEY, body.name);
  $("create-button").disabled = true;
  try {
    const data = await readJson(await fetch(`/api/tables?lang=${LANG}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      credentials: "same-origin",
    }));
    keepInvites(data);
    location.assign(data.url);
  } catch (err) {
    errorBox.textContent = err.message;
    $("create-button").disabled = false;
  }
}

/** The table page shows the invitation links while the table waits for its people. */
function keepInvites(data) {
  try {
    localStorage.setItem(`cardroom.invites.${data.table}`, JSON.stringify(data.invites || []));
  } catch {
    // private mode: the table page has no links to show; the seats can still start as bots
  }
}

function tableRow(row, mine) {
  const id = row.table ?? row.id;
  const title = row.title || _("Table {id}", { id });
  const url = row.url || `/t/${encodeURIComponent(id)}`;
  // a program a player brought is marked before anyone sits down with it
  const who = (row.seats || []).map((s, i) => (s.program ? _("{name} (a program)", { name: s.name || _("bot") }) : null)
    || personName(s.name) || (s.kind === "bot" ? botName(row, s, i) : _("free seat"))).join(", ");
  const links = [el("a", { href: url }, mine ? _("Open") : _("Watch or join"))];
  if (!mine) links[0] = el("a", { href: `${url}/watch` }, _("Watch"));
  if (row.status === "over" && !isRealtime(row.game)) {
    links.push(el("a", { href: `/replay/${encodeURIComponent(id)}` }, _("Replay")));
  }
  return el("li", {},
    el("span", { class: "t-title" }, title),
    el("span", { class: `badge status-${row.status}` }, row.status ? _(STATUS_WORDS[row.status] || row.status) : ""),
    who ? el("span", { class: "muted t-who" }, who) : null,
    el("span", { class: "t-links" }, links));
}

async function loadTables() {
  try {
    const data = await readJson(await fetch(`/api/tables?lang=${LANG}`, { credentials: "same-origin" }));
    const mineIds = new Set(((data && data.mine) || []).map((row) => String(row.table ?? row.id)));
    for (const [key, mine] of [["mine", true], ["open", false]]) {
      const list = $(key);
      let rows = (data && data[key]) || [];
      if (!mine) rows = rows.filter((row) => !mineIds.has(String(row.table ?? row.id)));
      // an unchanged list stays as it is: the link being clicked or focused is not replaced
      fillIfChanged(list, JSON.stringify(rows), () => {
        if (!rows.length) list.append(el("li", { class: "muted" }, mine ? _("None yet.") : _("No open table right now.")));
        for (const row of rows) list.append(tableRow(row, mine));
      });
    }
  } catch (err) {
    for (const key of ["mine", "open"]) {
      forgetShown($(key));
      clear($(key)).append(el("li", { class: "error" }, err.message));
    }
  }
}

fillStatic();
applyPreset();
buildSeats();
$("f-players").addEventListener("change", () => { buildSeats(); showEstimate(); });
$("f-chips").addEventListener("input", showEstimate);
$("f-end-n").addEventListener("input", showEstimate);
// the learning box shows the default (on when every other seat is a bot) until it is touched
function syncLearning() {
  const box = $("f-learning");
  if (box.dataset.touched) return;
  box.checked = [...document.querySelectorAll("#f-seats .seat-kind")].every((s) => s.value === "bot");
}
$("f-learning").addEventListener("change", () => { $("f-learning").dataset.touched = "1"; });
$("create-form").addEventListener("change", syncLearning);
syncLearning();
$("f-preset").addEventListener("change", applyPreset);
$("f-end-kind").addEventListener("change", endKindChanged);
$("create-form").addEventListener("submit", create);
loadTables();
setInterval(loadTables, 15000);
