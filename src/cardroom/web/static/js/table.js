// The table page: one websocket, every frame redraws the view; the server decides everything.
import {
  _, cardBack, cardFace, cardImg, cardLabel, cardText, clear, el, ngettext, rankSymbol, rankName,
  secondsUntil, setConn, sortHand, speak, splitCard, startI18n, tableAddress, tableSocket, cardPhrase, rankPhrase
} from "./common.js";
import { LEVEL_WORDS } from "./options.js";
import { mountChat } from "./chat.js";

await startI18n();
const SPEECH_KEY = "cardroom.speech";

const $ = (id) => document.getElementById(id);
const NAME_KEY = "cardroom.name";
const { table: TABLE, watch: WATCH } = tableAddress();

let state = null;
let pending = null;      // client id of the move sent and not answered yet
let sentReady = -1;      // the seq at which we asked for the next round
let nextId = 1;
let announceTimer = null;
let fresh = true;         // no frame seen yet on this connection
const seatNotes = new Map(); // seat -> last public words of that seat this round
const KEY_RANKS = { a: "A", 1: "A", t: "10", 0: "10", j: "J", q: "Q", k: "K" };
for (let r = 2; r <= 9; r++) KEY_RANKS[String(r)] = String(r);

// ---- connection -------------------------------------------------------------------------
const socket = tableSocket(TABLE, WATCH, {
  onFrame,
  onOpening: () => { fresh = true; },
  onClose: () => { pending = null; },
  backoffMs: 400,
});

function send(msg) {
  if (socket.send(msg)) return true;
  showError(_("Not connected: wait a moment, the page reconnects by itself."));
  return false;
}

function act(action) {
  if (!state || pending) return;
  const id = `m${nextId++}`;
  if (send({ type: "act", action, seq: state.seq, id })) {
    pending = id;
    showError("");
    redrawMoves();
  }
}

const takeChat = mountChat(send, { watching: WATCH });

function onFrame(frame) {
  if (takeChat(frame)) return;
  if (frame.type === "state") {
    const prev = state;
    // a frame that only says who is present does not answer the move in flight
    if (!prev || frame.seq !== prev.seq) pending = null;
    state = frame;
    const replaying = fresh || frame.resync;
    if (replaying) {
      // a connection's first frame (and a resync) repeats the round's events: start the log again
      fresh = false;
      clear($("log"));
      seatNotes.clear();
    } else if (prev && prev.round?.k !== frame.round?.k) {
      seatNotes.clear();
    }
    for (const ev of frame.events || []) addEvent(ev, !replaying);
    render();
  } else if (frame.type === "hint") {
    onHint(frame);
  } else if (frame.type === "error") {
    if (frame.ref && frame.ref === hintRef) hintRef = null;
    if (frame.ref && frame.ref === pending) pending = null;
    if (!frame.ref) pending = null;
    showError(frame.message || _("The server refused that."));
    if (state) redrawMoves();
  }
}

function showError(text) {
  $("error").textContent = text || "";
}

// ---- events and announcements -----------------------------------------------------------
const ANNOUNCE = new Set(["without", "takes", "forgot", "grand-opera", "round-over", "game-over", "takeover"]);
const SEAT_NOTE = new Set(["without", "takes", "forgot", "grand-opera", "play"]);

const SPEAK = new Set(["without", "takes", "grand-opera", "round-over", "game-over"]);

function speechOn() {
  return localStorage.getItem(SPEECH_KEY) === "on";
}

function addEvent(ev, live = true) {
  const text = ev.text || ev.kind || "";
  if (!text) return;
  const log = $("log");
  log.append(el("li", { class: `ev ev-${String(ev.kind || "").replace(/[^a-z-]/gi, "")}` }, text));
  while (log.children.length > 200) log.removeChild(log.firstChild);
  log.scrollTop = log.scrollHeight;
  if (ev.seat !== undefined && ev.seat !== null && SEAT_NOTE.has(ev.kind)) {
    seatNotes.set(Number(ev.seat), withoutName(text, Number(ev.seat)));
  }
  if (ANNOUNCE.has(ev.kind)) {
    const box = $("announce");
    box.textContent = text;
    box.classList.add("show");
    clearTimeout(announceTimer);
    announceTimer = setTimeout(() => box.classList.remove("show"), 2600);
  }
  if (live && SPEAK.has(ev.kind) && speechOn()) speak(text);
}

