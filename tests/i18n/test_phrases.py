"""Generated phrase tables: every refusal and event that names a card or a rank, for every rank,
suit and board card, in English, French and Welsh, against phrases written here by hand.

The expected words below are typed out, not computed by :mod:`cardroom.i18n.grammar`: the
French article, gender, elision and ``de``/``d'`` after a negation, and the Welsh mutations,
are each spelled for every rank. A mistake in a grammar table, a catalog entry or the renderer
shows up as one wrong sentence.
"""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from cardroom.cards import DECK, Card
from cardroom.games.messages import Message
from cardroom.games.nain_jaune.engine import Claim, Pass, Play, Round
from cardroom.games.nain_jaune.rules import BOARD_SETS, Rules
from cardroom.games.speed import engine as speed
from cardroom.games.speed.rules import SpeedRules
from cardroom.games.spit import engine as spit
from cardroom.games.spit.rules import SpitRules
from cardroom.i18n import placeholders, translator
from cardroom.i18n.grammar import COUNT_NOUNS_CY, count_cy
from cardroom.i18n.messages import MESSAGES, message_words, words
from cardroom.i18n.words import event_text, takes_call, without_call

FR = translator("fr")

SRC = Path(__file__).resolve().parents[2] / "src" / "cardroom"
RANKS = range(1, 14)

# ------------------------------------------------------------------ the hand-written tables

# rank: (bare, the, a, of the, after a negation, object pronoun, participle ending)
FR_RANK = {
    1: ("as", "l’as", "un as", "de l’as", "d’as", "le", ""),
    11: ("valet", "le valet", "un valet", "du valet", "de valet", "le", ""),
    12: ("dame", "la dame", "une dame", "de la dame", "de dame", "la", "e"),
    13: ("roi", "le roi", "un roi", "du roi", "de roi", "le", ""),
} | {
    n: (str(n), f"le {n}", f"un {n}", f"du {n}", f"de {n}", "le", "") for n in range(2, 11)
}
FR_SUIT = {"C": "trèfle", "D": "carreau", "H": "cœur", "S": "pique"}
# rank: (bare, soft, with the article)
CY_RANK = {
    1: ("as", "as", "yr as"),
    11: ("gwas", "was", "y gwas"),
    12: ("brenhines", "frenhines", "y frenhines"),
    13: ("brenin", "frenin", "y brenin"),
} | {n: (str(n), str(n), f"yr {n}" if n == 8 else f"y {n}") for n in range(2, 11)}
CY_SUIT = {"C": "clybiau", "D": "diemwntau", "H": "calonnau", "S": "rhawiau"}
EN_RANK = {1: "ace", 11: "jack", 12: "queen", 13: "king"} | {n: str(n) for n in range(2, 11)}
EN_SUIT = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def en_a(rank: int) -> str:
    return ("an " if rank in (1, 8) else "a ") + EN_RANK[rank]


def fr_card(card: Card) -> tuple[str, str, str, str]:
    """(bare, the, of the, participle ending) of a card in French."""
    bare, the, _a, of_the, _neg, _it, e = FR_RANK[int(card.rank)]
    suit = f" de {FR_SUIT[card.code[-1]]}"
    return bare + suit, the + suit, of_the + suit, e


def cy_card(card: Card) -> tuple[str, str]:
    """(bare, soft) of a card in Welsh."""
    bare, soft, _the = CY_RANK[int(card.rank)]
    suit = f" {CY_SUIT[card.code[-1]]}"
    return bare + suit, soft + suit


def en_card(card: Card) -> str:
    return f"the {EN_RANK[int(card.rank)]} of {EN_SUIT[card.code[-1]]}"


# ------------------------------------------------------------------ refusals naming a rank


@pytest.mark.parametrize("rank", RANKS)
def test_refusals_naming_a_rank(rank: int) -> None:
    bare, _the, a, _of, neg, it, _e = FR_RANK[rank]
    cy, cy_soft, _cy_the = CY_RANK[rank]
    expected = {
        "nj.must-play-rank": (
            f"you hold {en_a(rank)} and must play it",
            f"vous avez {a} et devez {it} poser",
            f"mae gennych {cy_soft} a rhaid ei chwarae",
        ),
        "nj.wrong-rank": (
            f"the next card must be {en_a(rank)}",
            f"la carte suivante doit être {a}",
            f"rhaid i’r cerdyn nesaf fod yn {cy_soft}",
        ),
        "nj.nobody-played": (
            f"nobody played {en_a(rank)}",
            f"personne n’a posé {neg}",
            f"ni chwaraewyd {cy}",
        ),
        "nj.no-king": (
            f"nobody has {en_a(rank)}",
            f"personne n’a {neg}",
            f"does dim {cy} gan neb",
        ),
    }
    for msg_id, (en, fr, cy_text) in expected.items():
        said = [
            message_words(msg_id, {"rank": rank}, translator(lang)) for lang in ("en", "fr", "cy")
        ]
        assert said == [en, fr, cy_text], msg_id
    tr_fr, tr_cy = translator("fr"), translator("cy")
    assert tr_fr._("you hold no {rank}", rank=_phrase(rank, "fr")) == f"vous n’avez pas {neg}"
    assert tr_fr._("No {rank} can be played now.", rank=_phrase(rank, "fr")) == (
        f"Vous ne pouvez poser aucun{FR_RANK[rank][6]} {bare} maintenant."
    )
    assert tr_cy._("you hold no {rank}", rank=_phrase(rank, "cy")) == f"does dim {cy} gennych"


