"""The words of the real-time games: their log entries in each language.

Every engine event is rendered from its fields (:func:`event_words`): here what the games
share, each game's own events, actions and refusals by its ``words`` piece
(``games/<game>/words.py``: ``event_text``, ``action_text``, ``PUBLIC_WHAT``, ``action_json``),
found through the registry; the web tables'
frames carry the same fields (:func:`event_fields`) so that each connection reads its log in
its own language (:func:`localize_realtime_frame`), and the engines' reasons for refusing an
action are put into words by :func:`reason_words`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from typing import Any

from cardroom.cards import Card
from cardroom.games.registry import GAMES, REALTIME, games
from cardroom.i18n import ENGLISH, Translator, levels
from cardroom.i18n.grammar import card_phrase
from cardroom.i18n.messages import card_of as _card_of
from cardroom.i18n.messages import words
from cardroom.i18n.names import shown_name
from cardroom.i18n.words import N_, in_turn, labelled, pretty

LEVEL_WORDS = levels.LEVEL_WORDS

CardText = Callable[[Card, Translator], object]
"""A card as an event shows it: printed (``7♦``) or a noun phrase (« l’as de cœur »)."""


def _pretty(card: Card, tr: Translator) -> str:
    return pretty(card, tr)  # 7♦, D♠ (no card is typed in a real-time game: keys name piles)


def _named(card: Card, tr: Translator) -> object:
    return card_phrase(card, tr.lang)


def pile_name(pile: object, tr: Translator) -> str:
    """``pile 1`` / ``pile 2`` (a centre pile, numbered from 1)."""
    if isinstance(pile, int) and not isinstance(pile, bool) and pile in (0, 1):
        return tr._("pile {number}", number=pile + 1)
    return str(pile)


def event_fields(event: Any) -> dict[str, Any]:
    """An engine event as JSON-ready fields: ``{"kind": "Played", "seat": 0, "card": "7D", …}``
    (cards as codes, tuples as lists). It holds only what the event tells everyone."""
    out: dict[str, Any] = {"kind": type(event).__name__}
    for f in fields(event):
        value = getattr(event, f.name)
        if isinstance(value, Card):
            value = value.code
        elif isinstance(value, tuple):
            value = [v.code if isinstance(v, Card) else v for v in value]
        out[f.name] = value
    return out


def _event_text(
    kind: str,
    f: Mapping[str, Any],
    game: str,
    names: Sequence[str],
    tr: Translator,
    show: CardText,
) -> str | None:
    """One event from its kind and fields; None for an unknown kind."""
    seat = f.get("seat")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""
    raw_card = _card_of(f.get("card"))
    card = show(raw_card, tr) if raw_card is not None else ""
    pile = f.get("pile")
    number = pile + 1 if isinstance(pile, int) else pile
    if kind in ("Played", "CardPlayed"):
        return tr._("{name} plays {card} onto pile {number}", name=who, card=card, number=number)
    own = _game_words(game)
    for words_of in (own,) if own is not None else _every_game_words():
        said = words_of.event_text(kind, f, who, card, number, names, show, tr)
        if isinstance(said, str):
            return said
    return None


def _game_words(game: str) -> Any:
    """The words piece of real-time game ``game`` (None: no such game, or it has none)."""
    entry = GAMES.get(game)
    return entry.load("words") if entry is not None and entry.words is not None else None


def _every_game_words() -> list[Any]:
    return [g.load("words") for g in games(REALTIME) if g.words is not None]


def event_words(
    event: Any,
    game: str,
    names: Sequence[str],
    lang: Translator,
    *,
    named: bool = False,
) -> str:
    """One real-time engine event in words (cards as ``7♦``, or with ``named`` as words)."""
    tr = lang
    text = _event_text(
        type(event).__name__, event_fields(event), game, names, tr, _named if named else _pretty
    )
    return text if text is not None else str(event.describe(names))


def entry_words(
    entry: Any,
    game: str,
    names: Sequence[str],
    viewer: int | None = None,
    lang: Translator = ENGLISH,
) -> str:
    """What one arbiter log entry means, in ``lang`` (``cardroom.arbiter.entry_text``'s shape)."""
    tr = lang
    said = in_turn([event_words(e, game, names, tr) for e in entry.events], tr)
    if entry.timeout:
        return tr._("countdown over: {events}", events=said)
    who = names[entry.seat] if entry.seat is not None else "?"
    if not entry.accepted:
        if viewer is not None and entry.seat != viewer:
            refused = public_refusal(entry.action, entry.reason)
            return _public_words(refused, who, tr)
        return tr._(
            "{name}: {action} refused: {reason}",
            name=who,
            action=action_words(_action_json(entry.action), tr),
            reason=reason_words(entry.reason, tr),
        )
    return said or labelled(who, entry.action, tr)


# ----------------------------------------------------------------------------- refusals


def reason_words(reason: Any, lang: Translator = ENGLISH, msg: Any = None) -> str:
    """A real-time engine's reason for refusing an action, in words in ``lang``, from its id
    and fields (the :class:`~cardroom.games.messages.Message`, or its JSON ``msg``)."""
    return words(msg if isinstance(msg, Mapping) else reason, lang)


def action_words(action: Mapping[str, Any], lang: Translator = ENGLISH) -> str:
    """An action in record form, in words: ``play the 9 of diamonds on pile 1``."""
    tr = lang
    kind = action.get("type")
    card = _card_of(action.get("card"))
    named = card_phrase(card, tr.lang) if card is not None else ""
    pile = action.get("pile")
    number = pile + 1 if isinstance(pile, int) else pile
    if kind == "play":
        return tr._("play {card.the} on pile {number}", card=named, number=number)
    for own in _every_game_words():
        said = own.action_text(str(kind), action, named, number, tr)
        if isinstance(said, str):
            return said
    return str(kind)


_PLAY_REFUSED = N_("a play on pile {number} refused")


def public_what(what: str) -> str | None:
    """The words of a refused action of kind ``what`` (its class name in lower case) as everyone
    may know it, from the game's ``PUBLIC_WHAT``: an English msgid (translate it where it is
    shown), or None (a play, said by every game alike, or a kind no game has words for)."""
    for own in _every_game_words():
        said = getattr(own, "PUBLIC_WHAT", {}).get(what)
        if isinstance(said, str):
            return said
    return None


def _action_json(action: Any) -> dict[str, Any]:
    for own in _every_game_words():
        said = own.action_json(action)
        if said is not None:
            return dict(said)
    return {"type": str(action)}


def public_refusal(action: Any, reason: str | None) -> dict[str, Any]:
    """What everyone may know of a refused action: its kind, its pile, whether it was stale."""
    out: dict[str, Any] = {"what": type(action).__name__.lower()}
    pile = getattr(action, "pile", None)
    if isinstance(pile, int) and not isinstance(pile, bool):
        out["pile"] = pile
    out["stale"] = (reason or "").startswith("stale: ")
    return out


def _public_words(refused: Mapping[str, Any], who: str, tr: Translator) -> str:
    what = str(refused.get("what"))
    pile = refused.get("pile")
    if what == "play" and isinstance(pile, int):
        said = tr._(_PLAY_REFUSED, number=pile + 1)
    else:
        said = tr._(public_what(what) or N_("an action refused"))
    if refused.get("stale"):
        if isinstance(pile, int):
            return tr._(
                "{name}: too late for pile {number}, it had changed", name=who, number=pile + 1
            )
        return tr._("{name}: too late, the pile had changed", name=who)
    return tr._("{name}: {refusal}", name=who, refusal=said)


def line_words(
    line: Mapping[str, Any], game: str, names: Sequence[str], lang: Translator
) -> str | None:
    """A web frame's log line in ``lang`` from its fields (None: it lacks them)."""
    tr = lang
    events = line.get("events")
    if not isinstance(events, list):
        return None
    taken = line.get("seat")
    if line.get("for_seat") and isinstance(taken, int) and 0 <= taken < len(names):
        # a bot playing a taken seat: "Bot (for Ann)"
        shown = tr._("Bot (for {name})", name=names[taken])
        names = [shown if g == taken else n for g, n in enumerate(names)]
    said_parts = []
    for ev in events:
        text = _event_text(str(ev.get("kind")), ev, game, names, tr, _named)
        if text is None:
            return None
        said_parts.append(text)
    said = in_turn(said_parts, tr)
    if line.get("timeout"):
        return tr._("countdown over: {events}", events=said)
    seat = line.get("seat")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
    if not line.get("accepted"):
        refused = line.get("refused")
        if isinstance(refused, Mapping):
            return _public_words(refused, who, tr)
        action, reason = line.get("action"), line.get("engine_reason")
        if isinstance(action, Mapping) and isinstance(reason, str):
            return tr._(
                "{name}: {action} refused: {reason}",
                name=who,
                action=action_words(action, tr),
                reason=reason_words(reason, tr, line.get("reason_msg")),
            )
        return None
    if said:
        return said
    action = line.get("action")
    return labelled(who, action_words(action, tr), tr) if isinstance(action, Mapping) else None


def seat_name(row: Mapping[str, Any], lang: Translator) -> str:
    """A seat's name as a page shows it: a bot's ``Easy bot`` becomes « Robot facile »."""
    tr = lang
    name, level = row.get("name"), row.get("bot")
    if isinstance(level, str) and level in LEVEL_WORDS and name == f"{level.capitalize()} bot":
        return tr._("{level} bot", level=tr._(LEVEL_WORDS[level]))
    if name:
        return shown_name(str(name), tr)
    seat = row.get("seat")
    return tr._("Seat {number}", number=(seat if isinstance(seat, int) else 0) + 1)


def localize_realtime_frame(frame: Mapping[str, Any], lang: Translator) -> dict[str, Any]:
    """A copy of a real-time game's ``state`` frame whose log lines (and bots' names) are in
    ``lang``; English frames are returned as they are (copied)."""
    out = dict(frame)
    tr = lang
    if tr.lang == "en" or frame.get("type") != "state":
        return out
    rows = [dict(r) for r in frame.get("seats") or []]
    names = ["", ""]
    for row in rows:
        seat = row.get("seat")
        if isinstance(seat, int) and 0 <= seat < 2:
            names[seat] = seat_name(row, tr)
            if row.get("name"):
                row["name"] = names[seat]
    out["seats"] = rows
    game = str(frame.get("game"))
    log = []
    for line in frame.get("log") or []:
        text = line_words(line, game, names, tr)
        log.append({**line, "text": text} if text is not None else line)
    out["log"] = log
    return out
