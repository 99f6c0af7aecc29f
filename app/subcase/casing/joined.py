"""Words broken by inline tags are cased as one word.

YouTube's auto-captions time each word with inline tags, and often cut a word
between two of them: ``ro<00:00:02.700><c>ll</c>``.  The markup splitter sees
two words there ("ro", "ll"), and the model, given them apart, capitalises the
second as if it began a word ("RoLl").  A word is joined again when nothing but
tags (``<...>``) or ASS override blocks (``{\\...}``) stands between two of its
pieces: no space, no line break, no visible character.  The model sees the
whole word; each piece then takes the joined word's letters at its own place,
so the tags between them stay byte for byte, and every piece keeps its own
offsets and word index (the document, the review and the metrics count words
as the markup splitter does).  Entities and ASS hard breaks (``&amp;``,
``\\N``) stand for visible characters, so they never join two pieces.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from subcase.subtitles.words import Token

from .stream import DocumentCasing, WordCasing

_GLUE = re.compile(r"(?:</?[A-Za-z0-9][^<>\r\n]*>|\{\\[^{}\r\n]*\})+")


@dataclass(frozen=True)
class Joins:
    """One cue's joined words: ``pieces[k]`` lists the (start, end) of the pieces of joined token k,
    and ``word_index[m]`` is the first original word index of joined word m."""

    pieces: dict[int, tuple[tuple[int, int], ...]]   # by start offset of the joined token
    word_index: list[int]


def join_words(text: str, tokens: Sequence[Token]) -> tuple[list[Token], Joins | None]:
    """``tokens`` with each word broken by tags made one token spanning its pieces (and the tags
    between them); None for the joins when no word is broken (the usual case, at no cost)."""
    out: list[Token] = []
    pieces: dict[int, tuple[tuple[int, int], ...]] = {}
    word_index: list[int] = []
    original = 0  # word index among the unjoined tokens
    i = 0
    n = len(tokens)
    while i < n:
        tok = tokens[i]
        if not tok.is_word:
            out.append(tok)
            i += 1
            continue
        j = i
        while (j + 1 < n and tokens[j + 1].is_word and tokens[j + 1].start > tokens[j].end
               and _GLUE.fullmatch(text, tokens[j].end, tokens[j + 1].start)):
            j += 1
        word_index.append(original)
        original += j - i + 1
        if j == i:
            out.append(tok)
        else:
            group = tokens[i:j + 1]
            out.append(Token(tok.start, tokens[j].end, "".join(t.text for t in group), True))
            pieces[tok.start] = tuple((t.start, t.end) for t in group)
        i = j + 1
    if not pieces:
        return list(tokens), None
    return out, Joins(pieces, word_index)


def split_words(casing: DocumentCasing, joins: Sequence[Joins | None]) -> DocumentCasing:
    """The casing of joined tokens given back piece by piece: each piece takes the joined word's
    letters at its place, its tag and its probabilities, and its own word index.  A form whose
    length differs from the input's (a letter whose capital is two letters) cannot be cut into the
    pieces; that word keeps its input."""
    if not any(joins):
        return casing
    words: list[WordCasing] = []
    groups: dict[int, list[tuple[int, ...]]] = {}
    for w in casing.words:
        j = joins[w.cue_index] if w.cue_index < len(joins) else None
        if j is None:
            words.append(w)
            continue
        index = j.word_index[w.word_index]
        spans = j.pieces.get(w.start)
        if spans is None:
            words.append(w._replace(word_index=index))
            continue
        cut = len(w.output) == len(w.input) and len(w.model_form) == len(w.input)
        at = 0
        groups.setdefault(w.cue_index, []).append(tuple(range(index, index + len(spans))))
        for k, (start, end) in enumerate(spans):
            size = end - start
            piece = w.input[at:at + size]
            words.append(WordCasing(w.cue_index, index + k, start, end, piece,
                                    w.output[at:at + size] if cut else piece,
                                    w.model_form[at:at + size] if cut else piece, w.tag, w.probs))
            at += size
    out = casing.with_words(words)
    out.joined = groups
    return out


__all__ = ["Joins", "join_words", "split_words"]
