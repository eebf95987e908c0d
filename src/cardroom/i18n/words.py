"""Card names and the words of the table's events, in each language.

The rules engines keep their English ``describe()``; everything a person reads goes through
:func:`event_text` (structured events: ``{"kind": "without", "seat": 2, "rank": 7}``, the shape
of the table frames) or :func:`engine_event_text` (the engine's event objects).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from typing import Any, cast

from cardroom.cards import Card, Rank, Suit
from cardroom.games.messages import Message, message_json
from cardroom.i18n import ENGLISH, Translator
from cardroom.i18n import N_ as N_
from cardroom.i18n import Np_ as Np_
from cardroom.i18n import tr_of as tr_of
from cardroom.i18n.grammar import RANK_LETTERS as RANK_LETTERS
from cardroom.i18n.grammar import printed, rank_phrase
from cardroom.i18n.messages import words
from cardroom.i18n.names import shown_name

YELLOW_DWARF = "7D"
_FACE = {1: N_("ace"), 11: N_("jack"), 12: N_("queen"), 13: N_("king")}
_SUIT = {
    Suit.CLUBS: N_("clubs"),
    Suit.DIAMONDS: N_("diamonds"),
    Suit.HEARTS: N_("hearts"),
    Suit.SPADES: N_("spades"),
}
_WITHOUT = {
    1: N_("without ace"),
    11: N_("without jack"),
    12: N_("without queen"),
    13: N_("without king"),
}
_TAKES = {
    1: N_("ace who takes"),
    11: N_("jack who takes"),
    12: N_("queen who takes"),
    13: N_("king who takes"),
}


def rank_letter(rank: int, lang: Translator = ENGLISH) -> str:
    """The letter on a card of ``rank`` in the language's packs (``D`` for a French queen)."""
    letters = RANK_LETTERS.get(lang.lang, {})
    return letters.get(int(rank)) or Rank(int(rank)).symbol


def rules_note(game: str, version: int, lang: Translator = ENGLISH) -> str | None:
    """The line that says a record was played under earlier rules (None: today's rules): what
    was different under that version of ``game``'s rules, from its words piece's
    ``EARLIER_RULES`` (version -> msgid; the game's ``RULES_VERSION`` doc says when it
    changed)."""
    from cardroom.games.registry import GAMES

    entry = GAMES.get(game)
    if entry is None or entry.words is None:
        return None
    text = getattr(entry.load("words"), "EARLIER_RULES", {}).get(version)
    return None if text is None else lang._(text)


def rank_name(rank: int, lang: Translator = ENGLISH) -> str:
    """``ace``, ``2`` … ``10``, ``jack``, ``queen``, ``king`` (``as``, ``valet``, ``dame`` …)."""
    face = _FACE.get(int(rank))
    return lang._(face) if face else str(int(rank))


def a_rank(rank: int, lang: Translator = ENGLISH) -> str:
    """``a 7``, ``an 8``, ``an ace``, ``a queen`` (``une dame``, ``brenhines`` …)."""
    return rank_phrase(int(rank), lang.lang).a


def suit_name(suit: Suit, lang: Translator = ENGLISH) -> str:
    """``clubs``, ``diamonds`` … in the language."""
    return lang._(_SUIT[suit])


def card_name(card: Card | str, lang: Translator = ENGLISH) -> str:
    """The card in words: ``queen of spades``, ``dame de pique``, ``brenhines rhawiau``."""
    if isinstance(card, str):
        card = Card.parse(card)
    tr = lang
    return tr._("{rank} of {suit}", rank=rank_name(card.rank, tr), suit=suit_name(card.suit, tr))


def without_call(rank: int, lang: Translator = ENGLISH) -> str:
    """The announcement ``without 7`` / ``sans 7`` / ``heb 7``."""
    tr = lang
    special = _WITHOUT.get(int(rank))
    return tr._(special) if special else tr._("without {rank}", rank=int(rank))


def takes_call(card: Card | str, lang: Translator = ENGLISH) -> str:
    """``queen who takes``, ``Yellow Dwarf who takes`` (``dame qui prend``)."""
    if isinstance(card, str):
        card = Card.parse(card)
    tr = lang
    if card.code == YELLOW_DWARF:
        return tr._("Yellow Dwarf who takes")
    special = _TAKES.get(int(card.rank))
    return tr._(special) if special else tr._("{rank} who takes", rank=int(card.rank))


