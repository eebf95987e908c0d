// The lobby: create a table (every option), list my tables and the open ones.
import { LANG, _, clear, el, readJson, startI18n } from "./common.js";
import {
  BOARD_SETS, CHOICES, END_KINDS, LEVEL_WORDS, LEVELS, PLAYERS_MAX, PLAYERS_MIN, PRESETS, PRESET_WORDS,
} from "./options.js";

await startI18n();
const $ = (id) => document.getElementById(id);
const NAME_KEY = "cardroom.name";
const STATUS_WORDS = { waiting: N_("waiting"), playing: N_("playing"), "round-over": N_("round over"), over: N_("over") };

function N_(message) {
  return message;
}

function presetValues() {
  return PRESETS[$("f-preset").value] || PRESETS.classic;
}

function fillStatic() {
  for (let n = PLAYERS_MIN; n <= PLAYERS_MAX; n++) {
    $("f-players").append(el("option", { value: n, selected: n === 4 }, String(n)));
  }
  for (const name of Object.keys(PRESETS)) {
    $("f-preset").append(el("option", { value: name }, PRESET_WORDS[name] ? _(PRESET_WORDS[name]) : name));
  }
  for (const [value, words] of END_KINDS) $("f-end-kind").append(el("option", { value }, _(words)));
  const box = $("f-options");
  for (const [name, spec] of Object.entries(CHOICES)) {
    const select = el("select", { id: `opt-${name}`, "data-option": name });
    select.append(el("option", { value: "" }, _("(preset)")));
    for (const [value, words] of spec.values) select.append(el("option", { value }, _(words)));
    box.append(el("label", {}, _(spec.label), " ", el("code", { class: "opt-name" }, name), select));
  }
  const stop = el("select", { id: "opt-may_stop", "data-option": "may_stop" },
    el("option", { value: "" }, _("(preset)")),
    el("option", { value: "false" }, _("false: you must go on while you can")),
    el("option", { value: "true" }, _("true: you may say “without X” holding an X")));
  box.append(el("label", {}, _("May stop"), " ", el("code", { class: "opt-name" }, "may_stop"), stop));
  const saved = localStorage.getItem(NAME_KEY);
  if (saved) $("f-name").value = saved;
}

/** Show the preset's value in each "(preset)" entry; reset chips and end. */
function applyPreset() {
  const p = presetValues();
  for (const select of document.querySelectorAll("[data-option]")) {
    const name = select.dataset.option;
    select.options[0].textContent = _("(preset: {value})", { value: String(p[name]) });
  }
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
  if (needsN && kind === "target" && Number($("f-end-n").value) < 20) $("f-end-n").value = 120;
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
    kind.value = prev.kind || (g === 1 ? "person" : "bot");
    const level = el("select", { class: "seat-level", "aria-label": _("Seat {number} bot level", { number: g + 1 }) },
      LEVELS.map((lv) => el("option", { value: lv }, _(LEVEL_WORDS[lv] || lv))));
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
  for (const select of document.querySelectorAll("[data-option]")) {
    if (!select.value) continue;
    options[select.dataset.option] = select.dataset.option === "may_stop" ? select.value === "true" : select.value;
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
    name: $("f-name").value.trim(),
  };
}

function absolute(url) {
  return new URL(url, location.origin).href;
}

function linkLine(url, label) {
  const href = absolute(url);
  const input = el("input", { class: "link-text", value: href, readonly: true, "aria-label": label });
  const copy = el("button", { type: "button", class: "small" }, _("Copy"));
  copy.addEventListener("click", async () => {
    input.select();
    try {
      await navigator.clipboard.writeText(href);
      copy.textContent = _("Copied");
    } catch {
      document.execCommand?.("copy");
      copy.textContent = _("Selected");
    }
  });
  return el("span", { class: "link-line" }, input, copy);
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
    showCreated(data);
    loadTables();
  } catch (err) {
    errorBox.textContent = err.message;
  } finally {
    $("create-button").disabled = false;
  }
}

function showCreated(data) {
  $("created").hidden = false;
  $("created-go").href = data.url;
  const list = clear($("created-invites"));
  const invites = data.invites || [];
  try {
    localStorage.setItem(`cardroom.invites.${data.table}`, JSON.stringify(invites));
  } catch {
    // private mode: the links are still shown here
  }
  if (!invites.length) list.append(el("li", { class: "muted" }, _("No other person seats: the bots are waiting.")));
  for (const inv of invites) {
    list.append(el("li", {}, el("span", { class: "seat-no" }, _("Seat {number}", { number: Number(inv.seat) + 1 })),
      linkLine(inv.url, _("Invite link for seat {number}", { number: Number(inv.seat) + 1 }))));
  }
  clear($("created-watch")).append(linkLine(data.watch, _("Spectator link")));
  $("created").scrollIntoView({ block: "nearest" });
  $("created-go").focus();
}

function tableRow(row, mine) {
  const id = row.table ?? row.id;
  const title = row.title || _("Table {id}", { id });
  const url = row.url || `/t/${encodeURIComponent(id)}`;
  const who = (row.seats || []).map((s) => s.name || (s.kind === "bot" ? _("bot") : _("free seat"))).join(", ");
  const links = [el("a", { href: url }, mine ? _("Open") : _("Watch or join"))];
  if (!mine) links[0] = el("a", { href: `${url}/watch` }, _("Watch"));
  if (row.status === "over" && (!row.game || row.game === "nain-jaune")) {
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
    for (const [key, mine] of [["mine", true], ["open", false]]) {
      const list = clear($(key));
      const rows = (data && data[key]) || [];
      if (!rows.length) list.append(el("li", { class: "muted" }, mine ? _("None yet.") : _("No open table right now.")));
      for (const row of rows) list.append(tableRow(row, mine));
    }
  } catch (err) {
    for (const key of ["mine", "open"]) clear($(key)).append(el("li", { class: "error" }, err.message));
  }
}

fillStatic();
applyPreset();
buildSeats();
$("f-players").addEventListener("change", buildSeats);
$("f-preset").addEventListener("change", applyPreset);
$("f-end-kind").addEventListener("change", endKindChanged);
$("create-form").addEventListener("submit", create);
loadTables();
setInterval(loadTables, 15000);
