"""The words of a record's errors (``rec.*`` ids): a record file a person gave that cannot be
read or does not replay. :data:`RECORD_MESSAGES` holds a record file's and what every record
shares, :data:`REALTIME_RECORD_MESSAGES` what every real-time game's record shares (``rec.rt.*``)
and the arbiter's own refusals (``arbiter.*``); a game's own (``rec.<game>.*``) are in its
``words`` piece (``games/<game>/words.py``).

Each :class:`~cardroom.games.errors.RecordError` is raised with a
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
    "rec.cannot-open": N_("cannot open it (the system says: {said})"),
    "rec.cannot-read": N_("cannot read it (the system says: {said})"),
    "rec.folder": N_("this is a folder, not a record file"),
    "rec.file-empty": N_("the file is empty"),
    "rec.no-end": N_(
        "nothing more arrived in {seconds} s: give a record file, not a pipe or device that "
        "never ends"
    ),
    # where an error is in a record
    "rec.at-field": N_("field {field}"),
    "rec.no-key": N_("the record has no {field}"),
    # a card that cannot be read (cards.py: CardError), said inside another message
    "card.not-text": N_("{value} is not a card: a card is written as text, like 10D or QS"),
    "card.too-short": N_("{value} is not a card: write its rank then its suit, like 10D or QS"),
    "card.rank": N_(
        "{value} is not a card: {rank} is not a rank (write A, 2 to 10 or T, J, Q or K)"
    ),
    "card.suit": N_(
        "{value} is not a card: {suit} is not a suit (write C, D, H or S, or ♣ ♦ ♥ ♠)"
    ),
    "card.deal": N_("cannot deal {players} hands of {size} cards from {cards} cards"),
    "card.unreadable": N_("{value} is not a card"),
    # a value from the record too large to show whole
    "rec.value.text": ("n", *Np_(
        "{text}… ({n} character)", "{text}… ({n} characters)",
    )),
    "rec.value.list": ("n", *Np_("a list of {n} item", "a list of {n} items")),
    "rec.value.items": ("n", *Np_("{n} item", "{n} items")),
    "rec.value.object": ("n", *Np_("an object of {n} item", "an object of {n} items")),
}  # fmt: skip
"""Message id -> its English text (a ``(count field, singular, plural)`` for a plural)."""

# A real-time game's record (rec.rt.*: the arbiter's replay, the header the games share) and the
# arbiter's own refusals (arbiter.*): ``t``, ``due`` and ``before``
# are times in seconds (written as the language writes decimals), ``seat`` a record's seat (0 or
# 1, as the record counts).
REALTIME_RECORD_MESSAGES: dict[str, str | tuple[str, str, str]] = {
    # the arbiter's replay of one record (arbiter.py)
    "rec.rt.no-game": N_("the record does not say which game it is ({field})"),
    "rec.rt.ended": N_(
        "{field} must be a forfeit by seat 0 or 1, or an abandoned game that play did not end"
    ),
    "rec.rt.action-object": N_('{field} must be an object with a "type", not {value}'),
    "rec.rt.action-type": N_("an action's {field} must be a short name, not {value}"),
    "rec.rt.action-field": N_(
        "in a {kind} action, {field} is {value}: neither a card nor a pile number"
    ),
    "rec.rt.entry-object": N_("each entry of the actions must be an object with {fields}"),
    "rec.rt.time-order": N_("the time {t} is earlier than the entry before ({before})"),
    "rec.rt.seatless": N_("an entry without a seat must be the countdown's, {value}"),
    "rec.rt.countdown-accepted": N_("a countdown entry is always accepted"),
    "rec.rt.countdown-none": N_(
        "the record says a countdown ran out at {t} s, but no countdown is running"
    ),
    "rec.rt.countdown-at": N_(
        "the record says a countdown ran out at {t} s, but it runs out at {due} s"
    ),
    "rec.rt.countdown-again": N_(
        "the countdown ran out again at {t} s, which the record does not show"
    ),
    "rec.rt.countdown-missed": N_(
        "the countdown ran out at {t} s, before this action, but the record has no timeout there"
    ),
    "rec.rt.seat": N_("{field} must be 0, 1 or null (a countdown), not {value}"),
    "rec.rt.seat-action": N_("seat {seat}: {detail}"),
    "rec.rt.accepted-illegal": N_(
        "seat {seat}'s {value} was recorded as accepted but is illegal: {reason}"
    ),
    "rec.rt.rejected-legal": N_("seat {seat}'s {value} was recorded as refused but is legal"),
    "rec.rt.empty-match": N_("a match record is a non-empty list of game records"),
    # the header both games share and its deal (games/realtime_engine.py)
    "rec.rt.deal-list": N_("{field} must be a list of the 52 cards"),
    "rec.rt.deal-card": N_("deal card {n}: {value} is not a card"),
    "rec.rt.deal-card-said": N_("deal card {n}: {detail}"),
    "rec.rt.deal-twice": N_("deal card {n}: {card.the} is already in the deal"),
    "rec.rt.deal-size": (
        "n",
        *Np_(
            "the deal has {n} card: it must hold all 52 cards once",
            "the deal has {n} cards: it must hold all 52 cards once",
        ),
    ),
    "rec.rt.header-object": N_("a {game} record must be a JSON object"),
    "rec.rt.wrong-game": N_("{field} is {value}, not {game}"),
    "rec.rt.no-key": N_("the record has no {field}"),
    "rec.rt.rules": N_("rules: {detail}"),
    "rec.rt.countdown-long": N_(
        "the rules' countdown of {seconds} s is too long: at most {most} s"
    ),
    # an action of a record (each real-time engine's action_from_json)
    "rec.rt.action-extra": N_("a {kind} action has no {typed}"),
    "rec.rt.action-missing": N_("a {kind} action needs {typed}"),
    "rec.rt.action-card": N_("{kind} action, {field}: {value} is not a card"),
    "rec.rt.action-card-said": N_("{kind} action, {field}: {detail}"),
    "rec.rt.action-number": N_(
        "{kind} action, {field} must be a whole number from 0 to {most}, not {value}"
    ),
    # a play sent by a player's page without the card it was aimed at
    "rt.play-seen": N_('a play must carry the top card of the pile as you saw it ("seen")'),
    # the arbiter's refusals of what it is given (a replay's entries, a table's actions)
    "arbiter.players": N_("a real-time table has 2 players, not {n}"),
    "arbiter.countdown": N_("the countdown must be 0 or more seconds, not {seconds}"),
    "arbiter.time": N_("an action's time must be a number of seconds, not {value}"),
    "arbiter.time-order": N_(
        "time {t} is earlier than the last thing applied ({before}): submit actions in time order"
    ),
    "arbiter.seat": N_("the seat must be 0 or 1, not {value}"),
}
"""Message id -> its English text."""