def _phrase(rank: int, lang: str) -> object:
    from cardroom.i18n.grammar import rank_phrase

    return rank_phrase(rank, lang)


@pytest.mark.parametrize("rank", range(1, 13))
def test_the_next_rank_event(rank: int) -> None:
    event = {"kind": "next-rank", "seat": 0, "rank": rank}
    name = {0: "Ann"}.__getitem__
    nxt = rank + 1
    assert event_text(event, name) == (
        f"nobody has {en_a(rank)}: Ann may now play {en_a(nxt)}"
    )
    assert event_text(event, name, translator("fr")) == (
        f"personne n’a {FR_RANK[rank][4]} : Ann peut maintenant poser {FR_RANK[nxt][2]}"
    )
    assert event_text(event, name, translator("cy")) == (
        f"does dim {CY_RANK[rank][0]} gan neb: caiff Ann chwarae {CY_RANK[nxt][0]} nawr"
    )


@pytest.mark.parametrize("rank", RANKS)
def test_the_calls(rank: int) -> None:
    assert without_call(rank, translator("fr")) == f"sans {FR_RANK[rank][0]}"
    assert without_call(rank, translator("cy")) == f"heb {CY_RANK[rank][1]}"  # heb + soft mutation


# ------------------------------------------------------------------ refusals naming cards


@pytest.mark.parametrize("card", DECK, ids=lambda c: c.code)
def test_refusals_naming_a_card(card: Card) -> None:
    other = Card.parse("5H") if card.code != "5H" else Card.parse("QS")
    fr, fr_the, _fr_of, e = fr_card(card)
    _o, other_the, other_of, _oe = fr_card(other)
    cy, cy_soft = cy_card(card)
    other_cy, other_soft = cy_card(other)
    expected = {
        "nj.not-held": (
            f"you do not hold {en_card(card)}",
            f"vous n’avez pas {fr_the}",
            f"does dim {cy} gennych",
        ),
        "nj.not-board-card": (
            f"{en_card(card)} is not a board card",
            f"{fr_the} n’est pas une carte du plateau",
            f"nid yw {cy} yn gerdyn y bwrdd",
        ),
        "rt.not-next": (
            f"{en_card(card)} is not next to {en_card(other)}",
            f"{fr_the} n’est pas voisin{e} {other_of}",
            f"nid yw {cy} yn dilyn {other_cy}",
        ),
        "spit.same-colour": (
            f"{en_card(card)} must be the other colour from {en_card(other)}",
            f"{fr_the} doit être de l’autre couleur que {other_the}",
            f"rhaid i {cy_soft} fod o’r lliw arall i {other_soft}",
        ),
        "speed.not-in-hand": (
            f"{en_card(card)} is not in your hand",
            f"{fr_the} n’est pas dans votre main",
            f"nid yw {cy} yn eich llaw",
        ),
        "speed.can-play": (
            f"no stalemate: you can still play {en_card(card)} on pile 2, so there is nothing "
            "to flip",
            f"pas de blocage : vous pouvez encore poser {fr_the} sur la pile 2, il n’y a donc "
            "rien à retourner",
            f"dim cyfyngder: gallwch chi chwarae {cy} ar bentwr 2 o hyd, felly does dim i’w droi",
        ),
        "rt.stale": (
            f"too late: pile 1 now shows {en_card(card)}, not {en_card(other)}",
            f"trop tard : la pile 1 montre maintenant {fr_the}, et non plus {other_the}",
            f"rhy hwyr: mae pentwr 1 nawr yn dangos {cy}, nid {other_cy}",
        ),
    }
    fields = {"card": card, "top": other, "pile": 1, "seen": other}
    for msg_id, (en, fr_text, cy_text) in expected.items():
        f = dict(fields, top=card, pile=0) if msg_id == "rt.stale" else fields
        said = [message_words(msg_id, f, translator(lang)) for lang in ("en", "fr", "cy")]
        assert said == [en, fr_text, cy_text], msg_id
    assert fr  # the bare name is used on the pages (« dame de pique, touche 3 »)


