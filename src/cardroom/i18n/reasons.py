"""Refusals of the tables and the web layer in the person's language.

A refusal is a :class:`~cardroom.games.messages.Message` (an id and fields, told by
:mod:`cardroom.i18n.messages`) or one of the fixed sentences below, each its own msgid. The
rules' option errors (``piles=3 is not valid: …``, raised by the rules core) are still read from
their sentence here.
"""

from __future__ import annotations

import re

from cardroom.games.messages import Message
from cardroom.i18n import Translator
from cardroom.i18n.messages import FIXED as _TABLE_FIXED
from cardroom.i18n.messages import words
from cardroom.i18n.words import N_, tr_of


def illegal_reason(reason: str, lang: str | Translator | None = None) -> str:
    """A Nain Jaune engine's ``IllegalAction.reason`` (a message with an id) in ``lang``."""
    return words(reason, lang)


_NOT_VALID = re.compile(r"(?:rules: )?(\w+=.{0,80}?) is not valid: (.+)")
_UNKNOWN_OPTION = re.compile(
    r"(?:rules: )?unknown (?:Spit )?option (.{0,80}?): the (?:Speed )?options are (.+)"
)
_UNKNOWN_PRESET = re.compile(r"unknown preset (.{0,80}?): choose one of (.+)")
_CHIPS = re.compile(
    r"starting_chips=(.{0,80}?): each player needs at least (\d+) chips \(one round's stakes\) "
    r"and at most ([\d,]+)"
)
_HOW = {
    "use 5 or 4 (stock piles)": N_("use 5 or 4 (stock piles)"),
    "choose race or chooser": N_("choose race or chooser"),
    "use true or false": N_("use true or false"),
    "use 10 (15 cards each) or 5 (20 cards each)": N_(
        "use 10 (15 cards each) or 5 (20 cards each)"
    ),
    "use a number of seconds, 0 or more": N_("use a number of seconds, 0 or more"),
}
_HOW_SECONDS = re.compile(
    r"use a number of seconds from 0 to (\d+) \(0 = only when both call\)"
    r"|give seconds \(0 to (\d+); 0 = flip only when both players call\)"
)
_HOW_CHOOSE = re.compile(r"choose one of (.+)")


def _how_words(how: str, tr: Translator) -> str:
    if how in _HOW:
        return tr._(_HOW[how])
    m = _HOW_SECONDS.fullmatch(how)
    if m:
        return tr._(
            "use a number of seconds from 0 to {n} (0 = only when both call)",
            n=m.group(1) or m.group(2),
        )
    m = _HOW_CHOOSE.fullmatch(how)
    if m:
        return tr._("choose one of {choices}", choices=m.group(1))
    return how


def request_error_text(message: str, lang: str | Translator | None = None) -> str:
    """A refused web request (creating a table, the rules' options, an unknown table) in
    ``lang``: a message with an id is told from its id; a fixed sentence is its own msgid."""
    tr = tr_of(lang)
    if isinstance(message, Message):
        return words(message, tr)
    if message in _TABLE_FIXED:
        return tr._(_TABLE_FIXED[message])
    m = _NOT_VALID.fullmatch(message)
    if m:
        return tr._(
            "{setting} is not valid: {how}", setting=m.group(1), how=_how_words(m.group(2), tr)
        )
    m = _UNKNOWN_OPTION.fullmatch(message)
    if m:
        return tr._(
            "unknown option {option}: the options are {options}",
            option=m.group(1),
            options=m.group(2),
        )
    m = _UNKNOWN_PRESET.fullmatch(message)
    if m:
        return tr._(
            "unknown preset {preset}: choose one of {presets}",
            preset=m.group(1),
            presets=m.group(2),
        )
    m = _CHIPS.fullmatch(message)
    if m:
        return tr._(
            "starting_chips={chips}: each player needs at least {least} chips (one round's "
            "stakes) and at most {most}",
            chips=m.group(1),
            least=m.group(2),
            most=m.group(3),
        )
    return words(message, tr) if tr.lang != "en" else message


def table_error_text(code: str, message: str, lang: str | Translator | None = None) -> str:
    """A table's refusal (``TableError`` code and message) in ``lang``: from the message's id
    (or, for a fixed sentence, the sentence as its msgid); never an English sentence to a
    French or Welsh reader."""
    tr = tr_of(lang)
    if isinstance(message, Message):
        return words(message, tr)
    if message in _TABLE_FIXED:
        return tr._(_TABLE_FIXED[message])
    return request_error_text(message, tr)


def message_id(code: str, message: str) -> str:
    """The id a refusal carries on the wire: its message's, else ``table.<code>``."""
    return message.id if isinstance(message, Message) else f"table.{code}"
