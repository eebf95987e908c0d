"""The words of the tables' and the web layer's messages every game shares: the table
services' refusals, the websocket's, the bot API's, the lobby's and the chat's, by id
(:data:`TABLE_MESSAGES`), and the fixed refusals said by their English sentence
(:data:`TABLE_FIXED`). :mod:`cardroom.i18n.messages` merges them with every other message and
says them.
"""

from __future__ import annotations

from cardroom.i18n import N_

TABLE_MESSAGES: dict[str, str | tuple[str, str, str]] = {
    "table.turn": N_("it is {name}'s turn, not yours"),
    "table.turn-action": N_(
        "this table is played in turns: send an action as text with the seq you saw"
    ),
    "table.realtime-action": N_("at a real-time table an action is an object"),
    "table.no-log": N_("a table played in turns has no log to page through"),
    "table.no-rounds": N_("a real-time table has no rounds"),
    "table.left-by-closing": N_("a real-time table is left by closing the page"),
    "table.no-hints": N_("this game offers no hints"),
    "table.unknown-game": N_("unknown game {game}: a table in turns plays {known}"),
    "table.stale": N_("the table changed since you looked: {reason}"),
    "table.no-table": N_("there is no such table"),
    "web.too-large": N_("a message is at most {n} bytes"),
    "ws.foreign-page": N_("this page is not from this server"),
    "ws.too-many-connections": N_(
        "too many connections from your address: close a few pages and reload"
    ),
    "ws.bad-seat-link": N_(
        "this seat link is not valid for this table: open your invitation link again"
    ),
    "ws.too-many-bad": N_("too many bad messages: closing the connection"),
    "ws.too-fast": N_("you are sending messages too fast: wait a moment"),
    "ws.seat-too-fast": N_("this seat is sending messages too fast: wait a moment"),
    "ws.binary": N_("binary messages are not accepted: send JSON text"),
    "ws.watching": N_("you are watching this table: open an invitation link to take a seat"),
    "ws.server-failed": N_("the server could not do that (the error was logged)"),
    # the bot API (web/routes/bots.py, bot_owners.py, bot_access.py)
    "bot.no-token": N_("this needs a bot's token: Authorization: Bearer <token>"),
    "bot.bad-token": N_("this bot token is unknown or was revoked"),
    "bot.token-revoked": N_("this bot token was revoked: the connection closes"),
    "bot.not-invited": N_("this bot was not invited to this table"),
    "bot.invite-gone": N_("this invitation is no longer open (expired, withdrawn or seat taken)"),
    "bot.refuses": N_("this bot does not accept this kind of game"),
    "bot.no-such-bot": N_("there is no bot of this name"),
    "bot.none-free": N_("no bot that plays this game is connected and free now"),
    "bot.too-many-tables": N_("this bot already holds its most tables at once: finish one first"),
    "bot.too-many-streams": N_("this bot token has too many event streams open: close one"),
    "bot.too-many-connections": N_("this bot token has too many connections open: close some"),
    "bot.too-fast": N_("this bot token sends too many requests: wait a moment"),
    "bot.no-seat": N_("this bot holds no seat at this table"),
    "bot.not-yours": N_("this is not one of your bots"),
    "bot.no-hints": N_("a bot plays on its own: no hints"),
    "bot.invite-waiting": N_("{bot} has not answered yet (seat {seat})"),
    "bot.invite-accepted": N_("{bot} accepted: it takes seat {seat}"),
    "bot.invite-declined": N_("{bot} declined the invitation to seat {seat}"),
    "bot.invite-withdrawn": N_(
        "the invitation of {bot} to seat {seat} is withdrawn: the seat was taken"
    ),
    "bot.invite-expired": N_("{bot} did not answer the invitation to seat {seat} in time"),
    "bot.unknown-game": N_("no game here is called {game}"),
    "analysis.none": N_("this game has no analysis"),
    "bot.slow": N_(
        "this bot did not act within {seconds} s of its turn: it is away and the connection "
        "closes"
    ),
    "bot.silent": N_(
        "this bot said nothing for {seconds} s: it is away and the connection closes "
        "(send a ping every few seconds)"
    ),
    "bot.seat-held": N_("somebody already holds this seat"),
    "bot.name-taken": N_("another player signs in with this name"),
    "bot.bad-name": N_("a name has 1 to 24 characters"),
    "bot.too-many-bots": N_("you have made the most bots (10)"),
    "bot.too-many-tokens": N_("this bot has the most tokens (5)"),
    "bot.cross-site": N_("this request does not come from this site's pages"),
    "bot.bad-request": N_("this request's body is not what this call reads"),
    "bot.no-player": N_("choose a name on your player page first"),
    "ws.not-json": N_("this message is not valid JSON"),
    "web.name-length": N_("a name has 1 to {most} characters, not {n}"),
    "table.name-chars": N_("a name is 1 to {most} printable characters"),
    "lobby.no-presets": N_("{game} has no presets"),
    "lobby.two-players": N_("{game} is played by 2, not {n}"),
    "lobby.seats": N_("seats lists {seats} seats for {players} players: give one each"),
    "lobby.too-large": N_("a table request is at most {n} KB"),
    "lobby.bad-request": N_("bad table request: {detail}"),
    "lobby.bad-field": N_("bad table request: {field} is not valid"),
    "lobby.bad-shape": N_("bad table request: it is not one the lobby sends"),
    "lobby.seat-0": N_("the first seat is yours: it must be a person"),
    "lobby.rated-hints": N_("a rated table gives no hints: choose one or the other"),
    "lobby.games": N_("a match is played over 1 to {most} games, not {typed}"),
    "table.started": N_("the table has already started"),
    "table.rematch-once": N_("a rematch is offered once, after the game"),
    "table.token-person": N_("a seat token is for a person's seat"),
    "table.not-created": N_("this table has not been created"),
    "table.round-not-over": N_("the round is not over"),
    "table.busy": N_("the table is very busy: try again"),
    "table.busy-look-again": N_("the table is very busy: look again and try once more"),
    "table.unavailable": N_(
        "the database is not answering: nothing was changed, try again in a moment"
    ),
    "table.rematch-not-over": N_("a rematch is offered once the game is over"),
    "table.rematch-players": N_("only the players can ask for a rematch"),
    "table.players-only": N_("only the players at this table can do that"),
    "table.rematch-busy": N_("the table is busy: ask for the rematch again"),
    "table.no-level": N_("a person's seat has no level"),
    "table.creator-starts": N_("only the table's creator can start it"),
    "table.moved-on": N_("the table moved on since you looked: look again and choose once more"),
    "table.you-left": N_("you left this table: a bot plays your seat"),
    "table.hints-off": N_("hints are off at this table"),
    "table.hint-moved-on": N_("the table moved on since you looked: ask again"),
    "table.hint-not-your-turn": N_("no hint: it is not your turn"),
    "table.hints-busy": N_("many players are asking for hints: ask again in a moment"),
    "table.watch-only": N_("this is not a person's seat"),
    "table.record-not-over": N_("the record is published when the game is over"),
    "table.bot-plays-seat": N_("a bot plays this seat"),
    "table.not-started-yet": N_("the game has not started yet: wait for it"),
    "table.game-over": N_("the game is over"),
    "table.exists": N_("table {table} already exists"),
    "table.cannot-rebuild": N_("table {table} cannot be rebuilt from its log"),
    "table.bad-level": N_("this table's bot level is not valid"),
    "table.paused": N_("the game is paused until everybody is back"),
    "table.closed": N_("the table is closed"),
    "table.not-started": N_("the game has not started yet"),
    "table.between-games": N_("this game is over: the next game of the match is dealt soon"),
    "table.cannot-join": N_("this seat cannot be joined now"),
    "table.seat-shape": N_("a seat is a person's or a bot's, with its level and name"),
    "table.seat-0": N_("the first seat is the creator's: it must be a person"),
    "table.delays": N_("the table's delays are seconds, zero or more"),
    "table.config-object": N_("this table's settings cannot be read"),
    "table.bad-config": N_("this table's settings are not valid"),
    "table.bad-seat-link": N_("this seat link is not valid for this table"),
    "table.seat-taken": N_("this seat is already taken"),
    "table.already-ready": N_("this seat has already asked for the next round"),
    "table.unannounced": N_("only a card can be played unannounced"),
    "table.unreadable-action": N_("cannot read the action {typed}: play a card, pass or claim"),
    "table.unreadable-card": N_("cannot play it: {detail}"),
    "table.creator-only": N_("only the table's creator can do this"),
    "table.not-person-seat": N_("this seat is not a person's seat"),
    "table.rated-same-player": N_(
        "you already hold another seat at this rated table: a rated game is played by "
        "different people, so one player cannot take two of its seats"
    ),
    "table.rated-no-bot": N_(
        "a rated game in progress cannot be handed to a bot: its players play it to the end "
        "(leaving counts as a loss)"
    ),
    "table.seat-in-play": N_(
        "this seat's player is in play: a new link for it can be made once they have been away "
        "past the limit (a bot then plays for them) or when the game is over"
    ),
    "chat.none": N_("this server has no chat"),
    "chat.db-down": N_("the database is not answering: nothing was said, try again in a moment"),
    "ws.too-deep": N_("this message is nested too deeply"),
    "ws.not-object": N_("a message must be a JSON object with a type"),
    "ws.unknown-type": N_("unknown message type {typed}"),
    "ws.bad-message": N_("bad {kind} message: {detail}"),
    "ws.bad-message-said": N_("this message is not in the form its type calls for"),
}
"""The tables' and the web layer's messages: id -> its English text."""

