// The table page: one websocket; every frame redraws the view (boxes it leaves unchanged stay); the server decides everything.
import {
  _, cardBack, cardFace, cardImg, cardLabel, cardText, clear, el, ngettext, rankSymbol, rankName,
  personName, postJson, fillIfChanged, fillRatingLine, forgetShown, secondsUntil, setConn, settlementTable, sortHand, speak, splitCard, startI18n, tableAddress, tableSocket, cardPhrase, rankPhrase
} from "./common.js";
import { LEVEL_WORDS, TURN_BASED } from "./games.js";
import { mountChat } from "./chat.js";

await startI18n();
const SPEECH_KEY = "cardroom.speech";

const $ = (id) => document.getElementById(id);
const NAME_KEY = "cardroom.name";
const { table: TABLE, watch: WATCH } = tableAddress();

let state = null;
let leftSeat = null; // this browser's seat, when its person left the table (then watching)
let pending = null;      // client id of the move sent and not answered yet
let sentReady = -1;      // the seq at which we asked for the next round
let nextId = 1;
let announceTimer = null;
let fresh = true;         // no frame seen yet on this connection
const seatNotes = new Map(); // seat -> last public words of that seat this round
const awayNoted = new Set(); // person seats the table talk said are away (no bot took over since)
const seenHere = new Set();  // person seats this page saw present (one never come is not "away")
const KEY_RANKS = { a: "A", 1: "A", t: "10", 0: "10", j: "J", q: "Q", k: "K" };
// keyboard hints ("(p)") only where there is a keyboard and a mouse: not on a touch phone
const FINE = matchMedia("(pointer: fine)");
const key = (letter) => (FINE.matches ? ` (${letter})` : "");
/** A button's words without their key "(c)" where there is no keyboard. */
document.body.classList.toggle("no-keys", !FINE.matches);
FINE.addEventListener?.("change", () => document.body.classList.toggle("no-keys", !FINE.matches));
const keyless = (text) => (FINE.matches ? text : text.replace(/\s*\([a-z]\)\s*$/i, ""));
let autoRematch = false;  // asked once for the rematch this page lands in
let leaving = false;      // the "leave the table?" confirmation is open
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
    // a person who left the table watches it: a bot plays their seat (the server refuses their
    // moves), so the page shows it as a watcher's, saying why
    leftSeat = frame.you !== null && frame.you !== undefined && (frame.left || []).includes(frame.you) ? frame.you : null;
    if (leftSeat !== null) state = { ...frame, you: null };
    const replaying = fresh || frame.resync;
    if (replaying) {
      // a connection's first frame (and a resync) repeats the round's events: start the round's
      // part of the log again (earlier rounds stay folded); the connection error goes
      fresh = false;
      clearCurrentRound();
      seatNotes.clear();
      explained.clear();
      showError("");
    } else if (prev && prev.round?.k !== frame.round?.k) {
      seatNotes.clear();
    }
    for (const ev of frame.events || []) addEvent(ev, !replaying);
    if (replaying) awayNoted.clear();
    presenceLines();
    if (replaying) earlierRounds();
    render();
  } else if (frame.type === "history") {
    onHistory(frame);
  } else if (frame.type === "hint") {
    onHint(frame);
  } else if (frame.type === "error") {
    if (frame.ref && frame.ref === hintRef) hintRef = null;
    if (frame.ref && frame.ref === pending) pending = null;
    if (!frame.ref) pending = null;
    const why = state?.learning && EXPLAIN_REFUSAL[frame.code] ? ` ${EXPLAIN_REFUSAL[frame.code]()}` : "";
    showError((frame.message || _("The server refused that.")) + why);
    if (state) redrawMoves();
  }
}

function showError(text) {
  $("error").textContent = text || "";
}

// ---- events and announcements -----------------------------------------------------------
const ANNOUNCE = new Set(["without", "takes", "forgot", "grand-opera", "round-over", "game-over", "takeover"]);
const SEAT_NOTE = new Set(["without", "takes", "forgot", "grand-opera", "play"]);

