"""ASS/SSA through the format registry: real scripts round-trip byte for byte, recasing and restored marks
change only letters and marks, every override tag, karaoke syllable and drawing stays, and the reference parser
(pysubs2) reads the cues we read and the files we write.

The pysubs2 samples in tests/fixtures/subtitles/ass (MIT, see LICENSE-pysubs2.txt there) are real Aegisub and
pysubs2 output: [Fonts] with an embedded font, [Graphics] with pictures, Aegisub project data, SSA v4 with its
``Marked=`` field.  own_fansub_crlf_bom.ass is of our own making: CRLF, a BOM, karaoke, signs, a drawing, a
Comment event, \\N and \\h, in capitals as broadcast and old fansubs write them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pysubs2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from subcase.subtitles import SubtitleError, ass, formats, load, loads, markup, save
from subcase.subtitles.losses import conversion_losses

from helpers.changes import assert_only_letters_and_marks

from .conftest import FIXTURES, assert_only_case_changed

ASS_DIR = FIXTURES / "ass"
SAMPLES = sorted(p for p in ASS_DIR.iterdir() if p.suffix in (".ass", ".ssa"))
OWN = ASS_DIR / "own_fansub_crlf_bom.ass"
FONTS = ASS_DIR / "pysubs2_attached_fonts_aegisub.ass"
OVERRIDE_RE = re.compile(r"\{[^{}]*\}")


def test_the_samples_are_there() -> None:
    names = {p.name for p in SAMPLES}
    assert {"own_fansub_crlf_bom.ass", "pysubs2_simple.ssa", "pysubs2_attached_fonts_aegisub.ass",
            "pysubs2_attached_images_aegisub.ass", "pysubs2_aegisub_project.ass"} <= names


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_every_sample_round_trips_byte_for_byte(path: Path, tmp_path: Path) -> None:
    doc = load(path)
    assert doc.format == "ass" and doc.cues and doc.warnings == []
    assert doc.to_bytes() == path.read_bytes()
    out = tmp_path / path.name
    out.write_bytes(path.read_bytes())
    saved = save(load(out))
    assert out.read_bytes() == path.read_bytes()
    assert saved.warnings == []  # pysubs2 reads the cues we wrote


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_cues_agree_with_pysubs2(path: Path) -> None:
    ours = load(path)
    theirs = pysubs2.load(str(path), encoding="utf-8-sig")
    assert [(c.start_ms, c.end_ms, ass.style(c), c.text) for c in ours.cues] == \
        [(e.start, e.end, e.style, e.text) for e in theirs.events if e.type == "Dialogue"]


def test_the_format_is_known_by_its_content_and_both_suffixes(tmp_path: Path) -> None:
    text = (ASS_DIR / "pysubs2_simple.ass").read_bytes()
    assert loads(text, "x.srt").format == "ass"  # the content wins over the name
    assert "holds ASS/SSA though its name ends in .srt" in str(loads(text, "x.srt").warnings[0])
    assert formats.for_path("A.SSA") is formats.ASS and formats.for_path("a.ass") is formats.ASS
    assert {".ass", ".ssa"} <= set(formats.SUFFIXES)


def test_kept_sections_are_every_byte_around_the_events() -> None:
    doc = load(FONTS)
    text = doc.render()
    # the embedded font (uuencoded, 600 kB) and the project data are text between cues, kept as read
    assert "[Fonts]" in text and "[Aegisub Project Garbage]" in text
    assert sum(len(s) for s in doc._segments if isinstance(s, str)) > 600_000


def _recase_every_word(doc, form) -> None:
    for i, cue in enumerate(doc.cues):
        doc.recase(i, [(w.start, w.end, form(w.text)) for w in cue.words()])


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_recasing_every_word_keeps_every_tag_and_changes_only_letters(path: Path) -> None:
    before = path.read_bytes()
    doc = load(path)
    tags = [OVERRIDE_RE.findall(c.text) for c in doc.cues]
    _recase_every_word(doc, str.swapcase)
    after = doc.to_bytes()
    assert_only_case_changed(before, after, doc.encoding)
    assert [OVERRIDE_RE.findall(c.text) for c in load(path).cues] == tags
    # byte for byte outside the Text fields: every event's head, every section
    for old, new in zip(before.decode("utf-8-sig").splitlines(), after.decode("utf-8-sig").splitlines()):
        if not old.startswith("Dialogue:"):
            assert old == new


def test_drawings_hints_and_breaks_are_never_words() -> None:
    doc = load(OWN)
    drawing = next(c for c in doc.cues if "\\p1" in c.text)
    assert drawing.words() == []  # "m 0 0 l 480 0" is a shape
    breaks = next(c for c in doc.cues if "\\h" in c.text)
    assert [w.text for w in breaks.words()][:3] == ["DOOR", "SLAMS", "THAT"]  # not "hTHAT"
    second = next(c for c in doc.cues if "{\\i1}" in c.text)
    assert "I" in [w.text for w in second.words()] and "NI" not in [w.text for w in second.words()]
    _recase_every_word(doc, str.lower)
    assert "m 0 0 l 480 0 480 90 0 90{\\p0}" in doc.render()
    assert "\\NI told" not in doc.render() and "\\Ni told you yesterday." in doc.render()


# -- the property: converting changes only letters and marks -------------------------------------------------

_MARKS = ",.?!"


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_property_recasing_and_marks_change_only_letters_and_marks(data) -> None:
    path = data.draw(st.sampled_from(SAMPLES[:1] + [p for p in SAMPLES if p.stat().st_size < 10_000]))
    before = path.read_bytes().decode("utf-8-sig")
    doc = load(path)
    for i, cue in enumerate(doc.cues):
        words = cue.words()
        if not words:
            continue
        chosen = data.draw(st.lists(st.sampled_from(words), unique=True, max_size=len(words)))
        forms = data.draw(st.lists(st.sampled_from([str.upper, str.lower, str.title, str.swapcase]),
                                   min_size=len(chosen), max_size=len(chosen)))
        doc.recase(i, [(w.start, w.end, f(w.text)) for w, f in zip(chosen, forms)])
        ends = data.draw(st.lists(st.sampled_from(cue.words()), unique=True, max_size=3))
        marks = [(w.end, data.draw(st.sampled_from(list(_MARKS)))) for w in ends]
        marks = [(at, m) for at, m in marks if doc.can_insert_mark(i, at, m)]
        if marks:
            doc.insert_marks(i, marks)
    after = doc.to_bytes().decode("utf-8-sig")
    assert_only_letters_and_marks(before, after, marks=_MARKS)
    assert len(load(path).cues) == len(loads(doc.to_bytes(), path.name).cues)


# -- what an edit of a cue writes ------------------------------------------------------------------------------

def test_a_changed_time_rewrites_only_that_field_in_centiseconds() -> None:
    doc = load(OWN)
    lines = doc.render().split("\r\n")
    cue = doc.cues[1]
    cue.start_ms += 1234
    new = doc.render().split("\r\n")
    changed = [(a, b) for a, b in zip(lines, new) if a != b]
    assert changed == [("Dialogue: 0,0:00:05.12,0:00:07.80,Default,Haruto,0,0,0,,WHERE ARE YOU GOING, AKANE?",
                        "Dialogue: 0,0:00:06.35,0:00:07.80,Default,Haruto,0,0,0,,WHERE ARE YOU GOING, AKANE?")]


def test_a_line_break_typed_into_a_cue_is_written_as_a_hard_break() -> None:
    doc = load(OWN)
    doc.set_cue_text(1, "Where are you going,\nAkane?")
    assert doc.cues[1].text == "Where are you going,\\NAkane?"  # as the file holds it
    assert "Default,Haruto,0,0,0,,Where are you going,\\NAkane?\r\n" in doc.render()
    assert len(loads(doc.to_bytes(), "x.ass").cues) == len(doc.cues)


# -- malformed -------------------------------------------------------------------------------------------------

def test_ass_without_events_is_one_clear_line(tmp_path: Path) -> None:
    """pysubs2's own malformed sample: a real Aegisub script whose [Events] section is gone."""
    real = FONTS.read_bytes()
    cut = real[:real.index(b"[Events]")]
    path = tmp_path / "no_events.ass"
    path.write_bytes(cut)
    with pytest.raises(SubtitleError) as err:
        load(path)
    assert str(err.value) == f"{path}: no [Events] section, so no subtitle events; " \
                             "this is not a complete ASS/SSA script"