TABLE_FIXED: dict[str, str] = {
    "the round is over: wait for the next one": N_("the round is over: wait for the next one"),
    "no round is being played": N_("no round is being played"),
    "the game is over": N_("the game is over"),
    "the table has not started": N_("the table has not started"),
    # the web tables' refusals (websocket, real-time tables, hints)
    "the game has not started yet: wait for it": N_("the game has not started yet: wait for it"),
    "the game has not started yet": N_("the game has not started yet"),
    "a bot plays this seat": N_("a bot plays this seat"),
    "only the table's creator can start it": N_("only the table's creator can start it"),
    "this is not a person's seat": N_("this is not a person's seat"),
    "the record is published when the game is over": N_(
        "the record is published when the game is over"
    ),
    "a rematch is offered once the game is over": N_("a rematch is offered once the game is over"),
    "only the players can ask for a rematch": N_("only the players can ask for a rematch"),
    "the table is closed": N_("the table is closed"),
    "hints are off at this table": N_("hints are off at this table"),
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
    # creating a table (the lobby)
    # refusals added by this wave's table features (people, presence, matches, rematch, leave)
    "someone else already holds this seat: ask the table's creator for a new invitation link": N_(
        "someone else already holds this seat: ask the table's creator for a new invitation link"
    ),
    "the game is paused until everybody is back": N_("the game is paused until everybody is back"),
    "this game is over: the next game of the match is dealt soon": N_(
        "this game is over: the next game of the match is dealt soon"
    ),
    "only the players at this table can do that": N_("only the players at this table can do that"),
    "you left this table: a bot plays your seat": N_("you left this table: a bot plays your seat"),
    "there is no such round": N_("there is no such round"),
    "the table is busy: ask for the rematch again": N_(
        "the table is busy: ask for the rematch again"
    ),
    # the turn-based table service's own (it keeps its sentences: its hot path)
    "the table moved on since you looked: look again and choose once more": N_(
        "the table moved on since you looked: look again and choose once more"
    ),
    "the database is not answering: nothing was changed, try again in a moment": N_(
        "the database is not answering: nothing was changed, try again in a moment"
    ),
    "a person's seat has no level": N_("a person's seat has no level"),
}
"""The tables' and the web layer's fixed refusals every game shares: each sentence is its own
msgid."""
