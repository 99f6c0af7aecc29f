"""Restored marks through crash recovery, hand edits and a change of mode.

A snapshot remembers the punctuation restoring the file was opened with, so the origin is cased again with
it (the marks, and every offset after them, as they were), and each word's mark review (proposed, the
head's probabilities, the mark now, the editor's decision) comes back as it was.  A cue's text typed by hand
is read again for the mark after each word.  A change of mode keeps the marks and what the editor made of
them, and one undo puts everything back.

The rules run on a scripted casing (test_mark_review's), so no assertion rests on a near-tie of the model;
the last tests open a real dev file with its punctuation stripped through ``open_review`` with the model.
"""

from __future__ import annotations

import json

import pytest

from subcase.casing import Tag, apply_casing
from subcase.digest import file_sha256
from subcase.review import Accept, AcceptCue, EditText, ReviewSession, ReviewState, SetMark, SetTag, Status, autosave
from subcase.review.opening import OpenOptions, open_review, reopen_options, resume_review
from subcase.review.state import MarkReview
from subcase.subtitles import load

from .conftest import form
from .test_mark_review import COMMA, FULL_STOP, QUESTION, SRT, scripted


def review_words(state) -> list:
    return [[(w.word_index, w.start, w.end, w.input, w.proposed, w.form, w.model_tag, w.probs, w.status, w.raised,
              w.mark) for w in words] for words in state.cues]


@pytest.fixture
def asr(tmp_path):
    path = tmp_path / "asr.srt"
    path.write_bytes(SRT)
    return path


def _session(path, punctuate="auto"):
    doc, state = scripted(path)
    session = ReviewSession(doc, state, path, model_version="test", model_sha256="0" * 64)
    session.set_origin(autosave.Origin(path, file_sha256(path), autosave.fingerprint(state), session.mode), punctuate)
    return session


def test_a_snapshot_keeps_the_punctuation_choice_and_every_marks_review(asr, data_dir):
    session = _session(asr)
    session.perform(Accept((0, 2)))                    # "John." accepted: its cue's text is unchanged
    session.perform(SetMark((1, 1), ".", form))        # "London," -> "London." and "they" -> "They"
    session.perform(SetMark((1, 3), "", form))         # "said?" -> "said": "OK" in the next cue stays (a U)
    doc, state = session.doc, session.state
    assert [c.text for c in doc.cues] == ["We met John.", "In London. They said", "OK fine"]
    data = json.loads(autosave.encode(session.snapshot()))  # as written to disk and read back
    assert data["schema"] == autosave.SNAPSHOT_SCHEMA == 3 and data["punctuate"] == "auto"
    assert autosave.needs_casing(data) and [e["cue"] for e in data["cues"]] == [0, 1]
    # the accepted mark of an unedited cue is in the cue's review entries, with the word
    [entry] = [e for e in data["cues"] if e["cue"] == 0]
    assert "words" not in entry and entry["review"] == [[2, "John", "accepted", None,
                                                         [".", list(FULL_STOP.probs), ".", "accepted"]]]
    doc2, state2 = autosave.restore(data, scripted(asr))
    assert doc2.to_bytes() == doc.to_bytes()
    assert review_words(state2) == review_words(state)
    assert state2.word((0, 2)).mark == MarkReview(".", FULL_STOP.probs, ".", Status.ACCEPTED)
    assert state2.word((1, 1)).mark == MarkReview(",", COMMA.probs, ".", Status.CHANGED)
    assert state2.word((1, 3)).mark == MarkReview("?", QUESTION.probs, "", Status.CHANGED)
    assert state2.counts() == state.counts()
    # the resumed session snapshots with the same choice, and its snapshot restores the same again
    resumed = resume_review(doc2, state2, data, None)
    assert resumed.punctuate == "auto"
    again = json.loads(autosave.encode(resumed.snapshot()))
    assert again["punctuate"] == "auto"
    doc3, state3 = autosave.restore(again, scripted(asr))
    assert doc3.to_bytes() == doc.to_bytes() and review_words(state3) == review_words(state)


