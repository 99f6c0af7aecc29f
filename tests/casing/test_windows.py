"""Cross-cue windows: every token is covered and takes the window where it is most central."""

import random

from subcase.casing.windows import assign_tokens, plan_windows


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
