"""The rules engines' reasons for refusing an action (English), in the person's language."""

from __future__ import annotations

import re

from cardroom.i18n import Translator
from cardroom.i18n.words import N_, a_rank, card_name, tr_of

_FIXED = {
    "the round is over": N_("the round is over"),
    "there is no board card of yours to claim": N_("there is no board card of yours to claim"),
    "you have played your last card: claim its box or pass": N_(
        "you have played your last card: claim its box or pass"
    ),
    "you start a new sequence and must play a card": N_(
        "you start a new sequence and must play a card"
    ),
}
_RANKS = {"ace": 1, "jack": 11, "queen": 12, "king": 13} | {str(v): v for v in range(2, 11)}
_HOLD = re.compile(r"you hold an? (\w+) and must play it")
_NEXT = re.compile(r"the next card must be an? (\w+)")
_NOT_HELD = re.compile(r"seat \d+ does not hold (\w+)")
_NOT_BOARD = re.compile(r"(\w+) is not a board card: there is nothing to forget")


def illegal_reason(reason: str, lang: str | Translator | None = None) -> str:
    """A Nain Jaune engine's ``IllegalAction.reason`` in ``lang`` (as it is if unknown)."""
    tr = tr_of(lang)
    if reason in _FIXED:
        return tr._(_FIXED[reason])
    m = _HOLD.fullmatch(reason)
    if m and m.group(1) in _RANKS:
        return tr._("you hold {a_rank} and must play it", a_rank=a_rank(_RANKS[m.group(1)], tr))
    m = _NEXT.fullmatch(reason)
    if m and m.group(1) in _RANKS:
        return tr._("the next card must be {a_rank}", a_rank=a_rank(_RANKS[m.group(1)], tr))
    m = _NOT_HELD.fullmatch(reason)
    if m:
        return tr._("you do not hold the {card}", card=card_name(m.group(1), tr))
    m = _NOT_BOARD.fullmatch(reason)
    if m:
        return tr._("the {card} is not a board card", card=card_name(m.group(1), tr))
    return reason


