"""The errors every game shares: a rules option refused and a record refused.

Both are ``ValueError`` subclasses raised with a :class:`~cardroom.games.messages.Message`
(an id, fields and the English sentence), so every layer can say them in a person's language.
"""

from __future__ import annotations

from cardroom.games.messages import Message

__all__ = ["RecordError", "RulesError"]


class RulesError(ValueError):
    """An option name or value is not valid."""

    @property
    def message(self) -> str:
        """What is wrong: the :class:`Message` it was raised with (its id kept), else the text."""
        arg = self.args[0] if self.args else None
        return arg if isinstance(arg, Message) else str(self)

    def prefixed(self, prefix: str) -> str:
        """The message after ``prefix`` (``rules: …``), its id and fields kept."""
        m = self.message
        if isinstance(m, Message):
            return Message(m.id, prefix + m, **m.fields)
        return prefix + m


class RecordError(ValueError):
    """A record is malformed or does not replay; the message says where and why.

    Every game's record error is a subclass, so a caller can catch this one class.

    **Words.** A record error is raised with a :class:`~cardroom.games.messages.Message`, never
    a bare sentence: ``RecordError(Message("rec.whole-number", f"{where} must be a whole number,
    not {brief(value)}", field=where, value=shown(value)))``. The Message is the English
    sentence (``str(exc)`` stays byte for byte what it always was: tests, logs and callers read
    it) *and* an ``id`` with ``fields``; the words in French and Welsh are chosen from the id in
    :mod:`cardroom.i18n.record_words` (ids ``rec.*``; the catalogs en/fr/cy) by
    :func:`cardroom.i18n.reasons.record_error_text`, which every display point calls (``cardroom
    replay``, ``cardroom analyse``, the web replay upload and its Analyse). In fields:

    - a record's JSON path (``chips[2]``, ``version.format``) is the ``field``: the person's
      own key, shown quoted, never translated;
    - a value from the record is :func:`~cardroom.games.records.shown` of it (its JSON text,
      or a message of its size);
    - another error's message (a rules error, an engine's illegal-move reason) is put in a
      field as the :class:`Message` itself (``reason=exc.reason``), never ``str()`` of it, so its
      id reaches the reader;
    - the places a game's subclass adds (``round 2: ``, ``game 3: action 7: ``) are not glued
      to the sentence: the subclass wraps the Message in ``rec.in-round``/``rec.at-move``/…
      with the number and the inner message as fields
      (:func:`~cardroom.games.records.placed`), so the prefix is worded too.

    :attr:`message` is the Message to tell a person; an error raised with a plain string (code
    not yet converted) is told as the general ``rec.unreadable`` in French and Welsh, never as
    its English sentence. ``tests/i18n/test_record_errors.py`` checks that every raise in the
    converted files passes a Message whose id has words.
    """

    @property
    def message(self) -> Message:
        """What a person is told: the Message raised (or the general ``rec.unreadable``)."""
        arg = self.args[0] if self.args else ""
        if isinstance(arg, Message):
            return arg
        return Message("rec.unreadable", str(arg))
