"""The document model: parsed fields, opaque markup, words and edits."""

from __future__ import annotations

import pytest

from subcase.subtitles import Cue, Document, Token, load, loads

from .conftest import FIXTURES, recase_word


@pytest.fixture
def markup_doc() -> Document:
    return load(FIXTURES / "markup.srt")


@pytest.fixture
def vtt_doc() -> Document:
    return load(FIXTURES / "features.vtt")


def test_srt_fields(markup_doc: Document) -> None:
    doc = markup_doc
    assert (doc.format, doc.encoding, doc.bom, doc.newline) == ("srt", "utf-8", False, "\n")
    assert doc.path == FIXTURES / "markup.srt"
    assert [c.index for c in doc.cues] == list(range(6))
    first = doc.cues[0]
    assert isinstance(first, Cue)
    assert (first.identifier, first.start_ms, first.end_ms, first.settings) == ("1", 1000, 3500, "")
    assert first.text == "<i>Nested <b>bold inside</b> italic</i>\nand <u>underlined</u> words"
    assert doc.warnings == []


def test_vtt_fields(vtt_doc: Document) -> None:
    cues = vtt_doc.cues
    assert [c.identifier for c in cues] == ["intro", "2", None, None, "cue-with-entities"]
    assert cues[0].settings == "line:85% align:middle"
    assert cues[1].settings == "region:fred align:left"
    assert cues[2].start_ms == 6500 and cues[2].end_ms == 8000  # no hours in the timestamp
    assert cues[2].settings == "position:10%,line-left size:35%"
    assert cues[0].text == "<v Roger Bingham>We are in New York City"
    assert vtt_doc.warnings == []


def test_tokens_skip_markup_and_point_into_text(markup_doc: Document, vtt_doc: Document) -> None:
    for doc in (markup_doc, vtt_doc):
        for cue in doc.cues:
            for tok in cue.tokens():
                assert isinstance(tok, Token)
                assert cue.text[tok.start:tok.end] == tok.text
    words = [w.text for w in markup_doc.cues[3].words()]
    assert words == ["Yellow", "text", "and", "sized"]  # no "font", "color", "ffff00", "Arial"
    assert [w.text for w in markup_doc.cues[1].words()][:2] == ["Top", "of"]  # {\an8} is not a word
    assert [w.text for w in markup_doc.cues[5].words()] == \
        ["Tom", "Jerry", "3", "New", "York", "City", "Broken", "line"]  # &amp; &lt; &nbsp; \N opaque
    assert [w.text for w in vtt_doc.cues[0].words()] == ["We", "are", "in", "New", "York", "City"]
    assert [w.text for w in vtt_doc.cues[2].words()] == ["Karaoke", "one", "two", "three"]
    assert [w.text for w in vtt_doc.cues[1].words()] == ["It's", "a", "blue", "day"]
    assert "." in [t.text for t in markup_doc.cues[1].tokens() if not t.is_word]


def test_plain_text(markup_doc: Document, vtt_doc: Document) -> None:
    assert markup_doc.plain_text(0) == "Nested bold inside italic\nand underlined words"
    assert markup_doc.plain_text(5) == "Tom & Jerry <3 New York\u00a0City\nBroken line"
    assert vtt_doc.plain_text(4) == "Fish & chips <hot> \u00a0now été\nParis, London, Rome"


def test_recase_changes_case_only(markup_doc: Document) -> None:
    doc = markup_doc
    bold = doc.cues[0].words()[1]
    doc.recase(0, [(bold.start, bold.end, "BOLD")])
    assert doc.cues[0].text == "<i>Nested <b>BOLD inside</b> italic</i>\nand <u>underlined</u> words"
    before = doc.cues[0].text
    for bad in ([(bold.start, bold.end, "bald")],            # other letters
                [(bold.start, bold.end, "bolder")],          # other length
                [(0, 3, "<I>")],                             # markup
                [(before.index("<u>"), before.index("<u>") + 3, "<U>")],  # markup on the second line
                [(before.index("<u>") + 1, before.index("<u>") + 4, "UUN")],  # a span that starts inside it
                [(bold.start, bold.end, "Bold"), (bold.start + 1, bold.end, "OLD")],  # overlapping
                [(len(before) - 2, len(before) + 5, "xxxxxxx")]):  # past the end
        with pytest.raises(ValueError):
            doc.recase(0, bad)
        assert doc.cues[0].text == before  # nothing half-done


def test_recase_applies_many_spans_in_any_order(markup_doc: Document) -> None:
    words = markup_doc.cues[0].words()
    markup_doc.recase(0, [(w.start, w.end, w.text.upper()) for w in reversed(words)])
    assert markup_doc.cues[0].text == "<i>NESTED <b>BOLD INSIDE</b> ITALIC</i>\nAND <u>UNDERLINED</u> WORDS"
    assert [w.text for w in markup_doc.cues[0].words()] == [w.text.upper() for w in words]


def test_recase_then_save_differs_only_there(markup_doc: Document) -> None:
    before = markup_doc.to_bytes()
    recase_word(markup_doc, 1, 5, "dr")  # "Dr" in "says Dr. Watson"
    after = markup_doc.to_bytes()
    assert after == before.replace(b"says Dr. Watson", b"says dr. Watson")


def test_set_cue_text_normalises_line_breaks(markup_doc: Document) -> None:
    markup_doc.set_cue_text(2, "<i>new</i>\r\nlines\rhere")
    assert markup_doc.cues[2].text == "<i>new</i>\nlines\nhere"
    out = loads(markup_doc.to_bytes())
    assert out.cues[2].text == "<i>new</i>\nlines\nhere"
    assert [c.text for c in out.cues[3:]] == [c.text for c in markup_doc.cues[3:]]


def test_timing_edit_rewrites_only_that_head(markup_doc: Document) -> None:
    markup_doc.cues[0].end_ms = 3600
    out = markup_doc.to_bytes().decode()
    assert out.startswith("1\n00:00:01,000 --> 00:00:03,600\n<i>Nested")
    assert out.count("\n") == (FIXTURES / "markup.srt").read_text().count("\n")


def test_copy_is_independent(markup_doc: Document) -> None:
    twin = markup_doc.copy()
    recase_word(twin, 0, 0, "NESTED")
    assert markup_doc.cues[0].text.startswith("<i>Nested")
    assert twin.cues[0].text.startswith("<i>NESTED")
    assert twin.to_bytes() != markup_doc.to_bytes()


def test_cached_tokens_match_a_fresh_tokenisation_after_edits(vtt_doc: Document) -> None:
    for cue in vtt_doc.cues:
        for i, word in enumerate(cue.words()):
            recase_word(vtt_doc, cue.index, i, word.text.swapcase())
        fresh = loads(vtt_doc.to_bytes(), "x.vtt").cues[cue.index]
        assert cue.tokens() == fresh.tokens()
        assert [t.text for t in cue.words()] == [cue.text[t.start:t.end] for t in cue.words()]
