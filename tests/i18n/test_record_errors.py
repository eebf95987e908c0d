"""A record that cannot be read or does not replay is said in the reader's language: every
:class:`~cardroom.games.errors.RecordError` of the shared readers (``games/records.py``), the
record file reader (``cli/records.py``) and the Nain Jaune record (``games/nain_jaune/record.py``)
is raised with a Message whose id has words in en/fr/cy, and ``cardroom replay``, ``cardroom
analyse`` and ``POST /api/replay`` say it in French and Welsh with no English sentence (the
English sentence itself is kept, byte for byte)."""

from __future__ import annotations

import ast
import copy
import errno
import importlib.util
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from click.testing import CliRunner
from fastapi.testclient import TestClient

import cardroom
from cardroom.cli.main import cli
from cardroom.cli.records import OS_CASES, os_message, read_record_bytes
from cardroom.games.errors import RecordError as BaseRecordError
from cardroom.games.messages import Message
from cardroom.games.nain_jaune.record import RecordError, parse_game, replay_whole_game
from cardroom.i18n import DOMAIN, catalog_path, placeholders, translator
from cardroom.i18n.messages import MESSAGES, words
from cardroom.i18n.reasons import record_error_id, record_error_text
from cardroom.web import Settings, create_app

FR, CY = translator("fr"), translator("cy")

SRC = Path(cardroom.__file__).parent
FILES = ("games/records.py", "cli/records.py", "games/nain_jaune/record.py")
"""The files whose every RecordError is raised with a Message (Spit, Speed and the arbiter's
raise sites are converted on branch h-recB)."""
RECORD = Path(__file__).parent.parent / "data" / "records" / "nain-jaune-380ca22.json"
LANGS = ("fr", "cy")

# Words of the English sentences that no French or Welsh answer may hold.
ENGLISH = (
    " is ",
    " must ",
    " not ",
    " the ",
    "record",
    "round",
    "move",
    "already",
    "played",
    "empty",
    "whole number",
    "Error",
    "cannot",
    "No such file",
    "Expecting",
)


def _game() -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(RECORD.read_text())
    return data


def _first_card_of(record: dict[str, Any], seat: int) -> str:
    return str(record["hands"][seat][0])


def _bad(case: str) -> tuple[Any, str]:
    """A hand-made malformed record and the id of what is wrong with it."""
    game = _game()
    one = copy.deepcopy(game[0])
    if case == "missing hands":
        del one["hands"]
        return one, "rec.no-key"
    if case == "chips not a number":
        one["chips"][2] = "many"
        return one, "rec.whole-number"
    if case == "players not a list":
        one["players"] = "Ann"
        return one, "rec.names-range"
    if case == "bad card":
        one["talon"][0] = "ZZ"
        return one, "rec.nj.card"
    if case == "card not a string":
        one["moves"][0] = 17
        return one, "rec.nj.not-a-card"
    if case == "card played twice":
        one["moves"].insert(1, one["moves"][0])
        return one, "rec.nj.played-twice"
    if case == "card from the talon":
        one["moves"][0] = one["talon"][0]
        return one, "rec.nj.in-talon"
    if case == "dealer out of range":
        one["dealer"] = 9
        return one, "rec.nj.dealer"
    if case == "rules not valid":
        one["rules"]["payment"] = "gold"
        return one, "rec.nj.rules"  # with the rules' own rules.not-valid inside
    if case == "second round changes chips":
        two = copy.deepcopy(game[:2])
        two[1]["chips"][0] += 5
        return two, "rec.nj.chips-changed"
    if case == "newer version":
        one["version"] = {"format": 99, "rules": 1}
        return one, "rec.newer"
    raise AssertionError(case)


CASES = (
    "missing hands",
    "chips not a number",
    "players not a list",
    "bad card",
    "card not a string",
    "card played twice",
    "card from the talon",
    "dealer out of range",
    "rules not valid",
    "second round changes chips",
    "newer version",
)


def _raised(data: Any) -> BaseRecordError:
    with pytest.raises(BaseRecordError) as caught:
        replay_whole_game(parse_game(data))
    return caught.value


def _assert_no_english(said: str, lang: str, quoted: tuple[str, ...] = ()) -> None:
    bare = said
    for key in quoted:  # the record's own keys and values, quoted
        bare = bare.replace(key, "")
    assert not any(w in bare for w in ENGLISH), (lang, said)


