"""Spit and Speed on the web in French and Welsh: the log lines, the refusals of the engines and
of the table, the lobby's errors and the hint reasons, each in the connection's language."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from cardroom.cards import Card
from cardroom.games.messages import Message
from cardroom.games.nain_jaune.bots.hint import suggest
from cardroom.games.nain_jaune.engine import Round
from cardroom.games.nain_jaune.rules import Rules
from cardroom.games.nain_jaune.view import view_of
from cardroom.games.realtime_engine import adjacent
from cardroom.games.speed import engine as speed
from cardroom.games.speed.rules import SpeedRules
from cardroom.games.spit import engine as spit
from cardroom.i18n import translator
from cardroom.i18n.realtime_words import (
    event_words,
    localize_realtime_frame,
    reason_words,
)
from cardroom.i18n.reasons import request_error_text, table_error_text
from cardroom.tables import SeatSpec
from cardroom.tables.realtime import RealtimeConfig
from tests.web.conftest import Player, service_of, serving, settings_for

EN, FR, CY = translator("en"), translator("fr"), translator("cy")

C = Card.parse
NAMES = ["Ann", "Bob"]


def _every_event() -> list[tuple[str, Any]]:
    return [
        ("spit", spit.Called(0)),
        ("spit", spit.Spat(1, C("KS"), 0)),
        ("spit", spit.Played(0, C("7D"), 2, 1)),
        ("spit", spit.TurnedUp(1, 4, C("AH"))),
        ("spit", spit.Moved(0, C("5H"), 1, 3)),
        ("spit", spit.Stalemate()),
        ("spit", spit.NewLayout(None)),
        ("spit", spit.NewLayout(1)),
        ("spit", spit.Slapped(0, 1)),
        ("spit", spit.Chose(1, 0)),
        ("spit", spit.Took(0, None, 0)),
        ("spit", spit.Took(1, 0, 12)),
        ("spit", spit.Dealt(0, (1, 2, 3, 4, 5), 11)),
        ("spit", spit.OnePile(1)),
        ("spit", spit.Won(1)),
        ("speed", speed.Called(0)),
        ("speed", speed.Flipped((C("KS"), C("2H")), True, True)),
        ("speed", speed.Flipped((C("9C"), None), False, False)),
        ("speed", speed.Rebuilt((7, 9))),
        ("speed", speed.CardPlayed(1, C("QD"), 0)),
        ("speed", speed.Drew(1, 3)),
        ("speed", speed.GameWon(0, 14)),
        ("speed", speed.Blocked(None, (3, 3), 0)),
        ("speed", speed.Blocked(1, (4, 2), 4)),
    ]


@pytest.mark.parametrize("lang", ["fr", "cy"])
def test_every_spit_and_speed_event_has_its_own_words(lang: str) -> None:
    for game, event in _every_event():
        english = event_words(event, game, NAMES, translator("en"))
        said = event_words(event, game, NAMES, translator(lang), named=True)
        assert said != english and said != event.describe(NAMES), (lang, event)
        assert not re.search(r"\b(plays|takes|draws|wins|turns|spits)\b", said), said


def test_events_read_as_a_french_or_welsh_player_says_them() -> None:
    fr = [event_words(e, g, NAMES, translator("fr"), named=True) for g, e in _every_event()]
    assert "Ann pose le 7 de carreau sur la pile 2" in fr
    assert "Bob prend la pile 1 (12 cartes)" in fr
    assert "Bob pioche 3 cartes" in fr
    turned = "les cartes du milieu sont retournées (compte à rebours) : roi de pique et 2 de cœur"
    assert turned in fr
    assert "Ann annonce « Spit ! »" in fr
    cy = [event_words(e, g, NAMES, translator("cy"), named=True) for g, e in _every_event()]
    assert "Ann yn gweiddi “Poeri!”" in cy
    assert "Bob yn codi 3 cherdyn" in cy  # Welsh: 3 takes the singular noun, aspirated
    assert "Bob yn cymryd pentwr 1 (12 o gardiau)" in cy
    # the terminal keeps the printed cards
    assert event_words(spit.Played(0, C("7D"), 2, 1), "spit", NAMES, translator("fr")) == (
        "Ann pose 7♦ sur la pile 2"
    )


def test_the_engines_refusals_in_french_and_welsh() -> None:
    """The engines' own refusals (messages with an id), told from their id and fields."""
    game = speed.SpeedGame.new(SpeedRules(), 3)
    for seat in (0, 1):
        game.apply(seat, speed.CALL)
    top = game.view(0).centre[0]
    assert top is not None  # both called: the game has started
    card = next(c for c in game.view(0).hand if not adjacent(c, top))
    misfit = game.why_illegal(0, speed.Play(card, 0, top))
    assert misfit is not None and misfit.id == "rt.not-next"
    assert reason_words(misfit, EN) == f"the {_en(card)} is not next to the {_en(top)}"
    assert reason_words(Message("rt.not-next", "", card=C("9D"), top=C("5H")), FR) == (
        "le 9 de carreau n’est pas voisin du 5 de cœur"
    )
    assert reason_words(Message("rt.not-next", "", card=C("QD"), top=C("AH")), FR) == (
        "la dame de carreau n’est pas voisine de l’as de cœur"
    )
    stale = Message("rt.stale", "", pile=0, top=C("8C"), seen=C("7D"))
    assert reason_words(stale, translator("fr")) == (
        "trop tard : la pile 1 montre maintenant le 8 de trèfle, et non plus le 7 de carreau"
    )
    assert reason_words(Message("spit.not-before-spit", "", what="play"), translator("fr")) == (
        "vous ne pouvez pas jouer avant « Spit ! » : annoncez-le pour commencer"
    )
    assert reason_words(Message("speed.not-in-hand", "", card=C("QS")), translator("cy")) == (
        "nid yw brenhines rhawiau yn eich llaw"
    )
    assert reason_words(Message("spit.same-colour", "", card=C("QS"), top=C("KC")), CY) == (
        "rhaid i frenhines rhawiau fod o’r lliw arall i frenin clybiau"
    )
    move = Message("spit.move.turn-up", "", stock=2)
    left = Message("spit.they-can-still", "", move=move)
    assert reason_words(Message("spit.not-stalemate", "", move=left), translator("cy")) == (
        "nid cyfyngder: mae’r chwaraewr arall yn dal i allu troi pentwr stoc 3 (dim ond pan na "
        "all neb symud y gwaeddir “Poeri!”)"
    )
    # the JSON a frame carries says the same
    assert reason_words("ignored", CY, {"id": "speed.not-in-hand", "fields": {"card": "QS"}}) == (
        "nid yw brenhines rhawiau yn eich llaw"
    )
    # a sentence without an id is never shown: the general refusal is said instead
    assert reason_words("9D is not one rank above or below 5H", translator("fr")) == (
        "ce n’est pas possible maintenant"
    )


