"""A long rolling caption is held once per spoken word where it can be (issue #56 item 5): what the casing
keeps of the repeated lines is shared, not copied.  Structural checks with the real model; the memory it
saves is measured by ``python bench/long_file_memory.py`` and ``subcase bench --long-file``, never here."""

from __future__ import annotations

import platform
import weakref
from pathlib import Path

import numpy as np
import pytest

from subcase.casing import case_file
from subcase.casing.copies import WordCopies
from subcase.casing.heap import return_large_buffers
from subcase.casing.rolling import find_rolled
from subcase.evaluation.long_files import WORDS_PER_LINE, rolling_vtt
from subcase.subtitles import load

WORDS = ("so we went down to the station and nobody was there what did the doctor say i told him about new york "
         "when we got back the house was empty and the lights were off").split()
N_WORDS = 120  # 15 lines of 8 words: each shown as the new line, in its snapshot cue and above the next line


@pytest.fixture(scope="module")
def rolling(engine, tmp_path_factory):
    src = tmp_path_factory.mktemp("long") / "rolling.vtt"
    src.write_text(rolling_vtt(WORDS, N_WORDS), encoding="utf-8")
    return case_file(engine, src, punctuate="auto")


def test_each_repeat_shares_its_first_appearance(rolling):
    casing = rolling.casing
    lines = N_WORDS // WORDS_PER_LINE
    # every line but the last is shown twice more (its snapshot, then above the next line); the last once more
    assert isinstance(casing.copies, WordCopies)
    assert len(casing.copies) == (2 * (lines - 1) + 1) * WORDS_PER_LINE
    at = {(w.cue_index, w.word_index): w for w in casing.words}
    for copy, first in casing.copies.items():
        w, w0 = at[copy], at[first]
        assert copy[0] > first[0] and w.input == w0.input
        # the same objects, not equal copies: the form, the model's form and the probabilities are held once
        assert w.output is w0.output and w.model_form is w0.model_form and w.probs is w0.probs
        assert w.input is w0.input  # the token texts of a file are one string per word


def test_marks_are_written_without_keeping_each_cue_s_places(rolling):
    assert rolling.casing.marks, "the model restores marks in this unpunctuated text"
    assert {m.cue_index for m in rolling.casing.marks} > {0}
    # the places read to check the marks are of the text before them: none is kept once the marks are in
    assert all(cue._places is None for cue in rolling.doc.cues)


def test_rolled_pairs_share_their_index_tuples(tmp_path):
    src = tmp_path / "rolling.vtt"
    src.write_text(rolling_vtt(WORDS, N_WORDS), encoding="utf-8")
    doc = load(src)
    tokens = [cue.tokens() for cue in doc.cues]
    rolled = [r for r in find_rolled([cue.text for cue in doc.cues], tokens) if r is not None]
    assert len(rolled) == 2 * (N_WORDS // WORDS_PER_LINE) - 1
    pairs = [p for r in rolled for p in r.pairs]
    assert len({id(p) for p in pairs}) == len(set(pairs)) < len(pairs)


def test_word_copies_is_the_mapping_a_dict_of_the_pairs_would_be():
    pairs = [((3, 1), (1, 1)), ((2, 0), (1, 0)), ((3, 0), (1, 0)), ((70_000, 5), (69_998, 5)), ((2, 0), (0, 7))]
    copies, expected = WordCopies(pairs), dict(pairs)
    assert dict(copies.items()) == expected and len(copies) == len(expected) == 4
    assert sorted(copies) == sorted(expected) and copies[2, 0] == (0, 7)  # a repeat named twice: the last
    assert (3, 1) in copies and (1, 1) not in copies and copies.get((9, 9)) is None
    with pytest.raises(KeyError):
        copies[0, 7]
    assert not WordCopies() and dict(WordCopies().items()) == {}


def test_large_buffers_are_given_back_on_glibc():
    glibc = platform.system() == "Linux" and platform.libc_ver()[0] == "glibc"
    assert return_large_buffers() is glibc
    assert return_large_buffers() is glibc  # once per process; asking again changes nothing


def test_a_three_hour_rolling_stream_is_under_the_default_size_limit():
    from subcase.subtitles.files import MAX_SIZE_MB
    # 150,000 words in YouTube's rolling layout (7.5 MB): converted without --max-size, now that its memory
    # is bounded (the bench's long-file rows measure it)
    size = len(rolling_vtt(WORDS, 150_000).encode("utf-8"))
    assert 5e6 < size <= MAX_SIZE_MB * 1e6


def test_a_converted_file_is_saved_without_its_casing(engine, tmp_path, monkeypatch):
    """The save renders the text and reads it back with the format's parser (webvtt-py: 37,500 captions for a
    three-hour stream): the per-word results are let go before it, not held beside it."""
    from subcase.batch import ConvertOptions, convert, plan_outputs

    src = tmp_path / "rolling.vtt"
    src.write_text(rolling_vtt(WORDS, N_WORDS), encoding="utf-8")
    plan = plan_outputs([src], tmp_path / "out", None)
    casings: list[weakref.ref] = []
    alive_at_save: list[bool] = []
    real_save = convert.save

    def adapt(doc, casing):  # where a profile would re-case the document: the casing is seen here last
        casings.append(weakref.ref(casing))
        return 0

    def save(doc, *args, **kwargs):  # the real save, noting first whether the casing is still held
        alive_at_save.append(casings[0]() is not None)
        return real_save(doc, *args, **kwargs)

    monkeypatch.setattr(convert, "save", save)
    result = convert.convert_file(engine, plan.entries[0], ConvertOptions(punctuate="auto"), adapt=adapt)
    assert result.ok and result.words > N_WORDS and "WEBVTT" in Path(result.dst).read_text(encoding="utf-8")
    assert alive_at_save == [False]


@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="reads the resident memory from /proc (Linux)")
def test_the_arena_a_pass_leaves_is_given_back_and_changes_no_output(engine):
    """onnxruntime's arena keeps the worst moment of a pass's batches for the life of the session (150 MB after
    a three-hour stream's); shrunk once after the pass, it is returned, and the next pass reads the same."""
    from subcase.casing.engine import StreamToken

    stream = [StreamToken(w, True) for w in WORDS * 120]  # 3,600 words: a few batches of windows
    first = engine.word_outputs(stream, ("probs",))[0]
    before = _rss_kb()
    engine.session.shrink_arena()
    assert before - _rss_kb() > 10_000  # 43 MB when measured
    assert np.array_equal(engine.word_outputs(stream, ("probs",))[0], first)


def _rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")
