"""N, P and the arrow keys walk from the current word (``ReviewState.next_to_review``, ``step``) instead of
listing every position of the file on each key: they find what a list of all positions would."""

from __future__ import annotations

import random

from subcase.casing import Tag
from subcase.review.state import ReviewState, ReviewWord


def listed_next(state: ReviewState, after, backwards: bool, wrap: bool):
    """The word to review as found in a list of every position (how it was found before)."""
    order = list(state.positions())
    if backwards:
        order.reverse()
    start = 0
    if after is not None:
        if after in order:
            start = order.index(after) + 1
        else:
            key = (lambda p: p >= after) if not backwards else (lambda p: p <= after)
            start = next((i for i, p in enumerate(order) if key(p)), len(order))
    for pos in order[start:] + (order[:start] if wrap else []):
        if state.needs_review(pos):
            return pos
    return None


def listed_step(state: ReviewState, pos, delta: int):
    order = list(state.positions())
    if not order:
        return None
    if pos is None or pos not in order:
        return order[0] if delta > 0 else order[-1]
    return order[max(0, min(len(order) - 1, order.index(pos) + delta))]


def test_walking_finds_what_the_list_of_all_positions_finds():
    rng = random.Random(56)
    for _ in range(300):
        cues = []
        for c in range(rng.randint(0, 6)):
            words = []
            for s in range(rng.choice([0, 0, 1, 2, 3])):
                p = rng.random()
                words.append(ReviewWord(c, s, 0, 1, "a", "a", "a", Tag.L, (p, 1 - p, 0.0, 0.0)))
            cues.append(words)
        state = ReviewState(cues, 0.5)
        # words, a vanished word, (cue, -1) just before a cue, and places past either end
        for after in [None] + [(c, s) for c in range(-1, 8) for s in range(-1, 5)]:
            for backwards in (False, True):
                for wrap in (False, True):
                    assert state.next_to_review(after, backwards, wrap) == listed_next(state, after, backwards, wrap)
            for delta in (-3, -1, 0, 1, 2):
                assert state.step(after, delta) == listed_step(state, after, delta)
