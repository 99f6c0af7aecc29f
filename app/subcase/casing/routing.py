"""Cases each cue by what its language allows: the model, the sentence-start rule, or nothing.

The file's language (and each cue's, casing/language.py) picks the method
(casing/rules.py).  Consecutive cues the model can case go through it as one
stream, so a sentence split across them keeps its context; the other cues get
the rule's forms.  A file whose every cue is in a model language takes the
same single path as before languages were known, so its casing is unchanged.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Mapping, Sequence

from subcase.subtitles.words import Token, has_letters

from .auto import Passage, decide
from .conventions import apply as apply_conventions
from .engine import CasingEngine, OnProgress, ShouldCancel
from .language import LanguageGuess, detect, token_text
from .lower_case import LOWER_CASE
from .modes import Mode
from .pauses import for_unpunctuated
from .restoring import DEFAULT_PUNCTUATE, InsertedMark, Punctuate, cues_to_restore, restorable
from .rules import Method, marks_sentence_ends, method_for, one_hot, rule_form, rule_starts
from .hints import NO_HINTS, CueHints
from .stream import DocumentCasing, WordCasing, case_token_lists
from .tags import tag_of


def case_by_language(engine: CasingEngine, cues: Sequence[Sequence[Token]], hints: CueHints = NO_HINTS,
                     mode: Mode = Mode.RESTORE, lang: str | LanguageGuess = "auto",
                     progress: OnProgress | None = None, cancel: ShouldCancel | None = None,
                     punctuate: Punctuate = DEFAULT_PUNCTUATE) -> DocumentCasing:
    """Case cues (token lists) as ``stream.case_token_lists`` does, by language.

    ``lang`` is "auto" (detect), a language code taken as given, or the ``LanguageGuess`` made already;
    ``hints``: the cues' ``lines``, ``pauses`` and ``rolled`` (casing/hints.py; the rest is found here);
    ``punctuate``, where missing marks are restored (casing/restoring.py).  The caller pauses the collector
    (``gcpause``), once."""
    hints = replace(hints, pauses=for_unpunctuated(cues, hints.pauses), restore=cues_to_restore(cues, punctuate),
                    passages=None, file_start=True, file_end=True)
    # the detector reads the text as the model does: without the marks it may restore, where it restores them
    # (a second conversion finds the languages the first found: "¡mandar," reads as Spanish where "mandar"
    # read as English, issue #56 item 4)
    bare = hints.restore if hints.restore is not None and engine.punctuation is not None else None
    guess = lang if isinstance(lang, LanguageGuess) else \
        detect([token_text([t for t in tokens if not restorable(t)] if bare and bare[c] else tokens)
                for c, tokens in enumerate(cues)], lang, engine.languages[0])
    known = engine.model_languages
    per_cue = [method_for(language, known) for language in guess.cue_languages]
    methods = {language: method_for(language, known)
               for language in [guess.language, *sorted(set(guess.cue_languages) - {guess.language})]}
    main = engine.engine_for(guess.language) or engine  # its threshold is the document's
    if all(m is Method.MODEL for m in per_cue) and len(set(guess.cue_languages)) == 1:
        # auto mode's passages are decided there, with what the model read as evidence
        casing = case_token_lists(main, cues, mode, _for_model(hints, main, guess.cue_languages), progress, cancel)
    else:
        # cues cased by different models or rules: auto mode decides over the whole file from the letters alone
        hints = replace(hints, passages=decide(cues) if mode is Mode.AUTO else None)
        words, marks = _model_runs(engine, cues, mode, per_cue, guess.cue_languages, hints, progress, cancel)
        words += _rule_words(cues, per_cue, hints.passages)
        words.sort(key=lambda w: (w.cue_index, w.start))
        casing = DocumentCasing(words, mode, main.info.review_threshold,
                                passages=list(hints.passages) if hints.passages is not None else None, marks=marks)
    if mode is Mode.AUTO:  # the file's own conventions win over the model (casing/conventions.py)
        casing = apply_conventions(casing, cues, hints.lines, main.form)
    casing.language = guess
    casing.methods = methods
    casing.restored = list(hints.restore) if hints.restore is not None else None
    return casing


def _model_runs(engine: CasingEngine, cues: Sequence[Sequence[Token]], mode: Mode, per_cue: list[Method],
                languages: list[str], hints: CueHints, progress: OnProgress | None,
                cancel: ShouldCancel | None) -> tuple[list[WordCasing], list[InsertedMark]]:
    """Runs of consecutive cues cased by the same model, each run as one stream: their words and restored
    marks."""
    words: list[WordCasing] = []
    marks: list[InsertedMark] = []
    c = 0
    while c < len(cues):
        model = engine.engine_for(languages[c]) if per_cue[c] is Method.MODEL else None
        if model is None:
            c += 1
            continue
        end = c
        while end < len(cues) and per_cue[end] is Method.MODEL and engine.engine_for(languages[end]) is model:
            end += 1
        run = case_token_lists(model, cues[c:end], mode, _for_model(hints.slice(c, end), model, languages[c:end]),
                               progress, cancel)
        words += [WordCasing(w.cue_index + c, w.word_index, w.start, w.end, w.input, w.output, w.model_form, w.tag,
                             w.probs, w.convention) for w in run.words]
        marks += [m._replace(cue_index=m.cue_index + c) for m in run.marks]
        c = end
    return words, marks


def _for_model(hints: CueHints, model: CasingEngine, languages: Sequence[str]) -> CueHints:
    """``hints`` with the words the cues' languages write capitalised or in lower case, as ``model`` knows them."""
    return replace(hints, capitalised=_capitalised(model, languages), lower_case=_lower_case(languages))