// a learning table explains each kind of event (the first time it happens in a round) and
// each refusal in one sentence
const EXPLAIN = {
  stakes: () => _("Before every round each player puts 1, 2, 3, 4 and 5 chips on the five boxes (15 chips)."),
  takes: () => _("Playing a board card and announcing it (“… who takes”) wins the chips of its box."),
  forgot: () => _("A board card played without announcing it leaves its box as it is."),
  without: () => _("Saying “without” means you hold no card of the next rank: the next player may play it."),
  "next-rank": () => _("Nobody had that rank: the last one to play goes on with the rank after it."),
  "new-sequence": () => _("A new sequence starts with any card: after a king, or when nobody can go on."),
  out: () => _("The first player with no card left wins the round."),
  paid: () => _("At the end of the round each player pays the winner for the cards left in hand."),
  doubled: () => _("A board card still held at the end doubles its box: its holder pays as many chips as it holds."),
  "grand-opera": () => _("Playing all one's cards in one turn is a Grand Opéra: it sweeps every box."),
};
const EXPLAIN_REFUSAL = {
  illegal: () => _("Each card must be the rank after the last one played, in any suit; with none, say “without”."),
  "not-your-turn": () => _("Wait for your turn: the players play one after the other."),
};
const explained = new Set();  // the kinds explained this round

const SPEAK = new Set(["without", "takes", "grand-opera", "round-over", "game-over"]);

function speechOn() {
  return localStorage.getItem(SPEECH_KEY) === "on";
}

const ROUND_LINES = 400;  // lines kept per round
const FOLDED_ROUNDS = 60; // earlier rounds kept (folded) on the page

/** The lines of the round being played (earlier rounds are folded <details> above them). */
function clearCurrentRound() {
  for (const li of [...$("log").children]) if (!li.classList.contains("round-fold")) li.remove();
}

let extraFolds = 0; // folds asked for with "Earlier lines", kept beyond FOLDED_ROUNDS

/** A folded "Round n" line, filled from the server when opened. */
function fold(r) {
  const details = el("details", {}, el("summary", {}, _("Round {number}", { number: r + 1 })), el("ol", { class: "log-round" }));
  details.addEventListener("toggle", () => {
    if (details.open && !details.querySelector(".log-round li")) send({ type: "history", round: r, id: `r${r}` });
  });
  return el("li", { class: "round-fold", "data-round": String(r) }, details);
}

/** After a (re)load: one folded line per earlier round, filled from the server when opened. */
function earlierRounds() {
  const log = $("log");
  const k = state.round?.k ?? 0;
  const have = new Set([...log.querySelectorAll(".round-fold")].map((li) => li.dataset.round));
  const first = Math.max(0, k - FOLDED_ROUNDS - extraFolds);
  for (let r = first; r < k; r++) {
    if (have.has(String(r))) continue;
    log.insertBefore(fold(r), [...log.children].find((c) => !c.classList.contains("round-fold")) || null);
  }
  showEarlier();
}

/** The first round the log shows (folded or being played). */
function firstRoundShown() {
  const first = $("log").querySelector(".round-fold");
  const r = first ? Number(first.dataset.round) : NaN;
  return Number.isFinite(r) && first.dataset.round !== "" ? r : state?.round?.k ?? 0;
}

/** "Earlier lines": shown while rounds before the first one shown were played. */
function showEarlier() {
  $("log-earlier").hidden = !(firstRoundShown() > 0);
}

$("log-earlier").addEventListener("click", () => {
  const log = $("log");
  const oldest = firstRoundShown();
  const from = Math.max(0, oldest - FOLDED_ROUNDS);
  for (let r = oldest - 1; r >= from; r--) log.insertBefore(fold(r), log.firstChild);
  extraFolds += oldest - from;
  showEarlier();
  log.scrollTop = 0;
});

/** An earlier round's lines, asked for by opening its fold. */
function onHistory(frame) {
  const fold = document.querySelector(`#log .round-fold[data-round="${Number(frame.round)}"] .log-round`);
  if (!fold || fold.children.length) return;
  for (const ev of frame.events || []) {
    if (Array.isArray(ev.passed) && ev.passed.length) {
      while (fold.lastElementChild?.classList.contains("ev-without")) fold.lastElementChild.remove();
    }
    fold.append(el("li", { class: `ev ev-${String(ev.kind || "").replace(/[^a-z-]/gi, "")}` }, ev.text || ""));
  }
}