def test_the_record_is_a_good_one_before_it_is_spoiled() -> None:
    replay_whole_game(parse_game(_game()))  # no error: each case below is one change


@pytest.mark.parametrize("case", CASES)
def test_each_error_has_its_id_and_french_and_welsh_words(case: str) -> None:
    data, id = _bad(case)
    error = _raised(data)
    assert record_error_id(error) == id
    assert isinstance(error.message, Message)
    english = str(error)
    assert record_error_text(error, translator("en")) == english  # English as it always was
    for lang in LANGS:
        said = record_error_text(error, translator(lang))
        assert said != english
        assert said != record_error_text(Exception("x"), translator(lang))  # not the general words
        _assert_no_english(said, lang, ("hands", "chips[2]", "players", "dealer"))


def test_an_english_sentence_is_kept_byte_for_byte() -> None:
    error = _raised(_bad("missing hands")[0])
    assert str(error) == "the record has no 'hands'"
    data, _id = _bad("second round changes chips")
    two = _raised(data)
    name, chips = data[1]["players"][0], data[1]["chips"][0]
    assert str(two).startswith(f"round 2: {name} starts with {chips} chips but ended the round")
    assert record_error_id(two) == "rec.nj.chips-changed"
    assert two.message.id == "rec.in-round"  # the round is a field, not glued words
    assert two.message.fields["round"] == 2
    assert record_error_text(two, translator("fr")).startswith(
        f"manche 2 : {name} commence avec {chips} jetons"
    )
    assert record_error_text(two, CY).startswith(f"rownd 2: mae {name} yn dechrau gyda {chips}")


def test_a_rules_error_in_a_record_keeps_its_own_id() -> None:
    error = _raised(_bad("rules not valid")[0])
    assert error.message.id == "rec.nj.rules"
    inner = error.message.fields["reason"]
    assert isinstance(inner, Message) and inner.id == "rules.not-valid"
    assert record_error_text(error, translator("fr")).startswith("les règles : ")


def test_an_illegal_move_says_the_engines_reason_in_words() -> None:
    game = _game()
    one = copy.deepcopy(game[0])
    # the second move is a card of the player who must not play now
    first = one["moves"][0]
    holder = next(s for s, hand in enumerate(one["hands"]) if first in hand)
    other = next(c for c in one["hands"][(holder + 2) % 4] if c not in one["moves"][:1])
    one["moves"] = [first, other]
    error = _raised(one)
    illegal = ("rec.nj.illegal-by", "rec.nj.other-holds", "rec.nj.other-must-play")
    assert record_error_id(error) in (*illegal, "rec.nj.never-playable")
    assert str(error).startswith(f"move 2 ({other})")
    for lang in LANGS:
        said = record_error_text(error, translator(lang))
        assert f" 2 ({other}" not in said  # the card in words, not its code
        assert {"fr": "coup 2 (", "cy": "symudiad 2 ("}[lang] in said, said
        _assert_no_english(said, lang)


# ------------------------------------------------------------------------- the command line


def _write(tmp_path: Path, data: Any) -> Path:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data))
    return path


def _error_line(args: list[str], lang: str) -> str:
    result = CliRunner().invoke(cli, [*args, "--lang", lang])
    assert result.exit_code == 1, result.output
    assert result.stdout == ""
    line = result.stderr.strip().splitlines()[-1]
    assert line.startswith({"fr": "Erreur : ", "cy": "Gwall: "}[lang]), line
    return line


FRAGMENTS = {  # a few words each id says, in French and Welsh
    "missing hands": ("n’a pas de champ «\u00a0hands\u00a0»", "nid oes maes ‘hands’"),
    "chips not a number": ("doit être un nombre entier", "fod yn rhif cyfan"),
    "bad card": ("n’est pas une carte", 'nid yw "ZZ" yn gerdyn'),
    "card played twice": ("cette carte a déjà été jouée", "eisoes wedi’i chwarae"),
    "dealer out of range": ("le donneur doit être", "rhaid i’r deliwr fod"),
    "second round changes chips": ("manche 2 : ", "rownd 2: mae "),
}


@pytest.mark.parametrize("case", sorted(FRAGMENTS))
def test_cardroom_replay_says_a_bad_record_in_french_and_welsh(case: str, tmp_path: Path) -> None:
    data, _id = _bad(case)
    path = _write(tmp_path, data)
    for lang, fragment in zip(LANGS, FRAGMENTS[case], strict=True):
        line = _error_line(["replay", str(path)], lang)
        assert fragment in line, (lang, line)
        _assert_no_english(line, lang, (str(path), "hands", "chips[2]", "dealer"))


