// Shared helpers of the cardroom pages: DOM building (text nodes only) and cards.

const SUITS = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const SUIT_SYMBOLS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
const RANK_NAMES = { A: "ace", J: "jack", Q: "queen", K: "king" };
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

/** "7D" -> {rank: "7", suit: "D"}. */
export function splitCard(code) {
  const c = String(code).toUpperCase();
  return { rank: c.slice(0, -1), suit: c.slice(-1) };
}

export function rankName(rank) {
  return RANK_NAMES[rank] || rank;
}

/** "7D" -> "7 of diamonds"; "QS" -> "queen of spades". */
export function cardLabel(code) {
  const { rank, suit } = splitCard(code);
  return `${rankName(rank)} of ${SUITS[suit] || suit}`;
}

/** "7D" -> "7♦". */
export function cardText(code) {
  const { rank, suit } = splitCard(code);
  return `${rank}${SUIT_SYMBOLS[suit] || suit}`;
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
  const img = el("img", {
    src: `/static/cards/${encodeURIComponent(rank + suit)}.svg`,
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
    let message = `The server answered ${response.status}.`;
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
