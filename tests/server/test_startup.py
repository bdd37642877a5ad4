"""A long-running process keeps its startup objects out of the garbage collector's way."""

import gc
import weakref

from app.server import freeze_startup_objects


def test_everything_made_at_startup_is_frozen_and_later_objects_are_still_collected():
    gc.collect()
    made_at_startup = len(gc.get_objects())
    try:
        freeze_startup_objects()
        assert gc.get_freeze_count() >= made_at_startup * 0.99
        assert len(gc.get_objects()) < made_at_startup * 0.1  # what collections still walk

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
