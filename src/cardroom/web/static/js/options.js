// The options of Nain Jaune as the lobby offers them. Kept equal to

/** Marks a message for the catalogs (the lobby translates it where it shows it). */
const N_ = (message) => message;
// cardroom/games/nain_jaune/rules.py (Rules, PRESETS, _CHOICES) by tests/e2e/test_options_js.py.

export const PLAYERS_MIN = 2;
export const PLAYERS_MAX = 8;
export const LEVELS = ["easy", "medium", "hard", "expert"];
export const LEVEL_WORDS = { easy: N_("easy"), medium: N_("medium"), hard: N_("hard"), expert: N_("expert") };

/** Choice options: name -> {label, values: [[value, words]...]}; first value = classic. */
export const CHOICES = {
  when_blocked: {
    label: N_("When everybody is blocked"),
    values: [
      ["next-rank", N_("next-rank: the last player goes on with the next rank")],
      ["free-restart", N_("free-restart: the last player starts a new sequence")],
    ],
  },
  payment: {
    label: N_("Payment for cards left"),
    values: [
      ["points-ace-low", N_("points-ace-low: A=1, 2-10 face, J Q K = 10")],
      ["card-count", N_("card-count: 1 a card")],
      ["points-ace-high", N_("points-ace-high: A J Q K = 10")],
    ],
  },
  forgotten_announcement: {
    label: N_("Forgotten announcement"),
    values: [
      ["chips-stay", N_("chips-stay: the box keeps its chips")],
      ["double-box", N_("double-box: the forgetter doubles the box")],
    ],
  },
  announce: {
    label: N_("Announcements"),
    values: [
      ["auto", N_("auto: announced for you")],
      ["manual", N_("manual: claim the box yourself")],
    ],
  },
  grand_opera: {
    label: N_("Grand opéra"),
    values: [
      ["one-turn", N_("one-turn: all cards in one turn")],
      ["no-one-else-played", N_("no-one-else-played: and nobody else played")],
      ["off", N_("off")],
    ],
  },
  direction: {
    label: N_("Seat order on screen"),
    values: [
      ["clockwise", N_("clockwise")],
      ["anticlockwise", N_("anticlockwise")],
    ],
  },
  board_cards: {
    label: N_("Board cards"),
    values: [
      ["standard", N_("standard: 10♦ J♣ Q♠ K♥ 7♦")],
      ["regional", N_("regional: 10♦ J♣ Q♥ K♠ 7♦")],
    ],
  },
};

export const BOARD_SETS = {
  standard: ["10D", "JC", "QS", "KH", "7D"],
  regional: ["10D", "JC", "QH", "KS", "7D"],
};

export const END_KINDS = [
  ["broke", N_("broke: ends after a round someone could not pay")],
  ["last-standing", N_("last-standing: the last player with chips wins")],
  ["rounds", N_("after N rounds")],
  ["target", N_("first to hold N chips")],
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

export const PRESET_WORDS = {
  classic: N_("classic (the French rulebook)"),
  count: N_("count (1 chip a card, forgetters double)"),
  "ace-high": N_("ace-high (free restart, to 120 chips)"),
};
