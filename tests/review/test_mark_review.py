"""Restored punctuation under review: the marks the head restored are on their words, flagged by the head's
confidence in the same order as the casing flags, accepted with the word, changed with ``SetMark`` (which
re-cases the next word when a sentence end comes or goes), each one undo step, and recorded in the edit log.

The rules run on a scripted casing (what the engine returns, marks included), so no assertion rests on a
near-tie of the model; the last tests open real dev files cased by the shipped model with their
punctuation restored.
"""

from __future__ import annotations

import pytest

from subcase.casing import DocumentCasing, Tag, WordCasing, apply_casing
from subcase.casing.pipeline import write_marks
from subcase.casing.punctuation import MarkPrediction
from subcase.casing.restoring import InsertedMark
from subcase.review import (Accept, AcceptCue, EditLog, ReviewSession, ReviewState, SetMark, SetTag, Status,
                            log_path_for, read_records)
from subcase.review.editlog import EDITLOG_SCHEMA
from subcase.review.state import MARK_THRESHOLD, MarkReview
from subcase.subtitles import load

from .conftest import form

SRT = (b"1\n00:00:01,000 --> 00:00:02,000\nwe met john\n\n"
       b"2\n00:00:03,000 --> 00:00:04,000\nin london they said\n\n"
       b"3\n00:00:05,000 --> 00:00:06,000\nok fine\n")

# word -> (tag, probs); every other word L and sure
PRED = {"we": (Tag.T, (0.30, 0.65, 0.03, 0.02)), "john": (Tag.T, (0.02, 0.97, 0.005, 0.005)),
        # a word the model read as lower case, after the restored full stop: T with the head's P(end)
        "in": (Tag.T, (0.10, 0.90, 0.0, 0.0)),
        "london": (Tag.T, (0.20, 0.75, 0.03, 0.02)), "ok": (Tag.U, (0.30, 0.20, 0.45, 0.05))}
# word -> the mark restored after it (MARKS order: none, comma, full stop, question, exclamation)
FULL_STOP = MarkPrediction(".", (0.05, 0.05, 0.85, 0.03, 0.02))   # P(sentence end) 0.90, flagged
COMMA = MarkPrediction(",", (0.30, 0.60, 0.05, 0.03, 0.02))       # flagged
QUESTION = MarkPrediction("?", (0.01, 0.01, 0.01, 0.97, 0.0))     # sure: not flagged
MARKS_AFTER = {"john": FULL_STOP, "london": COMMA, "said": QUESTION}


def scripted(path):
    """The file as the editor opens it with its punctuation restored (marks written, then the casing), cased by
    the script above instead of the model."""
    doc = load(path)
    words, marks = [], []
    for c, cue in enumerate(doc.cues):
        for k, tok in enumerate(cue.words()):
            tag, probs = PRED.get(tok.text, (Tag.L, (0.99, 0.005, 0.003, 0.002)))
            out = form(tok.text, tag)
            words.append(WordCasing(c, k, tok.start, tok.end, tok.text, out, out, tag, probs))
            if tok.text in MARKS_AFTER:
                marks.append(InsertedMark(c, k, tok.end, MARKS_AFTER[tok.text]))
    casing = write_marks(doc, DocumentCasing(words, "restore", 0.9, marks=marks))
    apply_casing(doc, casing)
    return doc, ReviewState.from_casing(len(doc.cues), casing)


@pytest.fixture
def punctuated(tmp_path):
    path = tmp_path / "asr.srt"
    path.write_bytes(SRT)
    return (path, *scripted(path))


def texts(doc) -> list[str]:
    return [cue.text for cue in doc.cues]


def review_words(state) -> list:
    return [[(w.start, w.end, w.form, w.status, w.mark) for w in words] for words in state.cues]


