"""A game that exists only in the tests: "higher card", registered with :func:`registered`.

Two players each get ``hand`` cards from a seeded deck. The leader plays a card, then the other
player; the higher rank takes the trick (equal ranks: the leader) and leads the next one. When
the hands are empty, whoever took more tricks wins (equal: a draw).

It proves that a game is one folder: everything it is (rules, engine, view, record, its
command and its terminal face) lives here, and it reaches the layers only through
``cardroom.games.registry``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from cardroom.games.registry import TURN_BASED, Game, register, unregister

NAME = "higher-card"

ENTRY = Game(
    name=NAME,
    title="Higher card",
    kind=TURN_BASED,
    players=(2, 2),
    rules="tests.toygame.rules:ToyRules",
    bots="tests.toygame.bots",
    engine="tests.toygame.engine:ToyGame",
    view="tests.toygame.view:view_of",
    record="tests.toygame.record",
    table="tests.toygame.table:ToyTable",
    rules_version="tests.toygame.rules:RULES_VERSION",
    terminal="tests.toygame.terminal",
    cli="tests.toygame.cli",
    web="tests.toygame.web",
    words="tests.toygame.words",
)
"""The toy game's registry entry (its ``table`` is the table service's part of the proof)."""


@contextmanager
def registered() -> Iterator[Game]:
    """The toy game registered for the duration of the block."""
    register(ENTRY)
    try:
        yield ENTRY
    finally:
        unregister(NAME)
