"""Auto mode: decide, passage by passage, whether the input's casing carries information.

What post-editors receive is rarely cleanly lower-cased: speech recognition
drops into "no capitals, no punctuation" partway through a file, broadcast
captions are in capitals, and many files are already cased by a person.
Restoring everything throws away correct capitals; keeping everything leaves
the lower-case and capitals parts as they are.  So each cue is read for what
its letters say:

- written in lower case (no capital at all);
- written in capitals (``modes.is_caps_line`` over its words, the rule caps
  mode uses, so both modes agree on what a capitals line is);
- written with real casing (capitals and lower case, not in capitals);
- nothing to go by (no letters, or one capital letter alone: "I", "A").

Consecutive cues of one kind form a passage (cues with nothing to go by go
with the passage around them).  A lower-case passage is restored when the
evidence says the casing is missing rather than written that way: the whole
file has no real casing; or the passage is long (``MIN_CUES`` cues and
``MIN_WORDS`` words) without any punctuation, as speech recognition writes
it; or it writes the pronoun "i", or two sentence starts, in lower case.  A
person's file has lower-case cues that continue a sentence ("and then we
will help you / inform your staff, educate your staff,"), lists after a
colon, sound cues ("[jaunty piano tune]") and the odd credit line after a
full stop, and those are kept.  A capitals passage is recased (as caps mode
recases a capitals line) when the file has no real casing, or when it is
long by the same measure: a shouted "NO!" or a sign in a cased file is
written so on purpose, and so is a capitals passage with punctuation (a final
interview written in capitals), however long: only a long one without
punctuation is recased.  The model's sure capitals in a short lower-case part
are no reason to change a person's file: the part is kept and those words
flagged with the model's form.

Casing that carries no signal is restored, not kept: in a stretch without
punctuation (``unpunctuated``), where cues do not start with capitals and the
input writes capitals the model doubts ("no AIDS whatsoever", "a very Rocky
release": older speech recognition capitalises names and random words alike),
the cased cues are restored too, with the reason (``reasons``).

Everything else is kept as written; there the model's disagreements are shown
for review, not applied (``DocumentCasing.disagrees``).
"""

from __future__ import annotations

from enum import Enum
from typing import Mapping, Sequence

from subcase.subtitles.words import Token

from .marks import classify, ends_sentence_firmly
from .modes import is_caps_line


class Passage(str, Enum):
    RESTORE = "restore"  # written in lower case: every word takes the model's form
    CAPS = "caps"        # written in capitals: recased as caps mode recases a capitals line
    KEEP = "keep"        # written with real casing: kept, the model's disagreements flagged


NOTES = {
    Passage.RESTORE: "lower case, restored",
    Passage.CAPS: "capitals, recased",
    Passage.KEEP: "cased, kept",
}

MIN_CUES = 3    # a lower-case or capitals passage at least this long (and MIN_WORDS) is not a person's choice
MIN_WORDS = 10
EVIDENCE = 0.9  # the model's confidence in a capital a kept word lacks, for the word to be flagged
_ENDS = {".", "!", "?"}
_MARKS = _ENDS | {",", ";", ":"}
_OPEN = {"[", "("}
PRONOUN_I = {"i", "i'm", "i'll", "i've", "i'd", "i\u2019m", "i\u2019ll", "i\u2019ve", "i\u2019d"}

_LOWER, _CAPS, _CASED = "lower", "caps", "cased"


def _kind(tokens: Sequence[Token]) -> str | None:
    words = [t.text for t in tokens if t.is_word]
    letters = [c for w in words for c in w if c.lower() != c.upper()]
    if not letters:
        return None
    upper = sum(c.isupper() for c in letters)
    if upper == 0:
        return _LOWER
    if is_caps_line(words):
        return _CAPS
    if upper == len(letters):
        return None  # one capital letter alone says nothing
    return _CASED


def _lower_evidence(cues: Sequence[Sequence[Token]], run: list[int], before_ends: bool) -> bool:
    """A lower-case passage writes the pronoun "i", or two sentence starts, in lower case.  A word
    after an opening bracket is a sound cue's, which house styles write in lower case."""
    at_start = before_ends
    starts = 0
    for c in run:
        tokens = cues[c]
        for k, tok in enumerate(tokens):
            if tok.is_word:
                if tok.text in PRONOUN_I:
                    return True
                if at_start and any(ch.isalpha() for ch in tok.text):
                    starts += 1
                    if starts >= 2:
                        return True
                at_start = False
            elif ends_sentence_firmly(tokens, k):
                at_start = True
            elif tok.text in _OPEN or tok.text == ".":
                at_start = False  # a sound cue, or an ellipsis: the sentence may go on
    return False