def _en(card: Card) -> str:
    names = {1: "ace", 11: "jack", 12: "queen", 13: "king"}
    suits = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
    return f"{names.get(int(card.rank), str(int(card.rank)))} of {suits[card.code[-1]]}"


def test_the_tables_refusals_in_french_and_welsh() -> None:
    fr = translator("fr")
    assert table_error_text("not-started", "the game has not started yet: wait for it", fr) == (
        "la partie n’a pas encore commencé : attendez-la"
    )
    assert table_error_text(
        "forbidden",
        "you are watching this table: open an invitation link to take a seat",
        translator("cy"),
    ) == ("rydych chi’n gwylio’r bwrdd hwn: agorwch ddolen wahodd i gymryd sedd")
    no_table = Message("table.no-table", "there is no table 'x1'")
    assert table_error_text("not-found", no_table, translator("fr")) == "cette table n’existe pas"
    two = Message("lobby.two-players", "Spit is played by 2, not 3", game="spit", n=3)
    assert request_error_text(two, translator("cy")) == "chwaraeir Tafod gan 2, nid 3"
    # a sentence the tables never said is not shown to a Welsh reader as it is
    assert table_error_text("bad-request", "entry 7 does not follow entry 5", translator("cy")) == (
        "nid yw hynny’n bosibl nawr"
    )