def test_restored_marks_are_on_their_words_and_flagged_in_the_review_order(punctuated):
    _, doc, state = punctuated
    assert texts(doc) == ["We met John.", "In London, they said?", "OK fine"]
    marked = {pos: state.word(pos).mark for pos in state.positions() if state.word(pos).mark is not None}
    assert marked == {(0, 2): MarkReview(".", FULL_STOP.probs, "."), (1, 1): MarkReview(",", COMMA.probs, ","),
                      (1, 3): MarkReview("?", QUESTION.probs, "?")}
    assert MARK_THRESHOLD == state.mark_threshold
    # "John" is sure of its casing but not of the full stop after it; "said" is sure of both
    assert not state.word((0, 2)).needs_review(state.threshold) and state.needs_review((0, 2))
    assert not state.needs_review((1, 3))
    order, pos = [], state.next_to_review(None, wrap=False)
    while pos is not None:
        order.append(pos)
        pos = state.next_to_review(pos, wrap=False)
    assert order == [(0, 0), (0, 2), (1, 1), (2, 0)]
    assert state.counts()["to_review"] == 4 and state.counts()["flagged"] == 4


def test_the_flag_reason_names_the_doubtful_mark(punctuated):
    from subcase.review import flag_reasons
    _, _, state = punctuated
    assert [(r.code, r.text) for r in flag_reasons(state, (0, 2))] == [
        ("mark_confidence", "restored full stop: confidence 0.85 (mark threshold 0.90)")]
    assert [r.code for r in flag_reasons(state, (1, 1))] == ["low_confidence", "mark_confidence"]
    assert flag_reasons(state, (1, 3)) == []  # a sure question mark after a sure word


def test_the_mark_has_a_look_of_its_own(punctuated):
    from subcase.review import Look, mark_look_of
    _, doc, state = punctuated
    t = state.mark_threshold
    assert [mark_look_of(state.word(p), t) for p in [(0, 0), (0, 2), (1, 3)]] == [None, Look.REVIEW, Look.PLAIN]
    Accept((0, 2)).do(doc, state)
    SetMark((1, 1), "?", form).do(doc, state)
    assert [mark_look_of(state.word(p), t) for p in [(0, 2), (1, 1)]] == [Look.ACCEPTED, Look.CHANGED]


def test_accepting_a_word_accepts_its_mark_and_undo_takes_both_back(punctuated):
    _, doc, state = punctuated
    before = review_words(state)
    accept = Accept((0, 2))
    decisions = accept.do(doc, state)
    assert [(d.action, d.before, d.final) for d in decisions] == [("accepted", "John", "John"),
                                                                   ("accepted_mark", ".", ".")]
    assert state.word((0, 2)).mark.status is Status.ACCEPTED
    assert state.next_to_review((0, 0), wrap=False) == (1, 1)
    accept.undo(doc, state)
    assert review_words(state) == before


def test_accepting_a_cue_accepts_the_marks_still_to_review(punctuated):
    _, doc, state = punctuated
    before = review_words(state)
    action = AcceptCue(1, state.threshold)
    assert [d.action for d in action.do(doc, state)] == ["accepted", "accepted_mark"]  # "London" and its comma
    assert state.word((1, 1)).status is Status.ACCEPTED and state.word((1, 1)).mark.status is Status.ACCEPTED
    assert state.word((1, 3)).mark.status is Status.UNTOUCHED  # sure of its question mark: not to review
    action.undo(doc, state)
    assert review_words(state) == before


def test_a_new_sentence_end_capitalises_the_next_word_and_setting_back_the_mark_accepts_it(punctuated):
    _, doc, state = punctuated
    start = (doc.to_bytes(), review_words(state))
    to_stop = SetMark((1, 1), ".", form)  # "London," -> "London."
    decisions = to_stop.do(doc, state)
    assert texts(doc)[1] == "In London. They said?"
    assert state.word((1, 1)).mark == MarkReview(",", COMMA.probs, ".", Status.CHANGED)
    assert [(d.action, d.before, d.final) for d in decisions] == [("changed_mark", ",", "."),
                                                                   ("recased", "they", "They")]
    assert state.word((1, 2)).status is Status.UNTOUCHED  # the app's change, not a decision on the word
    back = SetMark((1, 1), ",", form)
    back.do(doc, state)
    # the model read "they" as lower case: its capital was the position's, and goes with the full stop
    assert texts(doc)[1] == "In London, they said?"
    assert state.word((1, 1)).mark == MarkReview(",", COMMA.probs, ",", Status.ACCEPTED)
    back.undo(doc, state)
    to_stop.undo(doc, state)
    assert (doc.to_bytes(), review_words(state)) == start


