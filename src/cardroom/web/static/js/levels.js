// The bot levels and their words (shared by the lobby and the table pages).

/** Marks a message for the catalogs (the pages translate it where they show it). */
const N_ = (message) => message;

export const LEVELS = ["easy", "medium", "hard", "expert"];
export const LEVEL_WORDS = { easy: N_("easy"), medium: N_("medium"), hard: N_("hard"), expert: N_("expert") };