def test_bots_are_named_in_the_page_language() -> None:
    frame = {
        "type": "state",
        "game": "speed",
        "seats": [
            {"seat": 0, "name": "Ann", "bot": None},
            {"seat": 1, "name": "Hard bot", "bot": "hard"},
        ],
        "log": [{"seat": 1, "accepted": True, "text": "x", "events": [
            {"kind": "Drew", "seat": 1, "count": 1}]}],
    }  # fmt: skip
    fr = localize_realtime_frame(frame, translator("fr"))
    assert [s["name"] for s in fr["seats"]] == ["Ann", "Robot difficile"]
    assert fr["log"][0]["text"] == "Robot difficile pioche 1 carte"
    cy = localize_realtime_frame(frame, translator("cy"))
    assert cy["seats"][1]["name"] == "Bot anodd"
    assert localize_realtime_frame(frame, translator("en")) == frame


class _Seat(Player):
    pass


def _misfit(frame: dict[str, Any]) -> tuple[str, str] | None:
    """A face-up stock top of seat 0 that does not fit centre pile 0, and that pile's top."""
    view = frame["table_view"]
    top = view["centre"][0]
    for card, _n in view["stocks"][0]:
        if card and top and not adjacent(C(card), C(top)):
            return card, top
    return None


async def test_a_spit_table_speaks_french_and_welsh_over_the_websocket(tmp_path: Path) -> None:
    config = RealtimeConfig(
        game="spit",
        options={"countdown": "0.3"},
        seats=(SeatSpec("person", name="Ann"), SeatSpec("person", name="Bob")),
        seed=5,
    )
    async with serving(settings_for(tmp_path)) as (app, address):
        created = await service_of(app).create_realtime(config, "Duel")
        table = created.table_id
        ann = _Seat(address, table, created.creator_token)
        ann.url += "&lang=fr"
        watcher = _Seat(address, table, None, headers={"Accept-Language": "cy-GB,cy;q=0.9"})
        await ann.connect()
        await watcher.connect()
        await ann.send({"type": "act", "action": {"type": "spit"}, "id": "s"})
        # Bob never calls: the countdown starts the game
        playing = await ann.wait_for(
            lambda f: f["type"] == "state" and f.get("table_view", {}).get("phase") == "play"
        )
        misfit = _misfit(playing)
        assert misfit is not None, "seed 5 has a misfit top card for pile 1"
        card, top = misfit
        start = len(ann.frames)
        await ann.send(
            {"type": "act", "action": {"type": "play", "card": card, "pile": 0, "seen": top}}
        )
        error = await ann.wait_for(lambda f: f["type"] == "error", start)
        # a refusal changes nothing on the table: its log line comes with the next change
        legal = playing["table_view"]["legal"]
        assert legal, "Ann can move"
        await ann.send({"type": "act", "action": legal[0], "id": "ok"})
        await ann.wait_for(
            lambda f: f["type"] == "state" and any(not line["accepted"] for line in f["log"]),
            start,
        )
        await watcher.wait_for(
            lambda f: f["type"] == "state" and any(not line["accepted"] for line in f["log"])
        )
        await ann.close()
        await watcher.close()
    from cardroom.i18n.grammar import card_phrase
    from cardroom.i18n.messages import message_words

    assert error["code"] == "illegal" and error["id"] == "rt.not-next"
    fr = translator("fr")
    assert error["message"] == message_words("rt.not-next", {"card": card, "top": top}, fr)
    fr_log = [line["text"] for f in ann.frames if f["type"] == "state" for line in f["log"]]
    cy_log = [line["text"] for f in watcher.frames if f["type"] == "state" for line in f["log"]]
    assert "Ann annonce « Spit ! »" in fr_log
    assert any(t.startswith("compte à rebours fini : ") for t in fr_log), fr_log
    assert (
        f"Ann : poser {card_phrase(card, 'fr').the} sur la pile 1 refusé : "
        + message_words("rt.not-next", {"card": card, "top": top}, translator("fr"))
    ) in fr_log
    assert "Ann yn gweiddi “Poeri!”" in cy_log
    assert any(t.startswith("amser ar ben: ") for t in cy_log), cy_log
    # the spectator is told of the refusal without its card
    assert "Ann: cerdyn ar bentwr 1 wedi’i wrthod" in cy_log


