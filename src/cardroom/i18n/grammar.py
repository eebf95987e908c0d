"""Grammar as code: card and rank names as noun phrases, with the forms a sentence needs.

A catalog message names the form it wants: ``{card.the}``, ``{rank.a}``, ``{rank.neg}``,
``{card.soft}`` … (``{card}`` alone is the bare name). The forms of each language come from
small tables here, not from luck:

* French: gender and elision decide the article (``le 7``, ``la dame``, ``l'as``), its
  contractions with *de* and *à* (``du 7``, ``de la dame``, ``de l'as``; ``au roi``, ``à l'as``),
  the indefinite article (``un as``, ``une dame``), ``de``/``d'`` after a negation (``personne
  n'a de 7``, ``pas d'as``), the object pronoun (``le``/``la``) and the agreement of a past
  participle (``posé``/``posée``).
* Welsh: the soft, aspirate and nasal mutations of the first word (``o frenhines``, ``a
  Chyflymder``, ``fy nghardiau``), the article with its soft mutation of a feminine noun
  (``y frenhines``, ``yr as``), and a number with its noun (``2 gerdyn``, ``3 cherdyn``, ``6
  cherdyn``, ``2 ornest``).
* English: ``the``, ``a``/``an``.

Digits are written as digits (« 7 de carreau », « 7 diemwntau »); a mutation never changes them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cardroom.cards import Card, Suit

# ----------------------------------------------------------------------------- Welsh mutations

_UNMUTATED = ("ch", "ph", "th", "dd", "ff", "ng")
_SOFT = (("ll", "l"), ("rh", "r"), ("p", "b"), ("t", "d"), ("c", "g"), ("b", "f"), ("d", "dd"),
         ("g", ""), ("m", "f"))  # fmt: skip
_ASPIRATE = (("p", "ph"), ("t", "th"), ("c", "ch"))
_NASAL = (("p", "mh"), ("t", "nh"), ("c", "ngh"), ("b", "m"), ("d", "n"), ("g", "ng"))


_IMMUNE = ("gêm", "gemau")
"""Loanwords that keep their first letter (« y gêm », « dwy gêm », « o gemau »)."""


def _mutate(word: str, table: tuple[tuple[str, str], ...]) -> str:
    low = word.lower()
    if low.startswith(_UNMUTATED) or low in _IMMUNE:
        return word
    for radical, mutated in table:
        if low.startswith(radical):
            rest = word[len(radical) :]
            if word[:1].isupper():
                return (mutated[:1].upper() + mutated[1:] + rest) if mutated else rest.capitalize()
            return mutated + rest
    return word


def soft(word: str) -> str:
    """Welsh soft mutation (after *o*, *i*, *neu*, *dau*/*dwy*, *ei* (his), *yn* …):
    ``brenhines`` -> ``frenhines``, ``gwas`` -> ``was``, ``cerdyn`` -> ``gerdyn``."""
    return _mutate(word, _SOFT)


def aspirate(word: str) -> str:
    """Welsh aspirate mutation (after *a*, *tri*, *chwe*, *ei* (her) …): ``cerdyn`` -> ``cherdyn``,
    ``Cyflymder`` -> ``Chyflymder``, ``pwynt`` -> ``phwynt``."""
    return _mutate(word, _ASPIRATE)


def nasal(word: str) -> str:
    """Welsh nasal mutation (after *fy*, *yn* (in) …): ``cardiau`` -> ``nghardiau``."""
    return _mutate(word, _NASAL)


def _first(text: str, change: object) -> str:
    head, sep, rest = text.partition(" ")
    assert callable(change)
    return str(change(head)) + sep + rest


# ----------------------------------------------------------------------------- phrases


@dataclass(frozen=True)
class Phrase:
    """A noun phrase in one language: ``str()`` is the bare name, ``.the``, ``.a``, ``.of_the``,
    ``.to_the``, ``.neg``, ``.it``, ``.e``, ``.soft``, ``.asp``, ``.nas`` its forms (a form a
    language does not have is the bare name)."""

    bare: str
    forms: dict[str, str] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.bare

    def __format__(self, spec: str) -> str:
        return format(self.bare, spec)

    def __getattr__(self, name: str) -> str:
        if name.startswith("__"):
            raise AttributeError(name)
        return self.forms.get(name, self.bare)


FORMS = ("the", "a", "of_the", "to_the", "neg", "it", "e", "soft", "asp", "nas")
"""Every form a catalog message may ask for."""

# French: (noun, feminine, elides); digits are masculine and do not elide (« le 8 », h aspiré).
_FR_RANK = {1: ("as", False, True), 11: ("valet", False, False), 12: ("dame", True, False),
            13: ("roi", False, False)}  # fmt: skip
_FR_SUIT = {Suit.CLUBS: "trèfle", Suit.DIAMONDS: "carreau", Suit.HEARTS: "cœur",
            Suit.SPADES: "pique"}  # fmt: skip
# Welsh: (noun, feminine); suits are plural nouns after the rank (« brenhines rhawiau »).
_CY_RANK = {1: ("as", False), 11: ("gwas", False), 12: ("brenhines", True), 13: ("brenin", False)}
_CY_SUIT = {Suit.CLUBS: "clybiau", Suit.DIAMONDS: "diemwntau", Suit.HEARTS: "calonnau",
            Suit.SPADES: "rhawiau"}  # fmt: skip
_EN_RANK = {1: "ace", 11: "jack", 12: "queen", 13: "king"}
_EN_SUIT = {Suit.CLUBS: "clubs", Suit.DIAMONDS: "diamonds", Suit.HEARTS: "hearts",
            Suit.SPADES: "spades"}  # fmt: skip


def french(noun: str, feminine: bool, elides: bool) -> Phrase:
    """A French noun phrase with its articles: ``french("as", False, True).of_the == "de l'as"``."""
    if elides:
        the, of_the, to_the, neg = f"l’{noun}", f"de l’{noun}", f"à l’{noun}", f"d’{noun}"
    elif feminine:
        the, of_the, to_the, neg = f"la {noun}", f"de la {noun}", f"à la {noun}", f"de {noun}"
    else:
        the, of_the, to_the, neg = f"le {noun}", f"du {noun}", f"au {noun}", f"de {noun}"
    forms = {
        "the": the,
        "a": f"{'une' if feminine else 'un'} {noun}",
        "of_the": of_the,
        "to_the": to_the,
        "neg": neg,
        "it": "la" if feminine else "le",
        "e": "e" if feminine else "",
    }
    return Phrase(noun, forms)


def welsh(noun: str, feminine: bool | None = None) -> Phrase:
    """A Welsh noun phrase with its mutations and article: ``welsh("brenhines", True).soft ==
    "frenhines"``, ``.the == "y frenhines"``; ``welsh("gornest").the == "yr ornest"`` (the
    gender of a noun of :data:`GENDER_CY` need not be given)."""
    head = noun.split(" ", 1)[0]
    if feminine is None:
        feminine = GENDER_CY.get(head.lower(), False)
    after_article = _first(noun, soft) if feminine and not head.startswith(("ll", "rh")) else noun
    # the article is chosen by the word it stands before, after its mutation (« yr ornest »)
    first = after_article.split(" ", 1)[0]
    vowel = first[:1].lower() in "aeiouwyâêîôûŵŷ" or first[:1].lower() == "h"
    vowel = vowel or first in ("1", "8", "11", "18")
    forms = {
        "the": f"{'yr' if vowel else 'y'} {after_article}",
        "a": noun,
        "soft": _first(noun, soft),
        "asp": _first(noun, aspirate),
        "nas": _first(noun, nasal),
        "e": "",
    }
    return Phrase(noun, forms)


def english(noun: str) -> Phrase:
    """An English noun phrase: ``.the`` and ``.a``/``.an``."""
    vowel = noun[:1] in "aeiou" or noun.split(" ", 1)[0] in ("8", "11", "18")
    return Phrase(noun, {"the": f"the {noun}", "a": f"{'an' if vowel else 'a'} {noun}"})


def rank_phrase(rank: int, lang: str) -> Phrase:
    """A rank as a noun phrase: ``queen`` / ``dame`` / ``brenhines`` (``7`` in every language)."""
    rank = int(rank)
    if lang == "fr":
        noun, fem, elides = _FR_RANK.get(rank, (str(rank), False, False))
        return french(noun, fem, elides)
    if lang == "cy":
        noun_cy, fem_cy = _CY_RANK.get(rank, (str(rank), False))
        return welsh(noun_cy, fem_cy)
    return english(_EN_RANK.get(rank, str(rank)))


def card_phrase(card: Card | str, lang: str) -> Phrase:
    """A card as a noun phrase: ``the queen of spades`` / ``la dame de pique`` / ``y frenhines
    rhawiau`` (and every other form)."""
    if isinstance(card, str):
        card = Card.parse(card)
    rank = int(card.rank)
    if lang == "fr":
        noun, fem, elides = _FR_RANK.get(rank, (str(rank), False, False))
        return french(f"{noun} de {_FR_SUIT[card.suit]}", fem, elides)
    if lang == "cy":
        noun_cy, fem_cy = _CY_RANK.get(rank, (str(rank), False))
        return welsh(f"{noun_cy} {_CY_SUIT[card.suit]}", fem_cy)
    return english(f"{_EN_RANK.get(rank, str(rank))} of {_EN_SUIT[card.suit]}")


def word_phrase(word: str, lang: str, *, feminine: bool = False, elides: bool = False) -> Phrase:
    """Any other noun (a game's name, a pile) with the forms of ``lang``."""
    if lang == "fr":
        return french(word, feminine, elides)
    if lang == "cy":
        return welsh(word, feminine)
    return english(word)


# ----------------------------------------------------------------------------- printed cards

RANK_LETTERS: dict[str, dict[int, str]] = {"fr": {11: "V", 12: "D", 13: "R"}}
"""The letters on the court cards where a language has its own: French packs print V, D, R
(valet, dame, roi; the ace keeps A). Welsh packs are printed with the English indices (A, K,
Q, J), and the Welsh source text of the real-time games lists the ranks the same way
(« SAFON CARDIAU: A, K, Q, J, 10 … »): a Welsh player reads those letters on the cards, so
Welsh keeps them."""


def printed(card: Card | str, lang: str) -> str:
    """A card as printed in ``lang``: ``7♦``, ``Q♠`` (French ``D♠``, the letters of its packs)."""
    card = Card.parse(card) if isinstance(card, str) else card
    letter = RANK_LETTERS.get(lang, {}).get(int(card.rank))
    return card.pretty if letter is None else letter + card.pretty[len(card.rank.symbol) :]


# ----------------------------------------------------------------------------- Welsh numbers

COUNT_NOUNS_CY: dict[str, tuple[bool, str]] = {
    "bot": (False, "botiau"),
    "bwrdd": (False, "byrddau"),
    "cerdyn": (False, "cardiau"),
    "chwaraewr": (False, "chwaraewyr"),
    "cofnod": (False, "cofnodion"),
    "cylchdro": (False, "cylchdroeon"),
    "dadansoddiad": (False, "dadansoddiadau"),
    "deliad": (False, "deliadau"),
    "eiliad": (True, "eiliadau"),
    "eitem": (True, "eitemau"),
    "gêm": (True, "gemau"),
    "gornest": (True, "gornestau"),
    "jeton": (False, "jetonau"),
    "munud": (False, "munudau"),
    "nod": (False, "nodau"),
    "penderfyniad": (False, "penderfyniadau"),
    "pwynt": (False, "pwyntiau"),
    "rownd": (True, "rowndiau"),
    "sedd": (True, "seddi"),
    "sglodyn": (False, "sglodion"),
    "tudalen": (True, "tudalennau"),
}
"""Welsh nouns counted in the catalogs: noun -> (feminine, plural)."""

GENDER_CY: dict[str, bool] = {
    **{noun: fem for noun, (fem, _plural) in COUNT_NOUNS_CY.items()},
    "fersiwn": True,
    "brenhines": True,
    "llaw": True,
}
"""Welsh nouns and their gender (True: feminine), for :func:`welsh` without one given."""


def count_cy(n: int, noun: str) -> str:
    """A number and a Welsh noun, as written with digits: the singular after the number, mutated
    as the number spoken would (``2 gerdyn``, ``2 ornest``, ``3 cherdyn``, ``3 gornest``, ``6
    cherdyn``), and ``o`` with the plural for 0 and large numbers (``0 o gardiau``, ``20 o
    gardiau``)."""
    feminine, plural = COUNT_NOUNS_CY[noun]
    if n == 2:
        return f"2 {soft(noun)}"
    if n == 3:
        return f"3 {noun}" if feminine else f"3 {aspirate(noun)}"
    if n == 6:
        return f"6 {aspirate(noun)}"
    if n == 1:
        return f"1 {soft(noun)}" if feminine and not noun.startswith(("ll", "rh")) else f"1 {noun}"
    if n == 0 or n > 10:
        return f"{n} o {soft(plural)}"
    return f"{n} {noun}"
