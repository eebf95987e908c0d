"""The games cardroom plays, named in one place, and what each one provides.

Every layer asks this module about a game instead of spelling its name: which games there are
(:data:`GAMES`, in the order menus show them), a game by its record name (:func:`game`), and for
that game its rules, engine, view, record reader, kind of table, bots, analysis, rules page and
its pieces for the terminal and the web (:class:`Game`). A game is registered with
:func:`register`; ``docs/architecture.md`` ("Adding a game") lists what it provides and which
layers still name the games by hand.

The pieces are named, not imported: a reference is ``"package.module:attribute"`` (or a module
alone), imported the first time it is asked for (:meth:`Game.load`). So importing the registry
imports no engine, no numba, no web framework and no terminal toolkit, and the rules core
(``games/``) still imports nothing above it; the layer that asks for a piece is the one that
imports it.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal

__all__ = [
    "GAMES",
    "REALTIME",
    "TURN_BASED",
    "Game",
    "TableKind",
    "UnknownGame",
    "game",
    "games",
    "names",
    "new_engine",
    "register",
    "title",
    "unnamed",
    "unregister",
]

TableKind = Literal["turn-based", "realtime"]
TURN_BASED: TableKind = "turn-based"
"""A table where seats take turns (Nain Jaune): each move is checked against whose turn it is."""
REALTIME: TableKind = "realtime"
"""A table with no turns (Spit, Speed): both players act at once, an arbiter orders the actions
by time and a countdown settles a stalemate."""


class UnknownGame(ValueError):
    """No game of that name is registered; the message lists the ones that are."""

    def __init__(self, name: object, known: tuple[str, ...]) -> None:
        super().__init__(f"unknown game {name!r}: choose one of {', '.join(known)}")
        self.name = name
        self.known = known


@dataclass(frozen=True, slots=True)
class Game:
    """One game and where each of its pieces lives (``"module:attribute"`` or ``"module"``).

    ``name`` is the game's name in records, the protocol, the database and on the command line;
    ``title`` its name for people (an English msgid, translated where it is shown). A piece a
    game does not have is ``None``.
    """

    name: str
    title: str
    kind: TableKind
    players: tuple[int, int]
    """The fewest and the most players at a table."""
    rules: str
    """The rules class: ``from_options(mapping)`` reads ``key=value`` options."""
    engine: str
    """The engine: a turn-based game's round/game classes module, a real-time game's class with
    ``new(rules, seed, rules_version)``."""
    view: str
    """What one seat may see."""
    record: str
    """The record reader (a real-time game's: ``record_header``, ``game_from_header``)."""
    table: str
    """The table state machine the table service runs over the log."""
    rules_version: str
    """Today's version of the rules (a table's ``created`` entry keeps the one it plays)."""
    table_parts: str | None = None
    """A real-time game's own part of its table (``games/<game>/table.py``, read by
    :mod:`cardroom.tables.realtime`, which names no game): ``UNNAMED_VERSION`` (the rules
    version of a table whose log names none), ``check_games(games)`` and
    ``check_rules(rules, rules_version)`` (a config it refuses: ``ValueError``),
    ``new_match(rules, seed, games, rules_version)`` (the table's match, None for a single
    game), ``match_frame(match)`` (its ``unit`` and ``target`` in a frame),
    ``view_frame(view, seat)`` (its own fields of a seat's ``table_view``) and
    ``record_header(engine, players, match)`` (the header of a match's game record)."""
    target_match: str | None = None
    """A real-time game played to a target score: the match class, ``cls(rules, seed)``, used
    when ``rules.target > 0`` (its ``game`` is the game being played)."""
    options_words: str | None = None
    """The module that declares the game's options once, with their words (its rules module):
    ``OPTIONS`` (a tuple of :class:`~cardroom.games.options.Option`: key, label, values with
    their words and sources, in the lobby's order) and ``SOURCES`` (where a rule comes from, by
    short name); read by ``cardroom.i18n.options`` for the lobby, the rules page and the
    refusals' words."""
    bots: str | None = None
    """The bots and their levels (imported, they register with ``cardroom.bots``; a module
    with a ``make_bot(spec)`` of its own makes the game's bots by spec or level instead)."""
    hints: str | None = None
    """A turn-based game's hint for a person's own move: ``hint(view, *, seed, lang)`` ->
    ``(action as text, reason in words)``, a ``ValueError`` when there is no move to suggest
    (None: the game offers no hints)."""
    analysis: str | None = None
    """The analysis of a finished game."""
    rules_page: str | None = None
    """The package whose folder holds the rules page's hand-written text, one file per
    language: ``rules.<lang>.html`` (``games/<game>/rules.en.html`` …)."""
    terminal: str | None = None
    """The terminal's face for the game (a real-time game's: a module whose ``SEAT`` shows a
    seat and turns keys into actions for ``cardroom.terminal.realtime_tui``)."""
    web: str | None = None
    """The game's face on the web: a module the web layer reads (see ``cardroom.web.faces``:
    its table page, replay frames, figures in My games, rules page parts, lobby form)."""
    wire: str | None = None
    """A seat's websocket frame read back into the view its bots decide on, and their action
    written as the ``act`` message (``view_from_frame``, ``act_message``, ``Reader``): what a
    program playing over the network uses (``cardroom bot connect``)."""
    cli: str | None = None
    """The game's ``cardroom`` commands: a module that adds them to the command groups when
    imported (``cli/main.py`` imports every game's)."""
    words: str | None = None
    """The game's words (``games/<game>/words.py``, a module of the i18n layer): ``MESSAGES``
    (its message ids -> English msgids, merged into ``cardroom.i18n.messages.MESSAGES``),
    optionally ``FIXED`` (fixed refusals that name the game, by their English sentence), ``WHAT``
    (the phase words of its refusals), ``web_words()`` (msgids its lobby model sends) and its
    own sentences (a table's rules line …); for the command line's help, ``HELP_EXAMPLES``
    (its examples by command group) and ``ANALYSIS_HELP`` (what its analysis tells)."""
    bot_ratings: str | None = None
    """Each bot level's fixed rating, ``{level: (mu, sigma)}`` measured by tournament: the
    rating a page shows for a bot and the one people's ratings are measured against."""

    @property
    def realtime(self) -> bool:
        """True for a game with no turns (its table is a real-time table)."""
        return self.kind == REALTIME

    def load(self, piece: str) -> Any:
        """The piece named by field ``piece`` (``"rules"``, ``"table"`` …), imported now.

        Raises :class:`LookupError` when the game has no such piece.
        """
        ref = getattr(self, piece)
        if not isinstance(ref, str):
            raise LookupError(f"{self.name} has no {piece}")
        return resolve(ref)

    def rules_from(self, options: Mapping[str, Any]) -> Any:
        """The game's rules with ``options`` (``key=value`` by name) applied."""
        return self.load("rules").from_options(dict(options))

    def match_for(self, rules: Any, seed: int) -> Any | None:
        """A match to ``rules.target`` dealt from ``seed`` (None: the game has no such match or
        the rules ask for a single game)."""
        if self.target_match is None or getattr(rules, "target", 0) <= 0:
            return None
        return self.load("target_match")(rules, seed)

    def new_engine(
        self, options: Mapping[str, Any], seed: int, rules_version: int | None = None
    ) -> Any:
        """A new real-time game with ``options``, dealt by ``seed``, under ``rules_version``
        of its rules (None: today's)."""
        if not self.realtime:
            raise LookupError(f"{self.name} is not a real-time game")
        return self.load("engine").new(self.rules_from(options), seed, rules_version)


def resolve(ref: str) -> Any:
    """``"package.module:attribute"`` (or a module alone), imported."""
    module, _, attribute = ref.partition(":")
    loaded = importlib.import_module(module)
    return getattr(loaded, attribute) if attribute else loaded


_GAMES: dict[str, Game] = {}


def register(entry: Game) -> Game:
    """Add a game (a name already taken is refused); return it."""
    if entry.name in _GAMES:
        raise ValueError(f"a game named {entry.name!r} is registered already")
    _GAMES[entry.name] = entry
    return entry


def unregister(name: str) -> None:
    """Remove a game added by :func:`register` (tests that register one of their own)."""
    _GAMES.pop(name, None)


def game(name: object) -> Game:
    """The game of that name; :class:`UnknownGame` (a ``ValueError``) if there is none."""
    found = _GAMES.get(name) if isinstance(name, str) else None
    if found is None:
        raise UnknownGame(name, names())
    return found


def new_engine(
    name: str, options: Mapping[str, Any], seed: int, rules_version: int | None = None
) -> Any:
    """A new real-time game ``name`` with ``key=value`` options, dealt by ``seed``, under
    ``rules_version`` of its rules (None: today's); :class:`UnknownGame` for a name that is
    not a real-time game's, :class:`~cardroom.games.errors.RulesError` for a bad option."""
    entry = game(name)
    if not entry.realtime:
        raise UnknownGame(name, names(REALTIME))
    return entry.new_engine(options, seed, rules_version)


def title(name: str) -> str:
    """The name people see for game ``name`` (an English msgid: translate it where it is
    shown); a name no game has is given back as it is."""
    found = _GAMES.get(name)
    return name if found is None else found.title


def unnamed() -> str:
    """The game of a record, log, frame or config that names none: the first turn-based game
    (they all come from before a game was named)."""
    return names(TURN_BASED)[0]


def games(kind: TableKind | None = None) -> Iterator[Game]:
    """Every game in the order menus show them (only those of ``kind`` if given)."""
    return (g for g in tuple(_GAMES.values()) if kind is None or g.kind == kind)


def names(kind: TableKind | None = None) -> tuple[str, ...]:
    """The names of :func:`games`."""
    return tuple(g.name for g in games(kind))


class _Games(Mapping[str, Game]):
    """A live read-only view of the registered games by name (see :data:`GAMES`)."""

    def __getitem__(self, name: str) -> Game:
        return _GAMES[name]

    def __iter__(self) -> Iterator[str]:
        return iter(tuple(_GAMES))

    def __len__(self) -> int:
        return len(_GAMES)


GAMES: Mapping[str, Game] = _Games()
"""Every registered game by name, in menu order (python-chess's ``VARIANTS``; read only: add a
game with :func:`register`)."""

register(
    Game(
        name="nain-jaune",
        title="Nain Jaune",
        kind=TURN_BASED,
        players=(2, 8),
        rules="cardroom.games.nain_jaune.rules:Rules",
        engine="cardroom.games.nain_jaune.engine",
        view="cardroom.games.nain_jaune.view:view_of",
        record="cardroom.games.nain_jaune.record",
        table="cardroom.games.nain_jaune.table:NainJauneTable",
        rules_version="cardroom.games.nain_jaune.rules:RULES_VERSION",
        options_words="cardroom.games.nain_jaune.rules",
        words="cardroom.games.nain_jaune.words",
        bots="cardroom.games.nain_jaune.bots",
        hints="cardroom.games.nain_jaune.bots.hint:hint",
        analysis="cardroom.games.nain_jaune.analysis",
        rules_page="cardroom.games.nain_jaune",
        wire="cardroom.games.nain_jaune.wire",
        terminal="cardroom.games.nain_jaune.terminal.tui",
        bot_ratings="cardroom.games.nain_jaune.bot_ratings:BOT_RATINGS",
        web="cardroom.games.nain_jaune.web",
        cli="cardroom.games.nain_jaune.cli",
    )
)
register(
    Game(
        name="spit",
        title="Spit",
        kind=REALTIME,
        players=(2, 2),
        rules="cardroom.games.spit.rules:SpitRules",
        engine="cardroom.games.spit.engine:SpitGame",
        view="cardroom.games.spit.view",
        record="cardroom.games.spit.record",
        table="cardroom.tables.realtime:RealtimeTable",
        rules_version="cardroom.games.spit.rules:RULES_VERSION",
        table_parts="cardroom.games.spit.table",
        bots="cardroom.games.spit.bots",
        analysis="cardroom.analysis.realtime",
        rules_page="cardroom.games.spit",
        options_words="cardroom.games.spit.rules",
        words="cardroom.games.spit.words",
        wire="cardroom.games.spit.wire",
        terminal="cardroom.games.spit.terminal",
        bot_ratings="cardroom.games.spit.bot_ratings:BOT_RATINGS",
        web="cardroom.games.spit.web",
        cli="cardroom.cli.realtime",
    )
)
register(
    Game(
        name="speed",
        title="Speed",
        kind=REALTIME,
        players=(2, 2),
        rules="cardroom.games.speed.rules:SpeedRules",
        engine="cardroom.games.speed.engine:SpeedGame",
        view="cardroom.games.speed.view",
        record="cardroom.games.speed.record",
        table="cardroom.tables.realtime:RealtimeTable",
        rules_version="cardroom.games.speed.rules:RULES_VERSION",
        table_parts="cardroom.games.speed.table",
        target_match="cardroom.games.speed.engine:SpeedMatch",
        bots="cardroom.games.speed.bots",
        analysis="cardroom.analysis.realtime",
        rules_page="cardroom.games.speed",
        options_words="cardroom.games.speed.rules",
        words="cardroom.games.speed.words",
        wire="cardroom.games.speed.wire",
        terminal="cardroom.games.speed.terminal",
        bot_ratings="cardroom.games.speed.bot_ratings:BOT_RATINGS",
        web="cardroom.games.speed.web",
        cli="cardroom.cli.realtime",
    )
)
