from __future__ import annotations

import json
import os

import pytest

from subcase.casing import Tag
from subcase.digest import file_sha256
from subcase.review import (Accept, AcceptCue, EditLog, EditText, ReviewSession, SetTag, Status, log_path_for,
                            read_records)
from subcase.review import autosave
from subcase.review.actions import cycle_tag, next_distinct_tag
from subcase.review.storage import file_key

from .conftest import form


def words_of(state, cue):
    return [(w.form, w.status.value) for w in state.cues[cue]]


def test_state_from_casing_and_navigation(cased):
    doc, state = cased
    assert doc.cues[0].text == "We met John in London."
    assert doc.cues[1].text == "<i>The FBI called</i>"
    # "42" has no letters: not a reviewable word, but word indexes still count it
    assert [(w.input, w.word_index) for w in state.cues[2]] == [("ok", 0), ("times", 2)]
    # under 0.9: we (0.65), london (0.75), the (0.88), fbi (0.50), ok (0.45)
    assert state.to_review() == 5
    first = state.next_to_review()
    assert first == (0, 0)
    assert state.next_to_review(first) == (0, 4)
    assert state.next_to_review((2, 0)) == (0, 0)  # wraps
    assert state.next_to_review((0, 0), backwards=True) == (2, 0)
    state.threshold = 0.6
    assert state.to_review() == 2
    assert state.counts()["flagged"] == 2


def test_set_tag_accept_and_undo(cased):
    doc, state = cased
    a = SetTag((1, 1), Tag.T, form)
    [d] = a.do(doc, state)
    assert (d.action, d.before, d.final) == ("changed_tag", "FBI", "Fbi")
    assert doc.cues[1].text == "<i>The Fbi called</i>"
    assert state.word((1, 1)).status is Status.CHANGED
    a.undo(doc, state)
    assert doc.cues[1].text == "<i>The FBI called</i>"
    assert state.word((1, 1)).status is Status.UNTOUCHED
    # setting the tag the model proposed is an acceptance
    [d] = SetTag((1, 1), Tag.U, form).do(doc, state)
    assert d.action == "accepted" and state.word((1, 1)).status is Status.ACCEPTED
    acc = Accept((0, 0))
    acc.do(doc, state)
    assert state.word((0, 0)).status is Status.ACCEPTED
    acc.undo(doc, state)
    assert state.word((0, 0)).status is Status.UNTOUCHED
    assert cycle_tag(Tag.M) is Tag.L and cycle_tag(Tag.L) is Tag.T


def test_accept_cue_only_touches_words_to_review(cased):
    doc, state = cased
    a = AcceptCue(0, state.threshold)
    decisions = a.do(doc, state)
    assert [d.word.input for d in decisions] == ["we", "london"]
    assert words_of(state, 0) == [("We", "accepted"), ("met", "untouched"), ("John", "untouched"),
                                  ("in", "untouched"), ("London", "accepted")]
    a.undo(doc, state)
    assert all(w.status is Status.UNTOUCHED for w in state.cues[0])


def test_edit_text_keeps_surviving_words(cased):
    doc, state = cased
    SetTag((0, 3), Tag.U, form).do(doc, state)  # "in" -> "IN"
    a = EditText(0, "We met JOHNNY in\nLondon town.")
    [d] = a.do(doc, state)
    assert d.action == "edited_text" and d.before == "We met John IN London."
    ws = state.cues[0]
    assert [w.form for w in ws] == ["We", "met", "JOHNNY", "in", "London", "town"]
    assert [w.status.value for w in ws] == ["untouched", "untouched", "edited", "changed", "untouched", "edited"]
    assert ws[0].probs is not None and ws[2].probs is None
    assert doc.cues[0].text[ws[4].start:ws[4].end] == "London"
    a.undo(doc, state)
    assert doc.cues[0].text == "We met John IN London."
    assert [w.form for w in state.cues[0]] == ["We", "met", "John", "IN", "London"]


def test_session_writes_one_record_per_decision(cased, srt_file, data_dir):
    doc, state = cased
    path = log_path_for(srt_file)
    assert path.parent == data_dir / "edit-logs" and path.name == f"{file_key(srt_file)}.jsonl"
    log = EditLog(path)
    s = ReviewSession(doc, state, srt_file, model_version="v-test", model_sha256="ab" * 32, log=log)
    seen = []
    s.listeners.append(seen.append)
    a = SetTag((1, 1), Tag.T, form)
    s.perform(a)
    # on disk already, before anything is closed
    [r] = read_records(path)
    assert r["schema"] == 5 and r["action"] == "changed_tag"
    assert (r["cue_index"], r["cue_id"], r["word_index"], r["input"], r["model_tag"], r["final"]) == \
        (1, "2", 1, "fbi", "U", "Fbi")
    assert r["model_probs"] == {"L": 0.05, "T": 0.4, "U": 0.5, "M": 0.05}
    assert r["model_version"] == "v-test" and r["model_sha256"] == "ab" * 32
    assert r["file"] == str(srt_file.resolve())
    s.revert(a)
    s.perform(AcceptCue(0, state.threshold))
    before = s.base_sha256
    saved = s.save()
    assert saved.path == srt_file and saved.document is doc and saved.warnings == []
    assert s.base_sha256 == file_sha256(srt_file) != before
    recs = read_records(path)
    assert [x["action"] for x in recs] == ["changed_tag", "undo", "accepted", "accepted", "saved"]
    assert (recs[-1]["saved_to"], recs[-1]["saved_format"]) == (str(srt_file.resolve()), "srt")
    assert recs[1]["undoes"] == [recs[0]["seq"]]
    assert len({x["seq"] for x in recs}) == len(recs)
    assert seen == [(1,), (1,), (0,)]
    s.close()


