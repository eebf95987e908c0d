"""Refusals of the tables and the web layer in the person's language.

A refusal is a :class:`~cardroom.games.messages.Message` (an id and fields, told by
:mod:`cardroom.i18n.messages`, the rules' option errors too) or one of the fixed sentences of
:data:`cardroom.i18n.messages.FIXED`, each its own msgid. No sentence is read here.
"""

from __future__ import annotations

from cardroom.games.messages import Message
from cardroom.games.nain_jaune.rules import RulesError
from cardroom.i18n import Translator
from cardroom.i18n.messages import FIXED as _TABLE_FIXED
from cardroom.i18n.messages import words
from cardroom.i18n.words import tr_of


def illegal_reason(reason: str, lang: str | Translator | None = None) -> str:
    """A Nain Jaune engine's ``IllegalAction.reason`` (a message with an id) in ``lang``."""
    return words(reason, lang)


def request_error_text(message: str, lang: str | Translator | None = None) -> str:
    """A refused web request (creating a table, the rules' options, an unknown table) in
    ``lang``: a message with an id is told from its id; a fixed sentence is its own msgid."""
    tr = tr_of(lang)
    if isinstance(message, Message):
        return words(message, tr)
    if message in _TABLE_FIXED:
        return tr._(_TABLE_FIXED[message])
    return words(message, tr) if tr.lang != "en" else message


def rules_error_text(error: Exception, lang: str | Translator | None = None) -> str:
    """An error on the command line (the rules', a simulation's): its English sentence in
    English (as it always was), else told from its message's id; an error without an id or
    fixed words stays as it was said."""
    tr = tr_of(lang)
    message = error.message if isinstance(error, RulesError) else _first_arg(error)
    if tr.lang == "en" or not (isinstance(message, Message) or message in _TABLE_FIXED):
        return str(error)
    return request_error_text(message, tr)


def _first_arg(error: Exception) -> str:
    arg = error.args[0] if error.args else None
    return arg if isinstance(arg, str) else str(error)


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
