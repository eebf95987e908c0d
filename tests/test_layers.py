"""The import graph of ``cardroom`` follows its layers: no package imports one above it or
beside it, so there is no cycle between packages (the table is also in docs/architecture.md).

Every ``import`` counts, wherever it stands: at the top, inside a function, or under
``TYPE_CHECKING`` (a cycle hidden from the interpreter is still a cycle for a reader).
"""

from __future__ import annotations

import ast
import functools
from collections import defaultdict
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "cardroom"

LAYERS: tuple[tuple[str, ...], ...] = (
    ("cards",),  # card codes and names
    ("games",),  # the rules core: engines, records, views
    ("arbiter", "kernels", "store"),  # real-time clocks/arbiter, compiled kernels, event log
    ("i18n",),  # words in every language
    ("bots",),
    ("research",),
    ("sim", "analysis"),  # many games: simulation, tournaments, simulated tables; game analysis
    ("tables",),  # the table services (state machines, seats, logs, bots, chat)
    ("terminal", "web", "botclient"),  # the front ends (botclient: a program at a server's table)
    ("cli",),  # the command definitions
    ("__main__",),
)
"""Bottom to top: a package may import only packages of a lower layer."""

EXCEPTIONS: dict[tuple[str, str], str] = {
    ("i18n/build.py", "cli"): "the catalog builder walks the command tree for --help texts",
}
"""(file, package it imports against the layers): why."""

MODULE_CYCLES: tuple[frozenset[str], ...] = (
    frozenset({"cardroom.cli.groups", "cardroom.cli.helptext"}),
    frozenset({"cardroom.games.spit.engine", "cardroom.games.spit.view"}),
    frozenset({"cardroom.games.speed.engine", "cardroom.games.speed.view"}),
)
"""Known cycles between two modules of one package (lazy imports); no new one may appear."""

LAYER_OF = {name: i for i, layer in enumerate(LAYERS) for name in layer}

FACES: dict[str, str] = {
    "kernel": "kernels",
    "bots": "bots",
    "research": "research",
    "sim": "sim",
    "analysis": "analysis",
    "table": "tables",
    "words": "i18n",
    "terminal": "terminal",
    "cli": "cli",
    "web": "web",
}
"""A game's folder holds its rules core (``rules``, ``engine``, ``view``, ``record`` …: layer
``games``) and its faces, each standing in the layer it serves: ``games/<game>/<face>`` (a
module or a package) is judged as a module of the package named here."""


def _modules(root: Path) -> dict[str, Path]:
    mods = {}
    for path in root.rglob("*.py"):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods[".".join(("cardroom", *parts))] = path
    return mods


def _imported(tree: ast.AST) -> list[str]:
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names += [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
    return [n for n in names if n == "cardroom" or n.startswith("cardroom.")]


def import_graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    """Module -> the ``cardroom`` modules it imports (a name resolved to its module)."""
    if root == PACKAGE:  # parsed once per process: several tests read it
        return defaultdict(set, {m: set(t) for m, t in _package_graph().items()})
    return _parse_graph(root)


@functools.cache
def _package_graph() -> dict[str, frozenset[str]]:
    return {m: frozenset(t) for m, t in _parse_graph(PACKAGE).items()}


def _parse_graph(root: Path) -> dict[str, set[str]]:
    mods = _modules(root)
    graph: dict[str, set[str]] = defaultdict(set)
    for mod, path in mods.items():
        for name in _imported(ast.parse(path.read_text(encoding="utf-8"))):
            while name not in mods:
                name = name.rpartition(".")[0]
            if name not in (mod, "cardroom"):
                graph[mod].add(name)
    return graph


def _package(mod: str) -> str:
    """The layer package of ``mod``: its top package, or for a game's face the layer it serves."""
    parts = mod.split(".")
    if parts[1] == "games" and len(parts) > 3 and parts[3] in FACES:
        return FACES[parts[3]]
    return parts[1]


def is_face(relative: Path) -> bool:
    """True for a file of a game's face (``games/<game>/<face>…``), given relative to the
    package; the rest of ``games/`` is the rules core."""
    parts = relative.with_suffix("").parts
    return len(parts) > 2 and parts[0] == "games" and parts[2] in FACES


def layer_violations(root: Path = PACKAGE) -> list[str]:
    """Every import of a package at the same or a higher layer, not in :data:`EXCEPTIONS`."""
    mods = _modules(root)
    found = []
    for mod, targets in sorted(import_graph(root).items()):
        src = _package(mod)
        file = mods[mod].relative_to(root).as_posix()
        for target in sorted(targets):
            dst = _package(target)
            if dst == src or (file, dst) in EXCEPTIONS:
                continue
            if src not in LAYER_OF or dst not in LAYER_OF:
                found.append(f"{mod} -> {target}: a package missing from LAYERS")
            elif LAYER_OF[dst] >= LAYER_OF[src]:
                found.append(f"{mod} -> {target}: {src} may not import {dst}")
    return found


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one node (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    nodes = sorted(set(graph) | {t for ts in graph.values() for t in ts})
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(frozenset(component))
    return found


def test_every_package_is_in_a_layer() -> None:
    packages = {_package(m) for m in _modules(PACKAGE) if m != "cardroom"}
    assert packages - set(LAYER_OF) == set()


def test_no_package_imports_one_above_or_beside_it() -> None:
    assert layer_violations() == []


def test_no_cycle_between_packages() -> None:
    graph: dict[str, set[str]] = defaultdict(set)
    for mod, targets in import_graph().items():
        graph[_package(mod)] |= {_package(t) for t in targets} - {_package(mod)}
    exempt = {(f.split("/")[0], dst) for f, dst in EXCEPTIONS}
    graph = {src: {d for d in dsts if (src, d) not in exempt} for src, dsts in graph.items()}
    assert cycles(graph) == []


def test_no_new_cycle_between_modules() -> None:
    assert sorted(map(sorted, cycles(import_graph()))) == sorted(map(sorted, MODULE_CYCLES))


def test_the_table_services_do_not_import_each_other() -> None:
    graph = import_graph()
    assert "cardroom.tables.service" not in graph["cardroom.tables.realtime_service"]


@pytest.mark.parametrize(
    ("file", "line", "expected"),
    [
        ("games/spit/rules.py", "from cardroom.tables import TableError\n", "games may not"),
        ("kernels/streams.py", "from cardroom.bots.base import Bot\n", "kernels may not"),
        ("store/events.py", "from cardroom.arbiter import Clock\n", "store may not"),
        ("tables/config.py", "from cardroom.terminal import bindings\n", "tables may not"),
    ],
)
def test_a_forbidden_import_is_found(tmp_path: Path, file: str, line: str, expected: str) -> None:
    """A copy of the package with one upward (or sideways) import added fails the check."""
    import shutil

    def not_python(folder: str, names: list[str]) -> list[str]:
        return [n for n in names if not n.endswith(".py") and not Path(folder, n).is_dir()]

    copy = tmp_path / "cardroom"
    shutil.copytree(PACKAGE, copy, ignore=not_python)
    target = copy / file
    target.write_text(line + target.read_text(encoding="utf-8"), encoding="utf-8")
    assert any(expected in v for v in layer_violations(copy))
    assert not (PACKAGE / file).read_text(encoding="utf-8").startswith(line)  # the copy's


def test_a_new_module_cycle_is_found() -> None:
    graph = {"a.x": {"a.y"}, "a.y": {"a.z"}, "a.z": {"a.x"}, "a.w": {"a.x"}}
    assert cycles(graph) == [frozenset({"a.x", "a.y", "a.z"})]