def test_an_empty_events_section_is_an_empty_script() -> None:
    doc = loads(b"[Script Info]\nScriptType: v4.00+\n\n[Events]\nFormat: Layer, Start, End, Style, Text\n", "e.ass")
    assert doc.cues == [] and doc.to_bytes().startswith(b"[Script Info]")


def test_unreadable_dialogue_lines_are_kept_as_text_with_a_warning() -> None:
    data = (b"[Script Info]\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
            b"Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,fine\n"
            b"Dialogue: 0,soon,0:00:03.00,Default,,0,0,0,,bad time\n"
            b"Dialogue: 0,0:00:04.00\n")
    doc = loads(data, "x.ass")
    assert [c.text for c in doc.cues] == ["fine"]
    assert [w.line for w in doc.warnings] == [6, 7]
    assert "cannot read the time 'soon'" in str(doc.warnings[0])
    assert doc.to_bytes() == data


# -- conversion ------------------------------------------------------------------------------------------------

def test_ass_to_srt_and_vtt_keep_text_italics_and_positions_and_say_what_is_lost() -> None:
    doc = load(OWN)
    srt = doc.convert(formats.SRT).render().replace("\r\n", "\n")
    assert "<i>TO THE STATION.</i>\nI TOLD YOU YESTERDAY." in srt
    assert "{\\an8}HARUTO: I NEVER WENT BACK TO TOKYO." in srt
    assert "m 0 0" not in srt and "\\k" not in srt and "{\\be1" not in srt
    vtt = doc.convert(formats.VTT).render().replace("\r\n", "\n")
    assert "00:00:15.100 --> 00:00:18.000 line:0\nHARUTO: I NEVER WENT BACK TO TOKYO." in vtt
    losses = conversion_losses(doc, "srt")
    assert losses == [
        "converting to SRT drops 10 override tag(s): \\k20, \\k35, \\k40, \u2026",
        "converting to SRT drops the drawings of 1 event(s)",
        "converting to SRT leaves out 1 event(s) with no text to show",
        "converting to SRT drops 2 speaker name(s) of the Name field: Haruto, Akane",
        "converting to SRT drops 4 style(s), 1 Comment event(s), 1 [Fonts] section "
        "(fonts, colours and positions of the styles with them)"]