/** "Ann: \"without 5\"" -> "\"without 5\"" on Ann's own seat. */
function withoutName(text, g) {
  const name = state ? seatName(g) : "";
  if (name && text.startsWith(`${name}: `)) return text.slice(name.length + 2);
  if (name && text.startsWith(`${name} : `)) return text.slice(name.length + 3);
  if (name && text.startsWith(`${name} `)) return text.slice(name.length + 1);
  return text;
}

// ---- drawing ----------------------------------------------------------------------------
function seatName(g) {
  const s = state.seats.find((x) => x.seat === g);
  if (!s) return _("Seat {number}", { number: g + 1 });
  return s.name || (s.kind === "bot" ? _("Bot {number}", { number: g + 1 }) : _("Seat {number}", { number: g + 1 }));
}

function render() {
  document.body.dataset.seq = String(state.seq);
  document.body.dataset.status = state.status;
  const title = state.title || _("Table {id}", { id: TABLE });
  $("table-title").textContent = WATCH || state.you === null ? _("{title} (watching)", { title }) : title;
  document.title = `cardroom: ${title}`;
  // keep the keyboard where it was: redrawing replaces the buttons
  const active = document.activeElement;
  const focusCard = active?.dataset?.card;
  const focusId = active?.id;
  const inHand = Boolean(active?.closest?.("#hand"));
  renderStatus();
  renderBoard();
  renderSeats();
  renderCenter();
  renderActions();
  renderHand();
  renderResult();
  renderHint();
  restoreFocus(focusCard, focusId, inHand);
}

/** Redraw the hand and the move buttons, keeping the keyboard focus. */
function redrawMoves() {
  const active = document.activeElement;
  const inHand = Boolean(active?.closest?.("#hand"));
  const id = active?.id;
  renderHand();
  renderActions();
  renderHint();
  restoreFocus(active?.dataset?.card, id, inHand);
}

function restoreFocus(card, id, inHand) {
  if (card) {
    const same = document.querySelector(`#hand button[data-card="${CSS.escape(card)}"]`);
    if (same) { same.focus(); return; }
  }
  if (inHand) {
    const next = document.querySelector("#hand button.legal") || document.querySelector("#hand button");
    if (next) { next.focus(); return; }
  }
  if (id && !document.activeElement?.id) document.getElementById(id)?.focus();
}

function renderStatus() {
  const r = state.round;
  let text = "";
  const you = state.you;
  if (state.status === "waiting") {
    const missing = state.seats.filter((s) => s.kind === "person" && !s.joined).length;
    text = missing
      ? ngettext("Waiting for {n} player to take their seat.", "Waiting for {n} players to take their seat.", missing)
      : _("Starting…");
  } else if (state.status === "over") {
    text = _("The game is over.");
  } else if (state.status === "round-over") {
    text = r && r.winner !== null && r.winner !== undefined
      ? _("{name} wins the round.", { name: seatName(r.winner) }) : _("The round is over.");
  } else if (r) {
    if (r.to_act === you) text = _("Your turn.");
    else if (r.to_act !== null && r.to_act !== undefined) text = _("{name} to play.", { name: seatName(r.to_act) });
  }
  const d = state.deadline;
  // a connected page is its seat's person: no bot takes over while it is open
  if (d && d.at && !(d.kind === "takeover" && d.seat === you && socket.connected())) {
    const left = secondsUntil(d.at);
    if (d.kind === "takeover") text += " " + _("A bot plays for {name} in {n} s.", { name: seatName(d.seat), n: left });
    else if (d.kind === "next-round") text += " " + _("Next round in {n} s.", { n: left });
    else text += " " + _("{n} s left.", { n: left });
  }
  $("status-line").textContent = text;
}

