"""``subcase convert`` fails early and clearly (issue #54, "Fail early and clearly").

- An output folder nothing can be written in stops the run with one line,
  with the rest of the output plan, before the model loads: not one FAILED
  line per file after every file has been cased.
- ``-o`` at an input folder (or over one) stops the run with one line naming
  both, not two oblique ones about a folder that holds no files.
- Ctrl-C says how many files were written and how to finish.

Real files, the real model, the real command (in process through ``main`` or
as a subprocess sent a real SIGINT); read-only folders are real read-only
mounts, since root ignores permission bits.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from subcase.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "resources" / "examples" / "lowercase-example.srt"
INTERRUPTED = re.compile(r"subcase: interrupted; (\d+) of (\d+) files written; "
                         r"run again with --skip-existing to finish")

pytestmark = pytest.mark.usefixtures("engine")  # the real model; skipped where it is missing


def make_inputs(root: Path, n: int = 2) -> Path:
    src = root / "in"
    src.mkdir(parents=True)
    for k in range(n):
        shutil.copy(EXAMPLE, src / f"{k}.srt")
    return src


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def read_only_folder(tmpfs) -> Path:
    ro = tmpfs("64k", read_only=True)
    assert not os.access(ro, os.W_OK) or os.geteuid() == 0  # root passes os.access: only a real write tells
    return ro


# -- an output folder that cannot be written -----------------------------------------------------

@pytest.mark.parametrize("below", ["", "new/deeper"], ids=["existing", "to-be-made"])
def test_a_read_only_output_folder_is_one_line_before_any_file_is_cased(tmp_path, tmpfs, capsys, below):
    """Before: ``FAILED in/0.srt: ro/0.srt: cannot save: Read-only file system`` for every file,
    each after casing it, then a summary."""
    src = make_inputs(tmp_path)
    out = read_only_folder(tmpfs) / below
    rc = main(["convert", str(src), "-o", str(out)])
    captured = capsys.readouterr()
    assert rc == 1 and captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1, lines
    reason = "the output folder is not writable" if not below else "the output folder cannot be made in"
    assert lines[0].startswith(f"subcase: {out}: {reason}")
    assert "Read-only file system" in lines[0] and "nothing was converted" in lines[0]


def test_a_read_only_output_folder_is_found_before_the_model_loads(tmp_path, tmpfs, capsys):
    """The folder is checked with the plan: a missing model is not even looked for."""
    src = make_inputs(tmp_path)
    out = read_only_folder(tmpfs)
    rc = main(["convert", str(src), "-o", str(out), "--model", str(tmp_path / "no-model-here")])
    err = capsys.readouterr().err
    assert rc == 1 and "not writable" in err and "model" not in err


def test_the_write_check_leaves_nothing_behind(tmp_path, capsys):
    """The check creates a file and removes it at once: a refused run leaves the folder as it was,
    and a folder the run is to make is made only by a run that starts."""
    src = make_inputs(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "0.srt").write_bytes(b"PRECIOUS\n")
    assert main(["convert", str(src), "-o", str(out)]) == 1  # a taken name: refused
    assert "exist already" in capsys.readouterr().err
    assert sorted(os.listdir(out)) == ["0.srt"] and (out / "0.srt").read_bytes() == b"PRECIOUS\n"

    not_made = tmp_path / "later" / "out"
    assert main(["convert", str(src), "-o", str(not_made), "--details", str(src)]) == 1  # refused: --details
    assert not (tmp_path / "later").exists()
    assert sorted(os.listdir(tmp_path)) == ["in", "out"]


def test_a_writable_output_folder_still_converts(tmp_path, capsys):
    src = make_inputs(tmp_path)
    out = tmp_path / "made" / "by the run"
    assert main(["convert", str(src), "-o", str(out), "-q"]) == 0
    assert sorted(os.listdir(out)) == ["0.srt", "1.srt"]
    assert b"NASA" in (out / "0.srt").read_bytes()


# -- the output folder is an input folder ---------------------------------------------------------

def test_output_folder_at_the_input_folder_is_one_clear_line(tmp_path, capsys):
    """``subcase convert in -o in``.  Before: two oblique lines,
    ``FAILED in: folder holds no .srt or .vtt files outside the output folder`` and
    ``subcase: no .srt or .vtt files to work on``."""
    src = make_inputs(tmp_path)
    before = snapshot(src)
    rc = main(["convert", str(src), "-o", str(src)])
    lines = capsys.readouterr().err.splitlines()
    assert rc == 1
    assert lines == [f"subcase: {src}: the output folder is the input folder {src}, so every output would "
                     f"replace its input; choose another output folder (such as {src / 'cased'})"]
    assert snapshot(src) == before


def test_output_folder_at_the_input_folder_under_another_spelling(tmp_path, capsys):
    src = make_inputs(tmp_path)
    (tmp_path / "link").symlink_to(src)
    rc = main(["convert", str(src), "-o", str(tmp_path / "link" / ".." / "in")])
    err = capsys.readouterr().err
    assert rc == 1 and len(err.splitlines()) == 1 and "is the input folder" in err


def test_output_folder_holding_the_input_folder_is_one_clear_line(tmp_path, capsys, monkeypatch):
    """``subcase convert in -o .``: the walk leaves the output folder out, so it found nothing."""
    make_inputs(tmp_path)
    monkeypatch.chdir(tmp_path)
    rc = main(["convert", "in", "-o", "."])
    lines = capsys.readouterr().err.splitlines()
    assert rc == 1
    assert lines == ["subcase: .: the input folder in is inside the output folder; choose an output folder that "
                     "does not hold the inputs"]


def test_files_named_into_their_own_folder_fail_before_the_model_loads(tmp_path, capsys):
    """``subcase convert in/0.srt in/1.srt -o in``: one line per file, from the plan, and no model is
    looked for (before: the model loaded first, here the missing model's line and no file named)."""
    src = make_inputs(tmp_path)
    before = snapshot(src)
    rc = main(["convert", str(src / "0.srt"), str(src / "1.srt"), "-o", str(src),
               "--model", str(tmp_path / "no-model-here"), "-q"])
    err = capsys.readouterr().err.splitlines()
    assert rc == 1
    assert err == [f"FAILED {src / name}: the output {src / name} would overwrite the input itself; choose another "
                   "output folder" for name in ("0.srt", "1.srt")]
    assert snapshot(src) == before


def test_output_folder_inside_the_input_folder_still_converts(tmp_path, capsys):
    """``subcase convert in -o in/cased`` is the documented way; a second run skips the first's outputs."""
    src = make_inputs(tmp_path)
    assert main(["convert", str(src), "-o", str(src / "cased"), "-q"]) == 0
    assert sorted(os.listdir(src / "cased")) == ["0.srt", "1.srt"]


# -- Ctrl-C -----------------------------------------------------------------------------------------

def _interrupt_a_batch(tmp_path: Path, *extra: str) -> tuple[subprocess.Popen, str, Path]:
    """Convert a folder of 120 files as a subprocess and Ctrl-C its process group, as a terminal
    does, once it has written a file."""
    make_inputs(tmp_path, 120)
    out = tmp_path / "out"
    proc = subprocess.Popen([sys.executable, "-m", "subcase", "convert", "in", "-o", "out", *extra],
                            cwd=tmp_path, env=dict(os.environ), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None and not (
            out.is_dir() and any(not p.name.startswith(".") for p in out.iterdir())):
        time.sleep(0.02)
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    if "subcase: interrupted" not in err and "Traceback" not in err:
        pytest.skip(f"the batch finished before Ctrl-C arrived (exit {proc.returncode})")
    return proc, err, out


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_says_how_many_files_were_written_and_how_to_finish(tmp_path, jobs):
    """Before: ``subcase: interrupted``, and nothing about what was written or what to do."""
    proc, err, out = _interrupt_a_batch(tmp_path, "--jobs", jobs)
    assert proc.returncode == 130 and "Traceback" not in err
    last = err.strip().splitlines()[-1]
    match = INTERRUPTED.fullmatch(last)
    assert match, last
    assert err.count("subcase: interrupted") == 1
    written = sorted(p.name for p in out.iterdir())
    assert not [n for n in written if n.startswith(".")]  # no temp file left
    assert int(match.group(1)) == len(written) and 0 < len(written) < 120
    assert int(match.group(2)) == 120

    # the hint works: the same command with --skip-existing converts the rest, and only the rest
    before = {n: (out / n).stat().st_mtime_ns for n in written}
    again = subprocess.run([sys.executable, "-m", "subcase", "convert", "in", "-o", "out", "--skip-existing", "-q"],
                           cwd=tmp_path, env=dict(os.environ), capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    assert sorted(os.listdir(out)) == sorted(f"{k}.srt" for k in range(120))
    assert {n: (out / n).stat().st_mtime_ns for n in written} == before
