"""``ReviewState.next_to_review`` walks from the word it starts at (the N key; simulate-review asks once per
word visited): the same answers as the reading order read whole, on every kind of start, both ways, with and
without wrapping round."""

from __future__ import annotations

import random

from subcase.casing import Tag
from subcase.review import ReviewState, ReviewWord

UNSURE, SURE = (0.5, 0.5, 0.0, 0.0), (1.0, 0.0, 0.0, 0.0)


def by_reading_order(state: ReviewState, after, backwards: bool, wrap: bool):
    """The definition: the reading order as one list, from the first word past ``after`` (where it was, for a
    word that is gone), round to the start when ``wrap``."""
    order = list(state.positions())
    if backwards:
        order.reverse()
    past = (lambda p: p > after) if not backwards else (lambda p: p < after)
    start = 0 if after is None else next((i for i, p in enumerate(order) if past(p)), len(order))
    for pos in order[start:] + (order[:start] if wrap else []):
        if state.needs_review(pos):
            return pos
    return None


def test_the_next_word_to_review_is_the_reading_orders():
    rnd = random.Random(55)
    for _ in range(2000):
        cues = [[ReviewWord(c, s, 0, 1, "a", "a", "a", Tag.L, UNSURE if rnd.random() < 0.2 else SURE)
                 for s in range(rnd.randint(0, 3))] for c in range(rnd.randint(0, 5))]
        state = ReviewState(cues, 0.9)
        after = None if rnd.random() < 0.2 else (rnd.randint(-1, 6), rnd.randint(-1, 4))
        for backwards in (False, True):
            for wrap in (False, True):
                assert state.next_to_review(after, backwards, wrap) == by_reading_order(state, after, backwards, wrap)