def pretty(card: Card | str, lang: Translator = ENGLISH) -> str:
    """``7♦``, ``Q♠`` (French: ``D♠``, the letter of the language's packs)."""
    return printed(card, lang.lang)


def labelled(label: object, text: object, lang: Translator = ENGLISH) -> str:
    """``label: text`` as the language writes it (French: ``label : text``)."""
    return lang._("{label}: {words}", label=label, words=text)


def in_turn(parts: Sequence[object], lang: Translator = ENGLISH) -> str:
    """Things said one after another: ``a; b`` (French: ``a ; b``)."""
    return (" ; " if lang.lang == "fr" else "; ").join(str(p) for p in parts)


def seconds_text(
    seconds: float, lang: Translator = ENGLISH, places: int = 1
) -> str:
    """A time in seconds with ``places`` decimals: ``0.5 s`` / ``0,5 s`` / ``0.5 eiliad``."""
    from cardroom.i18n.numbers import decimal

    tr = lang
    return tr._("{seconds} s", seconds=decimal(seconds, places, tr))


def _message_of(value: Any, msg: Any = None) -> Any:
    """A reason as a message: the :class:`~cardroom.games.messages.Message` itself, or the JSON
    ``{"id", "fields"}`` a frame carries beside it (``reason_msg``)."""
    if isinstance(msg, Mapping):
        return msg
    return value


def sequence_reason(reason: Any, lang: Translator = ENGLISH, msg: Any = None) -> str:
    """Why a new sequence starts, in words (from the reason's id and fields)."""
    return words(_message_of(reason, msg), lang)


def game_over_reason(reason: Any, lang: Translator = ENGLISH, msg: Any = None) -> str:
    """Why the game ended, in words (from the reason's id and fields)."""
    return words(_message_of(reason, msg), lang)


def stakes_text(
    stakes: Mapping[int, int],
    name: Callable[[int], str],
    per_round: int,
    lang: Translator = ENGLISH,
) -> str:
    """``Stakes: 15 chips each on the board`` or every player's amount when one ran short."""
    tr = lang
    if all(v == per_round for v in stakes.values()):
        return tr.ngettext(
            "Stakes: {n} chip each on the board", "Stakes: {n} chips each on the board", per_round
        )
    parts = [
        tr._("{name} {n}", name=name(s), n=v)
        if v == per_round
        else tr._("{name} {n} (all they had)", name=name(s), n=v)
        for s, v in sorted(stakes.items())
    ]
    return tr._("Stakes: {list}", list=", ".join(parts))


