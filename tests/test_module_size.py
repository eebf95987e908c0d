"""No module of ``cardroom`` is over :data:`MOST_LINES` lines unless it is one concern.

A module that long must say which concern it is and why it stays one file, in a paragraph of
its docstring that starts with ``One concern:`` (a rules engine's state machine, a numba kernel
whose functions call each other, one store's SQL...). Anything else is split by what it does
into modules a new engineer reads in one sitting.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "cardroom"

MOST_LINES = 600
MARK = "One concern:"

def lines_of(path: Path) -> int:
    """The module's lines, as ``wc -l`` counts them."""
    return path.read_bytes().count(b"\n")


def unexplained(root: Path, most: int = MOST_LINES) -> dict[str, int]:
    """Modules under ``root`` over ``most`` lines whose docstring has no ``One concern:``
    paragraph: their path relative to ``root`` -> their lines."""
    found: dict[str, int] = {}
    for path in sorted(root.rglob("*.py")):
        n = lines_of(path)
        if n <= most:
            continue
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        if not any(p.strip().startswith(MARK) for p in doc.split("\n\n")):
            found[path.relative_to(root).as_posix()] = n
    return found


def test_every_long_module_says_its_one_concern() -> None:
    found = unexplained(PACKAGE)
    assert not found, (
        f"modules over {MOST_LINES} lines without a '{MARK}' paragraph in their docstring "
        f"(split them by what they do, or say which one concern each is and why): {found}"
    )


def test_the_check_finds_a_long_module_without_its_concern(tmp_path: Path) -> None:
    body = "x = 1\n" * MOST_LINES
    (tmp_path / "short.py").write_text('"""Short."""\n' + "x = 1\n" * (MOST_LINES - 1))
    (tmp_path / "long.py").write_text('"""A grab-bag."""\n' + body)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "kernel.py").write_text(
        '"""Compiled.\n\nOne concern: one kernel, for numba\'s cache."""\n' + body
    )
    (tmp_path / "pkg" / "engine.py").write_text(
        '"""An engine; the words One concern: mid-sentence do not count."""\n' + body
    )
    assert unexplained(tmp_path) == {"long.py": MOST_LINES + 1, "pkg/engine.py": MOST_LINES + 1}
