"""The replay viewer opens a record file the user uploads."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Browser, expect

from tests.e2e.conftest import DESKTOP, PHONE

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "games" / "nain-jaune-example.json"


def test_replay_viewer_steps_through_an_uploaded_record(
    server: str, browser: Browser, shots: Path
) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server + "/replay")
    assert page.locator("#viewer").is_hidden()
    page.set_input_files("#upload-file", str(EXAMPLE))
    page.wait_for_selector("#viewer:not([hidden])")
    # by hand: Bob (after the dealer Ann) plays 2C 3C 4C, says "without 5", Cid plays 5C..10C
    # and is out (a grand opéra): the deal, 3 cards, 1 pass, 6 cards = 11 steps
    assert page.locator("#r-pos").inner_text() == "Round 1 of 1 · step 1 of 11"
    hands = page.locator("#r-players li")
    assert hands.count() == 8
    assert hands.nth(0).locator(".card").count() == 6
    assert hands.nth(1).locator(".seat-name").inner_text() == "Bob"
    assert hands.nth(1).locator(".card[aria-label='2 of clubs']").count() == 1
    page.click("#r-next")
    assert page.locator("#r-sequence .card").all() and [
        c.get_attribute("aria-label") for c in page.locator("#r-sequence .card").all()
    ] == ["2 of clubs"]
    assert page.locator("#r-players li").nth(1).locator(".card").count() == 5
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert page.locator("#r-pos").inner_text() == "Round 1 of 1 · step 5 of 11"
    assert page.locator("#r-text").inner_text().strip() == 'Bob: "without 5"'
    page.screenshot(path=str(shots / "replay-upload-desktop.png"), full_page=True)
    page.keyboard.press("End")
    assert page.locator("#r-pos").inner_text() == "Round 1 of 1 · step 11 of 11"
    assert page.locator("#r-players li").nth(2).locator(".card").count() == 0
    assert "Grand opéra!" in page.locator("#r-text").inner_text()
    settlement = page.locator("#r-settlement")
    assert "Cid went out with a Grand Opéra!" in settlement.inner_text()
    rows = {
        r.locator("th").inner_text(): r.locator("td").all_inner_texts()
        for r in settlement.locator("tbody tr").all()
    }
    assert len(rows) == 8
    heads = settlement.locator("thead th").all_inner_texts()
    assert heads == [
        "Player", "Stake", "Boxes taken", "Cards", "Doubled boxes", "Grand Opéra", "Total", "Chips"
    ]  # the table's end-of-round columns  # fmt: skip
    # Hal and Gus staked 15 of their 60 and paid Cid all the 45 they had left
    assert rows["Hal"] == ["-15", "·", "-45", "·", "·", "-60", "0"]
    assert rows["Gus"] == ["-15", "·", "-45", "·", "·", "-60", "0"]
    assert rows["Cid"][0] == "-15" and rows["Cid"][5].startswith("+")
    page.screenshot(path=str(shots / "replay-settlement-desktop.png"), full_page=True)
    page.keyboard.press("Home")
    assert page.locator("#r-pos").inner_text() == "Round 1 of 1 · step 1 of 11"
    page.set_viewport_size(PHONE)
    page.keyboard.press("ArrowRight")
    page.screenshot(path=str(shots / "replay-upload-phone.png"), full_page=True)
    assert errors == []
    ctx.close()


def test_replay_viewer_says_what_is_wrong_with_a_bad_file(
    server: str, browser: Browser, tmp_path: Path
) -> None:
    bad = tmp_path / "notes.json"
    bad.write_text('{"game": "nain-jaune", "players": ["Ann"]}', encoding="utf-8")
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    page.goto(server + "/replay")
    page.set_input_files("#upload-file", str(bad))
    error = page.locator("#replay-error")
    expect(error).not_to_be_empty()
    assert "round" in error.inner_text() or "record" in error.inner_text()
    assert page.locator("#viewer").is_hidden()
    ctx.close()


def test_the_replay_boards_spoken_labels_are_in_the_readers_language(
    server: str, browser: Browser
) -> None:
    """A screen reader hears « case du 10 de carreau », « 15 jetons » (« blwch 10 diemwntau »,
    « 15 o sglodion » in Welsh), not the English " chips" and " box" the page once wrote."""

    def french(n: int) -> str:
        return "jeton" if n <= 1 else "jetons"

    def welsh(n: int) -> str:  # the singular after 1, 2, 3 and 6; « o » and the plural else
        return "sglodyn" if n in (1, 2, 3, 6) else "o sglodion"

    spoken: dict[str, tuple[str, Callable[[int], str]]] = {
        "fr": ("case du 10 de carreau", french),
        "cy": ("blwch 10 diemwntau", welsh),
    }
    for lang, (first_box, chips_word) in spoken.items():
        ctx = browser.new_context(viewport=DESKTOP)
        page = ctx.new_page()
        page.goto(f"{server}/replay?lang={lang}")
        page.set_input_files("#upload-file", str(EXAMPLE))
        page.wait_for_selector("#viewer:not([hidden])")
        boxes = page.locator("#r-board .box")
        expect(boxes).to_have_count(5)
        assert boxes.nth(0).get_attribute("aria-label") == first_box
        for i in range(5):
            chips = int(boxes.nth(i).locator(".chips").inner_text().split()[0])
            said = boxes.nth(i).locator(".sr-only").text_content() or ""
            assert said == " " + chips_word(chips), (lang, i, said)
            assert "chips" not in said and "box" not in (
                boxes.nth(i).get_attribute("aria-label") or ""
            )
        ctx.close()


def test_the_play_back_steps_on_pauses_and_stops_at_the_end(
    server: str, browser: Browser, shots: Path
) -> None:
    from tests.e2e.helpers import wait_until

    page = browser.new_context(viewport=DESKTOP).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server + "/replay")
    page.set_input_files("#upload-file", str(EXAMPLE))
    page.wait_for_selector("#viewer:not([hidden])")
    pos = page.locator("#r-pos")
    play = page.locator("#r-play")
    assert play.inner_text() == "▶ Play" and play.get_attribute("aria-pressed") == "false"
    play.focus()
    page.keyboard.press("Enter")  # by keyboard: the button has the focus
    assert play.inner_text() == "❚❚ Pause" and play.get_attribute("aria-pressed") == "true"
    wait_until(lambda: pos.inner_text().endswith("step 3 of 11"), what="two steps played")
    for size, tag in ((DESKTOP, "1280"), (PHONE, "390")):
        page.set_viewport_size(size)
        page.screenshot(path=str(shots / f"replay-playing-{tag}.png"))
    page.keyboard.press("Space")  # the same button pauses
    assert play.inner_text() == "▶ Play" and play.get_attribute("aria-pressed") == "false"
    paused = pos.inner_text()
    page.wait_for_timeout(2500)  # two steps' time and more: nothing moves while paused
    assert pos.inner_text() == paused
    page.locator("#r-slider").fill("8")
    assert pos.inner_text().endswith("step 9 of 11")
    play.click()
    wait_until(lambda: play.get_attribute("aria-pressed") == "false", what="the end")
    assert pos.inner_text().endswith("step 11 of 11")  # it stopped at the last step
    play.click()  # at the end, Play starts again from the first step
    wait_until(lambda: pos.inner_text().endswith("step 1 of 11"), what="the first step")
    play.click()
    assert errors == []
    page.context.close()
