"""The words of a record's errors (``rec.*`` ids): a record file a person gave that cannot be
read or does not replay.

Each :class:`~cardroom.games.records.RecordError` is raised with a
:class:`~cardroom.games.messages.Message` whose id is registered here (and so in
:data:`cardroom.i18n.messages.MESSAGES`); :func:`cardroom.i18n.reasons.record_error_text` says
it in the reader's language. The fields: ``field`` is the record's own JSON path (``chips[2]``:
the person's key, quoted, never translated); ``value`` a value from the record as JSON text (or
a ``rec.value.*`` message of its size); ``detail`` and ``reason`` a nested message (its own
words); ``round``, ``game``, ``action``, ``move`` numbers as players count (from 1).
"""

from __future__ import annotations

from cardroom.i18n import N_, Np_

RECORD_MESSAGES: dict[str, str | tuple[str, str, str]] = {
    # the general words of an error not yet given an id, and where an error is in the record
    "rec.unreadable": N_("this record cannot be read"),
    "rec.not-a-record": N_("not a game record: {detail}"),
    "rec.in-file": N_("{path}: {detail}"),
    "rec.in-round": N_("round {round}: {detail}"),
    "rec.at-action": N_("action {action}: {detail}"),
    "rec.in-game": N_("game {game}: {detail}"),
    "rec.in-game-action": N_("game {game}: action {action}: {detail}"),
    # a value from the record too large to show whole
    "rec.value.text": ("n", *Np_(
        "{text}… ({n} character)", "{text}… ({n} characters)",
    )),
    "rec.value.list": ("n", *Np_("a list of {n} item", "a list of {n} items")),
    "rec.value.object": ("n", *Np_("an object of {n} item", "an object of {n} items")),
}  # fmt: skip
"""Message id -> its English text (a ``(count field, singular, plural)`` for a plural)."""
