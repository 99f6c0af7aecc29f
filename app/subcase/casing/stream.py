"""Casing cues as one stream of words: a sentence split across cues is cased as one.

The input is each cue's tokens (offsets into its text); the result is one
``WordCasing`` per word with letters, with its offsets, so that applying it
(``pipeline.apply_casing``) changes letter case and nothing else.  Everything
here is linear in the number of tokens, however they are spread over cues.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Mapping, NamedTuple, Sequence

import numpy as np

from subcase.subtitles.words import Token, has_letters, tokenize

from .addresses import host_word_indices
from .capitalised import weigh_capitalised
from .continuations import after_continuation, after_ellipsis, continuing_words, ellipsis_words
from .encoder import BOUNDARY
from .engine import CasingEngine, OnProgress, ShouldCancel, StreamItem, StreamToken, WordPrediction
from .file_start import at_file_start, opening_word
from .gcpause import paused_gc
from .hints import NO_HINTS, CueHints
from .language import LanguageGuess, name
from .lower_case import weigh_lower
from .auto import EVIDENCE, ON_PURPOSE, PRONOUN_I, Passage, decide_why, short_passages
from .auto import summary as auto_summary
from .modes import Mode, is_caps_line, known_mixed, merge_keep
from .pauses import after_pause, opening_words
from .agreement import agree, lower_reading
from .restoring import InsertedMark, MarkChoice, choose_marks, restorable, restored_marks
from .rules import Method, method_note
from .tags import TAGS, Tag, ranked


# Tokens a model pass reads from which the arena it leaves is given back (``CasingEngine.shrink_arena``): after
# a three-hour stream's pass it is 150 MB, held beside the per-word results made next; a film's pass (15,000
# tokens) or an edited cue's is left for the next to reuse.
SHRINK_AFTER = 20_000

DISAGREE = 0.99  # the model's confidence in another form for a kept word to be flagged (auto mode)


class FollowsConvention(NamedTuple):
    """What the file's convention for a word's category says of it (casing/conventions.py)."""

    convention: str       # the convention, described ("the file writes its sound cues in lower case (12 of 12)")
    reason: str | None    # why the word is flagged (the model's form in the file's style is another), or None


class WordCasing(NamedTuple):
    """One word's casing: where it is, what it was, what it becomes and why.  A NamedTuple: immutable as a
    frozen dataclass is, at a third of the cost to make (0.35 against 1.07 us), and a film makes one per word."""

    cue_index: int
    word_index: int      # index among the cue's words
    start: int           # offsets in the cue text
    end: int
    input: str
    output: str          # the form the mode allows
    model_form: str      # the form the model predicts, before the mode
    tag: Tag
    probs: tuple[float, float, float, float]
    # auto mode: the file's convention this word follows (casing/conventions.py), None for most words
    convention: FollowsConvention | None = None

    @property
    def confidence(self) -> float:
        return self.probs[TAGS.index(self.tag)]

    @property
    def changed(self) -> bool:
        return self.output != self.input

    def alternatives(self) -> list[tuple[Tag, float]]:
        """Tags ranked by probability, best first."""
        return ranked(self.probs)


@dataclass
class DocumentCasing:
    words: list[WordCasing]
    mode: Mode
    threshold: float
    by_cue: dict[int, list[WordCasing]] = field(default_factory=dict)
    language: LanguageGuess | None = None          # set by casing/routing.py
    methods: dict[str, Method] = field(default_factory=dict)  # how each language of the file was cased
    passages: list[Passage] | None = None          # auto mode: each cue's decision (casing/auto.py)
    # auto mode: why a cue was decided so, where more than its letters say (``auto.decide_why``)
    reasons: dict[int, str] = field(default_factory=dict)
    _short: set[int] | None = field(default=None, repr=False, compare=False)
    # words broken by inline tags (casing/joined.py): per cue, the word indices of each word's pieces
    joined: dict[int, list[tuple[int, ...]]] = field(default_factory=dict)
    # marks restored after words that had none (casing/restoring.py), in text order; once ``pipeline.write_marks``
    # has written them into the document, ``marks_written`` and every offset is one in the text with the marks
    marks: list[InsertedMark] = field(default_factory=list)
    marks_written: bool = False
    # per cue, whether marks could be restored in it (``restoring.cues_to_restore``); None: every cue with a mark
    # may be (a casing made without routing).  Spanish opening marks never reach before such a passage.
    restored: list[bool] | None = None
    # rolling captions (casing/rolling.py): (cue, word index) of each repeat of a spoken word -> (cue, word index)
    # of its first appearance, which the review decides for all of them
    copies: Mapping[tuple[int, int], tuple[int, int]] = field(default_factory=dict)  # rolling: a ``WordCopies``

    def summary(self) -> str:
        """One line: the file's language and how it was cased (for the status bar, logs and --details)."""
        parts = []
        if self.language is not None:
            parts.append(self.language.describe())
            parts += [f"{name(lang)}: {method_note(m)}" for lang, m in self.methods.items()]
        if self.passages is not None:
            parts.append(auto_summary(self.passages, sum(1 for c in self.reasons if self.passages[c] is Passage.RESTORE)))
        return "; ".join(parts)

    def passage(self, cue_index: int) -> Passage | None:
        """Auto mode's decision for a cue (None in the other modes)."""
        if self.passages is None or not 0 <= cue_index < len(self.passages):
            return None
        return self.passages[cue_index]

    def doubted(self, w: WordCasing) -> str | None:
        """Why a word auto mode changed is shown for review whatever its confidence: its passage is short
        (under ``auto.MIN_CUES`` cues) in a file whose other passages are kept as written, so the evidence
        that its casing was lost is thin; or the word follows the file's convention for its category and the
        model's form in that style is another (``FollowsConvention``, casing/conventions.py).  None when it is not."""
        if w.convention is not None:
            return w.convention.reason
        if not w.changed or self.passages is None or self.passage(w.cue_index) in (None, Passage.KEEP):
            return None
        if self._short is None:
            self._short = short_passages(self.passages)
        if w.cue_index not in self._short:
            return None
        return f"the input writes '{w.input}'; auto mode changed this short passage"

    def passage_reason(self, cue_index: int) -> str | None:
        """Why auto mode decided a cue as it did, where more than its letters say (None otherwise)."""
        return self.reasons.get(cue_index)

    def disagrees(self, w: WordCasing) -> str | None:
        """Why a word kept as written is shown for review: in a passage auto mode kept, the model is sure
        of another form (``DISAGREE`` or more), or writes a capital the input lacks (``auto.EVIDENCE`` or
        more: lost casing in a short lower-case part, never changed there).  A word the file's convention
        governs is judged by it (``FollowsConvention``, casing/conventions.py), and a word in capitals in a
        passage written in capitals on purpose is no disagreement.  None when it is not."""
        if w.convention is not None:
            return w.convention.reason
        if self.passage(w.cue_index) is not Passage.KEEP or w.model_form == w.input:
            return None
        if w.input.isupper() and self.reasons.get(w.cue_index, "").startswith(ON_PURPOSE):
            return None  # the file writes this passage in capitals: only a word written otherwise is in doubt
        if w.confidence < DISAGREE and not (w.confidence >= EVIDENCE and w.tag is not Tag.L and w.input.islower()):
            return None
        return f"the input writes '{w.input}'; the model would write '{w.model_form}'"

    def __post_init__(self) -> None:
        for w in self.words:
            self.by_cue.setdefault(w.cue_index, []).append(w)

    def with_words(self, words: list[WordCasing]) -> DocumentCasing:
        """This casing with other words (the same file: language and methods are kept)."""
        return DocumentCasing(words, self.mode, self.threshold, language=self.language, methods=self.methods,
                              passages=self.passages, reasons=self.reasons, joined=self.joined, marks=self.marks,
                              marks_written=self.marks_written, restored=self.restored, copies=self.copies)

    def cue_texts(self, texts: Sequence[str]) -> list[str]:
        """The given cue texts with every word replaced by its output form and the restored marks in."""
        marks: dict[int, dict[int, str]] = {}
        for m in self.marks if not self.marks_written else ():
            marks.setdefault(m.cue_index, {})[m.offset] = m.prediction.mark
        out = []
        for i, text in enumerate(texts):
            parts, pos = [], 0
            added = marks.get(i, {})
            for w in self.by_cue.get(i, []):  # in text order
                parts += [text[pos:w.start], w.output]
                pos = w.end
                if w.end in added:
                    parts.append(added[w.end])
            out.append("".join(parts) + text[pos:])
        return out