def test_removing_a_restored_full_stop_lowers_the_capital_it_made_in_the_next_cue(punctuated):
    _, doc, state = punctuated
    start = (doc.to_bytes(), review_words(state))
    action = SetMark((0, 2), "", form)
    action.do(doc, state)
    assert texts(doc)[:2] == ["We met John", "in London, they said?"]
    assert state.word((0, 2)).mark.status is Status.CHANGED
    action.undo(doc, state)
    assert (doc.to_bytes(), review_words(state)) == start
    # a comma is no sentence end either
    SetMark((0, 2), ",", form).do(doc, state)
    assert texts(doc)[:2] == ["We met John,", "in London, they said?"]


def test_a_capital_the_model_gave_or_a_human_chose_stays(punctuated):
    _, doc, state = punctuated
    add = SetMark((0, 1), ".", form)  # "met." before "John": already a capital
    assert [d.action for d in add.do(doc, state)] == ["changed_mark"]
    remove = SetMark((0, 1), "", form)
    assert [d.action for d in remove.do(doc, state)] == ["changed_mark"]
    assert texts(doc)[0] == "We met John."  # the model's own T: a name, not a sentence start
    # the editor wrote "They" by hand: a full stop put before it and taken away again leaves it
    SetTag((1, 2), Tag.T, form).do(doc, state)
    assert state.word((1, 2)).status is Status.CHANGED
    SetMark((1, 1), ".", form).do(doc, state)
    assert [d.action for d in SetMark((1, 1), ",", form).do(doc, state)] == ["changed_mark"]
    assert texts(doc)[1] == "In London, They said?"
    # without a tag writer no word is re-cased
    SetMark((0, 2), "").do(doc, state)
    assert texts(doc)[:2] == ["We met John", "In London, They said?"]


def test_a_mark_change_is_one_undo_step_and_one_record_listing_the_recased_word(punctuated, data_dir):
    path, doc, state = punctuated
    log = log_path_for(path)
    session = ReviewSession(doc, state, path, model_version="v-test", model_sha256="ab" * 32, log=EditLog(log))
    start = (doc.to_bytes(), review_words(state))
    change = SetMark((0, 2), "", form)
    accept = Accept((1, 1))
    session.perform(change)
    session.perform(accept)
    after = (doc.to_bytes(), review_words(state))
    session.revert(accept)
    session.revert(change)
    assert (doc.to_bytes(), review_words(state)) == start
    session.perform(change)
    assert doc.to_bytes() != start[0] and review_words(state) != after  # redone, the comma not accepted
    session.close()
    records = read_records(log)
    assert {r["schema"] for r in records} == {EDITLOG_SCHEMA} == {5}
    assert [r["action"] for r in records] == ["changed_mark", "accepted", "accepted_mark", "undo", "undo",
                                              "changed_mark"]
    first = records[0]
    assert (first["cue_index"], first["word_index"], first["input"], first["word"]) == (0, 2, "john", "John")
    assert (first["mark_proposed"], first["before"], first["final"]) == (".", ".", "")
    assert first["mark_probs"] == {"none": 0.05, "comma": 0.05, "full stop": 0.85, "question mark": 0.03,
                                   "exclamation mark": 0.02}
    assert first["mark_confidence"] == 0.85
    # the word the app re-cased is listed in the mark's record, not a record of its own
    assert first["caused"] == [{"status": "untouched", "tag": "L", "at": [[1, 0]]}] and first["caused_count"] == 1
    assert records[3]["undoes"] == [records[1]["seq"], records[2]["seq"]]
    assert records[4]["undoes"] == [first["seq"]]


def test_profiles_read_logs_of_schema_4_and_5():
    from subcase.review.profiles.build import HUMAN, KNOWN_LOG_SCHEMAS
    assert {2, 3, 4, 5} <= set(KNOWN_LOG_SCHEMAS)
    assert "changed_mark" not in HUMAN and "accepted_mark" not in HUMAN  # marks teach a profile no casing


# -- the shipped model on real files --------------------------------------------------------------------

@pytest.mark.model
@pytest.mark.parametrize("name", ["ableplayer__ableplayer__media__blocks4all_captions_en.vtt",
                                  "meyer1994__srt__sintel_en.srt"])
