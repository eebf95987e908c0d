// Shared helpers of the cardroom pages: words in the page's language, DOM building (text
// nodes only) and cards.

// ---- languages: the catalogs are static/i18n/<lang>.json, built from the .po files ----------
export const LANGS = { en: "English", fr: "Français", cy: "Cymraeg" };
const LANG_COOKIE = "cr_lang";
const SPEECH_LANG = { en: "en-GB", fr: "fr-FR", cy: "cy-GB" };
let catalog = {};

function pick(tag) {
  const base = String(tag || "").toLowerCase().split(/[-_]/)[0];
  return Object.hasOwn(LANGS, base) ? base : null;
}

/** The language the address asks for (`?lang=fr`), kept in the page's links. */
const URL_LANG = pick(new URLSearchParams(location.search).get("lang"));

/** The page's language: the one the server wrote in `<html lang>` (?lang=, the switch's
 * cookie, else the request's Accept-Language), so the words and the page's lang never differ. */
export const LANG = pick(document.documentElement.lang) || "en";

/** Plural form index of n in the page's language (the .po files' rules). */
export function pluralIndex(n, lang = LANG) {
  if (lang === "fr") return n > 1 ? 1 : 0;
  if (lang === "cy") return n === 0 ? 0 : n === 1 ? 1 : n === 2 ? 2 : n === 3 ? 3 : n === 6 ? 4 : 5;
  return n === 1 ? 0 : 1;
}

// {card} is a field; {card.the} one form of a noun phrase ({bare, the, of_the, …}, made by
// cardroom.i18n.grammar and shipped in the catalog as "@phrases").
function fill(text, fields) {
  if (!fields) return text;
  return text.replace(/\{([a-z_]*)(?:\.([a-z_]+))?\}/g, (m, k, form) => {
    if (!(k in fields)) return m;
    const v = fields[k];
    if (v && typeof v === "object") return String((form && v[form]) || v.bare || "");
    return String(v);
  });
}

/** A message in the page's language, with its {fields} filled in. */
export function _(msg, fields) {
  const t = catalog[msg];
  return fill(typeof t === "string" && t ? t : msg, fields);
}

/** The name stored for a deleted player's seats (an msgid: shown in the reader's words). */
export const FORMER_PLAYER = "a former player";

/** A seat's or chat line's name as the reader sees it. */
export function personName(name) {
  return name === FORMER_PLAYER ? _("a former player") : name;
}

/** The plural form for n ({n} is filled in). */
export function ngettext(singular, plural, n, fields = {}) {
  const forms = catalog[singular];
  const all = { n, ...fields };
  if (Array.isArray(forms) && forms.length) return fill(forms[Math.min(pluralIndex(n), forms.length - 1)], all);
  return fill(n === 1 ? singular : plural, all);
}

let started = null;

/** Load the catalog, translate the page's marked texts and add the language switch (once: a
 * page's modules all wait for the same start). */
export function startI18n() {
  started ??= start();
  return started;
}

async function start() {
  if (LANG !== "en") {
    try {
      const response = await fetch(`/static/i18n/${LANG}.json`);
      if (response.ok) catalog = await response.json();
    } catch {
      catalog = {};
    }
  }
  for (const node of document.querySelectorAll("[data-i18n]")) {
    const key = node.getAttribute("data-i18n") || node.textContent.trim().replace(/\s+/g, " ");
    node.textContent = _(key);
  }
  for (const attr of ["aria-label", "title", "placeholder"]) {
    for (const node of document.querySelectorAll(`[data-i18n-${attr}]`)) {
      node.setAttribute(attr, _(node.getAttribute(`data-i18n-${attr}`)));
    }
  }
  const spot = document.querySelector(".topbar");
  if (spot && !document.getElementById("lang-switch")) {
    const select = el("select", { id: "lang-switch", class: "small", "aria-label": _("Language") },
      Object.entries(LANGS).map(([code, name]) => el("option", { value: code, lang: code, selected: code === LANG }, name)));
    select.addEventListener("change", () => {
      document.cookie = `${LANG_COOKIE}=${select.value}; Path=/; Max-Age=31536000; SameSite=Lax`;
      if (URL_LANG) {
        const url = new URL(location.href);
        url.searchParams.set("lang", select.value);
        location.replace(url.href);
      } else {
        location.reload();
      }
    });
    spot.append(select);
  }
  if (URL_LANG) {
    keepLangIn(document.body);
    new MutationObserver((changes) => {
      for (const change of changes) {
        if (change.type === "attributes") keepLangIn(change.target);
        for (const node of change.addedNodes) keepLangIn(node);
      }
    }).observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ["href"] });
  }
}