def case_token_lists(engine: CasingEngine, cues: Sequence[Sequence[Token]], mode: Mode = Mode.RESTORE,
                     hints: CueHints = NO_HINTS, progress: OnProgress | None = None,
                     cancel: ShouldCancel | None = None) -> DocumentCasing:
    """Case cues given as token lists (offsets into each cue's text), weighed by what ``hints`` knows of each
    cue (casing/hints.py): ``lines`` for caps mode; ``pauses`` (decided for the whole file by the caller);
    ``capitalised`` and ``lower_case`` (capitalised.py, lower_case.py); ``file_start`` (file_start.py);
    ``rolled``: the model sees no cue boundary before such a cue; ``passages`` (decided from these cues when
    not given); ``restore``: marks may be added after the cue's words (with a model that has a punctuation
    head), then in the result's ``marks``.  The caller pauses the collector (``gcpause``), once.
    """
    line_of, pauses, capitalised, lower_case = hints.lines, hints.pauses, hints.capitalised, hints.lower_case
    file_start, rolled, passages, restore = hints.file_start, hints.rolled, hints.passages, hints.restore
    hosts = {(c, k) for c, tokens in enumerate(cues) for k in host_word_indices(tokens)}
    openers = opening_words(cues, pauses)
    file_opener = opening_word(cues) if file_start else None
    continuing = continuing_words(cues)
    ellipses = ellipsis_words(cues)
    boundary = StreamToken(BOUNDARY, False)  # the model sees where each cue begins
    stream: list[StreamItem] = []
    bounded = [not (rolled and rolled[c] and c > 0) for c in range(len(cues))]
    # Where marks are restored, the model reads the words without the marks written there (``--punctuate
    # always`` in punctuated text): the head was made for text without them, and a second conversion then
    # reads what the first read, so it restores the same marks and adds none (issue #56: idempotence).  Spanish
    # opening marks ("\u00bf", "\u00a1") go with them: they are how a restored "?" or "!" is written.
    bare = restore if restore is not None and engine.punctuation is not None else [False] * len(cues)
    places: list[list[int]] = []  # each token's place in the stream (-1: left out)
    for c, tokens in enumerate(cues):
        if bounded[c]:
            stream.append(boundary)
        row = []
        for tok in tokens:
            if bare[c] and restorable(tok):
                row.append(-1)
                continue
            row.append(len(stream))
            stream.append(tok)
        places.append(row)
    marks: list[InsertedMark] = []
    starts: dict[tuple[int, int], float] = {}
    lowered: dict[tuple[int, int], float] = {}
    choice: MarkChoice | None = None
    if restore is None or engine.punctuation is None:
        preds = engine.predict(stream, progress=progress, cancel=cancel)
    else:  # the marks from the same pass as the tags, read chunk by chunk (a long file is never held whole)
        is_word = np.fromiter((t.is_word for t in stream), dtype=bool, count=len(stream))
        probs = np.zeros((len(stream), len(TAGS)), np.float32)
        mark_output = engine.punctuation.output  # the encoder's hidden state, or a joint model's marks

        def hidden_chunks() -> Iterator[np.ndarray]:
            for lo, hi, (tag_probs, hidden) in engine.word_output_chunks(stream, ("probs", mark_output), progress,
                                                                         cancel):
                probs[lo:hi] = tag_probs
                yield hidden[is_word[lo:hi]]

        choice = choose_marks(engine.punctuation, cues, restore, hidden_chunks(), hints.file_end)
        preds = engine.predictions(stream, probs)
    if len(stream) >= SHRINK_AFTER:
        engine.shrink_arena()

    caps_lines: set[tuple[int, int]] = set()
    if mode is Mode.CAPS:
        lines: dict[tuple[int, int], list[str]] = {}
        for c, tokens in enumerate(cues):
            for k, tok in enumerate(tokens):
                if tok.is_word:
                    lines.setdefault((c, line_of[c][k] if line_of else 0), []).append(tok.text)
        caps_lines = {key for key, ws in lines.items() if is_caps_line(ws)}

    lexicon = getattr(engine, "lexicon", {})
    # each word's prediction in text order, weighed by what the hints know (None: the word is not cased)
    weighed: list[WordPrediction | None] = []
    for c, tokens in enumerate(cues):
        place = places[c]
        for k, tok in enumerate(tokens):
            if not tok.is_word:
                continue
            pred = preds[place[k]]
            if pred is None or not has_letters(tok.text):
                weighed.append(None)
                continue
            if (c, k) in hosts:  # a rule, not the model: host names are lower case (see addresses.py)
                pred = WordPrediction(Tag.L, (1.0, 0.0, 0.0, 0.0))
            elif (c, k) == file_opener:
                pred = at_file_start(pred)
            elif (c, k) in openers:
                pred = after_pause(pred)
            elif (c, k) in continuing:
                pred = after_continuation(pred)
            elif (c, k) in ellipses:
                pred = after_ellipsis(pred)
            if capitalised is not None or lower_case is not None:
                low = tok.text.lower()
                if capitalised is not None and low in capitalised[c]:
                    pred = weigh_capitalised(pred)
                if lower_case is not None and low in lower_case[c]:
                    pred = weigh_lower(pred)
            weighed.append(pred)
    if choice is not None and restore is not None:
        marks, starts, lowered = _settled(choice, weighed, cues, restore)
        del choice  # a long file's per-word lists go before its words are made
    words: list[WordCasing] = []
    j = -1  # the word's place in ``weighed``
    for c, tokens in enumerate(cues):
        w_index = -1  # index among the cue's words
        for k, tok in enumerate(tokens):
            if not tok.is_word:
                continue
            w_index += 1
            j += 1
            pred = weighed[j]
            if pred is None:
                continue
            # last: a restored sentence end is followed by a capital, whatever weighed the word before, and a
            # capital only a sentence start gave goes where the marks start none
            if (c, w_index) in starts and pred.tag is Tag.L:
                pred = sentence_start(starts[(c, w_index)])
            elif (c, w_index) in lowered and pred.tag is Tag.T:
                pred = lower_reading(lowered[(c, w_index)])
            model_form = engine.form(tok.text, pred.tag)
            if mode is Mode.AUTO or mode is Mode.RESTORE:  # auto: chosen below, once the passages are known
                output = model_form
            elif mode is Mode.CAPS:
                line = line_of[c][k] if line_of else 0
                if (c, line) in caps_lines:
                    output = known_mixed(tok.text, getattr(engine, "lexicon", {})) or model_form
                else:
                    output = tok.text
            else:
                output = merge_keep(tok.text, model_form)
            words.append(WordCasing(c, w_index, tok.start, tok.end, tok.text, output, model_form, pred.tag,
                                    pred.probs))
    reasons: dict[int, str] = {}
    if mode is Mode.AUTO:
        if passages is None:
            passages, reasons = decide_why(cues, _doubted(words, len(cues)))
        words = [_auto_output(w, passages[w.cue_index], lexicon, (w.cue_index, w.word_index) in starts)
                 for w in words]
    return DocumentCasing(words, mode, engine.info.review_threshold,
                          passages=list(passages) if passages is not None else None, reasons=reasons, marks=marks)


