// The real-time table page: one websocket; the server's arbiter decides everything, this page
// only draws the frames it is sent and sends actions that name the card, the pile and the top
// card it showed ("seen"). What is a game's own (its piles, its call, its keys) is its page face,
// a script in the game's folder (games/<game>/web/realtime.js, served at /games/<game>/realtime.js).
import {
  LANG, _, cardBack, cardFace, cardImg, cardLabel, clear, el, ngettext, startI18n, tableAddress,
  personName, tableSocket, postJson, fillIfChanged, fillRatingLine, forgetShown,
} from "./common.js";
import { GAMES, LEVEL_WORDS, isRealtime } from "./games.js";
import { mountChat } from "./chat.js";

await startI18n();
/** Each real-time game's page face, by name (see the games' realtime.js). */
const FACES = Object.fromEntries(await Promise.all(Object.values(GAMES).filter((g) => isRealtime(g.name))
  .map(async (g) => [g.name, await import(`/games/${encodeURIComponent(g.name)}/realtime.js`)])));

const $ = (id) => document.getElementById(id);
const NAME_KEY = "cardroom.name";
const { table: TABLE, watch: WATCH } = tableAddress();
const TOUCH = matchMedia("(pointer: coarse), (hover: none)").matches; // no keyboard to name keys of

let state = null;
let nextId = 1;
let fresh = true;
let offset = 0;            // server time - this computer's time (seconds)
let selected = null;       // {card, stock} chosen for the next pile
let moving = false;        // "m" pressed (a game that moves cards): the next digit is the empty space
let errorTimer = null;
let tops = [null, null];   // per middle pile: {top, before, at}: its top, the one before, when it changed
let slapEnded = 0;         // when a slap / choose phase last ended (a late j or k)
const REACTION_MS = 400;   // a top that changed this recently was not yet seen by the hand aiming
let announceTimer = null;
const logLines = [];
const notesShown = new Set(); // the presence lines on the page (kind/seat/t)
let logBase = 0;           // the index in the table's log of logLines[0]
let firstShown = 0;        // the index in the table's log of the first line on the page
let logKeep = 200;         // lines kept on the page (more once earlier ones were asked for)
const LOG_KEEP_MOST = 2000;

// ---- connection -------------------------------------------------------------------------
const socket = tableSocket(TABLE, WATCH, {
  onFrame,
  onOpening: () => { fresh = true; },
  backoffMs: 300,
});

function send(msg) {
  if (socket.send(msg)) return true;
  showError(_("Not connected: wait a moment, the page reconnects by itself."));
  return false;
}

function act(action) {
  if (!state || state.you === null || state.status !== "playing") return;
  if (state.paused) {
    showError(_("The game is paused until everybody is back."));
    return;
  }
  send({ type: "act", action, id: `a${nextId++}` });
}

// at phone width the chat waits behind its button, so the piles keep the screen
const takeChat = mountChat(send, { watching: WATCH, collapsed: matchMedia("(max-width: 760px)").matches });

function onFrame(frame) {
  if (takeChat(frame)) return;
  if (frame.type === "state") {
    const prev = state;
    state = frame;
    offset = Number(frame.now || Date.now() / 1000) - Date.now() / 1000;
    if (fresh || frame.resync) {
      fresh = false;
      logLines.length = 0;
      notesShown.clear();
      clear($("log"));
      logBase = firstShown = Number(frame.log_from || 0);
      logKeep = 200;
    }
    const from = Number(frame.log_from || 0);
    (frame.log || []).forEach((line, i) => {
      if (from + i >= logBase + logLines.length) addLog(line, from + i);
    });
    addNotes(frame.notes || []);
    showEarlier();
    if (frame.table_view) noteTops(frame.table_view.centre || []);
    if (prev && prev.table_view && frame.table_view && prev.table_view.phase !== frame.table_view.phase) {
      if (["slap", "choose"].includes(prev.table_view.phase)) slapEnded = Date.now();
      announcePhase(frame.table_view.phase);
    }
    if (prev && !prev.paused && frame.paused && frame.status === "playing") {
      const away = frame.paused.seats.filter((g) => g !== mySeat());
      if (away.length) announce(_("{name} is reconnecting: the game is paused.", { name: seatName(away[0]) }));
    } else if (prev && prev.paused && !frame.paused && frame.status === "playing") {
      // the pause ends as a bot takes an away seat: nobody came back, so do not say so
      const taken = (frame.seats || []).find((s) => s.taken && !(prev.seats || []).some((p) => p.seat === s.seat && p.taken));
      announce(taken ? _("{name} was away too long: a bot plays for them.", { name: seatName(taken.seat) }) : _("Everybody is back: play!"));
    }
    keepSelection();
    render();
  } else if (frame.type === "log") {
    onEarlier(frame);
  } else if (frame.type === "error") {
    showError(frame.message || _("The server refused that."));
  }
}

