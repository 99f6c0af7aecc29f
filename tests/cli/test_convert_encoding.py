"""convert reads a short legacy file in the right code page, says when it is unsure, and takes --encoding."""

from __future__ import annotations

import pytest

from subcase.cli import main

from helpers.changes import assert_only_letters_and_marks

# Issue #54, repro 1: 2 cues, 116 bytes of cp1252 (see tests/subtitles/test_encoding_guess.py).
SHORT_CP1252 = (b"1\r\n00:00:01,000 --> 00:00:02,000\r\n\x93we met ren\xe9 in z\xfcrich\x94\r\n\r\n"
                b"2\r\n00:00:03,000 --> 00:00:04,000\r\nthen paris \x96 france\r\n")


def test_short_cp1252_file_keeps_its_quote_bytes(engine, tmp_path, capsys) -> None:
    """Before the fix the file was read as cp775 and its opening quote 0x93 came back as 0xe2."""
    src = tmp_path / "short.srt"
    src.write_bytes(SHORT_CP1252)
    assert main(["convert", str(src), "-o", str(tmp_path / "o"), "-q"]) == 0
    out = (tmp_path / "o" / "short.srt").read_bytes()
    assert out[0x22:0x24] == b"\x93W", out[0x22:0x26].hex(" ")
    assert b"\x94" in out and b"\x96" in out
    assert_only_letters_and_marks(SHORT_CP1252.decode("cp1252"), out.decode("cp1252"))
    err = capsys.readouterr().err.strip().splitlines()
    doubts = [line for line in err if "low confidence" in line]
    assert len(doubts) == 1 and doubts[0].startswith(f"warning {src}: ") and "read as cp1252" in doubts[0]
    assert doubts[0].endswith("; give --encoding to choose")
    assert src.read_bytes() == SHORT_CP1252


def test_encoding_option_overrides_detection(engine, tmp_path, capsys) -> None:
    src = tmp_path / "short.srt"
    src.write_bytes(SHORT_CP1252)
    assert main(["convert", str(src), "-o", str(tmp_path / "o"), "-q", "--encoding", "cp1252"]) == 0
    out = (tmp_path / "o" / "short.srt").read_bytes()
    assert b"\x93We met Ren\xe9 in Z\xfcrich" in out  # sure of the page: every letter may be recased
    assert "low confidence" not in capsys.readouterr().err


def test_encoding_that_does_not_fit_fails_the_file_in_one_line(engine, tmp_path, capsys) -> None:
    src = tmp_path / "short.srt"
    src.write_bytes(SHORT_CP1252)
    assert main(["convert", str(src), "-o", str(tmp_path / "o"), "-q", "--encoding", "utf-8"]) == 1
    err = capsys.readouterr().err
    assert "short.srt: is not utf-8 text (byte 0x93 on line 3)" in err and "Traceback" not in err
    assert not (tmp_path / "o" / "short.srt").exists()


@pytest.mark.parametrize("name", ["klingon", "rot13"])
def test_unknown_encoding_is_a_usage_error(name, tmp_path, capsys) -> None:
    src = tmp_path / "short.srt"
    src.write_bytes(SHORT_CP1252)
    with pytest.raises(SystemExit) as info:
        main(["convert", str(src), "-o", str(tmp_path / "o"), "--encoding", name])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert f"argument --encoding: unknown text encoding '{name}'" in err and "Traceback" not in err
    assert not (tmp_path / "o").exists()