def test_every_mark_restored_in_a_real_file_is_under_review(engine, stripped_dev, name):
    from subcase.casing import CasedFile, case_file
    from subcase.review.opening import OpenOptions, open_review

    path = stripped_dev(name)
    cased = case_file(engine, path, "restore", punctuate="auto")
    assert cased.casing.marks_written and cased.casing.marks
    # the editor opens the file itself with its punctuation restored: the same text as a conversion gives
    session = open_review(path, engine, OpenOptions(mode="restore", learning=False, punctuate="auto"))
    assert session.doc.to_bytes() == cased.doc.to_bytes()
    session.close()
    session = open_review(CasedFile(cased.doc, cased.casing, 0), engine, OpenOptions(mode="restore", learning=False, punctuate="never"))
    state, doc = session.state, session.doc
    marked = [pos for pos in state.positions() if state.word(pos).mark is not None]
    # each written mark on one word; a word a repeated cue shows again has its mark reviewed at its first showing
    repeats = sum(1 for m in cased.casing.marks if (m.cue_index, m.word_index) in cased.casing.copies)
    assert len(marked) == len(cased.casing.marks) - repeats
    for pos in marked:
        m = state.word(pos).mark
        assert m.now == m.proposed == SetMark.mark_at(doc, state, pos) != ""
    for pos in state.positions():
        w = state.word(pos)
        assert state.needs_review(pos) == (w.needs_review(state.threshold)
                                           or (w.mark is not None and w.mark.confidence < state.mark_threshold))
    # the editor sets every flagged mark to none and accepts every other flagged word: nothing is left to
    # review, and one undo per step gives back the file as opened
    start = doc.to_bytes()
    done = []
    pos = state.next_to_review(None, wrap=False)
    while pos is not None:
        action = SetMark(pos, "", engine.form) if state.word(pos).mark_needs_review(state.mark_threshold) \
            else Accept(pos)
        session.perform(action)
        done.append(action)
        if isinstance(action, SetMark) and state.needs_review(pos):
            accept = Accept(pos)
            session.perform(accept)
            done.append(accept)
        pos = state.next_to_review(pos, wrap=False)
    assert state.counts()["to_review"] == 0
    for action in reversed(done):
        session.revert(action)
    assert doc.to_bytes() == start
    session.close()


def test_a_word_broken_by_inline_tags_has_its_mark_reviewed_at_its_first_piece(tmp_path):
    """"<i>hel</i>lo" is one word in two pieces: the mark restored after it (after "lo") is reviewed where the
    word is, at "hel"; setting it acts after the last piece, and the next word, in the next cue, is re-cased."""
    path = tmp_path / "pieces.srt"
    path.write_bytes(b"1\n00:00:01,000 --> 00:00:02,000\nwe said <i>hel</i>lo\n\n"
                     b"2\n00:00:03,000 --> 00:00:04,000\nand left\n")
    doc = load(path)
    words = []
    for c, cue in enumerate(doc.cues):
        for k, tok in enumerate(cue.words()):
            tag = Tag.T if tok.text == "we" else Tag.L
            out = form(tok.text, tag)
            words.append(WordCasing(c, k, tok.start, tok.end, tok.text, out, out, tag,
                                    (0.99, 0.005, 0.003, 0.002) if tag is Tag.L else (0.01, 0.98, 0.005, 0.005)))
    lo = doc.cues[0].words()[3]
    casing = DocumentCasing(words, "restore", 0.9, marks=[InsertedMark(0, 2, lo.end, COMMA)])  # the joined index
    casing.joined = {0: [(2, 3)]}
    casing = write_marks(doc, casing)
    apply_casing(doc, casing)
    state = ReviewState.from_casing(len(doc.cues), casing)
    assert texts(doc)[0] == "We said <i>hel</i>lo,"
    assert state.word((0, 2)).mark == MarkReview(",", COMMA.probs, ",") and state.word((0, 3)).mark is None
    assert state.next_to_review(None) == (0, 2)
    assert SetMark.mark_at(doc, state, (0, 2)) == ","
    start = (doc.to_bytes(), review_words(state))
    action = SetMark((0, 2), "!", form)
    action.do(doc, state)
    assert texts(doc) == ["We said <i>hel</i>lo!", "And left"]
    assert state.word((0, 2)).mark.status is Status.CHANGED
    action.undo(doc, state)
    assert (doc.to_bytes(), review_words(state)) == start
