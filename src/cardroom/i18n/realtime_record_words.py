"""The words of a Spit or Speed record's errors (``rec.rt.*``: the arbiter's replay,
``rec.spit.*``, ``rec.speed.*``: the headers and a Speed match) and of the arbiter's own refusals
(``arbiter.*``), in the manner of :mod:`cardroom.i18n.record_words`: ``field`` is the record's
own key (quoted, never translated), ``value`` a value from the record as JSON text, ``detail``
and ``reason`` a nested message, ``t``, ``due`` and ``before`` times in seconds (written as the
language writes decimals), ``seat`` a record's seat (0 or 1, as the record counts).
"""

from __future__ import annotations

from cardroom.i18n import N_, Np_

REALTIME_RECORD_MESSAGES: dict[str, str | tuple[str, str, str]] = {
    # the arbiter's replay of one record (arbiter.py)
    "rec.rt.unknown-game": N_("this record's game {value} is not Spit or Speed"),
    "rec.rt.not-object": N_("a Spit or Speed record is a JSON object with a {field} field"),
    "rec.rt.no-game": N_("the record does not say which game it is ({field})"),
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
    "rec.rt.deal-twice": N_("deal card {n}: {card.the} is already in the deal"),
    "rec.rt.deal-size": (
        "n",
        *Np_(
            "the deal has {n} card: it must hold all 52 cards once",
            "the deal has {n} cards: it must hold all 52 cards once",
        ),
    ),
    "rec.spit.deal-twice": N_("{card.the} is twice in the deal: each card once"),
    "rec.rt.header-object": N_("a {game} record must be a JSON object"),
    "rec.rt.wrong-game": N_("{field} is {value}, not {game}"),
    "rec.rt.no-key": N_("the record has no {field}"),
    "rec.rt.rules": N_("rules: {detail}"),
    "rec.rt.countdown-long": N_(
        "the rules' countdown of {seconds} s is too long: at most {most} s"
    ),
    # an action of a record (games/spit/engine.py, games/speed/engine.py: action_from_json)
    "rec.rt.action-extra": N_("a {kind} action has no {typed}"),
    "rec.rt.action-missing": N_("a {kind} action needs {typed}"),
    "rec.rt.action-card": N_("{kind} action, {field}: {value} is not a card"),
    "rec.rt.action-number": N_(
        "{kind} action, {field} must be a whole number from 0 to {most}, not {value}"
    ),
    "rec.spit.action-object": N_('a Spit action must be a JSON object with a "type", not {value}'),
    "rec.spit.action-type": N_("unknown Spit action type {value}: the types are {choices}"),
    "rec.speed.action-object": N_(
        'a Speed action must be a JSON object with a "type", not {value}'
    ),
    "rec.speed.call-fields": N_("a call action has no other fields: {value}"),
    "rec.speed.pile": N_("{field} must be 0 or 1, not {value}"),
    "rec.speed.play-card": N_("play action: a card cannot be read"),
    "rec.speed.action-type": N_(
        'unknown Speed action type {value}: the types are "play" and "call"'
    ),
    # a play sent by a player's page without the card it was aimed at
    "rt.play-seen": N_('a play must carry the top card of the pile as you saw it ("seen")'),
    # a Spit header, a Speed header and a Speed match (games/spit/record.py, speed/record.py)
    "rec.spit.not-object": N_("a Spit record must be a JSON object"),
    "rec.speed.match-object": N_(
        "{field} must be an object with the match's seed, game and scores"
    ),
    "rec.speed.scores": N_("{field} must be a list of two numbers"),
    "rec.speed.seed": N_(
        "seed {seed} is not the seed of game {game} of match {match} ({expected})"
    ),
    "rec.speed.no-match": N_("a game of a match needs its {field} object"),
    "rec.speed.match-seed": N_("its match seed differs from game 1's"),
    "rec.speed.game-number": N_("it says it is game {value}"),
    "rec.speed.players": N_("the players differ from game 1's"),
    "rec.speed.rules": N_("the rules differ from game 1's"),
    "rec.speed.start-scores": N_(
        "it starts from scores {value}, but the games before leave {scores}"
    ),
    "rec.speed.already-won": N_("the match was already won in game {before}"),
    "rec.speed.unfinished": N_("it never ended, yet another game follows"),
    "rec.speed.single-game": N_("the target is 0 (a single game), yet another game follows"),
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
