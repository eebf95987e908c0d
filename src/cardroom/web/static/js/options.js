// The options of Nain Jaune as the lobby offers them, in words. Kept equal to
// cardroom/games/nain_jaune/rules.py (Rules, PRESETS, _CHOICES) and to the words of
// cardroom/i18n/options.py by tests/e2e/test_lobby.py and tests/i18n/test_option_words.py.

/** Marks a message for the catalogs (the lobby translates it where it shows it). */
const N_ = (message) => message;

export const PLAYERS_MIN = 2;
export const PLAYERS_MAX = 8;
export const LEVELS = ["easy", "medium", "hard", "expert"];
export const LEVEL_WORDS = { easy: N_("easy"), medium: N_("medium"), hard: N_("hard"), expert: N_("expert") };

/** Where a rule comes from. */
export const SOURCES = {
  french: N_("the French rulebook"),
  "how-to-deal": N_("the English text “How to deal the Yellow Dwarf”"),
  "yellow-dwarf-rules": N_("the English text “Yellow Dwarf Rules”"),
  house: N_("a house rule"),
  regional: N_("some regional French rulebooks"),
  table: N_("a table setting of cardroom"),
};

/** Choice options: name -> {label, values: [[value, words, sources]...]}; first value = classic. */
export const CHOICES = {
  when_blocked: {
    label: N_("When nobody has the next card"),
    values: [
      ["next-rank", N_("the one who played last goes on with the next rank"), ["french", "how-to-deal"]],
      ["free-restart", N_("the one who played last starts again with any card"), ["yellow-dwarf-rules"]],
    ],
  },
  payment: {
    label: N_("What the others pay the winner of a round"),
    values: [
      ["points-ace-low", N_("the value of their cards (ace 1, two to ten as marked, jack, queen and king 10)"), ["french"]],
      ["card-count", N_("one chip for each card left in their hand"), ["how-to-deal"]],
      ["points-ace-high", N_("the value of their cards (two to ten as marked, ace, jack, queen and king 10)"), ["yellow-dwarf-rules"]],
    ],
  },
  forgotten_announcement: {
    label: N_("A box its player forgot to take"),
    values: [
      ["chips-stay", N_("keeps its chips for a later round"), ["french"]],
      ["double-box", N_("keeps its chips, and the forgetter doubles it at the end of the round"), ["how-to-deal", "yellow-dwarf-rules"]],
    ],
  },
  announce: {
    label: N_("Taking a box"),
    values: [
      ["auto", N_("cardroom says “who takes” for you"), ["table"]],
      ["manual", N_("you say “who takes” yourself before your next move"), ["table"]],
    ],
  },
  grand_opera: {
    label: N_("The Grand Opéra (the whole board)"),
    values: [
      ["one-turn", N_("goes to a player who plays every card of their hand in one turn"), ["french"]],
      ["no-one-else-played", N_("goes to a player who plays every card in one turn before anyone else has played"), ["how-to-deal", "yellow-dwarf-rules"]],
      ["off", N_("is not played"), ["house"]],
    ],
  },
  may_stop: {
    label: N_("Holding the next card"),
    values: [
      ["false", N_("you must play it"), ["french", "how-to-deal"]],
      ["true", N_("you may keep it and say “without”"), ["house"]],
    ],
  },
  direction: {
    label: N_("Seats on the screen"),
    values: [
      ["clockwise", N_("follow each other clockwise"), ["table"]],
      ["anticlockwise", N_("follow each other anticlockwise"), ["table"]],
    ],
  },
  board_cards: {
    label: N_("The cards of the five boxes"),
    values: [
      ["standard", N_("ten of diamonds, jack of clubs, queen of spades, king of hearts, seven of diamonds"), ["french", "how-to-deal", "yellow-dwarf-rules"]],
      ["regional", N_("ten of diamonds, jack of clubs, queen of hearts, king of spades, seven of diamonds"), ["regional"]],
    ],
  },
};

export const BOARD_SETS = {
  standard: ["10D", "JC", "QS", "KH", "7D"],
  regional: ["10D", "JC", "QH", "KS", "7D"],
};

/** How long the game lasts: [kind, words]; N is asked for rounds and target. */
export const END_KINDS = [
  ["broke", N_("Until someone cannot pay")],
  ["rounds", N_("A number of rounds")],
  ["target", N_("Until someone holds a number of chips")],
  ["last-standing", N_("Until one has all the chips")],
];

const CLASSIC = {
  starting_chips: 60,
  when_blocked: "next-rank",
  payment: "points-ace-low",
  forgotten_announcement: "chips-stay",
  announce: "auto",
  grand_opera: "one-turn",
  may_stop: false,
  direction: "clockwise",
  end: "broke",
  board_cards: "standard",
};

/** The presets, every option written out (board_cards by set name). */
export const PRESETS = {
  classic: { ...CLASSIC },
  count: {
    ...CLASSIC,
    payment: "card-count",
    forgotten_announcement: "double-box",
    grand_opera: "no-one-else-played",
  },
  "ace-high": {
    ...CLASSIC,
    when_blocked: "free-restart",
    payment: "points-ace-high",
    forgotten_announcement: "double-box",
    grand_opera: "no-one-else-played",
    end: "target:120",
  },
};

/** Each preset's name, short enough for a phone. */
export const PRESET_WORDS = {
  classic: N_("French classic"),
  count: N_("One chip a card"),
  "ace-high": N_("Ace high, to 120"),
};

/** Where each preset comes from (a key of SOURCES). */
export const PRESET_SOURCES = { classic: "french", count: "how-to-deal", "ace-high": "yellow-dwarf-rules" };

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