def _unpunctuated_parts(cues: Sequence[Sequence[Token]], run: list[int]) -> list[list[int]]:
    """The runs of cues without sentence or clause punctuation (what speech recognition gives) in ``run``."""
    parts: list[list[int]] = [[]]
    for c in run:
        if any(not t.is_word and t.text in _MARKS for t in cues[c]):
            parts.append([])
        else:
            parts[-1].append(c)
    return [part for part in parts if part]


def decide(cues: Sequence[Sequence[Token]], doubted: Sequence[Sequence[str]] | None = None) -> list[Passage]:
    """The passage decision for every cue (token lists of a whole file, in order); ``decide_why`` with
    the reasons left out."""
    return decide_why(cues, doubted)[0]


def decide_why(cues: Sequence[Sequence[Token]],
               doubted: Sequence[Sequence[str]] | None = None) -> tuple[list[Passage], dict[int, str]]:
    """The passage decision for every cue (token lists of a whole file, in order), and why, for the cues
    whose reason is more than their letters (``NOTES``): restored casing without signal, or capitals kept
    as written on purpose (``capitals_on_purpose``).  ``doubted[c]``, when the model has read the cues:
    the words cue c writes with a capital that the model writes otherwise."""
    kinds = [_kind(tokens) for tokens in cues]
    out: list[Passage | None] = [None] * len(cues)
    cased_file = _CASED in kinds
    reasons: dict[int, str] = {}
    on_purpose = capitals_on_purpose(cues, kinds) if cased_file else {}
    if cased_file and doubted is not None:
        reasons = _unsignalled(cues, kinds, doubted, on_purpose)
        for c in reasons:
            out[c] = Passage.RESTORE
    reasons.update(on_purpose)
    lettered = [c for c, k in enumerate(kinds) if k is not None]
    i = 0
    while i < len(lettered):
        kind = kinds[lettered[i]]
        j = i
        while j + 1 < len(lettered) and kinds[lettered[j + 1]] == kind:
            j += 1
        run = lettered[i:j + 1]
        decision = Passage.KEEP
        if kind == _LOWER:
            prev = cues[lettered[i - 1]] if i > 0 else None
            before_ends = prev is None or ends_sentence_firmly(prev, len(prev) - 1)
            if not cased_file or _lower_evidence(cues, run, before_ends):
                decision = Passage.RESTORE
            else:
                for part in _unpunctuated_parts(cues, run):
                    if _long(cues, part):
                        for c in range(part[0], part[-1] + 1):
                            out[c] = Passage.RESTORE
        elif kind == _CAPS and (not cased_file or (_long(cues, run) and not _punctuated(cues, run)
                                                   and run[0] not in on_purpose)):
            decision = Passage.CAPS
        for c in range(run[0], run[-1] + 1):  # with the cues without letters inside the run
            if out[c] is None:
                out[c] = decision
        i = j + 1
    # cues without letters before the first run or after a run go with the run before them
    last = next((p for p in out if p is not None), Passage.KEEP)
    for c, p in enumerate(out):
        if p is None:
            out[c] = last
        else:
            last = p
    return [p if p is not None else Passage.KEEP for p in out], reasons


START_CAPITALS = 0.25  # of the stretches' cues, at most this share may open with a capital for casing to say nothing
MIN_DOUBTED = 3       # distinct words written with a capital the model writes otherwise, at least


def _punctuated(cues: Sequence[Sequence[Token]], run: list[int]) -> bool:
    return any(not t.is_word and t.text in _MARKS for c in run for t in cues[c])


