"""The options of Nain Jaune, where the four source texts disagree, and the three presets
(``docs/games/nain-jaune.md`` names the texts).

Every option is one named field of :class:`Rules`. ``Rules.from_options`` reads the
``key=value`` strings of the command line and the ``rules`` object of a record.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, Literal, cast

from cardroom.cards import Card, CardError, parse_card, parse_cards
from cardroom.games.errors import RulesError
from cardroom.games.messages import Message, message_of
from cardroom.games.options import (
    N_,
    TRUE_OR_FALSE,
    Choice,
    Option,
    choose_one,
    named_options,
    not_valid,
    options_object,
    parse_flag,
)
from cardroom.games.options import (
    SOURCES as COMMON_SOURCES,
)
from cardroom.games.records import brief

WhenBlocked = Literal["next-rank", "free-restart"]
Payment = Literal["points-ace-low", "card-count", "points-ace-high"]
Forgotten = Literal["chips-stay", "double-box"]
Announce = Literal["auto", "manual"]
GrandOpera = Literal["one-turn", "no-one-else-played", "off"]
Direction = Literal["clockwise", "anticlockwise"]

MIN_PLAYERS, MAX_PLAYERS = 2, 8
HAND_SIZES: dict[int, int] = {2: 22, 3: 15, 4: 12, 5: 9, 6: 8, 7: 7, 8: 6}
"""Cards dealt to each player, by number of players; the rest of the pack is the talon."""

STANDARD_BOARD: tuple[Card, ...] = tuple(parse_cards("10D JC QS KH 7D"))
REGIONAL_BOARD: tuple[Card, ...] = tuple(parse_cards("10D JC QH KS 7D"))
BOARD_SETS: dict[str, tuple[Card, ...]] = {"standard": STANDARD_BOARD, "regional": REGIONAL_BOARD}
"""The named sets of box cards, the classic one first."""
STAKES: tuple[int, ...] = (1, 2, 3, 4, 5)
"""Chips each player stakes on the five boxes, in board order (the Yellow Dwarf takes 5)."""
STAKE_PER_ROUND = sum(STAKES)
RULES_VERSION = 1
"""The version of Nain Jaune's rules this code plays (a record says which one it was played
under); no rule has been corrected since records began (later changes fixed how records were
read, not how the game is played)."""
MAX_STARTING_CHIPS = 1_000_000
"""The most chips a player may start with (chips stay exact 64-bit counts in the fast path)."""
MAX_END_NUMBER = 1_000_000_000
"""The largest N of ``rounds:N`` and ``target:N``."""

SOURCES: dict[str, str] = {
    "french": N_("the French rulebook"),
    "how-to-deal": N_("the English text “How to deal the Yellow Dwarf”"),
    "yellow-dwarf-rules": N_("the English text “Yellow Dwarf Rules”"),
    "regional": N_("some regional French rulebooks"),
    **COMMON_SOURCES,
}
"""Where a rule comes from, by the short name the options below use."""

OPTIONS: tuple[Option, ...] = (
    Option(
        "when_blocked",
        N_("When nobody has the next card"),
        (
            Choice(
                "next-rank",
                N_("the one who played last goes on with the next rank"),
                ("french", "how-to-deal"),
            ),
            Choice(
                "free-restart",
                N_("the one who played last starts again with any card"),
                ("yellow-dwarf-rules",),
            ),
        ),
    ),
    Option(
        "payment",
        N_("What the others pay the winner of a round"),
        (
            Choice(
                "points-ace-low",
                N_(
                    "the value of their cards (ace 1, two to ten as marked, jack, queen and king 10)"  # noqa: E501
                ),
                ("french",),
            ),
            Choice("card-count", N_("one chip for each card left in their hand"), ("how-to-deal",)),
            Choice(
                "points-ace-high",
                N_("the value of their cards (two to ten as marked, ace, jack, queen and king 10)"),
                ("yellow-dwarf-rules",),
            ),
        ),
    ),
    Option(
        "forgotten_announcement",
        N_("A box its player forgot to take"),
        (
            Choice("chips-stay", N_("keeps its chips for a later round"), ("french",)),
            Choice(
                "double-box",
                N_("keeps its chips, and the forgetter doubles it at the end of the round"),
                ("how-to-deal", "yellow-dwarf-rules"),
            ),
        ),
    ),
    Option(
        "announce",
        N_("Taking a box"),
        (
            Choice("auto", N_("cardroom says “who takes” for you"), ("table",)),
            Choice("manual", N_("you say “who takes” yourself before your next move"), ("table",)),
        ),
    ),
    Option(
        "grand_opera",
        N_("The Grand Opéra (the whole board)"),
        (
            Choice(
                "one-turn",
                N_("goes to a player who plays every card of their hand in one turn"),
                ("french",),
            ),
            Choice(
                "no-one-else-played",
                N_(
                    "goes to a player who plays every card in one turn before anyone else has played"  # noqa: E501
                ),
                ("how-to-deal", "yellow-dwarf-rules"),
            ),
            Choice("off", N_("is not played"), ("house",)),
        ),
    ),
    Option(
        "may_stop",
        N_("Holding the next card"),
        (
            Choice("false", N_("you must play it"), ("french", "how-to-deal")),
            Choice("true", N_("you may keep it and say “without”"), ("house",)),
        ),
    ),
    Option(
        "direction",
        N_("Seats on the screen"),
        (
            Choice("clockwise", N_("follow each other clockwise"), ("table",)),
            Choice("anticlockwise", N_("follow each other anticlockwise"), ("table",)),
        ),
    ),
    Option(
        "board_cards",
        N_("The cards of the five boxes"),
        (
            Choice(
                "standard",
                N_(
                    "ten of diamonds, jack of clubs, queen of spades, king of hearts, seven of diamonds"  # noqa: E501
                ),
                ("french", "how-to-deal", "yellow-dwarf-rules"),
            ),
            Choice(
                "regional",
                N_(
                    "ten of diamonds, jack of clubs, queen of hearts, king of spades, seven of diamonds"  # noqa: E501
                ),
                ("regional",),
            ),
        ),
    ),
)
"""Every option a table picks from a list, in the lobby's order: its values (each as text: a
flag as ``false``/``true``, the board cards by set name), the classic one first, with their words
and sources. The one place these values are written: :data:`CHOICES`, :data:`OPTION_VALUES`,
the ``Literal`` types above (a test checks them), the words of every front end, the lobby's model
and the fast path's integer codes all read it."""

