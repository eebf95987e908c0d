"""The real-time games line by line (``--plain``): for screen readers and pipes, no full-screen UI.

Each line you type is one action, stamped with the clock's time when it is read; the bot acts
on its own reaction times meanwhile, and every public event is printed as a line the moment it
happens. ``look`` prints the whole table. The end of input quits like ``quit``: the record is
saved either way.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TextIO

import click

from cardroom.arbiter import Clock, Entry
from cardroom.cards import Card
from cardroom.games.registry import REALTIME, games
from cardroom.games.registry import title as game_title
from cardroom.i18n import Translator
from cardroom.i18n.realtime_words import entry_words, event_words, pile_name
from cardroom.i18n.speech import Speaker
from cardroom.i18n.words import labelled, pretty, seconds_text, tr_of
from cardroom.terminal.realtime_tui import BOT, HUMAN, RealtimeApp, Slot, slots_empty

_CALLS = {"s", "call", "space", "galw", "appel"}
"""The words that make the call in every game (each game's seat face adds its own,
``call_words``: any registered game's word calls in every game)."""
_QUITS = {"q", "quit", "exit", "quitter", "gadael"}
_LOOKS = {"l", "look", "state", "board", "plateau", "bwrdd", ""}
_HELPS = {"?", "h", "help", "aide", "cymorth"}


def _calls() -> set[str]:
    words = set(_CALLS)
    for entry in games(REALTIME):
        if entry.terminal is not None:
            words.update(getattr(entry.load("terminal").SEAT, "call_words", ()))
    return words


class PlainRealtime(RealtimeApp):
    """The line-by-line loop over the same engine, arbiter, bot and records as the Textual UI.

    Only the Textual parts are left unused: ``pump`` and ``submit`` are the UI's own.
    """

    def __init__(
        self,
        game: str,
        options: dict[str, str],
        seed: int,
        bot: str,
        name: str,
        records: Path,
        clock: Clock | None = None,
        lang: str | Translator | None = None,
        out: Callable[[str], None] = click.echo,
    ) -> None:
        self.tr = tr_of(lang)
        self.out = out
        self.speaker: Speaker | None = None
        """Says the calls aloud (``--speak``)."""
        super().__init__(game, options, seed, bot, name, records, clock, lang=self.tr)

    # the Textual side of the app is not used: lines are printed, timers are the loop's
    def _reschedule(self) -> None:
        pass

    def _redraw(self) -> None:
        pass

    def write_log(self, line: str, bad: bool = False) -> None:
        """Print a line (refusals too: the reason is in the line)."""
        self.log_lines.append(line)
        self.out(line)

    def entry_said(self, entry: Entry) -> str:
        """A log entry in words (the bot's refusals name no card; yours say why)."""
        if self.tr.lang != "en" and not entry.accepted and entry.seat == HUMAN:
            return super().entry_said(entry)
        return entry_words(entry, self.game, self.names, HUMAN, self.tr)

    def after_change(self) -> None:
        """Print the new log entries (with the time since the start) and the end."""
        log = self.arbiter.log
        for entry in log[self._seen_log :]:
            said = self.entry_said(entry)
            stamp = seconds_text(entry.t - self.arbiter.start, self.tr)
            self.write_log(f"{stamp:>7}  {said}")
            if self.speaker is not None and entry.accepted:
                for event in entry.events:
                    if type(event).__name__ in ("Called", "Won", "GameWon"):
                        self.speaker.say(event_words(event, self.game, self.names, self.tr))
        if len(log) > self._seen_log and not self.engine.over:
            self.save()
        self._seen_log = len(log)
        self.view = self.engine.view(HUMAN)
        if self.engine.over and not self._game_saved():
            self.save()
            self.write_log(self._result_line())
            if self.match is not None and not self.match.over:
                self.write_log(self.tr._("Type n for the next game of the match, q to quit."))

    # -- the loop ---------------------------------------------------------------------------

    def run_lines(self, stdin: TextIO | Iterable[str]) -> None:
        """Read commands until the end of input or ``quit``; the bot plays meanwhile."""
        tr = self.tr
        lines: queue.Queue[str | None] = queue.Queue()

        def reader() -> None:
            for line in stdin:
                lines.put(line.rstrip("\r\n"))
            lines.put(None)

        threading.Thread(target=reader, daemon=True).start()
        game = tr._(game_title(self.game))
        self.out(
            tr._(
                "{game} against {bot}, seed {seed}. Type help for the commands.",
                game=game,
                bot=self.names[BOT],
                seed=self.seed,
            )
        )
        call = tr._(self.seat_ui.plain_call)
        self.out(tr._("Call {call} (type s) to turn the first cards.", call=call))
        self.after_change()
        try:
            while True:
                try:
                    line = lines.get(timeout=self._wait())
                except queue.Empty:  # the bot or the countdown is due: _wait does it
                    continue
                if line is None or not self.command(line):
                    break
        except KeyboardInterrupt:
            self.out(tr._("Interrupted."))
        finally:
            path = self.save()
            self.out(tr._("Record saved to {path}", path=path))

    def _wait(self) -> float | None:
        """Seconds until the bot or the countdown is due (None: wait for a line)."""
        self.pump()
        if self.engine.over:
            return None
        now = self.clock.now()
        due = [t for t in (self.bot.due, self.arbiter.deadline) if t is not None]
        return max(0.0, min(due) - now) + 0.001 if due else None

    def command(self, line: str) -> bool:
        """Do one typed line; False to stop."""
        tr = self.tr
        words = line.strip().lower().split()
        head = words[0] if words else ""
        self.pump()  # what was due before the line was read happened first
        if head in _QUITS:
            return False
        if head in _HELPS:
            self.out(self.help_text())
        elif head in _LOOKS:
            for text in self.state_lines():
                self.out(text)
        elif head in _calls():
            self._submit(self.seat_ui.call())
        elif head in ("n", "next", "suivant", "nesaf"):
            if self.match is None or not self.engine.over or self.match.over:
                self.out(tr._("Refused: there is no next game"))
            else:
                self.action_next_game()
        elif head in ("z", "x") and hasattr(self.seat_ui, "slap"):
            self._submit(self.seat_ui.slap(self.view, 0 if head == "z" else 1))
        elif head in ("t", "m") and hasattr(self.seat_ui, "turn_up"):
            slot = self._slot(words[1] if len(words) > 1 else "")
            if slot is not None:
                action = (
                    self.seat_ui.turn_up(slot)
                    if head == "t"
                    else self.seat_ui.move(slot, self.current_slots())
                )
                if action is None:
                    self.out(tr._("Refused: no empty space to move it to"))
                else:
                    self._submit(action)
        else:
            self._play(words)
        return True

    def _slot(self, word: str) -> Slot | None:
        slots = self.current_slots()
        if not word.isdigit() or not 1 <= int(word) <= len(slots):
            self.out(self.tr._("Refused: give a number from 1 to {n}", n=len(slots)))
            return None
        return slots[int(word) - 1]

    def _play(self, words: list[str]) -> None:
        """``3 1`` / ``3 a`` plays your card 3 on pile 1; ``3 2`` / ``3 d`` on pile 2."""
        tr = self.tr
        text = "".join(words)
        if len(text) >= 2 and text[:-1].isdigit() and text[-1] in "12ad":
            slot = self._slot(text[:-1])
            if slot is None:
                return
            if slot.card is None:
                self.out(tr._("Refused: that pile has no face-up card to play"))
                return
            pile = 0 if text[-1] in "1a" else 1
            self._submit(self.seat_ui.play(slot, pile, self.view.centre[pile]))
            return
        self.out(
            tr._(
                "Refused: cannot read {text}; type help for the commands",
                text=repr(" ".join(words)),
            )
        )

    def _submit(self, action: Any) -> None:
        if self.engine.over:
            self.out(self.tr._("Refused: the game is over"))
            return
        self.submit(action)

    # -- words ------------------------------------------------------------------------------

    def help_text(self) -> str:
        """The commands of this game."""
        return str(self.seat_ui.plain_help(self.tr))

    def state_lines(self) -> list[str]:
        """The centre, your cards (numbered) and the opponent, one line each."""
        tr = self.tr
        view = self.view
        centre = ", ".join(
            f"{pile_name(p, tr)} {_card(view.centre[p], tr)} ({view.centre_sizes[p]})"
            for p in (0, 1)
        )
        mine = ", ".join(
            labelled(
                i + 1,
                (_card(s.card, tr) if s.card else ("▒▒" if s.count else "--"))
                + (f" ({s.count})" if s.count > 1 else ""),
                tr,
            )
            for i, s in enumerate(self.current_slots())
        )
        lines = [
            tr._("Centre: {piles}", piles=centre),
            tr._("Yours: {cards}; {extra}", cards=mine, extra=self.seat_ui.mine_extra(view, tr)),
            str(self.seat_ui.opponent_text(view, self.names[BOT], tr)),
        ]
        if self.seat_ui.call() in view.legal_actions:
            lines.append(tr._("You cannot play: type s."))
        if view.phase in ("slap", "choose"):
            lines.append(tr._("Slap a pile for your new layout: z (pile 1) or x (pile 2)."))
        if self.engine.over:
            lines.append(self._result_line())
        return lines


def _card(card: Card | None, tr: Translator) -> str:
    return pretty(card, tr) if card is not None else "--"


__all__ = ["PlainRealtime", "slots_empty"]