@pytest.mark.parametrize("board", sorted(BOARD_SETS))
def test_every_board_card_and_its_box(board: str) -> None:
    tr_fr, tr_cy = translator("fr"), translator("cy")
    from cardroom.i18n.grammar import card_phrase

    fr_box = {"10D": "case du 10 de carreau", "JC": "case du valet de trèfle",
              "QS": "case de la dame de pique", "QH": "case de la dame de cœur",
              "KH": "case du roi de cœur", "KS": "case du roi de pique",
              "7D": "case du 7 de carreau"}  # fmt: skip
    fr_takes = {"10D": "10 qui prend", "JC": "valet qui prend", "QS": "dame qui prend",
                "QH": "dame qui prend", "KH": "roi qui prend", "KS": "roi qui prend",
                "7D": "Nain Jaune qui prend"}  # fmt: skip
    cy_takes = {"10D": "10 sy’n cymryd", "JC": "gwas sy’n cymryd",
                "QS": "brenhines sy’n cymryd", "QH": "brenhines sy’n cymryd",
                "KH": "brenin sy’n cymryd", "KS": "brenin sy’n cymryd",
                "7D": "Corrach Melyn sy’n cymryd"}  # fmt: skip
    for card in BOARD_SETS[board]:
        code = card.code
        assert tr_fr._("{card} box", card=card_phrase(card, "fr")) == fr_box[code]
        assert tr_fr._("Claim the {card} box (c)", card=card_phrase(card, "fr")) == (
            f"Ramasser la {fr_box[code]} (c)"
        )
        assert tr_cy._("{card} box", card=card_phrase(card, "cy")) == f"blwch {cy_card(card)[0]}"
        assert takes_call(card, translator("fr")) == fr_takes[code]
        assert takes_call(card, translator("cy")) == cy_takes[code]
        fr_the, e = fr_card(card)[1], fr_card(card)[3]
        assert tr_fr._("The {card} cannot be played now.", card=card_phrase(card, "fr")) == (
            f"Impossible de poser {fr_the} maintenant."
        )
        assert tr_fr._("{card} (cannot be played now)", card=card_phrase(card, "fr")) == (
            f"{fr_card(card)[0]} (ne peut pas être posé{e} maintenant)"
        )


# ------------------------------------------------------------------ numbers and nouns in Welsh

WELSH_COUNTS = {
    # n: (cerdyn, pwynt, gornest), typed out
    0: ("0 o gardiau", "0 o bwyntiau", "0 o ornestau"),
    1: ("1 cerdyn", "1 pwynt", "1 ornest"),
    2: ("2 gerdyn", "2 bwynt", "2 ornest"),
    3: ("3 cherdyn", "3 phwynt", "3 gornest"),
    4: ("4 cerdyn", "4 pwynt", "4 gornest"),
    6: ("6 cherdyn", "6 phwynt", "6 gornest"),
    7: ("7 cerdyn", "7 pwynt", "7 gornest"),
    20: ("20 o gardiau", "20 o bwyntiau", "20 o ornestau"),
}


@pytest.mark.parametrize("n", sorted(WELSH_COUNTS))
def test_welsh_numbers_agree_with_their_noun(n: int) -> None:
    assert tuple(count_cy(n, noun) for noun in ("cerdyn", "pwynt", "gornest")) == (
        WELSH_COUNTS[n]
    )


def test_the_welsh_catalog_counts_as_the_grammar_does() -> None:
    """Every plural message of the Welsh catalog that counts cards, points or matches right
    after the number says ``2 gerdyn``, ``3 cherdyn``, ``6 cherdyn`` … as :func:`count_cy`."""
    tr = translator("cy")
    checked = 0
    for singular, plural in (("{n} card", "{n} cards"), ("{name} draws {n} card",
                             "{name} draws {n} cards"), ("{n} card in hand", "{n} cards in hand")):
        for n in (1, 2, 3, 6):
            text = tr.ngettext(singular, plural, n, name="Bob")
            assert count_cy(n, "cerdyn") in text, (singular, n, text)
            checked += 1
    for n in (2, 3, 6):
        text = tr.ngettext("{name} has played every card and wins ({n} point)",
                           "{name} has played every card and wins ({n} points)", n, name="Bob")
        assert f"({count_cy(n, 'pwynt')})" in text
        text = tr.ngettext("{game}: {n} match to {target}, seed {seed}",
                           "{game}: {n} matches to {target}, seed {seed}", n, game="Cyflymder",
                           target=5, seed=1)
        assert count_cy(n, "gornest") in text
        text = tr.ngettext(
            "Nain Jaune: {n} deal × {rotations}, seats {lineup}, seed {seed}",
            "Nain Jaune: {n} deals × {rotations}, seats {lineup}, seed {seed}",
            n, rotations="4 cylchdro", lineup="a b", seed=1)
        assert f" {count_cy(n, 'deliad')} × " in text, text
        rotations = tr.ngettext("{n} rotation", "{n} rotations", n)
        assert rotations == count_cy(n, "cylchdro"), rotations
    assert checked == 12 and set(COUNT_NOUNS_CY) >= {"cerdyn", "pwynt", "gornest"}


