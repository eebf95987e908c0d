// The games, from the server's registry (/api/games): name -> title (an English msgid that the
// page translates where it shows it). No page keeps its own list of games.

const model = await (await fetch("/api/games")).json();

/** Each registered game's title, by name, in the registry's order. */
export const GAME_NAMES = Object.fromEntries(model.games.map((g) => [g.name, g.title]));
