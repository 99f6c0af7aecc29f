"""Cross-cue windows: every token is covered and takes the window where it is most central."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from subcase.casing.windows import assign_tokens, capped_offsets, plan_windows


def test_windows_cover_every_token_within_budget():
    rng = random.Random(3)
    for _ in range(50):
        lengths = [rng.randint(1, 5) for _ in range(rng.randint(1, 300))]
        windows = plan_windows(lengths, 62, 31)
        covered = set()
        for w in windows:
            assert sum(lengths[w.first:w.last]) <= 62 or len(w) == 1
            covered.update(range(w.first, w.last))
        assert covered == set(range(len(lengths)))
        owner = assign_tokens(lengths, windows)
        for i, w in enumerate(owner):
            assert windows[w].first <= i < windows[w].last


def test_token_takes_most_central_window():
    lengths = [1] * 100
    windows = plan_windows(lengths, 20, 10)
    owner = assign_tokens(lengths, windows)
    # a token in the middle of the stream is never at the edge of its chosen window
    for i in range(20, 80):
        w = windows[owner[i]]
        assert w.first + 4 <= i < w.last - 4


def test_single_window_for_short_stream():
    assert len(plan_windows([1, 2, 3], 62, 31)) == 1
    assert plan_windows([], 62, 31) == []


def test_overlong_token_still_gets_a_window():
    windows = plan_windows([1, 100, 1], 62, 31)
    owner = assign_tokens([1, 100, 1], windows)
    assert all(o >= 0 for o in owner)


def _plan_windows_by_scanning(lengths: list[int], budget: int, step: int) -> list[tuple[int, int]]:
    """plan_windows as it was before it searched with bisect: the reference it must still agree with."""
    n = len(lengths)
    if n == 0:
        return []
    offsets = capped_offsets(lengths, budget)
    windows, first = [], 0
    while True:
        last = first
        while last < n and offsets[last + 1] - offsets[first] <= budget:
            last += 1
        last = max(last, first + 1)
        windows.append((first, last))
        if last >= n:
            break
        target = offsets[first] + step
        nxt = first + 1
        while nxt < last and offsets[nxt] < target:
            nxt += 1
        first = nxt
    return windows


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 70), max_size=400), st.integers(1, 80), st.integers(1, 80))
def test_windows_are_those_of_the_plain_scan(lengths: list[int], budget: int, step: int) -> None:
    # the shipped model's windows come from this plan: any change of it changes every casing
    assert [(w.first, w.last) for w in plan_windows(lengths, budget, step)] == \
        _plan_windows_by_scanning(lengths, budget, step)