@pytest.mark.parametrize("name", ["markup.srt", "features.vtt", "markup_crlf.srt"])
def test_srt_and_vtt_to_ass_read_the_same_in_pysubs2(name: str) -> None:
    converted = load(FIXTURES / name).convert(formats.ASS)
    theirs = pysubs2.SSAFile.from_string(converted.render())
    assert [(e.start, e.end) for e in theirs.events] == [(c.start_ms, c.end_ms) for c in converted.cues]
    assert [e.plaintext for e in theirs.events] == [markup.plain(c.text) for c in converted.cues]
    assert loads(converted.to_bytes(), "x.ass").to_bytes() == converted.to_bytes()


def test_srt_to_ass_says_what_ass_cannot_hold() -> None:
    doc = loads(b"1\n00:00:01,000 --> 00:00:02,000\n<font color=\"red\">Red</font> {laughs} ok\n", "x.srt")
    assert conversion_losses(doc, "ass") == [
        "converting to ASS drops 1 tag(s) ASS has no form for: <font color=\"red\">",
        "converting to ASS drops 1 text(s) in braces, which ASS players hide as comments: {laughs}"]
    assert doc.convert(formats.ASS).cues[0].text == "Red {laughs} ok"


def test_an_ssa_file_keeps_its_suffix_in_a_batch() -> None:
    from subcase.batch.plan import output_relative

    assert output_relative(Path("ep/01.SSA"), None) == Path("ep/01.ssa")
    assert output_relative(Path("ep/01.ssa"), "ass") == Path("ep/01.ssa")
    assert output_relative(Path("ep/01.ssa"), "srt") == Path("ep/01.srt")
    assert output_relative(Path("ep/01.srt"), "ass") == Path("ep/01.ass")


# -- signs and songs -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, dialogue", [("Default", True), ("Flashback", True), ("Main Italic", True),
                                            ("Sign", False), ("OP_Romaji", False), ("ED-Eng", False),
                                            ("SignBold", False), ("Karaoke", False), ("TS Station", False),
                                            ("Song", False), ("Opening", False), ("TitleCard", False)])
def test_styles_named_for_signs_and_songs(name: str, dialogue: bool) -> None:
    assert ass.is_dialogue_style(name) is dialogue


def test_signs_songs_and_drawings_are_kept_as_written() -> None:
    doc = load(OWN)
    assert [ass.keeps_as_written(c) for c in doc.cues] == [True, False, False, True, True, False, False, False]