def test_a_complete_snapshot_keeps_the_marks_too(asr, data_dir):
    """Without an origin to case again (a file cased elsewhere, or saved in another format) every cue is held
    in full: each word's mark review is in its item."""
    doc, state = scripted(asr)
    session = ReviewSession(doc, state, asr, model_version="test", model_sha256="0" * 64)
    session.punctuate = "always"
    session.perform(Accept((0, 2)))
    session.perform(SetMark((1, 1), "!", form))
    data = json.loads(autosave.encode(session.snapshot()))
    assert data["complete"] and data["punctuate"] == "always"
    doc2, state2 = autosave.restore(data)
    assert doc2.to_bytes() == doc.to_bytes() and review_words(state2) == review_words(state)
    assert state2.punctuate == "always"


def test_a_full_stop_taken_out_at_a_cue_end_keeps_the_next_cues_lowered_word(asr, data_dir):
    """The word SetMark re-cases may be in the next cue: that cue changed too, and a snapshot keeps it."""
    session = _session(asr)
    action = SetMark((0, 2), "", form)
    session.perform(action)
    assert [c.text for c in session.doc.cues][:2] == ["We met John", "in London, they said?"]
    assert action.cues == (0, 1) and {0, 1} <= session.changed_cues
    data = session.snapshot()
    doc2, state2 = autosave.restore(data, scripted(asr))
    assert doc2.to_bytes() == session.doc.to_bytes()
    assert review_words(state2) == review_words(session.state)


def test_a_restore_without_the_punctuation_choice_is_refused_not_half_applied(asr, data_dir):
    """Cased again without its marks, the origin is another casing: refused with a clear error."""
    session = _session(asr)
    session.perform(Accept((0, 2)))
    data = session.snapshot()
    path_doc = load(asr)
    from .conftest import make_casing
    unmarked = make_casing(path_doc)
    apply_casing(path_doc, unmarked)
    with pytest.raises(autosave.RestoreError, match="no longer cases as it did"):
        autosave.restore(data, (path_doc, ReviewState.from_casing(len(path_doc.cues), unmarked)))
    # a snapshot naming no known choice is refused before any casing
    with pytest.raises(autosave.RestoreError, match="unknown way of restoring punctuation: 'sometimes'"):
        reopen_options(data | {"punctuate": "sometimes"})


def test_a_schema_2_snapshot_still_restores(srt_file, data_dir):
    """Written before the marks were kept (no ``punctuate``, words of 10 items): a file opened without
    restoring punctuation, cased again without it."""
    from .conftest import cased_copy

    def fresh():
        return cased_copy(srt_file)

    doc, state = fresh()
    session = ReviewSession(doc, state, srt_file, model_version="test", model_sha256="0" * 64)
    session.set_origin(autosave.Origin(srt_file, file_sha256(srt_file), autosave.fingerprint(state), session.mode))
    session.perform(SetTag((1, 1), Tag.T, form))
    session.perform(EditText(2, "OK, 42 times!"))
    data = json.loads(autosave.encode(session.snapshot()))
    assert data["punctuate"] == "never"
    old = {k: v for k, v in data.items() if k != "punctuate"} | {"schema": 2}
    assert all(len(item) == 10 for e in old["cues"] for item in e.get("words", ()))
    assert all(len(item) == 4 for e in old["cues"] for item in e.get("review", ()))
    assert autosave.needs_casing(old) and autosave.punctuate_of(old) == "never"
    assert reopen_options(old).punctuate == "never"
    doc2, state2 = autosave.restore(old, fresh())
    assert doc2.to_bytes() == doc.to_bytes() and review_words(state2) == review_words(state)
    assert resume_review(doc2, state2, old, None).punctuate == "never"


# -- a hand edit of the cue text ----------------------------------------------------------------------

