"""A spoken word that a rolling caption shows in several cues is reviewed once: a decision on it is written to every
copy, and one undo takes it back from all of them."""

from __future__ import annotations

import shutil
from pathlib import Path

from subcase.casing import Tag
from subcase.casing.restoring import Punctuate
from subcase.evaluation.flicker import count_flicker, cue_lines
from subcase.review import Status
from subcase.review.actions import Accept, SetMark, SetTag
from subcase.review.opening import OpenOptions, open_review
from subcase.subtitles import load

CAPTIONS = Path(__file__).resolve().parents[1] / "fixtures" / "captions"


def _open(tmp_path: Path, engine, name: str = "youtube_new.vtt"):
    src = tmp_path / name
    shutil.copyfile(CAPTIONS / name, src)
    return src, open_review(src, engine, OpenOptions(mode="auto", punctuate=Punctuate.AUTO, learning=False))


def _positions(state, word: str):
    return [(c, s) for c, words in enumerate(state.cues) for s, w in enumerate(words) if w.form.lower() == word]


def test_each_spoken_word_is_reviewed_once(tmp_path, engine):
    _, session = _open(tmp_path, engine)
    state = session.state
    places = _positions(state, "denver")
    assert len(places) == 3  # the cue that speaks it, the snapshot cue and the next cue show it
    assert state.copies[places[0]] == tuple(places)
    # only the first appearance can be to review; the copies follow it
    assert all(not state.needs_review(p) and state.word(p).mark is None for p in places[1:])
    words = sum(len(w) for w in state.cues)
    reviewable = words - sum(1 for p, group in state.copies.items() if p != group[0])
    assert reviewable == len(" ".join(_lines()).split())


def _lines() -> list[str]:
    text = (CAPTIONS / "make_rolling.py").read_text(encoding="utf-8")
    start = text.index("LINES = [")
    return [ln.strip().strip('",') for ln in text[start:text.index("]", start)].splitlines()[1:]]


def test_a_decision_changes_every_copy_and_one_undo_takes_it_back(tmp_path, engine):
    src, session = _open(tmp_path, engine)
    before = session.doc.render()
    places = _positions(session.state, "denver")
    action = SetTag(places[1], Tag.U, engine.form)  # decided on a copy: the same for all
    session.perform(action)
    assert [session.state.word(p).form for p in places] == ["DENVER"] * 3
    assert all(session.state.word(p).status is Status.CHANGED for p in places)
    assert session.doc.render().count("DENVER") == 3
    repeats, differ = count_flicker(cue_lines(load(src)), cue_lines(session.doc))
    assert repeats and differ == 0
    session.revert(action)
    assert session.doc.render() == before
    assert all(session.state.word(p).status is Status.UNTOUCHED for p in places)


def test_a_mark_and_an_accept_go_to_every_copy(tmp_path, engine):
    src, session = _open(tmp_path, engine)
    places = _positions(session.state, "friend")
    assert len(places) == 3
    before = session.doc.render()
    mark = SetMark(places[0], "?", engine.form)
    session.perform(mark)
    assert all(session.doc.cues[c].plain_text().count("friend?") == 1 for c, _ in places)
    repeats, differ = count_flicker(cue_lines(load(src)), cue_lines(session.doc))
    assert differ == 0
    session.revert(mark)
    assert session.doc.render() == before
    accept = Accept(places[0])
    session.perform(accept)
    assert all(session.state.word(p).status is Status.ACCEPTED for p in places)
