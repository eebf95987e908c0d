"""``cardroom play nain-jaune --plain`` driven through stdin, and the options of ``play``."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardroom.cards import parse_card, parse_cards
from cardroom.cli.main import cli
from cardroom.games.nain_jaune import CLAIM, PASS, Claim, Play
from cardroom.games.nain_jaune.bots.simple import GreedyBot
from cardroom.games.nain_jaune.cli.play import build_table, split_bot_specs
from cardroom.games.nain_jaune.terminal.input import Command, InputError, Table, parse_input
from cardroom.games.nain_jaune.terminal.plain import PlainGame
from cardroom.i18n.words import a_rank, card_name

ARGS = ["play", "nain-jaune", "--plain", "--seed", "3", "--name", "Ann", "--bots", "greedy"]


def table_for(*options: str) -> Table:
    """The table the command builds for ARGS (no records directory)."""
    return build_table(None, "classic", options, 3, "Ann", "medium", ("greedy",), None)


def to_human_turn(table: Table) -> None:
    if table.round is None:
        table.start_round()
    while table.phase == "bot":
        table.bot_act()


def scripted_commands(table: Table, last: bool = False) -> list[str]:
    """Play the whole game with a greedy policy for Ann (or ``last``: her last legal action,
    a pass whenever she may); the lines she would type."""
    lines: list[str] = []
    rng = random.Random(0)
    to_human_turn(table)
    while table.phase != "game-over":
        if table.phase == "bot":
            table.bot_act()
        elif table.phase == "round-over":
            lines.append("")
            table.start_round()
        else:
            view = table.view()
            assert view is not None
            action = view.legal_actions[-1] if last else GreedyBot().act(view, rng)
            lines.append(
                action.card.code
                if isinstance(action, Play)
                else "claim"
                if isinstance(action, Claim)
                else "pass"
            )
            table.human_act(action)
    return lines


def saved_record(tmp_path: Path) -> Path:
    files = sorted(tmp_path.glob("nain-jaune-*.json"))
    assert len(files) == 1
    return files[0]


def test_illegal_card_is_refused_with_the_reason_and_changes_nothing(tmp_path: Path) -> None:
    table = table_for()
    to_human_turn(table)
    view = table.view()
    assert view is not None and view.need is not None
    wrong = next(c for c in view.hand if c.rank != view.need)
    rnd = table.round
    assert rnd is not None
    reason = rnd.why_illegal(Play(wrong))
    assert reason == f"the next card must be {a_rank(view.need)}"
    # the same card typed twice, then quit: both refused, the round unchanged
    res = CliRunner().invoke(
        cli, [*ARGS, "--records", str(tmp_path)], input=f"{wrong.code}\n{wrong.pretty}\nquit\n"
    )
    assert res.exit_code == 0, res.output
    assert res.stdout.count(f"Refused: {reason}") == 2
    record = json.loads(saved_record(tmp_path).read_text())
    assert record[-1]["moves"] == rnd.moves()  # nothing but the bots' cards was played


def test_not_held_card_and_gibberish_are_refused(tmp_path: Path) -> None:
    table = table_for()
    to_human_turn(table)
    view = table.view()
    assert view is not None
    assert table.round is not None
    absent = table.round.talon[0]
    res = CliRunner().invoke(
        cli, [*ARGS, "--records", str(tmp_path)], input=f"{absent.code}\nfrobnicate\nclaim\n"
    )
    assert f"Refused: you do not hold the {card_name(absent)}" in res.stdout
    assert "Refused: cannot read 'frobnicate'" in res.stdout
    assert "Refused: there is no board card of yours to claim" in res.stdout
    assert "Game saved to" in res.stdout  # end of input quits and saves


def test_a_whole_game_through_stdin_saves_a_record_that_replays(tmp_path: Path) -> None:
    options = ("end=rounds:2",)
    expected = table_for(*options)
    lines = scripted_commands(expected)
    args = [*ARGS, "-o", "end=rounds:2", "--records", str(tmp_path)]
    res = CliRunner().invoke(cli, args, input="\n".join(lines) + "\n")
    assert res.exit_code == 0, res.output
    assert "Refused" not in res.stdout
    assert "Game over after 2 rounds (2 rounds played)" in res.stdout
    assert res.stdout.count("Round 2.") == 1
    path = saved_record(tmp_path)
    assert f"Replay it with: cardroom replay {path}" in res.stdout
    replay = CliRunner().invoke(cli, ["replay", str(path), "--json"])
    assert replay.exit_code == 0, replay.output
    out = json.loads(replay.stdout)
    assert len(out["rounds"]) == 2 and out["finished"] is True
    assert out["chips"] == list(expected.game.chips)
    assert list(out["board"].values()) == expected.game.board


def test_end_of_input_mid_game_keeps_every_card_played(tmp_path: Path) -> None:
    expected = table_for()
    lines = scripted_commands_until(expected, 3)
    res = CliRunner().invoke(cli, [*ARGS, "--records", str(tmp_path)], input="\n".join(lines))
    assert res.exit_code == 0, res.output
    record = json.loads(saved_record(tmp_path).read_text())
    rnd = expected.round
    assert rnd is not None
    assert record[-1]["moves"] == rnd.moves()
    replay = CliRunner().invoke(cli, ["replay", str(saved_record(tmp_path)), "--json"])
    assert replay.exit_code == 0 and json.loads(replay.stdout)["chips"] == rnd.chips


def scripted_commands_until(table: Table, count: int) -> list[str]:
    """Ann's first ``count`` commands (greedy); the bots' answers applied up to her next turn."""
    lines: list[str] = []
    rng = random.Random(0)
    to_human_turn(table)
    while len(lines) < count and table.phase == "human":
        view = table.view()
        assert view is not None
        action = GreedyBot().act(view, rng)
        lines.append(action.card.code if isinstance(action, Play) else "pass")
        table.human_act(action)
        while phase_now(table) == "bot":
            table.bot_act()
    return lines


def phase_now(table: Table) -> str:
    """The table's phase read afresh (after an action; a type checker keeps the phase it saw
    in a loop's condition)."""
    return table.phase


