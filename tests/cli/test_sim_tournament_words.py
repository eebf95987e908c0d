"""``cardroom simulate`` and ``cardroom tournament`` refuse bad options, bot specs and counts in
the words of ``--lang``: French and Welsh, nothing English but what was typed."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from click.testing import CliRunner

from cardroom.bots import BotError, make_bot
from cardroom.cli.main import cli
from cardroom.games.messages import Message
from cardroom.games.nain_jaune.sim.simulate import Simulation, SimulationError, run
from cardroom.games.nain_jaune.sim.tournament import (
    Setup,
    TournamentError,
    check_setup,
    run_tournament,
)
from cardroom.i18n.messages import MESSAGES

TOURNAMENT = ["tournament", "nain-jaune", "--games", "1"]
SIMULATE = ["simulate", "nain-jaune", "--rounds", "10"]
SPIT = ["simulate", "spit", "--games", "1"]

# args -> (what the French error line says, what the Welsh one says), worked out by hand
CASES: dict[str, tuple[list[str], str, str]] = {
    "unknown bot": (
        [*TOURNAMENT, "--bots", "foo"],
        "robot inconnu foo : choisissez parmi ",
        "bot anhysbys foo: dewiswch un o ",
    ),
    "budget below one": (
        [*TOURNAMENT, "--bots", "expert:ms=0"],
        "robot expert : ms=0 doit être un nombre entier d’au moins 1",
        "bot expert: rhaid i ms=0 fod yn rhif cyfan, 1 o leiaf",
    ),
    "more bots than seats": (
        [*TOURNAMENT, "--bots", "heuristic,random,greedy", "-n", "2"],
        "3 robots ne peuvent se partager 2 places : nommez au plus un robot par place",
        "ni all 3 bot rannu 2 sedd: enwch un bot y sedd ar y mwyaf",
    ),
    "options to a bot without any": (
        [*TOURNAMENT, "--bots", "random:x=1"],
        "le robot random ne prend aucune option (vous avez donné x)",
        "nid yw’r bot random yn cymryd opsiynau (rhoddoch x)",
    ),
    "a value not allowed": (
        [*TOURNAMENT, "--bots", "expert:model=zz"],
        "robot expert : model=zz ne convient pas : choisissez parmi on, leads, off",
        "bot expert: nid yw model=zz yn ddilys: defnyddiwch un o on, leads, off",
    ),
    "budget twice": (
        [*TOURNAMENT, "--bots", "search:ms=1,iterations=3"],
        "robot search : donnez ms=N ou iterations=N, pas les deux",
        "bot search: rhowch ms=N neu iterations=N, nid y ddau",
    ),
    "a bot option not key=value": (
        [*TOURNAMENT, "--bots", "random:a"],
        "l’option de robot a dans random:a s’écrit nom=valeur",
        "rhaid ysgrifennu opsiwn bot a yn random:a fel enw=gwerth",
    ),
    "an option the bot lacks": (
        [*TOURNAMENT, "--bots", "search:foo=1"],
        "le robot search n’a pas d’option foo : utilisez ms=N, ",
        "nid oes gan y bot search opsiwn foo: defnyddiwch ms=N, ",
    ),
    "mismatch out of range": (
        [*TOURNAMENT, "--bots", "expert:mismatch=2"],
        "mismatch=2 doit être un nombre supérieur à 0 et au plus égal à 1",
        "rhaid i mismatch=2 fod yn rhif uwch na 0 a dim mwy nag 1",
    ),
    "one seat": (
        [*TOURNAMENT, "--bots", "random"],
        "le Nain Jaune se joue de 2 à 8 joueurs, pas à 1 (--players fixe",
        "chwaraeir Nain Jaune gan 2 i 8 chwaraewr, nid 1 (mae --players",
    ),
    "no bot": (
        [*TOURNAMENT, "--bots", ","],
        "nommez au moins un robot",
        "enwch un bot o leiaf",
    ),
    "a bot the fast path lacks": (
        [*SIMULATE, "--bots", "expert"],
        "le robot expert ne peut pas être simulé en masse : choisissez parmi random, ",
        "ni ellir efelychu’r bot expert ar raddfa fawr: dewiswch un o random, ",
    ),
    "an empty bot name": (
        [*SIMULATE, "--bots", "random,,greedy"],
        "--bots est une liste de noms de robots séparés par des virgules",
        "rhestr o enwau botiau wedi’u gwahanu gan atalnodau yw --bots",
    ),
    "more bots than players": (
        [*SIMULATE, "--bots", "random,random,random", "-n", "2"],
        "3 robots pour 2 joueurs : donnez-en au plus 2",
        "3 bot i 2 chwaraewr: rhowch 2 ar y mwyaf",
    ),
    "an address without ray": (
        [*SIMULATE, "--address", "127.0.0.1:1"],
        "--address ne sert qu’avec --backend ray",
        "mae --address ar gyfer --backend ray yn unig",
    ),
    "a reaction bot nobody knows": (
        [*SPIT, "--bots", "foo,easy"],
        "robot inconnu foo pour une partie de Spit : choisissez parmi easy, ",
        "bot anhysbys foo ar gyfer Tafod: dewiswch un o easy, ",
    ),
    "options to a level": (
        [*SPIT, "--bots", "easy:min=1,easy"],
        "le niveau easy ne prend aucune option : utilisez reaction:min=…,max=…",
        "nid yw’r lefel easy yn cymryd opsiynau: defnyddiwch reaction:min=…,max=…",
    ),
    "a reaction option it lacks": (
        [*SPIT, "--bots", "reaction:foo=1,easy"],
        "le robot reaction prend min, max et reaim, pas foo",
        "mae’r bot reaction yn cymryd min, max a reaim, nid foo",
    ),
    "reaction times not numbers": (
        [*SPIT, "--bots", "reaction:min=x,easy"],
        "reaction:min=x : min, max et reaim sont des nombres de secondes",
        "reaction:min=x: rhifau o eiliadau yw min, max a reaim",
    ),
    "max below min": (
        [*SPIT, "--bots", "reaction:min=2.5,max=1,easy"],
        "max=1 est inférieur à min=2,5 : donnez min ≤ max",
        "mae max=1 yn is na min=2.5: rhowch min ≤ max",
    ),
    "a negative reaction time": (
        [*SPIT, "--bots", "reaction:min=-1.5,easy"],
        "un temps de réaction est de 0 seconde ou plus, pas de -1,5",
        "rhaid i amser ymateb fod yn 0 eiliad neu fwy, nid -1.5",
    ),
    "a re-aim share above one": (
        [*SPIT, "--bots", "reaction:reaim=2,easy"],
        "reaim=2 doit être une part d’un temps de réaction, supérieure à 0 et au plus égale à 1",
        "rhaid i reaim=2 fod yn gyfran o amser ymateb, uwch na 0 a dim mwy nag 1",
    ),
}
ENGLISH = (
    " must ",
    " not ",
    " bot for ",
    "choose",
    " give ",
    " use ",
    " is not",
    " below ",
    " the ",
)


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_refusal_is_in_the_words_of_the_language(case: str) -> None:
    args, french, welsh = CASES[case]
    for lang, expected, prefix in (("fr", french, "Erreur : "), ("cy", welsh, "Gwall: ")):
        result = CliRunner().invoke(cli, [*args, "--lang", lang])
        assert result.exit_code in (1, 2), result.output
        line = result.stderr.strip().splitlines()[-1]
        assert line.startswith(prefix), line
        assert expected in line, (lang, line)
        assert not any(w in line for w in ENGLISH), (lang, line)


def test_in_english_the_sentences_are_as_they_were() -> None:
    result = CliRunner().invoke(cli, [*TOURNAMENT, "--bots", "expert:model=zz"])
    assert result.stderr.strip().splitlines()[-1] == (
        "Error: bot 'expert': model='zz' is not valid: use on, leads, off, fit or learned"
    )
    result = CliRunner().invoke(cli, [*SIMULATE, "--bots", "random,random,random", "-n", "2"])
    assert result.stderr.strip().splitlines()[-1] == ("Error: 3 bots for 2 players: give at most 2")


def _raised(error: type[Exception], make: Callable[[], object]) -> Message:
    with pytest.raises(error) as caught:
        make()
    said = caught.value.args[0]
    assert isinstance(said, Message) and said.id in MESSAGES, said
    return said


def test_the_checks_below_the_command_line_raise_messages() -> None:
    """What the options' own checks let through is refused in words too (an API caller)."""
    sim = Simulation.build(10, bots=["random"], players=2)
    assert _raised(SimulationError, lambda: run(sim, workers=0)).id == "sim.workers"
    assert _raised(SimulationError, lambda: run(sim, backend="gpu")).id == "sim.backend"
    assert _raised(SimulationError, lambda: Simulation(sim.rules, sim.bots, 0)).id == "sim.rounds"
    setup = Setup(("random",), 0, 2, sim.rules, 1)
    assert _raised(TournamentError, lambda: check_setup(setup)).id == "tournament.games"
    ok = Setup(("random",), 1, 2, sim.rules, 1)
    assert _raised(TournamentError, lambda: run_tournament(ok, 0)).id == "sim.workers"
    assert _raised(BotError, lambda: make_bot("expert:clock=sun")).id == "bot.not-valid"
