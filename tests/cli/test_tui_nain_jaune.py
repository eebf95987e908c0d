"""The Textual table driven with Textual's pilot: what it shows, keys, clicks, refusals, saving."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from textual.widgets import RichLog, Static

from cardroom.cards import parse_card
from cardroom.cli.main import cli
from cardroom.games.nain_jaune import PASS, Claim, Play
from cardroom.games.nain_jaune.cli.play import build_table
from cardroom.games.nain_jaune.engine import CardPlayed
from cardroom.games.nain_jaune.terminal.input import Table
from cardroom.games.nain_jaune.terminal.tui import RANK_KEYS, CardSlot, NainJauneApp
from cardroom.i18n.words import a_rank

SIZE = (100, 32)


def make_table(tmp_path: Path, *options: str, players: int | None = None) -> Table:
    return build_table(players, "classic", options, 3, "Ann", "medium", ("greedy",), tmp_path)


def text_of(app: NainJauneApp, selector: str) -> str:
    return str(app.query_one(selector, Static).content)


def log_text(app: NainJauneApp) -> str:
    return "\n".join(strip.text for strip in app.query_one("#log", RichLog).lines)


def shown_hand(app: NainJauneApp) -> list[str]:
    return [slot.card.pretty for slot in app.query(CardSlot) if slot.card and slot.display]


def snapshot(table: Table) -> tuple[object, ...]:
    rnd = table.round
    assert rnd is not None
    return ([list(h) for h in rnd.hands], len(rnd.events), list(rnd.chips), list(rnd.board))


def rank_key(symbol: str) -> str:
    return next(k for k, v in RANK_KEYS.items() if v == symbol)


async def test_board_players_sequence_and_hand_render(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    app = NainJauneApp(table, delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        rnd = table.round
        view = table.view()
        assert rnd is not None and view is not None and table.phase == "human"
        for i, card in enumerate(rnd.rules.board_cards):
            assert text_of(app, f"#box-{i}") == f"{card.pretty}\n{rnd.board[i]} chips"
        players = text_of(app, "#players")
        for pos, name in enumerate(["Ann", "Bea (greedy)", "Cid (greedy)", "Dee (greedy)"]):
            row = next(line for line in players.splitlines() if name in line)
            assert row.split()[-2:] == [str(rnd.chips[pos]), str(len(rnd.hands[pos]))]
        assert "▶ Ann" in players
        assert shown_hand(app) == [c.pretty for c in view.hand]
        assert "Your turn" in text_of(app, "#status")
        assert view.need is not None
        assert f"Next: {a_rank(view.need)}" in text_of(app, "#sequence")
        assert "Bea deals" in text_of(app, "#title") and "round 1" in text_of(app, "#title")
        log = log_text(app)
        assert "Stakes: 15 chips each on the board" in log
        for event in rnd.events:
            if isinstance(event, CardPlayed):
                assert event.describe(table.round_names) in log
        await pilot.press("question_mark")
        assert '  p: pass ("without X")' in log_text(app)
        await pilot.press("escape")


async def test_playing_a_card_with_keys(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    app = NainJauneApp(table, delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        view = table.view()
        assert view is not None
        card = next(a.card for a in view.legal_actions if isinstance(a, Play))
        app.selected = 0
        while view.hand[app.selected] is not card:
            await pilot.press(rank_key(card.rank.symbol))
        played_before = len(table.round.played) if table.round else 0
        await pilot.press("enter")
        await pilot.pause()
        rnd = table.round
        assert rnd is not None
        assert card not in rnd.hands[0]
        assert (0, card) in rnd.played and len(rnd.played) > played_before
        assert f"Ann plays {card.pretty}" in log_text(app)
        assert card.pretty not in shown_hand(app)
        assert app.message == ""


async def test_illegal_keys_show_the_reason_and_change_nothing(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    app = NainJauneApp(table, delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        rnd = table.round
        view = table.view()
        assert rnd is not None and view is not None and table.phase == "human"
        wrong = next(i for i, c in enumerate(view.hand) if c.rank != view.need)
        before = snapshot(table)
        legal = [i for i, c in enumerate(view.hand) if Play(c) in view.legal_actions]
        # the highlight moves from playable card to playable card only, never onto this one
        for _ in view.hand:
            await pilot.press("right")
            assert app.selected in legal
        # a click on a card that cannot be played says why (and the highlight stays)
        selected = app.selected
        await pilot.click(f"#card-{wrong}")
        reason = rnd.why_illegal(Play(view.hand[wrong]))
        assert reason and text_of(app, "#message") == f"Refused: {reason}"
        assert app.selected == selected
        await pilot.press("p")
        assert text_of(app, "#message") == f"Refused: {rnd.why_illegal(PASS)}"
        await pilot.press("c")
        assert text_of(app, "#message") == "Refused: there is no board card of yours to claim"
        await pilot.press("n")
        assert text_of(app, "#message") == "Refused: the round is not over yet"
        assert snapshot(table) == before and table.phase == "human"


async def test_click_selects_then_plays(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    app = NainJauneApp(table, delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        view = table.view()
        assert view is not None
        card = next(a.card for a in view.legal_actions if isinstance(a, Play))
        index = view.hand.index(card)
        legal = [i for i, c in enumerate(view.hand) if Play(c) in view.legal_actions]
        other = next((i for i in legal if i != index), None)
        if other is not None:  # (with one playable card, the highlight is on it already)
            await pilot.click(f"#card-{other}")
            assert app.selected == other and table.round and card in table.round.hands[0]
            await pilot.click(f"#card-{index}")
            assert app.selected == index and card in table.round.hands[0]
        assert app.selected == index
        await pilot.click(f"#card-{index}")
        await pilot.pause()
        assert table.round is not None
        assert card not in table.round.hands[0]


async def test_quitting_mid_game_saves_a_record_that_replays(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    app = NainJauneApp(table, delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("enter")  # the first playable card is highlighted on each turn
        await pilot.pause()
        await pilot.press("ctrl+c")
        await pilot.pause()
    rnd = table.round
    assert rnd is not None and not rnd.over and len(rnd.played) > 0
    assert table.path is not None and table.path.exists()
    res = CliRunner().invoke(cli, ["replay", str(table.path), "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["finished"] is False and out["cards_played"] == len(rnd.played)
    assert out["chips"] == rnd.chips


async def test_a_whole_game_with_manual_announcements(tmp_path: Path) -> None:
    table = make_table(tmp_path, "announce=manual", "end=rounds:2", players=8)
    app = NainJauneApp(table, delay=0)
    claims = 0
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for _ in range(500):
            if table.phase == "game-over":
                break
            if table.phase == "round-over":
                assert "press n" in text_of(app, "#status")
                await pilot.press("n")
                continue
            view = table.view()
            assert view is not None
            if any(isinstance(a, Claim) for a in view.legal_actions):
                claims += 1
                await pilot.press("c")
            elif any(isinstance(a, Play) for a in view.legal_actions):
                await pilot.press("enter")
            else:
                await pilot.press("p")
            assert app.message == ""
        await pilot.pause()
        assert table.phase == "game-over"
        assert "Game over" in text_of(app, "#status")
        assert "Game over after 2 rounds" in log_text(app)
    assert table.path is not None
    res = CliRunner().invoke(cli, ["replay", str(table.path), "--json"])
    out = json.loads(res.stdout)
    assert len(out["rounds"]) == 2 and out["chips"] == table.game.chips
    # every board card Ann played was claimed with c: announced in the record, never forgotten
    board = {parse_card(c) for c in ("10D", "JC", "QS", "KH", "7D")}
    announced = 0
    records: list[dict[str, Any]] = json.loads(json.dumps(table.game.records))
    for record in records:
        mine = {parse_card(c) for c in record["hands"][record["players"].index("Ann")]}
        for move in record["moves"]:
            card = parse_card(move if isinstance(move, str) else move["card"])
            if card in mine and card in board:
                assert isinstance(move, str)
                announced += 1
    assert claims == announced > 0


async def test_bots_wait_before_they_play(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    app = NainJauneApp(table, delay=60)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        rnd = table.round
        assert rnd is not None and rnd.played == []
        # Cid opens: he waits for his timer, the screen says so, nothing is played yet
        assert table.phase == "bot" and "Cid is playing" in text_of(app, "#status")
        assert app._timer is not None
        app._bot_step()  # what the timer does when it fires
        await app.workers.wait_for_complete()
        await pilot.pause()
        # exactly one move, Cid's opening card; the next move waits for its own timer
        assert len(rnd.played) == 1 and rnd.played[0][0] == 2
        assert f"Cid plays {rnd.played[0][1].pretty}" in log_text(app)
        await pilot.press("escape")


async def test_the_highlight_never_rests_on_a_card_that_cannot_be_played(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    app = NainJauneApp(table, delay=0)
    nothing_playable = 0
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for _ in range(60):
            view = table.view()
            if table.phase != "human" or view is None:
                break
            legal = [i for i, c in enumerate(view.hand) if Play(c) in view.legal_actions]
            highlighted = [slot for slot in app.query(CardSlot) if slot.has_class("selected")]
            if legal:
                assert app.selected in legal and len(highlighted) == 1
                await pilot.press("enter")
            else:  # only "without" is left: no card is highlighted, Enter plays nothing
                nothing_playable += 1
                assert app.selected == -1 and not highlighted
                before = snapshot(table)
                await pilot.press("enter")
                assert snapshot(table) == before and text_of(app, "#message").startswith("Refused")
                await pilot.press("p")
            await pilot.pause()
    assert nothing_playable, "the round never left the person without a playable card"