def _settled(choice: MarkChoice, weighed: Sequence[WordPrediction | None], cues: Sequence[Sequence[Token]],
             restore: Sequence[bool]) -> tuple[list[InsertedMark], dict[tuple[int, int], float],
                                               dict[tuple[int, int], float]]:
    """The marks of ``choice`` settled with the words' weighed casing (casing/agreement.py), then placed: the
    marks, the sentence starts they make and the words to write in lower case, each by (cue, word index)."""
    where = choice.where
    down = agree(choice, weighed, lambda j: cues[where[j][0]][where[j][1]].text.lower())
    lowered = {(where[j][0], where[j][2]): p for j, p in down.items()}
    marks, starts = restored_marks(choice, cues, restore)
    return marks, starts, lowered


def sentence_start(p_end: float) -> WordPrediction:
    """A word the model read as lower case, after a restored sentence end: Title case, as sure as the head is of
    that end (so a capital made by a doubtful full stop is highlighted, and the editor's fix of either is
    one look)."""
    return WordPrediction(Tag.T, (1.0 - p_end, p_end, 0.0, 0.0))


def _doubted(words: list[WordCasing], n_cues: int) -> list[list[str]]:
    """Per cue, the words the input writes with a capital and the model writes otherwise ("I" aside)."""
    out: list[list[str]] = [[] for _ in range(n_cues)]
    for w in words:
        if w.model_form != w.input and not w.input.islower() and w.input.lower() not in PRONOUN_I:
            out[w.cue_index].append(w.input)
    return out