def test_cardroom_replay_in_english_is_unchanged(tmp_path: Path) -> None:
    path = _write(tmp_path, _bad("missing hands")[0])
    result = CliRunner().invoke(cli, ["replay", str(path), "--lang", "en"])
    assert result.exit_code == 1
    assert result.stderr.strip().endswith("Error: the record has no 'hands'")


FILE_CASES: dict[str, tuple[bytes, str, str]] = {
    # bytes written -> French words, Welsh words
    "not UTF-8": (b'{"game": "nain-jaune", "x": "\xff"}', "pas du texte UTF-8", "testun UTF-8"),
    "empty": (b"  \n", "le fichier est vide", "mae’r ffeil yn wag"),
    "not JSON": (b'{"game": ', "pas du JSON valide (ligne 1", "yn JSON dilys (llinell 1"),
    "nested too deep": (b"[" * 30 + b"]" * 30, "imbriqués sur plus de 12", "nythu’n ddyfnach"),
}


@pytest.mark.parametrize("case", sorted(FILE_CASES))
def test_a_file_that_is_not_a_record_is_said_in_words(case: str, tmp_path: Path) -> None:
    content, fr, cy = FILE_CASES[case]
    path = tmp_path / "record.json"
    path.write_bytes(content)
    for command in ("replay", "analyse"):
        for lang, fragment in zip(LANGS, (fr, cy), strict=True):
            line = _error_line([command, str(path)], lang)
            assert str(path) in line
            assert fragment in line, (command, lang, line)
            _assert_no_english(line, lang, (str(path),))


def _file_error(path: Path) -> BaseRecordError:
    with pytest.raises(BaseRecordError) as caught:
        read_record_bytes(path)
    return caught.value


def test_a_file_that_cannot_be_read_is_said_without_the_systems_english(tmp_path: Path) -> None:
    # (``cardroom replay`` checks that the file exists first: these reach the reader when it
    # is called on a path given otherwise, or the file goes between the check and the read)
    gone = _file_error(tmp_path / "gone.json")
    assert str(gone) == "cannot open it: No such file or directory"  # English as it was
    assert gone.message.id == "rec.no-file"
    assert record_error_text(gone, translator("fr")) == "ce fichier n’existe pas"
    assert record_error_text(gone, translator("cy")) == "nid oes ffeil o’r fath"
    folder = _file_error(tmp_path)
    assert folder.message.id == "rec.folder"
    assert record_error_text(folder, FR) == "c’est un dossier, pas un fichier d’enregistrement"
    odd = os_message(OSError(errno.EIO, "Input/output error"), "read")
    assert odd.id == "rec.cannot-read" and str(odd) == "cannot read it: Input/output error"
    said = words(odd, translator("fr"))
    assert (
        said == "impossible de lire ce fichier (le système dit : «\u00a0Input/output error\u00a0»)"
    )
    for id in {*OS_CASES.values(), "rec.cannot-open", "rec.cannot-read"}:
        assert id in MESSAGES


def test_cardroom_analyse_says_a_record_that_does_not_replay_in_words(tmp_path: Path) -> None:
    path = _write(tmp_path, _bad("card played twice")[0])
    for lang, fragment in zip(LANGS, FRAGMENTS["card played twice"], strict=True):
        line = _error_line(["analyse", str(path), "--json"], lang)
        assert fragment in line, (lang, line)
        _assert_no_english(line, lang, (str(path),))


# ---------------------------------------------------------------------------- the web replay


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    path: Path = tmp_path_factory.mktemp("replay")
    settings = Settings(db_url=f"sqlite+aiosqlite:///{path / 'web.db'}", bot_delay=0.0)
    with TestClient(create_app(settings)) as client:
        yield client


JSON_TYPE = {"content-type": "application/json"}


@pytest.mark.parametrize("case", ["missing hands", "bad card", "card played twice"])
def test_the_web_replay_says_a_bad_record_in_the_pages_language(web: TestClient, case: str) -> None:
    data, id = _bad(case)
    english = web.post("/api/replay", json=data)
    assert english.status_code == 400
    assert english.json()["id"] == id
    for lang, fragment in zip(LANGS, FRAGMENTS[case], strict=True):
        answer = web.post(f"/api/replay?lang={lang}", json=data)
        assert answer.status_code == 400
        body = answer.json()
        assert body["error"] == "bad-record"
        assert body["id"] == id
        assert fragment in body["message"], (lang, body)
        assert body["message"] != english.json()["message"]
        _assert_no_english(body["message"], lang, ("hands",))


