"""A game's words live in its own folder and reach every language's layer through the registry:
its messages, its options in words and its rules page are found for a game registered later,
with no edit to ``cardroom.i18n``. This module is itself the test game's words piece and its
options piece (``MESSAGES``, ``OPTIONS``, ``SOURCES``)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardroom.games.messages import Message
from cardroom.games.options import Choice, Option
from cardroom.games.registry import REALTIME, Game, game, register, unregister
from cardroom.i18n import messages as i18n_messages
from cardroom.i18n import options as i18n_options
from cardroom.i18n import record_words, translator
from cardroom.i18n.messages import message_words, words
from cardroom.i18n.options import sentence, source_names
from cardroom.i18n.realtime_words import line_words
from cardroom.i18n.rules_text import rules_fragment

NAME = "snap-words"

MESSAGES = {"snap.too-slow": "{name} was too slow to snap"}
SOURCES = {"pub": "the rules of a pub", "house": "a house rule"}
OPTIONS = (
    Option(
        "pairs",
        "What makes a pair",
        (
            Choice("rank", "the same rank", ("pub",)),
            Choice("colour", "the same colour", ("house",)),
        ),
    ),
)


@pytest.fixture
def snap(tmp_path: Path) -> Iterator[Game]:
    """A game named ``snap-words`` whose words piece and options are this module and whose
    rules page is a package of its own (a folder made for the test)."""
    package = tmp_path / "snap_words_pkg"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "rules.en.html").write_text("<p>Say snap.</p>\n", encoding="utf-8")
    sys.path.insert(0, str(tmp_path))
    entry = Game(
        NAME, "Snap", REALTIME, (2, 2), "m:R", "m:E", "m:V", "m", "m:T", "m:V1",
        words=__name__, options_words=__name__, rules_page="snap_words_pkg",
    )  # fmt: skip
    register(entry)
    try:
        yield entry
    finally:
        unregister(NAME)
        sys.path.remove(str(tmp_path))
        sys.modules.pop("snap_words_pkg", None)


def test_a_game_registered_later_has_its_messages_said(snap: Game) -> None:
    assert i18n_messages.MESSAGES["snap.too-slow"] == "{name} was too slow to snap"
    said = words(Message("snap.too-slow", "Ann was too slow to snap", name="Ann"))
    assert said == "Ann was too slow to snap"
    assert message_words("snap.too-slow", {"name": "Bea"}) == "Bea was too slow to snap"
    unregister(NAME)
    assert "snap.too-slow" not in i18n_messages.MESSAGES  # gone with its game
    register(snap)


def test_a_game_registered_later_has_its_options_and_sources_in_words(snap: Game) -> None:
    assert i18n_options.OPTIONS[NAME][0].values == ("rank", "colour")
    assert sentence(NAME, "pairs", "colour") == "What makes a pair: the same colour"
    assert i18n_options.SOURCES["pub"] == "the rules of a pub"
    assert source_names(("pub", "house")) == "the rules of a pub, a house rule"
    assert NAME in i18n_options.OPTIONS


def test_a_game_registered_later_has_its_rules_page_in_its_folder(snap: Game) -> None:
    assert rules_fragment(NAME, "en") == "<p>Say snap.</p>\n"
    with pytest.raises(FileNotFoundError):
        rules_fragment(NAME, "fr")  # no French page written for it: nothing is made up


def test_the_games_own_words_are_in_their_folders_not_in_i18n() -> None:
    """Each game's message ids are its words piece's; the shared tables hold none of them."""
    for name in ("nain-jaune", "spit", "speed"):
        own = game(name).load("words").MESSAGES
        assert own and all(i18n_messages.MESSAGES[key] == text for key, text in own.items())
        assert not set(own) & set(i18n_messages._SHARED)
        assert not set(own) & set(record_words.RECORD_MESSAGES)


def test_a_refused_action_of_no_known_kind_is_said_in_the_readers_language() -> None:
    """Everyone's line for a refused action whose kind has no words of its own: it used to be
    said in English to every reader (its msgid was not in the catalogs)."""
    line = {"events": [], "seat": 0, "accepted": False, "refused": {"what": "juggle"}}
    assert line_words(line, "spit", ["Ann", "Bot"], translator("en")) == "Ann: an action refused"
    assert line_words(line, "spit", ["Ann", "Bot"], translator("fr")) == (
        "Ann : une action refusée"
    )
    assert line_words(line, "spit", ["Ann", "Bot"], translator("cy")) == (
        "Ann: gweithred wedi’i gwrthod"
    )


def test_every_games_words_options_and_faces_load_from_its_folder() -> None:
    """Each game's words, options in words, rules page and (real-time) terminal face are
    modules of its own folder, and load."""
    for name in ("nain-jaune", "spit", "speed"):
        entry = game(name)
        folder = f"cardroom.games.{name.replace('-', '_')}"
        for piece in ("words", "options_words", "rules_page"):
            ref = getattr(entry, piece)
            assert isinstance(ref, str) and ref.startswith(folder), (name, piece, ref)
        assert entry.load("words").MESSAGES
        assert entry.load("options_words").OPTIONS
        assert rules_fragment(name, "cy").strip()
        if entry.realtime:
            assert str(entry.terminal).startswith(folder)
            seat = entry.load("terminal").SEAT
            assert seat.call() is not None and seat.plain_call