/** An address of this site with the page's ?lang= kept (other addresses as they are). */
export function withLang(href) {
  if (!URL_LANG || !href || href.startsWith("#")) return href;
  const url = new URL(href, location.href);
  if (url.origin !== location.origin || url.pathname.startsWith("/static/")) return href;
  url.searchParams.set("lang", URL_LANG);
  return url.pathname + url.search + url.hash;
}

function keepLangIn(node) {
  if (!(node instanceof Element)) return;
  const links = node.matches("a[href]") ? [node] : [...node.querySelectorAll("a[href]")];
  for (const a of links) {
    const href = a.getAttribute("href");
    const kept = withLang(href);
    if (kept !== href) a.setAttribute("href", kept);
  }
}

/** Say text aloud in the page's language (Web Speech API; silent where there is none). */
export function speak(text) {
  if (!("speechSynthesis" in window) || !text) return;
  const u = new SpeechSynthesisUtterance(text);
  u.lang = SPEECH_LANG[LANG] || "en-GB";
  const voice = speechSynthesis.getVoices().find((v) => pick(v.lang) === LANG);
  if (voice) u.voice = voice;
  speechSynthesis.speak(u);
}

const SUITS = { C: _N("clubs"), D: _N("diamonds"), H: _N("hearts"), S: _N("spades") };
const SUIT_SYMBOLS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
const RANK_NAMES = { A: _N("ace"), J: _N("jack"), Q: _N("queen"), K: _N("king") };

function _N(msg) {
  return msg;
}
export const RANK_ORDER = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

/** Build an element: el("div", {class: "x", onclick: f}, child, "text", ...). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      node.className = value;
    } else if (key === "text") {
      node.textContent = String(value);
    } else if (value === true) {
      node.setAttribute(key, "");
    } else {
      node.setAttribute(key, String(value));
    }
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Remove every child of a node. */
export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

const shownKeys = new WeakMap();

/** Refill `node` with `build()` only when `key` (what it shows) changed since its last fill, so
 * a frame that changes nothing there does not replace a button under a pointer mid-click (a
 * click whose press and release land on two different buttons is lost). True when refilled. */
export function fillIfChanged(node, key, build) {
  if (shownKeys.get(node) === key) return false;
  shownKeys.set(node, key);
  clear(node);
  build();
  return true;
}

/** Forget what `node` shows, so the next `fillIfChanged` refills it. */
export function forgetShown(node) {
  shownKeys.delete(node);
}

/** "7D" -> {rank: "7", suit: "D"}. */
export function splitCard(code) {
  const c = String(code).toUpperCase();
  return { rank: c.slice(0, -1), suit: c.slice(-1) };
}

export function rankName(rank) {
  return RANK_NAMES[rank] ? _(RANK_NAMES[rank]) : rank;
}

/** "7D" -> "7 of diamonds"; "QS" -> "queen of spades" (« dame de pique »). */
export function cardLabel(code) {
  const { rank, suit } = splitCard(code);
  return _("{rank} of {suit}", { rank: rankName(rank), suit: SUITS[suit] ? _(SUITS[suit]) : suit });
}