def test_the_web_replay_says_a_file_that_is_not_json_in_words(web: TestClient) -> None:
    body = b'{"game": "nain-jaune", "x": "\xff"}'
    at = body.index(b"\xff")
    answer = web.post("/api/replay?lang=fr", content=body, headers=JSON_TYPE)
    assert answer.status_code == 400
    said = answer.json()
    assert said["id"] == "rec.not-utf8"
    assert said["message"] == (
        f"ce n’est pas un enregistrement de partie : ce n’est pas du texte UTF-8 (octet {at})"
    )
    english = web.post("/api/replay", content=body, headers=JSON_TYPE).json()
    assert english["message"] == f"not a game record: not UTF-8 text (byte {at})"


# ------------------------------------------------------------------- every raise, by reading


def _raises(path: Path) -> Iterator[tuple[int, ast.expr | None]]:
    """(line, first argument) of every ``raise RecordError(...)`` / ``raise fail(...)`` …"""
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            func = node.exc.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name == "RecordError":
                yield node.lineno, node.exc.args[0] if node.exc.args else None
        elif (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Name)
            and node.value.func.id == "RecordError"
        ):
            yield node.lineno, node.value.args[0] if node.value.args else None
        elif isinstance(node, ast.Return) and isinstance(node.value, ast.Call):
            func = node.value.func
            if isinstance(func, ast.Name) and func.id == "RecordError":
                yield node.lineno, node.value.args[0] if node.value.args else None


# Functions of these files that return a Message (their own ids are checked below).
MESSAGE_MAKERS = {"Message", "placed", "os_message", "_too_deep", "_move_error", "fail"}
# Names bound to a Message, and attributes that are one.
MESSAGE_NAMES = {"_NOT_A_GAME", "too_large", "message"}


def _is_message(arg: ast.expr | None) -> bool:
    if isinstance(arg, ast.Call):
        func = arg.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        return name in MESSAGE_MAKERS
    if isinstance(arg, ast.Name):
        return arg.id in MESSAGE_NAMES
    if isinstance(arg, ast.Attribute):  # exc.message, exc.detail (a re-raise, its id kept)
        return arg.attr in ("message", "detail")
    return False


def _ids(path: Path) -> dict[str, int]:
    """Every literal message id of ``path``: ``Message("rec.…", …)``, ``fail("rec.…", …)`` …"""
    out: dict[str, int] = {}
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and node.args:
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            args = node.args[2:] if name == "_move_error" else node.args
            first = args[0] if args else None
            literal = isinstance(first, ast.Constant) and isinstance(first.value, str)
            if name in MESSAGE_MAKERS | {"_move_error"} and literal:
                assert isinstance(first, ast.Constant) and isinstance(first.value, str)
                if "." in first.value:
                    out[first.value] = node.lineno
            if isinstance(first, ast.IfExp):  # "rec.seconds" if … else "rec.number"
                for side in (first.body, first.orelse):
                    if isinstance(side, ast.Constant) and isinstance(side.value, str):
                        out[side.value] = node.lineno
    return out


@pytest.mark.parametrize("name", FILES)
def test_every_record_error_is_raised_with_a_message(name: str) -> None:
    raises = list(_raises(SRC / name))
    assert len(raises) >= {"games/records.py": 20, "cli/records.py": 5}.get(name, 35)
    bare = [line for line, arg in raises if not _is_message(arg)]
    assert bare == [], f"{name}: RecordError without a Message at lines {bare}"


def _translated(lang: str) -> dict[str, Any]:
    with catalog_path(lang).open("rb") as f:
        catalog = read_po(f, locale=lang, domain=DOMAIN)
    return {(m.id if isinstance(m.id, str) else m.id[0]): m.string for m in catalog if m.id}


