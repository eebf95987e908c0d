"""Every option error of the three games' rules is a message with an id, told in French and
Welsh without an English word, and its English sentence is the one it always was."""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cardroom.games.errors import RulesError
from cardroom.games.messages import Message
from cardroom.games.nain_jaune.rules import Rules
from cardroom.games.speed.rules import SpeedRules
from cardroom.games.spit.rules import SpitRules
from cardroom.i18n import translator
from cardroom.i18n.messages import MESSAGES
from cardroom.i18n.reasons import request_error_text

SRC = Path(__file__).resolve().parents[2] / "src" / "cardroom"


def nj(preset: str | None = None, **options: Any) -> Callable[[], object]:
    return lambda: Rules.from_options(preset, options)


def spit(**options: Any) -> Callable[[], object]:
    return lambda: SpitRules.from_options(options)


def speed(**options: Any) -> Callable[[], object]:
    return lambda: SpeedRules.from_options(options)


# (make the error, its id, its English sentence as it has always been, the French, the Welsh)
CASES: list[tuple[Callable[[], object], str, str, str, str]] = [
    (
        nj(payment="gold"),
        "rules.not-valid",
        "payment='gold' is not valid: choose one of points-ace-low, card-count, points-ace-high",
        "Ce que les autres paient au gagnant d’une manche : la valeur 'gold' ne convient pas",
        "Beth mae’r lleill yn ei dalu i enillydd rownd: nid yw 'gold' yn ddilys",
    ),
    (
        nj(direction="up"),
        "rules.not-valid",
        "direction='up' is not valid: choose one of clockwise, anticlockwise",
        "Les places à l’écran : la valeur 'up' ne convient pas : choisissez parmi",
        "Seddi ar y sgrin: nid yw 'up' yn ddilys: dewiswch un o",
    ),
    (
        nj(may_stop="maybe"),
        "rules.not-valid",
        "may_stop='maybe' is not valid: use true or false",
        "Si vous avez la carte suivante : la valeur 'maybe' ne convient pas : répondez oui ou non",
        "Os oes gennych chi’r cerdyn nesaf: nid yw 'maybe' yn ddilys: atebwch ie neu na",
    ),
    (
        nj(end="forever"),
        "rules.not-valid",
        "end='forever' is not valid: use broke, last-standing, rounds:N or target:N with N a whole "
        "number from 1 to 1,000,000,000",
        # the values one types, in every language (issue 34)
        "La partie se termine : la valeur 'forever' ne convient pas : écrivez broke (après la "
        "manche où un joueur n’a pas pu payer), last-standing (quand un seul joueur a encore des "
        "jetons), rounds:N (après N manches) ou target:N (quand un joueur a N jetons), N étant un "
        "nombre entier de 1 à 1\u202f000\u202f000",
        "Mae’r gêm yn gorffen: nid yw 'forever' yn ddilys: ysgrifennwch broke (ar ôl y rownd pan "
        "na allodd chwaraewr dalu), last-standing (pan fydd gan un chwaraewr yn unig sglodion ar "
        "ôl), rounds:N (ar ôl N rownd) neu target:N (pan fydd gan chwaraewr N sglodyn), gyda N "
        "yn rhif cyfan o 1 i",
    ),
    (
        nj(colour="red"),
        "rules.unknown-option",
        "unknown option 'colour': the options are announce, board_cards, direction, end, "
        "forgotten_announcement, grand_opera, may_stop, payment, starting_chips, when_blocked",
        "option inconnue 'colour' : les options sont «\u00a0Prendre une case\u00a0»",
        "opsiwn anhysbys 'colour': yr opsiynau yw ‘Cymryd blwch’",
    ),
    (
        nj("modern"),
        "rules.unknown-preset",
        "unknown preset 'modern': choose one of classic, count, ace-high",
        "préréglage inconnu 'modern' : choisissez parmi «\u00a0Classique français\u00a0»",
        "rhagosodiad anhysbys 'modern': dewiswch un o ‘Y clasur Ffrengig’",
    ),
    (
        nj(starting_chips=3),
        "rules.starting-chips",
        "starting_chips=3: each player needs at least 15 chips (one round's stakes) and at most "
        "1,000,000",
        "Jetons de départ : 3 ne convient pas : chaque joueur a besoin d’au moins 15 jetons (les "
        "mises d’une manche) et d’au plus 1\u202f000\u202f000",
        "Sglodion i ddechrau: nid yw 3 yn ddilys: mae angen o leiaf 15 sglodyn ar bob chwaraewr",
    ),
    (
        nj(starting_chips="lots"),
        "rules.starting-chips-number",
        "starting_chips='lots' must be a whole number from 15 to 1,000,000",
        "Jetons de départ : 'lots' ne convient pas, donnez un nombre entier de 15 à "
        "1\u202f000\u202f000",
        "Sglodion i ddechrau: nid yw 'lots' yn ddilys, rhowch rif cyfan o 15 i 1,000,000",
    ),
    (
        spit(piles="3"),
        "rules.not-valid",
        "piles=3 is not valid: use 5 or 4 (stock piles)",
        "Piles de réserve : la valeur 3 ne convient pas : utilisez 5 ou 4 (piles de réserve)",
        "Pentyrrau stoc: nid yw 3 yn ddilys: defnyddiwch 5 neu 4 (pentyrrau stoc)",
    ),
    (
        spit(piles="many"),
        "rules.not-valid",
        "piles='many' is not valid: use 5 or 4 (stock piles)",
        "Piles de réserve : la valeur 'many' ne convient pas",
        "Pentyrrau stoc: nid yw 'many' yn ddilys",
    ),
    (
        spit(slap="fast"),
        "rules.not-valid",
        "slap='fast' is not valid: choose race or chooser",
        "Une nouvelle mise en place : la valeur 'fast' ne convient pas : choisissez parmi "
        "«\u00a0les deux frappent la pile",
        "Cynllun newydd: nid yw 'fast' yn ddilys: dewiswch un o ‘",
    ),
    (
        spit(alternate_colours="maybe"),
        "rules.not-valid",
        "alternate_colours='maybe' is not valid: use true or false",
        "Les couleurs sur les piles du milieu : la valeur 'maybe' ne convient pas",
        "Lliwiau ar y pentyrrau canol: nid yw 'maybe' yn ddilys",
    ),
    (
        spit(countdown="999"),
        "rules.not-valid",
        "countdown=999.0 is not valid: use a number of seconds from 0 to 600 (0 = only when both "
        "call)",
        "Compte à rebours en cas de blocage : la valeur 999.0 ne convient pas : donnez un nombre "
        "de secondes de 0 à 600",
        "Cyfrif i lawr mewn cyfyngder: nid yw 999.0 yn ddilys: rhowch nifer o eiliadau o 0 i 600",
    ),
    (
        spit(countdown="soon"),
        "rules.not-valid",
        "countdown='soon' is not valid: use a number of seconds, 0 or more",
        "Compte à rebours en cas de blocage : la valeur 'soon' ne convient pas : donnez un nombre "
        "de secondes, 0 ou plus",
        "Cyfrif i lawr mewn cyfyngder: nid yw 'soon' yn ddilys: rhowch nifer o eiliadau, 0 neu fwy",
    ),
    (
        spit(colour="red"),
        "rules.unknown-option",
        "unknown Spit option 'colour': the options are alternate_colours, countdown, piles, slap",
        "option inconnue 'colour' : les options sont «\u00a0Les couleurs sur les piles du "
        "milieu\u00a0», «\u00a0Compte à rebours en cas de blocage\u00a0», «\u00a0Piles de "
        "réserve\u00a0», «\u00a0Une nouvelle mise en place\u00a0»",
        "opsiwn anhysbys 'colour': yr opsiynau yw ‘Lliwiau ar y pentyrrau canol’, ‘Cyfrif i lawr "
        "mewn cyfyngder’, ‘Pentyrrau stoc’, ‘Cynllun newydd’",
    ),
    (
        speed(side_piles="3"),
        "rules.not-valid",
        "side_piles=3 is not valid: use 10 (15 cards each) or 5 (20 cards each)",
        "Piles latérales : la valeur 3 ne convient pas : utilisez 10 (15 cartes chacun) ou 5",
        "Pentyrrau ochr: nid yw 3 yn ddilys: defnyddiwch 10 (15 cerdyn yr un) neu 5",
    ),
    (
        speed(target="many"),
        "rules.whole-number",
        "target='many' must be a whole number",
        "Points pour gagner le match : la valeur 'many' doit être un nombre entier",
        "Pwyntiau i ennill yr ornest: rhaid i 'many' fod yn rhif cyfan",
    ),
    (
        speed(target="-1"),
        "rules.not-valid",
        "target=-1 is not valid: give a whole number of points from 0 to 10,000 (0 = a single "
        "game)",
        "Points pour gagner le match : la valeur -1 ne convient pas : donnez un nombre entier de "
        "points de 0 à 10\u202f000 (0 = une seule partie)",
        "Pwyntiau i ennill yr ornest: nid yw -1 yn ddilys: rhowch rif cyfan o bwyntiau o 0 i "
        "10,000 (0 = gêm sengl)",
    ),
    (
        speed(countdown="soon"),
        "rules.seconds",
        "countdown='soon' must be a number of seconds",
        "Compte à rebours en cas de blocage : la valeur 'soon' doit être un nombre de secondes",
        "Cyfrif i lawr mewn cyfyngder: rhaid i 'soon' fod yn nifer o eiliadau",
    ),
    (
        speed(countdown="999"),
        "rules.not-valid",
        "countdown=999.0 is not valid: give seconds (0 to 600; 0 = flip only when both players "
        "call)",
        "Compte à rebours en cas de blocage : la valeur 999.0 ne convient pas : donnez un nombre "
        "de secondes (de 0 à 600 ; 0 = les piles ne se retournent que",
        "Cyfrif i lawr mewn cyfyngder: nid yw 999.0 yn ddilys: rhowch nifer o eiliadau (0 i 600;",
    ),
    (
        speed(score_hand="maybe"),
        "rules.not-valid",
        "score_hand='maybe' is not valid: use true or false",
        "Le gagnant marque : la valeur 'maybe' ne convient pas : répondez oui ou non",
        "Mae’r enillydd yn sgorio: nid yw 'maybe' yn ddilys: atebwch ie neu na",
    ),
    (
        speed(colour="red"),
        "rules.unknown-option",
        "unknown option 'colour': the Speed options are countdown, score_hand, side_piles, target",
        "option inconnue 'colour' : les options sont «\u00a0Compte à rebours en cas de "
        "blocage\u00a0», «\u00a0Le gagnant marque\u00a0»",
        "opsiwn anhysbys 'colour': yr opsiynau yw ‘Cyfrif i lawr mewn cyfyngder’",
    ),
]

