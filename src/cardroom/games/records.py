"""The one reader of record JSON for every game, and the typed field readers its parsers share.

A record comes from outside (a file a person saved, edited or damaged), so nothing in it is
trusted: :func:`loads` refuses a text over :data:`MAX_RECORD_BYTES` before parsing it, nesting
deeper than :data:`MAX_DEPTH`, whole numbers of more than :data:`MAX_INT_DIGITS` digits, and
``NaN``, ``Infinity`` or a float too large to be finite. The field readers (:func:`get_int`,
:func:`get_number`, :func:`get_str`, :func:`get_list`, :func:`get_bool`, :func:`get_object`)
check one field's type and range and raise :class:`RecordError` naming the field; the Nain
Jaune, Spit and Speed record parsers read every field through them. :func:`brief` shows a
value in a message without echoing input of any size.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cardroom.games.errors import RecordError
from cardroom.games.messages import Message

FORMER_PLAYER = "a former player"
"""The name a deleted player's seats carry in records, logs and chat: a language-neutral key
(an msgid) that every reader shows in its own language (``cardroom.i18n.names``)."""
MAX_RECORD_BYTES = 8 * 1024 * 1024
"""The largest record read (8 MiB: thousands of Nain Jaune rounds, hundreds of Spit games)."""
MAX_DEPTH = 12
"""The deepest nesting of lists and objects in a record (the formats need 4)."""
MAX_INT_DIGITS = 20
"""Whole numbers in a record have at most this many digits (enough for any 64-bit seed)."""
MAX_COUNT = 10**12
"""The largest count a record may hold (chips, seeds' cousins: anything not an index)."""
MAX_SECONDS = 10**10
"""The largest time in seconds a record may hold (server tables stamp Unix times, so a time
may be about 1.7e9; 1e10 is the year 2286)."""


def placed(id: str, prefix: str, message: str, **numbers: int) -> Message:
    """``message`` with a place in the record before it (``round 2: …``): the English sentence
    is ``prefix + message`` as always; the words are ``id`` with ``numbers`` and the inner
    message as field ``detail`` (a plain string is kept as the general ``rec.unreadable``)."""
    inner = message if isinstance(message, Message) else Message("rec.unreadable", message)
    return Message(id, prefix + message, detail=inner, **numbers)


def shown(value: Any, limit: int = 40) -> str:
    """A value from a record for a message's ``value`` field: its JSON text when short (``null``,
    ``true``, ``"QS"``, ``[1, 2]``), else a message of its size (``rec.value.list`` …). The
    English sentence keeps :func:`brief`; this is what the other languages show."""
    if isinstance(value, str) and len(value) > limit:
        text = json.dumps(value[:limit], ensure_ascii=False)
        return Message("rec.value.text", brief(value, limit), text=text, n=len(value))
    if isinstance(value, (list, dict)):
        text = _short_repr(value, limit)
        if len(text) > limit:
            kind = "rec.value.list" if isinstance(value, list) else "rec.value.object"
            return Message(kind, brief(value, limit), n=len(value))
        return text
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


def brief(value: Any, limit: int = 40) -> str:
    """``repr(value)`` cut to about ``limit`` characters (control characters escaped)."""
    if isinstance(value, str) and len(value) > limit:
        return repr(value[:limit]) + f"… ({len(value)} characters)"
    if isinstance(value, (list, dict)):
        kind = "list" if isinstance(value, list) else "object"
        text = _short_repr(value, limit)
        return text if len(text) <= limit else f"a {kind} of {len(value)} items"
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


def _short_repr(value: Any, limit: int) -> str:
    # repr of a huge container costs its whole size: only small ones are shown
    if len(value) > 8:
        return "x" * (limit + 1)
    try:
        text = json.dumps(value, ensure_ascii=True)
    except (TypeError, ValueError):
        return "x" * (limit + 1)
    return text


def _refuse_constant(name: str) -> Any:
    raise RecordError(
        Message("rec.not-a-number", f"{name} is not a number a record may hold", value=name)
    )


def _parse_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise RecordError(
            Message(
                "rec.int-too-long",
                f"a whole number of {digits} digits is too large (at most {MAX_INT_DIGITS})",
                n=digits,
                most=MAX_INT_DIGITS,
            )
        )
    return int(text)


def _parse_float(text: str) -> float:
    if len(text) > 64:
        raise RecordError(
            Message(
                "rec.number-too-long",
                f"the number {text[:20]}… is written with too many characters",
                value=text[:20] + "…",
            )
        )
    value = float(text)
    if not math.isfinite(value):
        raise RecordError(
            Message("rec.number-too-large", f"the number {text} is too large", value=text)
        )
    return value


def loads(text: str | bytes, limit: int = MAX_RECORD_BYTES) -> Any:
    """Parse a record's JSON within the limits; raise :class:`RecordError` saying what is wrong."""
    if len(text) > limit:
        mib = limit // (1024 * 1024)
        raise RecordError(
            Message(
                "rec.too-large",
                f"the record is larger than {mib} MiB: this is not a record",
                n=mib,
            )
        )
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise RecordError(
                Message("rec.not-utf8", f"not UTF-8 text (byte {exc.start})", byte=exc.start)
            ) from None
    try:
        data = json.loads(
            text,
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=_refuse_constant,
        )
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno} column {exc.colno}"
        # the json module's English words (exc.msg) stay in the English sentence only
        raise RecordError(
            Message(
                "rec.not-json",
                f"not valid JSON: {exc.msg} ({where})",
                line=exc.lineno,
                column=exc.colno,
            )
        ) from None
    except RecursionError:
        raise RecordError(_too_deep(MAX_DEPTH)) from None
    check_depth(data)
    return data