def event_text(
    event: Mapping[str, Any],
    name: Callable[[int], str],
    lang: Translator = ENGLISH,
    *,
    letters: bool = True,
) -> str:
    """One structured event in words; ``name(seat)`` gives a player's name. Printed cards
    carry the language's letters (French ``D♠``) unless ``letters`` is False (the terminal,
    where the letters are the keys typed).

    The kinds are those of the table frames (``play``, ``takes``, ``without`` …); an unknown kind
    gives its ``text`` as it is.
    """
    tr = lang
    shown = tr if letters else ENGLISH
    kind = event.get("kind")
    seat = event.get("seat")
    who = name(seat) if isinstance(seat, int) else ""
    if who and event.get("for_seat"):
        who = tr._("Bot (for {name})", name=who)
    card: str = str(event.get("card") or "")
    if kind == "play":
        return tr._("{name} plays {card}", name=who, card=pretty(card, shown))
    if kind == "takes":
        return tr.ngettext(
            '{name}: "{call}" ({n} chip)',
            '{name}: "{call}" ({n} chips)',
            event["amount"],
            name=who,
            call=takes_call(card, tr),
        )
    if kind == "forgot":
        return tr._(
            "{name} forgot to announce {card}: the box stays", name=who, card=pretty(card, shown)
        )
    if kind == "without":
        return tr._('{name}: "{call}"', name=who, call=without_call(event["rank"], tr))
    passed = event.get("passed")
    if kind in ("next-rank", "new-sequence") and isinstance(passed, list) and passed:
        return without_run_text(event, [name(g) for g in passed], who, tr)
    if kind == "next-rank":
        rank = int(event["rank"])
        return tr._(
            "nobody has {rank.a}: {name} may now play {next.a}",
            rank=rank_phrase(rank, tr.lang),
            name=who,
            next=rank_phrase(rank + 1, tr.lang),
        )
    if kind == "new-sequence":
        return tr._(
            "{name} starts a new sequence ({reason})",
            name=who,
            reason=sequence_reason(event.get("reason"), tr, event.get("reason_msg")),
        )
    if kind == "out":
        return tr._("{name} has no card left and wins the round", name=who)
    if kind == "paid":
        payer, payee = name(event["payer"]), name(event["payee"])
        if event["paid"] == event["owed"]:
            return tr._(
                "{payer} pays {paid} to {payee}", payer=payer, payee=payee, paid=event["paid"]
            )
        return tr._(
            "{payer} pays {paid} of {owed} owed (all they have) to {payee}",
            payer=payer,
            payee=payee,
            paid=event["paid"],
            owed=event["owed"],
        )
    if kind == "doubled":
        fields_ = {
            "name": who, "card": pretty(card, shown), "paid": event["paid"], "owed": event["owed"]
        }
        held = event.get("reason") == "held"
        if event["paid"] == event["owed"]:
            return (
                tr._("{name} still holds {card}: doubles its box, {paid}", **fields_)
                if held
                else tr._("{name} forgot to announce {card}: doubles its box, {paid}", **fields_)
            )
        if held:
            return tr._(
                "{name} still holds {card}: doubles its box, {paid} of {owed} (all they have)",
                **fields_,
            )
        return tr._(
            "{name} forgot to announce {card}: doubles its box, {paid} of {owed} (all they have)",
            **fields_,
        )
    if kind == "grand-opera":
        return tr.ngettext(
            "Grand opéra! {name} sweeps the board: {n} chip",
            "Grand opéra! {name} sweeps the board: {n} chips",
            event["amount"],
            name=who,
        )
    if kind == "stakes" and isinstance(event.get("stakes"), Mapping):
        stakes = {int(k): int(v) for k, v in event["stakes"].items()}
        return stakes_text(stakes, name, int(event.get("per_round", 0)), tr)
    if kind == "joined":
        return tr._("{name} sits down", name=who)
    if kind == "started":
        return tr._("the game starts")
    if kind == "round" and "dealer" in event:
        return tr._(
            "Round {number}: {dealer} deals, {opener} opens",
            number=int(event["k"]) + 1,
            dealer=name(event["dealer"]),
            opener=name(event["opener"]),
        )
    if kind == "round-over":
        return tr._("{name} wins the round", name=who)
    if kind == "game-over" and "reason" in event:
        winners = [name(g) for g in event["winners"]]
        return tr.ngettext(
            "Game over ({reason}): {names} wins",
            "Game over ({reason}): {names} win",
            len(winners),
            reason=game_over_reason(event["reason"], tr, event.get("reason_msg")),
            names=tr.join(winners),
        )
    if kind == "takeover":
        return tr._("{name} is away: a bot plays for them", name=who)
    if kind == "returned":
        return tr._("{name} is back", name=who)
    if kind == "left":
        return tr._("{name} left the table: a bot plays for them", name=who)
    return str(event.get("text", ""))


def without_run_text(
    event: Mapping[str, Any], names: list[str], who: str, tr: Translator
) -> str:
    """A run of "without" calls ended by ``event`` (``next-rank`` or ``new-sequence``), in one
    line: "Ann, Bob and Cid have no queen: Dee may now play a king" (not "goes on with", which
    read as a card played)."""
    rank = int(event.get("passed_rank") or event.get("rank") or 0)
    fields_ = {"names": tr.join(names), "rank": rank_name(rank, tr), "a_rank": a_rank(rank, tr),
               "name": who}  # fmt: skip
    if event.get("kind") == "next-rank":
        nxt = int(event["rank"]) + 1
        return tr.ngettext(
            "{names} has no {rank}: {name} may now play {a_next}",
            "{names} have no {rank}: {name} may now play {a_next}",
            len(names), a_next=a_rank(nxt, tr), next=rank_name(nxt, tr), **fields_,
        )  # fmt: skip
    return tr.ngettext(
        "{names} has no {rank}: {name} starts a new sequence",
        "{names} have no {rank}: {name} starts a new sequence",
        len(names), **fields_,
    )  # fmt: skip