# English words that no French or Welsh rules error may keep (the typed values aside).
ENGLISH = (
    "is not valid",
    "choose one of",
    "unknown",
    "must be",
    "options are",
    "each player",
    "use ",
    "give ",
    "seconds",
    "chips",
    "Countdown",
    "Points to",
    "number",
)


# What a person would type on the command line, never said in French or Welsh words.
CODES = ("true", "false", "race", "chooser", "broke", "last-standing", "rounds:", "target:")
END_CODES = ("broke", "last-standing", "rounds:N", "target:N")

# Where the English words (the web's) differ from the English sentence (the CLI's and the logs').
EN_WORDS = {
    "use true or false": "answer yes or no",
    "choose race or chooser": "choose one of race, chooser",
}


def _error(make: Callable[[], object]) -> RulesError:
    with pytest.raises(RulesError) as caught:
        make()
    return caught.value


@pytest.mark.parametrize(("make", "id", "english", "fr", "cy"), CASES)
def test_each_rules_error_has_an_id_and_words(
    make: Callable[[], object], id: str, english: str, fr: str, cy: str
) -> None:
    error = _error(make)
    message = error.message
    assert isinstance(message, Message) and message.id == id and id in MESSAGES
    assert str(error) == english  # the CLI, the records and the logs keep their English
    in_words = english.replace(" Spit option", " option").replace(
        "the Speed options", "the options"
    )
    for sentence, words in EN_WORDS.items():  # said in words on the web, typed on the CLI
        in_words = in_words.replace(sentence, words)
    assert request_error_text(message, translator("en")) == in_words
    french = request_error_text(message, translator("fr"))
    welsh = request_error_text(message, translator("cy"))
    assert french.startswith(fr), french
    assert welsh.startswith(cy), welsh
    for said in (french, welsh):
        assert not any(word in said for word in ENGLISH), said
        unquoted = said.replace(f"'{message.fields.get('value', '')}'", "")
        how = message.fields.get("how")
        if isinstance(how, Message) and how.id == "rules.how.end":
            # typed, never chosen from a list: the values one types, in every language
            assert all(code in unquoted for code in END_CODES), said
        else:
            assert not any(code in unquoted for code in CODES), said
        assert "_" not in said.replace(str(message.fields.get("typed", "")), "")


