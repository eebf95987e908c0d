"""cardroom works without the research extra; the adapters say how to get it."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

SRC = Path(__file__).parents[2] / "src"

_BLOCK = """
import importlib.abc, sys
BLOCKED = ("pettingzoo", "gymnasium", "pyspiel", "open_spiel")
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, Block())
"""


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _BLOCK + textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": str(SRC), "PATH": ""},
    )


def test_the_rest_of_cardroom_imports_without_the_research_libraries() -> None:
    result = _run(
        """
        import cardroom, cardroom.bots, cardroom.games.nain_jaune.sim.play, cardroom.cli.main
        import cardroom.games.nain_jaune.research
        import cardroom.games.nain_jaune.research.encoding
        import cardroom.games.nain_jaune.research.resample
        loaded = [m for m in sys.modules if m.split(".")[0] in BLOCKED]
        print("loaded:", loaded)
        """
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "loaded: []"


def test_an_adapter_without_its_library_names_the_extra() -> None:
    for module in ("pettingzoo_env", "gym_env", "openspiel_game"):
        result = _run(f"import cardroom.games.nain_jaune.research.{module}")
        assert result.returncode != 0
        assert "folder: pip install '.[research]'" in result.stderr, result.stderr
