"""The coordinator's watches (``tables/cluster.py``), without a database: which tables' notices
a process sends, and how a watch is answered and forgotten."""

from __future__ import annotations

import time
from typing import Any

from cardroom.store import LogEntry
from cardroom.tables.cluster import PEERS_CHANNEL, Coordinator


class _Conn:
    """Stands for the lease connection in the notice callbacks (its backend pid is 7)."""

    def get_server_pid(self) -> int:
        return 7

    def is_closed(self) -> bool:
        return True  # nothing is sent: the outbox is read instead


def _coordinator(held: set[str], **kw: Any) -> Coordinator:
    coord = Coordinator(
        "postgresql://x@localhost/db",
        lambda *_: None,
        lambda *_: None,
        wants=held.__contains__,
        **kw,
    )
    coord.alone = False
    return coord


async def test_a_held_table_is_told_only_while_watched_once_the_watches_are_heard() -> None:
    coord = _coordinator({"t1", "t2"}, watch_ttl=0.05)
    coord.mine |= {"t1", "t2"}
    entry = LogEntry(3, "action", {"seat": 0}, 1.0)
    coord.announce("t1", entry)  # the others' watches not heard yet: every table is told
    assert [c for c, _ in coord._outbox] == ["cardroom_tables"]
    coord._outbox.clear()
    time.sleep(0.06)
    coord.expire()
    assert not coord.noticing_all
    coord.announce("t1", entry)
    coord.announce("t3", entry)  # not this process's lease: its holder follows it, told
    await coord.tell_presence(["t1 0 1", "t3 1 1"])
    await coord.tell_deadlines("t1", [("takeover", 0, 5.0)])
    assert [
        (c, p.split(" ", 1)[1] if c != "cardroom_tables" else p[:6]) for c, p in coord._outbox
    ] == [
        ("cardroom_tables", '["t3",'),
        ("cardroom_presence", "t3 1 1"),
    ]


async def test_a_new_watch_is_answered_a_repeat_is_not_and_an_old_one_is_forgotten() -> None:
    watched: list[list[str]] = []
    synced: list[list[str] | None] = []
    coord = _coordinator({"t1"}, watch_ttl=0.05, on_watched=watched.append, on_sync=synced.append)
    coord.mine.add("t1")
    coord.noticing_all = False
    conn = _Conn()
    coord._peers(conn, 9, PEERS_CHANNEL, "watch t1 t2")  # t2: not held here
    assert coord._outbox == [(PEERS_CHANNEL, "watching 9 t1")]
    assert watched == [["t1"]] and set(coord.watchers) == {"t1", "t2"}
    assert coord.tells("t1")
    coord._outbox.clear()
    coord._peers(conn, 9, PEERS_CHANNEL, "watch t1 t2")  # a repeat: nothing to answer
    assert coord._outbox == [] and watched == [["t1"]]
    time.sleep(0.06)
    coord.expire()
    assert not coord.watchers and not coord.tells("t1")
    # the answer to this process's own watch: read those tables; another's: not ours
    coord._peers(conn, 9, PEERS_CHANNEL, "watching 7 t4 t5")
    coord._peers(conn, 9, PEERS_CHANNEL, "watching 8 t6")
    assert synced == [["t4", "t5"]]
