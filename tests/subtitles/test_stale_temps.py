"""A temporary file left by a writer killed at its rename is removed by the next save into its
folder; a live writer's temporary, and anything not of subcase's own naming, is left alone.

Real processes killed with SIGKILL at the rename (the ``BEFORE_REPLACE`` seam).  "Stale" is
partly an age (atomic.STALE_AFTER_S): the tests make a leftover that old by setting its mtime,
which is what waiting that long would do."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from subcase.subtitles import atomic, load, save

from .conftest import FIXTURES

WRITER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from subcase.subtitles import atomic, load, save
    target = Path(sys.argv[1])
    def hook(tmp):
        print("READY", flush=True)
        time.sleep(120)
    atomic.BEFORE_REPLACE = hook
    save(load(target), backup=False)
""")


def writer_paused_at_rename(target: Path) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(target)], stdout=subprocess.PIPE)
    assert proc.stdout is not None and proc.stdout.readline().strip() == b"READY"
    return proc


def temps(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if atomic.TEMP_PATTERN.fullmatch(p.name))


def age(path: Path, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then), follow_symlinks=False)


def test_a_temporary_left_by_kill_9_at_the_rename_goes_with_the_next_save(tmp_path):
    film = tmp_path / "film.srt"
    film.write_bytes((FIXTURES / "markup.srt").read_bytes())
    proc = writer_paused_at_rename(film)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    (leftover,) = temps(tmp_path)
    assert leftover.name.startswith(".film.srt.")
    age(leftover, 2 * atomic.STALE_AFTER_S)
    other = tmp_path / "other.srt"
    save(load(FIXTURES / "markup.srt"), other, backup=False)  # a save of another file, into that folder
    assert temps(tmp_path) == []
    assert film.read_bytes() == (FIXTURES / "markup.srt").read_bytes() and other.is_file()


def test_a_live_writers_temporary_is_kept_however_old(tmp_path):
    """A writer holds its temporary's lock until the rename: a slow disk must not lose its save."""
    film = tmp_path / "film.srt"
    film.write_bytes((FIXTURES / "markup.srt").read_bytes())
    proc = writer_paused_at_rename(film)
    try:
        (pending,) = temps(tmp_path)
        age(pending, 10 * atomic.STALE_AFTER_S)
        save(load(FIXTURES / "markup.srt"), tmp_path / "other.srt", backup=False)
        assert temps(tmp_path) == [pending]  # still there: its writer is alive
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    save(load(FIXTURES / "markup.srt"), tmp_path / "other.srt", backup=False)
    assert temps(tmp_path) == []  # its writer is gone now


def test_only_stale_temporaries_of_subcases_own_pattern_are_removed(tmp_path):
    old = 2 * atomic.STALE_AFTER_S
    keep = {
        ".a.srt.1a2b3c4d.tmp": 0,         # ours, but young: a writer without a lock may still rename it
        ".a.srt.zzzzzzzz.tmp": old,       # not a hex token: someone else's
        "a.srt.1a2b3c4d.tmp": old,        # not hidden
        ".a.srt.1a2b3c4d.tmp.keep": old,  # not ending in .tmp
        ".a.srt.1A2B3C4D.tmp": old,       # token_hex writes lower case only
    }
    for name, seconds in keep.items():
        (tmp_path / name).write_bytes(b"someone's data\n")
        age(tmp_path / name, seconds)
    (tmp_path / ".notes.txt.0badf00d.tmp").write_bytes(b"ours, stale\n")
    age(tmp_path / ".notes.txt.0badf00d.tmp", old)
    outside = tmp_path / "outside.txt"
    outside.write_bytes(b"PRECIOUS\n")
    (tmp_path / ".link.srt.deadbeef.tmp").symlink_to(outside)  # a link of our pattern: not a temporary we made
    age(tmp_path / ".link.srt.deadbeef.tmp", old)
    # a batch output's save sweeps its folder as an editor save does
    atomic.write_in_folder(tmp_path, Path("out.srt"), b"1\n00:00:01,000 --> 00:00:02,000\nHi\n")
    left = {p.name for p in tmp_path.iterdir()}
    assert left == {*keep, ".link.srt.deadbeef.tmp", "outside.txt", "out.srt"}
    assert outside.read_bytes() == b"PRECIOUS\n"