_ENGINE_KINDS = {
    "CardPlayed": "play",
    "Takes": "takes",
    "Forgot": "forgot",
    "Without": "without",
    "NextRank": "next-rank",
    "FreeSequence": "new-sequence",
    "OutOfCards": "out",
    "Paid": "paid",
    "Doubled": "doubled",
    "GrandOperaSwept": "grand-opera",
}


def engine_event_dict(event: object) -> dict[str, Any]:
    """A turn-based engine event as a structured event (seats stay round positions)."""
    out: dict[str, Any] = {"kind": _ENGINE_KINDS.get(type(event).__name__, "")}
    for f in fields(event):  # type: ignore[arg-type]
        value = getattr(event, f.name)
        out[f.name] = value.code if isinstance(value, Card) else value
        if isinstance(value, Message):
            out[f"{f.name}_msg"] = message_json(value)
    if out["kind"] == "paid":
        out["seat"] = out["payer"]
    return out


def engine_event_text(
    event: object,
    names: Sequence[str],
    lang: Translator = ENGLISH,
    *,
    letters: bool = True,
) -> str:
    """A turn-based engine event in words (``names`` by round position)."""
    return event_text(engine_event_dict(event), names.__getitem__, lang, letters=letters)


def default_name(row: Mapping[str, Any], lang: Translator) -> Any:
    """A seat's name, with the names cardroom gives (``Bot 2``, ``Seat 3``) in ``lang``."""
    name, seat = row.get("name"), row.get("seat")
    if not isinstance(seat, int):
        return name
    tr = lang
    if name == f"Bot {seat + 1}" and row.get("kind") == "bot":
        return tr._("Bot {number}", number=seat + 1)
    if name == f"Seat {seat + 1}":
        return tr._("Seat {number}", number=seat + 1)
    return name


def record_with_shown_names(
    record: Any, kinds: Sequence[str], lang: Translator
) -> Any:
    """A table's record (a round, or a game: a list of rounds) whose bots carry the names
    :func:`default_name` gives them in ``lang`` (``Bot 2`` -> « Robot 2 »), as at the table: for
    the replay viewer. The names are changed alike in every round, so the record stays one game;
    anything else is returned as it is."""
    if isinstance(record, Mapping):
        return record_with_shown_names([record], kinds, lang)[0]
    if not isinstance(record, list):
        return record
    given = {seat: f"Bot {seat + 1}" for seat, kind in enumerate(kinds) if kind == "bot"}
    shown = {
        name: default_name({"name": name, "seat": seat, "kind": "bot"}, lang)
        for seat, name in given.items()
    }
    if not shown:
        return record
    out: list[Any] = []
    for rnd in record:
        if not isinstance(rnd, Mapping):
            out.append(rnd)
            continue
        players = rnd.get("players")
        copy = dict(rnd)
        if isinstance(players, list):
            copy["players"] = [shown.get(p, p) if isinstance(p, str) else p for p in players]
        out.append(copy)
    return out


_MEMO: dict[tuple[int, str, object], tuple[object, Any]] = {}
"""Parts of frames already put in words: ``(id(part), lang, names) -> (part, words)``. A
table's frames share their seat rows (one list per change, for every seat's frame) and their
events (one dict per event, for every frame that carries it): each is put in words once per
language, not once per connection and frame. The value keeps the part alive, so its id is not
reused meanwhile; the parts are never changed once made (the turn-based table's)."""
_MEMO_MAX = 8192


def _memo(part: object, lang: str, names: object, make: Callable[..., Any], *args: Any) -> Any:
    """``make(*args)``: the words of ``part`` in ``lang`` with ``names``, made once."""
    key = (id(part), lang, names)
    hit = _MEMO.get(key)
    if hit is not None and hit[0] is part:
        return hit[1]
    value = make(*args)
    if len(_MEMO) >= _MEMO_MAX:
        _MEMO.clear()
    _MEMO[key] = (part, value)
    return value


