"""The pure parts of ``cardroom serve --workers``' router (``web/router.py``) and of the slot a
table's id belongs to (``tables/slots.py``)."""

from __future__ import annotations

import zlib

from cardroom.tables.slots import new_table_id, slot_of
from cardroom.web.router import next_live, pick_slot, table_in


def test_a_path_naming_a_table_gives_its_id() -> None:
    for path in (
        "/ws/Ab3xy9Qz",
        "/t/Ab3xy9Qz",
        "/t/Ab3xy9Qz/rematch",
        "/t/Ab3xy9Qz/watch?x=1",
        "/t/Ab3xy9Qz?lang=fr",
        "/j/Ab3xy9Qz.secret-token",
        "/api/tables/Ab3xy9Qz/seats/1/name",
        "/replay/Ab3xy9Qz",
        "/api/replay/Ab3xy9Qz",
        "/analysis/Ab3xy9Qz",
        "/api/analysis/Ab3xy9Qz",
    ):
        line = f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode()
        assert table_in(line) == "Ab3xy9Qz", path
    assert table_in(b"GET http://cards.example.org/t/Ab3xy9Qz HTTP/1.1\r\n") == "Ab3xy9Qz"
    assert table_in(b"POST /t/Ab3xy9Qz/leave HTTP/1.0\n") == "Ab3xy9Qz"


def test_other_paths_and_incomplete_lines_name_no_table() -> None:
    for line in (
        b"GET / HTTP/1.1\r\n",
        b"GET /api/tables HTTP/1.1\r\n",
        b"POST /api/tables HTTP/1.1\r\n",
        b"GET /healthz HTTP/1.1\r\n",
        b"POST /api/analysis/upload HTTP/1.1\r\n",
        b"GET /rules/speed HTTP/1.1\r\n",
        b"GET /tables/Ab3xy9Qz HTTP/1.1\r\n",  # not a route
        b"GET /t/Ab3xy9Qz",  # the line is not complete
        b"GET /t/Ab3xy9Qz HTTP/1.1",  # nor is this one (no end of line yet)
        b"GET /t/Ab3xy9Qz\r\n",  # no version: not a request line
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\n",  # TLS to a plain port
        b"",
    ):
        assert table_in(line) is None, line


def test_a_table_goes_to_its_crc32_slot_and_the_rest_round_robin() -> None:
    line = b"GET /ws/Ab3xy9Qz HTTP/1.1\r\n"
    for workers in (2, 3, 5):
        expected = zlib.crc32(b"Ab3xy9Qz") % workers
        assert [pick_slot(line, workers, turn) for turn in range(4)] == [(expected, True)] * 4
        other = b"GET / HTTP/1.1\r\n"
        assert [pick_slot(other, workers, turn)[0] for turn in range(6)] == [
            t % workers for t in range(6)
        ]
        assert not pick_slot(other, workers, 0)[1]


def test_a_dead_slot_gives_the_next_live_one() -> None:
    assert next_live(1, [True, True, True]) == 1
    assert next_live(1, [True, False, True]) == 2
    assert next_live(2, [True, False, False]) == 0  # wraps
    assert next_live(0, [False, False]) is None


def test_new_ids_are_of_the_makers_slot() -> None:
    for slots in (1, 2, 3):
        for slot in range(slots):
            ids = [new_table_id(slot, slots) for _ in range(50)]
            assert {slot_of(i, slots) for i in ids} == {slot}
            assert all(len(i) == 8 and i.isalnum() for i in ids)
            assert len(set(ids)) == 50
    assert slot_of("anything", 1) == 0
