"""Nain Jaune as an OpenSpiel Python game, registered as ``python_nain_jaune``.

>>> try:
    import pyspiel
except ImportError as exc:  # pragma: no cover - depends on what is installed
    raise ImportError(
        f"{exc.name} is missing: install the research extra, in the cardroom project "
        "folder: pip install '.[research]'"
    ) from exc
>>> import cardroom.games.nain_jaune.research.openspiel_game  # registers the game
>>> game = pyspiel.load_game("python_nain_jaune(players=3,payment=card-count)")
>>> game.num_distinct_actions(), game.num_players()
(54, 3)

A game is one round: everyone starts with ``starting_chips``, the board is empty and the dealer
is ``dealer`` (default: the last seat, so player 0 opens). The deal is explicit: one chance node
per card dealt, in turn order from the seat after the dealer, each outcome a card id 0..51 with
equal probability; the undealt cards form the talon. Actions are the 54 ids of
:mod:`cardroom.games.nain_jaune.research.encoding`. Returns are chips won (after settling, minus
before the
stakes); the game is general-sum, since chips left on the board belong to nobody.

Observations and information states are computed from ``view_of(round, player)`` only.
``state.resample_from_infostate(player, sampler)`` deals the cards the player cannot see again,
consistently with what it knows (:mod:`cardroom.games.nain_jaune.research.resample`), and replays
the actions:
that is what OpenSpiel's ``ISMCTSBot`` needs. ``str(state)`` is a debugging dump of the true
state (every hand), as in every OpenSpiel game.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

try:
    import pyspiel
except ImportError as exc:  # pragma: no cover - depends on what is installed
    raise ImportError(
        f"{exc.name} is missing: install the research extra, in the cardroom project "
        "folder: pip install '.[research]'"
    ) from exc

from cardroom.cards import DECK
from cardroom.games.nain_jaune.engine import Round
from cardroom.games.nain_jaune.research.encoding import (
    ACTION_COUNT,
    Layout,
    action_from_id,
    action_label,
    describe_view,
    legal_ids,
    public_pieces,
    write_view,
)
from cardroom.games.nain_jaune.research.resample import initial_hands, sample_hidden
from cardroom.games.nain_jaune.research.table import chips_won, make_rules
from cardroom.games.nain_jaune.rules import HAND_SIZES, MAX_PLAYERS, MIN_PLAYERS, Rules
from cardroom.games.nain_jaune.view import RoundView, view_of

GAME_NAME = "python_nain_jaune"
_FROM_PRESET = "preset"
_PRESET_OPTIONS = ("when_blocked", "payment", "forgotten_announcement", "grand_opera")

_PARAMETERS: dict[str, Any] = {
    "players": 4,
    "preset": "classic",
    "dealer": -1,
    "starting_chips": 60,
    "when_blocked": _FROM_PRESET,
    "payment": _FROM_PRESET,
    "forgotten_announcement": _FROM_PRESET,
    "grand_opera": _FROM_PRESET,
    "announce": "auto",
    "may_stop": False,
    "board_cards": "standard",
}
"""``preset`` for an option means: as the preset says. ``dealer=-1``: the last seat deals."""

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Nain Jaune (cardroom)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMETERS,
)


def rules_from_parameters(params: dict[str, Any]) -> Rules:
    """The :class:`Rules` that OpenSpiel game parameters stand for."""
    options: dict[str, Any] = {
        "starting_chips": params["starting_chips"],
        "announce": params["announce"],
        "may_stop": params["may_stop"],
        "board_cards": params["board_cards"],
    }
    for name in _PRESET_OPTIONS:
        if params[name] != _FROM_PRESET:
            options[name] = params[name]
    return make_rules(str(params["preset"]), options)


def max_player_moves(players: int) -> int:
    """An upper bound on player moves in one round.

    Each of the ``players * hand`` cards is played once; between two cards at most 13 full
    turns of passes go by (the needed rank rises by one per turn, and after the king the
    leader must play); plus five claims and the final pass.
    """
    cards = players * HAND_SIZES[players]
    return cards * (1 + 13 * players) + 6


class NainJauneGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game (see the module docstring for parameters and conventions)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = dict(_PARAMETERS)
        merged.update(params or {})
        n = int(merged["players"])
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise ValueError(f"players={n}: Nain Jaune is played by 2 to 8 players")
        rules = rules_from_parameters(merged)
        dealer = int(merged["dealer"])
        if dealer == -1:
            dealer = n - 1
        if not 0 <= dealer < n:
            raise ValueError(f"dealer={dealer}: use -1 (the last seat) or 0..{n - 1}")
        chips = rules.starting_chips
        info = pyspiel.GameInfo(
            num_distinct_actions=ACTION_COUNT,
            max_chance_outcomes=52,
            num_players=n,
            min_utility=float(-chips),
            max_utility=float((n - 1) * chips),
            utility_sum=None,
            max_game_length=n * HAND_SIZES[n] + max_player_moves(n),
        )
        super().__init__(_GAME_TYPE, info, params or {})
        self.rules = rules
        self.players = n
        self.dealer = dealer
        self.cards_dealt = n * HAND_SIZES[n]

    def new_initial_state(self) -> NainJauneState:
        """A state before the deal (a chance node)."""
        return NainJauneState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> NainJauneObserver:
        """An observer for observation (default) or information-state (perfect recall) types."""
        return NainJauneObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
            self.players,
            params,
        )

    def seat_of_deal(self, k: int) -> int:
        """The seat that receives the ``k``-th card dealt."""
        return (self.dealer + 1 + k) % self.players


class _RoundBox:
    """Holds the engine round; copies itself with :meth:`Round.clone` (OpenSpiel clones a lot)."""

    __slots__ = ("round",)

    def __init__(self, rnd: Round) -> None:
        self.round = rnd

    def __deepcopy__(self, memo: dict[int, Any]) -> _RoundBox:
        return _RoundBox(self.round.clone())

    def __getstate__(self) -> Round:
        return self.round

    def __setstate__(self, state: Round) -> None:
        self.round = state


class NainJauneState(pyspiel.State):  # type: ignore[misc]
    """A state of one round: the deal (chance nodes), then the engine's round."""

    def __init__(self, game: NainJauneGame) -> None:
        super().__init__(game)
        self._players = game.players
        self._dealer = game.dealer
        self._to_deal = game.cards_dealt
        self._rules = game.rules
        self._dealt: list[int] = []
        self._box: _RoundBox | None = None

    # -- the engine round ---------------------------------------------------------------

    @property
    def round(self) -> Round | None:
        """The engine round, once every card is dealt."""
        return None if self._box is None else self._box.round

    def view(self, player: int) -> RoundView | None:
        """``view_of(round, player)``, or None during the deal."""
        rnd = self.round
        return None if rnd is None else view_of(rnd, player)

    def dealt_to(self, player: int) -> list[int]:
        """The cards dealt to ``player`` so far, in the order dealt."""
        return [c for k, c in enumerate(self._dealt) if self._seat_of_deal(k) == player]

    def _seat_of_deal(self, k: int) -> int:
        return (self._dealer + 1 + k) % self._players

    # -- OpenSpiel API ------------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to act, CHANCE during the deal, TERMINAL once settled."""
        rnd = self.round
        if rnd is None:
            return int(pyspiel.PlayerId.CHANCE)
        if rnd.result is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        return rnd.to_act

    def _legal_actions(self, player: int) -> list[int]:
        rnd = self.round
        assert rnd is not None and player == rnd.to_act
        return legal_ids(view_of(rnd, player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Every card not dealt yet, with equal probability."""
        dealt = set(self._dealt)
        left = [i for i in range(52) if i not in dealt]
        p = 1.0 / len(left)
        return [(i, p) for i in left]

    def _apply_action(self, action: int) -> None:
        if self._box is None:
            self._dealt.append(int(action))
            if len(self._dealt) == self._to_deal:
                self._start_round()
            return
        self._box.round.apply(action_from_id(action))

    def _start_round(self) -> None:
        n = self._players
        hands: list[list[Any]] = [[] for _ in range(n)]
        for k, card in enumerate(self._dealt):
            hands[self._seat_of_deal(k)].append(DECK[card])
        dealt = set(self._dealt)
        talon = [c for c in DECK if c.index not in dealt]
        rules = self._rules
        rnd = Round(rules, [rules.starting_chips] * n, [0] * 5, self._dealer, hands, talon)
        self._box = _RoundBox(rnd)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {DECK[action].code}"
        return action_label(action)

    def is_terminal(self) -> bool:
        """True once the round is settled."""
        rnd = self.round
        return rnd is not None and rnd.result is not None

    def returns(self) -> list[float]:
        """Chips won by each seat (zeros until the end)."""
        rnd = self.round
        if rnd is None:
            return [0.0] * self._players
        return [float(chips_won(rnd, s)) for s in range(self._players)]

    def __str__(self) -> str:
        rnd = self.round
        if rnd is None:
            return "dealing: " + " ".join(DECK[c].code for c in self._dealt)
        hands = " | ".join(" ".join(c.code for c in h) for h in rnd.hands)
        moves = " ".join(f"{s}:{c.code}" for s, c in rnd.played)
        return (
            f"hands: {hands}\ntalon: {' '.join(c.code for c in rnd.talon)}\n"
            f"chips: {rnd.chips} board: {rnd.board}\nplayed: {moves}\n"
            f"to act: {rnd.to_act} need: {rnd.need} over: {rnd.result is not None}"
        )

    # -- resampling ---------------------------------------------------------------------

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> NainJauneState:
        """A state the player cannot tell from this one, the hidden cards dealt afresh.

        ``probability_sampler()`` returns uniform numbers in [0, 1) (OpenSpiel's
        ``UniformProbabilitySampler``); every random choice is drawn from it.
        """
        if self.is_terminal():
            raise ValueError("a finished round reveals payments: resample before the end")
        rng = _SamplerRandom(probability_sampler)
        game = self.get_game()
        history = list(self.history())
        player_moves = history[len(self._dealt) :]
        deal = list(self._dealt)
        if self.round is None:
            mine = set(self.dealt_to(player_id))
            pool = [i for i in range(52) if i not in mine]
            rng.shuffle(pool)
            for k in range(len(deal)):
                if self._seat_of_deal(k) != player_id:
                    deal[k] = pool.pop()
        else:
            view = view_of(self.round, player_id)
            hands, _ = sample_hidden(view, rng)
            start = initial_hands(view, hands)
            queues: list[list[int]] = []
            for cards in start:
                ids = [c.index for c in cards]
                rng.shuffle(ids)
                queues.append(ids)
            for k in range(len(deal)):
                seat = self._seat_of_deal(k)
                if seat != player_id:
                    deal[k] = queues[seat].pop()
        state: NainJauneState = game.new_initial_state()
        for action in deal + player_moves:
            state.apply_action(action)
        return state


class _SamplerRandom(random.Random):
    """A ``random.Random`` whose every draw comes from an OpenSpiel probability sampler."""

    def __init__(self, sampler: Callable[[], float]) -> None:
        self._sampler = sampler
        super().__init__(0)

    def random(self) -> float:
        return float(self._sampler())


class NainJauneObserver:
    """OpenSpiel's PyObserver for Nain Jaune: tensors and strings from a seat's view.

    Pieces: ``player`` (one-hot, absolute seat); the private ``hand`` (or, for an all-players
    observer, ``hands``: every seat's hand, relative seats); ``pending_claim``; the public
    pieces of :func:`cardroom.games.nain_jaune.research.encoding.public_pieces`; with perfect
    recall also
    ``play_order`` (the k-th card played has value k/52), which with the rest determines the
    whole history of the round.
    """

    def __init__(self, iig_obs_type: Any, players: int, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        self.players = players
        self.private = iig_obs_type.private_info
        self.public = bool(iig_obs_type.public_info)
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        pieces: list[tuple[str, tuple[int, ...]]] = [("player", (players,))]
        if self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            pieces += [("hand", (52,)), ("pending_claim", (5,))]
        elif self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            pieces += [("hands", (players, 52)), ("pending_claim", (5,))]
        if self.public:
            pieces += public_pieces(players)
            if self.perfect_recall:
                pieces.append(("play_order", (52,)))
        layout = Layout.build(pieces)
        self.tensor = layout.tensor
        self.dict = layout.parts

    def set_from(self, state: NainJauneState, player: int) -> None:
        """Fill ``tensor`` with what ``player`` knows of ``state``."""
        view = state.view(player)
        if view is None:
            self.tensor.fill(0)
            self.dict["player"][player] = 1
            if "hand" in self.dict:
                for card_id in state.dealt_to(player):
                    self.dict["hand"][card_id] = 1
            return
        write_view(view, self.dict)
        self.dict["player"][player] = 1
        if "hands" in self.dict:
            for seat in range(self.players):
                rel = (seat - player) % self.players
                for c in view_of(_round_of(state), seat).hand:
                    self.dict["hands"][rel, c.index] = 1
        if "play_order" in self.dict:
            for k, (_, c) in enumerate(view.played):
                self.dict["play_order"][c.index] = (k + 1) / 52

    def string_from(self, state: NainJauneState, player: int) -> str:
        """What ``player`` knows of ``state`` as text (the whole history with perfect recall)."""
        view = state.view(player)
        head = f"p{player}"
        if view is None:
            if self.private == pyspiel.PrivateInfoType.NONE:
                return f"{head} dealing"
            return f"{head} dealing: " + " ".join(DECK[c].code for c in state.dealt_to(player))
        parts = [head]
        if self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            parts.append("hand: " + " ".join(c.code for c in view.hand))
            if view.pending_claim is not None:
                parts.append(f"to claim: {view.pending_claim.code}")
        elif self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            rnd = _round_of(state)
            for seat in range(self.players):
                hand = view_of(rnd, seat).hand
                parts.append(f"hand {seat}: " + " ".join(c.code for c in hand))
        if self.public:
            if self.perfect_recall:
                parts.append("moves: " + " ".join(_moves_of(state)))
            parts.append(_public_text(view))
        return " | ".join(parts)


def _round_of(state: NainJauneState) -> Round:
    rnd = state.round
    assert rnd is not None
    return rnd


def _moves_of(state: NainJauneState) -> list[str]:
    """Every player action so far as ``seat:action`` (all of them are public)."""
    out = []
    for item in state.full_history()[len(state._dealt) :]:
        out.append(f"{item.player}:{action_label(item.action)}")
    return out


def _public_text(view: RoundView) -> str:
    text = describe_view(view).split("\n")
    keep = [line for line in text if not line.startswith(("hand:", "legal:", "seat "))]
    return " / ".join(keep)


pyspiel.register_game(_GAME_TYPE, NainJauneGame)

__all__ = ["GAME_NAME", "NainJauneGame", "NainJauneObserver", "NainJauneState"]
