"""``subcase convert`` imports only what it needs: no Qt, no charset-normalizer for a
UTF-8 file, no importlib.metadata for the version, no process pool for one file.

Each case runs the real command in a fresh interpreter and lists sys.modules
at exit (imports are per process, so an in-process check would see the test
runner's own imports).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "subtitles"

WRAPPER = """
import json, sys
from subcase.cli import main
rc = main(sys.argv[1:])
print(json.dumps({"rc": rc, "modules": sorted(sys.modules)}))
"""

NEVER = ("PySide6", "shiboken6", "distributed", "dask", "torch", "transformers", "truecase", "nltk")


def modules_after(*argv: str, cwd: Path) -> tuple[int, set[str]]:
    env = dict(os.environ)  # the installed subcase, as the tests import it
    p = subprocess.run([sys.executable, "-c", WRAPPER, *argv], capture_output=True, text=True, cwd=cwd, env=env,
                       timeout=120)
    out = json.loads(p.stdout.strip().splitlines()[-1])
    return out["rc"], {m.split(".")[0] for m in out["modules"]} | set(out["modules"])


@pytest.mark.usefixtures("engine")
def test_convert_of_a_utf8_file_imports_only_what_it_needs(tmp_path):
    src = tmp_path / "one.srt"
    src.write_text("1\n00:00:01,000 --> 00:00:02,000\nhello from new york.\n", encoding="utf-8")
    rc, mods = modules_after("convert", str(src), "-o", "out", "-q", cwd=tmp_path)
    assert rc == 0 and (tmp_path / "out" / "one.srt").is_file()
    assert "onnxruntime" in mods and "subcase.casing.engine" in mods  # it did case the file
    assert not [m for m in NEVER if m in mods]
    assert "charset_normalizer" not in mods     # UTF-8 is decided without it
    assert "importlib.metadata" not in mods     # the version comes from _version.py
    assert "multiprocessing" not in mods and "concurrent.futures.process" not in mods  # one file, one process


@pytest.mark.usefixtures("engine")
def test_a_legacy_file_still_gets_charset_normalizer(tmp_path):
    rc, mods = modules_after("convert", str(FIXTURES / "legacy_cp1252.srt"), "-o", "out", "-q", cwd=tmp_path)
    assert rc == 0 and "charset_normalizer" in mods


def test_version_matches_pyproject():
    import subcase

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert subcase.__version__ == project["version"]
