"""A game of Nain Jaune between one person and bots in the terminal, on :class:`NainJauneTable`.

Every change (a deal, the person's action, a bot's action) is a log entry checked and applied by
the same state machine the web tables use; the log's sink is the game record, a JSON file
written atomically (temporary file, fsync, rename) after every entry, before the change is
shown. A failed save never ends the game: it is reported and retried after the next change.
The person sees only ``view_of(round, own seat)``; each bot only ``view_of(round, its seat)``
with its own ``random.Random(f"{seed}/seat/{i}")`` (deals use ``f"{seed}/deal/{k}"``).
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import json
import os
import random
import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal

from cardroom.bots.base import Bot
from cardroom.games.errors import RecordError as BaseRecordError
from cardroom.games.errors import RulesError
from cardroom.games.nain_jaune.engine import (
    CLAIM,
    PASS,
    Action,
    Event,
    Game,
    IllegalAction,
    Play,
    Round,
    RoundResult,
)
from cardroom.games.nain_jaune.record import RecordError, RoundRecord, parse_game, replay_game
from cardroom.games.nain_jaune.rules import Rules
from cardroom.games.nain_jaune.table import NainJauneTable, action_text
from cardroom.games.nain_jaune.view import RoundView, view_of
from cardroom.games.records import MAX_RECORD_BYTES, loads
from cardroom.i18n import Translator
from cardroom.i18n.reasons import table_error_text
from cardroom.i18n.words import tr_of
from cardroom.tables.config import SeatSpec, TableConfig, TableError

Phase = Literal["human", "bot", "round-over", "game-over"]


class InputError(ValueError):
    """Input the table refuses; the message says why and what to type instead."""


class RecordsError(ValueError):
    """The records folder or file cannot be used; the message says what to do."""


class ResumeError(ValueError):
    """A record cannot be resumed (unreadable, finished, or not a terminal game)."""


def reserve_record(
    records_dir: Path, seed: int, lang: str | Translator | None = None
) -> Path:
    """Create (exclusively) a new, empty record file for a game; two games never share one."""
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    try:
        records_dir.mkdir(parents=True, exist_ok=True)
        count = 1
        while True:
            suffix = "" if count == 1 else f"-{count}"
            path = records_dir / f"nain-jaune-{stamp}-seed{seed}{suffix}.json"
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                count += 1
                continue
            os.close(fd)
            return path
    except OSError as exc:
        raise RecordsError(
            tr_of(lang)._(
                "cannot write the game record in {folder}: {reason}; choose another folder "
                "with --records",
                folder=records_dir,
                reason=exc.strerror or exc,
            )
        ) from None


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a synced temporary file; no temporary is left."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


class Table:
    """One person (seat ``human``) against bots; seats are the game's seats."""

    def __init__(
        self,
        rules: Rules,
        names: Sequence[str],
        human: int,
        bots: dict[int, Bot],
        seed: int,
        records_dir: Path | None = None,
        *,
        path: Path | None = None,
        log: Sequence[tuple[str, dict[str, Any]]] = (),
        dealer: int | None = None,
        lang: str | Translator | None = None,
    ) -> None:
        """A new game (``records_dir``: a new record file in it), or with ``path`` and ``log``
        a resumed one (the entries rebuilt from that record; see :func:`resume`). ``lang`` is
        the language of the messages for the person (refusals, save notices)."""
        n = len(names)
        if sorted([human, *bots]) != list(range(n)):
            raise ValueError("every seat but the person's needs a bot")
        self.tr = tr_of(lang)
        self.seed = seed
        self.human = human
        self.bots = bots
        self.rngs = {seat: random.Random(f"{seed}/seat/{seat}") for seat in bots}
        self.labels: dict[int, str] = {}
        """A short description of each bot (its level or spec), by seat."""
        self.notices: list[str] = []
        """Messages for the person about saving (a UI shows and clears them)."""
        self._save_failed = False
        seats = tuple(
            SeatSpec("person", name=names[g])
            if g == human
            else SeatSpec("bot", getattr(bots[g], "name", "bot"), names[g])
            for g in range(n)
        )
        if human != 0:
            raise ValueError("the person sits at seat 0")
        try:
            config = TableConfig(
                rules=rules,
                seats=seats,
                seed=seed,
                takeover_after=0,
                bot_delay=0,
                next_round_after=0,
                public=False,
            )
        except TableError as exc:
            raise RulesError(exc.message) from None
        self.core = NainJauneTable("terminal")
        self._apply("created", {"config": config.to_json(), "tokens": {}}, save=False)
        first = random.Random(f"{seed}/dealer").randrange(n) if dealer is None else dealer
        self._apply("started", {"filled": [], "dealer": first}, save=False)
        for kind, data in log:
            self._apply(kind, data, save=False)
        self.path = path
        if path is None and records_dir is not None:
            self.path = reserve_record(records_dir, seed, self.tr)

    # -- the state, as the person may see it -----------------------------------

    @property
    def game(self) -> Game:
        """The :class:`Game` (chips, board, rounds, result)."""
        game = self.core.game
        assert game is not None
        return game

    @property
    def names(self) -> list[str]:
        """Every player's name, by game seat."""
        return self.core.names

    @property
    def round(self) -> Round | None:
        """The round being played or just finished (None before the first)."""
        return self.core.round

    @property
    def last_result(self) -> RoundResult | None:
        """How the round just finished ended (None while a round is being played)."""
        rnd = self.round
        return rnd.result if rnd is not None else None

    @property
    def round_names(self) -> list[str]:
        """The names of the round's seats (all players unless some dropped out)."""
        return self.core.round_names

    @property
    def human_pos(self) -> int | None:
        """The person's seat in the current round, or None if he dropped out."""
        seats = self.core.round_seats
        return seats.index(self.human) if self.human in seats else None

    def view(self) -> RoundView | None:
        """The person's view of the current round (None before the first or after dropping out)."""
        rnd, pos = self.round, self.human_pos
        if rnd is None or pos is None:
            return None
        return view_of(rnd, pos)

    def public_view(self) -> RoundView | None:
        """What anyone at the table sees of the current round: the person's own view, or (once
        he has dropped out) a seat's view with its hand and choices taken out."""
        rnd = self.round
        if rnd is None:
            return None
        pos = self.human_pos
        if pos is not None:
            return view_of(rnd, pos)
        return replace(view_of(rnd, 0), hand=(), legal_actions=(), pending_claim=None)

    @property
    def phase(self) -> Phase:
        """Who or what the table is waiting for."""
        if self.core.status == "over":
            return "game-over"
        turn = self.core.turn()
        if turn is None:
            return "round-over"
        return "human" if turn.seat == self.human else "bot"

    @property
    def to_act_name(self) -> str | None:
        """The name of the player to act, if a round is being played."""
        turn = self.core.turn()
        return None if turn is None else self.names[turn.seat]

    # -- moving the game on ----------------------------------------------------

    def start_round(self) -> list[Event]:
        """Deal the next round (``random.Random(f"{seed}/deal/{k}")``); returns its stake events."""
        if self.core.status == "over":
            raise InputError(self.tr._("the game is over"))
        self._apply("round", self.core.deal())
        rnd = self.round
        assert rnd is not None
        return list(rnd.events)

    def human_act(self, action: Action) -> list[Event]:
        """Apply the person's action; raises ``IllegalAction`` or :class:`InputError` unchanged."""
        if self.phase != "human":
            raise InputError(self._not_your_turn())
        return self._act(self.human, action, "person")

    def bot_act(self) -> list[Event]:
        """Let the bot to act choose from its own view and apply its action."""
        return self.bot_apply(self.bot_choose())

    def bot_choose(self) -> Action:
        """The action the bot to act chooses from its own view; changes nothing.

        Safe to call from a worker thread while the UI reads the table: the bot gets a view
        (a snapshot), and only :meth:`bot_apply` changes the round.
        """
        rnd = self.round
        turn = self.core.turn()
        if rnd is None or turn is None or turn.seat == self.human:
            raise InputError("no bot is to act now")
        action: Action = self.bots[turn.seat].act(view_of(rnd, rnd.to_act), self.rngs[turn.seat])
        return action

    def bot_apply(self, action: Action) -> list[Event]:
        """Apply an action chosen by :meth:`bot_choose`."""
        turn = self.core.turn()
        if turn is None or turn.seat == self.human:
            raise InputError("no bot is to act now")
        return self._act(turn.seat, action, "bot")

    def _act(self, seat: int, action: Action, by: str) -> list[Event]:
        rnd = self.round
        assert rnd is not None
        data: dict[str, Any] = {"seat": seat, "action": action_text(action), "by": by}
        if isinstance(action, Play) and action.forget:
            data["forget"] = True
        before = len(rnd.events)
        try:
            self._apply("action", data)
        except TableError as exc:
            if exc.code == "illegal":
                raise IllegalAction(action, exc.message) from None
            raise InputError(table_error_text(exc.code, exc.message, self.tr)) from None
        return rnd.events[before:]

    def _apply(self, kind: str, data: dict[str, Any], save: bool = True) -> None:
        entry = self.core.entry(kind, data, 0.0)
        self.core.apply(entry)
        if save:
            self.save()

    def _not_your_turn(self) -> str:
        phase, tr = self.phase, self.tr
        if phase == "bot":
            return tr._("it is {name}'s turn, not yours: wait", name=self.to_act_name)
        if phase == "round-over":
            return tr._("the round is over: type next (key n) for the next round")
        return tr._("the game is over")

    # -- records ---------------------------------------------------------------

    def record(self) -> list[dict[str, object]]:
        """The whole game so far: finished rounds, then the round in progress if any."""
        return self.core.record()

    def save(self) -> Path | None:
        """Write the record (atomically) if a round was dealt; returns its path.

        A failure is reported in :attr:`notices` (once) and retried at the next save; it never
        raises, so the game goes on.
        """
        if self.path is None or self.round is None:
            return None
        text = json.dumps(self.record(), ensure_ascii=False, indent=1)
        try:
            write_atomically(self.path, text)
        except OSError as exc:
            if not self._save_failed:
                self.notices.append(
                    self.tr._(
                        "Could not save the game to {path}: {reason}. Playing on; saving again "
                        "after the next move.",
                        path=self.path,
                        reason=exc.strerror or exc,
                    )
                )
            self._save_failed = True
            return None
        if self._save_failed:
            self.notices.append(self.tr._("The game is saved again to {path}.", path=self.path))
            self._save_failed = False
        return self.path

    def take_notices(self) -> list[str]:
        """The pending messages about saving, cleared."""
        out, self.notices = self.notices, []
        return out


