"""Casing cues as one stream of words: a sentence split across cues is cased as one.

The input is each cue's tokens (offsets into its text); the result is one
``WordCasing`` per word with letters, with its offsets, so that applying it
(``pipeline.apply_casing``) changes letter case and nothing else.  Everything
here is linear in the number of tokens, however they are spread over cues.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import AbstractSet, Mapping, NamedTuple, Sequence

from subcase.subtitles.words import Token, has_letters, tokenize

from .addresses import host_word_indices
from .capitalised import weigh_capitalised
from .continuations import after_continuation, after_ellipsis, continuing_words, ellipsis_words
from .encoder import BOUNDARY
from .engine import CasingEngine, OnProgress, ShouldCancel, StreamItem, StreamToken, WordPrediction
from .file_start import at_file_start, opening_word
from .gcpause import paused_gc
from .language import LanguageGuess, name
from .lower_case import weigh_lower
from .auto import EVIDENCE, Passage, decide, short_passages
from .auto import summary as auto_summary
from .modes import Mode, is_caps_line, known_mixed, merge_keep
from .pauses import after_pause, opening_words
from .restoring import InsertedMark, marks_from_hidden
from .rules import Method, method_note
from .tags import TAGS, Tag, ranked


DISAGREE = 0.99  # the model's confidence in another form for a kept word to be flagged (auto mode)


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

    def summary(self) -> str:
        """One line: the file's language and how it was cased (for the status bar, logs and --details)."""
        parts = []
        if self.language is not None:
            parts.append(self.language.describe())
            parts += [f"{name(lang)}: {method_note(m)}" for lang, m in self.methods.items()]
        if self.passages is not None:
            parts.append(auto_summary(self.passages))
        return "; ".join(parts)

    def passage(self, cue_index: int) -> Passage | None:
        """Auto mode's decision for a cue (None in the other modes)."""
        if self.passages is None or not 0 <= cue_index < len(self.passages):
            return None
        return self.passages[cue_index]

    def doubted(self, w: WordCasing) -> str | None:
        """Why a word auto mode changed is shown for review whatever its confidence: its passage is short
        (under ``auto.MIN_CUES`` cues) in a file whose other passages are kept as written, so the evidence
        that its casing was lost is thin.  None when it is not."""
        if not w.changed or self.passages is None or self.passage(w.cue_index) in (None, Passage.KEEP):
            return None
        if self._short is None:
            self._short = short_passages(self.passages)
        if w.cue_index not in self._short:
            return None
        return f"the input writes '{w.input}'; auto mode changed this short passage"

    def disagrees(self, w: WordCasing) -> str | None:
        """Why a word kept as written is shown for review: in a passage auto mode kept, the model is sure
        of another form (``DISAGREE`` or more).  None when it is not."""
        if self.passage(w.cue_index) is not Passage.KEEP or w.model_form == w.input or w.confidence < DISAGREE:
            return None
        return f"the input writes '{w.input}'; the model would write '{w.model_form}'"

    def __post_init__(self) -> None:
        for w in self.words:
            self.by_cue.setdefault(w.cue_index, []).append(w)

    def with_words(self, words: list[WordCasing]) -> DocumentCasing:
        """This casing with other words (the same file: language and methods are kept)."""
        return DocumentCasing(words, self.mode, self.threshold, language=self.language, methods=self.methods,
                              passages=self.passages, joined=self.joined, marks=self.marks,
                              marks_written=self.marks_written, restored=self.restored)

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


def case_token_lists(engine: CasingEngine, cues: Sequence[Sequence[Token]], line_of: Sequence[Sequence[int]] | None,
                     mode: Mode = Mode.RESTORE, progress: OnProgress | None = None,
                     cancel: ShouldCancel | None = None, pauses: Sequence[bool] | None = None,
                     capitalised: Sequence[AbstractSet[str]] | None = None,
                     file_start: bool = False,
                     lower_case: Sequence[AbstractSet[str]] | None = None,
                     rolled: Sequence[bool] | None = None,
                     passages: Sequence[Passage] | None = None,
                     restore: Sequence[bool] | None = None,
                     file_end: bool = False) -> DocumentCasing:
    """Case cues given as token lists (offsets into each cue's text).

    ``line_of[c][k]`` is the line number of token k of cue c, used by caps mode;
    ``pauses[c]`` says that a silence comes before cue c, in a file that marks no sentence
    ends (``pauses.for_unpunctuated``, decided for the whole file by the caller);
    ``capitalised[c]``, the words cue c's language writes only capitalised (capitalised.py);
    ``lower_case[c]``, those it writes in lower case wherever no sentence starts (lower_case.py);
    ``file_start``, that the first cue opens the file (file_start.py; not for a run of cues from
    the middle of a file);
    ``rolled[c]``, that cue c goes on with the text of the cue before (a rolling caption whose
    repeated lines were taken out, casing/rolling.py): the model sees no cue boundary there;
    ``passages[c]``, auto mode's decision for cue c (casing/auto.py; decided from these cues when not given);
    ``restore[c]``, that marks may be added after the words of cue c (casing/restoring.py; with a model that
    has a punctuation head), then in the result's ``marks``;
    ``file_end``, that the last cue ends the file: a restored passage there ends a sentence.
    """
    with paused_gc():
        return _case_token_lists(engine, cues, line_of, Mode(mode), progress, cancel, pauses, capitalised,
                                 file_start, lower_case, rolled, passages, restore, file_end)


