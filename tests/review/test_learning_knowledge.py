"""What the learner knows is one immutable value: a step makes the next one, undo puts the last one back.

Scripted casing (``test_positional_learning.open_scripted``): the Blocks4All lines as the editor opens them.
"""

from __future__ import annotations

import pytest

from subcase.casing import Tag
from subcase.review import SetTag
from subcase.review.learning import Knowledge

from .test_positional_learning import DOUBTED, LINES, at, form, open_scripted


def test_the_knowledge_cannot_be_changed_in_place():
    known = Knowledge(rules={("a", "b", "c", "d", "e"): "C"})
    with pytest.raises(TypeError):
        known.rules[("x",)] = "X"  # type: ignore[index]
    with pytest.raises(AttributeError):
        known.opening.add(("x",))  # type: ignore[attr-defined]
    assert known.draft().freeze() == known and known.draft().freeze() is not known


def test_a_step_makes_a_new_value_and_undo_puts_the_old_one_back(tmp_path):
    session = open_scripted(tmp_path, LINES, {(c, "coding"): DOUBTED for c in (1, 3, 4, 5)})
    learner, state = session.learner, session.state
    assert learner is not None
    start = learner.knowledge
    first = SetTag(at(state, 3, "coding"), Tag.U, form)
    session.perform(first)
    taught = learner.knowledge
    assert taught is not start and start == Knowledge()  # the value before is untouched
    assert taught.seen == {"coding": {"CODING": 1}}
    second = SetTag(at(state, 4, "coding"), Tag.U, form)
    session.perform(second)  # the second agreeing fix: the UPPER form goes word-wide
    assert learner.knowledge.words == {"coding": "CODING"} and taught.words == {}
    session.revert(second)
    assert learner.knowledge is taught
    session.revert(first)
    assert learner.knowledge is start
    session.perform(first)  # redone: learned again, to an equal value
    assert learner.knowledge == taught


def test_the_layout_belongs_to_the_state_it_was_read_from(tmp_path):
    session = open_scripted(tmp_path, LINES, {})
    learner = session.learner
    assert learner is not None and learner.layout_of(session.state) is None  # nothing read yet
    session.perform(SetTag(at(session.state, 2, "feel"), Tag.T, form))
    layout = learner.layout_of(session.state)
    assert layout is not None and list(layout.index["coding"]) == [(1, 0), (3, 6), (4, 6), (5, 6)]
    other = open_scripted(tmp_path, LINES, {})
    assert learner.layout_of(other.state) is None  # an equal state is not the one it read