# -- resuming a saved game ---------------------------------------------------------------

SEED_IN_NAME = re.compile(r"seed(\d+)")


def read_record(path: Path, lang: str | Translator | None = None) -> list[RoundRecord]:
    """The rounds of a saved game, checked by replaying them; raises :class:`ResumeError`."""
    tr = tr_of(lang)
    try:
        if path.stat().st_size > MAX_RECORD_BYTES:
            raise ResumeError(tr._("{path} is larger than {size} MiB: not a record", path=path,
                                   size=MAX_RECORD_BYTES >> 20))
        data = loads(path.read_bytes())
    except OSError as exc:
        raise ResumeError(
            tr._("cannot read {path}: {reason}", path=path, reason=exc.strerror or exc)
        ) from None
    except BaseRecordError as exc:
        raise ResumeError(
            tr._("{path} is not a JSON game record: {reason}", path=path, reason=exc)
        ) from None
    try:
        rounds = parse_game(data)
        replay_game(rounds)
    except RecordError as exc:
        raise ResumeError(
            tr._("{path} is not a valid game record: {reason}", path=path, reason=exc)
        ) from None
    if not rounds:
        raise ResumeError(tr._("{path} holds no round", path=path))
    return rounds


def round_log(record: RoundRecord, in_progress: bool = False) -> list[tuple[str, dict[str, Any]]]:
    """A record's round as actions (passes and claims made explicit) in the order the engine
    takes them; ``pos`` is a position in the round.

    A record keeps only the cards played: passes after the last card are asked again, and in a
    round still in progress (``in_progress``) the claim of its last card, when the player could
    still make it, is left to make (``announce=manual``).
    """
    rnd = record.new_round()
    entries: list[tuple[str, dict[str, Any]]] = []
    holder = {card: seat for seat, hand in enumerate(rnd.hands) for card in hand}

    def act(action: Action, forget: bool = False) -> None:
        data: dict[str, Any] = {"pos": rnd.to_act, "action": action_text(action)}
        if forget:
            data["forget"] = True
            action = Play(action.card, forget=True) if isinstance(action, Play) else action
        rnd.apply(action)
        entries.append(("action", data))

    last = len(record.moves) - 1
    for number, move in enumerate(record.moves):
        card = move.card
        if card is None:  # a voluntary "without" (may_stop): the forced passes, then it
            while not rnd.awaiting_final_claim and rnd.need is not None and not any(
                c.rank == rnd.need for c in rnd.hands[rnd.to_act]
            ):
                act(PASS)
            act(PASS)
            continue
        seat = holder[card]
        while not (rnd.to_act == seat and rnd.why_illegal(Play(card)) is None):
            act(PASS)
        if rnd.rules.announce == "manual":
            act(Play(card))
            if rnd.pending_claim is card:
                if move.announced:
                    if not (in_progress and number == last and not rnd.awaiting_final_claim):
                        act(CLAIM)
                elif rnd.awaiting_final_claim:
                    act(PASS)
        else:
            act(Play(card), forget=not move.announced)
    return entries


