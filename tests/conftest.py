"""Shared test set-up: the installed package, the shipped model, the shared dev data.

The tests import ``subcase`` as installed: from a wheel (what .ci/run does, from
outside the source tree) or editable (``pip install -e '.[test]'``).  Nothing
puts app/ on sys.path, so a file the wheel lacks fails the tests.  They find
the repository (golden data, models/) and ../shared from this file's place.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

try:
    import subcase  # noqa: F401
except ImportError as exc:  # pragma: no cover - a set-up mistake, not a test failure
    raise pytest.UsageError(f"subcase is not installed in this Python ({exc}): run "
                            "`python -m pip install -e '.[test]'` first, or `bash .ci/run`") from exc

MODELS = ROOT / "models"
DEV_SUBTITLES = ROOT.parent / "shared" / "data" / "dev-subtitles"


@pytest.fixture(scope="session")
def engine():
    """The real shipped ONNX model, found where the app finds it (loaded once per test session)."""
    if not (MODELS / "model.onnx").is_file():
        pytest.skip(f"the shipped model is missing: {MODELS / 'model.onnx'}")
    from subcase.casing import CasingEngine
    # the model as installed (inside the wheel, or models/ for an editable install):
    # test_golden checks that it is the one in models/
    return CasingEngine()


@pytest.fixture(scope="session")
def dev_subtitles() -> list[Path]:
    if not DEV_SUBTITLES.is_dir():
        pytest.skip(f"shared dev subtitles not found at {DEV_SUBTITLES} (clone with ../shared beside the repo)")
    return sorted(p for p in DEV_SUBTITLES.iterdir() if p.suffix in (".srt", ".vtt"))
