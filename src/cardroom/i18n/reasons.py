"""Refusals of the tables and the web layer in the person's language.

A refusal is a :class:`~cardroom.games.messages.Message` (an id and fields, told by
:mod:`cardroom.i18n.messages`, the rules' option errors too) or one of the fixed sentences of
:data:`cardroom.i18n.messages.FIXED`, each its own msgid. No sentence is read here.
"""

from __future__ import annotations

from cardroom.games.errors import RecordError, RulesError
from cardroom.games.messages import Message
from cardroom.i18n import ENGLISH, N_, Translator
from cardroom.i18n.messages import FIXED as _TABLE_FIXED
from cardroom.i18n.messages import words


def illegal_reason(reason: str, lang: Translator = ENGLISH) -> str:
    """A turn-based engine's ``IllegalAction.reason`` (a message with an id) in ``lang``."""
    return words(reason, lang)


def request_error_text(message: str, lang: Translator = ENGLISH) -> str:
    """A refused web request (creating a table, the rules' options, an unknown table) in
    ``lang``: a message with an id is told from its id; a fixed sentence is its own msgid."""
    tr = lang
    if isinstance(message, Message):
        return words(message, tr)
    if message in _TABLE_FIXED:
        return tr._(_TABLE_FIXED[message])
    return words(message, tr) if tr.lang != "en" else message


def rules_error_text(error: Exception, lang: Translator = ENGLISH) -> str:
    """An error on the command line (the rules', a simulation's): its English sentence in
    English (as it always was), else told from its message's id; an error without an id or
    fixed words stays as it was said."""
    tr = lang
    message = error.message if isinstance(error, RulesError) else _first_arg(error)
    if tr.lang == "en" or not (isinstance(message, Message) or message in _TABLE_FIXED):
        return str(error)
    return request_error_text(message, tr)


def _first_arg(error: Exception) -> str:
    arg = error.args[0] if error.args else None
    return arg if isinstance(arg, str) else str(error)


def table_error_text(code: str, message: str, lang: Translator = ENGLISH) -> str:
    """A table's refusal (``TableError`` code and message) in ``lang``: from the message's id
    (or, for a fixed sentence, the sentence as its msgid); never an English sentence to a
    French or Welsh reader."""
    tr = lang
    if isinstance(message, Message):
        return words(message, tr)
    if message in _TABLE_FIXED:
        return tr._(_TABLE_FIXED[message])
    return request_error_text(message, tr)


def message_id(code: str, message: str) -> str:
    """The id a refusal carries on the wire: its message's, else ``table.<code>``."""
    return message.id if isinstance(message, Message) else f"table.{code}"


def record_error_message(error: BaseException) -> Message:
    """The message of a record's error: a :class:`RecordError`'s (its id, with the places it
    adds as fields); an analysis refusal carrying one; else the general ``rec.unreadable``."""
    if isinstance(error, RecordError):
        return error.message
    arg = error.args[0] if error.args else None
    if isinstance(arg, Message):
        return arg
    return Message("rec.unreadable", str(error))


def record_error_text(
    error: BaseException, lang: Translator = ENGLISH, path: str | None = None
) -> str:
    """A record's error (:class:`RecordError`, or an analysis refusal carrying its message) in
    ``lang``, after the file's ``path`` if given: in English the sentence as it always was
    (``path: `` before it); in French and Welsh told from the message's id and fields, so no
    English sentence reaches the reader (an error raised with a plain string is said as the
    general ``rec.unreadable``)."""
    tr = lang
    if tr.lang == "en":
        return f"{path}: {error}" if path is not None else str(error)
    said = words(record_error_message(error), tr)
    return tr._(N_("{path}: {detail}"), path=path, detail=said) if path is not None else said


PLACES = frozenset({"rec.in-round", "rec.at-action", "rec.in-game", "rec.in-game-action"})
"""The ids that only say where in the record an error is (its ``detail`` says what)."""


def record_error_id(error: BaseException) -> str:
    """The id of what is wrong with a record (under the places it is at): ``rec.no-key`` …"""
    message = record_error_message(error)
    while message.id in PLACES and isinstance(message.fields.get("detail"), Message):
        message = message.fields["detail"]
    return message.id