def test_saving_in_another_format_keeps_the_review(cased, srt_file, data_dir, tmp_path):
    doc, state = cased
    s = ReviewSession(doc, state, srt_file, model_version="v", model_sha256="ab" * 32)
    s.perform(SetTag((1, 1), Tag.L, form))   # "fbi" in "<i>the fbi called</i>"
    s.perform(Accept((0, 2)))                # "John"
    saved = s.save(tmp_path / "film.vtt")
    assert s.doc is saved.document and s.doc.format == "vtt" and doc.format == "srt"
    assert saved.path.read_bytes().startswith(b"WEBVTT")
    # every review word still points at its own letters in the converted text
    for c, words in enumerate(s.state.cues):
        text = s.doc.cues[c].text
        assert [text[w.start:w.end] for w in words] == [w.form for w in words]
    assert (s.state.word((1, 1)).form, s.state.word((1, 1)).status) == ("fbi", Status.CHANGED)
    assert s.state.word((0, 2)).status is Status.ACCEPTED
    assert s.base_sha256 == file_sha256(saved.path)


def test_space_skips_tags_that_write_the_same_form(cased):
    _, state = cased
    john = state.word((0, 2))                        # "John", T
    assert next_distinct_tag(john, form) is Tag.U    # M would write "John" again
    i = state.word((0, 3))                           # a word with no M form either
    i.form = "I"
    assert next_distinct_tag(i, form) is Tag.L       # "I": U and M are the same as T


def test_torn_last_line_is_skipped(tmp_path):
    p = tmp_path / "x.jsonl"
    with EditLog(p) as log:
        log.append([{"a": 1}, {"a": 2}])
    with open(p, "ab") as f:
        f.write(b'{"a": 3')
    assert read_records(p) == [{"a": 1}, {"a": 2}]


def test_autosave_roundtrip(cased, srt_file, data_dir):
    doc, state = cased
    SetTag((1, 1), Tag.T, form).do(doc, state)
    EditText(2, "OK, 42 times!").do(doc, state)
    state.current = (1, 1)
    # as learning leaves a neighbour of a fix: flagged whatever its confidence
    state.cues[1][0].raised = "next to 'Hello', which you changed in cue 2"
    data = autosave.snapshot(doc, state, autosave.ReviewIdentity(srt_file, srt_file, autosave.file_sha256(srt_file),
                                                                    "restore", "v", "s", "x"))
    data["pid"] = 2 ** 22 + 12345  # a process that is not running: as after a crash
    autosave.write_snapshot(data)
    [rec] = autosave.find_recoverable()
    doc2, state2 = autosave.restore(rec.data)
    assert doc2.render() == doc.render()
    assert [[(w.form, w.status, w.probs, w.raised) for w in c] for c in state2.cues] == \
        [[(w.form, w.status, w.probs, w.raised) for w in c] for c in state.cues]
    assert state2.cues[1][0].needs_review(state2.threshold) == state.cues[1][0].needs_review(state.threshold)
    assert state2.current == (1, 1)
    # a schema-1 snapshot (every cue), written before the reason was kept (9 items a word), still restores
    assert rec.data["complete"] and [e["cue"] for e in rec.data["cues"]] == list(range(len(doc.cues)))
    old = {k: v for k, v in rec.data.items() if k not in ("cues", "complete", "n_cues")}
    old.update(schema=1, cue_texts=[e["text"] for e in rec.data["cues"]],
               words=[[w[:9] for w in e["words"]] for e in rec.data["cues"]])
    doc3, state3 = autosave.restore(old)
    assert doc3.render() == doc.render()
    assert [w.raised for c in state3.cues for w in c] == [None] * sum(len(c) for c in state.cues)
    # a snapshot of a live process (this one, another instance) is not offered
    data["pid"] = os.getppid()
    autosave.write_snapshot(data)
    assert autosave.find_recoverable() == []
    autosave.remove_snapshot(srt_file)
    assert not autosave.snapshot_path_for(srt_file).exists()


def test_restore_refuses_a_changed_file(cased, srt_file, data_dir):
    doc, state = cased
    data = autosave.snapshot(doc, state, autosave.ReviewIdentity(srt_file, srt_file, autosave.file_sha256(srt_file),
                                                                    "restore", "v", "s", "x"))
    srt_file.write_bytes(srt_file.read_bytes() + b"\r\n")
    with pytest.raises(autosave.RestoreError, match="changed on disk"):
        autosave.restore(data)


def test_autosave_writer_never_resurrects_a_discarded_snapshot(cased, srt_file, data_dir):
    doc, state = cased
    data = autosave.snapshot(doc, state, autosave.ReviewIdentity(srt_file, srt_file, autosave.file_sha256(srt_file),
                                                                    "restore", "v", "s", "x"))
    writer = autosave.AutosaveWriter()
    try:
        writer.submit(data)
        writer.flush()
        path = autosave.snapshot_path_for(srt_file)
        assert [e["text"] for e in json.loads(path.read_text(encoding="utf-8"))["cues"]] == [c.text for c in doc.cues]
        for _ in range(5):
            writer.submit(data)
        writer.discard(srt_file)
        writer.flush()
        assert not path.exists()
    finally:
        writer.close()
