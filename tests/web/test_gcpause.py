"""GcKeeper: frozen survivors are left out of collections until its next full collection."""

from __future__ import annotations

import gc
import weakref

from cardroom.web.gcpause import GcKeeper


class Node:
    def __init__(self) -> None:
        self.me: Node = self  # a cycle: only the cyclic collector frees it


def test_frozen_cycles_wait_for_the_next_full_collection() -> None:
    now = [0.0]
    keeper = GcKeeper(freeze_every=10, full_every=600, clock=lambda: now[0])
    try:
        assert keeper.step() == "full"
        node = Node()
        ref = weakref.ref(node)
        now[0] = 10.0
        assert keeper.step() == "freeze"  # node survives (still referenced) and is frozen
        assert gc.get_freeze_count() > 0
        del node
        gc.collect()
        assert ref() is not None  # frozen: even a full collection leaves it
        now[0] = 599.0
        assert keeper.step() == "freeze"
        assert ref() is not None
        now[0] = 600.0
        assert keeper.step() == "full"
        assert ref() is None  # unfrozen and collected
        young = Node()
        young_ref = weakref.ref(young)
        del young
        now[0] = 610.0
        assert keeper.step() == "freeze"  # the young generations are collected before freezing
        assert young_ref() is None
    finally:
        gc.unfreeze()