function renderBoard() {
  const box = clear($("board"));
  const cards = state.round?.board || (state.rules?.board_cards || []).map((card) => ({ card }));
  cards.forEach((b, i) => {
    const chips = b.chips ?? null;
    box.append(el("div", { class: `box${i === 4 ? " dwarf" : ""}`, role: "group", "aria-label": _("{card} box", { card: cardPhrase(b.card) }) },
      cardFace(b.card, "small"),
      el("span", { class: "chips" }, chips === null ? "–" : String(chips),
        el("span", { class: "sr-only" }, " " + _("chips"))),
      el("span", { class: "box-name", "aria-hidden": "true" }, i === 4 ? _("Yellow Dwarf") : cardText(b.card))));
  });
}

function renderSeats() {
  const list = clear($("seats"));
  const r = state.round;
  let seats = [...state.seats].sort((a, b) => a.seat - b.seat);
  if (state.rules?.direction === "anticlockwise") seats = seats.reverse();
  list.dataset.direction = state.rules?.direction || "clockwise";
  for (const s of seats) {
    const g = s.seat;
    const count = r?.hand_sizes?.[String(g)];
    const chips = r?.chips?.[String(g)] ?? s.chips;
    const classes = ["seat"];
    if (r && r.to_act === g && state.status === "playing") classes.push("to-act");
    if (g === state.you) classes.push("you");
    if (r && s.in_round === false) classes.push("out");
    if (r && r.winner === g) classes.push("winner");
    const tags = [];
    if (g === state.you) tags.push(_("you"));
    if (s.kind === "bot") tags.push(s.level ? _("bot {level}", { level: _(LEVEL_WORDS[s.level] || s.level) }) : _("bot"));
    else if (s.bot_playing) tags.push(_("bot playing"));
    else if (s.kind === "person" && !s.joined) tags.push(_("free seat"));
    else if (s.kind === "person" && s.present === false && !(g === state.you && socket.connected())) tags.push(_("away"));
    if (r && r.dealer === g) tags.push(_("dealer"));
    const note = seatNotes.get(g);
    list.append(el("li", { class: classes.join(" "), "data-seat": g, "aria-current": classes.includes("to-act") ? "true" : null },
      el("span", { class: "seat-head" },
        classes.includes("to-act") ? el("span", { class: "turn-mark", role: "img", "aria-label": _("to play") }, "▶") : null,
        el("span", { class: "seat-name" }, seatName(g))),
      el("span", { class: "seat-tags muted" }, tags.join(" · ")),
      el("span", { class: "seat-stats" },
        el("span", { class: "chip-count" }, chips === null || chips === undefined ? "–" : ngettext("{n} chip", "{n} chips", chips)),
        count !== undefined
          ? el("span", { class: "card-count" }, cardBack("tiny"), ` ${count}`,
            el("span", { class: "sr-only" }, " " + ngettext("card", "cards", count)))
          : null),
      note && state.status === "playing" ? el("span", { class: "seat-note" }, note) : null));
  }
}

function renderCenter() {
  const r = state.round;
  const seq = clear($("sequence"));
  if (!r) {
    $("need").textContent = "";
    $("talon").textContent = "";
    seq.append(el("span", { class: "muted" }, state.status === "waiting" ? _("The game has not started.") : ""));
    return;
  }
  if (state.status !== "playing") {
    $("need").textContent = "";
    $("talon").textContent = "";
    const played = (r.played || []).length;
    seq.append(el("span", { class: "muted" }, ngettext("{n} card was played this round.", "{n} cards were played this round.", played)));
    return;
  }
  $("need").textContent = r.need ? _("Next card: {rank}", { rank: rankName(rankSymbol(r.need)) }) : _("Next card: any (a new sequence)");
  $("talon").textContent = r.talon_size !== undefined ? ngettext("Talon: {n} card, face down", "Talon: {n} cards, face down", r.talon_size) : "";
  const cards = r.sequence || [];
  if (!cards.length) seq.append(el("span", { class: "muted" }, _("No card on the table yet.")));
  cards.forEach((c, i) => seq.append(cardFace(c, i === cards.length - 1 ? "last" : "")));
}

