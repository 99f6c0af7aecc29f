"""The truecase baseline scores the same in every run (evaluation/baselines.py)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

# truecase scores "ALFA" and "Alfa" alike here; unsorted, the winner followed the hash seed
# (seed 1 wrote "ALFA", seed 2 "Alfa": the dev files' F1 moved by 0.2 between runs)
TEXT = "in their checker called alfa, in deque in their"
PROGRAM = f"from subcase.evaluation.baselines import TruecaseBaseline; print(TruecaseBaseline().case_text({TEXT!r}))"


def test_the_truecase_baseline_does_not_depend_on_the_hash_seed() -> None:
    pytest.importorskip("truecase", reason="the truecase baseline needs the bench extra")
    outputs = set()
    for seed in ("1", "2", "3"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        proc = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, env=env, timeout=120)
        assert proc.returncode == 0, proc.stderr
        outputs.add(proc.stdout.strip())
    assert len(outputs) == 1
    assert outputs.pop().lower() == TEXT