def _too_deep(limit: int) -> Message:
    return Message("rec.too-deep", f"lists or objects nested more than {limit} deep", most=limit)


def check_depth(data: Any, limit: int = MAX_DEPTH) -> None:
    """Raise :class:`RecordError` if lists and objects nest deeper than ``limit``."""
    level = [data] if isinstance(data, (list, dict)) else []
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            raise RecordError(_too_deep(limit))
        below: list[Any] = []
        for value in level:
            items = value.values() if value.__class__ is dict else value
            below += [x for x in items if x.__class__ is list or x.__class__ is dict]
        level = below


# -- typed fields ------------------------------------------------------------------------------


def get_int(value: Any, where: str, low: int = 0, high: int = MAX_COUNT) -> int:
    """``value`` as a whole number from ``low`` to ``high`` (a bool or a float is refused)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(
            Message(
                "rec.whole-number",
                f"{where} must be a whole number, not {brief(value)}",
                field=where,
                value=shown(value),
            )
        )
    if not low <= value <= high:
        raise RecordError(
            Message(
                "rec.out-of-range",
                f"{where} must be from {low} to {high}, not {brief(value)}",
                field=where,
                low=low,
                high=high,
                value=shown(value),
            )
        )
    return value


SECONDS = "a number of seconds"
"""The ``what`` of :func:`get_number` for a time (its errors are ``rec.seconds…``)."""


def get_number(
    value: Any, where: str, low: float = 0.0, high: float = MAX_SECONDS, what: str = "a number"
) -> float:
    """``value`` as a finite number from ``low`` to ``high`` (a whole number or a decimal);
    ``what`` is the English words of it, :data:`SECONDS` or "a number" (its message's id)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RecordError(
            Message(
                "rec.seconds" if what == SECONDS else "rec.number",
                f"{where} must be {what}, not {brief(value)}",
                field=where,
                value=shown(value),
            )
        )
    if not (math.isfinite(value) and low <= value <= high):
        raise RecordError(
            Message(
                "rec.seconds-range" if what == SECONDS else "rec.number-range",
                f"{where} must be {what} from {low:g} to {high:g}, not {brief(value)}",
                field=where,
                low=f"{low:g}",
                high=f"{high:g}",
                value=shown(value),
            )
        )
    return float(value)


def get_str(value: Any, where: str, max_length: int = 200) -> str:
    """``value`` as a string of at most ``max_length`` characters."""
    if not isinstance(value, str):
        raise RecordError(
            Message(
                "rec.string",
                f"{where} must be a string, not {brief(value)}",
                field=where,
                value=shown(value),
            )
        )
    if len(value) > max_length:
        raise RecordError(
            Message(
                "rec.text-too-long",
                f"{where} is longer than {max_length} characters",
                field=where,
                n=max_length,
            )
        )
    return value