_TABLE_FIXED = {
    "the round is over: wait for the next one": N_("the round is over: wait for the next one"),
    "no round is being played": N_("no round is being played"),
    "the game is over": N_("the game is over"),
    "the table has not started": N_("the table has not started"),
    # the web tables' refusals (websocket, Spit and Speed tables, hints)
    "a rated table gives no hints: choose one or the other": N_(
        "a rated table gives no hints: choose one or the other"
    ),
    "someone else already holds this seat: ask the table's creator for a new invitation link": N_(
        "someone else already holds this seat: ask the table's creator for a new invitation link"
    ),
    "the game has not started yet: wait for it": N_("the game has not started yet: wait for it"),
    "the game has not started yet": N_("the game has not started yet"),
    "a bot plays this seat": N_("a bot plays this seat"),
    "the game is paused until everybody is back": N_(
        "the game is paused until everybody is back"
    ),
    "this game is over: the next game of the match is dealt soon": N_(
        "this game is over: the next game of the match is dealt soon"
    ),
    "only the table's creator can start it": N_("only the table's creator can start it"),
    "this is not a person's seat": N_("this is not a person's seat"),
    "the record is published when the game is over": N_(
        "the record is published when the game is over"
    ),
    "a rematch is offered once the game is over": N_("a rematch is offered once the game is over"),
    "only the players can ask for a rematch": N_("only the players can ask for a rematch"),
    "only the players at this table can do that": N_("only the players at this table can do that"),
    "you left this table: a bot plays your seat": N_("you left this table: a bot plays your seat"),
    "there is no such round": N_("there is no such round"),
    "the table is busy: ask for the rematch again": N_(
        "the table is busy: ask for the rematch again"
    ),
    "a Spit or Speed table is left by closing the page": N_(
        "a Spit or Speed table is left by closing the page"
    ),
    "the table is closed": N_("the table is closed"),
    "hints are off at this table": N_("hints are off at this table"),
    "hints are offered at Nain Jaune tables only": N_(
        "hints are offered at Nain Jaune tables only"
    ),
    "no hint: it is not your turn": N_("no hint: it is not your turn"),
    "the table moved on since you looked: ask again": N_(
        "the table moved on since you looked: ask again"
    ),
    "this table was changed by another server: reload the page": N_(
        "this table was changed by another server: reload the page"
    ),
    "there is no such table": N_("there is no such table"),
    "this page is not from this server": N_("this page is not from this server"),
    "this seat link is not valid for this table: open your invitation link again": N_(
        "this seat link is not valid for this table: open your invitation link again"
    ),
    "you are sending messages too fast: wait a moment": N_(
        "you are sending messages too fast: wait a moment"
    ),
    "too many bad messages: closing the connection": N_(
        "too many bad messages: closing the connection"
    ),
    "binary messages are not accepted: send JSON text": N_(
        "binary messages are not accepted: send JSON text"
    ),
    "you are watching this table: open an invitation link to take a seat": N_(
        "you are watching this table: open an invitation link to take a seat"
    ),
    "the server could not do that (the error was logged)": N_(
        "the server could not do that (the error was logged)"
    ),
    "this message is not valid JSON": N_("this message is not valid JSON"),
    # the bounds of the web server's work
    'at a Nain Jaune table an action is a card, "pass" or "claim"': N_(
        'at a Nain Jaune table an action is a card, "pass" or "claim"'
    ),
    "many players are asking for hints: ask again in a moment": N_(
        "many players are asking for hints: ask again in a moment"
    ),
    "you have asked for many hints lately: wait a minute": N_(
        "you have asked for many hints lately: wait a minute"
    ),
    "too many connections from your address: close a few pages and reload": N_(
        "too many connections from your address: close a few pages and reload"
    ),
    "this seat is sending messages too fast: wait a moment": N_(
        "this seat is sending messages too fast: wait a moment"
    ),
    "a Nain Jaune table has no log to page through": N_(
        "a Nain Jaune table has no log to page through"
    ),
    # creating a table (the lobby)
    "seat 0 is yours: it must be a person": N_("seat 0 is yours: it must be a person"),
    "a Speed match to a target is not offered here": N_(
        "a Speed match to a target is not offered here"
    ),
    "board_cards must be five different cards": N_("board_cards must be five different cards"),
    "the fifth board card is always the Yellow Dwarf, 7D": N_(
        "the fifth board card is always the Yellow Dwarf, 7D"
    ),
}
_TURN = re.compile(r"it is (.+)'s turn, not yours")
_STALE_PREFIX = re.compile(r"the table changed since you looked: (.+)")
_NO_TABLE = re.compile(r"there is no table '[A-Za-z0-9_-]*'")
_AT_MOST = re.compile(r"a message is at most (\d+) bytes")
_NAME = re.compile(r"a name has 1 to (\d+) characters, not (\d+)")
_NO_PRESETS = re.compile(r"(Spit|Speed) has no presets")
_PLAYED_BY = re.compile(r"(Spit|Speed) is played by 2, not (\d+)")
_SEATS = re.compile(r"seats lists (\d+) seats for (\d+) players: give one each")
_TOO_LARGE = re.compile(r"a table request is at most (\d+) KB")
_NOT_VALID = re.compile(r"(?:rules: )?(\w+=.{0,80}?) is not valid: (.+)")
_UNKNOWN_OPTION = re.compile(
    r"(?:rules: )?unknown (?:Spit )?option (.{0,80}?): the (?:Speed )?options are (.+)"
)
_UNKNOWN_PRESET = re.compile(r"unknown preset (.{0,80}?): choose one of (.+)")
_CHIPS = re.compile(
    r"starting_chips=(.{0,80}?): each player needs at least (\d+) chips \(one round's stakes\) "
    r"and at most ([\d,]+)"
)
_BAD_REQUEST = re.compile(r"bad table request: (.+)", re.S)
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
    ``lang``; as it is if unknown."""
    tr = tr_of(lang)
    if message in _TABLE_FIXED:
        return tr._(_TABLE_FIXED[message])
    if _NO_TABLE.fullmatch(message):
        return tr._("there is no such table")
    m = _NAME.fullmatch(message)
    if m:
        return tr._(
            "a name has 1 to {most} characters, not {n}", most=int(m.group(1)), n=int(m.group(2))
        )
    m = _NO_PRESETS.fullmatch(message)
    if m:
        return tr._("{game} has no presets", game=tr._(m.group(1)))
    m = _PLAYED_BY.fullmatch(message)
    if m:
        return tr._("{game} is played by 2, not {n}", game=tr._(m.group(1)), n=int(m.group(2)))
    m = _SEATS.fullmatch(message)
    if m:
        return tr._(
            "seats lists {seats} seats for {players} players: give one each",
            seats=int(m.group(1)),
            players=int(m.group(2)),
        )
    m = _TOO_LARGE.fullmatch(message)
    if m:
        return tr._("a table request is at most {n} KB", n=int(m.group(1)))
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
    m = _BAD_REQUEST.fullmatch(message)
    if m:
        return tr._("bad table request: {detail}", detail=m.group(1))
    return message


def table_error_text(code: str, message: str, lang: str | Translator | None = None) -> str:
    """A table's refusal (``TableError`` code and English message) in ``lang``."""
    tr = tr_of(lang)
    if code == "illegal":
        return illegal_reason(message, tr)
    if message in _TABLE_FIXED:
        return tr._(_TABLE_FIXED[message])
    m = _TURN.fullmatch(message)
    if m:
        return tr._("it is {name}'s turn, not yours", name=m.group(1))
    m = _STALE_PREFIX.fullmatch(message)
    if m:
        return tr._(
            "the table changed since you looked: {reason}",
            reason=table_error_text(code, m.group(1), tr),
        )
    m = _AT_MOST.fullmatch(message)
    if m:
        return tr._("a message is at most {n} bytes", n=int(m.group(1)))
    return request_error_text(message, tr)
