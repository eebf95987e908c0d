"""``cardroom serve``: what it prints, and the errors a user can cause."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from click.testing import CliRunner

from cardroom.cli.main import cli

SRC = str(Path(__file__).parents[2] / "src")


def test_help_has_examples() -> None:
    result = CliRunner().invoke(cli, ["serve", "--help"])
    assert result.exit_code == 0
    assert "cardroom serve --host 0.0.0.0" in result.output
    assert "--bot-delay" in result.output and "--db" in result.output
    for option in ("--secure-cookies", "--allowed-host", "--proxy", "--tables-per-minute"):
        assert option in result.output


def test_the_bounds_options_default_to_the_settings() -> None:
    from cardroom.cli.serve import serve
    from cardroom.web.settings import Settings

    defaults = {p.name: p.default for p in serve.params}
    assert defaults["tables_per_minute"] == Settings.tables_per_minute
    assert defaults["open_tables"] == Settings.open_tables_per_client
    assert defaults["sockets_per_address"] == Settings.sockets_per_address
    assert defaults["connections_per_address"] == Settings.connections_per_address
    assert defaults["max_connections"] == Settings.max_connections
    assert defaults["idle_connections_per_address"] == Settings.idle_connections_per_address
    assert defaults["keep_alive"] == Settings.keep_alive
    assert defaults["commit_window"] == Settings.commit_window


def test_keep_alive_reaches_uvicorn() -> None:
    from cardroom.web.server import uvicorn_config
    from cardroom.web.settings import Settings

    assert uvicorn_config(object(), Settings()).timeout_keep_alive == 5
    assert uvicorn_config(object(), Settings(keep_alive=75.0)).timeout_keep_alive == 75.0
    result = CliRunner().invoke(cli, ["serve", "--keep-alive", "0"])
    assert result.exit_code == 2 and "--keep-alive" in result.output


def test_a_port_in_use_says_to_choose_another(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        result = CliRunner().invoke(
            cli, ["serve", "--port", str(port), "--db", str(tmp_path / "x.db")]
        )
    assert result.exit_code == 1
    assert f"port {port} is already in use" in result.output
    assert f"--port {port + 1}" in result.output


def test_a_bad_database_says_what_to_do(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = CliRunner().invoke(cli, ["serve", "--db", str(blocker / "sub" / "x.db")])
    assert result.exit_code == 1
    assert "cannot open the database" in result.output and "--db ./cardroom.db" in result.output
    bad_url = CliRunner().invoke(cli, ["serve", "--db", "nosuchdriver://x"])
    assert bad_url.exit_code == 1 and "cannot open the database" in bad_url.output


def test_serve_prints_where_it_is_and_answers(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    db = tmp_path / "club.db"
    env = {**os.environ, "PYTHONPATH": SRC}
    command = [sys.executable, "-m", "cardroom", "serve", "--port", str(port), "--db", str(db),
               "--allowed-host", "cards.example.org"]  # fmt: skip
    server = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        first = server.stdout.readline()
        assert first == (
            f"cardroom is serving at http://127.0.0.1:{port}/ — open it in your browser\n"
        )
        assert str(db) in server.stdout.readline()
        for _ in range(300):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz") as response:
                    assert response.status == 200
                    break
            except OSError:
                time.sleep(0.05)
        else:
            raise AssertionError("the server never answered")
        named = urllib.request.Request(
            f"http://127.0.0.1:{port}/healthz", headers={"Host": "cards.example.org"}
        )
        with urllib.request.urlopen(named) as response:
            assert response.status == 200
        rebound = urllib.request.Request(
            f"http://127.0.0.1:{port}/healthz", headers={"Host": "evil.example"}
        )
        try:
            urllib.request.urlopen(rebound)
            raise AssertionError("a foreign Host was served")
        except urllib.error.HTTPError as exc:
            assert exc.code == 400
    finally:
        server.terminate()
        server.wait(30)
    assert db.exists()


def test_the_commit_window_reaches_the_store(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from cardroom.web import create_app
    from tests.web.conftest import settings_for

    app = create_app(settings_for(tmp_path, commit_window=2.5))
    with TestClient(app):
        assert app.state.store.commit_interval == 0.0025
    result = CliRunner().invoke(cli, ["serve", "--commit-window", "-1"])
    assert result.exit_code == 2 and "--commit-window" in result.output
