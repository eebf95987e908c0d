"""Actions as integers and a seat's view as numbers: the encodings every research API shares.

Everything here is computed from a :class:`~cardroom.games.nain_jaune.view.RoundView` (what one
seat may see), never from the round itself, so an encoded observation cannot carry a hidden card.

Actions (54 ids):

* ``0..51``: play the card with that index (``Card.index``: clubs A..K, diamonds, hearts, spades);
* ``52``: pass, i.e. announce "without X" (also: decline the last box with ``announce=manual``);
* ``53``: claim the box of the board card just played (``announce=manual``).

Seats in an encoded observation are *relative*: index 0 is the observing seat, 1 the seat after
it in turn order, and so on, so one policy can play from any seat.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import SupportsInt

import numpy as np

from cardroom.cards import DECK
from cardroom.games.nain_jaune.engine import CLAIM, PASS, Action, Claim, Pass, Play, Takes
from cardroom.games.nain_jaune.rules import HAND_SIZES, Rules
from cardroom.games.nain_jaune.view import RoundView

ACTION_COUNT = 54
"""Size of the action space: 52 card plays, pass, claim."""
PASS_ACTION = 52
CLAIM_ACTION = 53
_PLAYS: tuple[Play, ...] = tuple(Play(c) for c in DECK)


class UnknownAction(ValueError):
    """An action id outside ``0..53``."""


def action_id(action: Action) -> int:
    """The integer id of an engine action (an unannounced play has no id: see the module doc)."""
    if isinstance(action, Play):
        if action.forget:
            raise UnknownAction(
                "an unannounced play has no action id: play the card, then pass instead of claim"
            )
        return action.card.index
    if isinstance(action, Pass):
        return PASS_ACTION
    if isinstance(action, Claim):
        return CLAIM_ACTION
    raise UnknownAction(f"{action!r} is not a Nain Jaune action")


def action_from_id(value: SupportsInt) -> Action:
    """The engine action of an id in ``0..53`` (numpy integers are accepted)."""
    try:
        index = int(value)
    except (TypeError, ValueError):
        raise UnknownAction(f"action {value!r} must be a whole number from 0 to 53") from None
    if index != value or not 0 <= index < ACTION_COUNT:
        raise UnknownAction(f"action {value!r} must be a whole number from 0 to 53")
    if index == PASS_ACTION:
        return PASS
    if index == CLAIM_ACTION:
        return CLAIM
    return _PLAYS[index]


def action_label(value: int) -> str:
    """``QS``, ``pass`` or ``claim``."""
    return str(action_from_id(value))


def legal_ids(view: RoundView) -> list[int]:
    """The seat's legal action ids, ascending (empty unless it is the seat's turn)."""
    return sorted(action_id(a) for a in view.legal_actions)


def action_mask(view: RoundView) -> np.ndarray:
    """A fresh int8 array of 54 entries, 1 where the action is legal for the seat now."""
    mask = np.zeros(ACTION_COUNT, dtype=np.int8)
    for a in view.legal_actions:
        mask[action_id(a)] = 1
    return mask


# ----------------------------------------------------------------------------- observations

RULE_BITS = 10
"""when_blocked=free-restart, payment (3), forgotten=double-box, announce=manual,
grand_opera (3), may_stop."""
_PAYMENTS = ("points-ace-low", "card-count", "points-ace-high")
_OPERAS = ("one-turn", "no-one-else-played", "off")


def public_pieces(n: int) -> list[tuple[str, tuple[int, ...]]]:
    """Name and shape of every public piece of an observation, in order, for ``n`` seats."""
    return [
        ("played_by", (n, 52)),
        ("need", (14,)),
        ("to_act", (n,)),
        ("leader", (n,)),
        ("dealer", (n,)),
        ("hand_sizes", (n,)),
        ("without", (n, 13)),
        ("chips", (n,)),
        ("board", (5,)),
        ("claimed", (5,)),
        ("forgotten", (5,)),
        ("winner", (n,)),
        ("rules", (RULE_BITS,)),
        ("board_cards", (52,)),
    ]


def observation_pieces(n: int) -> list[tuple[str, tuple[int, ...]]]:
    """The pieces of the flat observation of the PettingZoo and Gymnasium environments."""
    return [("hand", (52,)), ("pending_claim", (5,)), *public_pieces(n)]


def observation_size(n: int) -> int:
    """Length of the flat observation vector for ``n`` seats (``148 + 71 n``)."""
    return sum(math.prod(shape) for _, shape in observation_pieces(n))


@dataclass
class Layout:
    """A flat float32 tensor and named views into it (the OpenSpiel observer convention)."""

    tensor: np.ndarray
    parts: dict[str, np.ndarray]

    @classmethod
    def build(cls, pieces: list[tuple[str, tuple[int, ...]]]) -> Layout:
        """Allocate the tensor for ``pieces`` (name, shape) in order."""
        sizes = [math.prod(shape) for _, shape in pieces]
        tensor = np.zeros(sum(sizes), dtype=np.float32)
        parts: dict[str, np.ndarray] = {}
        start = 0
        for (name, shape), size in zip(pieces, sizes, strict=True):
            parts[name] = tensor[start : start + size].reshape(shape)
            start += size
        return cls(tensor, parts)


def rule_bits(rules: Rules) -> np.ndarray:
    """The ten rule bits (see :data:`RULE_BITS`)."""
    bits = np.zeros(RULE_BITS, dtype=np.float32)
    bits[0] = rules.when_blocked == "free-restart"
    bits[1 + _PAYMENTS.index(rules.payment)] = 1
    bits[4] = rules.forgotten_announcement == "double-box"
    bits[5] = rules.announce == "manual"
    bits[6 + _OPERAS.index(rules.grand_opera)] = 1
    bits[9] = rules.may_stop
    return bits


def write_view(view: RoundView, parts: Mapping[str, np.ndarray], hand: str = "hand") -> None:
    """Fill every piece of ``parts`` named in :func:`observation_pieces` from ``view``.

    Pieces that ``parts`` does not have are skipped (an OpenSpiel public observer has no hand).
    ``hand`` names the piece the seat's own cards go to. Pieces are zeroed first.
    """
    for array in parts.values():
        array.fill(0)
    n, me = view.players, view.seat

    def rel(seat: int) -> int:
        return (seat - me) % n

    def put(name: str) -> np.ndarray | None:
        return parts.get(name)

    if (a := put(hand)) is not None:
        for c in view.hand:
            a[c.index] = 1
    if (a := put("pending_claim")) is not None and view.pending_claim is not None:
        a[view.rules.board_cards.index(view.pending_claim)] = 1
    if (a := put("played_by")) is not None:
        for seat, c in view.played:
            a[rel(seat), c.index] = 1
    live = view.winner is None
    if (a := put("need")) is not None and live:
        a[13 if view.need is None else view.need - 1] = 1
    if (a := put("to_act")) is not None and view.to_act is not None:
        a[rel(view.to_act)] = 1
    if (a := put("leader")) is not None and view.leader is not None:
        a[rel(view.leader)] = 1
    if (a := put("dealer")) is not None:
        a[rel(view.dealer)] = 1
    if (a := put("hand_sizes")) is not None:
        size = HAND_SIZES[n]
        for seat, k in enumerate(view.hand_sizes):
            a[rel(seat)] = k / size
    if (a := put("without")) is not None:
        for seat, rank in view.passes:
            a[rel(seat), rank - 1] = 1
    total = max(1, sum(view.chips) + sum(view.board))
    if (a := put("chips")) is not None:
        for seat, k in enumerate(view.chips):
            a[rel(seat)] = k / total
    if (a := put("board")) is not None:
        a[:] = np.asarray(view.board, dtype=np.float32) / total
    boxes = view.rules.board_cards
    if (a := put("claimed")) is not None:
        for event in view.events:
            if isinstance(event, Takes):
                a[boxes.index(event.card)] = 1
    if (a := put("forgotten")) is not None:
        for _, c in view.forgotten:
            a[boxes.index(c)] = 1
    if (a := put("winner")) is not None and view.winner is not None:
        a[rel(view.winner)] = 1
    if (a := put("rules")) is not None:
        a[:] = rule_bits(view.rules)
    if (a := put("board_cards")) is not None:
        for c in boxes:
            a[c.index] = 1


def encode_view(view: RoundView) -> np.ndarray:
    """The flat float32 observation of ``view`` (values in [0, 1]); a new array every call."""
    layout = Layout.build(observation_pieces(view.players))
    write_view(view, layout.parts)
    return layout.tensor


def describe_view(view: RoundView) -> str:
    """A short text of what the seat sees (for ``render`` and observation strings)."""
    n = view.players
    lines = [
        f"seat {view.seat} of {n}, dealer {view.dealer}",
        f"hand: {' '.join(c.code for c in view.hand) or '-'}",
        f"hand sizes: {' '.join(map(str, view.hand_sizes))}  talon: {view.talon_size}",
        f"chips: {' '.join(map(str, view.chips))}  board: {' '.join(map(str, view.board))}",
        "played: " + (" ".join(f"{s}:{c.code}" for s, c in view.played) or "-"),
        "without: " + (" ".join(f"{s}:{r}" for s, r in view.passes) or "-"),
    ]
    if view.winner is not None:
        lines.append(f"round over: seat {view.winner} went out")
    else:
        need = "any card" if view.need is None else f"a {view.need}"
        lines.append(f"to act: seat {view.to_act}, needs {need}")
    if view.legal_actions:
        lines.append("legal: " + " ".join(action_label(i) for i in legal_ids(view)))
    return "\n".join(lines)

