"""Setting the punctuation mark after a word: only the mark changes, the words after it move with the
text, nothing is re-cased, and one undo puts the bytes and the review words back."""

from __future__ import annotations

import pytest

from subcase.review import ReviewSession, SetMark, SetTag
from subcase.review.state import Status
from subcase.subtitles import MarkError, load
from subcase.subtitles.words import tokenize

from .conftest import form


def _offsets(state, c):
    return [(w.start, w.end, w.form) for w in state.cues[c]]


def test_cycling_a_mark_moves_the_words_after_it_and_recases_nothing(cased):
    doc, state = cased
    before_bytes, before_words = doc.to_bytes(), _offsets(state, 0)
    assert doc.cues[0].text == "We met John in London."
    done, before = [], ""
    for mark in [",", ".", "?", "!", ""]:
        action = SetMark((0, 2), mark)  # after "John"
        # a decision for the edit log, on the mark alone (no mark was restored here)
        assert [(d.action, d.before, d.final, d.word.mark) for d in action.do(doc, state)] == [
            ("changed_mark", before, mark, None)]
        before = mark
        done.append(action)
        assert doc.cues[0].text == f"We met John{mark} in London."
        # the words after the mark are where the cue's text has them, with their letters unchanged
        tokens = [t for t in tokenize(doc.cues[0].text) if t.is_word]
        assert [(t.start, t.end, t.text) for t in tokens] == _offsets(state, 0)
        assert [w.status for w in state.cues[0]] == [Status.UNTOUCHED] * 5
    for action in reversed(done):
        action.undo(doc, state)
    assert doc.to_bytes() == before_bytes and _offsets(state, 0) == before_words


def test_a_mark_at_a_cue_end_goes_inside_the_closing_markup_and_a_tag_still_writes_the_word(cased):
    doc, state = cased
    mark = SetMark((1, 2), "?")  # "called" in "<i>The FBI called</i>"
    mark.do(doc, state)
    assert doc.cues[1].text == "<i>The FBI called?</i>"
    tag = SetTag((1, 2), "U", form)
    tag.do(doc, state)
    assert doc.cues[1].text == "<i>The FBI CALLED?</i>"
    tag.undo(doc, state)
    mark.undo(doc, state)
    assert doc.cues[1].text == "<i>The FBI called</i>"


def test_the_existing_full_stop_is_replaced_in_place(cased):
    doc, state = cased
    SetMark((0, 4), "!").do(doc, state)
    assert doc.cues[0].text == "We met John in London!"


def test_a_word_inside_a_token_takes_no_mark(tmp_path):
    from subcase.review import ReviewState
    from .conftest import make_casing
    p = tmp_path / "x.srt"
    p.write_bytes(b"1\n00:00:01,000 --> 00:00:02,000\nit costs 3.5 now\n")
    doc = load(p)
    state = ReviewState.from_casing(len(doc.cues), make_casing(doc))
    assert [w.form for w in state.cues[0]] == ["it", "costs", "now"]  # digits are no review words
    assert SetMark.applies(doc, state, (0, 1)) and SetMark.applies(doc, state, (0, 2))
    doc2 = load(p)
    assert not doc2.can_set_mark(0, doc2.cues[0].words()[2].end)  # "3" of "3.5"
    with pytest.raises(MarkError):
        doc2.set_mark(0, doc2.cues[0].words()[2].end, ".")
    with pytest.raises(ValueError):
        SetMark((0, 0), ";")


def test_one_undo_step_in_a_session(cased, srt_file):
    doc, state = cased
    session = ReviewSession(doc, state, srt_file, model_version="test", model_sha256="0" * 64)
    start = doc.to_bytes()
    action = SetMark((2, 1), ",")  # "OK 42 times": review word 1 is "times" (a number is no review word)
    session.perform(action)
    assert doc.cues[2].text == "OK 42 times," and 2 in session.rewritten_cues
    session.revert(action)
    assert doc.to_bytes() == start
    session.perform(action)  # redo
    assert doc.cues[2].text == "OK 42 times,"
    assert doc.to_bytes() == start.replace(b"OK 42 times", b"OK 42 times,")  # CRLF endings and all


def test_a_mark_survives_a_crash_recovery_of_the_changed_cues_only(srt_file, data_dir):
    """The snapshot holds only what changed, over the origin cased again: a cue whose mark changed is
    held in full (its text and its words' new offsets), or the mark would be lost on recovery."""
    from subcase.digest import file_sha256
    from subcase.review.autosave import Origin, fingerprint, needs_casing, restore

    from .conftest import cased_copy

    def fresh():
        return cased_copy(srt_file)

    doc, state = fresh()
    session = ReviewSession(doc, state, srt_file, model_version="test", model_sha256="0" * 64)
    session.set_origin(Origin(srt_file, file_sha256(srt_file), fingerprint(state), session.mode))
    session.perform(SetMark((0, 2), ","))
    session.perform(SetTag((0, 3), "U", form))  # a word after the mark, recased at its moved offsets
    data = session.snapshot()
    assert needs_casing(data)
    doc2, state2 = restore(data, fresh())
    assert doc2.to_bytes() == doc.to_bytes()
    assert doc2.cues[0].text == "We met John, IN London."
    assert _offsets(state2, 0) == _offsets(state, 0)
