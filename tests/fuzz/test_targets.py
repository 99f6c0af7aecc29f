"""CI's short run of every fuzz target (targets.py): a fixed, derandomized number of examples each,
so every run tries the same inputs; all of them together well under two minutes on a loaded 2-core
machine.  The longer runs are ``python tests/fuzz/run.py`` (docs/dev/testing.md, "Fuzzing"); each
crash they found is pinned below as an ``@example`` of its target, with the input that showed it.
"""

from __future__ import annotations

import json
import time

from hypothesis import HealthCheck, example, given, settings

from .targets import SLOWEST_S, TARGETS

# Examples per target: the six together take about 40 s here (docs/research/2026-11-29-fuzzing.md).
EXAMPLES = {"srt": 250, "vtt": 250, "terms": 300, "profile": 400, "autosave": 250, "settings": 300}

CI = settings(max_examples=1, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))


def _bounded(check, case) -> None:
    start = time.perf_counter()
    check(case)
    took = time.perf_counter() - start
    assert took < SLOWEST_S, f"one input took {took:.1f} s"


def _run(name: str, *found: object):
    """The CI test of target ``name``: its budget of examples, and first every input in ``found``."""
    target = TARGETS[name]
    test = given(target.strategy)(lambda case: _bounded(target.check, case))
    for case in found:
        test = example(case)(test)
    return settings(CI, max_examples=EXAMPLES[name])(test)


def test_every_target_has_a_budget() -> None:
    assert set(EXAMPLES) == set(TARGETS)


# -- the crashes the fuzzers found, each kept as an example of its target -------------------------------------

# json.loads raises RecursionError, not ValueError, for arrays or objects nested a few thousand deep.
DEEP_JSON = b"[" * 100_000
# Snapshots in the autosave folder that stopped the editor from starting (find_recoverable raised).
SNAPSHOT = {"schema": 3, "time": "2026-11-29T01:00:00+00:00", "pid": 4194305, "source": "/tmp/film.srt",
            "base": "/tmp/film.srt", "base_sha256": "0" * 64, "complete": True, "n_cues": 0, "threshold": 0.5,
            "cues": []}
BAD_SNAPSHOTS = [
    b"null",                                                            # AttributeError: not an object
    json.dumps({**SNAPSHOT, "pid": None}).encode(),                     # TypeError: int(None)
    json.dumps({**SNAPSHOT, "pid": "12x"}).encode(),                    # ValueError: int("12x")
    json.dumps({**SNAPSHOT, "pid": 2 ** 80}).encode(),                  # OverflowError in os.kill
    json.dumps({k: v for k, v in SNAPSHOT.items() if k != "source"}).encode(),  # KeyError: 'source'
    json.dumps({**SNAPSHOT, "source": None}).encode(),                  # TypeError: Path(None)
    DEEP_JSON,                                                          # RecursionError
]
# Two snapshots whose times are not both text: sorting them raised TypeError.
UNSORTABLE_TIMES = [json.dumps({**SNAPSHOT, "time": None}).encode(), json.dumps(SNAPSHOT).encode()]
# A remembered media file whose JSON is nested too deep: Settings.media_for raised RecursionError.
DEEP_MEDIA = (b"[media-files]\nfilm.79cc90a22109=" + json.dumps("[" * 100_000).encode(), "/tmp/film.srt")


test_srt = _run("srt")
test_vtt = _run("vtt")
test_terms = _run("terms")
test_profile = _run("profile", DEEP_JSON, b'{"a":' * 50_000)
test_autosave = _run("autosave", *([bad] for bad in BAD_SNAPSHOTS), UNSORTABLE_TIMES)
test_settings = _run("settings", DEEP_MEDIA)
