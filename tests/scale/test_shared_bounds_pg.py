"""The bounds of one client hold across server processes on PostgreSQL (two apps on one
database, and concurrent hints through two stores: the advisory lock counts them one at a time)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.web.test_shared_bounds import (
    PEOPLE_BOUNDS,
    analysis_under_way_is_told_by_the_other,
    hints_are_counted_once_over_two_stores,
    people_bounds,
    two_apps_at_once_take_the_last_open_table_once,
    two_apps_share_the_open_tables_of_a_client,
    two_apps_share_their_bounds,
)


def test_two_apps_on_one_postgresql_database_share_the_bounds_of_a_client(
    pg_url: str, tmp_path: Path
) -> None:
    two_apps_share_their_bounds(pg_url, tmp_path)


async def test_hints_of_one_seat_are_bounded_over_two_processes_postgresql(pg_url: str) -> None:
    await hints_are_counted_once_over_two_stores(pg_url)


def test_an_analysis_under_way_is_told_by_the_other_process_postgresql(pg_url: str) -> None:
    analysis_under_way_is_told_by_the_other(pg_url)


@pytest.mark.parametrize("part", PEOPLE_BOUNDS)
def test_two_apps_on_one_postgresql_database_share_the_bounds_of_people(
    pg_url: str, tmp_path: Path, part: str
) -> None:
    people_bounds(pg_url, tmp_path, part)


def test_two_apps_on_one_postgresql_database_share_the_open_tables_of_a_client(
    pg_url: str, tmp_path: Path
) -> None:
    two_apps_share_the_open_tables_of_a_client(pg_url, tmp_path)


def test_two_apps_at_once_on_one_postgresql_database_take_the_last_open_table_once(
    pg_url: str, tmp_path: Path
) -> None:
    two_apps_at_once_take_the_last_open_table_once(pg_url, tmp_path)