def test_a_hand_edit_reads_each_marks_now_from_the_new_text(asr):
    doc, state = scripted(asr)
    start = (doc.to_bytes(), review_words(state))
    assert doc.cues[1].text == "In London, they said?"
    # the editor retypes the cue: the comma becomes a full stop, the question mark stays, a word is added
    edit = EditText(1, "In London. They really said?")
    edit.do(doc, state)
    london, said = state.word((1, 1)), state.word((1, 4))
    assert (london.form, said.form) == ("London", "said")
    # a restored mark the editor typed over is their decision; one they left as it was is not
    assert london.mark == MarkReview(",", COMMA.probs, ".", Status.CHANGED)
    assert said.mark == MarkReview("?", QUESTION.probs, "?", Status.UNTOUCHED)
    assert state.word((1, 3)).mark is None  # a typed word has no restored mark
    for pos in state.positions():
        if state.word(pos).mark is not None:
            assert state.word(pos).mark.now == SetMark.mark_at(doc, state, pos)
    edit.undo(doc, state)
    assert (doc.to_bytes(), review_words(state)) == start
    # typing the restored mark back is accepting it; taking it out, a change to none
    EditText(0, "We met John").do(doc, state)
    assert state.word((0, 2)).mark == MarkReview(".", FULL_STOP.probs, "", Status.CHANGED)
    EditText(0, "We met John.").do(doc, state)
    assert state.word((0, 2)).mark == MarkReview(".", FULL_STOP.probs, ".", Status.ACCEPTED)


def test_a_mark_typed_over_is_one_undo_step_with_the_edit_and_its_own_record(asr, data_dir):
    from subcase.review import EditLog, log_path_for, read_records

    doc, state = scripted(asr)
    session = ReviewSession(doc, state, asr, model_version="test", model_sha256="0" * 64,
                            log=EditLog(log_path_for(asr)))
    start = (doc.to_bytes(), review_words(state))
    edit = EditText(1, "In London. They said")
    session.perform(edit)
    session.revert(edit)
    assert (doc.to_bytes(), review_words(state)) == start
    session.close()
    records = read_records(log_path_for(asr))
    assert [(r["action"], r.get("word"), r.get("before"), r.get("final")) for r in records] == [
        ("edited_text", None, "In London, they said?", "In London. They said"),
        ("changed_mark", "London", ",", "."), ("changed_mark", "said", "?", ""), ("undo", None, None, None)]
    assert records[1]["mark_proposed"] == "," and records[2]["mark_proposed"] == "?"
    assert records[3]["undoes"] == [r["seq"] for r in records[:3]]


def test_a_hand_edit_keeps_a_decided_mark_as_decided(asr):
    doc, state = scripted(asr)
    Accept((0, 2)).do(doc, state)
    EditText(0, "We met John. ").do(doc, state)  # an edit that leaves the mark alone
    assert state.word((0, 2)).mark == MarkReview(".", FULL_STOP.probs, ".", Status.ACCEPTED)
    AcceptCue(1, state.threshold).do(doc, state)
    assert state.word((1, 1)).mark.status is Status.ACCEPTED


# -- the shipped model on a real file -------------------------------------------------------------------

@pytest.mark.model
def test_a_review_with_restored_marks_survives_a_crash(engine, stripped_dev, data_dir):
    path = stripped_dev("meyer1994__srt__sintel_en.srt")
    session = open_review(path, engine, OpenOptions(mode="restore", learning=False, punctuate="auto"))
    doc, state = session.doc, session.state
    marked = [p for p in state.positions() if state.word(p).mark is not None]
    assert len(marked) >= 4, "the stripped file is opened with marks restored"
    # a mark accepted, one changed to each other mark, one taken out, and one word's casing changed
    session.perform(Accept(marked[0]))
    others = [m for m in (",", ".", "?", "!") if m != state.word(marked[1]).mark.now]
    session.perform(SetMark(marked[1], others[0], engine.form))
    session.perform(SetMark(marked[2], "", engine.form))
    session.perform(SetMark(marked[3], state.word(marked[3]).mark.now, engine.form))  # set as it is: accepted
    session.perform(SetTag(marked[-1], Tag.U, engine.form))
    data = json.loads(autosave.encode(session.snapshot()))
    assert data["punctuate"] == "auto" and autosave.needs_casing(data)
    fresh = open_review(path, engine, reopen_options(data))
    doc2, state2 = autosave.restore(data, (fresh.doc, fresh.state))
    assert doc2.to_bytes() == doc.to_bytes()
    assert review_words(state2) == review_words(state)
    assert [state2.word(p).mark.status for p in marked[:4]] == [Status.ACCEPTED, Status.CHANGED, Status.CHANGED,
                                                                 Status.ACCEPTED]
    # opened again without restoring marks, the origin is refused rather than restored without them
    plain = open_review(path, engine, OpenOptions(mode="restore", learning=False, punctuate="never"))
    with pytest.raises(autosave.RestoreError):
        autosave.restore(data, (plain.doc, plain.state))
    session.close()