/** Fold the lines of the round that ended under one "Round n" line the player can open. */
function foldRound() {
  const log = $("log");
  const lines = [...log.children].filter((li) => !li.classList.contains("round-fold"));
  if (!lines.length) return;
  const first = lines[0].textContent;  // the round's title line becomes the fold's summary
  lines[0].remove();
  const inner = el("ol", { class: "log-round" });
  for (const li of lines.slice(1)) inner.append(li);
  const k = state.round?.k;
  log.append(el("li", { class: "round-fold", "data-round": k === undefined || k === null ? "" : String(k - 1) },
    el("details", {}, el("summary", {}, first), inner)));
  const folds = log.querySelectorAll(".round-fold");
  if (folds.length > FOLDED_ROUNDS + extraFolds) folds[0].remove();
  showEarlier();
}

/** Scroll the log to its last line with the top line whole (never half hidden under the
 * heading): a little room under the last line makes the top edge fall between two lines. The
 * log keeps its height, so nothing beside or under it moves. */
function fitLog(log) {
  log.style.paddingBottom = "";
  const cut = log.scrollHeight - log.clientHeight;  // scrollTop at the bottom
  if (cut > 0) {
    let top = null;
    for (let li = log.lastElementChild; li && li.offsetTop >= cut; li = li.previousElementSibling) top = li.offsetTop;
    if (top !== null && top > cut) log.style.paddingBottom = `${top - cut}px`;
  }
  log.scrollTop = log.scrollHeight;
}

function addEvent(ev, live = true) {
  const text = ev.text || ev.kind || "";
  if (!text) return;
  const log = $("log");
  if (ev.kind === "round" && live) foldRound();
  if (Array.isArray(ev.passed) && ev.passed.length) {
    // a run of "without" calls becomes one line: drop the single calls it sums up
    let last = log.lastElementChild;
    while (last && last.classList.contains("ev-without")) {
      const prev = last.previousElementSibling;
      last.remove();
      last = prev;
    }
  }
  if (ev.kind === "round") explained.clear();
  const why = state?.learning && EXPLAIN[ev.kind] && !explained.has(ev.kind) ? EXPLAIN[ev.kind]() : null;
  if (why) explained.add(ev.kind);
  log.append(el("li", { class: `ev ev-${String(ev.kind || "").replace(/[^a-z-]/gi, "")}` }, text,
    why ? el("span", { class: "explain" }, why) : null));
  const lines = [...log.children].filter((li) => !li.classList.contains("round-fold"));
  if (lines.length > ROUND_LINES) lines[0].remove();
  fitLog(log);
  if (ev.seat !== undefined && ev.seat !== null && SEAT_NOTE.has(ev.kind)) {
    seatNotes.set(Number(ev.seat), withoutName(text, Number(ev.seat)));
  }
  if (live && ANNOUNCE.has(ev.kind)) {
    const box = $("announce");
    box.textContent = text;
    // over the board, just under the status line (however many lines it takes), never over it
    const line = $("status-line");
    box.style.top = `${line.offsetTop + line.offsetHeight}px`;
    box.classList.add("show");
    clearTimeout(announceTimer);
    announceTimer = setTimeout(() => box.classList.remove("show"), 2600);
  }
  if (live && SPEAK.has(ev.kind) && speechOn()) speak(text);
}

/** A line of the table talk the page words itself (a person away, or back before a bot took
 * the seat): the server logs takeovers and returns, not a closed page. */
function addNote(text) {
  const log = $("log");
  log.append(el("li", { class: "ev ev-note" }, text));
  fitLog(log);
}

/** Say in the table talk who went away and who came back before a bot took over, as the
 * frame's seats tell; a seat a bot took over is told by the log's own lines. */