@pytest.mark.parametrize("name", FILES)
def test_every_id_raised_has_words_in_every_catalog(name: str) -> None:
    ids = _ids(SRC / name)
    assert len(ids) >= {"cli/records.py": 4, "games/records.py": 15}.get(name, 30)
    missing = sorted(i for i in ids if i not in MESSAGES)
    assert missing == [], f"{name}: ids without words: {missing}"
    catalogs = {lang: _translated(lang) for lang in LANGS}
    for id in ids:
        text = MESSAGES[id]
        msgid = text if isinstance(text, str) else text[1]
        for lang in LANGS:
            said = catalogs[lang].get(msgid)
            forms = said if isinstance(said, tuple | list) else [said]
            assert forms and all(forms), (id, lang)  # translated, every plural form
            for form in forms:
                assert isinstance(form, str), (id, lang, form)
                assert placeholders(form) <= placeholders(msgid) | {"n"}, (id, lang, form)


def test_the_scan_sees_a_bare_sentence() -> None:
    tree = ast.parse('def f():\n    raise RecordError(f"{x} is bad")\n')
    raises = [arg for node in ast.walk(tree) if isinstance(node, ast.Raise)
              for arg in getattr(node.exc, "args", [])]  # fmt: skip
    assert raises and not _is_message(raises[0])
    good = ast.parse('raise RecordError(Message("rec.list", "x"))').body[0]
    assert isinstance(good, ast.Raise) and isinstance(good.exc, ast.Call)
    assert _is_message(good.exc.args[0])


def test_a_record_error_without_an_id_is_never_said_in_english() -> None:
    error = RecordError("some English sentence", round_no=3)  # code not converted yet
    assert str(error) == "round 3: some English sentence"
    assert record_error_text(error, FR) == "manche 3 : cet enregistrement est illisible"
    assert record_error_text(error, translator("cy")) == "rownd 3: ni ellir darllen y cofnod hwn"


def test_the_web_analyse_of_an_upload_says_a_bad_file_in_words(web: TestClient) -> None:
    answer = web.post("/api/analysis/upload?lang=fr", content=b"[[[", headers=JSON_TYPE)
    assert answer.status_code == 400
    said = answer.json()
    assert said["id"] == "rec.not-json"
    assert said["message"] == (
        "L’enregistrement de cette partie n’a pas pu être lu : elle ne peut pas être analysée."
    )


def test_a_list_of_spit_games_is_said_in_words(tmp_path: Path) -> None:
    spit = json.loads((RECORD.parent / "spit-b77b4aa.json").read_text())
    path = _write(tmp_path, [spit])
    assert "seuls les enregistrements de Speed" in _error_line(["replay", str(path)], "fr")
    assert "dim ond cofnodion Cyflymder" in _error_line(["replay", str(path)], "cy")


@pytest.mark.parametrize("command", ["replay", "analyse"])
@pytest.mark.parametrize(
    ("lang", "missing", "folder"),
    [
        ("fr", "ce fichier n’existe pas", "c’est un dossier"),
        ("cy", "nid oes ffeil o’r fath", "ffolder yw hwn"),
    ],
)
def test_a_missing_file_or_a_folder_is_told_in_the_readers_words(
    tmp_path: Path, command: str, lang: str, missing: str, folder: str
) -> None:
    """Our reader answers, not click's English "File '…' does not exist."."""
    runner = CliRunner()
    gone = runner.invoke(cli, [command, str(tmp_path / "gone.json"), "--lang", lang])
    assert gone.exit_code == 1 and missing in gone.output
    assert "does not exist" not in gone.output and "File" not in gone.output
    here = runner.invoke(cli, [command, str(tmp_path), "--lang", lang])
    assert here.exit_code == 1 and folder in here.output
    assert "is a directory" not in here.output


def test_every_record_word_lives_in_one_module() -> None:
    """The record words every game shares are one module's, with no second name for it (the
    older ``realtime_record_words`` is gone); a game's own are in its words piece, and all of
    them are messages."""
    from cardroom.games.registry import GAMES
    from cardroom.i18n import record_words
    from cardroom.i18n.messages import MESSAGES

    assert importlib.util.find_spec("cardroom.i18n.realtime_record_words") is None
    assert "rec.rt.deal-card" in record_words.REALTIME_RECORD_MESSAGES
    nain_jaune = GAMES["nain-jaune"].load("words").MESSAGES
    assert "rec.nj.bad-card" in nain_jaune and "rec.nj.bad-card" not in record_words.RECORD_MESSAGES
    assert "rec.speed.seed" in GAMES["speed"].load("words").MESSAGES
    for table in (record_words.RECORD_MESSAGES, record_words.REALTIME_RECORD_MESSAGES, nain_jaune):
        assert all(MESSAGES[key] == text for key, text in table.items())