# -- a change of mode ---------------------------------------------------------------------------------------

def _proposals(state) -> list:
    return [[(w.word_index, w.start, w.end, w.proposed, w.model_tag, w.probs) for w in words] for words in state.cues]


@pytest.mark.model
def test_a_change_of_mode_cases_the_text_as_opened_and_keeps_every_marks_review(engine, stripped_dev):
    from subcase.casing.marks import SENTENCE_ENDS
    from subcase.review.actions import positional_capital
    from subcase.review.remode import ChangeMode, recase_in_mode

    path = stripped_dev("ableplayer__ableplayer__media__blocks4all_captions_en.vtt")
    session = open_review(path, engine, OpenOptions(mode="restore", learning=False, punctuate="auto"))
    doc, state = session.doc, session.state
    assert state.punctuate == "auto"
    opened = (doc.to_bytes(), review_words(state))
    # cased again in the mode it was opened in, the file gives what it opened with: the head's marks are read
    # from the text without them, as on opening, not as punctuation someone wrote
    assert _proposals(recase_in_mode(engine, doc, state, "restore")) == _proposals(state)

    # the editor decides on marks: one accepted, a restored full stop taken out (its capital goes), a comma
    # made a full stop (the next word gets a capital)
    def next_word(pos):
        return state.word(state.step(state.pieces.get(pos, (pos,))[-1], 1))

    marked = [p for p in state.positions() if state.word(p).mark is not None and p not in state.pieces]
    stop = next(p for p in marked if state.word(p).mark.now == "." and next_word(p).status is Status.UNTOUCHED
                and positional_capital(next_word(p), next_word(p).input, next_word(p).form, state.word(p).mark))
    comma = next(p for p in marked if state.word(p).mark.now == "," and next_word(p).form.islower()
                 and next_word(p).status is Status.UNTOUCHED and next_word(p) is not next_word(stop))
    kept = next(p for p in marked if p not in (stop, comma))
    session.perform(Accept(kept))
    session.perform(SetMark(stop, "", engine.form))
    session.perform(SetMark(comma, ".", engine.form))
    lowered, raised = next_word(stop), next_word(comma)
    assert lowered.form.islower() and raised.form[0].isupper()
    decided = (doc.to_bytes(), review_words(state))
    changes = []
    for mode in ("caps", "keep", "restore"):
        change = ChangeMode(mode, session.mode, recase_in_mode(engine, doc, state, mode))
        session.perform(change)
        changes.append(change)
        # the marks in the text and each word's mark review stay as the editor left them
        assert [[w.mark for w in words] for words in state.cues] == [[w[-1] for w in words] for words in decided[1]]
        for pos in state.positions():
            if state.word(pos).mark is not None:
                assert state.word(pos).mark.now == SetMark.mark_at(doc, state, pos)
    # back in the mode it opened in, the review is as the editor left it: the capital taken with the full stop
    # and the one the new full stop gave are kept
    assert (doc.to_bytes(), review_words(state)) == decided
    assert next_word(stop).form.islower() and next_word(comma).form[0].isupper()
    assert state.word(stop).mark.now == "" and state.word(comma).mark.now == "."
    assert (state.word(stop).mark.proposed in SENTENCE_ENDS, state.word(comma).mark.proposed) == (True, ",")
    for change in reversed(changes):
        session.revert(change)
    assert (doc.to_bytes(), review_words(state)) == decided
    session.close()
    assert opened[0] != decided[0]
