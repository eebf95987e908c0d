// The games and the bots' levels, from the server (/api/games: the games' registry and the
// levels the tables accept). Titles and words are English msgids that the page translates
// where it shows them. No page keeps its own list of games or levels.

const model = await (await fetch("/api/games")).json();

/** Each registered game's title, by name, in the registry's order. */
export const GAME_NAMES = Object.fromEntries(model.games.map((g) => [g.name, g.title]));

/** Each game as the registry describes it: {name, title, kind ("turn-based"|"realtime"), players: [min, max]}. */
export const GAMES = Object.fromEntries(model.games.map((g) => [g.name, g]));

/** The first turn-based game: the lobby's table form and the turn-based table page are its. */
export const TURN_BASED = model.games.find((g) => g.kind === "turn-based")?.name;

/** What the pages know of a game's own (its web face's page model, e.g. which calls and piles it has). */
export const pageOf = (name) => GAMES[name]?.page || {};

/** True for a game two play against each other in real time (a bot takes the other seat). */
export const isRealtime = (name) => GAMES[name]?.kind === "realtime";

/** The bots' levels, weakest first. */
export const LEVELS = model.levels.map((lv) => lv.name);

/** Each level's name (a msgid): easy, medium… */
export const LEVEL_WORDS = Object.fromEntries(model.levels.map((lv) => [lv.name, lv.words]));

/** The bot of each level as a sentence names it (a msgid): the easy bot… */
export const BOT_WORDS = Object.fromEntries(model.levels.map((lv) => [lv.name, lv.bot]));
