"""The real-time Textual UI for the real-time games: you (seat 0) against a reaction bot (seat 1).

What differs by game (how your seat is shown, which keys act and how) is the game's terminal
face, its registry ``terminal`` piece's ``SEAT`` (``games/<game>/terminal.py``).

Time is the wall clock (a virtual clock in tests). Textual timers fire the bot's planned actions
and the arbiter's countdown; every key you press becomes an action stamped with the clock's time
and goes through the same arbiter as the bot's. You see only your seat's view.

Aiming: a play carries the top card of the target pile *as it was when you picked your card*.
If the bot changed that pile in between, the arbiter refuses the play as stale (the log says so):
press the pile key again to play on what is there now.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.timer import Timer
from textual.widgets import Header, RichLog, Static

from cardroom.arbiter import GAME_OVER, Arbiter, Clock, Entry, Outcome, WallClock
from cardroom.bots.reaction import LEVELS, ReactionBot, make_reaction_bot
from cardroom.cards import Card
from cardroom.games.registry import game as registry_game
from cardroom.games.registry import new_engine
from cardroom.games.registry import title as game_title
from cardroom.i18n import ENGLISH, Translator
from cardroom.i18n.numbers import decimal
from cardroom.i18n.realtime_words import (
    entry_words,
    pile_name,
    reason_words,
)
from cardroom.i18n.words import N_, labelled, pretty, seconds_text, tr_of
from cardroom.terminal.bindings import translate_bindings

HUMAN, BOT = 0, 1
FACE_DOWN = "▒▒"
PHASE_WORDS = {
    "start": N_("Phase: start"),
    "play": N_("Phase: play"),
    "stalemate": N_("Phase: stalemate"),
    "flip called": N_("Phase: flip called"),
    "slap": N_("Phase: slap"),
    "choose": N_("Phase: choose"),
    "over": N_("Phase: over"),
}
"""The phases of a game as the status line names them."""


LEVEL_WORDS = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard"),
               "expert": N_("expert")}


def bot_name(spec: str, tr: Translator) -> str:
    """``Medium bot`` for a level (« Robot moyen »), ``Bot`` for any other spec."""
    if tr.lang == "en":
        return f"{spec.capitalize()} bot" if spec in LEVELS else "Bot"
    if spec in LEVELS:
        level = tr._(LEVEL_WORDS.get(spec, spec))
        text = tr._("{level} bot", level=level)
        return text[:1].upper() + text[1:]
    return tr._("Bot")


def card_text(card: Card | None, lang: Translator = ENGLISH) -> Text:
    """A card in colour (red suits red), or a blank; with the letters of ``lang``'s packs
    (French ``D♠``: no card is typed in a real-time game, the keys name piles and slots)."""
    if card is None:
        return Text("--", style="dim")
    return Text(pretty(card, lang), style="bold red" if card.red else "bold")


@dataclass(frozen=True, slots=True)
class Slot:
    """One thing of yours a number key picks: a card in hand or a stock pile."""

    card: Card | None
    """The face-up card, or None (face down / empty)."""
    count: int
    """Cards in the pile (1 for a card in hand)."""
    index: int
    """The stock pile's index or the position in the hand."""


def stock_text(
    stock: Sequence[tuple[Card | None, int]], lang: Translator = ENGLISH
) -> Text:
    """Stock piles as ``7♦(3) ▒▒(2) --``: the face-up top card or face down, and the count."""
    out = Text()
    for top, count in stock:
        if top is not None:
            out.append_text(card_text(top, lang))
        else:
            out.append(FACE_DOWN if count else "--", style="dim")
        if count > 1:
            out.append(f"({count})", style="dim")
        out.append("  ")
    return out