/** A card as a noun phrase of the page's language (its article, elision, mutations). */
export function cardPhrase(code) {
  const phrase = (catalog["@phrases"] || {})[String(code).toUpperCase()];
  return phrase || { bare: cardLabel(code) };
}

/** A rank ("A", "7", "Q") as a noun phrase of the page's language. */
export function rankPhrase(rank) {
  const phrase = (catalog["@phrases"] || {})[`rank:${rank}`];
  return phrase || { bare: rankName(rank) };
}

/** "7D" -> "7♦". */
export function cardText(code) {
  const { rank, suit } = splitCard(code);
  const letter = (catalog["@letters"] || {})[rank] || rank;
  return `${letter}${SUIT_SYMBOLS[suit] || suit}`;
}

export function isRed(code) {
  const s = splitCard(code).suit;
  return s === "D" || s === "H";
}

/** Rank numbers: A=1 ... K=13 (for sorting and the "need" display). */
export function rankValue(rank) {
  return RANK_ORDER.indexOf(rank) + 1;
}

export function rankSymbol(value) {
  return RANK_ORDER[Number(value) - 1] || String(value);
}

export function sortHand(codes) {
  const suitOrder = "CDHS";
  return [...codes].sort((a, b) => {
    const x = splitCard(a);
    const y = splitCard(b);
    return rankValue(x.rank) - rankValue(y.rank) || suitOrder.indexOf(x.suit) - suitOrder.indexOf(y.suit);
  });
}

/** An <img> of a card face; decorative when a parent carries the label. */
export function cardImg(code, { labelled = false } = {}) {
  const { rank, suit } = splitCard(code);
  // a court card of a pack printed with the language's own letters (French V, D, R)
  const folder = (catalog["@letters"] || {})[rank] ? `${LANG}/` : "";
  const img = el("img", {
    src: `/static/cards/${folder}${encodeURIComponent(rank + suit)}.svg`,
    class: "card-img",
    alt: labelled ? cardLabel(code) : "",
    draggable: "false",
  });
  return img;
}

/** A small face-up card (not interactive), labelled for screen readers. */
export function cardFace(code, extraClass = "") {
  return el("span", { class: `card ${extraClass}`.trim(), role: "img", "aria-label": cardLabel(code), title: cardText(code) },
    cardImg(code));
}

export function cardBack(extraClass = "") {
  return el("span", { class: `card back ${extraClass}`.trim(), "aria-hidden": "true" },
    el("img", { src: "/static/cards/back.svg", class: "card-img", alt: "" }));
}

/** Read a JSON response; throw an Error carrying the server's message. */
export async function readJson(response) {
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    let message = _("The server answered {status}.", { status: response.status });
    if (data) {
      const raw = data.message ?? data.detail ?? data.error;
      if (typeof raw === "string") message = raw;
      else if (Array.isArray(raw) && raw.length) message = raw.map((d) => d.msg || JSON.stringify(d)).join("; ");
      else if (raw && typeof raw === "object" && raw.message) message = raw.message;
    }
    const err = new Error(message);
    err.status = response.status;
    throw err;
  }
  return data;
}

/** Seconds left until a unix time, never negative. */
export function secondsUntil(at) {
  return Math.max(0, Math.ceil(Number(at) - Date.now() / 1000));
}

// ---- a table page's websocket ---------------------------------------------------------------

/** The table a page shows, from its address: /t/<id> (a seat or the creator) or /t/<id>/watch. */
export function tableAddress() {
  const parts = location.pathname.split("/").filter(Boolean); // ["t", id] or ["t", id, "watch"]
  return { table: decodeURIComponent(parts[1] || ""), watch: parts[2] === "watch" };
}

/** The connection badge in the top bar. */
/** POST an empty JSON body to this server (a change a GET must not make); the answer's JSON,
 * or an Error with the server's words. */
export async function postJson(path) {
  const response = await fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: "{}", credentials: "same-origin",
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.message || _("The server refused that."));
  return body;
}