def test_help_and_state_commands(tmp_path: Path) -> None:
    res = CliRunner().invoke(cli, [*ARGS, "--records", str(tmp_path)], input="help\nstate\nquit\n")
    assert "Commands: a card" in res.stdout
    assert "Board: 10♦" in res.stdout and "Ann: 45 chips, " in res.stdout
    assert "To play: Ann" in res.stdout


def test_bad_options_exit_2_with_a_reason(tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(cli, [*ARGS[:2], "--plain", "--level", "godlike"])
    assert res.exit_code == 2 and "unknown level 'godlike': choose one of easy" in res.output
    res = runner.invoke(cli, [*ARGS[:2], "--plain", "-n", "4", "--bots", "random,greedy"])
    assert res.exit_code == 2 and "2 bots for 4 players" in res.output
    res = runner.invoke(cli, [*ARGS[:2], "--plain", "--bots", "nobot"])
    assert res.exit_code == 2 and "unknown bot 'nobot'" in res.output
    res = runner.invoke(cli, [*ARGS[:2], "--plain", "-o", "payment=gold"])
    assert res.exit_code == 2 and "payment='gold' is not valid" in res.output
    res = runner.invoke(cli, [*ARGS[:2], "--plain", "-o", "end=target:5000"])
    assert res.exit_code == 2 and "can never be reached" in res.output
    assert not list(tmp_path.iterdir())


def test_bot_specs_and_seats() -> None:
    assert split_bot_specs(("random,greedy:x=1,y=2", "easy")) == [
        "random",
        "greedy:x=1,y=2",
        "easy",
    ]
    table = build_table(None, "count", (), 1, "Bea", "easy", ("random,greedy",), None)
    assert table.names == ["Bea", "Cid", "Dee"] and table.labels == {1: "random", 2: "greedy"}
    assert table.game.rules.payment == "card-count"


def test_help_teaches_with_examples() -> None:
    runner = CliRunner()
    for args in ([], ["play"], ["play", "nain-jaune"], ["replay"]):
        res = runner.invoke(cli, [*args, "--help"])
        assert res.exit_code == 0
        assert "Examples:" in res.output and "  cardroom " in res.output
    text = " ".join(runner.invoke(cli, ["play", "nain-jaune", "--help"]).output.split())
    assert "Examples:" in text and "--plain" in text and "medium (greedy)" in text


def test_reading_commands() -> None:
    hand = parse_cards("7C 7H 10D QS")
    assert parse_input("10♦", hand) == Play(parse_card("10D"))
    assert parse_input(" td ", hand) == Play(parse_card("10D"))
    assert parse_input("10", hand) == Play(parse_card("10D"))  # the only ten
    assert parse_input("PASS", hand) is PASS and parse_input("c", hand) is CLAIM
    assert parse_input("", hand) == Command("next")
    assert parse_input("quit", hand) == parse_input("EXIT", hand) == Command("quit")
    # q is the queen (a rank shortcut like k and j), never quit
    assert parse_input("q", hand) == parse_input("Q", hand) == Play(parse_card("QS"))
    with pytest.raises(InputError, match=r"you hold no queen \(q is the queen: type quit"):
        parse_input("q", parse_cards("7C"))
    # two sevens: asked which when a seven may be played, the engine's reason otherwise
    with pytest.raises(InputError, match="you hold 2 cards of rank 7: type 7C or 7H"):
        parse_input("7", hand, need=7)
    assert parse_input("7", hand, need=9) == Play(parse_card("7C"))
    with pytest.raises(InputError, match="you hold no king"):
        parse_input("k", hand)
    with pytest.raises(InputError, match="cannot read 'xyz'"):
        parse_input("xyz", hand)


def test_the_bots_play_on_when_the_person_drops_out(tmp_path: Path) -> None:
    # last-standing with 20 chips: with seed 6 Ann, passing whenever she may, is broke after
    # round 1 (worked out by running the same table); Bea and Cid play on to the end.
    options = ("end=last-standing", "starting_chips=20")
    expected = build_table(3, "classic", options, 6, "Ann", "medium", ("greedy",), None)
    lines = scripted_commands(expected, last=True)
    assert expected.game.chips[0] == 0 and expected.game.rounds_played > 1
    args = ["play", "nain-jaune", "--plain", "--seed", "6", "--name", "Ann", "-n", "3"]
    args += ["--bots", "greedy", "-o", options[0], "-o", options[1], "--records", str(tmp_path)]
    res = CliRunner().invoke(cli, args, input="\n".join(lines) + "\n")
    assert res.exit_code == 0, res.output
    assert "You are out of the game: the bots play on." in res.stdout
    assert "Refused" not in res.stdout
    result = expected.game.result
    assert result is not None
    winner = expected.names[result.winners[0]]
    assert f"({result.reason}): {winner} wins." in res.stdout
    out = json.loads(
        CliRunner().invoke(cli, ["replay", str(saved_record(tmp_path)), "--json"]).stdout
    )
    assert len(out["rounds"]) == expected.game.rounds_played
    assert out["rounds"][1]["players"] == ["Bea", "Cid"]


class InterruptedStdin:
    """A terminal where the person presses Ctrl-C at the first prompt."""

    def readline(self) -> str:
        raise KeyboardInterrupt

    def isatty(self) -> bool:
        return True


def test_ctrl_c_saves_the_game(tmp_path: Path) -> None:
    table = build_table(None, "classic", (), 3, "Ann", "medium", ("greedy",), tmp_path)
    PlainGame(table, InterruptedStdin()).run()  # type: ignore[arg-type]
    record = json.loads(saved_record(tmp_path).read_text())
    rnd = table.round
    assert rnd is not None and len(rnd.played) > 0  # the bots had played up to Ann's turn
    assert record == table.record() and record[-1]["moves"] == rnd.moves()


def test_a_dropped_out_person_sees_no_hand() -> None:
    options = ("end=last-standing", "starting_chips=20")
    table = build_table(3, "classic", options, 6, "Ann", "medium", ("greedy",), None)
    scripted_commands_until_dropped(table)
    table.start_round()
    assert table.view() is None and table.human_pos is None
    public = table.public_view()
    assert public is not None and public.hand == () and public.legal_actions == ()
    assert public.hand_sizes == (22, 22)  # two players left: 22 cards each


def scripted_commands_until_dropped(table: Table) -> None:
    to_human_turn(table)
    while table.phase != "round-over":
        if table.phase == "bot":
            table.bot_act()
        else:
            view = table.view()
            assert view is not None
            table.human_act(view.legal_actions[-1])
    assert table.human not in table.game.active


def test_q_quits_between_rounds_and_shows_the_settlement_columns(tmp_path: Path) -> None:
    options = ("end=rounds:2",)
    lines = scripted_commands(table_for(*options))
    first_round = lines[: lines.index("")]  # Ann's moves of round 1, then the pause
    args = [*ARGS, "-o", "end=rounds:2", "--records", str(tmp_path)]
    res = CliRunner().invoke(cli, args, input="\n".join([*first_round, "q", "7D"]) + "\n")
    assert res.exit_code == 0, res.output
    # between rounds q cannot mean the queen: it quits (and saves); round 2 never starts
    assert "Round 2." not in res.stdout and "Game saved to" in res.stdout
    assert "Refused" not in res.stdout
    lines = res.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.split() == ["Boxes", "Doubled", "Grand"])
    assert lines[at + 1].split() == ["Player", "Stake", "taken", "Cards", "boxes", "Opéra", "Total"]
    rows = [line.split() for line in lines[at + 2 : at + 4]]  # Ann, then the bot
    assert [row[0] for row in rows] == ["Ann", "Bea"]
    for row in rows:  # each row adds up; nobody staked other than 15
        numbers = [int(x) for x in row[1:]]
        assert numbers[0] == -15 and sum(numbers[:-1]) == numbers[-1]


def test_a_bad_option_is_told_in_the_commands_language() -> None:
    runner = CliRunner()
    fr = runner.invoke(cli, [*ARGS[:2], "--plain", "--lang", "fr", "-o", "piles_of=2"])
    assert fr.exit_code == 2
    said = " ".join(fr.output.split())  # the wrapped lines and no-break spaces as plain spaces
    assert "option inconnue 'piles_of' : les options sont « Prendre une case »" in said
    spit = runner.invoke(cli, ["play", "spit", "--lang", "cy", "-o", "piles=3"])
    assert spit.exit_code == 2
    assert "Pentyrrau stoc: nid yw 3 yn ddilys" in " ".join(spit.output.split())
    english = runner.invoke(cli, ["play", "spit", "-o", "piles=3"])
    assert "piles=3 is not valid: use 5 or 4 (stock piles)" in " ".join(english.output.split())
