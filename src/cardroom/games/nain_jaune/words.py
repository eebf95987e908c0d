"""Nain Jaune's words: the English msgids of its messages (ids ``nj.*, rec.nj.*``),
said in every language by :mod:`cardroom.i18n.messages`, which finds this
module through the registry's ``words`` piece.
Its options in words (the table's rules line, a preset's changes, the lobby's model) are
here too; the options, their values, words and sources are the rules' (``rules.py``).
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from cardroom.games.nain_jaune.rules import (
    BOARD_SETS,
    END_KINDS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OPTIONS,
    PRESET_NAMES,
    PRESET_SOURCES,
    PRESETS,
    EndCondition,
    Rules,
)
from cardroom.i18n import ENGLISH, N_, Np_, Translator
from cardroom.i18n.grammar import printed
from cardroom.i18n.options import sentence

GAME = "nain-jaune"
"""This game's name in the registry."""

MESSAGES: dict[str, str | tuple[str, str, str]] = {
    # refusals of a Nain Jaune action, why a new sequence starts, why the game ended, a deal
    "nj.round-over": N_("the round is over"),
    "nj.nothing-to-claim": N_("there is no board card of yours to claim"),
    "nj.claim-or-pass": N_("you have played your last card: claim its box or pass"),
    "nj.must-lead": N_("you start a new sequence and must play a card"),
    "nj.must-play-rank": N_("you hold {rank.a} and must play it"),
    "nj.not-held": N_("you do not hold {card.the}"),
    "nj.wrong-rank": N_("the next card must be {rank.a}"),
    "nj.not-board-card": N_("{card.the} is not a board card"),
    "nj.not-an-action": N_("that is not a Nain Jaune action"),
    "nj.after-king": N_("after a king"),
    "nj.nobody-played": N_("nobody played {rank.a}"),
    "nj.no-king": N_("nobody has {rank.a}"),
    "nj.end.short": N_("a player could not pay in full"),
    "nj.end.cannot-stake": N_("a player cannot stake for the next round"),
    "nj.end.one-left": N_("only one player can still stake"),
    "nj.end.nobody-can-stake": N_("nobody can stake"),
    "nj.end.rounds": ("n", *Np_("{n} round played", "{n} rounds played")),
    "nj.end.reached": ("n", *Np_("reached {n} chip", "reached {n} chips")),
    "tournament.players": N_(
        "Nain Jaune is played by {least} to {most} players, not {n} "
        "(--players sets the seats; the bots are cycled to fill them)"
    ),
    "lobby.hints-nain-jaune": N_("hints are offered at Nain Jaune tables only"),
    "nj.chip-counts": N_("{count} chip counts for {players} players"),
    "nj.board-boxes": N_("the board has five boxes holding zero or more chips"),
    "nj.negative-chips": N_("chip counts cannot be negative"),
    "nj.not-a-dealer": N_("the dealer must be one of the table's seats"),
    # a Nain Jaune round or game (games/nain_jaune/record.py)
    "rec.nj.at-move": N_("move {move}"),
    "rec.nj.at-board-key": N_("board key {value}"),
    "rec.nj.not-a-card": N_("{at}: {value} is not a card (write it like 10D or QS)"),
    "rec.nj.bad-card": N_("{at}: {value} is not a card"),
    "rec.nj.card": N_("{at}: {detail}"),
    "rec.nj.not-object": N_("a round record must be a JSON object"),
    "rec.nj.other-game": N_("this is a record of another game ({value}), not of Nain Jaune"),
    "rec.nj.rules": N_("the rules: {reason}"),
    "rec.nj.players": N_(
        "Nain Jaune is played by {least} to {most} players, the record names {count}"
    ),
    "rec.nj.chips-count": N_("chips must be a list of {n} numbers, one per player"),
    "rec.nj.board-object": N_(
        'the board must be an object from each board card to its chips (like "10D": 0)'
    ),
    "rec.nj.board-not-box": N_("the board: {card.the} is not a board card under these rules"),
    "rec.nj.board-twice": N_("the board: {card.the} is given twice"),
    "rec.nj.board-missing": N_("the board gives no amount for {card.the}"),
    "rec.nj.dealer": N_("the dealer must be a seat number from 0 to {most}, not {value}"),
    "rec.nj.hands-count": N_("hands must be a list of {n} hands, one per player"),
    "rec.nj.move-shape": N_(
        'move {move}: write a card, or an object with "card" (and "announced": false)'
    ),
    "rec.nj.in-move": N_("move {move}: {detail}"),
    "rec.nj.over": N_("move {move} ({card}): the round is already over"),
    "rec.nj.played-twice": N_("move {move} ({card}): this card was already played"),
    "rec.nj.in-talon": N_("move {move} ({card}): this card is in the talon, nobody holds it"),
    "rec.nj.unannounced": N_("move {move} ({card}): only a board card can go unannounced"),
    "rec.nj.auto-announce": N_(
        "move {move} ({card}): under these rules every board card is announced, none is forgotten"
    ),
    "rec.nj.never-playable": N_("move {move} ({card}): this card can never be played here"),
    "rec.nj.illegal": N_("move {move} ({card}): {reason}"),
    "rec.nj.illegal-by": N_("move {move} ({card}) by seat {seat} is illegal: {reason}"),
    "rec.nj.other-holds": N_(
        "move {move} ({card}) by seat {seat} is illegal: {name} (seat {other}) must play now: "
        "they hold {rank.a}"
    ),
    "rec.nj.other-must-play": N_(
        "move {move} ({card}) by seat {seat} is illegal: {name} (seat {other}) must play now"
    ),
    "rec.nj.pass-over": N_("move {move} (a pass): the round is already over"),
    "rec.nj.pass-not-allowed": N_(
        "move {move} (a pass): under these rules a player may not stop"
    ),
    "rec.nj.pass-no-rank": N_(
        "move {move} (a pass): {name} (seat {seat}) must play a card now, there is no rank to pass"
    ),
    "rec.nj.not-a-game": N_("a game record is a non-empty list of round records"),
    "rec.nj.no-more-rounds": N_("this round cannot be played: the game does not go on"),
    "rec.nj.round-unfinished": N_("this round never ended, yet another follows"),
    "rec.nj.broke-ends": ("n", *Np_(
        "{name} has {n} chip and cannot stake {stake}: the game ends before this round",
        "{name} has {n} chips and cannot stake {stake}: the game ends before this round",
    )),
    "rec.nj.broke-drops": ("n", *Np_(
        "{name} has {n} chip and cannot stake {stake}: they drop out before this round",
        "{name} has {n} chips and cannot stake {stake}: they drop out before this round",
    )),
    "rec.nj.after-end": N_("the game ended after round {last} ({reason}): no round may follow"),
    "rec.nj.rules-changed": N_(
        "the rules differ from the first round's: they cannot change during a game"
    ),
    "rec.nj.players-gone": N_(
        "the players should be {expected} ({gone} dropped out), not {given}"
    ),
    "rec.nj.players-changed": N_("the players should be {expected}, not {given}"),
    "rec.nj.chips-changed": ("n", *Np_(
        "{name} starts with {n} chip but ended the round before with {before}",
        "{name} starts with {n} chips but ended the round before with {before}",
    )),
    "rec.nj.board-changed": N_("the board {given} is not what the round before left: {before}"),
    "rec.nj.dealer-changed": N_(
        "the dealer should be {name} (seat {seat}), the next player still in after the one who "
        "placed the first card of the round before"
    ),
}  # fmt: skip
"""Message id -> its English text (a ``(count field, singular, plural)`` for a plural)."""