def forget_memo() -> None:
    """Empty the memo of parts put in words. The server's GC keeper calls it before each of
    its steps (``web/gcpause.py``): the memo is there for the connections of one change, a
    few milliseconds, and what it kept until it filled up (the seat rows, events and their
    words of about 8,000 frames' parts) was walked by the step's collection."""
    _MEMO.clear()


_SHOWN_NAMES: dict[tuple[str, int, str, bool], Any] = {}
""":func:`default_name`'s answers: ``(lang, seat, name, is a bot) -> the name shown``."""
_SHOWN_NAMES_MAX = 4096


def _shown_row_name(row: Mapping[str, Any], tr: Translator) -> Any:
    """:func:`default_name` of ``row``, remembered (a table's seat rows are new at every change,
    their names seldom are)."""
    name, seat = row.get("name"), row.get("seat")
    if type(name) is not str or type(seat) is not int:
        return default_name(row, tr)
    key = (tr.lang, seat, name, row.get("kind") == "bot")
    shown = _SHOWN_NAMES.get(key)
    if shown is None:
        shown = default_name(row, tr)
        if len(_SHOWN_NAMES) >= _SHOWN_NAMES_MAX:
            _SHOWN_NAMES.clear()
        _SHOWN_NAMES[key] = shown
    return shown


_Rows = tuple[list[Any], tuple[tuple[Any, Any], ...]]


def _rows_in_words(seats: list[Any], tr: Translator) -> _Rows:
    """A frame's seat rows with the names shown in ``tr``'s language (``seats`` itself when no
    name changes: the same text), and the key of those names for the events' words."""
    shown = [_shown_row_name(row, tr) for row in seats]
    pairs = list(zip(shown, seats, strict=True))
    if any(new != row.get("name") or "name" not in row for new, row in pairs):
        rows = [{**row, "name": new} for new, row in pairs]
    else:
        rows = seats
    names = {s.get("seat"): s.get("name") for s in rows}
    return rows, tuple(names.items())


EventWords = Callable[[Mapping[str, Any], Callable[[int], str], Translator], str]
"""A turn-based game's events in words: ``(event, name of a seat, lang) -> text``."""


def turn_event_words(game: object) -> EventWords:
    """How the frames of turn-based game ``game`` say their events: its words piece's
    ``event_text`` if it has one, else :func:`event_text` (the shared events' words; an
    unknown kind gives its ``text`` as it is). A frame that names no game is said the
    shared way."""
    from cardroom.games.registry import GAMES

    found = GAMES.get(game) if isinstance(game, str) else None
    if found is not None and found.words is not None:
        own = getattr(found.load("words"), "event_text", None)
        if callable(own) and not found.realtime:
            return cast(EventWords, own)
    return event_text


def localize_frame(frame: Mapping[str, Any], lang: Translator) -> dict[str, Any]:
    """A copy of a table ``state`` frame whose events' ``text`` is in ``lang`` (names from the
    frame's seats, the events' words those of the game the frame names, see
    :func:`turn_event_words`); other frames are returned as they are (copied). The result
    shares its seat rows and events with other frames': read it, do not change it."""
    out = dict(frame)
    if frame.get("type") != "state":
        return out
    tr = lang
    result = frame.get("game_result")
    if isinstance(result, Mapping) and isinstance(result.get("reason"), str):
        reason = game_over_reason(result["reason"], tr, result.get("reason_msg"))
        out["game_result"] = {**result, "reason": reason}
    seats = frame.get("seats") or []
    key: tuple[tuple[Any, Any], ...] = ()
    if seats:
        out["seats"], key = _memo(seats, tr.lang, None, _rows_in_words, seats, tr)
    events = frame.get("events")
    if not events:
        return out
    said = turn_event_words(frame.get("game"))
    out["events"] = [_memo(ev, tr.lang, key, _event_in_words, ev, key, tr, said) for ev in events]
    return out


def _event_in_words(
    ev: Mapping[str, Any],
    key: tuple[tuple[Any, Any], ...],
    tr: Translator,
    said: EventWords = event_text,
) -> dict[str, Any]:
    """``ev`` with its ``text`` in ``tr``'s language, seats named as ``key`` (seat, name) says."""
    names = dict(key)

    def name(seat: int) -> str:
        return shown_name(str(names.get(seat) or tr._("Seat {number}", number=seat + 1)), tr)

    return {**ev, "text": said(ev, name, tr)}