def test_the_lobby_and_table_pages_answer_in_the_requests_language(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from cardroom.web.app import create_app

    fr = {"Accept-Language": "fr-FR,fr;q=0.9"}
    with TestClient(create_app(settings_for(tmp_path))) as client:
        bad_piles = client.post(
            "/api/tables",
            json={"name": "Amélie", "game": "spit", "players": 2, "options": {"piles": "3"}},
            headers=fr,
        )
        no_name = client.post("/api/tables", json={"name": " ", "game": "speed"}, headers=fr)
        three = client.post(
            "/api/tables",
            json={"name": "Ffion", "game": "spit", "players": 3,
                  "seats": [{"kind": "person"}, {"kind": "bot"}, {"kind": "bot"}]},
            cookies={"cr_lang": "cy"},
        )  # fmt: skip
        english = client.post("/api/tables", json={"name": " ", "game": "speed"})
        page = client.get("/t/nosuchtable", headers=fr)
        record = client.get("/t/nosuchtable/record", headers=fr)
    assert bad_piles.status_code == 400
    assert bad_piles.json()["message"] == (
        "Piles de réserve : la valeur 3 ne convient pas : utilisez 5 ou 4 (piles de réserve)"
    )
    assert bad_piles.json()["id"] == "rules.not-valid"
    assert no_name.json()["message"] == "un nom a de 1 à 24 caractères, pas 0"
    assert three.json()["message"] == "chwaraeir Tafod gan 2, nid 3"
    assert english.json()["message"] == "a name has 1 to 24 characters, not 0"
    assert page.status_code == 404
    assert '<html lang="fr">' in page.text and "<h1>Cette table n’existe pas</h1>" in page.text
    assert '<a href="/">Retour au salon</a>' in page.text
    assert record.status_code == 404 and record.json()["message"] == "cette table n’existe pas"


def test_hint_reasons_in_french_and_welsh() -> None:
    rnd = Round.deal(Rules(), [60] * 3, [0] * 5, 0, random.Random(3))
    view = view_of(rnd, rnd.to_act)
    _action, fr = suggest(view, ms=20, seed=1, lang="fr")
    assert re.fullmatch(
        r"jouer \S+ : environ [+-]\d+,\d jetons à la fin de la manche, sur [\d\u202f]+ donnes? "
        r"probables? des cartes cachées \(ensuite, jouer \S+ : [+-]\d+,\d\)",
        fr,
    ), fr
    _action, cy = suggest(view, ms=20, seed=1, lang="cy")
    assert cy.startswith("chwarae ") and " sglodyn erbyn diwedd y rownd dros " in cy, cy


def test_a_hints_card_and_gain_as_french_writes_them() -> None:
    """« jouer D♠ » as on the web (the terminal, where ``qs`` is typed, keeps ``Q♠``), and a
    gain with a decimal comma, never « -0,0 »."""
    from cardroom.cards import Card
    from cardroom.games.nain_jaune.bots.hint import _signed, describe
    from cardroom.games.nain_jaune.engine import Play
    from cardroom.i18n import translator

    queen = Play(Card.parse("QS"))
    assert describe(queen, "fr") == "jouer D♠"
    assert describe(Play(Card.parse("JC")), "fr") == "jouer V♣"
    assert describe(queen, "fr", letters=False) == "jouer Q♠"
    assert describe(queen, "en") == "play Q♠"
    fr, en = translator("fr"), translator("en")
    assert (_signed(16.6, fr), _signed(-3.25, fr), _signed(-0.04, fr)) == ("+16,6", "-3,2", "+0,0")
    assert _signed(16.6, en) == "+16.6"