FIXED: dict[str, str] = {
    "hints are offered at Nain Jaune tables only": N_(
        "hints are offered at Nain Jaune tables only"
    ),
    'at a Nain Jaune table an action is a card, "pass" or "claim"': N_(
        'at a Nain Jaune table an action is a card, "pass" or "claim"'
    ),
    "a Nain Jaune table has no log to page through": N_(
        "a Nain Jaune table has no log to page through"
    ),
}
"""The fixed refusals that name Nain Jaune: each sentence is its own msgid."""

NOT_A_RECORD = N_(
    'this is not a cardroom record: expected an object with a "game" field or a list '
    "of Nain Jaune rounds"
)
"""What ``cardroom replay`` and ``analyse`` say of a file that is no record (a Nain Jaune game's
record may be a bare list of its rounds, which predates the ``game`` field)."""

ANALYSIS_TITLE = Np_(
    "Nain Jaune: {count} decision analysed, {worlds} deals of the hidden cards each",
    "Nain Jaune: {count} decisions analysed, {worlds} deals of the hidden cards each",
)
"""The title of ``cardroom analyse``'s table for a Nain Jaune game (``{count}`` decisions)."""

EARLIER_RULES: dict[int, str] = {}
"""What was different under each earlier version of the rules (none: no rule has changed since
records began)."""


def end_words(end: EndCondition, lang: Translator = ENGLISH) -> str:
    """When a game ends, in words: ``after 10 rounds``."""
    tr = lang
    if end.kind == "broke":
        return tr._("after the round in which a player could not pay")
    if end.kind == "last-standing":
        return tr._("when one player is left with chips (the others drop out)")
    if end.kind == "rounds":
        return tr.ngettext("after {n} round", "after {n} rounds", end.number)
    return tr.ngettext("when a player holds {n} chip", "when a player holds {n} chips", end.number)


def _value_of(rules: Rules, key: str) -> str:
    value = getattr(rules, key)
    if key == "board_cards":
        return next((name for name, cards in BOARD_SETS.items() if cards == value), "")
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _changed(rules: Rules, base: Rules) -> list[str]:
    return [f.name for f in fields(Rules) if getattr(rules, f.name) != getattr(base, f.name)]