function legal() {
  if (!state || !state.round || state.you === null || pending) return [];
  return state.round.legal || [];
}

function renderActions() {
  if (!state) return;
  const you = state.you;
  const me = state.seats.find((s) => s.seat === you);
  const mustJoin = you !== null && you !== undefined && me && me.kind === "person" && !me.joined;
  if (mustJoin && $("join-name")) return; // keep what is being typed
  const box = clear($("actions"));
  if (you === null || you === undefined) {
    box.append(el("p", { class: "muted" }, _("You are watching: you see what every player sees, no hand.")));
  } else if (mustJoin) {
    const input = el("input", { id: "join-name", maxlength: 24, required: true, value: localStorage.getItem(NAME_KEY) || "", "aria-label": _("Your name") });
    const form = el("form", { class: "join-form" }, el("label", { for: "join-name" }, _("Your name") + " "), input,
      el("button", { type: "submit", class: "primary" }, _("Take seat {number}", { number: you + 1 })));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const name = input.value.trim();
      if (!name) { showError(_("Write your name (1 to 24 characters).")); return; }
      localStorage.setItem(NAME_KEY, name);
      send({ type: "join", name });
    });
    box.append(form);
    return;
  }
  if (state.status === "waiting" && you === state.creator) {
    box.append(el("button", { type: "button", class: "primary", id: "start-button", onclick: () => send({ type: "start" }) },
      _("Start now (free seats become bots)")));
    const saved = sessionOrLocalInvites();
    if (saved.length) {
      box.append(el("p", { class: "muted wide" }, _("Send each friend their own link: it gives them their seat.")),
        el("ul", { class: "invites" }, saved.map((inv) => el("li", {}, _("Seat {number}", { number: Number(inv.seat) + 1 }) + " ",
          el("input", { class: "link-text", readonly: true, value: new URL(inv.url, location.origin).href, "aria-label": _("Invite link for seat {number}", { number: Number(inv.seat) + 1 }) })))));
    }
  }
  if (state.status === "round-over" && you !== null) {
    const asked = sentReady === state.seq || (state.ready || []).includes(you);
    box.append(el("button", { type: "button", class: "primary", id: "ready-button", disabled: asked, onclick: ready },
      asked ? _("Waiting for the others…") : _("Next round (n)")));
  }
  const moves = legal();
  const r = state.round;
  if (moves.includes("claim")) {
    const card = r.pending_claim;
    box.append(el("button", { type: "button", class: "claim", id: "claim-button", onclick: () => act("claim") },
      card ? _("Claim the {card} box (c)", { card: cardPhrase(card) }) : _("Claim the box (c)")),
      el("span", { class: "deadline" }, _("Claim before your next card.")));
  } else if (r && r.pending_claim && state.status === "playing") {
    box.append(el("span", { class: "deadline" }, _("Unclaimed: {card}. Claim before your next card.", { card: cardPhrase(r.pending_claim) })));
  }
  if (moves.includes("pass")) {
    const only = !moves.some((m) => m !== "pass" && m !== "claim");
    const lastCard = moves.includes("claim") && Array.isArray(r.hand) && r.hand.length === 0;
    const words = lastCard ? _("End the round without claiming") : r.need ? withoutWords(r.need) : _("Pass");
    box.append(el("button", { type: "button", class: only ? "pass primary" : "pass", id: "pass-button", onclick: () => act("pass") },
      `${words} (p)`));
    if (!only) box.append(el("span", { class: "muted" }, _("or play a highlighted card")));
  }
}

/** "Without 7", "Without queen" (« Sans dame », "Heb frenhines"). */
function withoutWords(need) {
  const special = { 1: _("Without ace"), 11: _("Without jack"), 12: _("Without queen"), 13: _("Without king") };
  return special[need] || _("Without {rank}", { rank: need });
}

function sessionOrLocalInvites() {
  try {
    return JSON.parse(localStorage.getItem(`cardroom.invites.${TABLE}`) || "[]");
  } catch {
    return [];
  }
}

function ready() {
  if (send({ type: "ready" })) {
    sentReady = state.seq;
    renderActions();
  }
}

