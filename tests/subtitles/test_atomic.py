"""Saving is atomic: old file or new file, never a broken one; backups kept."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from subcase.subtitles import SubtitleError, atomic, load, loads, save

from .conftest import FIXTURES, recase_word

CUES = 3000


def _big_srt(word: str) -> bytes:
    return "".join(f"{i + 1}\n00:{i // 60 % 60:02d}:{i % 60:02d},000 --> 00:{i // 60 % 60:02d}:{i % 60:02d},500\n"
                   f"{word} number {i}, said Mr. Smith in London.\n\n" for i in range(CUES)).encode()


CHILD = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from subcase.subtitles import atomic, load, save
    target, mode = Path(sys.argv[1]), sys.argv[2]
    doc = load(target)
    if mode == "hook":
        def hook(tmp):
            print("READY", flush=True)
            time.sleep(60)
        atomic.BEFORE_REPLACE = hook
    n = 0
    while True:
        for cue in doc.cues:
            w = cue.words()[0]
            doc.recase(cue.index, [(w.start, w.end, w.text.swapcase())])
        save(doc, backup=False)
        n += 1
        if n == 1:
            print("SAVED", flush=True)
""")


def _child(target: Path, mode: str) -> subprocess.Popen:
    # the child imports subcase as this interpreter has it installed (wheel or editable)
    return subprocess.Popen([sys.executable, "-c", CHILD, str(target), mode], stdout=subprocess.PIPE)


def _states() -> set[bytes]:
    # The child toggles the case of each cue's first word, so the file can
    # only ever be the original or the toggled version.
    return {_big_srt("Hello"), _big_srt("hELLO")}


def _assert_whole(target: Path) -> None:
    assert target.read_bytes() in _states()
    leftovers = [p.name for p in target.parent.iterdir() if p != target]
    for name in leftovers:  # only hidden temp files may remain, never a look-alike
        assert name.startswith(f".{target.name}.") and name.endswith(atomic.TEMP_SUFFIX)
    assert len(load(target).cues) == CUES


def test_kill_between_write_and_rename_leaves_old_file(tmp_path: Path) -> None:
    target = tmp_path / "film.srt"
    target.write_bytes(_big_srt("Hello"))
    proc = _child(target, "hook")
    assert proc.stdout is not None and proc.stdout.readline().strip() == b"READY"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert target.read_bytes() == _big_srt("Hello")
    _assert_whole(target)
    assert any(p.name.endswith(atomic.TEMP_SUFFIX) for p in tmp_path.iterdir())  # the new data, never renamed


def test_kill_at_random_moments_never_breaks_the_file(tmp_path: Path) -> None:
    target = tmp_path / "film.srt"
    target.write_bytes(_big_srt("Hello"))
    rng = random.Random(1234)
    for _ in range(5):
        proc = _child(target, "loop")
        assert proc.stdout is not None and proc.stdout.readline().strip() == b"SAVED"
        time.sleep(rng.uniform(0, 0.3))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        _assert_whole(target)


def test_backup_keeps_the_original_once(tmp_path: Path) -> None:
    target = tmp_path / "film.srt"
    original = (FIXTURES / "markup.srt").read_bytes()
    target.write_bytes(original)
    os.chmod(target, 0o640)
    doc = load(target)
    recase_word(doc, 0, 0, "NESTED")
    assert save(doc).path == target
    bak = tmp_path / "film.srt.bak"
    assert bak.read_bytes() == original
    assert target.read_bytes() == original.replace(b"Nested", b"NESTED")
    assert os.stat(target).st_mode & 0o777 == 0o640
    recase_word(doc, 0, 0, "nested")
    save(doc)
    assert bak.read_bytes() == original  # still the original, not the first save
    assert sorted(p.name for p in tmp_path.iterdir()) == ["film.srt", "film.srt.bak"]


def test_no_backup_when_disabled_or_new_file(tmp_path: Path) -> None:
    target = tmp_path / "film.srt"
    target.write_bytes((FIXTURES / "markup.srt").read_bytes())
    doc = load(target)
    save(doc, backup=False)
    save(doc, tmp_path / "copy.srt")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["copy.srt", "film.srt"]


def test_failed_save_keeps_original_and_cleans_up(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "film.srt"
    original = (FIXTURES / "markup.srt").read_bytes()
    target.write_bytes(original)
    doc = load(target)
    recase_word(doc, 0, 0, "NESTED")

    def boom(tmp: Path) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic, "BEFORE_REPLACE", boom)
    with pytest.raises(SubtitleError, match="cannot save: No space left on device"):
        save(doc, backup=False)
    assert target.read_bytes() == original
    assert [p.name for p in tmp_path.iterdir()] == ["film.srt"]


def test_save_errors_are_subtitle_errors(tmp_path: Path) -> None:
    doc = loads((FIXTURES / "markup.srt").read_bytes())
    with pytest.raises(SubtitleError, match="no file name"):
        save(doc)
    with pytest.raises(SubtitleError, match="cannot save"):
        save(doc, tmp_path / "missing-dir" / "x.srt")
