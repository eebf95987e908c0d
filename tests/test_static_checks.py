"""The code base stays typed (mypy --strict) and ruff-clean: CI runs both through pytest."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_mypy_strict() -> None:
    """Bare ``mypy`` checks what pyproject.toml names: the package and the tests."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert {"src", "tests"} <= set(config["tool"]["mypy"]["files"])
    result = _run(sys.executable, "-m", "mypy")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_clean() -> None:
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent))
    if ruff is None:
        pytest.fail("ruff is not installed: pip install -e '.[test]'")
    targets = [d for d in ("src", "tests", "benchmarks") if (ROOT / d).is_dir()]
    result = _run(ruff, "check", *targets)
    assert result.returncode == 0, result.stdout + result.stderr


def test_rules_core_imports_nothing_of_the_outside() -> None:
    """The rules core of games/ (all of it but each game's faces: its bots, kernel, terminal
    …, see ``test_layers.FACES``) imports only the standard library, cardroom.cards and the
    rules core."""
    from tests.test_layers import FACES, is_face

    allowed_prefixes = ("cardroom.cards", "cardroom.games")
    outside = ("cardroom.",)
    package = ROOT / "src" / "cardroom"
    for path in (package / "games").rglob("*.py"):
        if is_face(path.relative_to(package)):
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            words = line.split()
            if len(words) >= 2 and words[0] in ("import", "from"):
                module = words[1]
                parts = module.split(".")
                face = parts[:2] == ["cardroom", "games"] and len(parts) > 3 and parts[3] in FACES
                if module.startswith(outside) and (face or not module.startswith(allowed_prefixes)):
                    pytest.fail(f"{path.relative_to(ROOT)} imports {module}")
                assert not module.startswith(("textual", "rich", "click", "numba", "numpy")), (
                    f"{path.relative_to(ROOT)} imports {module}"
                )
