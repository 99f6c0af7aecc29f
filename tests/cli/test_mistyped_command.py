"""A mistyped command gets a one-line hint and status 2; a file of that name still opens.

``subcase FILE`` opens FILE in the editor, so before this any word that was no
command went to the editor: ``subcase covnert`` opened a window on a missing
file, and ``subcase covnert x`` died with argparse's "unrecognized arguments".
The real command runs in a fresh interpreter, as a user types it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "resources" / "examples" / "lowercase-example.srt"
HINT = "subcase: unknown command 'covnert' (did you mean 'convert'?)"


def subcase(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", SUBCASE_DATA_DIR=str(cwd / "data"),
               SUBCASE_CONFIG_DIR=str(cwd / "config"))
    return subprocess.run([sys.executable, "-m", "subcase", *args], capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=300)


@pytest.mark.parametrize("argv", [["covnert", "x"], ["covnert"], ["evalute", "refs"], ["profiel", "list"]])
def test_a_mistyped_command_names_the_command_it_looks_like(tmp_path, argv):
    proc = subcase(*argv, cwd=tmp_path)
    meant = {"covnert": "convert", "evalute": "evaluate", "profiel": "profile"}[argv[0]]
    assert proc.returncode == 2
    assert proc.stderr == f"subcase: unknown command '{argv[0]}' (did you mean '{meant}'?)\n"
    assert proc.stdout == "" and "Traceback" not in proc.stderr


@pytest.mark.usefixtures("engine")  # the editor cases the file it opens: needs the shipped model
def test_a_real_file_named_like_a_typo_still_opens_in_the_editor(tmp_path):
    shutil.copy(EXAMPLE, tmp_path / "covnert")
    proc = subcase("covnert", "--smoke-test", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("smoke-test: loaded"), proc.stdout
    assert "unknown command" not in proc.stderr


def test_a_missing_subtitle_file_is_not_taken_for_a_command(tmp_path):
    """A name with an extension is a file the user meant to open, however close it is to a command."""
    from subcase.cli import mistyped_command

    assert mistyped_command("convert.srt") is None
    assert mistyped_command(str(tmp_path / "covnert")) is None  # a path, not a word
    assert mistyped_command("covnert") == "convert"
    assert mistyped_command("zzzzzz") is None  # nothing like a command: the editor reports the missing file