# ------------------------------------------------------------------ every id has words


def _ids_raised_in(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "Message"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            found.add(str(node.args[0].value))
    return found


_WORDLESS = re.compile(r"\{[^}]*\}|[\s:,;.]")
"""What a message made only of its fields and punctuation is made of."""


def test_every_message_id_raised_has_words_in_every_language() -> None:
    ids = set()
    for path in SRC.rglob("*.py"):
        ids |= _ids_raised_in(path)
    assert len(ids) > 40
    assert ids - set(MESSAGES) == set()
    for msg_id, text in MESSAGES.items():
        english = text if isinstance(text, str) else text[1]
        for lang in ("fr", "cy"):
            tr = translator(lang)
            # a plural's other fields too (a record error's {field}, {name} …)
            others = {} if isinstance(text, str) else dict.fromkeys(placeholders(text[1]), "x")
            others.pop("n", None)
            translated = (
                tr._(english)
                if isinstance(text, str)
                else tr.ngettext(text[1], text[2], 2, **others)
            )
            if not _WORDLESS.sub("", english):
                # only fields and punctuation ("{at}: {detail}"): its words are the fields'
                assert translated, (lang, msg_id)
                continue
            assert translated != english or (lang == "fr" and english in {"Spit"}), (lang, msg_id)


def _random_refusals(seed: int) -> list[str]:
    """The refusals of many actions, legal and not, in random positions of the three games."""
    rng = random.Random(seed)
    said: list[str] = []
    rnd = Round.deal(Rules(), [60] * 4, [0] * 5, 0, rng)
    while rnd.result is None:
        for card in rng.sample(DECK, 6):
            said.append(rnd.why_illegal(Play(card)) or "")
            said.append(rnd.why_illegal(Play(card, forget=True)) or "")
        said += [rnd.why_illegal(Pass()) or "", rnd.why_illegal(Claim()) or ""]
        rnd.apply(rng.choice(rnd.legal_actions()))
    said.append(rnd.why_illegal(Pass()) or "")
    sgame = spit.SpitGame.new(SpitRules(), seed)
    qgame = speed.SpeedGame.new(SpeedRules(), seed)
    for _ in range(150):
        if not sgame.over:
            _spit_refusals(sgame, rng, said)
        if not qgame.over:
            _speed_refusals(qgame, rng, said)
    return [s for s in said if s]


def _spit_refusals(game: spit.SpitGame, rng: random.Random, said: list[str]) -> None:
    """One random seat's refusals of a Play and of each other kind of Spit action, then one
    legal action of that seat played."""
    seat = rng.randrange(2)
    card = rng.choice(DECK)
    tries: list[spit.Action] = [spit.Play(card, rng.randrange(3), rng.choice(DECK))]
    tries += [spit.TurnUp(rng.randrange(6)), spit.Move(card, rng.randrange(6)),
              spit.CALL_SPIT, spit.Slap(rng.randrange(3)), spit.Choose(1)]
    for action in tries:
        said.append(game.why_illegal(seat, action) or "")
    legal = game.legal_actions(seat)
    if legal:
        game.apply(seat, rng.choice(legal))


def _speed_refusals(game: speed.SpeedGame, rng: random.Random, said: list[str]) -> None:
    """One random seat's refusals of a Play and of a call, then one legal action of that seat
    played (the random draws in the order of ``_spit_refusals``)."""
    seat = rng.randrange(2)
    card = rng.choice(DECK)
    tries: list[speed.Action] = [speed.Play(card, rng.randrange(3), rng.choice(DECK))]
    tries.append(speed.CALL)
    for action in tries:
        said.append(game.why_illegal(seat, action) or "")
    legal = game.legal_actions(seat)
    if legal:
        game.apply(seat, rng.choice(legal))


@pytest.mark.parametrize("seed", range(4))
def test_no_refusal_reaches_a_person_without_an_id(seed: int) -> None:
    """Every refusal the engines give carries an id with words in every language, and its
    French and Welsh words name no card by its code."""
    refusals = _random_refusals(seed)
    assert len(refusals) > 100
    codes = {c.code for c in DECK}
    for reason in refusals:
        assert isinstance(reason, Message) and reason.id in MESSAGES, reason
        for lang in ("fr", "cy"):
            text = words(reason, translator(lang))
            assert "{" not in text and not (set(text.replace(",", " ").split()) & codes), text
    # a plain sentence is never shown as it is
    assert words("9D is not one rank above or below 5H", FR) == "ce n’est pas possible maintenant"
