"""Pausing Python's cyclic garbage collector while a film is cased.

Casing a 1,500-cue film creates some 60,000 short-lived objects (tokens, word
results) and no reference cycles, yet each 700 allocations wake the collector,
which then walks the young objects again and again: about 0.06 s of a 1.1 s
film (measured on the `subcase bench` film).
Reference counting still frees everything at once; only cycle detection waits.
The entry points pause it, once: ``pipeline.case_document`` and ``case_cue_text``, ``stream.case_texts``
and the evaluation's runs; ``routing.case_by_language`` and ``stream.case_token_lists`` run inside.

The editor's opening of a file pauses it too, around all of it, and freezes what it made (``freeze``): a
three-hour file is millions of objects that stay (tokens, review words, the document's structure), and the
collector runs in whichever thread allocates, holding the GIL while it walks every object it tracks: each
full collection on the way stopped the GUI thread 0.5-1 s at 40,000 words and over 3 s at 150,000
(docs/research/2026-11-29-long-asr-files.md, "The editor").  Frozen (``gc.freeze``), they are left out of
every later collection; ``release_frozen`` gives them back once the review is closed, or a closed review's
objects held in a reference cycle would never be freed.
"""

from __future__ import annotations

import gc
import threading
from contextlib import contextmanager
from typing import Iterator

_lock = threading.Lock()
_depth = 0          # callers inside ``paused_gc`` now (any thread)
_was_enabled = False
_freeze = False     # a body that asked for it ended well: freeze when the last pause ends
# Objects made (net) under a pause from which a freezing body freezes: about 35 a word opened in the editor,
# so some 15,000 words; a film's review walks in well under 0.1 s, and a smaller file is left as it was.
FREEZE_AT = 500_000


@contextmanager
def paused_gc(freeze: bool = False) -> Iterator[None]:
    """Collector off for the duration; nested and concurrent uses restore it once, at the end.  With
    ``freeze``, a body that ends without an exception having made ``FREEZE_AT`` objects or more has them
    frozen when the collector is restored (with every other object alive then: ``gc.freeze`` takes all)."""
    global _depth, _was_enabled, _freeze
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
    ok = False
    try:
        yield
        ok = True
    finally:
        with _lock:
            _depth -= 1
            _freeze = _freeze or (freeze and ok and gc.get_count()[0] >= FREEZE_AT)
            if _depth == 0:
                if _freeze:
                    gc.freeze()
                    _freeze = False
                if _was_enabled:
                    gc.enable()


def release_frozen() -> None:
    """What was frozen is collected again: one full collection frees what has become garbage since (a
    closed review), and what is still alive is frozen again.  One walk of every object, when a file is
    closed or replaced, instead of one now and then while keys are pressed."""
    with _lock:
        if _depth or not gc.get_freeze_count():
            return  # a freezing pause under way freezes again when it ends
        gc.unfreeze()
        gc.collect()
        gc.freeze()
