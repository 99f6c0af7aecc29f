"""Restoring missing punctuation in cues: which cues, and the marks the head reads from the same pass as the
casing.  Casing and punctuation are decided together (a joint pass): the words keep the tags the model gives
them reading the unpunctuated text, and a word after a restored full stop, question or exclamation mark starts
a sentence.  Casing the text again as punctuated text (two stages) was measured and left more errors
(docs/research/2026-11-28-punctuation-head.md)."""

from __future__ import annotations

from enum import Enum
from typing import Iterable, NamedTuple, Sequence

import numpy as np

from subcase.subtitles.marking import OPENING
from subcase.subtitles.words import Token

from .auto import unpunctuated
from .calibration import apply_temperature
from .marks import MARKS, SENTENCE_ENDS, classify, sentence_end_probability
from .punctuation import GraphMarks, MarkPrediction, PunctuationHead


class Punctuate(str, Enum):
    """Where missing punctuation is restored."""

    AUTO = "auto"       # in passages that carry none (``cues_to_restore``)
    ALWAYS = "always"   # after every word without a mark
    NEVER = "never"


# What the app, the commands and the library's functions do unless told otherwise: speech-recognition output
# without punctuation gets it back, and nothing a writer punctuated is touched.
DEFAULT_PUNCTUATE = Punctuate.AUTO

PUNCTUATE_HELP = {
    Punctuate.AUTO: "restore missing punctuation only in passages that carry none",
    Punctuate.ALWAYS: "add marks after any word without one, also in punctuated text",
    Punctuate.NEVER: "never add punctuation",
}

def cues_to_restore(cues: Sequence[Sequence[Token]], punctuate: Punctuate) -> list[bool] | None:
    """Per cue, whether marks may be added after its words; None when none may.  ``auto``: the cues in
    passages without punctuation (``auto.unpunctuated``)."""
    if punctuate is Punctuate.NEVER or not cues:
        return None
    out = [True] * len(cues) if punctuate is Punctuate.ALWAYS else unpunctuated(cues)
    return out if any(out) else None


def restorable(tok: Token) -> bool:
    """Whether ``tok`` is a mark the head may restore, or the Spanish opening mark ("\u00bf", "\u00a1") a restored
    "?" or "!" brings: where marks are restored, the text is read without these (a second conversion then reads
    what the first read, issue #56 item 4)."""
    return not tok.is_word and (bool(classify(tok.text)) or set(tok.text) <= OPENING)


class InsertedMark(NamedTuple):
    """A mark the head puts after a word that had none: where, what, and how sure."""

    cue_index: int
    word_index: int   # index among the cue's words
    offset: int       # where the word ends in the cue text: the mark goes there
    prediction: MarkPrediction


class Restored(NamedTuple):
    """Marks restored in a run of cues: the marks, and the words each restored sentence end makes a
    sentence start, with the head's probability of that end."""

    marks: list[InsertedMark]
    # (cue, word index) of a word after a restored full stop, question or exclamation mark -> P(sentence end)
    starts: dict[tuple[int, int], float]


_OPENERS = frozenset("[(")
_CLOSERS = frozenset("])")
_LABEL_WORDS = 2  # words a speaker label may have ("JOHN SMITH:"); "we said this:" is speech


def quiet_words(tokens: Sequence[Token]) -> set[int]:
    """Token indices of the words no mark may follow: those inside brackets (sound cues and descriptions,
    ``[jaunty piano tune]``) and those of a speaker label (one or two words before a colon at the start
    of the cue or after a dialogue dash).  They are not speech, so the head's reading of speech does not
    apply to them."""
    out: set[int] = set()
    depth = 0
    label: list[int] | None = []  # the words since the cue start or a dash, while they may be a label
    for k, tok in enumerate(tokens):
        if tok.is_word:
            if depth:
                out.add(k)
            if label is not None:
                label.append(k)
                if len(label) > _LABEL_WORDS:
                    label = None
            continue
        if tok.text in _OPENERS:
            depth += 1
        elif tok.text in _CLOSERS:
            depth = max(0, depth - 1)
        elif tok.text == ":" and label:
            out.update(label)
            label = None
        elif tok.text in "-\u2010\u2013\u2014>" and not label:
            label = []  # a dialogue dash or ">>": a label may follow
        else:
            label = None
    return out


def ending_mark(pred: MarkPrediction) -> MarkPrediction:
    """The sentence end the head finds likeliest where one must be (a file's last word): its probability
    stays what the head gave, so a doubtful end is highlighted."""
    best = MARKS[likeliest_end(np.asarray(pred.probs))]
    return pred if pred.mark in SENTENCE_ENDS else MarkPrediction(best, pred.probs)