/** "Earlier lines": shown while the page does not hold the log from its first line. */
function showEarlier() {
  const button = $("log-earlier");
  button.hidden = firstShown <= 0;
  button.disabled = false;
}

$("log-earlier").addEventListener("click", () => {
  $("log-earlier").disabled = true;
  send({ type: "log", before: firstShown, id: `log${firstShown}` });
});

/** Older lines asked for with "Earlier lines": put above the ones shown. */
function onEarlier(frame) {
  const from = Number(frame.log_from || 0);
  const lines = (frame.log || []).slice(0, Math.max(0, firstShown - from));
  if (!lines.length) { showEarlier(); return; }
  const log = $("log");
  const top = log.firstChild;
  lines.forEach((line, i) => log.insertBefore(logItem(line, from + i), top));
  firstShown = from;
  logKeep = Math.min(LOG_KEEP_MOST, logKeep + lines.length);
  if (top) top.scrollIntoView({ block: "start" });
  showEarlier();
}

function showError(text) {
  const box = $("error");
  box.textContent = text || "";
  clearTimeout(errorTimer);
  if (text) errorTimer = setTimeout(() => { box.textContent = ""; }, 3500);
}

function announce(text) {
  const box = $("announce");
  box.textContent = text;
  placeAnnounce();
  box.classList.add("show");
  clearTimeout(announceTimer);
  announceTimer = setTimeout(() => box.classList.remove("show"), 2200);
}

/** The banner over the cards, just under the status line (however many lines it takes, also
 * once the frame's redraw changed it), never over it. */
function placeAnnounce() {
  const line = $("status-line");
  $("announce").style.top = `${line.offsetTop + line.offsetHeight}px`;
}

function noteTops(centre) {
  tops = [0, 1].map((pile) => {
    const was = tops[pile];
    const top = centre[pile] || null;
    if (!was) return { top, before: null, at: 0 };
    return was.top === top ? was : { top, before: was.top, at: Date.now() };
  });
}

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
function nextTo(a, b) {
  const x = RANKS.indexOf(a.slice(0, -1));
  const y = RANKS.indexOf(b.slice(0, -1));
  return x >= 0 && y >= 0 && (Math.abs(x - y) === 1 || Math.abs(x - y) === 12);
}

/** The top the person aimed at: the pile's top, unless it changed too recently for the hand
 * to have seen it and the card fits the top before, not this one (the race was lost: "too
 * late"). A card that fits neither is told it does not follow the top shown. */
function aimedAt(card, pile, now = Date.now()) {
  const t = tops[pile];
  const top = view().centre[pile];
  if (!t || t.top !== top || !t.before || now - t.at > REACTION_MS) return top;
  return nextTo(card, t.before) && !nextTo(card, top) ? t.before : top;
}

function announcePhase(phase) {
  const words = {
    slap: _("New layout: slap a middle pile!"),
    choose: _("A pile is being chosen…"),
    stalemate: face().words(TOUCH).stalemate,
    play: _("Play!"),
    over: _("Game over"),
  };
  if (words[phase]) announce(words[phase]);
  else {  // the banner of the phase that ended goes at once
    clearTimeout(announceTimer);
    $("announce").classList.remove("show");
  }
}

