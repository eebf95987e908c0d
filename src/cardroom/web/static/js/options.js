// The options of Nain Jaune as the lobby offers them. Kept equal to
// cardroom/games/nain_jaune/rules.py (Rules, PRESETS, _CHOICES) by tests/e2e/test_options_js.py.

export const PLAYERS_MIN = 2;
export const PLAYERS_MAX = 8;
export const LEVELS = ["easy", "medium", "hard", "expert"];

/** Choice options: name -> {label, values: [[value, words]...]}; first value = classic. */
export const CHOICES = {
  when_blocked: {
    label: "When everybody is blocked",
    values: [
      ["next-rank", "next-rank: the last player goes on with the next rank"],
      ["free-restart", "free-restart: he starts a new sequence"],
    ],
  },
  payment: {
    label: "Payment for cards left",
    values: [
      ["points-ace-low", "points-ace-low: A=1, 2-10 face, J Q K = 10"],
      ["card-count", "card-count: 1 a card"],
      ["points-ace-high", "points-ace-high: A J Q K = 10"],
    ],
  },
  forgotten_announcement: {
    label: "Forgotten announcement",
    values: [
      ["chips-stay", "chips-stay: the box keeps its chips"],
      ["double-box", "double-box: the forgetter doubles the box"],
    ],
  },
  announce: {
    label: "Announcements",
    values: [
      ["auto", "auto: announced for you"],
      ["manual", "manual: claim the box yourself"],
    ],
  },
  grand_opera: {
    label: "Grand opéra",
    values: [
      ["one-turn", "one-turn: all cards in one turn"],
      ["no-one-else-played", "no-one-else-played: and nobody else played"],
      ["off", "off"],
    ],
  },
  direction: {
    label: "Seat order on screen",
    values: [
      ["clockwise", "clockwise"],
      ["anticlockwise", "anticlockwise"],
    ],
  },
  board_cards: {
    label: "Board cards",
    values: [
      ["standard", "standard: 10♦ J♣ Q♠ K♥ 7♦"],
      ["regional", "regional: 10♦ J♣ Q♥ K♠ 7♦"],
    ],
  },
};

export const BOARD_SETS = {
  standard: ["10D", "JC", "QS", "KH", "7D"],
  regional: ["10D", "JC", "QH", "KS", "7D"],
};

export const END_KINDS = [
  ["broke", "broke: ends after a round someone could not pay"],
  ["last-standing", "last-standing: the last player with chips wins"],
  ["rounds", "after N rounds"],
  ["target", "first to hold N chips"],
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
  classic: "classic (the French rulebook)",
  count: "count (1 chip a card, forgetters double)",
  "ace-high": "ace-high (free restart, to 120 chips)",
};