class MarkChoice(NamedTuple):
    """The head's reading of a run of cues before the marks are written: each word's place, its marks'
    probabilities, the mark chosen after it, and whether that mark is the restorer's to choose."""

    where: list[tuple[int, int, int]]  # (cue, token index, index among the cue's words) of each word, in order
    probs: np.ndarray                  # words x 5, in ``MARKS`` order
    best: list[int]                    # the chosen mark's index in ``MARKS``, per word
    # the restorer writes the mark after the word: its cue is restored, no punctuation is written after it, it
    # is not in brackets or a speaker label, and no bracket follows it
    free: list[bool]
    # the marks' calibration (``head.temperature``), applied to the probabilities the restored marks report;
    # ``probs`` stay as the head gives them, for the choices made on them (``casing.agreement``'s thresholds)
    temperature: float = 1.0


def choose_marks(head: GraphMarks | PunctuationHead, cues: Sequence[Sequence[Token]], restore: Sequence[bool],
                 hidden: np.ndarray | Iterable[np.ndarray], file_end: bool = False) -> MarkChoice:
    """The likeliest mark after each word of the cues, from ``hidden``: the graph's ``head.output`` at every
    word of the cues, in order (the pass that gives their tags; the encoder's last hidden state for a numpy
    head, the marks themselves for a joint model), as one array or in consecutive chunks
    (``CasingEngine.word_output_chunks``: a long file is never held whole).  With ``file_end`` (the cues end
    the file) the last word ends a sentence."""
    where = [(c, k, w) for c, tokens in enumerate(cues)
             for w, k in enumerate(k for k, t in enumerate(tokens) if t.is_word)]
    if not where:
        return MarkChoice([], np.zeros((0, len(MARKS)), np.float32), [], [])
    ends = np.zeros(len(where), bool)
    for j in range(len(where)):
        ends[j] = j + 1 == len(where) or where[j + 1][0] != where[j][0]
    probs = head.streamed([hidden] if isinstance(hidden, np.ndarray) else hidden, ends)
    best = probs.argmax(1).tolist()
    if file_end and MARKS[best[-1]] not in SENTENCE_ENDS:
        best[-1] = likeliest_end(probs[-1])
    quiet = {c: quiet_words(cues[c]) for c in range(len(cues)) if restore[c]}
    free = []
    for c, k, _ in where:
        tokens = cues[c]
        after = tokens[k + 1] if k + 1 < len(tokens) else None
        free.append(bool(restore[c]) and k not in quiet[c] and
                    (after is None or after.is_word or not classify(after.text) and after.text not in _OPENERS))
    return MarkChoice(where, probs, best, free, head.temperature)


def likeliest_end(probs: np.ndarray) -> int:
    """The index in ``MARKS`` of the likeliest sentence end in a word's mark probabilities."""
    return max((k for k, m in enumerate(MARKS) if m in SENTENCE_ENDS), key=lambda k: float(probs[k]))


def restored_marks(choice: MarkChoice, cues: Sequence[Sequence[Token]], restore: Sequence[bool]) -> Restored:
    """The marks ``choice`` puts after the words of the cues marked in ``restore``.  A word already followed
    by punctuation keeps it; words in brackets and speaker labels get none (``quiet_words``)."""
    where, probs, best = choice.where, choice.probs, choice.best
    if choice.temperature != 1.0:  # calibrated as the tags are: a mark's probability means what it says
        probs = apply_temperature(probs, choice.temperature)  # (a temperature keeps each word's likeliest mark)
    quiet = {c: quiet_words(cues[c]) for c in range(len(cues)) if restore[c]}
    inserted: list[InsertedMark] = []
    starts: dict[tuple[int, int], float] = {}
    for j, (c, k, w) in enumerate(where):
        tokens = cues[c]
        if not restore[c] or not MARKS[best[j]] or k in quiet[c]:
            continue
        written = classify(tokens[k + 1].text) if k + 1 < len(tokens) and not tokens[k + 1].is_word else ""
        p = probs[j].tolist()
        pred = MarkPrediction(MARKS[best[j]], (p[0], p[1], p[2], p[3], p[4]))
        if not written:
            if k + 1 < len(tokens) and tokens[k + 1].text in _OPENERS:
                continue  # "said [laughs] well": the mark, if any, belongs after the bracket, not before it
            inserted.append(InsertedMark(c, w, tokens[k].end, pred))
        elif written != pred.mark:
            continue  # written punctuation stays as it is
        # a sentence end the head reads, restored or written so: the next word starts a sentence (the model read
        # the words without the written marks, so a second conversion finds its own full stops so too)
        if pred.mark in SENTENCE_ENDS and j + 1 < len(where):
            nc, _, nw = where[j + 1]
            starts[(nc, nw)] = sentence_end_probability(pred.probs)
    return Restored(inserted, starts)


def marks_from_hidden(head: GraphMarks | PunctuationHead, cues: Sequence[Sequence[Token]],
                      restore: Sequence[bool], hidden: np.ndarray | Iterable[np.ndarray],
                      file_end: bool = False) -> Restored:
    """``restored_marks`` of ``choose_marks``: the head's likeliest marks, as it reads them (without the
    casing's say: ``casing.agreement`` weighs both)."""
    return restored_marks(choose_marks(head, cues, restore, hidden, file_end), cues, restore)