function logItem(line, index) {
  return el("li", { class: line.accepted ? "ev" : "ev ev-refused", "data-i": index }, line.text || "");
}

function addLog(line, index) {
  logLines.push(line);
  const log = $("log");
  log.append(logItem(line, index));
  while (log.children.length > logKeep) {
    const first = log.firstChild;
    log.removeChild(first);
    if (!first.classList.contains("ev-note")) firstShown += 1;
  }
  if (logLines.length > 4 * LOG_KEEP_MOST) { logLines.splice(0, LOG_KEEP_MOST); logBase += LOG_KEEP_MOST; }
  log.scrollTop = log.scrollHeight;
  requestAnimationFrame(() => { log.scrollTop = log.scrollHeight; }); // once wrapped lines are laid out
}

/** A presence line (away, back, a bot taking over, a forfeit) in the reader's words. */
function noteText(note) {
  const name = note.seat === null || note.seat === undefined ? "" : seatName(note.seat);
  switch (note.kind) {
    case "away": return _("{name} is reconnecting: the game is paused.", { name });
    case "back": return _("{name} is back.", { name });
    case "takeover": return _("{name} was away too long: a bot plays for them.", { name });
    case "forfeit": return _("{name} wins: {other} was away too long.", { name: seatName(1 - note.seat), other: name });
    case "abandoned": return _("Nobody wins: both players were away too long.");
    default: return "";
  }
}

/** Put the table's presence lines in the table talk, each before the log line it preceded. */
function addNotes(notes) {
  const log = $("log");
  for (const note of notes) {
    const key = `${note.kind}/${note.seat}/${note.t}`;
    const at = Number(note.at);
    const text = noteText(note);
    if (notesShown.has(key) || !text || at < firstShown) continue;
    notesShown.add(key);
    const item = el("li", { class: "ev ev-note", "data-at": at }, text);
    const after = [...log.children].find((li) => !li.classList.contains("ev-note") && Number(li.dataset.i) >= at);
    log.insertBefore(item, after || null);
  }
  log.scrollTop = log.scrollHeight;
}

// ---- reading the frame --------------------------------------------------------------------
/** This table's game's page face. */
const face = () => FACES[state.game];
const view = () => (state && state.table_view) || null;
const mySeat = () => (state && state.you !== null && state.you !== undefined ? state.you : null);
const viewSeat = () => (mySeat() === null ? 0 : mySeat());

function seatName(g) {
  const s = state.seats.find((x) => x.seat === g);
  if (LANG !== "en" && s && s.bot && LEVEL_WORDS[s.bot] && s.name === `${s.bot[0].toUpperCase()}${s.bot.slice(1)} bot`) {
    return _("{level} bot", { level: _(LEVEL_WORDS[s.bot]) });
  }
  return (s && personName(s.name)) || _("Seat {number}", { number: g + 1 });
}

/** A seat's name over its cards: "Bot (for Ann)" while a bot plays the seat of its person. */
function seatLabel(g) {
  const row = state.seats.find((x) => x.seat === g);
  if (row && row.kind === "person" && row.taken) return _("Bot (for {name})", { name: seatName(g) });
  return row && row.program ? _("{name} (a program)", { name: seatName(g) }) : seatName(g);
}

/** Who plays against a person is told before they sit down: a program a player brought. */
function programNote() {
  const me = mySeat();
  const them = (state.seats || []).filter((s) => s.program && s.seat !== me && s.name);
  if (!them.length) return null;
  return el("p", { class: "program-note", role: "note" },
    them.map((s) => _("{name} is a program a player brought, not a person.", { name: seatName(s.seat) })).join(" "));
}

function legal(type) {
  const v = view();
  return Boolean(v && (v.legal || []).some((a) => a.type === type));
}

