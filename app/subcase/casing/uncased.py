"""A cue's text with its casing removed: what the model is measured on and what a profile is built against.

``subcase evaluate`` and ``simulate-review`` give the model the reference files written this way, and
``subcase profile build --from-subtitles`` reads the model's forms of a cased file from it, so a word
counts as a change only where the model gets it wrong.
"""

from __future__ import annotations

from typing import Sequence

from subcase.subtitles.words import Token

from .stream import line_numbers


def input_text(text: str, tokens: Sequence[Token], strip_punct: bool, upper: bool) -> str:
    """A cue's text with its casing removed; with ``strip_punct`` only its words, line by line."""
    recase = str.upper if upper else str.lower
    words = [t for t in tokens if t.is_word]
    if strip_punct:
        lines: dict[int, list[str]] = {}
        for t, line in zip(words, line_numbers(text, words)):
            lines.setdefault(line, []).append(recase(t.text))
        return "\n".join(" ".join(ws) for _, ws in sorted(lines.items()))
    # one pass, left to right (a case change may alter a word's length: "ß" -> "SS")
    parts, pos = [], 0
    for t in words:
        parts += [text[pos:t.start], recase(t.text)]
        pos = t.end
    return "".join(parts) + text[pos:]
