"""The words of every message with an id (:class:`cardroom.games.messages.Message`), chosen once
for the terminal, the web, replay and speech.

:data:`MESSAGES` maps each id to its English text, the catalog's msgid (``N_`` marks it), whose
``{fields}`` are filled from the message's typed fields: a card or a rank becomes a
:class:`~cardroom.i18n.grammar.Phrase` (the catalog picks ``{card.the}``, ``{rank.neg}``,
``{card.soft}`` …), a pile or stock index becomes its number as players count (from 1), a
nested message its own words. Nothing here reads an English sentence.

The messages every game shares are written here, with the tables' and the web layer's in
:mod:`cardroom.i18n.table_words`, the answers past a bound in :mod:`cardroom.i18n.bound_words`
and a record's errors in :mod:`cardroom.i18n.record_words`; a game's own (and its refusals
that name it) are in its ``words`` piece (``games/<game>/words.py``), found through the
registry: :data:`MESSAGES`, :data:`FIXED` and :data:`WHAT` are both together, live (a game
registered later is included).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from typing import Any, TypeVar

from cardroom.cards import Card
from cardroom.games.messages import Message
from cardroom.games.registry import GAMES, games
from cardroom.i18n import ENGLISH, N_, Np_, Translator
from cardroom.i18n.bound_words import BOUND_MESSAGES
from cardroom.i18n.grammar import card_phrase, rank_phrase, word_phrase
from cardroom.i18n.record_words import REALTIME_RECORD_MESSAGES, RECORD_MESSAGES
from cardroom.i18n.table_words import TABLE_FIXED, TABLE_MESSAGES

V = TypeVar("V")

logger = logging.getLogger(__name__)

_SHARED: dict[str, str | tuple[str, str, str]] = {
    # the real-time games' refusals
    "rt.game-over": N_("the game is over"),
    "rt.no-seat": N_("there is no such seat at this table"),
    "rt.not-an-action": N_("that is not an action of this game"),
    "rt.no-pile": N_("there is no such centre pile: use pile 1 or 2"),
    "rt.pile-empty": N_("pile {number} is empty"),
    "rt.stale": N_("too late: pile {number} now shows {top.the}, not {seen.the}"),
    "rt.stale-unseen": N_("too late: pile {number} changed"),
    "rt.not-next": N_("{card.the} is not next to {top.the}"),
    # the command line's bots, simulations and tournaments (what was typed is quoted as typed)
    "bot.key-value": N_("bot option {typed} in {spec} must be written key=value"),
    "bot.unknown": N_("unknown bot {typed}: choose one of {known}"),
    "bot.no-options": N_("bot {bot} takes no options (you gave {typed})"),
    "bot.ms-or-count": N_("bot {bot}: give ms=N or {count}=N, not both"),
    "bot.whole-number": N_("bot {bot}: {key}={typed} must be a whole number of at least {least}"),
    "bot.not-valid": N_("bot {bot}: {key}={typed} is not valid: use one of {choices}"),
    "bot.unknown-option": N_("bot {bot} has no option {typed}: use {choices}"),
    "bot.reaction-times": N_("reaction times must be 0 or more seconds, not {low}"),
    "bot.reaction-order": N_("max={high} is below min={low}: give min ≤ max"),
    "bot.reaim": N_("reaim={reaim} must be a share of a reaction time, above 0 and at most 1"),
    "bot.level-options": N_("level {typed} takes no options: use reaction:min=…,max=…"),
    "bot.reaction-options": N_("bot {bot} takes min, max and reaim, not {typed}"),
    "bot.reaction-numbers": N_("{spec}: min, max and reaim are numbers of seconds"),
    "bot.unknown-for": N_("unknown bot {typed} for {game}: choose one of {known}"),
    "bot.mismatch": N_("bot expert: mismatch={typed} must be a number above 0 and at most 1"),
    "bot.uct": N_("bot ismcts: uct={typed} must be a number"),
    "bot.ismcts-rounds": N_(
        "bot ismcts plays single rounds from an empty board: use it in cardroom tournament"
    ),
    "bot.needs-openspiel": N_("bot ismcts needs OpenSpiel: pip install 'cardroom[research]'"),
    "bot.oracle": N_("the oracle sees every card: it plays only in simulations, never at a table"),
    "sim.rounds": N_("--rounds must be a whole number of at least 1, not {n}"),
    "sim.bulk-bot": N_("bot {typed} cannot be simulated in bulk: choose one of {known}"),
    "sim.bots-list": N_("--bots is a comma-separated list of bot names, e.g. random,greedy"),
    "sim.bots-players": (
        "n",
        *Np_(
            "{n} bot for {players} players: give at most {players}",
            "{n} bots for {players} players: give at most {players}",
        ),
    ),
    "sim.workers": N_("--workers must be at least 1, not {n}"),
    "sim.backend": N_("--backend must be local or ray, not {typed}"),
    "sim.address": N_("--address is for --backend ray"),
    "sim.needs-ray": N_(
        "--backend ray needs Ray: pip install '.[distributed]' in the cardroom project folder"
    ),
    "tournament.no-bots": N_("name at least one bot, e.g. --bots heuristic,greedy,random"),
    "tournament.bots-seats": (
        "n",
        *Np_(
            "{n} bot cannot share {seats} seats: name at most one bot per seat or raise --players",
            "{n} bots cannot share {seats} seats: name at most one bot per seat or raise --players",
        ),
    ),
    "tournament.games": N_("--games must be at least 1, not {n}"),
    # the engines' refusals of a table or a deal
    "refused": N_("that is not possible now"),
    # the rules' options (a value as the person typed it, an option by its words)
    "rules.not-valid": N_("{option}={value} is not valid: {how}"),
    "rules.unknown-option": N_("unknown option {typed}: the options are {options}"),
    "rules.unknown-preset": N_("unknown preset {typed}: choose one of {presets}"),
    "rules.starting-chips": N_(
        "starting_chips={value}: each player needs at least {least} chips (one round's stakes) "
        "and at most {most}"
    ),
    "rules.starting-chips-number": N_(
        "starting_chips={value} must be a whole number from {least} to {most}"
    ),
    "rules.whole-number": N_("{option}={value} must be a whole number"),
    "rules.board-different": N_("{option}: give five different cards"),
    "rules.board-dwarf": N_(
        "the fifth card of the boxes is always the Yellow Dwarf, the seven of diamonds"
    ),
    "rules.board-card": N_("{option}: {value} is not a card"),
    "rules.board-card-said": N_("{option}: {detail}"),
    "rules.board-cards": N_("{option}: choose {choices}, or five cards"),
    "rules.not-object": N_("the rules must be a set of options and their values"),
    "rules.preset-name": N_("the preset must be one of {presets}"),
    "rules.key-value": N_("option {typed} must be written key=value (see --help)"),
    "rules.players": N_("{game} is played by {least} to {most} players, not {n}"),
    "rules.players-two": N_("{game} is played by two players, not {n}"),
    "rules.target-unreachable": N_(
        "a player can never reach {target} chips: there are only {chips} chips at the table"
    ),
    "rules.seconds": N_("{option}={value} must be a number of seconds"),
    "rules.how.choose": N_("choose one of {choices}"),
    "rules.how.flag": N_("answer yes or no"),
    "rules.how.piles": N_("use 5 or 4 (stock piles)"),
    "rules.how.side-piles": N_("use 10 (15 cards each) or 5 (20 cards each)"),
    "rules.how.seconds": N_("use a number of seconds from 0 to {n} (0 = only when both call)"),
    "rules.how.flip-seconds": N_("give seconds (0 to {n}; 0 = flip only when both players call)"),
    "rules.how.seconds-any": N_("use a number of seconds, 0 or more"),
    "rules.how.end": N_(
        "use broke, last-standing, rounds:N or target:N with N a whole number from 1 to {most}"
    ),
    "rules.how.target": N_("give a whole number of points from 0 to {most} (0 = a single game)"),
}
"""The messages every game shares: id -> its English text."""
_SHARED.update(TABLE_MESSAGES)  # the tables' and the web layer's (table_words.py)
_SHARED.update(BOUND_MESSAGES)  # the answers past a bound (bound_words.py)
_SHARED.update(RECORD_MESSAGES)  # a record's errors (record_words.py)
_SHARED.update(REALTIME_RECORD_MESSAGES)  # a real-time game's record's (record_words.py)


class _WithGames(Mapping[str, V]):
    """A table of words shared by every game, with each registered game's own table of the
    same name (its ``words`` piece's ``MESSAGES``, ``FIXED`` or ``WHAT``) added: a live,
    read-only mapping, rebuilt when the registered games change."""

    def __init__(self, shared: dict[str, V], name: str) -> None:
        self._shared = shared
        self._name = name
        self._key: tuple[str, ...] | None = None
        self._all: dict[str, V] = {}

    def _merged(self) -> dict[str, V]:
        key = tuple(g.name for g in games() if g.words is not None)
        if key != self._key:
            merged = dict(self._shared)
            for entry in games():
                if entry.words is not None:
                    merged.update(getattr(entry.load("words"), self._name, {}))
            self._all, self._key = merged, key
        return self._all

    def __getitem__(self, key: str) -> V:
        return self._merged()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._merged())

    def __len__(self) -> int:
        return len(self._merged())


MESSAGES: Mapping[str, str | tuple[str, str, str]] = _WithGames(_SHARED, "MESSAGES")
"""Message id -> its English text (a ``(count field, singular, plural)`` for a plural): the
shared messages and every registered game's."""

_FIXED = TABLE_FIXED
"""The tables' and the web layer's fixed refusals every game shares (:mod:`.table_words`)."""

FIXED: Mapping[str, str] = _WithGames(_FIXED, "FIXED")
"""The tables' and the web layer's fixed refusals (the shared ones and every game's): each
sentence is its own msgid."""

WHAT: Mapping[str, str] = _WithGames({}, "WHAT")
"""The ``what`` of a refusal that depends on the phase of the game (each game's own)."""

LABELS = {
    "starting_chips": N_("Starting chips"),
    "end": N_("The game ends"),
    "countdown": N_("Countdown at a stalemate"),
    "target": N_("Points to win a match"),
}
"""The words of the options that are numbers (:mod:`cardroom.i18n.options` lists the others)."""

CARD_FIELDS = frozenset({"card", "top", "seen"})
RANK_FIELDS = frozenset({"rank", "next"})
PILE_FIELDS = {"pile": "number", "stock": "number", "target": "target"}
"""Index fields (from 0) -> the placeholder of their number as players count (from 1)."""


def card_of(value: Any) -> Card | None:
    """A card field: the card itself or its code (None for anything else)."""
    if isinstance(value, Card):
        return value
    if isinstance(value, str):
        try:
            return Card.parse(value)
        except ValueError:
            return None
    return None


def _nested(value: Any) -> tuple[str, Mapping[str, Any]] | None:
    if isinstance(value, Message):
        return value.id, value.fields
    if isinstance(value, Mapping) and isinstance(value.get("id"), str):
        fields = value.get("fields")
        return value["id"], fields if isinstance(fields, Mapping) else {}
    return None


def option_label(game: Any, key: str, tr: Translator) -> str:
    """An option of ``game`` in words (« Piles de réserve »); in English, and for an option
    without words (one the person typed themself), its key as typed."""
    from cardroom.i18n.options import OPTIONS

    if tr.lang != "en":
        for option in OPTIONS.get(game, ()) if isinstance(game, str) else ():
            if option.key == key:
                return tr._(option.label)
        if key in LABELS:
            return tr._(LABELS[key])
    return key


def _choices(game: Any, key: Any, values: Any, tr: Translator) -> str:
    """The values allowed for an option: their words (« ; » between them) outside English."""
    from cardroom.i18n.options import OPTIONS

    values = [str(v) for v in values] if isinstance(values, tuple | list) else [str(values)]
    if tr.lang == "en":
        return ", ".join(values)
    option = next((o for o in OPTIONS.get(game, ()) if o.key == key), None)
    said = []
    for value in values:
        choice = next((c for c in option.choices if c.value == value), None) if option else None
        said.append(tr._(choice.words) if choice else value)
    return ("\u00a0; " if tr.lang == "fr" else "; ").join(_quoted(w, tr) for w in said)


def _quoted(text: str, tr: Translator) -> str:
    """« text » in French, ‘text’ in Welsh."""
    return f"«\u00a0{text}\u00a0»" if tr.lang == "fr" else f"‘{text}’"


def _preset_names(game: Any) -> dict[str, str]:
    """The names of ``game``'s presets (its rules' ``PRESET_NAMES``); every game's for a message
    that names no game."""
    entry = GAMES.get(game) if isinstance(game, str) else None
    names: dict[str, str] = {}
    for each in (entry,) if entry is not None else games():
        if each.options_words is not None:
            names.update(getattr(each.load("options_words"), "PRESET_NAMES", {}))
    return names


def _rules_fields(fields: Mapping[str, Any], tr: Translator) -> dict[str, Any]:
    """The fields of a ``rules.*`` message: options and presets in words, values as typed."""
    from cardroom.i18n.numbers import integer

    game = fields.get("game")
    preset_names = _preset_names(game)
    out: dict[str, Any] = {}
    for key, value in fields.items():
        if key == "option":
            out[key] = option_label(game, str(value), tr)
        elif key == "options":
            labels = [option_label(game, str(v), tr) for v in value]
            out[key] = ", ".join(labels if tr.lang == "en" else (_quoted(w, tr) for w in labels))
        elif key == "presets":
            names = [
                tr._(preset_names[p]) if p in preset_names and tr.lang != "en" else p for p in value
            ]
            out[key] = ", ".join(names if tr.lang == "en" else (_quoted(n, tr) for n in names))
        elif key == "choices":
            out[key] = _choices(game, fields.get("option"), value, tr)
        elif key in ("most", "least", "n", "target", "chips") and isinstance(value, int):
            out[key] = integer(value, tr)
        elif key == "game" and value in GAMES:
            out[key] = word_phrase(tr._(GAMES[value].title), tr.lang)  # « {game.the} »
        elif (inner := _nested(value)) is not None:
            out[key] = message_words(inner[0], inner[1], tr)
        else:
            out[key] = value
    return out


def _fields(fields: Mapping[str, Any], tr: Translator) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in fields.items():
        if key in CARD_FIELDS:
            card = card_of(value)
            if card is not None:
                out[key] = card_phrase(card, tr.lang)
        elif key in RANK_FIELDS and isinstance(value, int):
            out[key] = rank_phrase(value, tr.lang)
        elif key in PILE_FIELDS and isinstance(value, int) and not isinstance(value, bool):
            out[PILE_FIELDS[key]] = value + 1
        elif key == "what" and value in WHAT:
            out[key] = tr._(WHAT[value])
        elif key == "game" and value in GAMES:
            out[key] = word_phrase(tr._(GAMES[value].title), tr.lang)  # « {game.the} »
        elif (inner := _nested(value)) is not None:
            out[key] = message_words(inner[0], inner[1], tr)
        elif key == "reason" and isinstance(value, str):
            out[key] = words(value, tr)
        elif isinstance(value, float):  # seconds, shares: as the language writes decimals
            from cardroom.i18n.numbers import number

            out[key] = number(value, tr)
        else:
            out[key] = value
    return out


FIELD_WORDS = {
    "name": N_("Your name"),
    "title": N_("Title"),
    "game": N_("Game"),
    "players": N_("Players"),
    "preset": N_("Rules"),
    "options": N_("Every option of the rules"),
    "seats": N_("Seats"),
    "level": N_("Bot level"),
    "starting_chips": N_("Starting chips"),
    "end": N_("The game ends"),
}
"""The fields of a table request in the lobby's words (a bad one is named by them)."""


def _chosen(id: str, fields: Mapping[str, Any], tr: Translator) -> tuple[str, Mapping[str, Any]]:
    """The message whose words are said for ``id``: outside English, a decoder's English detail
    gives way to the field it is about in words (or to a sentence without it)."""
    if id == "rules.players" and fields.get("least") == fields.get("most"):
        return "rules.players-two", fields
    if tr.lang == "en":
        return id, fields
    if id == "ws.bad-message":
        return "ws.bad-message-said", {}
    if id == "lobby.bad-request":
        field = fields.get("field")
        if field in FIELD_WORDS:
            return "lobby.bad-field", {"field": _quoted(tr._(FIELD_WORDS[field]), tr)}
        return "lobby.bad-shape", {}
    return id, fields


def message_words(
    id: str,
    fields: Mapping[str, Any] | None = None,
    lang: Translator = ENGLISH,
) -> str:
    """The words of message ``id`` with ``fields`` in ``lang`` (an unknown id: a general
    « that is not possible now », logged)."""
    tr = lang
    id, fields = _chosen(id, fields or {}, tr)
    text = MESSAGES.get(id)
    if id == "rt.stale" and card_of(fields.get("seen")) is None:
        text = MESSAGES["rt.stale-unseen"]
    if text is None:
        logger.warning("a message without words: %s %r", id, fields)
        return tr._(str(MESSAGES["refused"]))
    values = (
        _rules_fields(fields or {}, tr) if id.startswith("rules.") else _fields(fields or {}, tr)
    )
    try:
        if isinstance(text, tuple):
            count, singular, plural = text
            n = int(values.pop(count))
            return tr.ngettext(singular, plural, n, **values)
        return tr._(text, **values)
    except (KeyError, AttributeError, IndexError, ValueError, TypeError):
        logger.warning("a message missing a field: %s %r", id, fields)
        return tr._(str(MESSAGES["refused"]))


def words(message: str | Mapping[str, Any], lang: Translator = ENGLISH) -> str:
    """A :class:`Message` (or its JSON ``{"id", "fields"}``) in ``lang``.

    A plain string has no id: it is never shown as it is (that is how an English sentence would
    reach a French reader); the general refusal is said instead, and it is logged.
    """
    tr = lang
    inner = _nested(message)
    if inner is None and isinstance(message, str) and message in FIXED:
        return tr._(FIXED[message])
    if inner is None:
        logger.warning("a message without an id reached a person: %r", message)
        return tr._(str(MESSAGES["refused"]))
    return message_words(inner[0], inner[1], tr)