export function setConn(text, kind) {
  const c = document.getElementById("conn");
  c.textContent = text;
  c.dataset.kind = kind;
}

/** Milliseconds to wait before the `retry`-th attempt (1, 2, …): doubling from `first`, at most
 * `max`, drawn within ±25 %. */
export function reconnectDelay(retry, first, max, random = Math.random) {
  const base = Math.min(max, first * 2 ** Math.max(0, retry - 1));
  return Math.round(base * (0.75 + 0.5 * random()));
}

/** Milliseconds between the page's pings, and without any frame after which the page takes the
 * connection for dead (a server cut from its database, a lost network: nothing closes it). */
export const PING_MS = 2000;
export const SILENT_MS = 6000;

/** One websocket to a table, opened again after a drop: after `backoffMs`, then twice as long
 * each time up to `maxMs`, each wait drawn ±25 % (so pages do not all knock at once after a
 * restart, and one is back within about a second once the server answers).
 * A heartbeat: a ping every `PING_MS`; a connection that brings nothing (no frame, no pong) for
 * `SILENT_MS` is dropped (the page says so) and opened again, as a closed one is.
 * `onFrame` gets every frame that parses; `onOpening` runs as each connection starts, `onClose`
 * as each one ends. A table that cannot be opened (4403, 4404) is not tried again. */
export function tableSocket(table, watch, { onFrame, onOpening = () => {}, onClose = () => {}, backoffMs = 300, maxMs = 1600, pingMs = PING_MS, silentMs = SILENT_MS }) {
  let ws = null;
  let retry = 0;
  let heard = 0;
  let pings = 0;
  let beat = null;
  const connected = () => Boolean(ws && ws.readyState === WebSocket.OPEN);
  function again(mine) {
    if (ws !== mine) return; // (a connection given up on already)
    ws = null;
    clearInterval(beat);
    onClose();
    retry = Math.min(retry + 1, 8);
    setTimeout(connect, reconnectDelay(retry, backoffMs, maxMs));
  }
  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const mine = new WebSocket(`${proto}//${location.host}/ws/${encodeURIComponent(table)}?${watch ? "watch=1&" : ""}lang=${LANG}`);
    ws = mine;
    heard = Date.now();
    onOpening();
    setConn(_("connecting…"), "wait");
    mine.addEventListener("open", () => {
      if (ws !== mine) return;
      retry = 0;
      heard = Date.now();
      setConn(watch ? _("watching") : _("connected"), "ok");
    });
    mine.addEventListener("message", (ev) => {
      if (ws !== mine) return;
      heard = Date.now();
      let frame;
      try { frame = JSON.parse(ev.data); } catch { return; }
      if (frame.type === "pong") return;
      onFrame(frame);
    });
    mine.addEventListener("close", (ev) => {
      if (ws !== mine) return;
      if (ev.code === 4404 || ev.code === 4403) {
        ws = null;
        clearInterval(beat);
        onClose();
        setConn(_("this table cannot be opened"), "bad");
        return;
      }
      setConn(_("reconnecting…"), "wait");
      again(mine);
    });
    clearInterval(beat);
    beat = setInterval(() => {
      if (ws !== mine) return;
      if (Date.now() - heard > silentMs) { // nothing for seconds: this connection is dead
        setConn(_("no word from the server for a few seconds: reconnecting…"), "bad");
        try { mine.close(); } catch { /* closing a dead socket */ }
        again(mine);
        return;
      }
      if (mine.readyState === WebSocket.OPEN) mine.send(JSON.stringify({ type: "ping", id: `hb${++pings}` }));
    }, pingMs);
  }
  /** Send `msg` as JSON; false (and nothing sent) while not connected. */
  function send(msg) {
    if (!connected()) return false;
    ws.send(JSON.stringify(msg));
    return true;
  }
  return { connect, connected, send };
}

// ---- numbers ------------------------------------------------------------------------------
const numberFormats = new Map();

