"""A long-running process keeps its startup objects out of the garbage collector's way, and collects in full rarely."""

import gc
import weakref

from app.server import FULL_COLLECTION_EVERY, settle_garbage_collection
from tests.server.harness import ALICE, BOB, Table


def test_startup_objects_are_frozen_full_collections_are_rarer_and_later_cycles_still_collected():
    gc.collect()
    made_at_startup = len(gc.get_objects())
    thresholds = gc.get_threshold()
    try:
        settle_garbage_collection()
        assert gc.get_freeze_count() >= made_at_startup * 0.99
        assert len(gc.get_objects()) < made_at_startup * 0.1  # what collections still walk
        assert gc.get_threshold() == (thresholds[0], thresholds[1], FULL_COLLECTION_EVERY)

        class Node:
            pass

        later = Node()
        later.self = later  # a cycle only the collector can free
        alive = weakref.ref(later)
        del later
        assert alive() is not None
        gc.collect()
        assert alive() is None
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)


def test_handling_moves_leaves_no_cyclic_garbage(server):
    """What makes rare full collections safe: a handled message is freed by reference counting alone."""
    table = Table(server)
    table.start()
    replies = [table.reply_bytes(ALICE, "e2e4", "gmail", kind="request")]
    assert ": moved" in table.deliver(replies[0])
    replies.append(table.reply_bytes(BOB, "e7e5", "outlook", kind="request"))
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)  # what a collection finds is kept in gc.garbage, not freed
    try:
        assert ": moved" in table.deliver(replies[1])
        gc.collect()
        assert gc.garbage == []
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
