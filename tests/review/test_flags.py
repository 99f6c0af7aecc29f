"""Why a word is flagged and which look it has: the review core's answer (no Qt)."""

from __future__ import annotations

from subcase.casing import Tag
from subcase.review import Accept, FlagReason, Look, SetTag, Status, flag_reasons, look_of

from .conftest import form


def test_low_confidence_reason_and_looks(cased):
    doc, state = cased
    # "we" 0.65, "fbi" 0.50 under the 0.9 threshold; "john" 0.97 over it
    assert flag_reasons(state, (0, 0)) == [FlagReason("low_confidence", "low confidence 0.65 (threshold 0.90)")]
    assert str(flag_reasons(state, (1, 1))[0]) == "low confidence 0.50 (threshold 0.90)"
    assert flag_reasons(state, (0, 2)) == []
    assert [look_of(w, state.threshold) for w in state.cues[0]] == \
        [Look.REVIEW, Look.PLAIN, Look.PLAIN, Look.PLAIN, Look.REVIEW]

    # a decision changes the look, not the reasons: the panel can still say why it was shown
    Accept((0, 0)).do(doc, state)
    assert look_of(state.word((0, 0)), state.threshold) is Look.ACCEPTED
    assert [r.code for r in flag_reasons(state, (0, 0))] == ["low_confidence"]
    SetTag((1, 1), Tag.T, form).do(doc, state)
    assert look_of(state.word((1, 1)), state.threshold) is Look.CHANGED

    # the threshold moves: reasons and looks follow it
    state.threshold = 0.6
    assert flag_reasons(state, (0, 4)) == []  # london 0.75
    assert look_of(state.word((0, 4)), state.threshold) is Look.PLAIN
    w = state.word((2, 0))  # "ok" 0.45
    w.status = Status.LEARNED
    assert look_of(w, state.threshold) is Look.LEARNED


def test_reason_shows_enough_decimals_to_tell_the_numbers_apart(cased):
    _doc, state = cased
    state.threshold = 0.653  # "we" has 0.65: two decimals would print the same number twice
    assert str(flag_reasons(state, (0, 0))[0]) == "low confidence 0.650 (threshold 0.653)"


def test_the_threshold_reads_as_the_box_shows_it(cased):
    """Issue #57: the threshold box said 0.975 while the reason said 0.97 (three decimals, rounded to two)."""
    _doc, state = cased
    state.threshold = 0.975
    assert str(flag_reasons(state, (0, 0))[0]) == "low confidence 0.650 (threshold 0.975)"
    state.threshold = 0.9  # as many decimals as the numbers need, two at least
    assert str(flag_reasons(state, (0, 0))[0]) == "low confidence 0.65 (threshold 0.90)"