def get_bool(value: Any, where: str) -> bool:
    """``value`` as true or false."""
    if not isinstance(value, bool):
        raise RecordError(
            Message(
                "rec.true-false",
                f"{where} must be true or false, not {brief(value)}",
                field=where,
                value=shown(value),
            )
        )
    return value


def get_list(value: Any, where: str, max_length: int | None = None) -> list[Any]:
    """``value`` as a list of at most ``max_length`` items."""
    if not isinstance(value, list):
        raise RecordError(
            Message(
                "rec.list",
                f"{where} must be a list, not {brief(value)}",
                field=where,
                value=shown(value),
            )
        )
    if max_length is not None and len(value) > max_length:
        raise RecordError(
            Message(
                "rec.too-many-items",
                f"{where} has {len(value)} items: at most {max_length}",
                field=where,
                n=max_length,
                count=len(value),
            )
        )
    return value


def get_object(value: Any, where: str) -> dict[str, Any]:
    """``value`` as a JSON object."""
    if not isinstance(value, Mapping):
        raise RecordError(
            Message(
                "rec.object",
                f"{where} must be a JSON object, not {brief(value)}",
                field=where,
                value=shown(value),
            )
        )
    return dict(value)


def get_names(value: Any, count: int | tuple[int, int], where: str = "players") -> list[str]:
    """A list of ``count`` player names (or ``(low, high)`` names), each at most 100 characters
    and not blank."""
    low, high = (count, count) if isinstance(count, int) else count
    what = {2: "two"}.get(low, str(low)) if low == high else f"{low} to {high}"
    if not isinstance(value, list) or not low <= len(value) <= high:
        got = f"{len(value)} items" if isinstance(value, list) else brief(value)
        text = f"{where} must be a list of {what} names, not {got}"
        given = (
            Message("rec.value.items", got, n=len(value))
            if isinstance(value, list)
            else shown(value)
        )
        if low == high:
            raise RecordError(Message("rec.names", text, field=where, n=low, value=given))
        raise RecordError(
            Message("rec.names-range", text, field=where, low=low, high=high, value=given)
        )
    names = value
    out = []
    for i, name in enumerate(names):
        text = get_str(name, f"{where}[{i}]", 100)
        if not text.strip():
            raise RecordError(
                Message("rec.empty-name", f"{where}[{i}] is an empty name", field=f"{where}[{i}]")
            )
        out.append(text)
    return out


FORMAT = 2
"""The record format this code writes. 1: records before they carried a version (read as they
are); 2: every record (a Spit or Speed game, a Nain Jaune round) carries ``"version":
{"format": 2, "rules": R}``, R being the version of its game's rules it was played under."""


@dataclass(frozen=True, slots=True)
class Version:
    """The format of a record and the version of its game's rules it was played under."""

    format: int
    rules: int

    def to_json(self) -> dict[str, int]:
        """``{"format": F, "rules": R}``."""
        return {"format": self.format, "rules": self.rules}


def written_version(rules: int) -> dict[str, int]:
    """The ``version`` object a record written now carries (``rules``: the game's version)."""
    return Version(FORMAT, rules).to_json()


GAME_KEYS = {"Nain Jaune": "nain-jaune", "Spit": "spit", "Speed": "speed"}
"""A game's English name (``read_version``'s ``game``) -> its key (a message's ``game`` field)."""


def read_version(data: Mapping[str, Any], game: str, current: int, before: int = 1) -> Version:
    """A record's version; raise :class:`RecordError` if a newer release wrote it.

    A record without ``version`` (format 1) was played under rules ``before``, which the
    game's reader works out from what the record holds.
    """
    raw = data.get("version")
    if raw is None:
        return Version(1, before)
    version = get_object(raw, "version")
    fmt = get_int(version.get("format"), "version.format", 1, MAX_COUNT)
    rules = get_int(version.get("rules"), "version.rules", 1, MAX_COUNT)
    if fmt > FORMAT or rules > current:
        raise RecordError(
            Message(
                "rec.newer",
                f"this {game} record was written by a newer cardroom (format {fmt}, rules "
                f"{rules}; this one reads up to format {FORMAT}, rules {current}): upgrade "
                "cardroom to replay it",
                game=GAME_KEYS.get(game, game),
                format=fmt,
                rules=rules,
                most_format=FORMAT,
                most_rules=current,
            )
        )
    return Version(fmt, rules)
