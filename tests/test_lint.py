"""ruff (pyflakes + bugbear) on the whole tree and mypy on the app, GUI included, as configured in pyproject.toml.

Both come with the ``test`` extra; CI runs them through these tests.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess:
    proc = subprocess.run([sys.executable, "-m", *args], cwd=REPO, capture_output=True, text=True)
    assert "No module named" not in proc.stderr, f"{args[0]} is missing: pip install -e '.[test]'"
    return proc


def test_ruff_is_clean() -> None:
    proc = _run("ruff", "check", "--no-cache", "--output-format", "concise", ".")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_is_clean_on_the_app() -> None:
    proc = _run("mypy", "--no-error-summary")
    assert proc.returncode == 0, proc.stdout + proc.stderr
