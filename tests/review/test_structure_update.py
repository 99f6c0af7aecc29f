"""The structure read again for the cues a decision changed (review/structure.py ``_updated``) is the structure
read whole: on a real film cased by the real model with its marks restored, after each of many decisions on
marks (which move sentence starts into the next cue), on words and on cue texts, and after their undo."""

from __future__ import annotations

import pytest

from subcase.casing.marks import MARKS
from subcase.evaluation.simulate import SimulateOptions, prepare
from subcase.review import Accept, EditText, SetMark, SetTag
from subcase.review.structure import DocumentStructure, Structure

SINTEL = "meyer1994__srt__sintel_en.srt"


@pytest.fixture(scope="module")
def film(engine, dev_subtitles):
    path = next((p for p in dev_subtitles if p.name == SINTEL), None)
    if path is None:
        pytest.skip(f"shared dev subtitle missing: {SINTEL}")
    return prepare(path, engine, SimulateOptions(strip_punct=True))


def opened(film, engine):
    from subcase.casing import CasedFile, apply_casing
    from subcase.casing.pipeline import write_marks
    from subcase.review import OpenOptions, open_review

    doc = film.source.copy()
    casing = write_marks(doc, film.casing)
    return open_review(CasedFile(doc, casing, apply_casing(doc, casing)), engine,
                       OpenOptions(mode=film.casing.mode, punctuate=film.punctuate))


def test_a_structure_updated_decision_by_decision_is_the_one_read_whole(film, engine, monkeypatch):
    from subcase.review import structure

    updated = []  # the real update, counted: the test is worth something only if it ran

    def counted(*args):
        out = real(*args)
        updated.append(out is not None)
        return out

    real = structure._updated
    monkeypatch.setattr(structure, "_updated", counted)
    session = opened(film, engine)
    doc, state = session.doc, session.state
    owner = DocumentStructure()
    assert owner.of(doc, state) == Structure.compute(doc, state)
    assert owner.of(doc, state).punctuated  # the restored marks: the update applies (else it reads whole)
    positions = list(state.positions())
    done = []
    for k, pos in enumerate(positions[::2]):
        if k % 7 == 3:
            c = pos[0]
            action = EditText(c, doc.cues[c].text + " and so")
        elif k % 7 == 5:
            action = SetTag(pos, state.word(pos).model_tag or state.word(pos).tag, engine.form)
        elif not SetMark.applies(doc, state, pos):
            action = Accept(pos)
        else:
            now = SetMark.mark_at(doc, state, pos)
            action = SetMark(pos, MARKS[(MARKS.index(now) + 2 + k) % len(MARKS)], engine.form)
        session.perform(action)
        done.append(action)
        assert owner.of(doc, state) == Structure.compute(doc, state), (k, pos, type(action).__name__)
    assert sum(isinstance(a, SetMark) for a in done) > 30 and sum(updated) > 30
    for action in reversed(done[-40:]):
        session.revert(action)
        assert owner.of(doc, state) == Structure.compute(doc, state)
    session.close()
