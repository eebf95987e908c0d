"""Nain Jaune's part of the lobby: a table config from a create request, the rounds a table
asks for (checked against the server's bound), and the refusal of hints at other games."""

from __future__ import annotations

import secrets
from typing import Any

from cardroom.games.errors import RulesError
from cardroom.games.messages import Message
from cardroom.games.nain_jaune.config import TableConfig
from cardroom.games.nain_jaune.rules import MAX_PLAYERS, MIN_PLAYERS, EndCondition, Rules
from cardroom.games.options import players_error
from cardroom.games.table import SeatSpec, TableError
from cardroom.web.protocol import CreateTable, ProtocolError, clean_text
from cardroom.web.routes.lobby import SEAT_0_YOURS, TITLE_MAX

NAME = "nain-jaune"

HINTS_ONLY = Message("lobby.hints-nain-jaune", "hints are offered at Nain Jaune tables only")
"""Said when hints are asked for at a game that has none."""


def rounds_asked(body: CreateTable) -> int | None:
    """The rounds a create request's end condition asks for (None: it ends otherwise, or it
    cannot be read, which :func:`table_config` says)."""
    try:
        end = EndCondition.parse(body.end or str(body.options.get("end", "broke")))
    except RulesError:
        return None
    return end.number if end.kind == "rounds" else None


def table_config(body: CreateTable, name: str, bot_delay: float) -> TableConfig:
    """The table a create request asks for; ``ProtocolError`` names what is wrong."""
    options: dict[str, Any] = dict(body.options)
    if body.starting_chips is not None:
        options["starting_chips"] = body.starting_chips
    if body.end is not None:
        options["end"] = body.end
    if not MIN_PLAYERS <= body.players <= MAX_PLAYERS:
        said = players_error(NAME, body.players, MIN_PLAYERS, MAX_PLAYERS)
        raise ProtocolError("bad-request", said)
    try:
        rules = Rules.from_options(body.preset, options)
    except RulesError as exc:
        raise ProtocolError("bad-request", exc.message) from None
    if body.seats is None:
        seats = [SeatSpec("bot", body.level)] * body.players
    else:
        if len(body.seats) != body.players:
            raise ProtocolError(
                "bad-request",
                Message(
                    "lobby.seats",
                    f"seats lists {len(body.seats)} seats for {body.players} players: give one "
                    "each",
                    seats=len(body.seats),
                    players=body.players,
                ),
            )
        if body.seats[0].kind != "person":
            raise ProtocolError("bad-request", SEAT_0_YOURS)
        seats = [
            SeatSpec(s.kind, (s.level or body.level) if s.kind == "bot" else None)
            for s in body.seats
        ]
    seats[0] = SeatSpec("person", name=name)  # named: the creator has joined
    learning = body.learning
    if learning is None:  # on by default at a friendly table with bots only
        learning = not body.rated and all(s.kind == "bot" for s in seats[1:])
    title = clean_text(body.title, TITLE_MAX)
    try:
        return TableConfig(
            rules=rules,
            seats=tuple(seats),
            seed=secrets.randbits(63),
            title=title,
            public=body.public,
            level=body.level,
            takeover_after=body.takeover_after,
            bot_delay=bot_delay,
            hints=body.hints or learning,
            learning=learning,
        )
    except TableError as exc:
        raise ProtocolError("bad-request", exc.message) from None