def _per_cue(words: Mapping[str, frozenset[str]], languages: Sequence[str]) -> list[frozenset[str]] | None:
    """Each cue's set from ``words`` (by language); None when none of these languages has one."""
    if not any(words.get(language) for language in set(languages)):
        return None
    return [words.get(language, frozenset()) for language in languages]


def _capitalised(model: CasingEngine, languages: Sequence[str]) -> list[frozenset[str]] | None:
    """Each cue's words its language writes only capitalised (casing/capitalised.py), as the model ships them."""
    return _per_cue(model.capitalised, languages)


def _lower_case(languages: Sequence[str]) -> list[frozenset[str]] | None:
    """Each cue's words its language writes in lower case wherever no sentence starts (casing/lower_case.py)."""
    return _per_cue(LOWER_CASE, languages)


def _rule_words(cues: Sequence[Sequence[Token]], per_cue: list[Method],
                passages: Sequence[Passage] | None = None) -> list[WordCasing]:
    # Sentence starts are found over the whole file: a rule cue after a model cue may continue its sentence.
    # Speech-recognition output (no . ! ? anywhere, no capital anywhere) has nothing to go by but cue
    # starts, and raising those is far better than leaving the file in lower case
    # (docs/research/2026-11-23-languages-routing-detection.md); a file with capitals or punctuation keeps them
    # as its only guide.
    asr = not marks_sentence_ends(cues) and \
        not any(ch.isupper() for tokens in cues for t in tokens for ch in t.text)
    initial = rule_starts(cues, cue_starts_sentence=asr)
    words: list[WordCasing] = []
    for c, tokens in enumerate(cues):
        method = per_cue[c]
        if method is Method.MODEL:
            continue
        k = 0
        for tok in tokens:
            if not tok.is_word:
                continue
            if has_letters(tok.text):
                out = rule_form(tok.text, (c, tok.start) in initial, method)
                tag = tag_of(out)
                kept = passages is not None and passages[c] is Passage.KEEP  # auto mode keeps real casing
                words.append(WordCasing(c, k, tok.start, tok.end, tok.text, tok.text if kept else out, out, tag,
                                        one_hot(tag)))
            k += 1
    return words
