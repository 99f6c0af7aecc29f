"""The collector pause nests, survives errors and leaves the collector as it found it."""

from __future__ import annotations

import gc
import threading
import weakref

import pytest

from subcase.casing.gcpause import paused_gc


def test_pause_nests_and_restores():
    assert gc.isenabled()
    with paused_gc():
        assert not gc.isenabled()
        with paused_gc():
            assert not gc.isenabled()
        assert not gc.isenabled()     # the outer pause still holds
    assert gc.isenabled()


def test_restored_after_an_error():
    with pytest.raises(RuntimeError):
        with paused_gc():
            raise RuntimeError("boom")
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off():
    gc.disable()
    try:
        with paused_gc():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_overlapping_threads_restore_once_at_the_end():
    inside, release = threading.Event(), threading.Event()

    def worker():
        with paused_gc():
            inside.set()
            release.wait(5)

    t = threading.Thread(target=worker)
    t.start()
    inside.wait(5)
    with paused_gc():
        pass
    assert not gc.isenabled()          # the worker is still casing
    release.set()
    t.join(5)
    assert gc.isenabled()


class Node:
    """An object in a reference cycle: only the collector frees it."""

    def __init__(self) -> None:
        self.me = self


def test_a_long_files_objects_are_frozen_and_given_back_once_it_is_closed():
    """The editor's opening of a long file (issue #56 item 5): what it made is left out of later collections,
    which walked millions of objects holding the GIL; a small body's objects are not frozen; once released,
    what became garbage is freed."""
    from subcase.casing.gcpause import FREEZE_AT, release_frozen

    assert gc.get_freeze_count() == 0
    with paused_gc(freeze=True):
        small = [Node() for _ in range(1000)]
    assert gc.get_freeze_count() == 0 and gc.isenabled()
    with paused_gc(freeze=True):
        with pytest.raises(RuntimeError):
            with paused_gc(freeze=True):
                raise RuntimeError("the opening failed: nothing frozen for it")
        big = [Node() for _ in range(FREEZE_AT)]
    try:
        assert gc.get_freeze_count() >= FREEZE_AT and gc.isenabled()
        gone = threading.Event()
        watch = weakref.ref(big[0], lambda _ref: gone.set())
        del big, small
        gc.collect()
        assert watch() is not None  # frozen: no collection sees it
        release_frozen()
        assert gone.is_set() and watch() is None
    finally:
        gc.unfreeze()
    assert gc.get_freeze_count() == 0
