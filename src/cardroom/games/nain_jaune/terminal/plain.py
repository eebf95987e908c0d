"""Nain Jaune line by line (``--plain``): for screen readers and pipes, no full-screen UI.

Everything is printed as plain lines; commands are read one line at a time from stdin. The end
of input (a closed pipe) quits like ``quit``: the record is saved either way.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import TextIO

import click

from cardroom.games.nain_jaune.engine import Claim, Event, IllegalAction, Pass, Play
from cardroom.games.nain_jaune.terminal.input import (
    Command,
    InputError,
    Table,
    help_lines,
    parse_input,
)
from cardroom.games.nain_jaune.terminal.text import (
    board_text,
    cards_text,
    current_sequence,
    event_lines,
    game_over_lines,
    need_text,
    result_lines,
    rules_text,
)
from cardroom.i18n import Translator
from cardroom.i18n.grammar import rank_phrase
from cardroom.i18n.reasons import illegal_reason
from cardroom.i18n.speech import Speaker
from cardroom.i18n.words import takes_call, tr_of, without_call


class PlainGame:
    """The line-by-line loop over a :class:`Table`."""

    def __init__(
        self, table: Table, stdin: TextIO, delay: float = 0.0, hints: bool = False,
        lang: str | Translator | None = None,
    ) -> None:
        self.table = table
        self.tr = tr_of(lang)
        self.speaker: Speaker | None = None
        """Says the calls aloud (``--speak``)."""
        self.stdin = stdin
        self.delay = delay
        self.interrupted = False
        """True once Ctrl-C (or SIGTERM/SIGHUP) stopped the game."""
        self.hints = hints
        """Whether ``hint`` may ask the expert for a suggestion."""

    def say(self, *lines: str) -> None:
        """Print lines."""
        for line in lines:
            click.echo(line)

    def read(self, prompt: str) -> str | None:
        """One line of input, or None at the end of input."""
        click.echo(prompt, nl=False)
        line = self.stdin.readline()
        if not line:
            click.echo("")
            return None
        line = line.rstrip("\r\n")
        if not self.stdin.isatty():
            click.echo(line)
        return line

    def run(self) -> None:
        """Play until the game ends or the person quits; the record is saved in every case."""
        table = self.table
        tr = self.tr
        others = ", ".join(n for s, n in enumerate(table.names) if s != table.human)
        self.say(
            tr._("Nain Jaune: {name} against {others}.", name=table.names[table.human],
                 others=others),
            tr._("{rules}; seed {seed}. Type help for the commands.",
                 rules=rules_text(table.game.rules, tr), seed=table.seed),
        )
        try:
            self._loop()
        except KeyboardInterrupt:
            self.interrupted = True
            self.say("", tr._("Interrupted."))
        finally:
            path = table.save()
            if path is not None:
                self.say(tr._("Game saved to {path}", path=path))

    def _loop(self) -> None:
        table = self.table
        if table.round is None:
            self._new_round()
        elif table.phase == "human":
            self.say(
                "", self.tr._("Resumed round {number}.", number=table.game.rounds_played + 1),
                *self.state_lines(),
            )
        while True:
            phase = table.phase
            if phase == "game-over":
                return
            if phase == "bot":
                self._show(table.bot_act())
                if self.delay:
                    time.sleep(self.delay)
            elif phase == "round-over":
                line = self.read(self.tr._(
                    "Press Enter (or type next) to deal round {number}, or quit: ",
                    number=table.game.rounds_played + 1,
                ))
                if line is None:
                    return
                if not self._between_rounds(line):
                    return
            elif not self._human_turn():
                return

    def _between_rounds(self, line: str) -> bool:
        if line.strip().lower() == "q":  # no hand between rounds: q cannot mean the queen
            return False
        try:
            command = parse_input(line, (), lang=self.tr)
        except InputError as exc:
            self.say(self.tr._("Refused: {reason}", reason=exc))
            return True
        if command == Command("quit"):
            return False
        if command == Command("next"):
            self._new_round()
        elif isinstance(command, Command):
            self._command(command)
        else:
            self.say(self.tr._(
                "Refused: the round is over: press Enter (or type next) for the next one"
            ))
        return True

    def _human_turn(self) -> bool:
        view = self.table.view()
        assert view is not None
        self.say(self._turn_line())
        line = self.read("> ")
        if line is None:
            return False
        if line.strip().lower() == "hint":
            self._hint()
            return True
        try:
            command = parse_input(line, view.hand, view.need, self.tr)
        except InputError as exc:
            self.say(self.tr._("Refused: {reason}", reason=exc))
            return True
        if isinstance(command, Command):
            if command.name == "quit":
                return False
            if command.name == "next":
                self.say(self.tr._("Refused: it is your turn: type a card, pass or claim"))
            else:
                self._command(command)
            return True
        try:
            events = self.table.human_act(command)
        except (IllegalAction, InputError) as exc:
            reason = (
                illegal_reason(exc.reason, self.tr) if isinstance(exc, IllegalAction) else str(exc)
            )
            self.say(self.tr._("Refused: {reason}", reason=reason))
            return True
        self._show(events)
        return True

    def _hint(self) -> None:
        if not self.hints:
            self.say(self.tr._("Refused: hints are off at this table: start it with --hints"))
            return
        from cardroom.games.nain_jaune.bots.hint import HintError, suggest

        view = self.table.view()
        assert view is not None
        try:
            _, reason = suggest(view, seed=len(view.events), lang=self.tr, letters=False)
        except HintError as exc:
            self.say(self.tr._("Refused: {reason}", reason=exc))
            return
        self.say(self.tr._("Hint: {reason}", reason=reason))

    def _command(self, command: Command) -> None:
        if command.name == "help":
            self.say(*help_lines(self.tr))
        elif command.name == "hand":
            view = self.table.view()
            tr = self.tr
            hand = (
                tr._("Your hand: {cards}", cards=cards_text(view.hand))
                if view
                else tr._("You are not in this round.")
            )
            self.say(hand)
        else:
            self.say(*self.state_lines())

    def _new_round(self) -> None:
        table = self.table
        events = table.start_round()
        pv = table.public_view()
        assert pv is not None and pv.to_act is not None
        names = table.round_names
        tr = self.tr
        self.say(
            "",
            tr._("Round {number}. {dealer} deals; {opener} opens.",
                 number=table.game.rounds_played + 1, dealer=names[pv.dealer],
                 opener=names[pv.to_act]),
        )
        self._show(events)
        self.say(tr._("Board: {list}", list=board_text(pv.board_cards, pv.board)))
        view = table.view()
        if view is not None:
            self.say(tr._("Your hand: {cards}", cards=cards_text(view.hand)))
        else:
            self.say(tr._("You are out of the game: the bots play on."))

    def _show(self, events: Iterable[Event]) -> None:
        table = self.table
        tr = self.tr
        events = list(events)
        self.say(*event_lines(events, table.round_names, tr))
        if self.speaker is not None:
            self.speaker.say_events(events, table.round_names)
        self.say(*table.take_notices())
        if table.phase in ("round-over", "game-over") and table.last_result is not None:
            rnd = table.round
            assert rnd is not None
            self.say(*result_lines(
                table.last_result, table.game.rules, table.round_names, tr, rnd.events
            ))  # fmt: skip
            if table.game.result is not None:
                self.say("", *game_over_lines(table.game.result, table.names, tr))

    def _turn_line(self) -> str:
        view = self.table.view()
        assert view is not None
        plays = [a.card for a in view.legal_actions if isinstance(a, Play)]
        can_pass = any(isinstance(a, Pass) for a in view.legal_actions)
        can_claim = any(isinstance(a, Claim) for a in view.legal_actions)
        tr = self.tr
        parts = [tr._("Your turn: {need}.", need=need_text(view, tr))]
        if view.need is not None:
            seq, _ = current_sequence(view)
            if seq:
                parts.append(tr._("Sequence: {cards}.", cards=cards_text(c for _, c in seq)))
        if plays:
            parts.append(tr._("You can play {cards}.", cards=cards_text(plays)))
        elif can_pass and view.need is not None:
            parts.append(tr._(
                'You have no {rank}: type pass ("{call}").',
                rank=rank_phrase(view.need, tr.lang), call=without_call(view.need, tr),
            ))
        if can_claim and view.pending_claim is not None:
            parts.append(tr._(
                'Type claim to take the {card} box ("{call}").',
                card=view.pending_claim.pretty, call=takes_call(view.pending_claim, tr),
            ))
        parts.append(tr._("Hand: {cards}", cards=cards_text(view.hand)))
        return " ".join(parts)

    def state_lines(self) -> list[str]:
        """The board, every player's chips and cards, the sequence and whose turn it is."""
        table = self.table
        tr = self.tr
        pv = table.public_view()
        if pv is None:
            return [tr._("No round has been dealt yet.")]
        names = table.round_names
        lines = [tr._("Board: {list}", list=board_text(pv.board_cards, pv.board))]
        for pos, name in enumerate(names):
            chips = tr.ngettext("{n} chip", "{n} chips", pv.chips[pos])
            cards = tr.ngettext("{n} card", "{n} cards", pv.hand_sizes[pos])
            lines.append(
                tr._("{name}: {chips}, {cards} (dealer)", name=name, chips=chips, cards=cards)
                if pos == pv.dealer
                else tr._("{name}: {chips}, {cards}", name=name, chips=chips, cards=cards)
            )
        view = table.view()
        if view is not None and pv.to_act is not None:
            seq, without = current_sequence(view)
            lines.append(tr._(
                "Sequence: {cards}", cards=cards_text(c for _, c in seq) or tr._("(none yet)")
            ))
            needed = tr._("Needed: {need}", need=need_text(view, tr))
            if without:
                needed = tr._(
                    "Needed: {need}; without it: {names}",
                    need=need_text(view, tr), names=", ".join(names[s] for s in without),
                )
            lines.append(needed)
            lines.append(tr._("Your hand: {cards}", cards=cards_text(view.hand)))
        if table.to_act_name:
            lines.append(tr._("To play: {name}", name=table.to_act_name))
        return lines