OPTION_VALUES: dict[str, tuple[str, ...]] = {o.key: o.values for o in OPTIONS}
"""Every option a table picks from a list, in the lobby's order, its values as text."""
if OPTION_VALUES["board_cards"] != tuple(BOARD_SETS):
    raise AssertionError("the board_cards option lists the named board sets")

CHOICES: dict[str, tuple[str, ...]] = {
    key: values for key, values in OPTION_VALUES.items() if key not in ("may_stop", "board_cards")
}
"""Each choice option's values, the classic one first (an index into these tuples is the fast
path's integer code)."""
_CHOICES = CHOICES  # the former private name, for code that still imports it

END_KINDS: dict[str, str] = {
    "broke": N_("Until someone cannot pay"),
    "rounds": N_("A number of rounds"),
    "target": N_("Until someone holds a number of chips"),
    "last-standing": N_("Until one has all the chips"),
}
"""How a game may end, as the lobby offers it (a number is asked for rounds and target)."""

END_SOURCES: dict[str, tuple[str, ...]] = {
    "broke": ("french", "how-to-deal"),
    "last-standing": ("how-to-deal",),
    "rounds": ("french",),
    "target": ("yellow-dwarf-rules",),
}
"""Where each way of ending comes from."""


def choice_code(name: str, value: str) -> int:
    """The position of ``value`` in option ``name``'s choices (the fast path's integer code)."""
    return CHOICES[name].index(value)


