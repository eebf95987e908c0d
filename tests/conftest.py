"""Every test reads English words unless it asks for another language (whatever the locale).

SQLAlchemy closes a discarded aiosqlite connection "gracefully" in a task that waits for the
connection's own thread. In a test process, where every test's server has an event loop of its
own, a connection left from an earlier test can be finalized in a later test's loop, and that
task then never ends: the later test hangs in its TestClient's shutdown. The tests close such
connections at once instead (what SQLAlchemy does when no loop runs).

A test client's websocket waits for a frame at most a minute: a frame that never comes fails
the test at once instead of hanging the run.

Hypothesis has two profiles: ``full`` (each test's own example count) and ``fast``, which runs
at most ``FAST_EXAMPLES`` examples of each property. A run that leaves out the slow tests (the
fast core, ``-m "not slow ..."``) takes ``fast`` unless ``--hypothesis-profile`` says otherwise;
every other run, the README's and CI's included, takes ``full``.
"""

from __future__ import annotations

import os
from typing import Any

import anyio
import pytest
from hypothesis import settings
from sqlalchemy.dialects.sqlite import aiosqlite as _sa_aiosqlite
from starlette import testclient as _testclient

os.environ["CARDROOM_LANG"] = "en"


async def _close_at_once(self: Any) -> None:
    self._terminate_force_close()


_sa_aiosqlite.AsyncAdapt_aiosqlite_connection._terminate_graceful_close = _close_at_once  # type: ignore[method-assign]


async def _receive_with_deadline(session: Any) -> Any:
    with anyio.fail_after(60):
        return await session._send_rx.receive()


def _receive(self: Any) -> Any:
    return self.portal.call(_receive_with_deadline, self)


_testclient.WebSocketTestSession.receive = _receive  # type: ignore[method-assign]

def _quick_hasher() -> Any:
    from argon2 import PasswordHasher

    return PasswordHasher(time_cost=1, memory_cost=64, parallelism=1)


@pytest.fixture(autouse=True)
def _quick_password_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Passwords are hashed and checked with argon2id at its lowest cost in tests: the same
    code path and real hashes, without 64 MiB and three passes each (over a second apiece on
    a busy machine). A digest of the server's own cost still checks: argon2 reads the cost
    from the digest."""
    monkeypatch.setattr("cardroom.store.players._hasher", _quick_hasher)


FAST_EXAMPLES = 10
settings.register_profile("full", deadline=None)
settings.register_profile("fast", deadline=None, max_examples=FAST_EXAMPLES)
_fast_examples = pytest.StashKey[bool]()


def pytest_configure(config: pytest.Config) -> None:
    """Take the ``fast`` Hypothesis profile for the fast core, ``full`` otherwise."""
    chosen = config.getoption("hypothesis_profile", None)
    if chosen is None:
        fast_core = "not slow" in (config.getoption("markexpr", "") or "")
        chosen = "fast" if fast_core else "full"
        settings.load_profile(chosen)
    config.stash[_fast_examples] = chosen == "fast"


# Files that start server processes, run the static checkers or play many games: minutes each.
_SLOW_FILES = frozenset(
    {
        "test_benchmark_servers.py",
        "test_static_checks.py",
        "test_kill.py",
        "test_realtime_presence_kill.py",
        "test_serve.py",
        "test_router_process.py",
        "test_robust_cli.py",
        "test_terminal_table.py",
        "test_optional_extra.py",
    }
)

# Single tests over 5 s in the fast core (`--durations=30`, two workers): many games or rollouts.
_SLOW_TESTS = frozenset(
    {
        "test_the_lead_that_plays_out_the_hand_is_best",
        "test_hint_reasons_in_french_and_welsh",
        "test_a_speed_match_deals_games_until_the_target_and_its_record_replays",
        "test_fast_games_equal_readable_games",
        "test_specialized_chunks_report_the_general_statistics",
        "test_no_frame_shows_a_card_its_seat_could_not_see",
        "test_random_rounds_keep_every_invariant_and_replay",
        "test_specialized_random_round_is_the_general_round",
        "test_no_frame_names_a_card_its_client_could_not_see",
        "test_a_compiled_rollout_from_a_position_settles_as_the_readable_engine",
        "test_random_streams_keep_every_invariant",
        "test_an_action_between_two_games_of_a_match_is_refused_in_words",
        "test_a_spit_match_is_won_by_the_first_to_win_two_games",
        "test_the_highlight_never_rests_on_a_card_that_cannot_be_played",
        "test_ray_backend_gives_the_local_result",
        "test_the_winning_move_is_shown_saved_and_later_keys_change_nothing",
    }
)


def _fewer_examples(item: pytest.Item) -> None:
    """Under the ``fast`` profile, cap a property's own ``@settings(max_examples=...)`` too."""
    test = getattr(item, "obj", None)
    own = getattr(test, "_hypothesis_internal_use_settings", None)
    if own is not None and own.max_examples > FAST_EXAMPLES:
        test._hypothesis_internal_use_settings = settings(own, max_examples=FAST_EXAMPLES)  # type: ignore[union-attr]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark each test ``browser``, ``pg`` or ``slow`` from where it lives and what it uses."""
    fast = config.stash.get(_fast_examples, False)
    for item in items:
        if fast:
            _fewer_examples(item)
        parts = item.path.parts
        fixtures = getattr(item, "fixturenames", ())
        if "e2e" in parts:
            item.add_marker(pytest.mark.browser)
        if "pg_url" in fixtures or "pg_cluster" in fixtures:
            item.add_marker(pytest.mark.pg)
        name = getattr(item, "originalname", item.name)
        if "scale" in parts or item.path.name in _SLOW_FILES or name in _SLOW_TESTS:
            item.add_marker(pytest.mark.slow)
