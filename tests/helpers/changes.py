"""What a conversion may change in a file: the case of letters, and marks it restores; every other character
stays, in its place."""

from __future__ import annotations

from collections.abc import Iterable

# every mark casing may restore, with the no-break spaces French typesetting puts before "?", "!", ";" and ":"
RESTORABLE_MARKS = frozenset(",.?!;:\u2026\u00bf\u00a1\u00a0\u202f")


def assert_only_letters_and_marks(before: str, after: str, marks: Iterable[str] = RESTORABLE_MARKS) -> None:
    """``after`` is ``before`` with letters recased and characters of ``marks`` inserted, nothing else.

    Read left to right: a character of ``after`` is the next of ``before`` (the same, or the same letter in
    another case) or an inserted mark; the message shows both texts around the first one that is neither."""
    marks = frozenset(marks)
    i = 0
    for j, b in enumerate(after):
        a = before[i] if i < len(before) else ""
        if a == b or (a.isalpha() and b.isalpha() and (a.lower() == b.lower() or a.upper() == b.upper())):
            i += 1
        else:
            assert b in marks, f"{before[max(0, i - 20):i + 20]!r} -> {after[max(0, j - 20):j + 20]!r}"
    assert i == len(before), f"{before[i:i + 40]!r} lost"
