"""Restored punctuation writes marks and nothing else: every other byte of the file stays.

A property test on real files (dev subtitles and the markup fixtures): random marks at random word ends
and Spanish opening marks at random word starts; the file minus the inserted characters is the original,
timings and line breaks are untouched, a mark that ends a cue lands inside its closing markup, and
``revert_marks`` gives the original bytes back.  Then the markup cases, the refusals and ``set_mark``.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from subcase.errors import SubcaseError
from subcase.subtitles import MarkError, SubtitleError, loads
from subcase.subtitles.lines import NEWLINE_RE
from subcase.subtitles.marking import CLOSING, OPENING

from .conftest import DEV_SUBTITLES, FIXTURES

DEV_NAMES = ["meyer1994__srt__sintel_en.srt",                                # SRT
             "ableplayer__ableplayer__media__blocks4all_captions_en.vtt",    # VTT with <v Name> voices
             "w3c__wai-website__wai-videos__foundations-course__foundations-course-teaser.en.vtt"]  # <font>
YOUTUBE = FIXTURES.parent / "captions" / "youtube_layout_rolling.vtt"
FIXTURE_NAMES = ["markup.srt", "markup_crlf.srt", "markup_bom.srt", "features_crlf_bom.vtt", "utf16le_bom.srt",
                 "legacy_cp1252.srt"]


def _files() -> list[tuple[str, bytes]]:
    out = [(name, (FIXTURES / name).read_bytes()) for name in FIXTURE_NAMES]
    # a YouTube auto-caption: inline timestamps and <c> spans around every word
    out.append((YOUTUBE.name, YOUTUBE.read_bytes()))
    out += [(name, (DEV_SUBTITLES / name).read_bytes()) for name in DEV_NAMES if (DEV_SUBTITLES / name).is_file()]
    return out


FILES = _files()
DEV_PRESENT = all((DEV_SUBTITLES / name).is_file() for name in DEV_NAMES)


def _without(text: str, removed: set[int]) -> str:
    return "".join(ch for i, ch in enumerate(text) if i not in removed)


@pytest.mark.skipif(not DEV_PRESENT, reason=f"shared dev subtitles not found at {DEV_SUBTITLES.resolve()} "
                                            "(clone with ../shared beside the repo)")
@settings(max_examples=40, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_inserted_marks_are_the_only_change(data):
    name, original = data.draw(st.sampled_from(FILES), label="file")
    doc = loads(original, name)
    before = doc.render()
    cues = [(c, cue) for c, cue in enumerate(doc.cues) if cue.words()]
    chosen = data.draw(st.lists(st.sampled_from(cues), min_size=1, max_size=12, unique_by=lambda x: x[0]),
                       label="cues")
    edits = []
    ends_of_cues = []  # (cue, old text after the last word, mark)
    for c, cue in chosen:
        words = cue.words()
        old_text = cue.text
        picks = data.draw(st.lists(st.tuples(st.one_of(st.just(len(words) - 1), st.integers(0, len(words) - 1)), st.sampled_from(",.?!"),
                                             st.sampled_from(["", "", "\u00bf", "\u00a1"])),
                                   min_size=1, max_size=4, unique_by=lambda p: p[0]), label=f"marks in cue {c}")
        for k, mark, opening in picks:
            # Offsets as the words of the text as it stands (earlier marks moved them).
            w = doc.cues[c].words()[k]
            inserts = [(w.end, mark)] + ([(w.start, opening)] if opening else [])
            text_then = doc.cues[c].text
            try:
                edit = doc.insert_marks(c, inserts)
            except MarkError:
                assert doc.cues[c].text == text_then, "a refused insert changed the cue"
                event("refused")
                continue
            event("inserted")
            edits.append(edit)
            if k == len(words) - 1:
                ends_of_cues.append((c, text_then[w.end:], mark))
        assert doc.cues[c].text.count("\n") == old_text.count("\n")
    after = doc.render()
    added = sum(len(new) for e in edits for _, _, new in e.changes)
    assert len(after) == len(before) + added
    # the inserted characters, found by walking both texts: nothing but marks is new, nothing is lost
    i = 0
    for ch in after:
        if i < len(before) and ch == before[i]:
            i += 1
        else:
            assert ch in CLOSING or ch in OPENING, f"{ch!r} is not a mark"
    assert i == len(before)
    # timing, identifiers, settings, line breaks and their style as they were
    reread = loads(doc.to_bytes(), name)
    first = loads(original, name)
    assert [(c.identifier, c.start_ms, c.end_ms, c.settings) for c in reread.cues] == \
           [(c.identifier, c.start_ms, c.end_ms, c.settings) for c in first.cues]
    assert [m.group() for m in NEWLINE_RE.finditer(after)] == [m.group() for m in NEWLINE_RE.finditer(before)]
    # a mark that ends a cue: right after the last word, before whatever markup closes the cue
    for c, rest, mark in ends_of_cues:
        text = doc.cues[c].text
        assert text.endswith(mark + rest) or rest == "" and text.endswith(mark)
    if ends_of_cues:
        event("a mark at a cue end")
    # undone in reverse order, the file is the original to the byte
    for edit in reversed(edits):
        doc.revert_marks(edit)
    assert doc.to_bytes() == original


def _one(text: str, fmt: str = "srt") -> tuple:
    if fmt == "srt":
        data = f"1\n00:00:01,000 --> 00:00:02,000\n{text}\n"
    else:
        data = f"WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n{text}\n"
    doc = loads(data.encode("utf-8"), f"x.{fmt}")
    return doc, doc.cues[0]


def _end(cue, word: str) -> int:
    return next(w.end for w in cue.words() if w.text == word)


def _start(cue, word: str) -> int:
    return next(w.start for w in cue.words() if w.text == word)


@pytest.mark.parametrize("text, fmt, expected", [
    ("<i>yes</i>", "srt", "<i>yes.</i>"),
    ("{\\i1}yes{\\i0}", "srt", "{\\i1}yes.{\\i0}"),
    ("<font color=\"#ffff00\">I said yes</font>", "srt", "<font color=\"#ffff00\">I said yes.</font>"),
    ("<v Bob>yes</v>", "vtt", "<v Bob>yes.</v>"),
    ("<v Bob>yes", "vtt", "<v Bob>yes."),
    ("<c.yellow>it is <b>yes</b></c>", "vtt", "<c.yellow>it is <b>yes.</b></c>"),
    ("<00:00:01.000><c> so</c><00:00:01.500><c> yes</c>", "vtt", "<00:00:01.000><c> so</c><00:00:01.500><c> yes.</c>"),
    ("first line\n<i>second yes</i>", "srt", "first line\n<i>second yes.</i>"),
    ("he said \"yes\"", "srt", "he said \"yes.\""),
    ("(laughs)", "srt", "(laughs.)"),
])
def test_a_mark_that_ends_a_cue_goes_inside_closing_markup(text, fmt, expected):
    word = "laughs" if "laughs" in text else "yes"
    doc, cue = _one(text, fmt)
    doc.insert_marks(0, [(_end(cue, word), ".")])
    assert doc.cues[0].text == expected


def test_marks_in_a_youtube_auto_caption_go_inside_each_word_s_span():
    doc = loads(YOUTUBE.read_bytes(), YOUTUBE.name)
    cue = doc.cues[2]
    words = cue.words()
    doc.insert_marks(2, [(words[5].end, ","), (words[-1].end, ".")])
    assert doc.cues[2].text == ("so today we're going to talk,\n"
                                "about<00:00:02.300><c> london</c><00:00:02.600><c> and</c><00:00:02.900><c> paris.</c>")


def test_a_mark_after_a_word_goes_right_after_it_and_line_endings_stay():
    data = b"1\r\n00:00:01,000 --> 00:00:02,000\r\n<i>well</i> yes\r\nno <b>maybe</b> so\r\n\r\n"
    doc = loads(data, "x.srt")
    cue = doc.cues[0]
    doc.insert_marks(0, [(_end(cue, "well"), ","), (_end(cue, "yes"), "."), (_end(cue, "maybe"), "?")])
    assert doc.to_bytes() == b"1\r\n00:00:01,000 --> 00:00:02,000\r\n<i>well,</i> yes.\r\nno <b>maybe?</b> so\r\n\r\n"


def test_spanish_opening_marks_go_before_the_word_inside_opening_markup():
    doc, cue = _one("<i>qu\u00e9 hora es</i> hola amigo")
    doc.insert_marks(0, [(_start(cue, "qu\u00e9"), "\u00bf"), (_end(cue, "es"), "?"),
                         (_start(cue, "hola"), "\u00a1"), (_end(cue, "amigo"), "!")])
    assert doc.cues[0].text == "<i>\u00bfqu\u00e9 hora es?</i> \u00a1hola amigo!"
    # the words moved with their opening marks: the cue's tokens are read again
    assert [w.text for w in doc.cues[0].words()] == ["qu\u00e9", "hora", "es", "hola", "amigo"]


@pytest.mark.parametrize("text, offset_of, mark, why", [
    ("it costs 3.5 now", ("3", "end"), ",", "inside a token"),
    ("the U.S army", ("U", "end"), ".", "inside a token"),
    ("Jean-Luc said", ("Jean", "end"), ",", "inside a token"),
    ("a wo<b>rd</b> here", ("wo", "end"), ".", "inside a token"),
    ("yes. no", ("yes", "end"), ".", "already has a mark"),
    ("yes!\" no", ("yes", "end"), ",", "already has a mark"),
    ("hello there", ("hello", "start"), ".", "not the end"),
    ("hello there", ("hello", "end"), "\u00bf", "not the start"),
    ("\u00bfqu\u00e9 pasa", ("qu\u00e9", "start"), "\u00bf", "already opens"),
    ("hello there", ("hello", "end"), "x", "not a punctuation mark"),
    ("hello there", ("hello", "end"), "", "empty mark"),
])
def test_a_place_that_is_not_a_word_edge_is_refused_and_nothing_changes(text, offset_of, mark, why):
    doc, cue = _one(text)
    word, edge = offset_of
    offset = _end(cue, word) if edge == "end" else _start(cue, word)
    before = doc.to_bytes()
    assert not doc.can_insert_mark(0, offset, mark)
    with pytest.raises(MarkError, match=why):
        doc.insert_marks(0, [(offset, mark)])
    assert doc.to_bytes() == before
    assert issubclass(MarkError, SubtitleError) and issubclass(MarkError, SubcaseError)


def test_can_insert_mark_says_where_a_mark_goes():
    doc, cue = _one("\"yes\". Jean-Luc said qu\u00e9")
    assert doc.can_insert_mark(0, _end(cue, "said"), ",")
    assert doc.can_insert_mark(0, _end(cue, "Luc"), ",")
    assert doc.can_insert_mark(0, _start(cue, "qu\u00e9"), "\u00bf")
    assert not doc.can_insert_mark(0, _end(cue, "yes"), ".")   # the mark after the closing quote is its mark
    assert not doc.can_insert_mark(0, _end(cue, "Jean"), ",")
    assert doc.cues[0].text == "\"yes\". Jean-Luc said qu\u00e9"


def test_an_offset_inside_a_word_is_refused():
    doc, cue = _one("hello there")
    with pytest.raises(MarkError, match="not the end of one"):
        doc.insert_marks(0, [(2, ".")])


def test_one_bad_insert_refuses_them_all():
    doc, cue = _one("so yes 3.5 no")
    with pytest.raises(MarkError):
        doc.insert_marks(0, [(_end(cue, "so"), ","), (_end(cue, "3"), ",")])
    assert doc.cues[0].text == "so yes 3.5 no"
    with pytest.raises(MarkError, match="two marks"):
        doc.insert_marks(0, [(_end(cue, "so"), ","), (_end(cue, "so"), ".")])


def test_set_mark_cycles_replaces_in_place_and_reverts_to_the_byte():
    data = "1\n00:00:01,000 --> 00:00:02,000\n<i>well</i>; yes\u2026 no <b>so</b>\n".encode()
    doc = loads(data, "x.srt")
    cue = doc.cues[0]
    well, yes, so = _end(cue, "well"), _end(cue, "yes"), _end(cue, "so")
    edits = [doc.set_mark(0, well, ",")]           # ";" after closing markup: replaced where it stands
    assert doc.cues[0].text == "<i>well</i>, yes\u2026 no <b>so</b>"
    edits.append(doc.set_mark(0, _end(doc.cues[0], "yes"), "?"))
    assert doc.cues[0].text == "<i>well</i>, yes? no <b>so</b>"
    edits.append(doc.set_mark(0, _end(doc.cues[0], "so"), "!"))
    assert doc.cues[0].text == "<i>well</i>, yes? no <b>so!</b>"
    edits.append(doc.set_mark(0, _end(doc.cues[0], "yes"), ""))
    assert doc.cues[0].text == "<i>well</i>, yes no <b>so!</b>"
    edits.append(doc.set_mark(0, _end(doc.cues[0], "no"), "."))
    assert doc.cues[0].text == "<i>well</i>, yes no. <b>so!</b>"
    unchanged = doc.set_mark(0, _end(doc.cues[0], "no"), ".")
    assert unchanged.changes == ()
    for edit in reversed(edits):
        doc.revert_marks(edit)
    assert doc.to_bytes() == data
    assert (well, yes, so) == (_end(doc.cues[0], "well"), _end(doc.cues[0], "yes"), _end(doc.cues[0], "so"))
    with pytest.raises(MarkError):
        doc.set_mark(0, 2, ".")


def test_revert_refuses_an_edit_that_is_not_the_cue_s_last():
    doc, cue = _one("so yes")
    edit = doc.insert_marks(0, [(_end(cue, "yes"), ".")])
    doc.set_cue_text(0, "so yes")  # the mark is gone by another way
    with pytest.raises(ValueError):
        doc.revert_marks(edit)
    assert doc.cues[0].text == "so yes"


def test_shift_span_moves_words_after_a_mark_and_behind_an_opening_one():
    doc, cue = _one("qu\u00e9 hora es")
    words = cue.words()
    edit = doc.insert_marks(0, [(words[0].start, "\u00bf"), (words[0].end, ","), (words[2].end, "?")])
    moved = [edit.shift_span(w.start, w.end) for w in words]
    assert moved == [(w.start, w.end) for w in doc.cues[0].words()]
