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

# Examples per target: all together about a minute on a loaded 2-core machine, well inside CI's two.
EXAMPLES = {"srt": 120, "vtt": 120, "ass": 120, "ttml": 120, "terms": 150, "profile": 200, "autosave": 120, "settings": 150,
            "restore": 60}

CI = settings(max_examples=1, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))


def _bounded(check, case) -> None:
    start = time.perf_counter()
    check(case)
    took = time.perf_counter() - start
    assert took < SLOWEST_S, f"one input took {took:.1f} s"


def _run(name: str, *found: object, **options: object):
    """The CI test of target ``name``: its budget of examples, and first every input in ``found``."""
    target = TARGETS[name]
    def one_input(case: object) -> None:
        _bounded(target.check, case)

    one_input.__name__ = f"test_{name}"
    test = given(target.strategy)(one_input)
    for case in found:
        test = example(case)(test)
    return settings(CI, max_examples=EXAMPLES[name], **options)(test)


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


# Hostile term lists, kept as examples though they never broke the reader: a billion laughs (expat's
# amplification limit refuses it) and an external entity naming a local file (never read).
BILLION_LAUGHS = ('<!DOCTYPE names [<!ENTITY l0 "lol">' + "".join(
    f'<!ENTITY l{i} "{f"&l{i - 1};" * 10}">' for i in range(1, 10)) + "]><names><name>&l9;</name></names>").encode()
XXE = b'<!DOCTYPE names [<!ENTITY x SYSTEM "file:///etc/passwd">]><names><name>&x;</name></names>'


test_srt = _run("srt")
test_vtt = _run("vtt")
test_ass = _run("ass")
test_ttml = _run("ttml")
test_terms = _run("terms", BILLION_LAUGHS, XXE)
test_profile = _run("profile", DEEP_JSON, b'{"a":' * 50_000)
test_autosave = _run("autosave", *([bad] for bad in BAD_SNAPSHOTS), UNSORTABLE_TIMES)
test_settings = _run("settings", DEEP_MEDIA)
# Restoring a damaged snapshot raised TypeError, ValueError, KeyError or IndexError at some twenty places of
# autosave.restore before snapshots were checked against their schema (review/snapshot_schema.py, #54).
test_restore = _run("restore")