def _auto_output(w: WordCasing, passage: Passage, lexicon: Mapping[str, str], starts: bool = False) -> WordCasing:
    """The word as auto mode writes it in its passage; ``starts``: a restored full stop, question or
    exclamation mark comes before it."""
    if passage is Passage.RESTORE:
        return w  # the model's form, as cased
    if passage is Passage.CAPS:
        return w._replace(output=known_mixed(w.input, lexicon) or w.model_form)
    if starts and w.input[:1].islower():
        # a sentence end restored in kept text starts a sentence there too (a second conversion would
        # otherwise read a lower-case sentence start, as speech recognition writes, and restore it)
        return w._replace(output=w.input[:1].upper() + w.input[1:])
    return w._replace(output=w.input)


def line_numbers(text: str, tokens: Sequence[Token]) -> list[int]:
    """The 0-based line of each token (tokens in text order), in one pass over the text."""
    out, line, pos = [], 0, 0
    for t in tokens:
        line += text.count("\n", pos, t.start)
        pos = t.start
        out.append(line)
    return out


def case_texts(engine: CasingEngine, texts: Sequence[str], mode: Mode = Mode.RESTORE,
               progress: OnProgress | None = None, cancel: ShouldCancel | None = None) -> DocumentCasing:
    """Case plain (markup-free) cue texts as one stream."""
    with paused_gc():
        token_lists = [tokenize(t) for t in texts]
        lines = [line_numbers(t, toks) for t, toks in zip(texts, token_lists)]
        return case_token_lists(engine, token_lists, mode, CueHints(lines=lines), progress, cancel)


__all__ = ["FollowsConvention", "WordCasing", "DocumentCasing", "case_texts", "case_token_lists", "line_numbers", "WordPrediction"]