function presenceLines() {
  if (state.status !== "playing" && state.status !== "round-over") {
    awayNoted.clear();
    return;
  }
  for (const s of state.seats) {
    if (s.kind !== "person" || !s.joined) continue;
    const g = s.seat;
    const here = s.present !== false || (g === state.you && socket.connected());
    if (here) seenHere.add(g);
    if (!here && !s.bot_playing && seenHere.has(g) && !awayNoted.has(g)) {
      awayNoted.add(g);
      addNote(_("{name} is away", { name: seatName(g) }));
    } else if (awayNoted.has(g) && (here || s.bot_playing)) {
      awayNoted.delete(g);
      if (here && !s.bot_playing) addNote(_("{name} is back", { name: seatName(g) }));
    }
  }
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
  // the names cardroom gives (stored in English) in the page's words, as the log says them
  if (s.kind === "bot" && s.name === `Bot ${g + 1}`) return _("Bot {number}", { number: g + 1 });
  if (s.name === `Seat ${g + 1}`) return _("Seat {number}", { number: g + 1 });
  return personName(s.name) || (s.kind === "bot" ? _("Bot {number}", { number: g + 1 }) : _("Seat {number}", { number: g + 1 }));
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
  renderLeave();
  holdHandHeight();
  restoreFocus(focusCard, focusId, inHand);
  // Play again pressed by another player: every person who was at the table lands in their seat
  const me = state.you;
  if (state.rematch && !WATCH && me !== null && me !== undefined && !(state.left || []).includes(me)) playAgain(true);
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
    if (r.to_act === you && you !== null) text = _("Your turn.");
    else if (r.to_act !== null && r.to_act !== undefined) text = _("{name} to play.", { name: seatName(r.to_act) });
  }
  if (leftSeat !== null) {
    const why = _("You left this table: a bot plays your seat to the end, and you are watching.");
    text = text ? why + " " + text : why;
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
        chips === null ? null : el("span", { class: "sr-only" }, " " + ngettext("chip", "chips", Number(chips)))),
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
    if (g === leftSeat) tags.push(_("you (left)"));
    if (s.program) { classes.push("program"); tags.push(_("a program a player brought")); }
    if (s.kind === "bot") tags.push(s.level ? _("bot {level}", { level: _(LEVEL_WORDS[s.level] || s.level) }) : _("bot"));
    else if (s.bot_playing) { /* its name says it: "Bot (for Ann)" */ }
    else if (s.kind === "person" && !s.joined) tags.push(_("free seat"));
    else if (s.kind === "person" && s.present === false && !(g === state.you && socket.connected())) tags.push(_("away"));
    if (r && r.dealer === g) tags.push(_("dealer"));
    const note = seatNotes.get(g);
    list.append(el("li", { class: classes.join(" "), "data-seat": g, "aria-current": classes.includes("to-act") ? "true" : null },
      el("span", { class: "seat-head" },
        classes.includes("to-act") ? el("span", { class: "turn-mark", role: "img", "aria-label": _("to play") }, "▶") : null,
        // a bot playing a person's seat plays under its own name: "Bot (for Ann)"
        el("span", { class: "seat-name" }, s.kind === "person" && s.bot_playing ? _("Bot (for {name})", { name: seatName(g) }) : seatName(g))),
      el("span", { class: "seat-tags muted" }, tags.join(" · ")),
      el("span", { class: "seat-stats" },
        el("span", { class: "chip-count" }, chips === null || chips === undefined ? "–" : ngettext("{n} chip", "{n} chips", chips)),
        count !== undefined
          ? el("span", { class: "card-count" }, cardBack("tiny"), ` ${count}`,
            el("span", { class: "sr-only" }, " " + ngettext("card", "cards", count)))
          : null),
      // always there (empty or not): a call appearing does not push the board and hand down
      el("span", { class: "seat-note" }, note && state.status === "playing" ? note : "")));
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
  const moves = legal();
  const r = state.round;
  const asked = readyAsked();
  // what the box shows: a frame that changes none of it (another player ready, someone back)
  // leaves it, and a button being pressed, as they are; the join form keeps what is typed
  const key = mustJoin ? "join" : JSON.stringify([you, state.status, state.creator, asked, moves,
    r && r.pending_claim, r && r.need, r && Array.isArray(r.hand) && r.hand.length === 0,
    state.status === "waiting" ? sessionOrLocalInvites() : null]);
  fillIfChanged($("actions"), key, () => fillActions($("actions"), you, mustJoin, moves, r));
}