@dataclass(frozen=True, slots=True)
class EndCondition:
    """When the game ends: ``broke``, ``last-standing``, ``rounds:N`` or ``target:N``."""

    kind: Literal["broke", "last-standing", "rounds", "target"]
    number: int = 0

    @classmethod
    def parse(cls, text: str) -> EndCondition:
        """Read ``broke``, ``last-standing``, ``rounds:N`` or ``target:N``."""
        raw = str(text).strip()
        if raw in ("broke", "last-standing"):
            return cls(cast(Literal["broke", "last-standing"], raw))
        kind, sep, num = raw.partition(":")
        if sep and kind in ("rounds", "target"):
            try:
                n = int(num) if len(num) <= 12 else 0
            except ValueError:
                n = 0
            if 1 <= n <= MAX_END_NUMBER:
                return cls(cast(Literal["rounds", "target"], kind), n)
        how = Message(
            "rules.how.end",
            "use broke, last-standing, rounds:N or target:N with N a whole number from 1 to "
            f"{MAX_END_NUMBER:,}",
            most=MAX_END_NUMBER,
        )
        raise RulesError(not_valid("nain-jaune", "end", text, how))

    def __str__(self) -> str:
        return f"{self.kind}:{self.number}" if self.kind in ("rounds", "target") else self.kind


