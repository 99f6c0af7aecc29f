"""``subcase convert`` on ASS/SSA scripts, with the real model: capitals become proper case with only letters
(and restored marks) changed, every override tag and karaoke syllable stays, signs and songs keep their letters,
``--format`` converts both ways and says what is lost, and a script without [Events] fails in one line."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from subcase.cli import main
from subcase.subtitles import ass, load

ROOT = Path(__file__).resolve().parents[2]
ASS_DIR = ROOT / "tests" / "fixtures" / "subtitles" / "ass"
OWN = ASS_DIR / "own_fansub_crlf_bom.ass"
TAG_RE = re.compile(r"\{[^{}]*\}|\\[Nnh]")


def test_an_all_caps_script_is_cased_and_keeps_every_tag(engine, tmp_path, capsys):
    before = OWN.read_bytes()
    assert main(["convert", str(OWN), "-o", str(tmp_path / "out"), "-q"]) == 0
    after = (tmp_path / "out" / OWN.name).read_bytes()
    assert OWN.read_bytes() == before
    assert len(after) == len(before) and after.lower() == before.lower()  # only letter case changed
    old, new = load(OWN), load(tmp_path / "out" / OWN.name)
    assert [TAG_RE.findall(c.text) for c in new.cues] == [TAG_RE.findall(c.text) for c in old.cues]
    for a, b in zip(old.cues, new.cues):
        if ass.keeps_as_written(a):  # karaoke, the station sign, the drawing: as the typesetter wrote them
            assert b.text == a.text
    text = after.decode("utf-8-sig")
    assert "Akane" in text and "Tokyo" in text and "Osaka" in text
    assert "{\\i1}To the station.{\\i0}\\NI told you yesterday." in text
    assert "{\\pos(640,120)\\fad(200,200)}SHINJUKU STATION" in text
    assert "HARUTO: I" in text  # the speaker label keeps the house style (upper case)
    # everything outside the Dialogue texts is byte for byte the same
    strip = re.compile(rb"^(Dialogue:[^\r\n]*?,,)[^\r\n]*", re.MULTILINE)
    assert strip.sub(rb"\1", after) == strip.sub(rb"\1", before)


def test_case_signs_cases_them_like_dialogue(engine, tmp_path):
    assert main(["convert", str(OWN), "-o", str(tmp_path / "out"), "--case-signs", "-q"]) == 0
    doc = load(tmp_path / "out" / OWN.name)
    sign = next(c for c in doc.cues if "SHINJUKU" in c.text.upper())
    assert "SHINJUKU STATION" not in sign.text  # cased like the dialogue
    drawing = next(c for c in doc.cues if "\\p1" in c.text)
    assert drawing.text == next(c for c in load(OWN).cues if "\\p1" in c.text).text  # a shape has no letters


def test_format_conversion_both_ways_says_what_is_lost(engine, tmp_path, capsys):
    assert main(["convert", str(OWN), "-o", str(tmp_path / "srt"), "--format", "srt", "-q"]) == 0
    err = capsys.readouterr().err
    srt = load(tmp_path / "srt" / "own_fansub_crlf_bom.srt")
    assert srt.format == "srt" and len(srt.cues) == 7  # the drawing has nothing to show
    assert "converting to SRT drops 10 override tag(s)" in err
    assert "converting to SRT drops 2 speaker name(s) of the Name field: Haruto, Akane" in err
    assert "Traceback" not in err

    assert main(["convert", str(tmp_path / "srt" / "own_fansub_crlf_bom.srt"), "-o", str(tmp_path / "ass"),
                 "--format", "ass", "-q"]) == 0
    back = load(tmp_path / "ass" / "own_fansub_crlf_bom.ass")
    assert back.format == "ass" and len(back.cues) == 7
    assert "{\\i1}To the station.{\\i0}\\NI told you yesterday." in back.render()
    assert "pysubs2" not in capsys.readouterr().err  # the reference parser reads what was written


def test_an_ssa_folder_is_converted_in_place_of_its_names(engine, tmp_path, capsys):
    src = tmp_path / "in" / "season"
    src.mkdir(parents=True)
    shutil.copy(ASS_DIR / "pysubs2_simple.ssa", src / "ep01.ssa")
    shutil.copy(OWN, src / "ep02.ass")
    assert main(["convert", str(tmp_path / "in"), "-o", str(tmp_path / "out"), "-q"]) == 0
    assert sorted(p.name for p in (tmp_path / "out" / "season").iterdir()) == ["ep01.ssa", "ep02.ass"]
    assert "Traceback" not in capsys.readouterr().err


def test_a_script_without_events_fails_in_one_line(engine, tmp_path, capsys):
    real = (ASS_DIR / "pysubs2_attached_images_aegisub.ass").read_bytes()
    bad = tmp_path / "no_events.ass"
    bad.write_bytes(real[:real.index(b"[Events]")])
    assert main(["convert", str(bad), "-o", str(tmp_path / "out"), "-q"]) == 1
    err = capsys.readouterr().err
    assert err.strip().splitlines() == [
        f"FAILED {bad}: no [Events] section, so no subtitle events; this is not a complete ASS/SSA script"]


LABELS = """[Script Info]
ScriptType: v4.00+

[Events]
Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
Dialogue: 0,0:00:01.00,0:00:03.00,Default,,0,0,0,,{\\an8}john: we went to paris in the spring.
Dialogue: 0,0:00:03.50,0:00:06.00,Default,,0,0,0,,{\\i1}mary: did you see the louvre?{\\i0}
Dialogue: 0,0:00:06.50,0:00:09.00,Default,,0,0,0,,no, it was closed.\\Njohn: so we went to london.
Dialogue: 0,0:00:09.50,0:00:12.00,Default,,0,0,0,,mary: and then?\\N[door slams]
"""


def test_speaker_labels_and_sound_cues_keep_the_house_style_after_overrides_and_hard_breaks(engine, tmp_path):
    """A label after an override block ({\\an8}JOHN:) or a hard break (\\NJOHN:) starts its line as the
    viewer sees it: the house style reaches it as it reaches a label at the start of an SRT line."""
    src = tmp_path / "labels.ass"
    src.write_text(LABELS, encoding="utf-8")
    assert main(["convert", str(src), "-o", str(tmp_path / "out"), "--speaker-labels", "title",
                 "--sound-cues", "upper", "-q"]) == 0
    texts = [c.text for c in load(tmp_path / "out" / "labels.ass").cues]
    # the model alone writes these labels in capitals (SDH does): "title" is the house style reaching them
    assert texts[0].startswith("{\\an8}John: ")
    assert texts[1].startswith("{\\i1}Mary: ")
    assert "\\NJohn: " in texts[2]
    assert texts[3].startswith("Mary: ") and texts[3].endswith("\\N[DOOR SLAMS]")