function fillActions(box, you, mustJoin, moves, r) {
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
    // who plays here is told before sitting down: a program a player brought
    for (const s of state.seats.filter((x) => x.program && x.seat !== you && x.joined)) {
      box.append(el("p", { class: "program-note", role: "note" }, _("{name} is a program a player brought, not a person.", { name: seatName(s.seat) })));
    }
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
    // the link for people who only watch (it opens no seat)
    box.append(el("p", { class: "muted wide" }, _("To let others watch, send the watch link: it opens no seat.")),
      el("p", { class: "invites" }, el("input", { class: "link-text", id: "watch-link", readonly: true,
        value: new URL(`/t/${encodeURIComponent(TABLE)}/watch`, location.origin).href, "aria-label": _("Watch link") })));
  }
  if (state.status === "round-over" && you !== null) box.append(readyButton());
  if (moves.includes("claim")) {
    const card = r.pending_claim;
    box.append(el("button", { type: "button", class: "claim", id: "claim-button", onclick: () => act("claim") },
      keyless(card ? _("Claim the {card} box (c)", { card: cardPhrase(card) }) : _("Claim the box (c)"))),
      el("span", { class: "deadline" }, _("Claim before your next card.")));
  } else if (r && r.pending_claim && state.status === "playing") {
    box.append(el("span", { class: "deadline" }, _("Unclaimed: {card}. Claim before your next card.", { card: cardPhrase(r.pending_claim) })));
  }
  if (moves.includes("pass")) {
    const only = !moves.some((m) => m !== "pass" && m !== "claim");
    const lastCard = moves.includes("claim") && Array.isArray(r.hand) && r.hand.length === 0;
    const words = lastCard ? _("End the round without claiming") : r.need ? withoutWords(r.need) : _("Pass");
    box.append(el("button", { type: "button", class: only ? "pass primary" : "pass", id: "pass-button", onclick: () => act("pass") },
      `${words}${key("p")}`));
    if (!only) box.append(el("span", { class: "muted" }, _("or play a highlighted card")));
  }
}

/** Why a card of the hand cannot be played now; a learning table says which rank is wanted,
 * after which card, and what the player can do instead (a card that fits, or "without"). */
function refusedCard(code) {
  const said = _("The {card} cannot be played now.", { card: cardPhrase(code) });
  const r = state.round;
  if (!state.learning || !r || !r.need) return said;
  const cards = r.sequence || [];
  const last = cards.length ? cards[cards.length - 1] : null;
  const rank = rankName(rankSymbol(r.need));
  const wanted = last
    ? _("The rank wanted next is {rank}, the one after the {last} just played, in any suit.", { rank, last: cardPhrase(last) })
    : _("The rank wanted next is {rank}, in any suit.", { rank });
  const fits = legal().filter((m) => m !== "pass" && m !== "claim");
  const instead = fits.length
    ? _("You can play: {cards}.", { cards: fits.map((c) => cardLabel(c)).join(", ") })
    : _("You hold none: press “{button}”.", { button: withoutWords(r.need) });
  return `${said} ${wanted} ${instead}`;
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

/** Whether this seat has asked for the next round (sent now, or the server has it). */
function readyAsked() {
  return sentReady === state.seq || (state.ready || []).includes(state.you);
}

/** "Next round": under the moves, and in the settlement (a sheet over the hand on a phone). */
function readyButton(id = "ready-button") {
  const asked = readyAsked();
  return el("button", { type: "button", class: "primary ready-button", id, disabled: asked, onclick: ready },
    asked ? _("Waiting for the others…") : keyless(_("Next round (n)")));
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
      else if (state.round.to_act === state.you && !pending) showError(refusedCard(code));
    });
    box.append(button);
  }
  box.classList.toggle("my-turn", moves.size > 0);
  box.setAttribute("aria-label", moves.size ? _("Your hand: your turn") : _("Your hand"));
}

let handRound = null;   // the round whose hand height is kept
let shownEnd = null;    // the status whose settlement was brought into view

/** The hand's box keeps the height of the round's first hand: playing a card that empties a
 * row does not pull up what is below it. */
function holdHandHeight() {
  const box = $("hand").parentElement;
  const k = state.round?.k ?? null;
  if (k !== handRound || state.status === "over") { box.style.minHeight = ""; handRound = k; }
  if (!box.hidden && state.status === "playing") box.style.minHeight = `${Math.max(box.offsetHeight, parseFloat(box.style.minHeight) || 0)}px`;
}

