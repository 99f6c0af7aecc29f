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
of whole lines of the cue before (at its bottom, or higher where the cue
before ends in something else: a live stream's next segment header): a
repeated word inside a line is speech, not a roll.  In the word-level layout
(inline timing tags) the line after the run may grow: the cue before shows
"seven." and this cue "seven. Recommend ..." as its bottom line is spoken;
the words it shows again are part of the roll.

Marks restored after a word (casing/restoring.py) are copied to every
repeat of the word with its casing, so no comma comes and goes as a line
scrolls.
"""

from __future__ import annotations

from dataclasses import dataclass
import re
from typing import Callable, Iterable, Iterator, Sequence

from subcase.subtitles.words import Token

from .marks import classify
from .restoring import InsertedMark
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


# Lines of a cue compared with the cue before: roll-up captions show two or three; a cue of many lines is
# compared on its first lines only, so the cost stays linear in the file.
WINDOW = 8

# An inline timing tag (<00:00:01.000>): the word-level layout, in which a cue's bottom line grows word by word.
_TIMING_RE = re.compile(r"<(?:[0-9]+:)?[0-9]{2}:[0-9]{2}\.[0-9]{3}>")


def _run_at(keys: list[tuple[str, ...]], prev_keys: list[tuple[str, ...]]) -> tuple[int, int]:
    """The longest run of the first lines ``keys`` that ``prev_keys`` has as consecutive lines: (length,
    where it starts in ``prev_keys``); a run at the bottom wins a tie.  (0, len(prev_keys)) for none."""
    for k in range(min(len(keys), len(prev_keys)), 0, -1):
        for s in range(len(prev_keys) - k, -1, -1):
            if prev_keys[s:s + k] == keys[:k]:
                return k, s
    return 0, len(prev_keys)


def _grown(prev: Sequence[Token], line: list[int], tokens: Sequence[Token], longer: list[int]) -> list[tuple[int, int]]:
    """The word pairs (index in ``tokens``, index in ``prev``) when ``longer`` starts with every word of
    ``line`` (and ``line`` has some); none otherwise.  Words only: the last word of a growing line is where
    the speech stops for now, so the mark after it (or inside the line) may differ from the one its next
    showing writes ("program," restored, then "program." written), and a second conversion must find the same
    growth the first did (issue #56 item 4)."""
    old = [k for k in line if prev[k].is_word]
    new = [k for k in longer if tokens[k].is_word]
    if not old or len(old) > len(new) or any(prev[a].text.lower() != tokens[b].text.lower() for a, b in zip(old, new)):
        return []
    return list(zip(new, old))


def find_rolled(texts: Sequence[str], cues: Sequence[Sequence[Token]]) -> list[Rolled | None]:
    """For each cue, its top lines that repeat lines of the cue before (None: none)."""
    out: list[Rolled | None] = [None] * len(cues)
    prev_lines: list[list[int]] = []
    # one tuple for each (i, j) pair: a rolling layout pairs the same few token places in every cue, and a
    # three-hour stream has 300,000 pairs (20 MB as tuples of their own)
    shared: dict[tuple[int, int], tuple[int, int]] = {}
    for c, tokens in enumerate(cues):
        lines = _lines(texts[c], tokens)
        if c > 0 and lines and prev_lines:
            prev = cues[c - 1]
            keys = [_key(tokens, line) for line in lines[:WINDOW]]
            low = max(0, len(prev_lines) - WINDOW)
            prev_keys = [_key(prev, line) for line in prev_lines[low:]]
            k, s = _run_at(keys, prev_keys)
            pairs = [(i, j) for n in range(k) for i, j in zip(lines[n], prev_lines[low + s + n])]
            # the line after the run, grown by the words spoken since: word-level layout only, and after a run
            # of whole lines or from a cue before of one line (its first words: "An" then "And there will")
            if k < len(lines) and _TIMING_RE.search(texts[c]) is not None and (k or len(prev_lines) == 1):
                at = low + s + k if k else 0
                if at < len(prev_lines):
                    pairs += _grown(prev, prev_lines[at], tokens, lines[k])
            if any(tokens[i].is_word for i, _ in pairs):
                count = pairs[-1][0] + 1
                out[c] = Rolled(count, sum(1 for t in tokens[:count] if t.is_word),
                                tuple(shared.setdefault(p, p) for p in pairs if tokens[p[0]].is_word))
        prev_lines = lines
    return out


def without_rolled(cues: Sequence[Sequence[Token]], rolled: Sequence[Rolled | None]) -> list[Sequence[Token]]:
    """The token lists the model reads: each cue without its repeated top lines."""
    return [tokens if r is None else tokens[r.tokens:] for tokens, r in zip(cues, rolled)]


def with_rolled(casing: DocumentCasing, cues: Sequence[Sequence[Token]],
                rolled: Sequence[Rolled | None]) -> DocumentCasing:
    """``casing`` (of ``without_rolled``'s token lists) for the whole cues: word indices counted from
    each cue's first token again, and every repeated word cased as its first appearance, with the mark
    restored after it there."""
    if not any(rolled):
        return casing
    by_cue: dict[int, list[WordCasing]] = {}
    for w in casing.words:
        r = rolled[w.cue_index]
        by_cue.setdefault(w.cue_index, []).append(
            w if r is None else w._replace(word_index=w.word_index + r.words))
    marks_by_cue: dict[int, list[InsertedMark]] = {}
    for m in casing.marks:
        r = rolled[m.cue_index]
        marks_by_cue.setdefault(m.cue_index, []).append(
            m if r is None else m._replace(word_index=m.word_index + r.words))
    for c, r in enumerate(rolled):
        if r is None:
            continue
        tokens, prev_tokens = cues[c], cues[c - 1]
        word_index = {k: n for n, k in enumerate(i for i, t in enumerate(tokens) if t.is_word)}
        prev = {w.start: w for w in by_cue.get(c - 1, [])}
        prev_marks = {m.offset: m for m in marks_by_cue.get(c - 1, [])}
        copies, mark_copies = [], []
        for i, j in r.pairs:
            tok = tokens[i]
            mark = prev_marks.get(prev_tokens[j].end)
            if mark is not None:
                mark_copies.append(InsertedMark(c, word_index[i], tok.end, mark.prediction))
            first = prev.get(prev_tokens[j].start)
            if first is None or len(first.output) != len(tok.text):
                continue  # a word without letters, or a form that cannot be laid over this one
            copies.append(WordCasing(c, word_index[i], tok.start, tok.end, tok.text, first.output,
                                     first.model_form, first.tag, first.probs, first.convention))
        _written_later(marks_by_cue, c, tokens, prev_tokens, r.pairs[-1])
        by_cue[c] = copies + by_cue.get(c, [])
        if mark_copies:
            marks_by_cue[c] = mark_copies + marks_by_cue.get(c, [])
    out = casing.with_words([w for c in sorted(by_cue) for w in by_cue[c]])
    out.marks = [m for c in sorted(marks_by_cue) for m in marks_by_cue[c]]
    return out


def on_every_copy(places: Sequence[tuple[int, int, str]],
                  copies: Callable[[], Iterable[tuple[tuple[int, int], tuple[int, int]]]]
                  ) -> list[tuple[int, int, str]]:
    """``places`` (cue, start offset of a word, mark to write before it: a Spanish opening mark), each also
    before every other showing of its word, first appearance and repeats, once each; ``copies`` makes
    ``copies_of``'s pairs (read twice).  A restored "?" may end its sentence in a later cue than the line that
    opens it; each showing of that line must still read alike, or it flickers and a second conversion no
    longer finds the roll (issue #56 items 1 and 4)."""
    at = {(c, start) for c, start, _ in places}
    first_of = {copy: first for copy, first in copies() if copy in at}
    showings: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for c, start, _ in places:
        first = first_of.get((c, start), (c, start))
        showings.setdefault(first, [first])
    for copy, first in copies():
        if first in showings:
            showings[first].append(copy)
    out: list[tuple[int, int, str]] = []
    seen: set[tuple[int, int]] = set()
    for c, start, mark in places:
        for showing in showings[first_of.get((c, start), (c, start))]:
            if showing not in seen:
                seen.add(showing)
                out.append((*showing, mark))
    return out


def _written_later(marks_by_cue: dict[int, list[InsertedMark]], c: int, tokens: Sequence[Token],
                   prev_tokens: Sequence[Token], last: tuple[int, int]) -> None:
    """Drop the mark restored after the last word of cue ``c - 1`` where cue ``c`` shows that word again with
    a mark written after it (``last``: the last pair of the roll).  In a live stream a line grows word by
    word, and the recogniser writes the mark after a word with the next words ("program" then "program. But
    before"): the head's guess at the end of the shorter showing ("program,") would flicker, and the two
    showings would no longer read as one line growing (issue #56 items 1 and 4)."""
    i, j = last
    if j + 1 != len(prev_tokens) or i + 1 >= len(tokens):
        return
    after = tokens[i + 1]
    if after.is_word or after.start != tokens[i].end or not classify(after.text):
        return
    end = prev_tokens[j].end
    marks = marks_by_cue.get(c - 1)
    if marks:
        marks_by_cue[c - 1] = [m for m in marks if m.offset != end]


def copies_of(rolled: Sequence[Rolled | None], cues: Sequence[Sequence[Token]]
              ) -> Iterator[tuple[tuple[int, int], tuple[int, int]]]:
    """Each repeated word's first appearance: (cue, start offset of the word), (cue, start offset) of the
    first copy, for the words ``find_rolled`` paired (the review decides a spoken word once), cue by cue.
    A repeat's word stands in the cue before, so only that cue's firsts are held (a three-hour stream has
    300,000 repeats)."""
    before: dict[int, tuple[int, int]] = {}  # the cue before's repeats: start offset -> first appearance
    for c, r in enumerate(rolled):
        here: dict[int, tuple[int, int]] = {}
        if r is not None:
            for i, j in r.pairs:
                start, prev = cues[c][i].start, cues[c - 1][j].start
                here[start] = first = before.get(prev, (c - 1, prev))
                yield (c, start), first
        before = here


__all__ = ["Rolled", "copies_of", "find_rolled", "on_every_copy", "with_rolled", "without_rolled"]
