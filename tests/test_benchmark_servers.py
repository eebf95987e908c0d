"""The benchmarks that start servers still run: ``load.py`` and ``soak.py`` (each a few
seconds, 127.0.0.1 only). Their figures are not checked here, only that every step ran,
every table was made and no client saw an error (a broken server wrapper went unnoticed once)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> str:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    done = subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=240
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout


def _rows(out: str, first: str) -> list[dict[str, str]]:
    """The rows of the markdown table whose header starts with ``first``, by column name."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {first} |"))
    head = [c.strip() for c in lines[start].strip("|").split("|")]
    rows = []
    for line in lines[start + 2 :]:
        if line.startswith("| "):
            cells = [c.strip() for c in line.strip("|").split("|")]
            rows.append(dict(zip(head, cells, strict=True)))
    return rows


def test_the_load_benchmark_runs_its_server_and_clients() -> None:
    out = _run(
        "benchmarks/load.py",
        *("--tables", "4", "--seconds", "3", "--settle", "1", "--modes", "sqlite"),
        *("--peer-ref", "none"),
    )
    rows = _rows(out, "set-up")
    assert [(r["set-up"], r["tables"], r["held"], r["errors"]) for r in rows] == [
        ("SQLite, 1 process", "4", "4", "0")
    ], out
    assert float(rows[0]["actions/s"]) > 0, out


def test_the_soak_runs_its_monitored_server_and_reports_each_minute() -> None:
    out = _run("benchmarks/soak.py", "--tables", "2", "--minutes", "0.15")
    rows = _rows(out, "server")
    assert [(r["server"], r["minute"], r["tables"], r["errors"]) for r in rows] == [
        ("freeze only (now)", "1", "2", "0"),
        ("full GC every 60 s (before)", "1", "2", "0"),
    ], out
    assert all(float(r["RSS MB"]) > 0 for r in rows), out
    # the monitor's census at the end (SIGUSR1) came back for both servers
    assert out.count("then one full collection of everything") == 2, out
