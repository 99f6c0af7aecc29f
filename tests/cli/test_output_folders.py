"""Output folders are safe and input trees are mirrored (``subcase convert``).

- Nothing in the output folder that the run did not make is replaced without
  ``--overwrite``: every taken name is listed, one line each, and nothing runs.
- ``--skip-existing`` converts only the inputs whose output name is free.
- No symbolic link in the output folder is followed, ``--overwrite`` or not.
- A folder's subfolders are kept below the output folder, by every back-end.

Real files in tmp_path, the real model, the real command (in process through
``main`` or as a subprocess); the Dask path is in test_cluster.py.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from subcase.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "resources" / "examples" / "lowercase-example.srt"
PRECIOUS = b"PRECIOUS\n"

pytestmark = pytest.mark.usefixtures("engine")  # the real model; skipped where it is missing


def run_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "subcase", "convert", *args], capture_output=True, text=True,
                          cwd=cwd, env=dict(os.environ), timeout=300)


def cased(path: Path) -> bool:
    """True when path holds the example cased by the model (NASA is the example's acronym)."""
    return b"NASA" in path.read_bytes()


def make_series(root: Path) -> Path:
    """One folder per episode, each with the same file name, as series are often laid out."""
    for n in (1, 2, 3):
        (root / "in" / f"film{n}").mkdir(parents=True)
        shutil.copy(EXAMPLE, root / "in" / f"film{n}" / "English.srt")
    return root / "in"


def files_below(folder: Path) -> dict[str, bytes]:
    """Every file below folder with its bytes; a symbolic link as where it points."""
    return {str(p.relative_to(folder)): os.fsencode("-> " + os.readlink(p)) if p.is_symlink() else p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file() or p.is_symlink()}


# -- a name that is taken ---------------------------------------------------------------

def test_an_existing_output_is_listed_and_nothing_is_converted(tmp_path):
    """mkdir o; echo PRECIOUS > o/a.srt; subcase convert a.srt b.srt -o o"""
    shutil.copy(EXAMPLE, tmp_path / "a.srt")
    shutil.copy(EXAMPLE, tmp_path / "b.srt")
    (tmp_path / "o").mkdir()
    (tmp_path / "o" / "a.srt").write_bytes(PRECIOUS)
    proc = run_cli("a.srt", "b.srt", "-o", "o", cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stderr.splitlines() == [
        f"exists {Path('o', 'a.srt')} (a file; the output of a.srt)",
        "subcase: 1 output(s) exist already in o; nothing was converted. Use --overwrite to replace them, "
        "--skip-existing to convert only the other files, or choose another output folder",
    ]
    assert proc.stdout == ""
    assert (tmp_path / "o" / "a.srt").read_bytes() == PRECIOUS
    assert sorted(p.name for p in (tmp_path / "o").iterdir()) == ["a.srt"]  # b.srt was not converted either


def test_every_taken_name_gets_its_line_before_anything_runs(tmp_path, capsys):
    src = make_series(tmp_path)
    out = tmp_path / "out"
    assert main(["convert", str(src), "-o", str(out), "-q"]) == 0
    capsys.readouterr()
    reviewed = out / "film2" / "English.srt"
    reviewed.write_bytes(b"1\n00:00:01,000 --> 00:00:02,000\nReviewed by hand.\n")
    before = files_below(out)
    assert main(["convert", str(src), "-o", str(out), "-q"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[:3] == [f"exists {out / f'film{n}' / 'English.srt'} (a file; the output of "
                       f"{src / f'film{n}' / 'English.srt'})" for n in (1, 2, 3)]
    assert len(err) == 4 and err[3].startswith("subcase: 3 output(s) exist already in ")
    assert files_below(out) == before  # the hand-reviewed episode is still there


def test_overwrite_replaces_and_skip_existing_leaves_them(tmp_path, capsys):
    for name in ("a.srt", "b.srt"):
        shutil.copy(EXAMPLE, tmp_path / name)
    out = tmp_path / "o"
    out.mkdir()
    (out / "a.srt").write_bytes(PRECIOUS)
    os.chmod(out / "a.srt", 0o640)
    args = ["convert", str(tmp_path / "a.srt"), str(tmp_path / "b.srt"), "-o", str(out), "-q"]
    assert main([*args, "--skip-existing"]) == 0
    captured = capsys.readouterr()
    assert (out / "a.srt").read_bytes() == PRECIOUS and cased(out / "b.srt")
    assert f"skipped {tmp_path / 'a.srt'}: {out / 'a.srt'} exists (--skip-existing)" in captured.err.splitlines()
    assert "converted 1 file(s), 0 failed, 1 skipped;" in captured.out
    (out / "b.srt").unlink()
    assert main([*args, "--overwrite"]) == 0
    assert "converted 2 file(s), 0 failed;" in capsys.readouterr().out
    assert cased(out / "a.srt") and cased(out / "b.srt")
    assert (out / "a.srt").stat().st_mode & 0o777 == 0o640  # a replaced file keeps its permissions
    with pytest.raises(SystemExit) as usage:  # one or the other: argparse's usage error
        main([*args, "--overwrite", "--skip-existing"])
    assert usage.value.code == 2 and "not allowed with argument" in capsys.readouterr().err


def test_a_read_only_output_is_not_replaced_even_with_overwrite(tmp_path, capsys):
    shutil.copy(EXAMPLE, tmp_path / "a.srt")
    out = tmp_path / "o"
    out.mkdir()
    (out / "a.srt").write_bytes(PRECIOUS)
    os.chmod(out / "a.srt", 0o444)
    assert main(["convert", str(tmp_path / "a.srt"), "-o", str(out), "-q", "--overwrite"]) == 1
    assert "read-only" in capsys.readouterr().err
    assert (out / "a.srt").read_bytes() == PRECIOUS


# -- symbolic links in the output folder ------------------------------------------------

def test_a_symlink_at_an_output_name_is_never_followed(tmp_path, capsys):
    """o/a.srt -> ../notes.txt: refused; with --overwrite the link itself is replaced."""
    shutil.copy(EXAMPLE, tmp_path / "a.srt")
    notes = tmp_path / "notes.txt"
    notes.write_bytes(PRECIOUS)
    out = tmp_path / "o"
    out.mkdir()
    (out / "a.srt").symlink_to(Path("..") / "notes.txt")
    args = ["convert", str(tmp_path / "a.srt"), "-o", str(out), "-q"]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert f"exists {out / 'a.srt'} (a symbolic link to {Path('..', 'notes.txt')}; the output of " in err
    assert main([*args, "--skip-existing"]) == 0
    capsys.readouterr()
    assert (out / "a.srt").is_symlink() and notes.read_bytes() == PRECIOUS
    assert main([*args, "--overwrite"]) == 0
    assert notes.read_bytes() == PRECIOUS  # the target outside the folder is never written
    assert not (out / "a.srt").is_symlink() and cased(out / "a.srt")


def test_a_symlinked_subfolder_of_the_output_is_refused_even_with_overwrite(tmp_path, capsys):
    src = make_series(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    (out / "film2").symlink_to(elsewhere, target_is_directory=True)
    assert main(["convert", str(src), "-o", str(out), "-q", "--overwrite"]) == 1
    captured = capsys.readouterr()
    assert (f"FAILED {src / 'film2' / 'English.srt'}: {out / 'film2'} is a symbolic link; subcase never writes "
            "through a link in the output folder") in captured.err.splitlines()
    assert "converted 2 file(s), 1 failed;" in captured.out
    assert list(elsewhere.iterdir()) == []
    assert cased(out / "film1" / "English.srt") and cased(out / "film3" / "English.srt")


def test_a_link_put_in_after_planning_is_still_not_followed(engine, tmp_path):
    """The writer itself refuses links (O_NOFOLLOW, dir_fd): a subfolder swapped for a link, or a name
    taken, between the plan and the write is caught there too."""
    from subcase.batch import ConvertOptions, collect_batch_inputs, convert_batch, plan_outputs

    src = make_series(tmp_path)
    out = tmp_path / "out"
    (out / "film1").mkdir(parents=True)
    found, _ = collect_batch_inputs([src], [out])
    plan = plan_outputs(found, out, None)
    assert not plan.taken
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (out / "film1").rmdir()
    (out / "film1").symlink_to(elsewhere, target_is_directory=True)
    (out / "film2").mkdir()
    (out / "film2" / "English.srt").write_bytes(PRECIOUS)
    result = convert_batch(plan, ConvertOptions(jobs=1, punctuate="never"), engine=lambda: engine)
    errors = [r.error for r in result.results]
    assert "is a symbolic link; subcase never writes through a link in the output folder" in errors[0]
    assert "exists already (it appeared while the run went on); not replaced" in errors[1]
    assert errors[2] is None
    assert list(elsewhere.iterdir()) == [] and (out / "film2" / "English.srt").read_bytes() == PRECIOUS


# -- mirrored trees ----------------------------------------------------------------------

def test_a_series_in_one_folder_per_episode_converts_whole(tmp_path):
    make_series(tmp_path)
    proc = run_cli("in", "-o", "out", "-q", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "converted 3 file(s), 0 failed;" in proc.stdout
    assert sorted(files_below(tmp_path / "out")) == [str(Path(f"film{n}", "English.srt")) for n in (1, 2, 3)]
    assert all(cased(tmp_path / "out" / f"film{n}" / "English.srt") for n in (1, 2, 3))


def test_a_file_and_a_link_to_it_each_keep_their_name(tmp_path, capsys):
    src = tmp_path / "in"
    src.mkdir()
    shutil.copy(EXAMPLE, src / "z.srt")
    (src / "a.srt").symlink_to("z.srt")  # sorts first: before, only the link's name was written
    out = tmp_path / "out"
    assert main(["convert", str(src), "-o", str(out), "-q"]) == 0
    assert sorted(files_below(out)) == ["a.srt", "z.srt"]
    assert not (out / "a.srt").is_symlink() and cased(out / "a.srt") and cased(out / "z.srt")


def test_a_file_and_a_link_to_it_on_one_output_name_fail_the_later(tmp_path, capsys):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    shutil.copy(EXAMPLE, tmp_path / "a" / "x.srt")
    (tmp_path / "b" / "x.srt").symlink_to(Path("..", "a", "x.srt"))
    out = tmp_path / "out"
    assert main(["convert", str(tmp_path / "a"), str(tmp_path / "b"), "-o", str(out), "-q"]) == 1
    err = capsys.readouterr().err
    assert (f"FAILED {tmp_path / 'b' / 'x.srt'}: the output {out / 'x.srt'} is already the output of "
            f"{tmp_path / 'a' / 'x.srt'} (same name)") in err
    assert sorted(files_below(out)) == ["x.srt"]


def test_a_second_run_into_a_subfolder_of_the_input_does_not_take_its_outputs(tmp_path, capsys):
    src = make_series(tmp_path)
    out = src / "cased"
    assert main(["convert", str(src), "-o", str(out), "-q"]) == 0
    capsys.readouterr()
    assert main(["convert", str(src), "-o", str(out), "-q", "--overwrite"]) == 0
    assert "converted 3 file(s), 0 failed;" in capsys.readouterr().out
    assert sorted(files_below(out)) == [str(Path(f"film{n}", "English.srt")) for n in (1, 2, 3)]


def test_one_process_and_two_jobs_plan_alike(tmp_path):
    """A taken name skipped, a link refused, a tree mirrored: the same files and lines either way."""
    runs = {}
    for jobs in ("1", "2"):
        root = tmp_path / jobs
        make_series(root)
        (root / "out" / "film1").mkdir(parents=True)
        (root / "out" / "film1" / "English.srt").write_bytes(PRECIOUS)
        (root / "elsewhere").mkdir()
        (root / "out" / "film3").symlink_to(Path("..", "elsewhere"), target_is_directory=True)
        runs[jobs] = run_cli("in", "-o", "out", "-q", "--skip-existing", "--jobs", jobs, cwd=root)
    one, two = runs["1"], runs["2"]
    assert one.returncode == two.returncode == 1  # film3 refused
    assert one.stderr == two.stderr
    assert one.stderr.splitlines() == [
        f"skipped {Path('in', 'film1', 'English.srt')}: {Path('out', 'film1', 'English.srt')} exists "
        "(--skip-existing)",
        f"FAILED {Path('in', 'film3', 'English.srt')}: {Path('out', 'film3')} is a symbolic link; subcase never "
        "writes through a link in the output folder",
    ]
    assert files_below(tmp_path / "1" / "out") == files_below(tmp_path / "2" / "out")
    assert (tmp_path / "2" / "out" / "film1" / "English.srt").read_bytes() == PRECIOUS
    assert cased(tmp_path / "2" / "out" / "film2" / "English.srt")
    assert list((tmp_path / "2" / "elsewhere").iterdir()) == []
