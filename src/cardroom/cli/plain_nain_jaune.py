"""Nain Jaune line by line (``--plain``): for screen readers and pipes, no full-screen UI.

Everything is printed as plain lines; commands are read one line at a time from stdin. The end
of input (a closed pipe) quits like ``quit``: the record is saved either way.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import TextIO

import click

from cardroom.cli.nain_jaune_table import (
    HELP_LINES,
    Command,
    InputError,
    Table,
    parse_input,
)
from cardroom.cli.nain_jaune_text import (
    board_text,
    cards_text,
    current_sequence,
    event_lines,
    game_over_lines,
    need_text,
    rank_name,
    result_lines,
    rules_text,
)
from cardroom.games.nain_jaune.engine import Claim, Event, IllegalAction, Pass, Play


class PlainGame:
    """The line-by-line loop over a :class:`Table`."""

    def __init__(
        self, table: Table, stdin: TextIO, delay: float = 0.0, hints: bool = False
    ) -> None:
        self.table = table
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
        others = ", ".join(n for s, n in enumerate(table.names) if s != table.human)
        self.say(
            f"Nain Jaune: {table.names[table.human]} against {others}.",
            f"{rules_text(table.game.rules)}; seed {table.seed}. Type help for the commands.",
        )
        try:
            self._loop()
        except KeyboardInterrupt:
            self.interrupted = True
            self.say("", "Interrupted.")
        finally:
            path = table.save()
            if path is not None:
                self.say(f"Game saved to {path}")

    def _loop(self) -> None:
        table = self.table
        if table.round is None:
            self._new_round()
        elif table.phase == "human":
            self.say("", f"Resumed round {table.game.rounds_played + 1}.", *self.state_lines())
        while True:
            phase = table.phase
            if phase == "game-over":
                return
            if phase == "bot":
                self._show(table.bot_act())
                if self.delay:
                    time.sleep(self.delay)
            elif phase == "round-over":
                line = self.read(
                    f"Press Enter (or type next) to deal round {table.game.rounds_played + 1}, "
                    "or quit: "
                )
                if line is None:
                    return
                if not self._between_rounds(line):
                    return
            elif not self._human_turn():
                return

    def _between_rounds(self, line: str) -> bool:
        try:
            command = parse_input(line, ())
        except InputError as exc:
            self.say(f"Refused: {exc}")
            return True
        if command == Command("quit"):
            return False
        if command == Command("next"):
            self._new_round()
        elif isinstance(command, Command):
            self._command(command)
        else:
            self.say("Refused: the round is over: press Enter (or type next) for the next one")
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
            command = parse_input(line, view.hand, view.need)
        except InputError as exc:
            self.say(f"Refused: {exc}")
            return True
        if isinstance(command, Command):
            if command.name == "quit":
                return False
            if command.name == "next":
                self.say("Refused: it is your turn: type a card, pass or claim")
            else:
                self._command(command)
            return True
        try:
            events = self.table.human_act(command)
        except (IllegalAction, InputError) as exc:
            reason = exc.reason if isinstance(exc, IllegalAction) else str(exc)
            self.say(f"Refused: {reason}")
            return True
        self._show(events)
        return True

    def _hint(self) -> None:
        if not self.hints:
            self.say("Refused: hints are off at this table: start it with --hints")
            return
        from cardroom.bots.hint import HintError, suggest

        view = self.table.view()
        assert view is not None
        try:
            _, reason = suggest(view, seed=len(view.events))
        except HintError as exc:
            self.say(f"Refused: {exc}")
            return
        self.say(f"Hint: {reason}")

    def _command(self, command: Command) -> None:
        if command.name == "help":
            self.say(*HELP_LINES)
        elif command.name == "hand":
            view = self.table.view()
            hand = f"Your hand: {cards_text(view.hand)}" if view else "You are not in this round."
            self.say(hand)
        else:
            self.say(*self.state_lines())

    def _new_round(self) -> None:
        table = self.table
        events = table.start_round()
        pv = table.public_view()
        assert pv is not None and pv.to_act is not None
        names = table.round_names
        self.say(
            "",
            f"Round {table.game.rounds_played + 1}. {names[pv.dealer]} deals; "
            f"{names[pv.to_act]} opens.",
        )
        self._show(events)
        self.say(f"Board: {board_text(pv.board_cards, pv.board)}")
        view = table.view()
        if view is not None:
            self.say(f"Your hand: {cards_text(view.hand)}")
        else:
            self.say("You are out of the game: the bots play on.")

    def _show(self, events: Iterable[Event]) -> None:
        table = self.table
        self.say(*event_lines(events, table.round_names))
        self.say(*table.take_notices())
        if table.phase in ("round-over", "game-over") and table.last_result is not None:
            self.say(*result_lines(table.last_result, table.game.rules, table.round_names))
            if table.game.result is not None:
                self.say("", *game_over_lines(table.game.result, table.names))

    def _turn_line(self) -> str:
        view = self.table.view()
        assert view is not None
        plays = [a.card for a in view.legal_actions if isinstance(a, Play)]
        can_pass = any(isinstance(a, Pass) for a in view.legal_actions)
        can_claim = any(isinstance(a, Claim) for a in view.legal_actions)
        parts = [f"Your turn: {need_text(view)}."]
        if view.need is not None:
            seq, _ = current_sequence(view)
            if seq:
                parts.append(f"Sequence: {cards_text(c for _, c in seq)}.")
        if plays:
            parts.append(f"You can play {cards_text(plays)}.")
        elif can_pass and view.need is not None:
            parts.append(f'You have no {rank_name(view.need)}: type pass ("without").')
        if can_claim and view.pending_claim is not None:
            parts.append(f"Type claim to take the {view.pending_claim.pretty} box.")
        parts.append(f"Hand: {cards_text(view.hand)}")
        return " ".join(parts)

    def state_lines(self) -> list[str]:
        """The board, every player's chips and cards, the sequence and whose turn it is."""
        table = self.table
        pv = table.public_view()
        if pv is None:
            return ["No round has been dealt yet."]
        names = table.round_names
        lines = [f"Board: {board_text(pv.board_cards, pv.board)}"]
        for pos, name in enumerate(names):
            marks = " (dealer)" if pos == pv.dealer else ""
            lines.append(f"{name}: {pv.chips[pos]} chips, {pv.hand_sizes[pos]} cards{marks}")
        view = table.view()
        if view is not None and pv.to_act is not None:
            seq, without = current_sequence(view)
            lines.append(f"Sequence: {cards_text(c for _, c in seq) or '(none yet)'}")
            needed = f"Needed: {need_text(view)}"
            if without:
                needed += "; without it: " + ", ".join(names[s] for s in without)
            lines.append(needed)
            lines.append(f"Your hand: {cards_text(view.hand)}")
        if table.to_act_name:
            lines.append(f"To play: {table.to_act_name}")
        return lines
