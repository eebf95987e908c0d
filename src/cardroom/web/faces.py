"""A game's face on the web: the registry's ``web`` piece, read here for every page and route.

The web layer names no game: for each one it asks the registry (:mod:`cardroom.games.registry`)
and that game's face, a module in the game's folder (``games/<game>/web``), which may define:

``checked(data, max_rounds)``, ``page(checked, first, count, lang, max_steps)``
    the replay viewer's frames (a record checked once, then cut into pages of rounds or games;
    a real-time game's are the real-time tier's, :mod:`cardroom.web.replay_realtime`).
``replay_step(engine, views)``, ``match_result(replays, number)``, ``result_parts(final)``
    a real-time game's own parts of a replay step, of a match of games won and of a result.
``add_stats(stats, record, seat, winner)``, ``stats_json(stats)``
    the figures My games shows for the game (a real-time game: the tier's by default).
``options_model()``
    the lobby's model of the game's options, presets and their words (``/api/options/<name>``).
``rounds_asked(body)``
    the rounds a create request's end asks for (checked against ``max_table_rounds``).
``rules_parts(tr)``, ``options_html(tr)``
    the rules page's drawn parts (``{{key}}`` marks of its text -> HTML) and its options section.
``table_config(body, name, bot_delay)``
    a turn-based game's table config from a create request (a real-time game's is the tier's).
``MATCH_OF_GAMES``
    True when the lobby may ask for a match of several games (``games`` option).
``HINTS_ONLY``
    the refusal said when hints are asked for at a game that has none.
``LEVEL_STRENGTH``
    each bot level's measured strength (``chips``, ``accuracy``) for the lobby.
``TABLE_PAGE``
    the template of its table page (default: ``table.html`` or ``realtime.html`` by kind).
``PAGE``
    what the pages know of the game's own (JSON, sent by ``GET /api/games``: e.g. ``slaps``).
``ANALYSIS_NAMES``
    ``"seats"`` when the game's analysis lists its players as names by seat.

Page parts: a file ``<part>.html`` beside the face (in the game's folder) is put where a page
says ``<!--#games <part>.html-->`` (``lobby.html``: the lobby's form of a turn-based game;
``lobby_realtime.html``: a real-time game's options in the lobby's real-time form, each field's
``data-option`` its option; ``play.html``: its Play now button; ``keys.html``: its keys on the
real-time table page; ``rules_link.html``: the lobby's link to its rules page). Its scripts
beside it are served at ``/games/<name>/<script>.js``: a real-time game's ``realtime.js`` is its
part of the table page and the replay viewer (``web/static/js/realtime.js`` loads every one).

A game with no face (``web`` is None), or a face without a part, gets the plain answer: its
tables listed (counted from their result in My games), its pages served, no replay frames
(the record has no rounds to show).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from cardroom.games.registry import REALTIME, Game, game, games, names, unnamed

__all__ = ["face", "part", "realtime_record", "record_game", "turn_based", "web_parts"]


def face(name: str | Game) -> ModuleType | None:
    """The web face of game ``name`` (None: the game has none); ``UnknownGame`` for a name no
    game has."""
    entry = name if isinstance(name, Game) else game(name)
    if entry.web is None:
        return None
    module: ModuleType = entry.load("web")
    return module


def part(name: str | Game, attribute: str, default: Any = None) -> Any:
    """Part ``attribute`` of game ``name``'s face (``default`` when it has none)."""
    found = face(name)
    return default if found is None else getattr(found, attribute, default)


def web_parts(attribute: str) -> list[tuple[Game, Any]]:
    """Every game whose face has part ``attribute``, with it, in the registry's order."""
    out = []
    for entry in games():
        found = part(entry, attribute)
        if found is not None:
            out.append((entry, found))
    return out


def turn_based() -> Game:
    """The first turn-based game: the game of a record or a create request that names none
    (records and clients from before a game was named)."""
    return game(unnamed())


def record_game(data: Any) -> Game:
    """The game a parsed record belongs to: its ``game`` field (a list's first item's), else
    the first turn-based game's (a list of rounds from before the field; that game's reader
    then says what is wrong with a record that is none of its)."""
    first = data[0] if isinstance(data, list) and data else data
    named = first.get("game") if isinstance(first, dict) else None
    if isinstance(named, str) and named in names():
        return game(named)
    return turn_based()


def realtime_record(data: Any) -> bool:
    """True for a real-time game's record (a game, or a non-empty list of games)."""
    if isinstance(data, list) and data:
        data = data[0]
    return isinstance(data, dict) and data.get("game") in names(REALTIME)
