"""The per-cue facts travel as one value: routing cuts them for a run of cues all at once."""

from __future__ import annotations

import inspect

from subcase.casing.auto import Passage
from subcase.casing.hints import NO_HINTS, CueHints


def test_a_slice_cuts_every_per_cue_fact_at_the_same_place():
    hints = CueHints(lines=[[0], [0, 1], [0]], pauses=[True, False, True], capitalised=[{"a"}, {"b"}, {"c"}],
                     lower_case=[set(), {"de"}, set()], rolled=[False, True, False],
                     passages=[Passage.KEEP, Passage.RESTORE, Passage.CAPS], restore=[False, True, True],
                     file_start=True)
    run = hints.slice(1, 3)
    assert run == CueHints(lines=[[0, 1], [0]], pauses=[False, True], capitalised=[{"b"}, {"c"}],
                           lower_case=[{"de"}, set()], rolled=[True, False], passages=[Passage.RESTORE, Passage.CAPS],
                           restore=[True, True], file_start=False)  # a run from the middle does not open the file
    assert hints.slice(0, 2).file_start and hints.slice(0, 2).rolled == [False, True]
    assert NO_HINTS.slice(2, 5) == NO_HINTS  # nothing known stays nothing known


def test_no_casing_function_takes_the_per_cue_lists_one_by_one():
    from subcase.casing.routing import case_by_language
    from subcase.casing.stream import case_token_lists

    for f in (case_token_lists, case_by_language):
        params = inspect.signature(f).parameters
        assert "hints" in params and not {"pauses", "rolled", "restore", "line_of", "passages"} & set(params)