function renderResult() {
  const box = $("result");
  const res = state.last_result;
  const game = state.game_result;
  if (!res && !game) { box.hidden = true; forgetShown(box); return; }
  box.hidden = false;
  // between rounds a sheet over the hand on a phone; at the end of the game in the page
  box.classList.toggle("ended", state.status === "round-over");
  box.classList.toggle("game-ended", state.status === "over");
  const asked = readyAsked();
  // everything the box shows: another player's "ready" changes none of it, so the box (and a
  // button being pressed in it) stays as it is
  const key = JSON.stringify([res, game, state.status, state.you, state.left, state.rematch,
    state.seats.map((s) => seatName(s.seat)), state.chips_by_round, state.chips_rounds_from, asked]);
  fillIfChanged(box, key, () => fillResult(box, res, game));
  const end = `${state.status}/${state.round?.k}`;
  if ((state.status === "round-over" || state.status === "over") && shownEnd !== end) {
    shownEnd = end;  // below the hand: bring it into view once (scrolling moves no layout)
    requestAnimationFrame(() => box.scrollIntoView({ block: "nearest", behavior: "smooth" }));
  }
}

function fillResult(box, res, game) {
  if (game) box.append(...endScreen(game).filter(Boolean));
  if (res && (state.status === "round-over" || state.status === "over" || state.status === "playing")) {
    box.append(el("h2", {}, state.status !== "round-over" ? _("Last round") : _("Settlement of the round")));
    if (res.winner !== null && res.winner !== undefined) {
      const name = seatName(res.winner);
      box.append(el("p", {}, res.grand_opera ? _("{name} went out with a Grand Opéra!", { name }) : _("{name} went out.", { name })));
    }
    box.append(settlementTable(res, (row) => seatName(row.seat)));  // the seats' names, as in the log
    if (state.status === "round-over" && state.you !== null && state.you !== undefined) box.append(el("p", {}, readyButton("ready-again")));
    if (Array.isArray(res.boxes) && res.boxes.length) {
      box.append(el("p", { class: "muted" }, _("Boxes after the round:") + " ",
        res.boxes.map((b) => (typeof b === "object" ? `${cardText(b.card)} ${b.after ?? b.chips}` : String(b))).join(", ")));
    }
  }
}

/** The rated game's change of rating, or why it did not count (filled once the server says). */
function ratingLine() {
  const line = el("p", { class: "muted", id: "rating-line", role: "status" });
  setTimeout(() => fillRatingLine(TABLE, line), 0);
  return line;
}

/** The end of the game: standings, the chips over the rounds, the record, Play again. */
function endScreen(game) {
  const winners = (game.winners || []).map(seatName);
  const names = winners.length > 1 ? _("{first} and {last}", { first: winners.slice(0, -1).join(", "), last: winners.at(-1) }) : winners.join("");
  const chips = game.chips || [];
  const order = state.seats.map((s) => s.seat).sort((a, b) => (chips[b] ?? 0) - (chips[a] ?? 0) || a - b);
  const standings = el("ol", { class: "standings" }, order.map((g) => el("li", { class: (game.winners || []).includes(g) ? "winner" : null },
    el("span", { class: "st-name" }, seatName(g)), " ",
    el("span", { class: "st-chips" }, ngettext("{n} chip", "{n} chips", chips[g] ?? 0)))));
  const me = state.you;
  const seated = me !== null && me !== undefined && !(state.left || []).includes(me);
  const again = seated ? el("button", { type: "button", class: "primary", id: "play-again", onclick: () => playAgain(false) },
    state.rematch ? _("Go to the new table") : _("Play again")) : null;
  const watchNew = !seated && state.rematch ? el("a", { class: "button", href: `${state.rematch}/watch` }, _("Watch the new table")) : null;
  return [
    el("h2", { id: "game-over" }, _("The game is over")),
    el("p", { class: "game-winner" }, names
      ? (winners.length > 1 ? _("{names} share the win.", { names }) : _("{name} wins.", { name: names }))
      : _("No winner.")),
    game.reason ? el("p", { class: "muted" }, game.reason) : null,
    ratingLine(),
    standings,
    chipsChart(),
    el("p", { class: "end-links" }, again, watchNew, " ",
      el("a", { class: "button", href: `/t/${encodeURIComponent(TABLE)}/record`, download: `${TURN_BASED}-${TABLE}.json` }, _("Download the record (for cardroom replay)")),
      " ", el("a", { class: "button", href: `/replay/${encodeURIComponent(TABLE)}` }, _("Watch the replay")),
      " ", el("a", { class: "button", href: "/" }, _("Lobby"))),
  ];
}

