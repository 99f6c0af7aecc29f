"""Saving never replaces what it should not: backups, symlinks,
permissions, read-only files, and names as long as the file system allows."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from subcase.errors import ReadOnlyError, SubcaseError
from subcase.subtitles import SubtitleError, atomic, load, save

from .conftest import FIXTURES, recase_word

ORIGINAL = (FIXTURES / "markup.srt").read_bytes()


def _edit_and_save(path: Path, form: str, **kw) -> Path:
    doc = load(path)
    recase_word(doc, 0, 0, form)
    return save(doc, **kw).path


def test_second_session_keeps_the_first_backup(tmp_path: Path) -> None:
    target = tmp_path / "film.srt"
    target.write_bytes(ORIGINAL)
    _edit_and_save(target, "NESTED")          # session 1
    first_output = target.read_bytes()
    _edit_and_save(target, "nested")          # session 2: a new Document
    assert (tmp_path / "film.srt.bak").read_bytes() == ORIGINAL
    # The second session's old content (the first session's output) is kept too, under a new name.
    assert (tmp_path / "film.srt.bak.2").read_bytes() == first_output
    _edit_and_save(target, "NESTED")          # session 3
    assert (tmp_path / "film.srt.bak").read_bytes() == ORIGINAL
    assert sorted(p.name for p in tmp_path.iterdir()) == ["film.srt", "film.srt.bak", "film.srt.bak.2",
                                                         "film.srt.bak.3"]


def test_a_users_own_bak_is_never_overwritten(tmp_path: Path) -> None:
    target = tmp_path / "film.srt"
    target.write_bytes(ORIGINAL)
    mine = tmp_path / "film.srt.bak"
    mine.write_bytes(b"my own notes, not a subcase backup\n")
    _edit_and_save(target, "NESTED")
    assert mine.read_bytes() == b"my own notes, not a subcase backup\n"
    assert (tmp_path / "film.srt.bak.2").read_bytes() == ORIGINAL


def test_a_dangling_symlink_named_bak_is_not_followed(tmp_path: Path) -> None:
    target = tmp_path / "film.srt"
    target.write_bytes(ORIGINAL)
    (tmp_path / "film.srt.bak").symlink_to(tmp_path / "elsewhere.txt")
    _edit_and_save(target, "NESTED")
    assert not (tmp_path / "elsewhere.txt").exists()
    assert (tmp_path / "film.srt.bak.2").read_bytes() == ORIGINAL


def test_save_writes_through_a_symlink(tmp_path: Path) -> None:
    real = tmp_path / "real" / "film.srt"
    real.parent.mkdir()
    real.write_bytes(ORIGINAL)
    link = tmp_path / "link.srt"
    link.symlink_to(real)
    _edit_and_save(link, "NESTED")
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_bytes() == ORIGINAL.replace(b"Nested", b"NESTED")
    assert (real.parent / "film.srt.bak").read_bytes() == ORIGINAL  # the backup sits beside the real file
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.srt", "real"]


def test_save_keeps_permissions_exactly(tmp_path: Path) -> None:
    target = tmp_path / "film.srt"
    target.write_bytes(ORIGINAL)
    old_umask = os.umask(0o077)  # a umask that would narrow a freshly created file
    try:
        os.chmod(target, 0o664)
        _edit_and_save(target, "NESTED", backup=False)
    finally:
        os.umask(old_umask)
    assert os.stat(target).st_mode & 0o7777 == 0o664


def test_read_only_file_is_refused_unless_allowed(tmp_path: Path) -> None:
    target = tmp_path / "film.srt"
    target.write_bytes(ORIGINAL)
    os.chmod(target, 0o444)
    doc = load(target)
    recase_word(doc, 0, 0, "NESTED")
    with pytest.raises(ReadOnlyError) as info:
        save(doc)
    assert isinstance(info.value, SubcaseError) and info.value.path == target
    assert "read-only" in str(info.value)
    assert target.read_bytes() == ORIGINAL
    assert sorted(p.name for p in tmp_path.iterdir()) == ["film.srt"]  # no backup, no temp file
    save(doc, allow_read_only=True)  # the user said yes
    assert target.read_bytes() == ORIGINAL.replace(b"Nested", b"NESTED")
    assert os.stat(target).st_mode & 0o7777 == 0o444


def _name_max(directory: Path) -> int:
    return os.pathconf(directory, "PC_NAME_MAX")


@pytest.mark.parametrize("char", ["a", "é"])
def test_longest_name_the_file_system_accepts_saves(tmp_path: Path, char: str) -> None:
    limit = _name_max(tmp_path)
    stem_bytes = limit - len(".srt")
    stem = char * (stem_bytes // len(char.encode()))
    target = tmp_path / (stem + ".srt")
    assert len(os.fsencode(target.name)) <= limit
    target.write_bytes(ORIGINAL)
    _edit_and_save(target, "NESTED", backup=False)
    assert target.read_bytes() == ORIGINAL.replace(b"Nested", b"NESTED")
    assert sorted(p.name for p in tmp_path.iterdir()) == [target.name]


def test_temp_name_fits_and_stays_hidden(tmp_path: Path) -> None:
    for n in (1, 100, 241, 242, 255):
        tmp = atomic.temp_name(tmp_path / ("x" * n))
        assert len(os.fsencode(tmp.name)) <= _name_max(tmp_path)
        assert tmp.name.startswith(".") and tmp.name.endswith(atomic.TEMP_SUFFIX)
        assert tmp.parent == tmp_path


def test_backup_race_never_overwrites(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process takes NAME.bak between our look and our write: we move on to .bak.2."""
    target = tmp_path / "film.srt"
    target.write_bytes(ORIGINAL)
    real_backup_path = atomic.backup_path

    def racing(path: Path) -> Path:
        chosen = real_backup_path(path)
        if chosen.name == "film.srt.bak":
            chosen.write_bytes(b"the other process\n")
        return chosen

    monkeypatch.setattr(atomic, "backup_path", racing)
    _edit_and_save(target, "NESTED")
    assert (tmp_path / "film.srt.bak").read_bytes() == b"the other process\n"
    assert (tmp_path / "film.srt.bak.2").read_bytes() == ORIGINAL


def test_save_into_a_missing_folder_is_a_subcase_error(tmp_path: Path) -> None:
    doc = load(FIXTURES / "markup.srt")
    with pytest.raises(SubcaseError):
        save(doc, tmp_path / "missing" / "x.srt")
    assert issubclass(SubtitleError, SubcaseError)
