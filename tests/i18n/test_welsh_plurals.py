"""Welsh counts nouns in six forms (0, 1, 2, 3, 6 and the rest) and mutates the noun after the
number: soft after « dau/dwy » (2 gerdyn, 2 fwrdd, 2 bwynt, 2 ddeliad) and after « o » (0 o
gardiau), aspirate after « tri » and « chwe » (3 cherdyn, 6 phwynt, 3 chofnod), none after
« tair » (3 eiliad). Each plural msgid is rendered for 0, 1, 2, 3, 6 and 20 and compared with
Welsh written out by hand."""

from __future__ import annotations

import pytest

from cardroom.i18n import translator

COUNTS = (0, 1, 2, 3, 6, 20)

# (singular, plural, extra fields, the Welsh for 0, 1, 2, 3, 6, 20)
CASES: list[tuple[str, str, dict[str, object], tuple[str, ...]]] = [
    (
        "a bot may take an absent player's seat after {seconds} second at the soonest",
        "a bot may take an absent player's seat after {seconds} seconds at the soonest",
        {},
        (
            "caiff bot gymryd sedd chwaraewr absennol ar ôl 0 o eiliadau ar y cynharaf",
            "caiff bot gymryd sedd chwaraewr absennol ar ôl 1 eiliad ar y cynharaf",
            "caiff bot gymryd sedd chwaraewr absennol ar ôl 2 eiliad ar y cynharaf",
            "caiff bot gymryd sedd chwaraewr absennol ar ôl 3 eiliad ar y cynharaf",
            "caiff bot gymryd sedd chwaraewr absennol ar ôl 6 eiliad ar y cynharaf",
            "caiff bot gymryd sedd chwaraewr absennol ar ôl 20 o eiliadau ar y cynharaf",
        ),
    ),
    (
        "{n} card",
        "{n} cards",
        {},
        ("0 o gardiau", "1 cerdyn", "2 gerdyn", "3 cherdyn", "6 cherdyn", "20 o gardiau"),
    ),
    (
        "card",
        "cards",
        {},
        ("o gardiau", "cerdyn", "gerdyn", "cherdyn", "cherdyn", "o gardiau"),
    ),
    (
        "{n} chip each to start",
        "{n} chips each to start",
        {},
        (
            "0 o sglodion yr un i ddechrau",
            "1 sglodyn yr un i ddechrau",
            "2 sglodyn yr un i ddechrau",
            "3 sglodyn yr un i ddechrau",
            "6 sglodyn yr un i ddechrau",
            "20 o sglodion yr un i ddechrau",
        ),
    ),
    (
        "when a player holds {n} chip",
        "when a player holds {n} chips",
        {},
        (
            "pan fydd gan chwaraewr 0 o sglodion",
            "pan fydd gan chwaraewr 1 sglodyn",
            "pan fydd gan chwaraewr 2 sglodyn",
            "pan fydd gan chwaraewr 3 sglodyn",
            "pan fydd gan chwaraewr 6 sglodyn",
            "pan fydd gan chwaraewr 20 o sglodion",
        ),
    ),
    (
        "you have made {n} table in the last minute: wait a moment",
        "you have made {n} tables in the last minute: wait a moment",
        {},
        tuple(
            f"rydych chi wedi creu {x} yn ystod y funud ddiwethaf: arhoswch eiliad"
            for x in ("0 o fyrddau", "1 bwrdd", "2 fwrdd", "3 bwrdd", "6 bwrdd", "20 o fyrddau")
        ),
    ),
    (
        "you have replayed {n} record in the last minute: wait a moment",
        "you have replayed {n} records in the last minute: wait a moment",
        {},
        tuple(
            f"rydych chi wedi ailchwarae {x} yn ystod y funud ddiwethaf: arhoswch eiliad"
            for x in (
                "0 o gofnodion",
                "1 cofnod",
                "2 gofnod",
                "3 chofnod",
                "6 chofnod",
                "20 o gofnodion",
            )
        ),
    ),
    (
        "{n} point: one for each card left in the loser’s draw pile.",
        "{n} points: one for each card left in the loser’s draw pile.",
        {},
        tuple(
            f"{x}: un am bob cerdyn sydd ar ôl ym mhentwr codi’r collwr."
            for x in ("0 o bwyntiau", "1 pwynt", "2 bwynt", "3 phwynt", "6 phwynt", "20 o bwyntiau")
        ),
    ),
    (
        "{name} scores {n} point: one for each card left in the loser's draw pile.",
        "{name} scores {n} points: one for each card left in the loser's draw pile.",
        {"name": "Ana"},
        tuple(
            f"Ana sy’n sgorio {x}: un am bob cerdyn sydd ar ôl ym mhentwr codi’r collwr."
            for x in ("0 o bwyntiau", "1 pwynt", "2 bwynt", "3 phwynt", "6 phwynt", "20 o bwyntiau")
        ),
    ),
    (
        "{game}: {n} match to {target}, seed {seed}",
        "{game}: {n} matches to {target}, seed {seed}",
        {"game": "Cyflymder", "target": 5, "seed": 7},
        tuple(
            f"Cyflymder: {x} i 5, hedyn 7"
            for x in (
                "0 o ornestau",
                "1 ornest",
                "2 ornest",
                "3 gornest",
                "6 gornest",
                "20 o ornestau",
            )
        ),
    ),
    (
        "Waiting for the analyst: {n} game before this one.",
        "Waiting for the analyst: {n} games before this one.",
        {},
        tuple(
            f"Yn aros am y dadansoddwr: {x} o flaen hon."
            for x in ("0 o gemau", "1 gêm", "2 gêm", "3 gêm", "6 gêm", "20 o gemau")
        ),
    ),
    (
        "About {n} minute with bots; people take a little longer.",
        "About {n} minutes with bots; people take a little longer.",
        {},
        tuple(
            f"Tua {x} gyda bots; mae pobl yn cymryd ychydig yn hirach."
            for x in ("0 o funudau", "1 munud", "2 funud", "3 munud", "6 munud", "20 munud")
        ),
    ),
    (
        "you have asked for {n} analysis in the last hour: wait a while",
        "you have asked for {n} analyses in the last hour: wait a while",
        {},
        tuple(
            f"rydych chi wedi gofyn am {x} yn ystod yr awr ddiwethaf: arhoswch ychydig"
            for x in (
                "0 o ddadansoddiadau", "1 dadansoddiad", "2 ddadansoddiad", "3 dadansoddiad",
                "6 dadansoddiad", "20 o ddadansoddiadau",
            )
        ),
    ),
    (
        "you have asked for {n} page of replays in the last minute: wait a moment",
        "you have asked for {n} pages of replays in the last minute: wait a moment",
        {},
        tuple(
            f"rydych chi wedi gofyn am {x} ailchwarae yn ystod y funud ddiwethaf: arhoswch eiliad"
            for x in (
                "0 o dudalennau", "1 dudalen", "2 dudalen", "3 tudalen", "6 thudalen",
                "20 o dudalennau",
            )
        ),
    ),
]


