"""Card names and announcements in the three languages, and English words (an 8, they)."""

from __future__ import annotations

from cardroom.i18n import translator
from cardroom.i18n.words import a_rank, card_name, event_text, takes_call, without_call

NAMES = ["Ann", "Bob", "Cid"]


def test_card_names() -> None:
    assert card_name("QS") == "queen of spades"
    assert card_name("QS", translator("fr")) == "dame de pique"
    assert card_name("10D", translator("fr")) == "10 de carreau"
    assert card_name("KH", translator("cy")) == "brenin calonnau"
    assert card_name("JC", translator("cy")) == "gwas clybiau"


def test_traditional_calls() -> None:
    assert without_call(7, translator("fr")) == "sans 7"
    assert without_call(12, translator("fr")) == "sans dame"
    assert without_call(12) == "without queen"
    assert without_call(12, translator("cy")) == "heb frenhines"  # soft mutation after "heb"
    assert takes_call("QS", translator("fr")) == "dame qui prend"
    assert takes_call("QS") == "queen who takes"
    assert takes_call("7D") == "Yellow Dwarf who takes"
    assert takes_call("7D", translator("fr")) == "Nain Jaune qui prend"
    assert takes_call("7D", translator("cy")) == "Corrach Melyn sy’n cymryd"


def test_english_articles() -> None:
    assert [a_rank(r) for r in (1, 7, 8, 11, 12, 13)] == [
        "an ace",
        "a 7",
        "an 8",
        "a jack",
        "a queen",
        "a king",
    ]
    assert a_rank(12, translator("fr")) == "une dame" and a_rank(8, translator("fr")) == "un 8"


def test_events_in_words() -> None:
    name = NAMES.__getitem__
    takes = {"kind": "takes", "seat": 1, "card": "7D", "amount": 1}
    assert event_text(takes, name) == 'Bob: "Yellow Dwarf who takes" (1 chip)'
    assert event_text(takes, name, translator("fr")) == "Bob : « Nain Jaune qui prend » (1 jeton)"
    assert event_text({**takes, "amount": 7}, name, translator("cy")) == (
        "Bob: “Corrach Melyn sy’n cymryd” (7 o sglodion)"
    )
    nxt = {"kind": "next-rank", "seat": 0, "rank": 8}
    assert event_text(nxt, name) == "nobody has an 8: Ann may now play a 9"
    paid = {"kind": "paid", "seat": 2, "payer": 2, "payee": 0, "owed": 9, "paid": 4}
    assert event_text(paid, name) == "Cid pays 4 of 9 owed (all they have) to Ann"
    fr = translator("fr")
    assert event_text(paid, name, fr) == ("Cid paie 4 des 9 dus (tout ce qui lui reste) à Ann")
    over = {"kind": "game-over", "winners": [0, 2], "reason": "3 rounds played",
            "reason_msg": {"id": "nj.end.rounds", "fields": {"n": 3}}}
    assert event_text(over, name) == "Game over (3 rounds played): Ann and Cid win"
    assert event_text(over, name, translator("fr")) == (
        "Fin de la partie (3 manches jouées) : Ann et Cid gagnent"
    )
    seq = {"kind": "new-sequence", "seat": 1, "reason": "nobody played an 8",
           "reason_msg": {"id": "nj.nobody-played", "fields": {"rank": 8}}}
    assert event_text(seq, name, translator("fr")) == (
        "Bob commence une nouvelle suite (personne n’a posé de 8)"
    )
