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

from subcase.subtitles.words import WORD_RE, Token

from .stream import DocumentCasing, WordCasing

_APOSTROPHES = ("'", "\u2019")
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
        found = _group(text, tokens, i)
        group, j = ([tok], i) if found is None else found
        word_index.append(original)
        original += len(group)
        if len(group) == 1:
            out.append(tok)
        else:
            out.append(Token(tok.start, group[-1].end, "".join(t.text for t in group), True))
            pieces[tok.start] = tuple((t.start, t.end) for t in group)
        i = j + 1
    if not pieces:
        return list(tokens), None
    return out, Joins(pieces, word_index)


def _glued(text: str, tokens: Sequence[Token], k: int) -> bool:
    """Whether only tags stand between token ``k`` and the next one (and some do)."""
    return k + 1 < len(tokens) and tokens[k + 1].start > tokens[k].end and _GLUE.fullmatch(
        text, tokens[k].end, tokens[k + 1].start) is not None


def _apostrophe_word(tokens: Sequence[Token], k: int) -> bool:
    """Whether token ``k`` is an apostrophe written right against the word after it ("'s")."""
    return (k + 1 < len(tokens) and tokens[k].text in _APOSTROPHES and tokens[k + 1].is_word
            and tokens[k + 1].start == tokens[k].end)


def _group(text: str, tokens: Sequence[Token], i: int) -> tuple[list[Token], int] | None:
    """The pieces of the word that starts at word token ``i`` when tags break it, and the index of its last
    token; None when no tag breaks it.  A piece is what stands between two tags: one word, with the apostrophe
    a tag cut from it ("n'" and "t" of ``do<..><c>n'</c><..><c>t</c>``, "'s" of ``office<..><c>'s</c>``)."""
    pieces: list[Token] = []
    k = i
    while True:
        lo = k
        if not tokens[k].is_word:
            k += 1  # an apostrophe leading the piece, right against its word
        hi = k
        if hi + 1 < len(tokens) and tokens[hi + 1].text in _APOSTROPHES and tokens[hi + 1].start == tokens[hi].end \
                and _glued(text, tokens, hi + 1) and tokens[hi + 2].is_word:
            hi += 1  # an apostrophe ending the piece, a tag and the rest of the word after it
        pieces.append(Token(tokens[lo].start, tokens[hi].end, text[tokens[lo].start:tokens[hi].end], True))
        if _glued(text, tokens, hi) and (tokens[hi + 1].is_word or _apostrophe_word(tokens, hi + 1)):
            k = hi + 1
            continue
        break
    if len(pieces) < 2 or WORD_RE.fullmatch("".join(p.text for p in pieces)) is None:
        return None
    return pieces, hi


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