/** The cards this seat can aim at a pile (its game's: stock tops, hand cards…). */
function myCards() {
  const v = view();
  if (!v || mySeat() === null) return [];
  return face().myCards(v, mySeat());
}

function keepSelection() {
  if (!selected) return;
  const still = myCards().some((c) => c.card === selected.card);
  if (!still) selected = null;
}

// ---- actions ------------------------------------------------------------------------------
function play(card, pile) {
  const v = view();
  const seen = v.centre[pile] ? aimedAt(card, pile) : null;
  if (!seen) {
    showError(_("Middle pile {number} is empty.", { number: pile + 1 }));
    return;
  }
  act({ type: "play", card, pile, seen });
  selected = null;
  render();
}

function pilePressed(pile) {
  const v = view();
  if (!v || mySeat() === null) return;
  const own = selected && selected.card ? null : face().pileAct?.(v, pile, Date.now() - slapEnded);
  if (selected && selected.card) {
    play(selected.card, pile);
  } else if (own && own.action) {
    act(own.action);
  } else if (own && own.error) {
    showError(own.error);
  } else {
    showError(_("Choose one of your cards first, then the pile."));
  }
}

function cardPressed(item) {
  if (mySeat() === null || !state || state.status !== "playing") return;
  const wasMoving = moving;
  moving = false;
  const own = face().cardAct?.(item, selected, wasMoving); // the game's own (turn up, move)
  if (own) {
    if (own.action) act(own.action);
    if (own.clear) {
      selected = null;
      render();
    }
    return;
  }
  selected = selected && selected.card === item.card ? null : { card: item.card, stock: item.stock };
  render();
}

function call() {
  act({ type: face().CALL });
}

// ---- drawing ------------------------------------------------------------------------------
/** The top bar's "Rules" opens the rules of this table's game, in the page's ?lang= if any. */
function rulesLink() {
  const lang = new URLSearchParams(location.search).get("lang");
  const query = lang ? `?lang=${encodeURIComponent(lang)}` : "";
  for (const link of document.querySelectorAll(".rules-link")) {
    link.href = `/rules/${encodeURIComponent(state.game)}${query}`;
  }
}

function render() {
  document.body.dataset.seq = String(state.seq);
  document.body.dataset.status = state.status;
  document.body.dataset.game = state.game;
  rulesLink();
  const title = state.title || _(GAMES[state.game].title);
  $("table-title").textContent = mySeat() === null ? _("{title} (watching)", { title }) : title;
  document.title = `cardroom: ${title}`;
  renderStatus();
  placeAnnounce();
  renderCountdown();
  renderPause();
  renderThem();
  renderMiddle();
  renderActions();
  renderMe();
  renderResult();
}

function renderStatus() {
  const v = view();
  let text = "";
  if (state.status === "waiting") {
    const missing = state.seats.filter((s) => s.kind === "person" && !s.name).length;
    text = missing
      ? ngettext("Waiting for {n} player to take their seat.", "Waiting for {n} players to take their seat.", missing)
      : _("Starting…");
  } else if (state.status === "over" && state.forfeit !== null && state.forfeit !== undefined) {
    text = _("{name} wins: {other} was away too long.", { name: seatName(1 - state.forfeit), other: seatName(state.forfeit) });
  } else if (state.status === "over" && state.closed === "abandoned") {
    text = _("Nobody wins: both players were away too long.");
  } else if (state.status === "over") {
    text = v && v.winner !== null && v.winner !== undefined ? _("{name} wins!", { name: seatName(v.winner) }) : _("The game is over.");
  } else if (state.paused) {
    text = "";
  } else if (state.match && state.match.between) {
    text = _("Game {number} is over: the next one is dealt in a moment.", { number: state.match.game });
  } else if (v) {
    const phase = v.phase;
    // a phone has no keyboard: its words name no key and say "tap"
    if (phase === "start") text = face().words(TOUCH).start;
    else if (phase === "slap") text = TOUCH ? _("New layout: slap the smaller middle pile!") : _("New layout: slap the smaller middle pile (j / k)!");
    else if (phase === "choose") text = v.chooser === mySeat() ? (TOUCH ? _("Choose your middle pile.") : _("Choose your middle pile (j / k).")) : _("{name} chooses a pile.", { name: seatName(v.chooser) });
    else if (v.stalemate) text = face().words(TOUCH).stuck;
    else text = TOUCH ? _("Play! Drag a card onto a middle pile, or tap it then the pile.") : _("Play! Drag a card onto a middle pile, or click it then the pile.");
  }
  $("status-line").textContent = text;
}

