"""The full-screen Nain Jaune table (Textual): the board, the players, your hand and the log.

The app only ever reads the person's own view (``Table.view``) plus what is public (names,
chips, hand sizes, the board); bots act through the :class:`Table` with a short delay so that a
person can follow them (``delay=0`` in tests makes them act at once).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.timer import Timer
from textual.widgets import Footer, RichLog, Static

from cardroom.cards import Card, CardError, Rank
from cardroom.games.nain_jaune.engine import (
    CLAIM,
    PASS,
    Action,
    Claim,
    Event,
    IllegalAction,
    Pass,
    Play,
)
from cardroom.games.nain_jaune.terminal.input import InputError, Table
from cardroom.games.nain_jaune.terminal.text import (
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
from cardroom.i18n.words import N_, takes_call, tr_of, without_call
from cardroom.terminal.bindings import translate_bindings

MAX_HAND = 22
RANK_KEYS = {"a": "A", "t": "10", "0": "10", "j": "J", "q": "Q", "k": "K"} | {
    str(d): str(d) for d in range(2, 10)
}


class CardSlot(Static):
    """One place in the hand; shows a card or nothing. A click selects it, a second plays it."""

    def __init__(self, index: int) -> None:
        super().__init__("", id=f"card-{index}", classes="card")
        self.index = index
        self.card: Card | None = None

    def show(self, card: Card | None, selected: bool, playable: bool) -> None:
        """Display ``card`` (or hide the slot)."""
        self.card = card
        self.display = card is not None
        if card is None:
            self.set_class(False, "selected", "playable")
            return
        color = "red" if card.red else ""
        face = f"[{card.pretty}]" if selected else card.pretty
        self.update(Text(face, style=f"{color} {'bold' if playable else 'dim'}"))
        self.set_class(selected, "selected")
        self.set_class(playable, "playable")

    def on_click(self, event: events.Click) -> None:
        app = self.app
        if isinstance(app, NainJauneApp) and self.card is not None:
            app.card_clicked(self.index)


class Box(Static):
    """One of the five boxes of the board."""


class NainJauneApp(App[None]):
    """Play Nain Jaune against bots in the terminal."""

    TITLE = "cardroom · Nain Jaune"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { layout: vertical; }
    #title { height: 1; background: $primary-background; padding: 0 1; }
    #board { height: 4; }
    Box { width: 1fr; height: 4; border: round $secondary; content-align: center middle;
          text-align: center; }
    Box.dwarf { border: round yellow; }
    #middle { height: 1fr; }
    #players { width: 36; border: round $secondary; padding: 0 1; }
    #log { width: 1fr; border: round $secondary; }
    #sequence { height: 1; padding: 0 1; }
    #status { height: auto; max-height: 2; padding: 0 1; text-style: bold; }
    #message { height: 1; padding: 0 1; color: $error; }
    #hand { layout: grid; grid-size: 12; grid-columns: 5; grid-gutter: 0 1; height: auto;
            max-height: 4; border: round $accent; padding: 0 1; }
    .card { width: 5; height: 1; content-align: center middle; }
    .card.selected { background: $accent; text-style: bold; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "◀", show=False),
        Binding("right", "move(1)", "▶", show=False),
        Binding("enter,space", "play_selected", N_("Play card")),
        Binding("p", "pass_turn", N_("Pass")),
        Binding("c", "claim", N_("Claim")),
        Binding("n", "next_round", N_("Next round")),
        Binding("i", "hint", N_("Hint")),
        Binding("question_mark", "help", N_("Help")),
        Binding("escape,ctrl+c,ctrl+q", "quit", N_("Quit"), priority=True),
        *(Binding(key, f"select_rank('{rank}')", show=False) for key, rank in RANK_KEYS.items()),
    ]

    def __init__(
        self,
        table: Table,
        delay: float = 0.6,
        hints: bool = False,
        lang: str | Translator | None = None,
    ) -> None:
        super().__init__()
        self.table = table
        self.tr = tr_of(lang)
        translate_bindings(self, self.tr)
        self.speaker: Speaker | None = None
        """Says the calls aloud (``--speak``)."""
        self.delay = delay
        self.hints = hints
        """Whether the person may ask the expert for a suggestion (key i)."""
        self.selected = 0
        self.message = ""
        self._timer: Timer | None = None
        """Set while a bot waits or thinks, so that only one bot move is under way."""
        self._quitting = False

    # -- layout ----------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static("", id="title")
        with Horizontal(id="board"):
            for i in range(5):
                yield Box("", id=f"box-{i}", classes="dwarf" if i == 4 else "")
        with Horizontal(id="middle"):
            yield Static("", id="players")
            yield RichLog(id="log", wrap=True, min_width=20, max_lines=2000)
        yield Static("", id="sequence")
        yield Static("", id="status")
        yield Static("", id="message")
        with Vertical(id="hand"):
            for i in range(MAX_HAND):
                yield CardSlot(i)
        yield Footer()

    def on_mount(self) -> None:
        table = self.table
        log = self.query_one("#log", RichLog)
        others = ", ".join(self._label(s) for s in range(len(table.names)) if s != table.human)
        tr = self.tr
        log.write(tr._("{name} against {others}.", name=table.names[table.human], others=others))
        log.write(tr._("{rules}; seed {seed}. Press ? for help.",
                       rules=rules_text(table.game.rules, tr), seed=table.seed))
        if table.round is None:
            self._deal()
        self._advance()

    # -- the loop --------------------------------------------------------------

    def _deal(self) -> None:
        table = self.table
        events_ = table.start_round()
        pv = table.public_view()
        assert pv is not None and pv.to_act is not None
        names = table.round_names
        self._write_log(
            "",
            self.tr._("Round {number}: {dealer} deals, {opener} opens",
                      number=table.game.rounds_played + 1, dealer=names[pv.dealer],
                      opener=names[pv.to_act]),
        )
        self._log_events(events_)
        self._select_first_playable()

    def _advance(self) -> None:
        """Refresh the screen and let the bots act until it is the person's turn or a pause."""
        table = self.table
        if self.delay <= 0:
            while table.phase == "bot":
                self._log_events(table.bot_act())
        elif table.phase == "bot" and self._timer is None:
            self._timer = self.set_timer(self.delay, self._bot_step)
        if table.phase == "human":
            self._select_first_playable()
        self.refresh_table()

    def _bot_step(self) -> None:
        if self.table.phase == "bot":
            self.run_worker(self._think, thread=True, exclusive=True, group="bot")
        else:
            self._timer = None
            self._advance()

    def _think(self) -> None:
        """In a worker thread: let the bot choose (a search bot may take a while)."""
        action = self.table.bot_choose()
        with contextlib.suppress(RuntimeError):  # the app closed meanwhile
            self.call_from_thread(self._bot_done, action)

    def _bot_done(self, action: Action) -> None:
        self._timer = None
        if self.table.phase == "bot" and not self._quitting:
            self._log_events(self.table.bot_apply(action))
            self._advance()

    def _write_log(self, *lines: str) -> None:
        log = self.query_one("#log", RichLog)
        for line in lines:
            log.write(Text(line))

    def _log_events(self, evs: Iterable[Event]) -> None:
        table = self.table
        tr = self.tr
        evs = list(evs)
        self._write_log(*event_lines(evs, table.round_names, tr))
        if self.speaker is not None:
            self.speaker.say_events(evs, table.round_names)
        self._write_log(*table.take_notices())
        if table.phase in ("round-over", "game-over") and table.last_result is not None:
            rules = table.game.rules
            rnd = table.round
            assert rnd is not None
            self._write_log(
                *result_lines(table.last_result, rules, table.round_names, tr, rnd.events)
            )
            if table.game.result is not None:
                self._write_log("", *game_over_lines(table.game.result, table.names, tr))
                path = table.save()
                if path is not None:
                    self._write_log(tr._("Game saved to {path}", path=path))

    # -- what the screen shows --------------------------------------------------

    def _label(self, seat: int) -> str:
        label = self.table.labels.get(seat)
        name = self.table.names[seat]
        return f"{name} ({label})" if label else name

    def refresh_table(self) -> None:
        """Redraw everything from the table's public state and the person's own view."""
        table = self.table
        pv = table.public_view()
        view = table.view()
        rules = table.game.rules
        playing = pv is not None and pv.to_act is not None
        number = table.game.rounds_played + (1 if playing else 0)
        tr = self.tr
        fields_ = {"number": number, "rules": rules_text(rules, tr), "seed": table.seed}
        title = (
            tr._("Nain Jaune · round {number} · {dealer} deals · {rules} · seed {seed}",
                 dealer=table.round_names[pv.dealer], **fields_)
            if pv is not None
            else tr._("Nain Jaune · round {number} · {rules} · seed {seed}", **fields_)
        )
        self.query_one("#title", Static).update(Text(title))
        board = pv.board if pv is not None else table.game.board
        for i, card in enumerate(rules.board_cards):
            box = self.query_one(f"#box-{i}", Box)
            style = "bold red" if card.red else "bold"
            text = Text(card.pretty, style=style)
            text.append("\n" + tr.ngettext("{n} chip", "{n} chips", board[i]), style="")
            box.update(text)
        self.query_one("#players", Static).update(self._players_text())
        seq_line = Text()
        if view is not None and playing:
            seq, without = current_sequence(view)
            seq_line.append(tr._("Sequence: "))
            seq_line.append(cards_text(c for _, c in seq) or tr._("(new)"), style="bold")
            seq_line.append("  " + tr._("Next: {need}", need=need_text(view, tr)))
            if without:
                names = table.round_names
                seq_line.append("  " + tr._(
                    "(without it: {names})", names=", ".join(names[s] for s in without)
                ))
        self.query_one("#sequence", Static).update(seq_line)
        self.query_one("#status", Static).update(Text(self._status()))
        self.query_one("#message", Static).update(Text(self.message))
        self._show_hand()

    def _players_text(self) -> Text:
        table = self.table
        pv = table.public_view()
        seats = table.game.round_seats
        order = list(range(len(table.names)))
        if table.game.rules.direction == "anticlockwise":
            order = [order[0], *reversed(order[1:])]
        tr = self.tr
        player, chips_, cards_ = tr._("player"), tr._("chips"), tr._("cards")
        head = f"  {player:<16}{chips_:>6}{cards_:>6}\n"
        text = Text(head, style="dim")
        for seat in order:
            label = self._label(seat)
            label = label if len(label) <= 16 else label[:15] + "…"
            if seat in seats and pv is not None:
                pos = seats.index(seat)
                turn = pv.to_act == pos
                chips, cards = pv.chips[pos], str(pv.hand_sizes[pos])
            else:
                turn, chips, cards = False, table.game.chips[seat], tr._("out") if pv else ""
            line = f"{'▶ ' if turn else '  '}{label:<16}{chips:>6}{cards:>6}"
            style = "bold" if seat == table.human else ""
            text.append(line + "\n", style=style + (" reverse" if turn else ""))
        return text

    def _status(self) -> str:
        table = self.table
        phase = table.phase
        if phase == "game-over":
            res = table.game.result
            assert res is not None
            tr = self.tr
            who = tr.join(table.names[s] for s in res.winners)
            return tr.ngettext(
                "Game over: {names} with {n} chip. Esc to leave.",
                "Game over: {names} with {n} chips. Esc to leave.",
                res.chips[res.winners[0]], names=who,
            )
        tr = self.tr
        if phase == "round-over":
            return tr._("Round over: press n for the next round, Esc to stop (the game is saved).")
        if phase == "bot":
            return tr._("{name} is playing…", name=table.to_act_name)
        view = table.view()
        assert view is not None
        acts = view.legal_actions
        plays = [a for a in acts if isinstance(a, Play)]
        parts = [tr._("Your turn: play {need}.", need=need_text(view, tr))]
        if view.pending_claim is not None and any(isinstance(a, Claim) for a in acts):
            parts.append(tr._('c claims the {card} box ("{call}").', card=view.pending_claim.pretty,
                              call=takes_call(view.pending_claim, tr)))
        if not plays and any(isinstance(a, Pass) for a in acts):
            need = view.need
            parts.append(tr._('You have none: p says "{call}".', call=without_call(need or 1, tr)))
        elif plays:
            parts.append(tr._("Enter plays the highlighted card."))
        return " ".join(parts)

    def _hand(self) -> tuple[Card, ...]:
        view = self.table.view()
        return view.hand if view is not None else ()

    def _playable(self) -> list[int]:
        """The places in the hand of the cards the person may play now."""
        view = self.table.view()
        if view is None:
            return []
        legal = {a.card for a in view.legal_actions if isinstance(a, Play)}
        return [i for i, c in enumerate(view.hand) if c in legal]

    def _show_hand(self) -> None:
        view = self.table.view()
        hand = self._hand()
        legal = {a.card for a in view.legal_actions if isinstance(a, Play)} if view else set()
        playable = self._playable()
        if self.selected not in playable:  # the highlight rests only on a card one may play
            self.selected = playable[0] if playable else -1
        for i, slot in enumerate(self.query(CardSlot)):
            card = hand[i] if i < len(hand) else None
            slot.show(card, selected=i == self.selected, playable=card in legal)

    def _select_first_playable(self) -> None:
        view = self.table.view()
        if view is None:
            return
        legal = [a.card for a in view.legal_actions if isinstance(a, Play)]
        if legal:
            self.selected = view.hand.index(legal[0])

    # -- acting ----------------------------------------------------------------

    def _refuse(self, reason: str) -> None:
        self.message = self.tr._("Refused: {reason}", reason=reason)
        self.bell()
        self.refresh_table()

    def _act(self, action: Action) -> None:
        try:
            evs = self.table.human_act(action)
        except IllegalAction as exc:
            self._refuse(illegal_reason(exc.reason, self.tr))
            return
        except InputError as exc:
            self._refuse(str(exc))
            return
        self.message = ""
        self._log_events(evs)
        self._advance()

    def card_clicked(self, index: int) -> None:
        """A click selects a card; a click on the selected card plays it; a click on a card
        that cannot be played says why."""
        hand = self._hand()
        if index == self.selected:
            self.action_play_selected()
        elif index not in self._playable() and 0 <= index < len(hand):
            self._act(Play(hand[index]))  # refused, with the reason
        else:
            self.selected = index
            self.message = ""
            self.refresh_table()

    def action_move(self, step: int) -> None:
        """Move the highlight along the hand."""
        playable = self._playable()
        if playable:  # from playable card to playable card
            at = playable.index(self.selected) if self.selected in playable else -1
            self.selected = playable[(at + step) % len(playable)] if at >= 0 else playable[0]
            self.refresh_table()

    def action_select_rank(self, symbol: str) -> None:
        """Highlight the next card of this rank in the hand."""
        try:
            rank = Rank.parse(symbol)
        except CardError:
            return
        hand = self._hand()
        matches = [i for i, c in enumerate(hand) if c.rank == rank]
        if not matches:
            self._refuse(self.tr._("you hold no {rank}", rank=rank_phrase(rank, self.tr.lang)))
            return
        playable = [i for i in matches if i in self._playable()]
        if not playable:  # none of that rank may be played now: say why
            self._act(Play(hand[matches[0]]))
            return
        after = [i for i in playable if i > self.selected]
        self.selected = (after or playable)[0]
        self.message = ""
        self.refresh_table()

    def action_play_selected(self) -> None:
        """Play the highlighted card."""
        hand = self._hand()
        if not hand:
            self._refuse(self._why_no_hand())
            return
        if not 0 <= self.selected < len(hand):  # nothing can be played: the engine says why
            self._act(Play(hand[0]))
            return
        self._act(Play(hand[self.selected]))

    def _why_no_hand(self) -> str:
        if self.table.phase in ("round-over", "game-over"):
            return self.tr._("the round is over: press n for the next round")
        return self.tr._("you have no cards in this round")

    def action_pass_turn(self) -> None:
        """Say "without X"."""
        self._act(PASS)

    def action_claim(self) -> None:
        """Say "… who takes" for the board card just played."""
        self._act(CLAIM)

    def action_next_round(self) -> None:
        """Deal the next round once the last one is settled."""
        phase = self.table.phase
        if phase != "round-over":
            reason = (
                self.tr._("the game is over")
                if phase == "game-over"
                else self.tr._("the round is not over yet")
            )
            self._refuse(reason)
            return
        self.message = ""
        self._deal()
        self._advance()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The hint key is shown and works only at a table with hints on."""
        return self.hints or action != "hint"

    def action_hint(self) -> None:
        """Show the expert's suggestion for the person's move, from the person's view only."""
        from cardroom.games.nain_jaune.bots.hint import HintError, suggest

        view = self.table.view()
        if view is None or self.table.phase != "human":
            self._refuse(self.tr._("no hint: it is not your turn"))
            return
        try:
            _, reason = suggest(view, seed=len(view.events), lang=self.tr, letters=False)
        except HintError as exc:
            self._refuse(str(exc))
            return
        self._write_log(self.tr._("Hint: {reason}", reason=reason))

    def action_help(self) -> None:
        """Show the keys and commands in the log."""
        tr = self.tr
        self._write_log(
            "",
            tr._("Keys:"),
            "  " + tr._("←/→ or a rank (a 2-9 0/t j q k): choose a card"),
            "  " + tr._("Enter, Space, or a click on the chosen card: play it"),
            "  " + tr._('p: pass ("without X")'),
            "  " + tr._('c: claim ("… who takes", with announce=manual)'),
            "  " + tr._("n: next round · ?: this help")
            + (" · " + tr._("i: a hint from the expert") if self.hints else ""),
            "  " + tr._("Esc, Ctrl-C or Ctrl-Q: quit (the game is saved)"),
        )

    async def action_quit(self) -> None:
        """Save the record and leave."""
        self._quitting = True
        if self._timer is not None:
            self._timer.stop()
        self.table.save()
        self.exit()
