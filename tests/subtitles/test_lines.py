"""A file's usual line ending, counted without splitting it into lines."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from subcase.subtitles import loads
from subcase.subtitles.lines import newline_in, split_lines


def _most_common_ending(text: str) -> str:
    """The rule as it was written before: the commonest ending of the split lines, the first seen on a tie."""
    counts = Counter(end for _, end in split_lines(text) if end)
    return counts.most_common(1)[0][0] if counts else "\n"


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(["a", " ", "\r", "\n", "\r\n"]), max_size=40).map("".join))
def test_newline_is_the_commonest_ending_first_seen_on_a_tie(text: str) -> None:
    assert newline_in(text) == _most_common_ending(text)


def test_examples() -> None:
    assert newline_in("no ending") == "\n"
    assert newline_in("a\r\nb\r\nc\n") == "\r\n"
    assert newline_in("a\nb\r\n") == "\n"            # a tie: the first one seen
    assert newline_in("a\r\nb\n") == "\r\n"
    assert newline_in("a\r\r\nb\r") == "\r"          # CR CRLF CR: two lone CRs


def test_a_file_keeps_its_line_endings() -> None:
    data = b"1\r\n00:00:01,000 --> 00:00:02,000\r\nhello\r\n\r\n2\r\n00:00:03,000 --> 00:00:04,000\nbye\n"
    doc = loads(data, "x.srt")
    assert doc.newline == "\r\n"
    assert doc.render().encode() == data
