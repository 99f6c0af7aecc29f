"""Bad input from speech recognition (issue #56, item 6): each converts with no traceback, says what is odd about
it in one line where something is, and loses nothing: only letters and restored marks change.

The files are written here from text of our own, in the shapes recognisers produce them."""

from __future__ import annotations

import uuid
from pathlib import Path

from subcase.casing.pauses import pauses_before
from subcase.cli import main
from subcase.subtitles import load

from helpers.changes import assert_only_letters_and_marks

MARKS = ",.?!"


def ms(t: int, sep: str = ",") -> str:
    return f"{t // 3600000:02d}:{t // 60000 % 60:02d}:{t // 1000 % 60:02d}{sep}{t % 1000:03d}"


def convert(tmp_path: Path, name: str, text: str, capsys, *args: str) -> tuple[str, str, str]:
    """Convert a file written with ``text``: (its output text, stdout, stderr)."""
    src = tmp_path / name
    src.write_bytes(text.encode("utf-8"))
    rc = main(["convert", str(src), "-o", str(tmp_path / "out"), "--punctuate", "auto", "-v", *args])
    out, err = capsys.readouterr()
    assert rc == 0, err
    assert "Traceback" not in out + err
    result = (tmp_path / "out" / name).read_bytes().decode("utf-8")
    assert_only_letters_and_marks(text, result, marks=MARKS)
    assert src.read_bytes() == text.encode("utf-8")  # the input untouched
    return result, out, err


def test_a_hallucination_loop_is_read_once_and_cased_alike(engine, tmp_path, capsys):
    cues = ["1\n00:00:01,000 --> 00:00:03,000\nwe went to the market in paris\n"]
    cues += [f"{n}\n{ms(3000 + n * 1000)} --> {ms(4000 + n * 1000)}\nthank you for watching\n" for n in range(2, 402)]
    result, out, _ = convert(tmp_path, "loop.srt", "\n".join(cues), capsys)
    loop = {cue.plain_text() for cue in load(tmp_path / "out" / "loop.srt").cues[1:]}
    assert len(loop) == 1  # 400 copies, one reading
    assert "Paris" in result


def test_cues_of_zero_and_negative_duration(engine, tmp_path, capsys):
    text = ("1\n00:00:01,000 --> 00:00:01,000\nhello from london\n\n"
            "2\n00:00:05,000 --> 00:00:02,000\nthis cue ends before it starts\n\n"
            "3\n00:00:05,500 --> 00:00:08,000\nand this one is fine\n")
    result, out, err = convert(tmp_path, "durations.srt", text, capsys)
    assert "line 6: cue ends before it starts" in out + err
    assert "London" in result and "00:00:05,000 --> 00:00:02,000" in result  # the times as written


def test_a_cue_that_ends_before_it_starts_makes_no_silence_after_it():
    # cue 1 claims to end at 2 s though it starts at 5 s: the 0.5 s before cue 2 is no pause
    assert pauses_before([0, 5000, 5500], [1000, 2000, 7000]) == [False, True, False]


def test_overlapping_cues(engine, tmp_path, capsys):
    text = ("1\n00:00:01,000 --> 00:00:05,000\nthe first speaker talks about rome\n\n"
            "2\n00:00:02,000 --> 00:00:04,000\nwhile the second one talks over him\n\n"
            "3\n00:00:03,000 --> 00:00:09,000\nabout the weather in madrid\n")
    result, out, err = convert(tmp_path, "overlap.srt", text, capsys)
    assert "line 6: cue overlaps the previous cue" in out + err
    assert "Rome" in result and "Madrid" in result


def test_a_timing_tag_inside_a_word(engine, tmp_path, capsys):
    text = ("WEBVTT\n\n00:00:01.000 --> 00:00:03.000\nwe met in ber<00:00:01.500>lin and it was\n\n"
            "00:00:03.000 --> 00:00:05.000\nwonder<00:00:03.500><c>ful</c> but i do<00:00:04.000><c>n'</c>"
            "<00:00:04.100><c>t</c> know mary<00:00:04.500><c>'s</c> friend\n")
    result, _, _ = convert(tmp_path, "tags.vtt", text, capsys)
    assert "Ber<00:00:01.500>lin" in result               # the word cased whole, the tag where it was
    assert "do<00:00:04.000><c>n'</c><00:00:04.100><c>t</c>" in result  # not "N'" nor "T"
    assert "Mary<00:00:04.500><c>'s</c>" in result


def test_a_cue_of_5000_words(engine, tmp_path, capsys):
    words = ("we talked about the trip to chicago and the weather was fine " * 500).split()[:5000]
    text = "1\n00:00:01,000 --> 00:10:00,000\n" + " ".join(words) + "\n"
    result, out, _ = convert(tmp_path, "long.srt", text, capsys)
    assert result.count("Chicago") == words.count("chicago")
    assert "5000 words" in out


def test_voice_tags_with_guids(engine, tmp_path, capsys):
    # Teams names cues and speakers by GUID: the tag and the identifier stay byte for byte, the text is cased
    cues = []
    for n in range(4):
        guid = str(uuid.UUID(int=n * 7919 + 12345))
        cues.append(f"{guid}/{n}-0\n{ms(n * 1000, '.')} --> {ms(n * 1000 + 900, '.')}\n"
                    f"<v {guid}>i think we should ask john about it</v>\n")
    result, _, _ = convert(tmp_path, "teams.vtt", "WEBVTT\n\n" + "\n".join(cues), capsys)
    assert result.count("John") == 4
    guid = str(uuid.UUID(int=12345))
    assert f"<v {guid}>" in result and f"{guid}/0-0" in result