def _unsignalled(cues: Sequence[Sequence[Token]], kinds: Sequence[str | None],
                 doubted: Sequence[Sequence[str]], on_purpose: Mapping[int, str]) -> dict[int, str]:
    """The cues of stretches whose casing carries no signal, with the reason: no punctuation
    (``unpunctuated``), cues that do not open with a capital ("I" aside), and capitals the model doubts.
    Speech recognition of a few years ago writes so: it capitalises names and random words alike
    ("no AIDS whatsoever", "a very Rocky release"), and nothing else.  The stretches of one file come from
    one recogniser, so they are weighed together: under ``START_CAPITALS`` of their cues open with a
    capital, and ``MIN_DOUBTED`` distinct words or more carry a capital the model doubts (one doubted
    acronym in a punctuated file's long unpunctuated sentence is no pattern).  Capitals written on purpose
    (``on_purpose``) are neither doubts nor restored."""
    flat = unpunctuated(cues)
    stretches: list[list[int]] = []
    c = 0
    while c < len(cues):
        if not flat[c]:
            c += 1
            continue
        end = c
        while end < len(cues) and flat[end]:
            end += 1
        stretch = [k for k in range(c, end) if kinds[k] is not None]
        if any(kinds[k] == _CASED for k in stretch):
            stretches.append(stretch)
        c = end
    lettered = [k for stretch in stretches for k in stretch if k not in on_purpose]
    opening = [next((t.text for t in cues[k] if t.is_word and any(ch.isalpha() for ch in t.text)), "")
               for k in lettered]
    capital_starts = sum(1 for w in opening if w[:1].isupper() and w.lower() not in PRONOUN_I)
    doubts = list(dict.fromkeys(w for k in lettered for w in doubted[k]))
    if len(doubts) < MIN_DOUBTED or capital_starts > START_CAPITALS * len(lettered):
        return {}
    shown = ", ".join(f"'{w}'" for w in doubts[:3])
    reason = (f"no punctuation, no capitals at cue starts, and capitals the model doubts ({shown}): "
              "the casing carries no signal, restored")
    return {k: reason for stretch in stretches for k in range(stretch[0], stretch[-1] + 1) if k not in on_purpose}


ON_PURPOSE = "written in capitals on purpose"  # how the reason of ``capitals_on_purpose`` begins
ASIDES = 2  # consecutive cues of sound cues alone ("(laughs)") that a passage in capitals may run across


def has_real_casing(cues: Sequence[Sequence[Token]]) -> bool:
    """Whether a cue of the file is written with real casing (capitals and lower case, not in capitals)."""
    return any(_kind(tokens) == _CASED for tokens in cues)


def capitals_on_purpose(cues: Sequence[Sequence[Token]], kinds: Sequence[str | None]) -> dict[int, str]:
    """The cues in capitals of the passages a cased file writes in capitals on purpose, with the reason: at least
    ``MIN_CUES`` cues in capitals, with punctuation (a documentary's final interview).  A passage runs across
    up to ``ASIDES`` consecutive cues of sound cues alone ("(laughs)", "[sighs]"), which its writer puts in
    their own case: so one sentence over three cues between two of them is not a run of its own, long and
    unpunctuated, to recase."""
    out: dict[int, str] = {}
    passage: list[int] = []
    asides = 0

    def close() -> None:
        if len(passage) >= MIN_CUES and _punctuated(cues, passage):
            reason = f"{ON_PURPOSE} ({len(passage)} cues with punctuation), kept"
            out.update((c, reason) for c in passage)

    for c, kind in enumerate(kinds):
        if kind is None:
            continue
        if kind == _CAPS:
            passage.append(c)
            asides = 0
        elif passage and asides < ASIDES and _aside(cues[c]):
            asides += 1
        else:
            close()
            passage, asides = [], 0
    close()
    return out


def _aside(tokens: Sequence[Token]) -> bool:
    """Every word of the cue is inside brackets or parentheses: a sound cue alone."""
    depth = 0
    for tok in tokens:
        if tok.is_word and depth == 0:
            return False
        if not tok.is_word:
            depth += tok.text in _OPEN
            depth -= tok.text in ("]", ")") and depth > 0
    return True


def mode_of_cue(mode: str, passages: Sequence[Passage] | None, cue_index: int) -> str:
    """The mode new text typed into cue ``cue_index`` is cased in: in auto mode, what the cue's passage
    was decided to be when the file was opened.  Deciding again from the cue's neighbours would read
    them as they stand after casing (restored, so written with real casing), and keep text typed in
    lower case into a passage that was restored."""
    if mode != "auto" or passages is None or not 0 <= cue_index < len(passages):
        return mode
    return {Passage.RESTORE: "restore", Passage.CAPS: "caps", Passage.KEEP: "auto"}[passages[cue_index]]


