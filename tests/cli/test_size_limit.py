"""Issue #54, bounded work: a file over the size limit is refused with one line, unread, before the
model loads (these tests run with the model out of reach: loading it would fail them with another line)."""

from __future__ import annotations

from pathlib import Path

import pytest

from subcase.cli import main
from subcase.subtitles.files import MAX_SIZE_MB

CUE = "{n}\n00:00:01,000 --> 00:00:02,000\nwe met john smith in new york on monday\n\n"


def film(path: Path, n_bytes: int) -> Path:
    """A real SRT file of at least ``n_bytes``: the same short cue, numbered on."""
    parts, size, n = [], 0, 0
    while size < n_bytes:
        n += 1
        parts.append(CUE.format(n=n))
        size += len(parts[-1])
    path.write_text("".join(parts), encoding="utf-8")
    return path


def test_a_file_over_the_default_limit_is_refused_before_any_work(tmp_path, capsys) -> None:
    big = film(tmp_path / "big.srt", int(MAX_SIZE_MB * 1e6) + 1000)
    small = film(tmp_path / "small.srt", 1000)
    out = tmp_path / "out"
    assert main(["convert", str(small), str(big), "-o", str(out), "-q"]) == 1
    err = capsys.readouterr().err
    assert err.splitlines() == [f"subcase: {big}: is {big.stat().st_size:,} bytes, over the limit of "
                                f"{MAX_SIZE_MB:g} MB; nothing was read (--max-size MB raises the limit)"]
    assert not out.exists()  # nothing converted, not even the small file: the run never started


def test_max_size_sets_the_limit(tmp_path, capsys) -> None:
    src = film(tmp_path / "a.srt", 3000)
    assert main(["convert", str(src), "-o", str(tmp_path / "out"), "--max-size", "0.002"]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"subcase: {src}: is {src.stat().st_size:,} bytes, over the limit of 0.002 MB; nothing was read (--max-size MB raises the limit)"]


@pytest.mark.parametrize("value", ["nan", "-1", "inf", "lots"])
def test_max_size_must_be_a_size(value, tmp_path, capsys) -> None:
    src = film(tmp_path / "a.srt", 100)
    with pytest.raises(SystemExit) as stop:
        main(["convert", str(src), "-o", str(tmp_path / "out"), "--max-size", value])
    assert stop.value.code == 2
    assert "--max-size" in capsys.readouterr().err
