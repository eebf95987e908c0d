"""Messages with an id: what the engines (and the tables above them) say, as data.

A :class:`Message` is the English sentence the engines have always given (records, logs and
``describe()`` keep it byte for byte) *and* a stable ``id`` with typed ``fields`` (cards as
:class:`~cardroom.cards.Card`, ranks as ``int``, piles, seats and counts as ``int``). It is a
``str``, so code that compares or stores the sentence is unchanged; the words a person reads are
chosen from the id and the fields, once, in :mod:`cardroom.i18n.messages`, never by reading the
sentence.
"""

from __future__ import annotations

from typing import Any

from cardroom.cards import Card, CardError


class Message(str):
    """An English sentence with its ``id`` and ``fields``: ``Message("nj.not-held", "seat 1
    does not hold 7D", card=Card.parse("7D"))``."""

    id: str
    fields: dict[str, Any]

    def __new__(cls, id: str, text: str, /, **fields: Any) -> Message:
        self = super().__new__(cls, text)
        self.id = id
        self.fields = fields
        return self

    def __getnewargs__(self) -> tuple[str, str]:  # type: ignore[override]
        return (self.id, str(self))

    def __getstate__(self) -> dict[str, Any]:
        return {"id": self.id, "fields": self.fields}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.id = state["id"]
        self.fields = state["fields"]

    def json_fields(self) -> dict[str, Any]:
        """The fields as JSON values (cards as their codes)."""
        return {k: json_value(v) for k, v in self.fields.items()}


def json_value(value: Any) -> Any:
    """A field as JSON: a card as its code, a nested message as ``{"id", "fields"}``."""
    if isinstance(value, Card):
        return value.code
    if isinstance(value, Message):
        return {"id": value.id, "fields": value.json_fields()}
    if isinstance(value, tuple | list):
        return [json_value(v) for v in value]
    return value


def message_json(message: str | None) -> dict[str, Any] | None:
    """``{"id": …, "fields": {…}}`` of a :class:`Message` (None for a plain string)."""
    if isinstance(message, Message):
        return {"id": message.id, "fields": message.json_fields()}
    return None


def message_of(error: BaseException) -> str:
    """What ``error`` says, as the :class:`Message` it was raised with when it has one (its
    ``message`` attribute, or its first argument: a record's, the rules', an engine's error),
    else its English sentence. Re-raising with it keeps the id and fields (``str(error)``
    would keep only the English). A :class:`~cardroom.cards.CardError` is said as its own id and
    fields."""
    if isinstance(error, CardError):
        return Message(error.id, str(error), **error.fields)
    for said in (getattr(error, "message", None), error.args[0] if error.args else None):
        if isinstance(said, Message):
            return said
    return str(error)