def _long(cues: Sequence[Sequence[Token]], run: list[int]) -> bool:
    return len(run) >= MIN_CUES and sum(1 for c in run for t in cues[c] if t.is_word) >= MIN_WORDS


# A passage without punctuation, for restoring marks: a run of at least this many cues with words and this
# many words, none of them with a sentence-ending or comma mark.
UNPUNCTUATED_MIN_CUES = 8
UNPUNCTUATED_MIN_WORDS = 60


def unpunctuated(cues: Sequence[Sequence[Token]]) -> list[bool]:
    """For every cue (token lists of a whole file, in order): whether it lies in a passage without
    punctuation, where ``--punctuate auto`` may restore marks.

    Read as ``decide`` reads casing, by what the text says of itself.  A file with no sentence or clause
    mark anywhere is speech recognition's output, or written so throughout: every cue is unpunctuated,
    however short the file.  Otherwise the file is punctuated by a person, and what counts is a run of
    cues without any ``. ! ? , ; :`` or ellipsis (``casing.marks.classify``'s marks): such a run is a
    passage without punctuation only when it is long, ``UNPUNCTUATED_MIN_CUES`` cues with words and
    ``UNPUNCTUATED_MIN_WORDS`` words.  The bar is higher than the one ``decide`` sets for lower case,
    because unmarked cues are ordinary in punctuated subtitles: a sentence runs over two or three cues
    with its only mark at the end, a reply is "yes" or "ok" alone, sound cues ("[door slams]"), song
    lines, names and titles in credits take no mark.  A person's run of unmarked cues ends where the
    sentence does; speech recognition that drops its punctuation drops it for minutes at a time, so a
    high bar loses little there and keeps a person's choices in the rest.  Cues without words neither
    count towards a run nor end it.
    """
    marked = [any(not t.is_word and classify(t.text) for t in tokens) for tokens in cues]
    if not any(marked):
        return [True] * len(cues)
    out = [False] * len(cues)
    run: list[int] = []
    for c in range(len(cues) + 1):
        if c < len(cues) and not marked[c]:
            run.append(c)
            continue
        lettered = [i for i in run if any(t.is_word for t in cues[i])]
        words = sum(1 for i in lettered for t in cues[i] if t.is_word)
        if len(lettered) >= UNPUNCTUATED_MIN_CUES and words >= UNPUNCTUATED_MIN_WORDS:
            for i in run:
                out[i] = True
        run = []
    return out


def short_passages(passages: Sequence[Passage]) -> set[int]:
    """The cues of passages restored or recased that are under ``MIN_CUES`` cues long, in a file with a
    kept passage: there the change rests on thin evidence, and the editor is shown it."""
    if Passage.KEEP not in passages:
        return set()
    out: set[int] = set()
    c = 0
    while c < len(passages):
        if passages[c] is Passage.KEEP:
            c += 1
            continue
        end = c
        while end < len(passages) and passages[end] is passages[c]:
            end += 1
        if end - c < MIN_CUES:
            out.update(range(c, end))
        c = end
    return out


UNSIGNALLED = "cased without signal, restored"  # the note of the cues ``decide_why`` gives a reason


def summary(passages: Sequence[Passage], unsignalled: int = 0) -> str:
    """One line for the status bar and --details: how many cues each decision took (``unsignalled`` of the
    restored ones were written with casing that carries no signal)."""
    counts = {p: 0 for p in Passage}
    for p in passages:
        counts[p] += 1
    counts[Passage.RESTORE] -= unsignalled
    parts = [f"{counts[p]} cue(s) {NOTES[p]}" for p in Passage if counts[p]]
    if unsignalled:
        parts.insert(1 if counts[Passage.RESTORE] else 0, f"{unsignalled} cue(s) {UNSIGNALLED}")
    return "auto: " + ", ".join(parts) if passages else "auto: no cues"


__all__ = ["EVIDENCE", "MIN_CUES", "MIN_WORDS", "NOTES", "PRONOUN_I", "MIN_DOUBTED", "Passage", "START_CAPITALS", "UNPUNCTUATED_MIN_CUES",
           "UNPUNCTUATED_MIN_WORDS", "UNSIGNALLED", "ASIDES", "ON_PURPOSE", "capitals_on_purpose", "decide", "decide_why", "has_real_casing", "mode_of_cue", "short_passages", "summary", "unpunctuated"]
