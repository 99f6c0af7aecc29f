"""A long rolling caption is held once per spoken word where it can be (issue #56 item 5): what the casing
keeps of the repeated lines is shared, not copied.  Structural checks with the real model; the memory it
saves is measured by ``python bench/long_file_memory.py`` and ``subcase bench --long-file``, never here."""

from __future__ import annotations

import platform

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
