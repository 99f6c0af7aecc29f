"""Rolling captions: a line that repeats the cue before is cased as it was there.

Roll-up captions (YouTube's auto-captions, broadcast roll-up) show each line
twice: as the new bottom line of one cue, then as the top line of the next
("a\\nb", "b\\nc", "c\\nd").  Cased as written, the model reads every line
twice, out of order ("a b b c c d"), and cases the two copies apart, so text
changes case as it scrolls.  Here the lines at the top of a cue that repeat
the lines at the bottom of the cue before (the same tokens, whatever their
case) are left out of what the model reads; the cue's new lines follow the
cue before with no cue boundary between them, since they continue its text
rather than open a sentence.  Each repeated word then takes exactly the
casing of its first appearance.

Only a run of whole lines at the top of a cue counts, matched against a run
at the bottom of the cue before: a repeated word inside a line is speech,
not a roll.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from subcase.subtitles.words import Token

from .stream import DocumentCasing, WordCasing, line_numbers


@dataclass(frozen=True)
class Rolled:
    """One cue's repeated top lines: ``tokens`` of them lead its token list, ``words`` of them words;
    ``pairs`` maps each of those word tokens (by index) to the previous cue's token it repeats."""

    tokens: int
    words: int
    pairs: tuple[tuple[int, int], ...]


def _lines(text: str, tokens: Sequence[Token]) -> list[list[int]]:
    """Token indices of each line that has tokens, in order."""
    out: list[list[int]] = []
    last = -1
    for k, line in enumerate(line_numbers(text, tokens)):
        if line != last:
            out.append([])
            last = line
        out[-1].append(k)
    return out


def _key(tokens: Sequence[Token], line: list[int]) -> tuple[str, ...]:
    return tuple(tokens[k].text.lower() for k in line)


def find_rolled(texts: Sequence[str], cues: Sequence[Sequence[Token]]) -> list[Rolled | None]:
    """For each cue, its top lines that repeat the bottom lines of the cue before (None: none)."""
    out: list[Rolled | None] = [None] * len(cues)
    prev_lines: list[list[int]] = []
    for c, tokens in enumerate(cues):
        lines = _lines(texts[c], tokens)
        if c > 0 and lines and prev_lines:
            prev = cues[c - 1]
            best = 0
            for k in range(min(len(lines), len(prev_lines)), 0, -1):
                if all(_key(tokens, lines[i]) == _key(prev, prev_lines[len(prev_lines) - k + i])
                       for i in range(k)):
                    best = k
                    break
            if best and any(tokens[i].is_word for line in lines[:best] for i in line):
                pairs = tuple((i, j) for n in range(best)
                              for i, j in zip(lines[n], prev_lines[len(prev_lines) - best + n])
                              if tokens[i].is_word)
                count = sum(len(line) for line in lines[:best])
                out[c] = Rolled(count, sum(1 for t in tokens[:count] if t.is_word), pairs)
        prev_lines = lines
    return out


def without_rolled(cues: Sequence[Sequence[Token]], rolled: Sequence[Rolled | None]) -> list[Sequence[Token]]:
    """The token lists the model reads: each cue without its repeated top lines."""
    return [tokens if r is None else tokens[r.tokens:] for tokens, r in zip(cues, rolled)]


def with_rolled(casing: DocumentCasing, cues: Sequence[Sequence[Token]],
                rolled: Sequence[Rolled | None]) -> DocumentCasing:
    """``casing`` (of ``without_rolled``'s token lists) for the whole cues: word indices counted from
    each cue's first token again, and every repeated word cased as its first appearance."""
    if not any(rolled):
        return casing
    by_cue: dict[int, list[WordCasing]] = {}
    for w in casing.words:
        r = rolled[w.cue_index]
        by_cue.setdefault(w.cue_index, []).append(
            w if r is None else w._replace(word_index=w.word_index + r.words))
    for c, r in enumerate(rolled):
        if r is None:
            continue
        tokens, prev_tokens = cues[c], cues[c - 1]
        word_index = {k: n for n, k in enumerate(i for i, t in enumerate(tokens) if t.is_word)}
        prev = {w.start: w for w in by_cue.get(c - 1, [])}
        copies = []
        for i, j in r.pairs:
            first = prev.get(prev_tokens[j].start)
            tok = tokens[i]
            if first is None or len(first.output) != len(tok.text):
                continue  # a word without letters, or a form that cannot be laid over this one
            copies.append(WordCasing(c, word_index[i], tok.start, tok.end, tok.text, first.output,
                                     first.model_form, first.tag, first.probs))
        by_cue[c] = copies + by_cue.get(c, [])
    return casing.with_words([w for c in sorted(by_cue) for w in by_cue[c]])


__all__ = ["Rolled", "find_rolled", "with_rolled", "without_rolled"]