@pytest.mark.parametrize(("singular", "plural", "fields", "welsh"), CASES)
def test_welsh_counts_and_mutations(
    singular: str, plural: str, fields: dict[str, object], welsh: tuple[str, ...]
) -> None:
    tr = translator("cy")
    got = []
    for n in COUNTS:
        extra = {"seconds": str(n)} if "{seconds}" in singular else {}
        got.append(tr.ngettext(singular, plural, n, **fields, **extra))
    assert tuple(got) == welsh


def test_the_decisions_analysed_count_mutates() -> None:
    tr = translator("cy")
    said = [
        tr.ngettext(
            "Nain Jaune: {count} decision analysed, {worlds} deals of the hidden cards each",
            "Nain Jaune: {count} decisions analysed, {worlds} deals of the hidden cards each",
            n,
            count=n,
            worlds=40,
        ).split(" wedi")[0]
        for n in COUNTS
    ]
    assert said == [
        "Nain Jaune: 0 o benderfyniadau",
        "Nain Jaune: 1 penderfyniad",
        "Nain Jaune: 2 benderfyniad",
        "Nain Jaune: 3 phenderfyniad",
        "Nain Jaune: 6 phenderfyniad",
        "Nain Jaune: 20 o benderfyniadau",
    ]


# 4 and 10 take the "other" form as 20 does, 6 its own (the aspirate after « chwe »): each
# counted noun after 0, 1, 2, 3, 4, 6, 10 and 20, typed out (issue 34)
EVERY_COUNT = (0, 1, 2, 3, 4, 6, 10, 20)
BY_HAND: list[tuple[str, str, dict[str, object], tuple[str, ...]]] = [
    ("{n} card", "{n} cards", {},
     ("0 o gardiau", "1 cerdyn", "2 gerdyn", "3 cherdyn", "4 o gardiau", "6 cherdyn",
      "10 o gardiau", "20 o gardiau")),
    ("{n} chip", "{n} chips", {},
     ("0 o sglodion", "1 sglodyn", "2 sglodyn", "3 sglodyn", "4 o sglodion", "6 sglodyn",
      "10 o sglodion", "20 o sglodion")),
    ("{n} round", "{n} rounds", {},
     ("0 o rowndiau", "1 rownd", "2 rownd", "3 rownd", "4 o rowndiau", "6 rownd",
      "10 o rowndiau", "20 o rowndiau")),
    ("{n} rotation", "{n} rotations", {},
     ("0 o gylchdroeon", "1 cylchdro", "2 gylchdro", "3 chylchdro", "4 o gylchdroeon",
      "6 chylchdro", "10 o gylchdroeon", "20 o gylchdroeon")),
    ("{n} item", "{n} items", {},
     ("0 o eitemau", "1 eitem", "2 eitem", "3 eitem", "4 o eitemau", "6 eitem", "10 o eitemau",
      "20 o eitemau")),
    ("{game}: {n} game, seed {seed}", "{game}: {n} games, seed {seed}",
     {"game": "Poeri", "seed": 1},
     tuple(f"Poeri: {x}, hedyn 1" for x in (
         "0 o gemau", "1 gêm", "2 gêm", "3 gêm", "4 o gemau", "6 gêm", "10 o gemau",
         "20 o gemau"))),
    ("Nain Jaune: {n} deal × {rotations}, seats {lineup}, seed {seed}",
     "Nain Jaune: {n} deals × {rotations}, seats {lineup}, seed {seed}",
     {"rotations": "R", "lineup": "L", "seed": 1},
     tuple(f"Nain Jaune: {x} × R, seddi L, hedyn 1" for x in (
         "0 o ddeliadau", "1 deliad", "2 ddeliad", "3 deliad", "4 o ddeliadau", "6 deliad",
         "10 o ddeliadau", "20 o ddeliadau"))),
    ("{name} draws {n} card", "{name} draws {n} cards", {"name": "Ana"},
     tuple(f"Ana yn codi {x}" for x in (
         "0 o gardiau", "1 cerdyn", "2 gerdyn", "3 cherdyn", "4 o gardiau", "6 cherdyn",
         "10 o gardiau", "20 o gardiau"))),
    ("{name} has played every card and wins ({n} point)",
     "{name} has played every card and wins ({n} points)", {"name": "Ana"},
     tuple(f"Ana wedi chwarae pob cerdyn ac yn ennill ({x})" for x in (
         "0 o bwyntiau", "1 pwynt", "2 bwynt", "3 phwynt", "4 o bwyntiau", "6 phwynt",
         "10 o bwyntiau", "20 o bwyntiau"))),
]  # fmt: skip