def resume(
    path: Path,
    bots_for: Any,
    seed: int | None = None,
    lang: str | Translator | None = None,
) -> Table:
    """Rebuild a terminal game from its saved record; ``bots_for(n)`` gives the bots by seat.

    The person is seat 0 of the record's first round. Raises :class:`ResumeError` if the record
    is unreadable or the game is already over.
    """
    tr = tr_of(lang)
    rounds = read_record(path, tr)
    first = rounds[0]
    names = list(first.players)
    n = len(names)
    if seed is None:
        found = SEED_IN_NAME.search(path.name)
        seed = int(found.group(1)) if found else random.SystemRandom().randrange(1_000_000)
    log: list[tuple[str, dict[str, Any]]] = []
    probe = Table(
        first.rules,
        names,
        0,
        {g: _Placeholder() for g in range(1, n)},
        seed,
        None,
        dealer=first.dealer,
    )
    for k, record in enumerate(rounds):
        core = probe.core
        game = core.game
        assert game is not None
        if core.status == "over":
            raise ResumeError(
                tr._("{path} goes on after the end of the game (round {number})", path=path,
                     number=k + 1)
            )
        seats = list(game.active)
        if (
            [names[s] for s in seats] != list(record.players)
            or seats.index(game.dealer) != record.dealer
            or [game.chips[s] for s in seats] != list(record.chips)
        ):
            raise ResumeError(
                tr._("{path}: round {number} does not follow the round before it", path=path,
                     number=k + 1)
            )
        deal = {
            "k": k,
            "hands": [[c.code for c in h] for h in record.hands],
            "talon": [c.code for c in record.talon],
        }
        step = [("round", deal)]
        for kind, data in round_log(record, in_progress=k == len(rounds) - 1):
            pos = data.pop("pos")
            seat = seats[pos]
            data = {"seat": seat, **data, "by": "person" if seat == 0 else "bot"}
            step.append((kind, data))
        for kind, data in step:
            try:
                probe._apply(kind, data, save=False)
            except TableError as exc:
                raise ResumeError(
                    tr._("{path}: round {number}: {reason}", path=path, number=k + 1,
                         reason=exc.message)
                ) from None
        log.extend(step)
    result = probe.game.result
    if result is not None:
        raise ResumeError(
            tr._("{path} is a finished game ({reason}): nothing to resume; watch it with: "
                 "cardroom replay {path}", path=path, reason=result.reason)
        )
    return Table(
        first.rules, names, 0, bots_for(n), seed, path=path, log=log, dealer=first.dealer, lang=tr
    )


class _Placeholder:
    """A bot that is never asked (while a record is checked)."""

    name = "placeholder"

    def act(self, view: RoundView, rng: random.Random) -> Action:
        raise AssertionError("a placeholder bot was asked to play")