@dataclass(frozen=True, slots=True)
class Rules:
    """Every option of Nain Jaune. The defaults are the ``classic`` preset (the French rulebook).

    The number of players (2 to 8) is not an option here: it is the number of seats at the
    table, given by the list of players.
    """

    starting_chips: int = 60
    when_blocked: WhenBlocked = "next-rank"
    payment: Payment = "points-ace-low"
    forgotten_announcement: Forgotten = "chips-stay"
    announce: Announce = "auto"
    grand_opera: GrandOpera = "one-turn"
    may_stop: bool = False
    direction: Direction = "clockwise"
    end: EndCondition = EndCondition("broke")
    board_cards: tuple[Card, ...] = STANDARD_BOARD

    def __post_init__(self) -> None:
        chips = self.starting_chips
        if (
            isinstance(chips, bool)
            or not isinstance(chips, int)
            or not STAKE_PER_ROUND <= chips <= MAX_STARTING_CHIPS
        ):
            raise RulesError(
                Message(
                    "rules.starting-chips",
                    f"starting_chips={brief(chips)}: each player needs at least "
                    f"{STAKE_PER_ROUND} chips (one round's stakes) and at most "
                    f"{MAX_STARTING_CHIPS:,}",
                    value=brief(chips),
                    least=STAKE_PER_ROUND,
                    most=MAX_STARTING_CHIPS,
                )
            )
        for name, allowed in CHOICES.items():
            value = getattr(self, name)
            if value not in allowed:
                raise RulesError(
                    not_valid("nain-jaune", name, value, choose_one("nain-jaune", name, allowed))
                )
        if not isinstance(self.may_stop, bool):
            raise RulesError(not_valid("nain-jaune", "may_stop", self.may_stop, TRUE_OR_FALSE))
        if len(self.board_cards) != 5 or len(set(self.board_cards)) != 5:
            raise RulesError(
                Message(
                    "rules.board-different",
                    "board_cards must be five different cards",
                    game="nain-jaune",
                    option="board_cards",
                )
            )
        if self.board_cards[4] != parse_card("7D"):
            raise RulesError(
                Message("rules.board-dwarf", "the fifth board card is always the Yellow Dwarf, 7D")
            )

    @property
    def preset_name(self) -> str | None:
        """The name of the preset these rules equal, if any."""
        for name, preset in PRESETS.items():
            if preset == self:
                return name
        return None

    def with_options(self, options: Mapping[str, Any]) -> Rules:
        """A copy with some options changed; values may be strings (``may_stop="true"``)."""
        said = "unknown option {typed}: the options are {options}"
        known = {f.name for f in fields(Rules)}
        return replace(self, **named_options("nain-jaune", options, known, said, _convert))

    @classmethod
    def from_options(
        cls, preset: str | None = None, options: Mapping[str, Any] | None = None
    ) -> Rules:
        """Rules from a preset name (default ``classic``) with options overriding it."""
        name = preset or "classic"
        if name not in PRESETS:
            raise RulesError(
                Message(
                    "rules.unknown-preset",
                    f"unknown preset {brief(name)}: choose one of {', '.join(PRESETS)}",
                    typed=brief(name),
                    presets=tuple(PRESETS),
                )
            )
        return PRESETS[name].with_options(options or {})

    def table_refusal(self, players: int) -> Message | None:
        """Why a table of ``players`` may not play these rules (None: it may): a target that
        the chips at the table can never reach."""
        return unreachable_target(self, self.starting_chips * players)

    @classmethod
    def from_json(cls, data: Any) -> Rules:
        """Rules from a record's ``rules`` object (it may name a ``preset``)."""
        options = dict(options_object(data))
        preset = options.pop("preset", None)
        if preset is not None and not isinstance(preset, str):
            raise RulesError(
                Message(
                    "rules.preset-name",
                    "rules.preset must be a preset name",
                    typed=brief(preset),
                    presets=tuple(PRESETS),
                )
            )
        return cls.from_options(preset, options)

    def to_json(self) -> dict[str, Any]:
        """Every option as JSON-ready values (a record's ``rules`` object)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "end":
                value = str(value)
            elif f.name == "board_cards":
                value = [c.code for c in value]
            out[f.name] = value
        return out


def unreachable_target(rules: Rules, chips: int) -> Message | None:
    """Why ``end=target:N`` can never be met with ``chips`` at the table (None if it can)."""
    end = rules.end
    if end.kind == "target" and end.number > chips:
        return Message(
            "rules.target-unreachable",
            f"end=target:{end.number} can never be reached: there are only {chips} chips at "
            "the table",
            target=end.number,
            chips=chips,
        )
    return None


def _convert(name: str, value: Any) -> Any:
    if name == "starting_chips":
        if isinstance(value, int):
            return value
        text = str(value).strip() if isinstance(value, str) else ""
        if text.isdigit() and len(text) <= 12:
            return int(text)
        raise RulesError(
            Message(
                "rules.starting-chips-number",
                f"starting_chips={brief(value)} must be a whole number from {STAKE_PER_ROUND} "
                f"to {MAX_STARTING_CHIPS:,}",
                value=brief(value),
                least=STAKE_PER_ROUND,
                most=MAX_STARTING_CHIPS,
            )
        )
    if name == "may_stop":
        return parse_flag(name, value, "nain-jaune")
    if name == "end":
        return value if isinstance(value, EndCondition) else EndCondition.parse(value)
    if name == "board_cards":
        if isinstance(value, str) and value in BOARD_SETS:
            return BOARD_SETS[value]
        try:
            cards = parse_cards(value) if isinstance(value, (str, list, tuple)) else None
        except CardError as exc:
            raise RulesError(
                Message(
                    "rules.board-card-said",
                    f"board_cards: {exc}",
                    game="nain-jaune",
                    option="board_cards",
                    value=brief(value),
                    detail=message_of(exc),
                )
            ) from None
        if cards is None:
            raise RulesError(
                Message(
                    "rules.board-cards",
                    "board_cards must be 'standard', 'regional' or five cards",
                    game="nain-jaune",
                    option="board_cards",
                    choices=tuple(BOARD_SETS),
                )
            )
        return tuple(cards)
    return value


PRESETS: dict[str, Rules] = {
    "classic": Rules(),
    "count": Rules(
        payment="card-count",
        forgotten_announcement="double-box",
        grand_opera="no-one-else-played",
    ),
    "ace-high": Rules(
        when_blocked="free-restart",
        payment="points-ace-high",
        forgotten_announcement="double-box",
        grand_opera="no-one-else-played",
        end=EndCondition("target", 120),
    ),
}
"""One preset per source text: ``classic`` (the French rulebook), ``count`` ("How to deal the
Yellow Dwarf"), ``ace-high`` ("Yellow Dwarf Rules")."""

PRESET_NAMES: dict[str, str] = {
    "classic": N_("French classic"),
    "count": N_("One chip a card"),
    "ace-high": N_("Ace high, to 120"),
}
"""Each preset's name, short enough for a phone's select."""

PRESET_SOURCES: dict[str, str] = {
    "classic": "french",
    "count": "how-to-deal",
    "ace-high": "yellow-dwarf-rules",
}
"""Which source text each preset follows."""


def card_value(card: Card, payment: Payment) -> int:
    """What a card left in hand costs its holder under a payment rule."""
    r = int(card.rank)
    if payment == "card-count":
        return 1
    if payment == "points-ace-high":
        return 10 if r == 1 or r >= 10 else r
    return min(r, 10)