def test_the_fields_are_typed_data() -> None:
    piles = _error(spit(piles="3")).message
    assert isinstance(piles, Message)
    assert piles.json_fields() == {
        "game": "spit",
        "option": "piles",
        "value": "3",
        "how": {"id": "rules.how.piles", "fields": {}},
    }
    chips = _error(nj(starting_chips=3)).message
    assert isinstance(chips, Message)
    assert chips.fields == {"value": "3", "least": 15, "most": 1_000_000}
    choose = _error(nj(grand_opera="never")).message
    assert isinstance(choose, Message)
    assert choose.fields["how"].fields["choices"] == ("one-turn", "no-one-else-played", "off")


def test_the_json_of_a_rules_error_is_told_as_the_message_is() -> None:
    message = _error(nj(payment="gold")).message
    assert isinstance(message, Message)
    from cardroom.i18n.messages import words

    as_json = {"id": message.id, "fields": message.json_fields()}
    for lang in ("en", "fr", "cy"):
        assert words(as_json, translator(lang)) == words(message, translator(lang))


def test_no_regular_expression_reads_a_rules_sentence() -> None:
    source = (SRC / "i18n" / "reasons.py").read_text(encoding="utf-8")
    names = {n.id for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Name)}
    old_names = (
        "_NOT_VALID",
        "_UNKNOWN_OPTION",
        "_UNKNOWN_PRESET",
        "_CHIPS",
        "_HOW",
        "_HOW_SECONDS",
    )
    for old in (*old_names, "_HOW_CHOOSE", "_how_words", "re"):
        assert old not in names
    assert "import re" not in source