function renderHand() {
  const box = clear($("hand"));
  const r = state?.round;
  const section = box.parentElement;
  if (!state || state.you === null || !r || !Array.isArray(r.hand)) {
    section.hidden = true;
    return;
  }
  section.hidden = false;
  const moves = new Set(legal());
  const hand = sortHand(r.hand);
  if (!hand.length) box.append(el("span", { class: "muted" }, _("No card left.")));
  for (const code of hand) {
    const ok = moves.has(code);
    const button = el("button", {
      type: "button",
      class: `card play${ok ? " legal" : ""}`,
      "data-card": code,
      "aria-label": ok ? cardLabel(code) : _("{card} (cannot be played now)", { card: cardPhrase(code) }),
      "aria-disabled": ok ? null : "true",
      title: cardText(code),
    }, cardImg(code));
    button.addEventListener("click", () => {
      if (ok) act(code);
      else if (state.round.to_act === state.you && !pending) showError(_("The {card} cannot be played now.", { card: cardPhrase(code) }));
    });
    box.append(button);
  }
  box.classList.toggle("my-turn", moves.size > 0);
  box.setAttribute("aria-label", moves.size ? _("Your hand: your turn") : _("Your hand"));
}

function renderResult() {
  const box = $("result");
  clear(box);
  const res = state.last_result;
  const game = state.game_result;
  if (!res && !game) { box.hidden = true; return; }
  box.hidden = false;
  if (res && (state.status === "round-over" || state.status === "over" || state.status === "playing")) {
    box.append(el("h2", {}, state.status === "playing" ? _("Last round") : _("Settlement of the round")));
    if (res.winner !== null && res.winner !== undefined) {
      const name = seatName(res.winner);
      box.append(el("p", {}, res.grand_opera ? _("{name} went out with a Grand Opéra!", { name }) : _("{name} went out.", { name })));
    }
    const table = el("table", { class: "settlement" },
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, _("Player")), el("th", { scope: "col" }, _("Cards left")),
        el("th", { scope: "col" }, _("Won or lost")), el("th", { scope: "col" }, _("Chips")))),
      el("tbody", {}, (res.rows || []).map((row) => el("tr", { class: row.seat === res.winner ? "winner" : null },
        el("th", { scope: "row" }, row.name || seatName(row.seat)),
        el("td", {}, String(row.cards_left ?? "")),
        el("td", {}, signed(row.paid)),
        el("td", {}, String(row.chips ?? ""))))));
    box.append(table);
    if (Array.isArray(res.boxes) && res.boxes.length) {
      box.append(el("p", { class: "muted" }, _("Boxes after the round:") + " ",
        res.boxes.map((b) => (typeof b === "object" ? `${cardText(b.card)} ${b.after ?? b.chips}` : String(b))).join(", ")));
    }
  }
  if (game) {
    const winners = (game.winners || []).map(seatName);
    const names = winners.length > 1 ? _("{first} and {last}", { first: winners.slice(0, -1).join(", "), last: winners.at(-1) }) : winners.join("");
    box.append(el("h2", {}, _("The game is over")),
      el("p", { class: "game-winner" }, names
        ? (winners.length > 1 ? _("{names} share the win.", { names }) : _("{name} wins.", { name: names }))
        : _("No winner.")),
      game.reason ? el("p", { class: "muted" }, game.reason) : null,
      el("p", {}, el("a", { class: "button", href: `/t/${encodeURIComponent(TABLE)}/record`, download: `nain-jaune-${TABLE}.json` }, _("Download the record (for cardroom replay)")),
        " ", el("a", { class: "button", href: `/replay/${encodeURIComponent(TABLE)}` }, _("Watch the replay"))));
  }
}

function signed(n) {
  if (n === null || n === undefined) return "";
  const v = Number(n);
  return v > 0 ? `+${v}` : String(v);
}

// ---- hints (at tables whose settings allow them) ------------------------------------------
let hint = null;     // the server's hint frame for the state on screen
let hintRef = null;  // the id of the hint asked and not answered yet

function canHint() {
  return Boolean(state && state.hints && state.status === "playing" && legal().length);
}

