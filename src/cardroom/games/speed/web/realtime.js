// Speed's own part of the real-time table page (web/static/js/realtime.js asks it): the hand
// of five and the draw pile, the side piles at either end of the middle, the call for the flip,
// and the points a won game scores.
import { _, cardBack, cardFace, el, ngettext } from "/static/js/common.js";

/** The action that calls a stalemate. */
export const CALL = "call";

/** "m" moves nothing in this game. */
export const MOVES = false;

/** The result shows each player's points. */
export const POINTS = true;

/** The page's words that name the game's call. */
export function words(touch) {
  return {
    stalemate: _("Flip called"),
    start: touch ? _("Call for the flip to start.") : _("Call for the flip to start (Space)."),
    stuck: _("Flip called: the side piles turn."),
    called: _("called for the flip"),
    call: touch ? _("Flip") : _("Flip (Space)"),
  };
}

/** The cards a seat can aim at a pile: its hand, left to right. */
export function myCards(v) {
  return (v.hand || []).map((card, i) => ({ card, stock: i, n: 1 }));
}

/** The other player's side: their hand face down and their draw pile. */
export function theirRow(v, them, pileBox) {
  const n = v.hand_sizes[them];
  const hand = el("div", { class: "rt-hand-back", role: "img", "aria-label": ngettext("{n} card in hand", "{n} cards in hand", n) });
  for (let i = 0; i < n; i++) hand.append(cardBack("rt-card"));
  return [hand, pileBox(_("draw pile {n}", { n: v.draw_sizes[them] }), null, v.draw_sizes[them])];
}

/** Seat 1's side as a spectator sees it: how many cards in hand and to draw. */
export function watchedRow(v, seat, pileBox, name) {
  const hand = ngettext("{n} card in hand", "{n} cards in hand", v.hand_sizes[seat]);
  const draw = ngettext("{n} card to draw", "{n} cards to draw", v.draw_sizes[seat]);
  return [el("span", { class: "muted" }, _("{name}: {hand}, {draw}", { name, hand, draw }))];
}

/** The side piles at either end of the middle piles. */
export function middleEnds(v, pileBox) {
  return [0, 1].map((i) => pileBox(_("side {n}", { n: v.side_sizes[i] }), null, v.side_sizes[i]));
}

/** Under my cards: what is left of my draw pile. */
export function extra(v, me) {
  return ngettext("draw pile: {n} card", "draw pile: {n} cards", v.draw_sizes[me]);
}

/** The cards a seat still has to get rid of. */
export function cardsLeft(v, g) {
  return v.hand_sizes[g] + v.draw_sizes[g];
}

/** What a won game's points counted. */
export function pointsNote(v, rules) {
  const loser = 1 - v.winner;
  const fromHand = (v.draw_sizes || [])[loser] === 0; // rules version 4: the hand then counts
  return rules && rules.score_hand
    ? _("Points: one for each card the loser still had to draw, and in hand.")
    : fromHand ? _("Points: one for each card left in the loser’s hand, their draw pile being empty.")
      : _("Points: one for each card the loser still had to draw (their draw pile).");
}

// ---- the replay viewer (web/static/js/replay_realtime.js) ----------------------------------

/** A replay step's row of a seat's cards: its hand face up and its draw pile. */
export function replayRow(step, g) {
  return [
    ...(step.hands[g] || []).map((c) => cardFace(c, "small")),
    el("span", { class: "muted" }, " " + ngettext("{n} card to draw", "{n} cards to draw", step.draw_sizes[g])),
  ];
}

/** A replay step's side piles, at either end of the middle: face down while they hold cards. */
export function replayEnds(step) {
  return [0, 1].map((i) => {
    const n = step.side_sizes[i];
    const shown = n > 0 ? cardBack("small") : el("span", { class: "card small rt-empty", "aria-hidden": "true" });
    return el("span", { class: "rt-replay-pile" }, shown, el("span", { class: "rt-count" }, _("side {n}", { n })));
  });
}

/** What a won game's points counted, under its result. */
export function replayPoints(res) {
  if (res.points === undefined) return null;
  const n = res.points;
  const said = res.points_from === "hand"
    ? ngettext("{n} point: one for each card left in the loser’s hand (their draw pile was empty).", "{n} points: one for each card left in the loser’s hand (their draw pile was empty).", n)
    : res.points_from === "both"
      ? ngettext("{n} point: one for each card the loser still held, in hand and draw pile.", "{n} points: one for each card the loser still held, in hand and draw pile.", n)
      : ngettext("{n} point: one for each card left in the loser’s draw pile.", "{n} points: one for each card left in the loser’s draw pile.", n);
  return el("p", { class: "r-points" }, said);
}
