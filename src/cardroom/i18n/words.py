"""Card names and the words of the table's events, in each language.

The rules engines keep their English ``describe()``; everything a person reads goes through
:func:`event_text` (structured events: ``{"kind": "without", "seat": 2, "rank": 7}``, the shape
of the table frames) or :func:`engine_event_text` (the engine's event objects).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from typing import Any

from cardroom.cards import Card, Rank, Suit
from cardroom.i18n import Translator, translator
from cardroom.i18n.names import shown_name


def N_(message: str) -> str:
    """Mark ``message`` for translation where it is defined (it is translated where used)."""
    return message


YELLOW_DWARF = "7D"
_FACE = {1: N_("ace"), 11: N_("jack"), 12: N_("queen"), 13: N_("king")}
_SUIT = {
    Suit.CLUBS: N_("clubs"),
    Suit.DIAMONDS: N_("diamonds"),
    Suit.HEARTS: N_("hearts"),
    Suit.SPADES: N_("spades"),
}
_WITHOUT = {
    1: N_("without ace"),
    11: N_("without jack"),
    12: N_("without queen"),
    13: N_("without king"),
}
_TAKES = {
    1: N_("ace who takes"),
    11: N_("jack who takes"),
    12: N_("queen who takes"),
    13: N_("king who takes"),
}
_A_RANK_DEFAULT = N_("a {rank}")
_A_RANK = {
    1: N_("an ace"),
    8: N_("an {rank}"),
    11: N_("a jack"),
    12: N_("a queen"),
    13: N_("a king"),
}


EARLIER_RULES: dict[tuple[str, int], str] = {
    ("speed", 1): N_(
        "Played under the earliest rules of Speed (version 1, before 23 November 2026): as "
        "under version 2, the flip came as soon as neither player could play and its countdown "
        "ran from that moment, a game nobody could finish ended at once, and the winner scored "
        "the cards left in the loser's hand and draw pile; besides, when neither could play "
        "again right after a flip both had called, the countdown went on from before instead "
        "of starting again."
    ),
    ("speed", 2): N_(
        "Played under the earlier rules of Speed (version 2, before 23 November 2026): the flip "
        "came as soon as neither player could play and its countdown ran from that moment, a "
        "game nobody could finish ended at once, and the winner scored the cards left in the "
        "loser's hand and draw pile."
    ),
    ("spit", 1): N_(
        "Played under the earlier rules of Spit (version 1, before 23 November 2026): when "
        "neither player could move again right after a “Spit!” both had called, the countdown "
        "went on from before instead of starting again."
    ),
}
"""What was different under each earlier version of a game's rules (the games' ``RULES_VERSION``
docs say when it changed); a record played under one of them is replayed under it."""


def rules_note(game: str, version: int, lang: str | Translator | None = None) -> str | None:
    """The line that says a record was played under earlier rules (None: today's rules)."""
    text = EARLIER_RULES.get((game, version))
    return None if text is None else tr_of(lang)._(text)


def tr_of(lang: str | Translator | None) -> Translator:
    """A translator from a language code (or the translator itself)."""
    return lang if isinstance(lang, Translator) else translator(lang)


def rank_name(rank: int, lang: str | Translator | None = None) -> str:
    """``ace``, ``2`` … ``10``, ``jack``, ``queen``, ``king`` (``as``, ``valet``, ``dame`` …)."""
    face = _FACE.get(int(rank))
    return tr_of(lang)._(face) if face else str(int(rank))


def a_rank(rank: int, lang: str | Translator | None = None) -> str:
    """``a 7``, ``an 8``, ``an ace``, ``a queen`` (``une dame`` …)."""
    return tr_of(lang)._(_A_RANK.get(int(rank), _A_RANK_DEFAULT), rank=int(rank))


def suit_name(suit: Suit, lang: str | Translator | None = None) -> str:
    """``clubs``, ``diamonds`` … in the language."""
    return tr_of(lang)._(_SUIT[suit])


def card_name(card: Card | str, lang: str | Translator | None = None) -> str:
    """The card in words: ``queen of spades``, ``dame de pique``, ``brenhines rhawiau``."""
    if isinstance(card, str):
        card = Card.parse(card)
    tr = tr_of(lang)
    return tr._("{rank} of {suit}", rank=rank_name(card.rank, tr), suit=suit_name(card.suit, tr))


def without_call(rank: int, lang: str | Translator | None = None) -> str:
    """The announcement ``without 7`` / ``sans 7`` / ``heb 7``."""
    tr = tr_of(lang)
    special = _WITHOUT.get(int(rank))
    return tr._(special) if special else tr._("without {rank}", rank=int(rank))


def takes_call(card: Card | str, lang: str | Translator | None = None) -> str:
    """``queen who takes``, ``Yellow Dwarf who takes`` (``Nain Jaune qui prend``)."""
    if isinstance(card, str):
        card = Card.parse(card)
    tr = tr_of(lang)
    if card.code == YELLOW_DWARF:
        return tr._("Yellow Dwarf who takes")
    special = _TAKES.get(int(card.rank))
    return tr._(special) if special else tr._("{rank} who takes", rank=int(card.rank))


def pretty(card: Card | str) -> str:
    """``7♦`` (the same in every language)."""
    return (Card.parse(card) if isinstance(card, str) else card).pretty


_NOBODY_PLAYED = re.compile(r"nobody played an? (\w+)")
_ROUNDS = re.compile(r"(\d+) rounds played")
_REACHED = re.compile(r"reached (\d+) chips")
_REASONS = {
    "a player could not pay in full": N_("a player could not pay in full"),
    "a player cannot stake for the next round": N_("a player cannot stake for the next round"),
    "only one player can still stake": N_("only one player can still stake"),
    "nobody can stake": N_("nobody can stake"),
}


def _rank_from_label(label: str) -> int:
    for value, face in _FACE.items():
        if label == face:
            return value
    return Rank(int(label)).value


def sequence_reason(reason: str, lang: str | Translator | None = None) -> str:
    """Why a new sequence starts (the engine's English reason, translated)."""
    tr = tr_of(lang)
    if reason == "after a king":
        return tr._("after a king")
    if reason == "nobody has a king":
        return tr._("nobody has {a_rank}", a_rank=a_rank(13, tr))
    m = _NOBODY_PLAYED.fullmatch(reason)
    if m:
        return tr._("nobody played {a_rank}", a_rank=a_rank(_rank_from_label(m.group(1)), tr))
    return reason


def game_over_reason(reason: str, lang: str | Translator | None = None) -> str:
    """Why the game ended (the engine's English reason, translated)."""
    tr = tr_of(lang)
    if reason in _REASONS:
        return tr._(_REASONS[reason])
    m = _ROUNDS.fullmatch(reason)
    if m:
        return tr.ngettext("{n} round played", "{n} rounds played", int(m.group(1)))
    m = _REACHED.fullmatch(reason)
    if m:
        return tr.ngettext("reached {n} chip", "reached {n} chips", int(m.group(1)))
    return reason


def stakes_text(
    stakes: Mapping[int, int],
    name: Callable[[int], str],
    per_round: int,
    lang: str | Translator | None = None,
) -> str:
    """``Stakes: 15 chips each on the board`` or every player's amount when one ran short."""
    tr = tr_of(lang)
    if all(v == per_round for v in stakes.values()):
        return tr.ngettext(
            "Stakes: {n} chip each on the board", "Stakes: {n} chips each on the board", per_round
        )
    parts = [
        tr._("{name} {n}", name=name(s), n=v)
        if v == per_round
        else tr._("{name} {n} (all they had)", name=name(s), n=v)
        for s, v in sorted(stakes.items())
    ]
    return tr._("Stakes: {list}", list=", ".join(parts))


def event_text(
    event: Mapping[str, Any], name: Callable[[int], str], lang: str | Translator | None = None
) -> str:
    """One structured event in words; ``name(seat)`` gives a player's name.

    The kinds are those of the table frames (``play``, ``takes``, ``without`` …); an unknown kind
    gives its ``text`` as it is.
    """
    tr = tr_of(lang)
    kind = event.get("kind")
    seat = event.get("seat")
    who = name(seat) if isinstance(seat, int) else ""
    card: str = str(event.get("card") or "")
    if kind == "play":
        return tr._("{name} plays {card}", name=who, card=pretty(card))
    if kind == "takes":
        return tr.ngettext(
            '{name}: "{call}" ({n} chip)',
            '{name}: "{call}" ({n} chips)',
            event["amount"],
            name=who,
            call=takes_call(card, tr),
        )
    if kind == "forgot":
        return tr._("{name} forgot to announce {card}: the box stays", name=who, card=pretty(card))
    if kind == "without":
        return tr._('{name}: "{call}"', name=who, call=without_call(event["rank"], tr))
    passed = event.get("passed")
    if kind in ("next-rank", "new-sequence") and isinstance(passed, list) and passed:
        return without_run_text(event, [name(g) for g in passed], who, tr)
    if kind == "next-rank":
        rank = int(event["rank"])
        return tr._(
            "nobody has {a_rank}: {name} goes on with {rank}",
            a_rank=a_rank(rank, tr),
            name=who,
            rank=rank_name(rank + 1, tr),
        )
    if kind == "new-sequence":
        return tr._(
            "{name} starts a new sequence ({reason})",
            name=who,
            reason=sequence_reason(str(event.get("reason", "")), tr),
        )
    if kind == "out":
        return tr._("{name} has no card left and wins the round", name=who)
    if kind == "paid":
        payer, payee = name(event["payer"]), name(event["payee"])
        if event["paid"] == event["owed"]:
            return tr._(
                "{payer} pays {paid} to {payee}", payer=payer, payee=payee, paid=event["paid"]
            )
        return tr._(
            "{payer} pays {paid} of {owed} owed (all they have) to {payee}",
            payer=payer,
            payee=payee,
            paid=event["paid"],
            owed=event["owed"],
        )
    if kind == "doubled":
        fields_ = {"name": who, "card": pretty(card), "paid": event["paid"], "owed": event["owed"]}
        held = event.get("reason") == "held"
        if event["paid"] == event["owed"]:
            return (
                tr._("{name} still holds {card}: doubles its box, {paid}", **fields_)
                if held
                else tr._("{name} forgot to announce {card}: doubles its box, {paid}", **fields_)
            )
        if held:
            return tr._(
                "{name} still holds {card}: doubles its box, {paid} of {owed} (all they have)",
                **fields_,
            )
        return tr._(
            "{name} forgot to announce {card}: doubles its box, {paid} of {owed} (all they have)",
            **fields_,
        )
    if kind == "grand-opera":
        return tr.ngettext(
            "Grand opéra! {name} sweeps the board: {n} chip",
            "Grand opéra! {name} sweeps the board: {n} chips",
            event["amount"],
            name=who,
        )
    if kind == "stakes" and isinstance(event.get("stakes"), Mapping):
        stakes = {int(k): int(v) for k, v in event["stakes"].items()}
        return stakes_text(stakes, name, int(event.get("per_round", 0)), tr)
    if kind == "joined":
        return tr._("{name} sits down", name=who)
    if kind == "started":
        return tr._("the game starts")
    if kind == "round" and "dealer" in event:
        return tr._(
            "Round {number}: {dealer} deals, {opener} opens",
            number=int(event["k"]) + 1,
            dealer=name(event["dealer"]),
            opener=name(event["opener"]),
        )
    if kind == "round-over":
        return tr._("{name} wins the round", name=who)
    if kind == "game-over" and "reason" in event:
        winners = [name(g) for g in event["winners"]]
        return tr.ngettext(
            "Game over ({reason}): {names} wins",
            "Game over ({reason}): {names} win",
            len(winners),
            reason=game_over_reason(event["reason"], tr),
            names=tr.join(winners),
        )
    if kind == "takeover":
        return tr._("{name} is away: a bot plays for them", name=who)
    if kind == "returned":
        return tr._("{name} is back", name=who)
    if kind == "left":
        return tr._("{name} left the table: a bot plays for them", name=who)
    return str(event.get("text", ""))


def without_run_text(
    event: Mapping[str, Any], names: list[str], who: str, tr: Translator
) -> str:
    """A run of "without" calls ended by ``event`` (``next-rank`` or ``new-sequence``), in one
    line: "Ann, Bob and Cid have no queen: Dee goes on with a king"."""
    rank = int(event.get("passed_rank") or event.get("rank") or 0)
    fields_ = {"names": tr.join(names), "rank": rank_name(rank, tr), "a_rank": a_rank(rank, tr),
               "name": who}  # fmt: skip
    if event.get("kind") == "next-rank":
        nxt = int(event["rank"]) + 1
        return tr.ngettext(
            "{names} has no {rank}: {name} goes on with {a_next}",
            "{names} have no {rank}: {name} goes on with {a_next}",
            len(names), a_next=a_rank(nxt, tr), next=rank_name(nxt, tr), **fields_,
        )  # fmt: skip
    return tr.ngettext(
        "{names} has no {rank}: {name} starts a new sequence",
        "{names} have no {rank}: {name} starts a new sequence",
        len(names), **fields_,
    )  # fmt: skip


_ENGINE_KINDS = {
    "CardPlayed": "play",
    "Takes": "takes",
    "Forgot": "forgot",
    "Without": "without",
    "NextRank": "next-rank",
    "FreeSequence": "new-sequence",
    "OutOfCards": "out",
    "Paid": "paid",
    "Doubled": "doubled",
    "GrandOperaSwept": "grand-opera",
}


def engine_event_dict(event: object) -> dict[str, Any]:
    """A Nain Jaune engine event as a structured event (seats stay round positions)."""
    out: dict[str, Any] = {"kind": _ENGINE_KINDS.get(type(event).__name__, "")}
    for f in fields(event):  # type: ignore[arg-type]
        value = getattr(event, f.name)
        out[f.name] = value.code if isinstance(value, Card) else value
    if out["kind"] == "paid":
        out["seat"] = out["payer"]
    return out


def engine_event_text(
    event: object, names: Sequence[str], lang: str | Translator | None = None
) -> str:
    """A Nain Jaune engine event in words (``names`` by round position)."""
    return event_text(engine_event_dict(event), names.__getitem__, lang)


def localize_frame(frame: Mapping[str, Any], lang: str | Translator | None) -> dict[str, Any]:
    """A copy of a table ``state`` frame whose events' ``text`` is in ``lang`` (names from the
    frame's seats); other frames are returned as they are (copied)."""
    out = dict(frame)
    events = frame.get("events")
    if frame.get("type") != "state":
        return out
    tr = tr_of(lang)
    result = frame.get("game_result")
    if isinstance(result, Mapping) and isinstance(result.get("reason"), str):
        out["game_result"] = {**result, "reason": game_over_reason(result["reason"], tr)}
    if not events:
        return out
    names = {s.get("seat"): s.get("name") for s in frame.get("seats") or []}

    def name(seat: int) -> str:
        return shown_name(str(names.get(seat) or tr._("Seat {number}", number=seat + 1)), tr)

    out["events"] = [{**ev, "text": event_text(ev, name, tr)} for ev in events]
    return out