@pytest.mark.parametrize(("singular", "plural", "fields", "welsh"), BY_HAND)
def test_welsh_counts_after_four_and_ten_too(
    singular: str, plural: str, fields: dict[str, object], welsh: tuple[str, ...]
) -> None:
    tr = translator("cy")
    got = tuple(tr.ngettext(singular, plural, n, **fields) for n in EVERY_COUNT)
    assert got == welsh


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "cards left: {a} to {b}: Ana wins (1 point)"),
        ("fr", "cartes restantes : {a} contre {b} : Ana gagne (1 point)"),
        ("cy", "cardiau ar ôl: {a} yn erbyn {b}: Ana sy’n ennill (1 pwynt)"),
    ],
)
def test_a_blocked_speed_game_counts_no_noun_after_a_bare_number(lang: str, said: str) -> None:
    """The cards each player has left were put before a noun that did not follow the number
    ("2 cerdyn", "1 cartes", "1 cards"): they now follow "cards left:" in every language."""
    from cardroom.games.speed.engine import Blocked
    from cardroom.i18n.realtime_words import event_words

    for a, b in ((1, 2), (2, 3), (3, 20)):
        text = event_words(Blocked(winner=0, cards_left=(a, b), points=1), "speed", ["Ana", "Ben"],
                           translator(lang))  # fmt: skip
        assert text.endswith(said.format(a=a, b=b)), text
    tr = translator(lang)
    draw = event_words(Blocked(winner=None, cards_left=(2, 2), points=0), "speed", ["A", "B"], tr)
    assert said.format(a=2, b=2).rsplit(":", 1)[0].rstrip() in draw, draw