class RealtimeApp(App[None]):
    """Play a real-time game against a reaction bot."""

    TITLE = "cardroom"
    CSS = """
    #table { height: auto; padding: 0 1; }
    #opponent, #centre, #status, #mine { height: auto; margin: 0 0 1 0; }
    #centre { border: round $accent; padding: 0 1; }
    #mine { border: round $success; padding: 0 1; }
    #log { height: 1fr; border: round $panel; }
    #keys { dock: bottom; height: auto; background: $panel; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "pick(0)", N_("pick 1-5"), show=True),
        Binding("2", "pick(1)", show=False),
        Binding("3", "pick(2)", show=False),
        Binding("4", "pick(3)", show=False),
        Binding("5", "pick(4)", show=False),
        Binding("a,left", "play(0)", N_("left pile")),
        Binding("d,right", "play(1)", N_("right pile")),
        Binding("space", "call", N_("call")),
        Binding("t", "turn_up", N_("turn up")),
        Binding("m", "move", N_("move to space")),
        Binding("z", "slap(0)", N_("slap left")),
        Binding("x", "slap(1)", N_("slap right")),
        Binding("n", "next_game", N_("next game")),
        Binding("q", "quit_game", N_("quit (saves)")),
        Binding("ctrl+c", "quit_game", N_("quit (saves)"), show=False, priority=True),
    ]
    SEAT_ACTIONS: ClassVar[set[str]] = {"turn_up", "move", "slap"}
    """Keys shown only for a game whose seat face has the action of that name."""

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
    ) -> None:
        super().__init__()
        self.tr = tr_of(lang)
        translate_bindings(self, self.tr)
        self.game = game
        self.seat_ui: Any = registry_game(game).load("terminal").SEAT
        self.options = options
        self.seed = seed
        self.bot_spec = bot
        self.names = [name, bot_name(bot, self.tr)]
        self.records = records
        self.clock: Clock = clock or WallClock()
        self.match: Any = None
        engine = new_engine(game, options, seed)
        self.match = registry_game(game).match_for(engine.rules, seed)
        if self.match is not None:
            engine = self.match.game
        self.finished_records: list[dict[str, Any]] = []
        self.record_path: Path | None = None
        self.farewell: list[str] = []
        self.log_lines: list[str] = []
        """Every line written to the log, unwrapped."""
        self.selected: int | None = None
        self.aim: tuple[Card | None, Card | None] = (None, None)
        self.message = ""
        self._bot_timer: Timer | None = None
        self._countdown_timer: Timer | None = None
        self._seen_log = 0
        self._saved_over: Any = None
        """The finished engine whose final record has been saved (saved once, then kept)."""
        self._start(engine)

    # -- setting up a game ----------------------------------------------------------------

    def _start(self, engine: Any) -> None:
        self.engine = engine
        self.arbiter: Arbiter[Any, Any] = Arbiter(engine, self.clock, self.names)
        rng = random.Random(f"play/{self.seed}/bot/{len(self.finished_records)}")
        self.bot: ReactionBot = make_reaction_bot(self.bot_spec, self.game, BOT, rng)
        self.bot.observe(engine.view(BOT), self.clock.now())
        self._seen_log = 0
        self.selected = None
        self.view = engine.view(HUMAN)
        self.aim = self.view.centre

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Vertical(id="table"):
            yield Static(id="opponent")
            yield Static(id="centre")
            yield Static(id="status")
            yield Static(id="mine")
        # min_width: RichLog never wraps narrower than its min_width (78 by default), so at 80
        # columns the end of a long line would hide under the border and scroll bar.
        yield RichLog(id="log", wrap=True, markup=False, min_width=10)
        yield Static(self.seat_ui.keys(self.tr, self.match is not None), id="keys")

    def on_mount(self) -> None:
        tr = self.tr
        game = tr._(game_title(self.game))
        self.sub_title = tr._("{game} against {bot} (seed {seed})", game=game,
                              bot=self.names[BOT], seed=self.seed)
        self.set_interval(0.1, self._redraw_status)
        self.write_log(tr._("{game}: call (space) to turn the first cards.", game=game))
        self.after_change()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show only the keys that make sense for this game."""
        if action in self.SEAT_ACTIONS and not hasattr(self.seat_ui, action):
            return False
        return not (action == "next_game" and self.match is None)

    # -- time: the bot and the countdown ----------------------------------------------------

    def pump(self) -> None:
        """Do everything due by now: the countdown and the bot's planned actions, in time order;
        then show the result (also when the game is over: the winning move must be drawn)."""
        now = self.clock.now()
        for _ in range(0 if self.engine.over else 1000):
            deadline, due = self.arbiter.deadline, self.bot.due
            if deadline is not None and deadline <= now and (due is None or deadline <= due):
                self.arbiter.tick(now)
                self.bot.observe(self.engine.view(BOT), now)
            elif due is not None and due <= now:
                action = self.bot.act(now)
                outcome = self.arbiter.submit(BOT, action, now)
                self._bot_outcome(outcome, now)
            else:
                break
            if self.engine.over:
                break
        self.after_change()

    def _bot_outcome(self, outcome: Outcome, now: float) -> None:
        if outcome.accepted:
            self.bot.observe(self.engine.view(BOT), now)
        else:
            self.bot.rejected(outcome.stale, self.engine.view(BOT), now)

    def _reschedule(self) -> None:
        for timer in (self._bot_timer, self._countdown_timer):
            if timer is not None:
                timer.stop()
        self._bot_timer = self._countdown_timer = None
        if self.engine.over:
            return
        now = self.clock.now()
        if self.bot.due is not None:
            self._bot_timer = self.set_timer(max(0.0, self.bot.due - now) + 0.001, self.pump)
        deadline = self.arbiter.deadline
        if deadline is not None:
            self._countdown_timer = self.set_timer(max(0.0, deadline - now) + 0.001, self.pump)

    # -- your actions -----------------------------------------------------------------------

    def submit(self, action: Any) -> Outcome:
        """Send one of your actions to the arbiter now; show a refusal and its reason.
        After the end nothing is sent (the record ends with the winning move)."""
        if self._over():
            return Outcome(False, GAME_OVER)
        now = self.clock.now()
        outcome = self.arbiter.submit(HUMAN, action, now)
        if outcome.accepted:
            self.bot.observe(self.engine.view(BOT), now)
            self.message = ""
        else:
            self.message = self.tr._(
                "refused: {reason}",
                reason=reason_words(outcome.reason or "", self.tr),
            )
        self.pump()
        return outcome

    def current_slots(self) -> list[Slot]:
        """Your cards / piles, as numbered on screen."""
        return list(self.seat_ui.slots(self.view))

    def _after_end(self) -> str:
        if self.match is not None and not self.match.over:
            return self.tr._("press n for the next game, q to quit")
        return self.tr._("press q to quit")

    def _over(self) -> bool:
        """True (and say so) when the game is over and a key would do nothing."""
        if not self.engine.over:
            return False
        self.message = ""  # the status line already says what to press
        self._redraw()
        return True

    def action_pick(self, index: int) -> None:
        """Pick card / pile ``index`` (0-based); aim at what the centre shows now."""
        if self._over():
            return
        slots = self.current_slots()
        if index >= len(slots):
            self.message = self.tr._("there is no card {number}", number=index + 1)
            self._redraw()
            return
        self.selected = index
        self.aim = self.view.centre
        self.message = ""
        picked = getattr(self.seat_ui, "picked", None)
        if picked is not None:
            action = picked(slots[index])
            if action is not None:
                self.selected = None
                self.submit(action)
                return
        self._redraw()

    def action_play(self, pile: int) -> None:
        """Play the picked card onto centre pile ``pile``."""
        if self._over():
            return
        slots = self.current_slots()
        if self.selected is None or self.selected >= len(slots):
            self.message = self.tr._("pick a card first (1-5)")
            self._redraw()
            return
        slot = slots[self.selected]
        if slot.card is None:
            self.message = self.tr._("that pile has no face-up card to play")
            self._redraw()
            return
        outcome = self.submit(self.seat_ui.play(slot, pile, self.aim[pile]))
        self.aim = self.view.centre
        if outcome.accepted:
            self.selected = None
            self._redraw()

    def action_call(self) -> None:
        """Make the game's call (at the start and at a stalemate)."""
        self.submit(self.seat_ui.call())

    def action_slap(self, pile: int) -> None:
        """Slap (or, in the chooser variant, choose) centre pile ``pile``."""
        action = self.seat_ui.slap(self.view, pile)
        if action is not None:
            self.submit(action)

    def action_turn_up(self) -> None:
        """Turn up the face-down top card of the picked stock pile."""
        if self._over():
            return
        slots = self.current_slots()
        if self.selected is None or self.selected >= len(slots):
            self.message = self.tr._("pick a stock pile first (1-5)")
            self._redraw()
            return
        self.submit(self.seat_ui.turn_up(slots[self.selected]))

    def action_move(self) -> None:
        """Move the picked face-up card into an empty stock space."""
        if self._over():
            return
        slots = self.current_slots()
        if self.selected is None or self.selected >= len(slots):
            self.message = self.tr._("pick a stock pile first (1-5)")
            self._redraw()
            return
        action = self.seat_ui.move(slots[self.selected], slots)
        if action is None:
            self.message = self.tr._("no empty space to move it to")
            self._redraw()
            return
        self.submit(action)
        self.selected = None

    def action_next_game(self) -> None:
        """Deal the next game of a match."""
        if self.match is None or not self.engine.over or self.match.over:
            return
        self._keep_record()
        self._start(self.match.next_game())
        self.write_log(self.tr._("Game {number} of the match.", number=self.match.number))
        self.after_change()

    async def action_quit(self) -> None:
        """Ctrl+Q quits too, and saves like q."""
        self.action_quit_game()

    def action_quit_game(self) -> None:
        """Save the record and leave."""
        path = self.save()
        self.farewell.append(self.tr._("Record saved to {path}", path=path))
        if self.engine.over:
            self.farewell.append(self._result_line())
        self.exit()

    # -- after every change -----------------------------------------------------------------

    def after_change(self) -> None:
        """Log what happened, show the new view to the bot and you, and reschedule the timers."""
        log = self.arbiter.log
        for entry in log[self._seen_log :]:
            said = self.entry_said(entry)
            stamp = seconds_text(entry.t - self.arbiter.start, self.tr, places=2)
            line = f"{stamp:>9}  {said}"
            self.write_log(line, bad=not entry.accepted)
        if len(log) > self._seen_log and not self.engine.over:
            self.save()  # after every change, so a crash or a closed terminal loses nothing
        self._seen_log = len(log)
        self.view = self.engine.view(HUMAN)
        if self.engine.over and not self._game_saved():
            self.save()
            self.write_log(self._result_line())
            if self.match is not None and not self.match.over:
                self.write_log(self.tr._("Press n for the next game of the match, q to quit."))
            else:
                self.write_log(self.tr._("Press q to quit."))
        self._redraw()
        self._reschedule()

    def entry_said(self, entry: Entry) -> str:
        """A log entry in words for the live log (the bot's refusals name no card)."""
        return entry_words(entry, self.game, self.names, HUMAN, self.tr)

    def _result_line(self) -> str:
        tr = self.tr
        w = self.engine.winner
        left = getattr(self.engine, "cards_left", None)
        if w is not None and left:
            line = tr._("{name} wins (cards left: {first} / {second}).", name=self.names[w],
                        first=left(0), second=left(1))
        elif w is not None:
            line = tr._("{name} wins.", name=self.names[w])
        elif left:
            line = tr._("A draw (cards left: {first} / {second}).", first=left(0),
                        second=left(1))
        else:
            line = tr._("A draw.")
        if w is not None:
            extra = self.seat_ui.result_extra(self.engine, self.names, w, tr)
            line += " " + extra if extra else ""
        if self.match is not None:
            s = self.match.scores
            line += " " + tr._("Match scores: {first} {first_score}, {second} {second_score}",
                               first=self.names[0], first_score=s[0], second=self.names[1],
                               second_score=s[1])
            if self.match.over:
                line += tr._("; {name} wins the match.", name=self.names[self.match.winner])
        return line

    def write_log(self, line: str, bad: bool = False) -> None:
        """Add a line to the log on screen (kept whole in ``log_lines``; the screen wraps it)."""
        self.log_lines.append(line)
        try:
            log = self.query_one("#log", RichLog)
        except Exception:  # not mounted yet
            return
        log.write(Text(line, style="red" if bad else ""))

    # -- records ----------------------------------------------------------------------------

    def current_record(self) -> dict[str, Any]:
        """The record of the game on the table."""
        if self.match is not None:
            record = registry_game(self.game).load("record")
            header = record.record_header(self.engine, self.names, self.match)
            return self.arbiter.record(header)
        return self.arbiter.record()

    def _keep_record(self) -> None:
        self.finished_records.append(self.current_record())

    def _game_saved(self) -> bool:
        return self._saved_over is self.engine

    def save(self) -> Path:
        """Write the record (a match: every game so far) atomically; return its path."""
        data: Any = self.current_record()
        if self.match is not None:
            data = [*self.finished_records, data]
        if self.record_path is None:
            stamp = time.strftime("%Y%m%d-%H%M%S")
            self.record_path = self.records / f"{self.game}-{stamp}-{self.seed}.json"
        self.records.mkdir(parents=True, exist_ok=True)
        tmp = self.record_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
        os.replace(tmp, self.record_path)
        if self.engine.over:
            self._saved_over = self.engine
        return self.record_path

    # -- drawing ----------------------------------------------------------------------------

    def _redraw(self) -> None:
        try:
            opponent = self.query_one("#opponent", Static)
        except Exception:  # not mounted yet
            return
        view = self.view
        tr = self.tr
        opponent.update(self.seat_ui.opponent_text(view, self.names[BOT], tr))
        centre = Text(tr._("Centre:") + "  ")
        for pile in (0, 1):
            centre.append(f"{pile_name(pile, tr)} ")
            centre.append_text(card_text(view.centre[pile], tr))
            centre.append(f" ({view.centre_sizes[pile]})     ")
        centre.append(self.seat_ui.centre_extra(view, tr), style="dim")
        self.query_one("#centre", Static).update(centre)
        mine = Text(labelled(self.names[HUMAN], " ", tr))
        for i, slot in enumerate(self.current_slots()):
            style = "reverse" if i == self.selected else ""
            mine.append(labelled(i + 1, "", tr).rstrip(), style=style)
            if slot.card is not None:
                mine.append_text(card_text(slot.card, tr))
            elif slot.count:
                mine.append(FACE_DOWN, style="dim")
            else:
                mine.append("  ")
            if slot.count > 1:
                mine.append(f"({slot.count})", style="dim")
            mine.append("   ")
        mine.append(self.seat_ui.mine_extra(view, tr), style="dim")
        self.query_one("#mine", Static).update(mine)
        self._redraw_status()

    def _redraw_status(self) -> None:
        try:
            status = self.query_one("#status", Static)
        except Exception:  # not mounted yet
            return
        tr = self.tr
        view = self.view
        phase = self.seat_ui.shown_phase(view.phase)
        text = Text(tr._(PHASE_WORDS.get(phase, f"Phase: {phase}")), style="bold")
        call_name = tr._(self.seat_ui.call_name)
        if self.engine.over:
            text.append("   " + self._result_line(), style="bold green")
            text.append("   " + self._after_end(), style="bold yellow")
        elif view.stalemate:
            who = [self.names[s] for s in (0, 1) if view.called[s]]
            if self.seat_ui.call() in view.legal_actions:
                text.append("   " + tr._("{call} (space)", call=call_name), style="yellow")
            elif not view.called[view.seat]:
                text.append("   " + tr._("you can still play: play before the countdown"),
                            style="yellow")
            if who:
                text.append("   " + tr._("called: {names}", names=", ".join(who)))
            deadline = self.arbiter.deadline
            if deadline is not None:
                left = max(0.0, deadline - self.clock.now())
                text.append("   " + tr._("countdown {seconds} s", seconds=decimal(left, 1, tr)),
                            style="bold yellow")
        elif self.seat_ui.call() in view.legal_actions:
            text.append("   " + tr._("you cannot play: {call} (space)", call=call_name),
                        style="yellow")
        elif view.phase == "slap":
            text.append("   " + tr._("slap a pile for your new layout: z (pile 1) or x (pile 2)"),
                        style="bold yellow")
        elif view.phase == "choose":
            chooser = self.names[view.chooser] if view.chooser is not None else "?"
            text.append("   " + tr._("{name} chooses a pile (z pile 1, x pile 2)", name=chooser),
                        style="bold yellow")
        if self.message:
            text.append(f"   {self.message}", style="bold red")
        status.update(text)


def slots_empty(slots: Sequence[Slot]) -> list[int]:
    """Indexes of empty stock spaces."""
    return [s.index for s in slots if s.count == 0]
