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
    # the JSON of a record (games/records.py: loads)
    "rec.not-a-number": N_("{value} is not a number a record may hold"),
    "rec.int-too-long": N_("a whole number of {n} digits is too large (at most {most})"),
    "rec.number-too-long": N_("the number {value} is written with too many characters"),
    "rec.number-too-large": N_("the number {value} is too large"),
    "rec.too-large": N_("the record is larger than {n} MiB: this is not a record"),
    "rec.not-utf8": N_("not UTF-8 text (byte {byte})"),
    "rec.not-json": N_("not valid JSON (line {line}, column {column})"),
    "rec.too-deep": N_("lists or objects nested more than {most} deep"),
    # one field of a record (games/records.py: get_int, get_str …)
    "rec.whole-number": N_("{field} must be a whole number, not {value}"),
    "rec.out-of-range": N_("{field} must be from {low} to {high}, not {value}"),
    "rec.number": N_("{field} must be a number, not {value}"),
    "rec.seconds": N_("{field} must be a number of seconds, not {value}"),
    "rec.number-range": N_("{field} must be a number from {low} to {high}, not {value}"),
    "rec.seconds-range": N_(
        "{field} must be a number of seconds from {low} to {high}, not {value}"
    ),
    "rec.string": N_("{field} must be a string, not {value}"),
    "rec.text-too-long": ("n", *Np_(
        "{field} is longer than {n} character", "{field} is longer than {n} characters",
    )),
    "rec.true-false": N_("{field} must be true or false, not {value}"),
    "rec.list": N_("{field} must be a list, not {value}"),
    "rec.too-many-items": N_("{field} has {count} items: at most {n}"),
    "rec.object": N_("{field} must be a JSON object, not {value}"),
    "rec.names": N_("{field} must be a list of {n} names, not {value}"),
    "rec.names-range": N_("{field} must be a list of {low} to {high} names, not {value}"),
    "rec.empty-name": N_("{field} is an empty name"),
    "rec.newer": N_(
        "this {game} record was written by a newer cardroom (format {format}, rules {rules}; "
        "this one reads up to format {most_format}, rules {most_rules}): upgrade cardroom to "
        "replay it"
    ),
    # a record file (cli/records.py)
    "rec.file-too-large": N_("the file is larger than {n} MiB: not a record"),
    "rec.no-file": N_("there is no such file"),
    "rec.no-permission": N_("you may not read this file"),
    "rec.cannot-open": N_("cannot open it (the system says: {reason})"),
    "rec.cannot-read": N_("cannot read it (the system says: {reason})"),
    "rec.folder": N_("this is a folder, not a record file"),
    "rec.file-empty": N_("the file is empty"),
    "rec.no-end": N_(
        "nothing more arrived in {seconds} s: give a record file, not a pipe or device that "
        "never ends"
    ),
    # a value from the record too large to show whole
    "rec.value.text": ("n", *Np_(
        "{text}… ({n} character)", "{text}… ({n} characters)",
    )),
    "rec.value.list": ("n", *Np_("a list of {n} item", "a list of {n} items")),
    "rec.value.items": ("n", *Np_("{n} item", "{n} items")),
    "rec.value.object": ("n", *Np_("an object of {n} item", "an object of {n} items")),
}  # fmt: skip
"""Message id -> its English text (a ``(count field, singular, plural)`` for a plural)."""
