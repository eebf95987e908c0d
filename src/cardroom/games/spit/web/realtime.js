// Spit's own part of the real-time table page (web/static/js/realtime.js asks it): the stock
// piles (a face-down top is turned up, a chosen card may move into an empty space with "m"),
// the spit pile, the call "Spit!", and the slap race or the chosen pile after a new layout.
import { _, cardFace, el, ngettext } from "/static/js/common.js";

/** The action that calls a stalemate. */
export const CALL = "spit";

/** "m" then a digit moves the chosen card into that empty space. */
export const MOVES = true;

/** The result shows no points (a game is won, not scored). */
export const POINTS = false;

/** The page's words that name the game's call. */
export function words(touch) {
  return {
    stalemate: _("Stalemate: call “Spit!”"),
    start: touch ? _("Call “Spit!” to start.") : _("Call “Spit!” to start (Space)."),
    stuck: touch ? _("Nobody can move: call “Spit!”.") : _("Nobody can move: call “Spit!” (Space)."),
    called: _("called “Spit!”"),
    call: touch ? _("“Spit!”") : _("“Spit!” (Space)"),
  };
}

/** The cards a seat can aim at a pile: the tops of its stock piles (face up or not). */
export function myCards(v, seat) {
  return (v.stocks[seat] || []).map(([top, n], i) => ({ card: top, stock: i, n }));
}

/** A middle pile pressed with no card chosen: a slap or a choice after a new layout. */
export function pileAct(v, pile, sinceSlap) {
  if (v.phase === "slap") return { action: { type: "slap", pile } };
  if (v.phase === "choose") return { action: { type: "choose", pile } };
  if (sinceSlap < 2000) return { error: _("Too late: the middle piles were already taken.") };
  return null;
}

/** One of my stock piles pressed: turn its top up, or move the chosen card into an empty
 * space; null when the card is chosen as usual, {} when nothing happens. */
export function cardAct(item, selected, moving) {
  const move = selected && selected.card ? { type: "move", card: selected.card, to_stock: item.stock } : null;
  if (moving && move && item.n === 0) return { action: move, clear: true };
  if (item.n > 0 && !item.card) return { action: { type: "turn-up", stock: item.stock } };
  if (item.n === 0) return move ? { action: move, clear: true } : {};
  return null;
}

/** The other player's side: their stock piles and their spit pile. */
export function theirRow(v, them, pileBox) {
  return [
    ...(v.stocks[them] || []).map(([top, n], i) => pileBox(`${n}`, top, n, { "data-their-stock": i })),
    pileBox(_("spit pile {n}", { n: v.spit_left[them] }), null, v.spit_left[them]),
  ];
}

/** Seat 1's side as a spectator sees it (face-up tops only). */
export function watchedRow(v, seat, pileBox) {
  return [
    ...(v.stocks[seat] || []).map(([top, n]) => pileBox(`${n}`, top, n)),
    pileBox(_("spit pile {n}", { n: v.spit_left[seat] }), null, v.spit_left[seat]),
  ];
}

/** The slap or choose buttons after a new layout. */
export function phaseButtons(v, act, touch) {
  if (v.phase !== "slap" && v.phase !== "choose") return [];
  return [0, 1].map((pile) => {
    const f = { number: pile + 1, key: pile === 0 ? "j" : "k" };
    return el("button", {
      type: "button", class: "claim", "data-slap": pile,
      onclick: () => act({ type: v.phase === "slap" ? "slap" : "choose", pile }),
    }, v.phase === "slap"
      ? (touch ? _("Slap pile {number}", f) : _("Slap pile {number} ({key})", f))
      : (touch ? _("Choose pile {number}", f) : _("Choose pile {number} ({key})", f)));
  });
}

/** Under my cards: what is left of my spit pile. */
export function extra(v, me) {
  return ngettext("spit pile: {n} card", "spit pile: {n} cards", v.spit_left[me]);
}

/** The cards a seat still has to get rid of. */
export function cardsLeft(v, g) {
  return (v.stocks[g] || []).reduce((a, [, n]) => a + n, 0) + v.spit_left[g];
}

// ---- the replay viewer (web/static/js/replay_realtime.js) ----------------------------------

/** A replay step's row of a seat's cards: its stock piles, all face up, and its spit pile. */
export function replayRow(step, g) {
  return [
    ...(step.stocks[g] || []).map((p, i) => el("span", { class: "rt-replay-stock", role: "group", "aria-label": _("stock pile {number}", { number: i + 1 }) },
      p.cards.length ? p.cards.map((c, k) => cardFace(c, `small${k === p.cards.length - 1 && !p.up ? " rt-down" : ""}`)) : el("span", { class: "muted" }, "–"))),
    el("span", { class: "muted" }, " " + _("spit pile {n}", { n: step.spit_left[g] })),
  ];
}
