"""The words of the answers past a bound of one client's work (issue 19): each has a message id
(``bounds.…``) that the answer carries beside its words, registered in
:data:`cardroom.i18n.messages.MESSAGES` (words are chosen by
:func:`cardroom.i18n.messages.message_words`)."""

from __future__ import annotations

from cardroom.i18n import N_, Np_

BOUND_MESSAGES: dict[str, str | tuple[str, str, str]] = {
    "bounds.tables-per-minute": ("n", *Np_(
        "you have made {n} table in the last minute: wait a moment",
        "you have made {n} tables in the last minute: wait a moment",
    )),
    "bounds.open-tables": ("n", *Np_(
        "you have {n} table not over yet: finish it before making another",
        "you have {n} tables not over yet: finish one before making another",
    )),
    "bounds.replays-per-minute": ("n", *Np_(
        "you have replayed {n} record in the last minute: wait a moment",
        "you have replayed {n} records in the last minute: wait a moment",
    )),
    "bounds.replay-pages-per-minute": ("n", *Np_(
        "you have asked for {n} page of replays in the last minute: wait a moment",
        "you have asked for {n} pages of replays in the last minute: wait a moment",
    )),
    "bounds.record-file-mb": ("n", *Np_(
        "a record file may be at most {n} MB: this one is larger",
        "a record file may be at most {n} MB: this one is larger",
    )),
    "bounds.record-file-kb": ("n", *Np_(
        "a record file may be at most {n} KB: this one is larger",
        "a record file may be at most {n} KB: this one is larger",
    )),
    "bounds.replay-rounds": N_(
        "this record has {n} rounds: the replay shows games of at most {most} rounds"
    ),
    "bounds.replay-steps": N_("this record is too long to replay here: at most {most} steps"),
    "bounds.replay-no-page": N_("this replay has no such page: open it again from its start"),
    "bounds.replays-busy": N_("many replays are being prepared: try again in a moment"),
    "bounds.analyses-per-hour": ("n", *Np_(
        "you have asked for {n} analysis in the last hour: wait a while",
        "you have asked for {n} analyses in the last hour: wait a while",
    )),
    "bounds.exports-per-hour": ("n", *Np_(
        "you have exported your records {n} time in the last hour: wait a while",
        "you have exported your records {n} times in the last hour: wait a while",
    )),
    "bounds.analysis-rounds": N_(
        "this record has {n} rounds: the analysis takes games of at most {most} rounds"
    ),
    "bounds.analysis-gone": N_(
        "This record's analysis is not kept here: open the file in the replay viewer and analyse "
        "it again."
    ),
    "bounds.analyses-busy": N_("Many games are being analysed just now: try again in a minute."),
    "bounds.connections": N_(
        "too many connections from your address at once: close a few pages and try again"
    ),
    "bounds.hints-per-minute": N_("you have asked for many hints lately: wait a minute"),
}  # fmt: skip
"""Message id -> its English text (a ``(count field, singular, plural)`` for a plural)."""
