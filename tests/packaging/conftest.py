"""The wheel and sdist the packaging tests look into and install: the ones .ci/run built and installed
(``SUBCASE_TEST_DIST``), or built here from a clean copy of this checkout (``python -m build``, as a user
or a packager would; about 10 s)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _clean_copy(root: Path, dest: Path) -> None:
    """.ci/clean_copy.py: the files a fresh clone would have, never ignored build debris."""
    spec = importlib.util.spec_from_file_location("_clean_copy", root / ".ci" / "clean_copy.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.clean_copy(root, dest)


@pytest.fixture(scope="session")
def dists(tmp_path_factory) -> tuple[Path, Path]:
    """(sdist, wheel) of this source tree."""
    given = os.environ.get("SUBCASE_TEST_DIST")
    if given:
        out = Path(given)
    else:
        pytest.importorskip("build", reason="the test extra's `build` is needed to build the wheel")
        src = tmp_path_factory.mktemp("src")
        _clean_copy(ROOT, src)  # no egg-info or build/ folder can leak into the wheel
        out = tmp_path_factory.mktemp("dist")
        proc = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(src)],
                              capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    sdists, wheels = sorted(out.glob("subcase-*.tar.gz")), sorted(out.glob("subcase-*.whl"))
    assert len(sdists) == 1 and len(wheels) == 1, f"expected one sdist and one wheel in {out}"
    return sdists[0], wheels[0]
