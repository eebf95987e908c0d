"""docs/bots-api.md's "A bot in 20 lines", run as written (its own process) against a real
server: it accepts Ann's invitation and plays her a whole Nain Jaune game."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import sys
from pathlib import Path

import httpx

from tests.web.conftest import AutoPlayer, serving, settings_for

ROOT = Path(__file__).resolve().parents[2]


def example() -> str:
    text = (ROOT / "docs" / "bots-api.md").read_text(encoding="utf-8")
    section = text[text.index("## A bot in 20 lines") :]
    found = re.search(r"```python\n(.*?)```", section, re.S)
    assert found is not None
    return found.group(1)


def test_the_example_is_at_most_20_lines_of_code() -> None:
    code = [ln for ln in example().splitlines() if ln.strip() and not ln.strip().startswith('"')]
    assert len(code) <= 20, len(code)


async def test_the_docs_example_plays_a_whole_game(tmp_path: Path) -> None:
    (tmp_path / "my_bot.py").write_text(example(), encoding="utf-8")
    async with serving(settings_for(tmp_path)) as (_app, address):
        base = f"http://{address}"
        origin = {"origin": base}
        ann = httpx.AsyncClient(base_url=base, timeout=30)
        async with contextlib.aclosing(ann):
            assert (await ann.post("/api/me", json={"name": "Ann"}, headers=origin)).is_success
            bot_id = (
                await ann.post("/api/me/bots", json={"name": "Lowest"}, headers=origin)
            ).json()["id"]
            token = (
                await ann.post(f"/api/me/bots/{bot_id}/tokens", json={}, headers=origin)
            ).json()["token"]
            body = {"name": "Ann", "game": "nain-jaune", "players": 2,
                    "options": {"end": "rounds:2"},
                    "seats": [{"kind": "person"}, {"kind": "person"}]}  # fmt: skip
            table = (await ann.post("/api/tables", json=body)).json()["table"]
            env = {**os.environ, "CARDROOM_URL": base, "CARDROOM_BOT_TOKEN": token,
                   "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}  # fmt: skip
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "my_bot.py", cwd=tmp_path, env=env,
                stderr=asyncio.subprocess.PIPE,
            )  # fmt: skip
            try:
                for _ in range(300):  # its event stream is open once it is listed as listening
                    invited = await ann.post(
                        f"/api/tables/{table}/seats/1/invite", json={"bot": "Lowest"},
                        headers=origin,
                    )  # fmt: skip
                    if invited.status_code == 200:
                        break
                    await asyncio.sleep(0.1)
                assert invited.status_code == 200, invited.text
                person = AutoPlayer(address, table, ann.cookies.get(f"cr_seat_{table}"))
                person.headers = {"cookie": f"cr_player={ann.cookies.get('cr_player')}"}
                await person.connect()
                final = await person.wait_for(
                    lambda f: f["type"] == "state" and f["status"] == "over", timeout=180
                )
                await person.close()
                code = await asyncio.wait_for(proc.wait(), 60)
            finally:
                if proc.returncode is None:
                    proc.kill()
                    await proc.wait()
            assert proc.stderr is not None
            errors = (await proc.stderr.read()).decode()
    assert code == 0, errors
    assert final["game_result"]["rounds"] == 2
    assert final["seats"][1]["name"] == "Lowest" and final["seats"][1]["program"] is True
    assert not final["seats"][1]["bot_playing"]