/** A number as the page's language writes it ("3.4" / "3,4"; Welsh as English): exactly
 * ``places`` decimals, and its sign (+3, −2, 0) with ``sign``. Every figure a person reads. */
export function num(x, places = 0, { sign = false } = {}) {
  if (x === null || x === undefined || x === "" || Number.isNaN(Number(x))) return "";
  const key = `${places}/${sign}`;
  if (!numberFormats.has(key)) {
    numberFormats.set(key, new Intl.NumberFormat(document.documentElement.lang || LANG, {
      minimumFractionDigits: places, maximumFractionDigits: places, signDisplay: sign ? "exceptZero" : "auto",
    }));
  }
  return numberFormats.get(key).format(Number(x));
}

/** A percentage (61.7 for 61.7 %) as the page's language writes it, whole: "62%" / "62 %". */
export function percentText(x) {
  if (x === null || x === undefined) return "–";
  return new Intl.NumberFormat(document.documentElement.lang || LANG, { style: "percent", maximumFractionDigits: 0 }).format(Number(x) / 100);
}

/** The end screen's line on a rated game: asks the server (which counts a finished rated game
 * within a few seconds) until it says, then fills ``line`` with the rating change or why the
 * game was not rated. A friendly table leaves it empty. */
export async function fillRatingLine(table, line) {
  for (let tries = 0; tries < 8 && line.isConnected; tries += 1) {
    let data;
    try {
      data = await (await fetch(`/api/tables/${encodeURIComponent(table)}/rating`)).json();
    } catch {
      return;
    }
    if (!data.rated) return;
    if (data.counted) {
      line.textContent = data.unrated || (Array.isArray(data.rating)
        ? _("rating {before} → {after}", { before: ratingText(data.rating[0]), after: ratingText(data.rating[1]) })
        : "");
      return;
    }
    line.textContent = _("Rated game: counting…");
    await new Promise((resolve) => setTimeout(resolve, 1500));
  }
}

/** A rating as every page shows it (the lobby's bots, the leaderboard, my games): whole, on
 * the scale where a newcomer has 1500; a provisional one (too few rated games) ends in "?". */
export function ratingText(x, provisional = false) {
  // whole and ungrouped in every language, as chess sites write ratings ("1500", not "1 500")
  const text = new Intl.NumberFormat(document.documentElement.lang || LANG, { maximumFractionDigits: 0, useGrouping: false }).format(Number(x));
  return provisional ? `${text}?` : text;
}

/** A round's settlement, one row per player, one column per kind of payment (the table's end
 * of round and the replay viewer): ``nameOf(seat)`` names a row's player. */
export function settlementTable(res, nameOf) {
  const cols = [
    ["stake", _("Stake")], ["taken", _("Boxes taken")], ["cards", _("Cards")],
    ["doubled", _("Doubled boxes")], ["grand_opera", _("Grand Opéra")],
  ];
  const rows = res.rows || [];
  const shown = cols.filter(([k]) => rows.some((row) => row[k] !== undefined));
  // a column where nobody paid or received anything: a phone leaves it out (app.css)
  const empty = (k) => (rows.every((row) => !row[k]) ? "empty-col" : null);
  return el("div", { class: "table-scroll" }, el("table", { class: "settlement" },
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, _("Player")),
      shown.map(([k, label]) => el("th", { scope: "col", class: empty(k) }, label)),
      el("th", { scope: "col" }, _("Total")), el("th", { scope: "col", class: "chips-col" }, _("Chips")))),
    el("tbody", {}, rows.map((row) => el("tr", { class: row.seat === res.winner ? "winner" : null },
      el("th", { scope: "row" }, nameOf(row)),
      shown.map(([k]) => el("td", { class: row[k] ? null : `zero ${empty(k) || ""}`.trim() }, row[k] ? num(row[k], 0, { sign: true }) : "·")),
      el("td", { class: "total" }, num(row.total ?? row.paid, 0, { sign: true })),
      el("td", { class: "chips-col" }, num(row.chips)))))));
}
