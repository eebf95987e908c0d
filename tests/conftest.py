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


# What the fast core (`-m "not slow and not browser and not pg"`) leaves out, by the rule in
# pyproject.toml's `slow` marker: a test is slow when it starts server processes, plays whole
# games (over a real server, through the wire or with the compiled bots), waits for a timeout or
# a deadline by design, or takes over ~1.5 s in the fast core on a busy two-core machine
# (`--durations=0`, two workers). The whole suite still runs every one of them.

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
        # bots playing whole games against a person over a real server (4-30 s each)
        "test_bot_api_client.py",
        # silent bots at each game: each test waits for the away and takeover deadlines
        "test_bots_away.py",
        # garbage collection: full collections of the heap, servers on real sockets
        "test_gcpause.py",
    }
)

# Single tests (every parameter of them) over ~1.5 s in the fast core: many games or rollouts,
# whole games over a server or the wire, worker processes, deadlines waited for.
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
        # whole games played by bot clients over a real server (Spit: 10-90 s, by timing)
        "test_two_reaction_bots_play_a_whole_realtime_game",
        "test_two_cardroom_bots_play_a_whole_nain_jaune_game",
        "test_a_research_policy_plays_a_whole_nain_jaune_game",
        "test_the_docs_example_plays_a_whole_game",
        "test_play_now_matches_a_listening_bot_that_accepts_it",
        "test_the_event_stream_says_invite_then_start_then_end",
        "test_a_bots_frames_name_only_cards_its_seat_saw",
        "test_two_people_and_a_bot_play_a_whole_round",
        "test_bots_play_to_the_end_and_the_record_replays",
        # every frame of whole games read back through the wire (20-100 s)
        "test_every_frame_of_a_whole_game_reads_back_into_the_seats_view",
        "test_a_seats_frame_reads_back_into_its_engine_view",
        # analyses computed in worker processes
        "test_an_analysis_under_way_in_one_process_is_told_by_the_other",
        "test_a_finished_game_is_analysed_once_and_stored",
        "test_an_uploaded_record_is_analysed_once_and_bounded_per_address",
        # deadlines and windows waited for by design
        "test_a_waiting_client_is_not_closed_for_silence",
        "test_a_half_sent_request_is_cut_off",
        "test_a_websocket_outlives_the_header_deadline",
        "test_idle_sockets_of_one_address_do_not_shut_out_another",
        "test_appends_that_come_together_wait_for_the_window_and_a_lone_one_does_not",
        "test_chat_has_its_own_rate_limit_per_seat",
        "test_one_players_password_flood_delays_anothers_sign_in_by_one_hash_at_most",
        "test_replay_uploads_are_bounded_per_address_and_in_flight",
        # a restarted server, processes upgrading one file, full garbage collections
        "test_a_restarted_server_gives_identical_state_frames",
        "test_processes_opening_an_old_file_at_once_upgrade_it_once",
        "test_two_apps_on_one_sqlite_file_share_the_bounds_of_people",
        "test_two_apps_on_one_sqlite_file_share_the_bounds_of_a_client",
        "test_two_apps_at_once_on_one_sqlite_file_take_the_last_open_table_once",
        "test_two_apps_on_one_sqlite_file_share_the_open_tables_of_a_client",
        "test_chat_survives_a_restart_and_a_new_connection_gets_the_last_50_lines",
        # worker processes, charts drawn
        "test_same_seed_same_summary_for_any_workers",
        "test_same_seed_same_numbers_also_on_two_workers",
        "test_plot_writes_png_charts",
        "test_table_and_plot",
        # many games, rollouts, records or copies of the package
        "test_damaged_records_never_crash",
        "test_the_twin_estimate_is_unbiased_and_covers_the_truth",
        "test_lookahead_plays_legal_moves_to_the_end",
        "test_random_play_with_the_countdown_always_ends",
        "test_the_log_replays_to_the_live_table",
        "test_each_example_runs_and_prints_its_result",
        "test_a_forbidden_import_is_found",
        # whole games in the terminal's pilot
        "test_a_whole_game_with_manual_announcements",
        "test_illegal_keys_show_the_reason_and_change_nothing",
        "test_speed_result_and_keys_in_french",
        "test_rematch_sets_the_new_seat_cookie",
        # over ~1 s each in the fast core beside other work (load 4-5 on two cores, 2026-11-29):
        # source scans of the catalogs and layers, analyses, terminal pilots, web bounds
        "test_a_burst_of_sixty_tables_makes_ten_and_then_says_when_to_come_back",
        "test_a_closed_connection_is_freed_without_a_full_collection",
        "test_a_closed_connection_on_uvloop_is_freed_without_a_full_collection",
        "test_a_finished_game_of_each_kind_replays_through_its_registry_table",
        "test_a_finished_tables_frames_are_computed_once",
        "test_a_full_frame_carries_the_logs_tail_and_older_lines_come_on_request",
        "test_a_hint_flood_is_bounded_per_seat_and_runs_in_its_own_threads",
        "test_a_hint_goes_to_the_seat_to_act_only_and_names_one_of_its_moves",
        "test_a_keeper_without_automatic_collections_is_the_only_collector",
        "test_a_line_reaches_players_and_spectators_as_text_and_the_seq_stays",
        "test_a_lone_process_draws_any_id",
        "test_a_long_record_is_served_a_page_of_rounds_at_a_time_and_checked_once",
        "test_a_record_of_too_many_rounds_is_refused_before_it_is_replayed",
        "test_a_spectator_is_refused_in_words_and_nothing_is_stored",
        "test_a_spit_table_speaks_french_and_welsh_over_the_websocket",
        "test_a_stop_that_wins_the_round",
        "test_a_stranger_cannot_lock_the_owner_out",
        "test_a_table_without_chat_sends_no_chat_frame",
        "test_a_watched_finished_table_stays_until_its_last_subscriber_leaves",
        "test_a_whole_game_through_stdin_saves_a_record_that_replays",
        "test_a_workers_tables_and_rematches_are_of_its_slot",
        "test_against_a_bot_the_bot_waits_then_takes_the_seat_until_the_person_is_back",
        "test_bad_messages_get_an_error_and_change_nothing",
        "test_bots_wait_before_they_play",
        "test_claims_under_manual_announcements_are_valued",
        "test_click_selects_then_plays",
        "test_cookies_are_secure_behind_https_or_with_the_setting",
        "test_each_decision_names_the_replay_step_that_shows_it",
        "test_every_message_id_raised_has_words_in_every_language",
        "test_every_message_is_translated",
        "test_every_message_the_code_raises_has_words_in_every_language",
        "test_frames_show_a_seat_only_what_it_may_see",
        "test_generated_files_are_in_sync_with_the_code",
        "test_hints_off_are_refused",
        "test_in_the_chooser_variant_the_player_who_emptied_his_layout_chooses_by_key",
        "test_information_state_tensors_tell_information_states_apart",
        "test_json_and_tables",
        "test_my_games_and_the_export_and_leaving_names_nobody",
        "test_nain_jaune_footer_in_french",
        "test_no_package_imports_one_above_or_beside_it",
        "test_open_tables_per_client_are_bounded",
        "test_openspiel_ismcts_and_mcts_bots_play_whole_games",
        "test_passkey_challenges_are_bounded_per_player_and_address",
        "test_plain_game_in_welsh_and_french",
        "test_playing_a_card_with_keys",
        "test_q_quits_between_rounds_and_shows_the_settlement_columns",
        "test_quitting_mid_game_saves_a_record_that_replays",
        "test_refusals_carry_the_security_headers",
        "test_refused_actions_from_ten_connections_on_one_seat",
        "test_replay_equals_live_and_refusals_change_nothing",
        "test_requests_and_websockets_of_one_address_are_bounded_in_the_app",
        "test_secure_cookies_and_hsts",
        "test_sign_ins_passkeys_and_play_now_are_bounded_per_address_and_name",
        "test_speak_says_the_calls_with_espeak_ng",
        "test_spit_by_keys_turn_up_play_refusal_and_quit",
        "test_subscribers_get_each_event_once_and_a_slow_one_a_fresh_state",
        "test_swapping_hidden_cards_changes_no_decision",
        "test_ten_puppet_wins_do_not_move_a_rating",
        "test_the_board_card_is_played_not_kept",
        "test_the_bots_play_on_when_the_person_drops_out",
        "test_the_chat_bucket_does_not_refill_on_reconnect",
        "test_the_chips_of_an_analysis_are_written_as_french_writes_decimals",
        "test_the_countdown_has_a_decimal_comma_in_french",
        "test_the_creator_reissues_a_seat_and_the_old_link_stops_working",
        "test_the_hint_key_works_only_at_a_table_with_hints",
        "test_the_owners_own_browser_is_never_locked_out",
        "test_the_peer_plays_tournament_deals_and_refuses_other_positions",
        "test_the_record_header_round_trips_and_replays_the_same_game",
        "test_the_same_record_gives_the_same_analysis",
        "test_the_steps_of_a_replay_are_bounded_and_carry_no_played_list",
        "test_the_trace_sees_every_kind_of_event",
        "test_tui_in_french",
        "test_two_pages_read_the_same_table_in_french_and_welsh",
        "test_words_in_french_and_welsh_and_refusals",
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