const SVG = "http://www.w3.org/2000/svg";  // the xmlns of SVG (a name, nothing is loaded)
const LINE_COLOURS = ["#1f6f43", "#b5470b", "#2456a6", "#8a2d8a", "#a40e26", "#5c6b00", "#00707a", "#6b4b00"];

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) node.append(c);
  return node;
}

/** Each player's chips after every round, as lines (drawn here: nothing from elsewhere). */
function chipsChart() {
  const rows = state.chips_by_round || [];
  if (rows.length < 2) return null;
  const from = state.chips_rounds_from || 0;
  const W = 320, H = 150, L = 34, R = 8, T = 8, B = 22;
  const max = Math.max(1, ...rows.flat());
  const x = (i) => L + (i * (W - L - R)) / (rows.length - 1);
  const y = (v) => T + (1 - v / max) * (H - T - B);
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chips-chart", role: "img", "aria-labelledby": "chips-chart-title" },
    svg("title", { id: "chips-chart-title" }, _("Chips after each round")));
  chart.append(svg("line", { x1: L, y1: y(0), x2: W - R, y2: y(0), class: "axis" }),
    svg("line", { x1: L, y1: T, x2: L, y2: y(0), class: "axis" }),
    svg("text", { x: L - 4, y: y(max) + 4, "text-anchor": "end", class: "tick" }, String(max)),
    svg("text", { x: L - 4, y: y(0) + 4, "text-anchor": "end", class: "tick" }, "0"),
    svg("text", { x: L, y: H - 6, class: "tick" }, String(from)),
    svg("text", { x: W - R, y: H - 6, "text-anchor": "end", class: "tick" }, String(from + rows.length - 1)));
  state.seats.forEach((s, i) => {
    const colour = LINE_COLOURS[i % LINE_COLOURS.length];
    const points = rows.map((row, k) => `${x(k).toFixed(1)},${y(row[s.seat] ?? 0).toFixed(1)}`).join(" ");
    chart.append(svg("polyline", { points, fill: "none", stroke: colour, "stroke-width": 2.5, "stroke-dasharray": i % 2 ? "6 3" : "none" }));
  });
  const legend = el("ul", { class: "chart-legend" }, state.seats.map((s, i) => el("li", {},
    el("span", { class: "swatch", style: `background:${LINE_COLOURS[i % LINE_COLOURS.length]}` }), " ", seatName(s.seat))));
  return el("figure", { class: "chart" }, chart, el("figcaption", {}, _("Chips after each round")), legend);
}

// ---- play again and leave -------------------------------------------------------------------
const postTable = (what) => postJson(`/t/${encodeURIComponent(TABLE)}/${what}`);

/** Play again: the same seats at a new table (made by the first to ask); go to my seat there. */
async function playAgain(auto) {
  if (autoRematch && auto) return;
  autoRematch = true;
  try {
    const body = await postTable("rematch");
    location.assign(body.url);
  } catch (err) {
    autoRematch = false;
    showError(err.message);
  }
}

function renderLeave() {
  const button = $("leave-button");
  const me = state.you;
  const can = !WATCH && me !== null && me !== undefined && state.status !== "over" && !(state.left || []).includes(me)
    && state.seats.some((s) => s.seat === me && s.joined);
  button.hidden = !can;
  const box = $("leave-confirm");
  if (!can) leaving = false;
  box.hidden = !leaving;
}

async function leaveTable() {
  try {
    await postTable("leave");
    location.assign("/");
  } catch (err) {
    leaving = false;
    renderLeave();
    showError(err.message);
  }
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
      hintRef ? _("Thinking…") : keyless(_("Hint (i)"))));
  }
  line.textContent = hint ? _("Hint: {text}", { text: hint.text }) : "";
  line.hidden = !state?.hints;  // its place is kept at tables with hints: the hand stays put
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
$("leave-button").addEventListener("click", () => { leaving = true; renderLeave(); $("leave-yes").focus(); });
$("leave-no").addEventListener("click", () => { leaving = false; renderLeave(); $("leave-button").focus(); });
$("leave-yes").addEventListener("click", leaveTable);
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
