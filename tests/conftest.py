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


DEV_SUBTITLES_ML = ROOT.parent / "shared" / "data" / "dev-subtitles-ml"


@pytest.fixture(scope="session")
def dev_subtitles_ml() -> dict[str, list[Path]]:
    """The multilingual dev subtitles by language (es, fr, de, pt); dev only, never training data."""
    if not DEV_SUBTITLES_ML.is_dir():
        pytest.skip(f"shared multilingual dev subtitles not found at {DEV_SUBTITLES_ML}")
    return {d.name: sorted(p for p in d.iterdir() if p.suffix in (".srt", ".vtt"))
            for d in sorted(DEV_SUBTITLES_ML.iterdir()) if d.is_dir()}


@pytest.fixture
def tmpfs(tmp_path):
    """mount(size, read_only=False) -> a fresh tmpfs folder: a real full disk or
    read-only folder (root ignores permission bits, so chmod cannot make one).
    Skips where mounting is not allowed; everything is unmounted afterwards."""
    import subprocess

    mounted: list[Path] = []

    def mount(size: str = "64k", read_only: bool = False) -> Path:
        point = tmp_path / f"tmpfs{len(mounted)}"
        point.mkdir()
        opts = f"size={size},mode=0777" + (",ro" if read_only else "")
        proc = subprocess.run(["mount", "-t", "tmpfs", "-o", opts, "tmpfs", str(point)],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            pytest.skip(f"cannot mount a tmpfs here: {proc.stderr.strip() or proc.returncode}")
        mounted.append(point)
        return point

    yield mount
    for point in reversed(mounted):
        subprocess.run(["umount", "-l", str(point)], capture_output=True)


@pytest.fixture
def fill_disk():
    """fill(folder) fills folder's file system until a write fails with ENOSPC."""
    return _fill_disk


def _fill_disk(folder: Path) -> Path:
    """Fill the file system of folder until a write fails with ENOSPC; returns the filler."""
    import errno

    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as f:
        block = b"\0" * 4096
        while True:
            try:
                if f.write(block) == 0:
                    break
            except OSError as exc:
                assert exc.errno == errno.ENOSPC
                break
    return filler
