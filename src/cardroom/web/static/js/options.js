// The options of the lobby's turn-based game as the lobby offers them. Their values, presets and
// words (msgids, translated where shown) come from the server (/api/options/<game>, built from
// the game's rules module and its options' words, the registry's options_words piece): this
// file keeps no copy.
import { TURN_BASED } from "./games.js";

const model = await (await fetch(`/api/options/${encodeURIComponent(TURN_BASED)}`)).json();

export const PLAYERS_MIN = model.players_min;
export const PLAYERS_MAX = model.players_max;
export { LEVELS, LEVEL_WORDS } from "./games.js";

/** Where a rule comes from: short name -> words. */
export const SOURCES = model.sources;

/** Choice options: name -> {label, values: [[value, words, sources]...]}; first value = classic. */
export const CHOICES = model.choices;

/** The named sets of box cards. */
export const BOARD_SETS = model.board_sets;

/** How long the game lasts: [kind, words]; N is asked for rounds and target. */
export const END_KINDS = model.end_kinds;

/** The presets, every option written out (board_cards by set name). */
export const PRESETS = model.presets;

/** Each preset's name, short enough for a phone. */
export const PRESET_WORDS = model.preset_words;

/** Where each preset comes from (a key of SOURCES). */
export const PRESET_SOURCES = model.preset_sources;

/**
 * Measured by benchmarks/game_length.py (medium bots, classic rules, 60 chips, bot_delay 0.8 s,
 * 10 s between rounds): actions (cards and "without") in a round and rounds in a game, by players.
 */
export const LENGTH = {
  delay: 0.8,
  pause: 10,
  chips: 60,
  actions: { 2: 96.0, 3: 116.5, 4: 131.5, 5: 128.4, 6: 135.4, 7: 132.9, 8: 120.2 },
  rounds: {
    broke: { 2: 13.46, 3: 5.51, 4: 3.70, 5: 2.71, 6: 2.32, 7: 2.00, 8: 1.75 },
    "last-standing": { 2: 13.46, 3: 26.92, 4: 43.81, 5: 67.71, 6: 123.36, 7: 144.71, 8: 193.96 },
    target120: { 2: 50.77, 3: 10.46, 4: 4.99, 5: 3.23, 6: 2.26, 7: 1.73, 8: 1.43 },
  },
};

/**
 * About how many minutes a game lasts with bots at the default pace, or null when the
 * measurements say nothing about it (a target other than twice the starting chips).
 * More starting chips make a game ending on chips proportionally longer.
 */
export function estimateMinutes(players, kind, n, chips) {
  const perRound = (LENGTH.actions[players] * LENGTH.delay + LENGTH.pause) / 60;
  const scale = chips > 0 ? chips / LENGTH.chips : 1;
  let rounds = null;
  if (kind === "rounds") rounds = n;
  else if (kind === "broke" || kind === "last-standing") rounds = LENGTH.rounds[kind][players] * scale;
  else if (kind === "target" && n === 2 * chips) rounds = LENGTH.rounds.target120[players] * scale;
  if (rounds === null || !Number.isFinite(rounds) || !perRound) return null;
  return Math.max(1, Math.round(rounds * perRound));
}