const tenths = (x) => x.toLocaleString(document.documentElement.lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const serverNow = () => Date.now() / 1000 + offset;

function renderCountdown() {
  const box = $("countdown");
  const d = state.deadline;
  const paused = state.paused;
  if (paused && paused.countdown_left !== null && paused.countdown_left !== undefined && state.status === "playing") {
    box.textContent = _("Countdown stopped at {seconds} s", { seconds: tenths(paused.countdown_left) });
    return;
  }
  if (!d || state.status !== "playing") {
    box.textContent = "";
    return;
  }
  const left = Math.max(0, d.at - serverNow());
  box.textContent = _("Countdown: {seconds} s", { seconds: tenths(left) });
}

/** Whether a seat's person is here, reconnecting (seconds away) or replaced by a bot. */
function presenceText(row) {
  if (!row || row.kind !== "person") return "";
  // the game is over: nobody is waited for any more (no count of seconds away)
  if (state.status === "over") return row.present ? _("connected") : "";
  if (row.taken) return _("away: a bot plays for them");
  if (row.away !== null && row.away !== undefined) {
    return _("reconnecting… {seconds} s", { seconds: Math.max(0, Math.floor(serverNow() - row.away)) });
  }
  return row.present ? _("connected") : _("away");
}

function presenceBadge(g) {
  const row = state.seats.find((x) => x.seat === g);
  const text = presenceText(row);
  if (!text) return null;
  const kind = row.present && !row.taken ? "ok" : "wait";
  return el("span", { class: "rt-presence", "data-presence": kind, "data-seat": g }, text);
}

/** The pause: who is reconnecting, for how long, and what happens at the limit. */
function renderPause() {
  const box = $("pause");
  const paused = state.paused;
  if (!paused || state.status !== "playing") {
    box.hidden = true;
    box.textContent = "";
    return;
  }
  box.hidden = false;
  clear(box);
  paused.seats.forEach((g) => {
    const row = state.seats.find((x) => x.seat === g);
    const name = seatName(g);
    if (g === mySeat()) {
      box.append(el("span", { class: "rt-pause-line" }, _("Welcome back: the game goes on in a moment.")));
      return;
    }
    const away = Math.max(0, Math.floor(serverNow() - row.away));
    const left = Math.max(0, Math.ceil(row.limit_at - serverNow()));
    const then = state.away_then === "bot"
      ? _("The game is paused: if {name} is not back in {seconds} s, a bot plays for them until they return.", { name, seconds: left })
      : _("The game is paused: if {name} is not back in {seconds} s, {name} loses the game.", { name, seconds: left });
    const who = _("{name} is reconnecting… {seconds} s", { name, seconds: away });
    box.append(el("span", { class: "rt-pause-line" }, el("strong", {}, who), " ", el("span", {}, then)));
  });
}

setInterval(() => {
  // while the server cannot be reached its clock is not known to run: the countdown and the
  // pause stand where they were (the next state frame sets them again)
  if (!state || !socket.connected()) return;
  renderCountdown();
  if (state.match && state.match.between && $("next-game")) {
    const left = Math.max(0, Math.ceil((state.match.next_at || 0) - serverNow()));
    $("next-game").textContent = _("Game {number} starts in {seconds} s.", { number: state.match.game + 1, seconds: left });
  }
  if (state.paused) {
    renderPause();
    document.querySelectorAll(".rt-presence").forEach((badge) => {
      const row = state.seats.find((x) => x.seat === Number(badge.dataset.seat));
      badge.textContent = presenceText(row);
    });
  }
}, 100);

function pileBox(label, top, n, attrs = {}) {
  const shown = top ? cardFace(top, "rt-card") : n > 0 ? cardBack("rt-card") : el("span", { class: "card rt-card rt-empty", "aria-hidden": "true" });
  return el("div", { class: "rt-pile", ...attrs }, shown, el("span", { class: "rt-count" }, label));
}

function renderThem() {
  const box = clear($("them"));
  const v = view();
  if (!v) return;
  const them = 1 - viewSeat();
  box.append(el("h2", { class: "rt-name" }, mySeat() === null ? seatLabel(them) : _("{name} (opponent)", { name: seatLabel(them) }), " ", presenceBadge(them)));
  box.append(el("div", { class: "rt-row" }, face().theirRow(v, them, pileBox)));
  if (v.called && v.called[them]) box.append(el("p", { class: "rt-called" }, face().words(TOUCH).called));
}

function renderMiddle() {
  const box = clear($("middle"));
  const v = view();
  if (!v) return;
  const ends = face().middleEnds?.(v, pileBox); // piles at either end of the middle, if any
  if (ends) box.append(ends[0]);
  [0, 1].forEach((pile) => {
    const top = v.centre[pile];
    const open = !v.open_piles || v.open_piles[pile];
    const size = v.centre_sizes[pile];
    // the accessible name is the visible text ("pile 1 · 5") and then the card and the count
    const said = top
      ? ngettext(": {card}, {n} card", ": {card}, {n} cards", size, { card: cardLabel(top) })
      : ngettext(": empty, {n} card", ": empty, {n} cards", size);
    const target = el("button", {
      type: "button",
      class: `rt-target${open ? "" : " closed"}${selected ? " ready" : ""}`,
      "data-pile": pile,
      "data-top": top || "",
      onclick: () => pilePressed(pile),
      ondragover: (ev) => { ev.preventDefault(); },
      ondrop: (ev) => {
        ev.preventDefault();
        const card = ev.dataTransfer.getData("text/plain");
        if (card) play(card, pile);
      },
    },
    top ? cardImg(top) : el("span", { class: "rt-empty-img" }),
    el("span", { class: "rt-count" }, _("pile {number}", { number: pile + 1 }) + ` · ${size}`),
    el("span", { class: "sr-only" }, said));
    box.append(target);
  });
  if (ends) box.append(ends[1]);
}

function renderActions() {
  const box = clear($("actions"));
  if (state.status === "waiting") {
    renderWaiting(box);
    return;
  }
  if (mySeat() === null || state.status !== "playing") return;
  const v = view();
  const label = face().words(TOUCH).call;
  const canCall = legal(face().CALL);
  box.append(el("button", { type: "button", id: "call-button", class: canCall ? "primary" : "", onclick: call }, label));
  box.append(...(face().phaseButtons?.(v, act, TOUCH) || [])); // e.g. a slap after a new layout
  if (v.called && v.called[viewSeat()]) box.append(el("span", { class: "muted" }, _("You called: waiting for the other player or the countdown.")));
}

function renderWaiting(box) {
  const me = mySeat();
  const note = programNote();
  if (note) box.append(note);
  if (me === null) return;
  const seat = state.seats.find((s) => s.seat === me);
  if (seat && !seat.name) {
    const input = el("input", { id: "join-name", maxlength: "24", value: localStorage.getItem(NAME_KEY) || "", "aria-label": _("Your name") });
    const form = el("form", { class: "join-form", onsubmit: (ev) => {
      ev.preventDefault();
      const name = input.value.trim();
      if (!name) { showError(_("Give your name (1 to 24 characters).")); return; }
      localStorage.setItem(NAME_KEY, name);
      send({ type: "join", name });
    } }, el("label", { for: "join-name" }, _("Your name"), " "), input, el("button", { type: "submit", class: "primary" }, _("Take my seat")));
    box.append(form);
  } else if (me === 0) {
    box.append(el("span", { class: "muted" }, _("Waiting for your friend (send them the invitation link)."), " "),
      el("button", { type: "button", id: "start-button", onclick: () => send({ type: "start" }) }, _("Start now against a bot")));
  }
}

function renderMe() {
  const box = clear($("me"));
  const v = view();
  const me = mySeat();
  if (!v) return;
  if (me === null) {
    // a spectator sees seat 1's public side too (face-up tops only)
    const row = el("div", { class: "rt-row" }, face().watchedRow(v, 0, pileBox, seatName(0)));
    box.append(el("h2", { class: "rt-name" }, seatLabel(0), " ", presenceBadge(0)), row);
    return;
  }
  box.append(el("h2", { class: "rt-name" }, _("{name} (you)", { name: seatName(me) })));
  const row = el("div", { class: "rt-row rt-mine" });
  myCards().forEach((item, i) => {
    const key = String(i + 1);
    // The accessible name is the button's text: what the card is (for screen readers only),
    // then the visible key ("1", or "1 · 3" for a pile of 3), then how many cards the pile holds.
    const count = item.n > 1 ? ngettext(" ({n} card)", " ({n} cards)", item.n) : "";
    let picture;
    let label;
    if (item.card) {
      picture = cardImg(item.card);
      label = _("{card}, key", { card: cardLabel(item.card) });
    } else if (item.n > 0) {
      picture = el("img", { src: "/static/cards/back.svg", class: "card-img", alt: "" });
      label = _("stock pile {number}: face down, turn it up; key", { number: i + 1 });
    } else {
      picture = el("span", { class: "rt-empty-img" });
      label = _("empty space {number}, key", { number: i + 1 });
    }
    const isSel = selected && item.card && selected.card === item.card;
    row.append(el("button", {
      type: "button",
      class: `card rt-mine-card${isSel ? " selected" : ""}${item.card ? " up" : ""}`,
      "data-card": item.card || null,
      "data-stock": item.stock,
      "aria-pressed": isSel ? "true" : "false",
      draggable: item.card ? "true" : "false",
      ondragstart: (ev) => { if (item.card) ev.dataTransfer.setData("text/plain", item.card); },
      onclick: () => cardPressed(item),
    }, picture, el("span", { class: "sr-only" }, `${label} `),
    el("span", { class: "rt-key" }, item.n > 1 ? `${key} · ${item.n}` : key),
    count ? el("span", { class: "sr-only" }, count) : null));
  });
  box.append(row);
  box.append(el("p", { class: "rt-extra muted" }, face().extra(v, me)));
}

function cardsLeft(v, g) {
  return face().cardsLeft(v, g);
}

/** The scores of a match: "Match to 20 points: Ann 12, Bob 7". */
function matchLine(m) {
  const f = { target: m.target, first: seatName(0), first_score: m.scores[0], second: seatName(1), second_score: m.scores[1] };
  if (m.unit === "games") return _("First to win {target} games: {first} {first_score}, {second} {second_score}", f);
  return _("Match to {target} points: {first} {first_score}, {second} {second_score}", f);
}

function renderResult() {
  const box = $("result");
  const v = view();
  const between = Boolean(state.match && state.match.between);
  if ((state.status !== "over" && !between) || !v) {
    box.hidden = true;
    forgetShown(box);
    return;
  }
  box.hidden = false;
  const seated = mySeat() !== null;
  // everything the box shows; a seated player's rematch button changes its words in place
  const key = JSON.stringify([state.status, between, state.winner, state.forfeit, state.match,
    state.rules && state.rules.score_hand, v, [0, 1].map(seatName), seated,
    seated ? null : state.rematch]);
  fillIfChanged(box, key, () => fillResult(box, v, between));
  const button = $("rematch");
  if (button) button.textContent = state.rematch ? _("Join the rematch") : _("Rematch");
}

function fillResult(box, v, between) {
  const winner = between || state.winner === undefined ? v.winner : state.winner;
  box.append(el("h2", { class: "game-winner" }, winner === null || winner === undefined ? _("No winner") : _("{name} wins", { name: seatName(winner) })));
  const rows = [0, 1].map((g) => el("tr", { class: g === winner ? "winner" : "" },
    el("th", { scope: "row" }, seatName(g)),
    el("td", {}, String(cardsLeft(v, g))),
    face().POINTS ? el("td", {}, String(g === winner ? v.points || 0 : 0)) : null));
  box.append(el("table", { class: "settlement" },
    el("thead", {}, el("tr", {}, el("th", {}, _("Player")), el("th", {}, _("Cards left")), face().POINTS ? el("th", {}, _("Points")) : null)),
    el("tbody", {}, rows)));
  if (state.match) {
    const m = state.match;
    box.append(el("p", { class: "rt-match", id: "match-scores" }, matchLine(m)));
    if (between) {
      const left = Math.max(0, Math.ceil((m.next_at || 0) - serverNow()));
      box.append(el("p", { class: "muted", id: "next-game" }, _("Game {number} starts in {seconds} s.", { number: m.game + 1, seconds: left })));
    } else if (m.winner !== null && m.winner !== undefined) {
      box.append(el("p", { class: "game-winner" }, _("{name} wins the match.", { name: seatName(m.winner) })));
    }
  }
  if (face().pointsNote && v.winner !== null && v.winner !== undefined && !(state.forfeit !== null && state.forfeit !== undefined)) {
    box.append(el("p", { class: "muted rt-points-note" }, face().pointsNote(v, state.rules)));
  }
  if (between) return; // no rematch or record between two games of a match
  const line = el("p", { class: "muted", id: "rating-line", role: "status" });
  box.append(line);
  setTimeout(() => fillRatingLine(TABLE, line), 0); // a rated game: its change, or why not
  const links = el("p", {});
  if (mySeat() !== null) {
    links.append(el("button", { type: "button", class: "primary", id: "rematch", onclick: rematch }, _("Rematch")), " ");
  } else if (state.rematch) {
    links.append(el("a", { class: "button", href: `${state.rematch}/watch` }, _("Watch the rematch")), " ");
  }
  links.append(el("a", { class: "button", href: `/t/${encodeURIComponent(TABLE)}/record`, download: "" }, _("Download the record")), " ",
    el("a", { class: "button", href: `/analysis/${encodeURIComponent(TABLE)}` }, _("Analyse")), " ",
    el("a", { class: "button", href: "/" }, _("Lobby")));
  box.append(links);
}

/** Ask for the rematch (a POST: the first to ask makes it) and go to one's seat there. */
async function rematch() {
  try {
    location.assign((await postJson(`/t/${encodeURIComponent(TABLE)}/rematch`)).url);
  } catch (err) {
    showError(err.message);
  }
}

// ---- keys ---------------------------------------------------------------------------------
document.addEventListener("keydown", (ev) => {
  if (ev.target && (ev.target.tagName === "INPUT" || ev.target.tagName === "TEXTAREA")) return;
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const key = ev.key;
  if (key === "?") { toggleHelp(); return; }
  if (!state || state.status !== "playing" || mySeat() === null) return;
  if (key === " " || key === "Spacebar") { ev.preventDefault(); call(); return; }
  if (key === "Escape") { selected = null; moving = false; render(); return; }
  if (key === "m" && face().MOVES) { moving = Boolean(selected); if (!moving) showError(_("Choose a card first (1…5), then m and the empty space.")); return; }
  if (key === "j" || key === "k") { ev.preventDefault(); pilePressed(key === "j" ? 0 : 1); return; }
  if (/^[1-9]$/.test(key)) {
    const item = myCards()[Number(key) - 1];
    if (item) cardPressed(item);
  }
});

function toggleHelp() {
  const help = $("help");
  help.hidden = !help.hidden;
  $("help-button").setAttribute("aria-expanded", String(!help.hidden));
}
$("help-button").addEventListener("click", toggleHelp);

socket.connect();