def _differences(rules: Rules, base: Rules, tr: Translator) -> list[str]:
    """Each option of ``rules`` that differs from ``base``, as a sentence."""
    parts = []
    for key in _changed(rules, base):
        if key == "starting_chips":
            parts.append(
                tr.ngettext(
                    "{n} chip each to start", "{n} chips each to start", rules.starting_chips
                )
            )
        elif key == "end":
            parts.append(tr._("the game ends {when}", when=end_words(rules.end, tr)))
        elif value := _value_of(rules, key):
            parts.append(sentence(GAME, key, value, tr))
        else:
            cards = " ".join(printed(c, tr.lang) for c in rules.board_cards)
            parts.append(tr._("The cards of the five boxes: {cards}", cards=cards))
    return parts


def preset_changes(name: str, lang: Translator = ENGLISH) -> list[str]:
    """What a preset changes from the French classic, one sentence per option."""
    return _differences(PRESETS[name], PRESETS["classic"], lang)


def rules_text(rules: Rules, lang: Translator = ENGLISH) -> str:
    """The table's rules line: the nearest preset's name, then every option that differs from it
    as a sentence (``French classic; Taking a box: you say “who takes” yourself…``)."""
    tr = lang
    best = min(PRESETS, key=lambda name: len(_changed(rules, PRESETS[name])))
    parts = [tr._(PRESET_NAMES[best]), *_differences(rules, PRESETS[best], tr)]
    text = parts[0]
    for part in parts[1:]:
        text = tr._("{rules}; {option}", rules=text, option=part)
    return text


def lobby_model() -> dict[str, Any]:
    """Nain Jaune's options as the lobby's page reads them (``/api/options/nain-jaune``): the
    rules' values and presets with their words as msgids (the page translates them with its
    catalog). ``web/static/js/options.js`` keeps no copy of its own."""
    from cardroom.i18n.options import SOURCES as ALL_SOURCES

    board_names = {cards: name for name, cards in BOARD_SETS.items()}
    presets = {}
    for name, rules in PRESETS.items():
        data = rules.to_json()
        data["board_cards"] = board_names[rules.board_cards]
        presets[name] = data
    return {
        "players_min": MIN_PLAYERS,
        "players_max": MAX_PLAYERS,
        "sources": dict(ALL_SOURCES),
        "choices": {
            o.key: {
                "label": o.label,
                "values": [[c.value, c.words, list(c.sources)] for c in o.choices],
            }
            for o in OPTIONS
        },
        "board_sets": {name: [str(c) for c in cards] for name, cards in BOARD_SETS.items()},
        "end_kinds": [[kind, words] for kind, words in END_KINDS.items()],
        "presets": presets,
        "preset_words": dict(PRESET_NAMES),
        "preset_sources": dict(PRESET_SOURCES),
    }


def web_words() -> list[str]:
    """The msgids :func:`lobby_model` sends beside every game's sources, for the page catalogs."""
    words = [*PRESET_NAMES.values(), *END_KINDS.values()]
    for option in OPTIONS:
        words.append(option.label)
        words.extend(c.words for c in option.choices)
    return words


HELP_EXAMPLES: dict[str, tuple[tuple[str, str], ...]] = {
    # ``cardroom GROUP --help``'s examples of this game: (command line, what it does or "")
    "cardroom": (
        ("cardroom play nain-jaune", N_("play against three bots")),
        ("cardroom play nain-jaune --players 5 --preset count --level hard", ""),
        ("cardroom simulate nain-jaune --rounds 1000000 --workers 2", ""),
        ("cardroom tournament nain-jaune --bots heuristic,greedy,random --games 1000", ""),
    ),
    "play": (
        ("cardroom play nain-jaune", N_("you against three bots, full screen")),
        ("cardroom play nain-jaune --plain", N_("line by line, for screen readers and pipes")),
        ("cardroom play nain-jaune --level expert", N_("against the expert (search) bot")),
    ),
    "simulate": (
        ("cardroom simulate nain-jaune --rounds 1000000 --players 4 --workers 2", ""),
        ("cardroom simulate nain-jaune --rounds 100000 --bots heuristic,random --json", ""),
    ),
    "tournament": (
        ("cardroom tournament nain-jaune --bots heuristic,greedy,random --games 1000 --players 3",
         ""),
        ("cardroom tournament nain-jaune --bots expert:ms=30,heuristic --games 150 --players 4",
         ""),
    ),
}
"""The command line's help examples for this game, by command group (``cardroom`` itself,
``play``, ``simulate`` …), shown in the registry's order among the other games'."""

ANALYSIS_HELP = N_(
    "for every decision of every player (which card to play, whether to stop under may_stop, "
    "whether to claim under announce=manual) the expert values each legal choice from that "
    "player's view at that moment (its own hand and what was public, never the hidden cards): "
    "it deals the hidden cards WORLDS times in ways that agree with what the player had seen, "
    "plays each choice out to the end of the round in every deal and averages the chips. The "
    "loss of a choice is the best choice's value minus its own, in expected chips; a loss of 1, "
    "3 or 6 chips or more is an inaccuracy, a mistake or a blunder (only when it is larger than "
    "the noise of the deals). Accuracy is the share of the chips at stake in a player's choices "
    "that the choices kept (100%: always the best). --hindsight adds each choice's value with "
    "every card known: what was possible, and how much was luck. The same record always gives "
    "the same figures."
)
"""What ``cardroom analyse`` tells of this game's record (after the game's title)."""