def _case_token_lists(engine: CasingEngine, cues: Sequence[Sequence[Token]], line_of: Sequence[Sequence[int]] | None,
                      mode: Mode, progress: OnProgress | None, cancel: ShouldCancel | None,
                      pauses: Sequence[bool] | None,
                      capitalised: Sequence[AbstractSet[str]] | None, file_start: bool,
                      lower_case: Sequence[AbstractSet[str]] | None,
                      rolled: Sequence[bool] | None = None,
                      passages: Sequence[Passage] | None = None,
                      restore: Sequence[bool] | None = None,
                      file_end: bool = False) -> DocumentCasing:
    hosts = {(c, k) for c, tokens in enumerate(cues) for k in host_word_indices(tokens)}
    openers = opening_words(cues, pauses)
    file_opener = opening_word(cues) if file_start else None
    continuing = continuing_words(cues)
    ellipses = ellipsis_words(cues)
    boundary = StreamToken(BOUNDARY, False)  # the model sees where each cue begins
    stream: list[StreamItem] = []
    bounded = [not (rolled and rolled[c] and c > 0) for c in range(len(cues))]
    for c, tokens in enumerate(cues):
        if bounded[c]:
            stream.append(boundary)
        stream.extend(tokens)
    marks: list[InsertedMark] = []
    starts: dict[tuple[int, int], float] = {}
    if restore is None or engine.punctuation is None:
        preds = engine.predict(stream, progress=progress, cancel=cancel)
    else:  # the marks from the same pass as the tags
        probs, hidden = engine.word_outputs(stream, ("probs", engine.punctuation.output), progress, cancel)
        preds = engine.predictions(stream, probs)
        marks, starts = marks_from_hidden(engine.punctuation, cues, restore, hidden[[t.is_word for t in stream]],
                                          file_end)

    caps_lines: set[tuple[int, int]] = set()
    if mode is Mode.CAPS:
        lines: dict[tuple[int, int], list[str]] = {}
        for c, tokens in enumerate(cues):
            for k, tok in enumerate(tokens):
                if tok.is_word:
                    lines.setdefault((c, line_of[c][k] if line_of else 0), []).append(tok.text)
        caps_lines = {key for key, ws in lines.items() if is_caps_line(ws)}

    lexicon = getattr(engine, "lexicon", {})
    words: list[WordCasing] = []
    first = 0  # where the cue's tokens start in the stream, after its boundary
    for c, tokens in enumerate(cues):
        first += bounded[c]
        w_index = -1  # index among the cue's words
        for k, tok in enumerate(tokens):
            if not tok.is_word:
                continue
            w_index += 1
            pred = preds[first + k]
            if pred is None or not has_letters(tok.text):
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
            # last: a restored sentence end is followed by a capital, whatever weighed the word before
            if (c, w_index) in starts and pred.tag is Tag.L:
                pred = sentence_start(starts[(c, w_index)])
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
        first += len(tokens)
    if mode is Mode.AUTO:
        if passages is None:
            passages = decide(cues, _capitals(words, len(cues)))
        words = [_auto_output(w, passages[w.cue_index], lexicon) for w in words]
    return DocumentCasing(words, mode, engine.info.review_threshold,
                          passages=list(passages) if passages is not None else None, marks=marks)


def sentence_start(p_end: float) -> WordPrediction:
    """A word the model read as lower case, after a restored sentence end: Title case, as sure as the head is of
    that end (so a capital made by a doubtful full stop is highlighted, and the editor's fix of either is
    one look)."""
    return WordPrediction(Tag.T, (1.0 - p_end, p_end, 0.0, 0.0))


def _capitals(words: list[WordCasing], n_cues: int) -> list[int]:
    """Per cue, the words the model writes with a capital the input lacks, at ``auto.EVIDENCE`` or more."""
    out = [0] * n_cues
    for w in words:
        if w.tag is not Tag.L and w.confidence >= EVIDENCE and w.input.islower():
            out[w.cue_index] += 1
    return out


def _auto_output(w: WordCasing, passage: Passage, lexicon: Mapping[str, str]) -> WordCasing:
    if passage is Passage.RESTORE:
        return w  # the model's form, as cased
    if passage is Passage.CAPS:
        return w._replace(output=known_mixed(w.input, lexicon) or w.model_form)
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
    token_lists = [tokenize(t) for t in texts]
    lines = [line_numbers(t, toks) for t, toks in zip(texts, token_lists)]
    return case_token_lists(engine, token_lists, lines, mode, progress, cancel)


__all__ = ["WordCasing", "DocumentCasing", "case_texts", "case_token_lists", "line_numbers", "WordPrediction"]