function askHint() {
  if (!canHint()) { showError(_("A hint is for your own move: wait for your turn.")); return; }
  if (hintRef || (hint && hint.seq === state.seq)) return;
  const id = `h${nextId++}`;
  if (send({ type: "hint", seq: state.seq, id })) {
    hintRef = id;
    showError("");
    renderHint();
  }
}

function onHint(frame) {
  if (frame.ref === hintRef) hintRef = null;
  if (state && frame.seq === state.seq) hint = frame;
  renderHint();
}

/** The "Hint (i)" button, the suggestion next to the hand, the suggested move highlighted. */
function renderHint() {
  const line = $("hint-line");
  // a state frame that moves the table on takes the suggestion away
  if (hint && hint.seq !== state?.seq) hint = null;
  $("hint-button")?.remove();
  if (canHint()) {
    $("actions").append(el("button", { type: "button", id: "hint-button", class: "hint-button", disabled: Boolean(hintRef || hint), onclick: askHint },
      hintRef ? _("Thinking…") : _("Hint (i)")));
  }
  line.textContent = hint ? _("Hint: {text}", { text: hint.text }) : "";
  line.hidden = !hint;
  for (const b of document.querySelectorAll(".hinted")) b.classList.remove("hinted");
  if (!hint) return;
  const target = hint.action === "pass" ? $("pass-button")
    : hint.action === "claim" ? $("claim-button")
      : document.querySelector(`#hand button[data-card="${CSS.escape(String(hint.action))}"]`);
  target?.classList.add("hinted");
}

// ---- keyboard ---------------------------------------------------------------------------
function handButtons() {
  return [...document.querySelectorAll("#hand button.card")];
}

function onKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const tag = document.activeElement?.tagName;
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
  const key = e.key.toLowerCase();
  if (key === "?") { toggleHelp(); e.preventDefault(); return; }
  if (!state) return;
  if (key === "arrowleft" || key === "arrowright") {
    const buttons = handButtons();
    if (!buttons.length) return;
    const i = buttons.indexOf(document.activeElement);
    const step = key === "arrowright" ? 1 : -1;
    const next = i < 0 ? (step > 0 ? 0 : buttons.length - 1) : (i + step + buttons.length) % buttons.length;
    buttons[next].focus();
    e.preventDefault();
    return;
  }
  const moves = legal();
  if (key === "i" && state.hints) { askHint(); e.preventDefault(); return; }
  if (key === "p" && moves.includes("pass")) { act("pass"); e.preventDefault(); return; }
  if (key === "c" && moves.includes("claim")) { act("claim"); e.preventDefault(); return; }
  if (key === "n" && state.status === "round-over") { ready(); e.preventDefault(); return; }
  const rank = KEY_RANKS[key];
  if (!rank) return;
  const cards = moves.filter((m) => m !== "pass" && m !== "claim" && splitCard(m).rank === rank);
  if (cards.length === 1) {
    act(cards[0]);
  } else if (cards.length > 1) {
    const buttons = handButtons().filter((b) => cards.includes(b.dataset.card));
    const i = buttons.indexOf(document.activeElement);
    buttons[(i + 1) % buttons.length].focus();
  } else if (moves.length) {
    showError(_("No {rank} can be played now.", { rank: rankPhrase(rank) }));
  }
  e.preventDefault();
}

function toggleHelp() {
  const help = $("help");
  help.hidden = !help.hidden;
  $("help-button").setAttribute("aria-expanded", String(!help.hidden));
}

// ---- start ------------------------------------------------------------------------------
$("help-button").addEventListener("click", toggleHelp);
const speechBox = $("speech-toggle");
if (speechBox) {
  speechBox.checked = speechOn();
  speechBox.addEventListener("change", () => {
    localStorage.setItem(SPEECH_KEY, speechBox.checked ? "on" : "off");
    if (speechBox.checked) speak(_("Calls will be spoken."));
  });
}
document.addEventListener("keydown", onKey);
setInterval(() => { if (state && state.deadline) renderStatus(); }, 1000);
if (!TABLE) setConn(_("no table in this address"), "bad");
else socket.connect();
