"""The collector pause nests, survives errors and leaves the collector as it found it."""

from __future__ import annotations

import gc
import threading

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
