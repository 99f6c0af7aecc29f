"""Load, case, apply: the one path from a subtitle file to its recased document.

``subcase convert`` (through ``subcase.batch``), the editor's loading worker
and ``subcase bench`` all case files through ``case_file``, so what the
editor shows is exactly what the command line writes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import groupby
from operator import attrgetter
from pathlib import Path
from typing import Iterable, Iterator

from subcase.subtitles import Cue, Document, ass, formats, load
from subcase.subtitles.marking import MarkEdit
from subcase.subtitles.words import Token

from .copies import WordCopies
from .engine import CasingEngine, OnProgress, ShouldCancel
from .gcpause import paused_gc
from .joined import join_words, split_words
from .modes import DEFAULT, Mode
from .pauses import pauses_of
from .restoring import DEFAULT_PUNCTUATE, InsertedMark, Punctuate
from .rolling import Rolled, copies_of, find_rolled, on_every_copy, with_rolled, without_rolled
from .hints import CueHints
from .routing import case_by_language
from .stream import DocumentCasing, WordCasing, line_numbers
from .typesetting import FRENCH, SPANISH, cue_languages, french_space, spanish_openings, written_mark


@dataclass
class CasedFile:
    doc: Document            # with the casing applied
    casing: DocumentCasing   # every word's prediction, offsets into the cue texts
    changed: int             # words whose form changed


def case_file(engine: CasingEngine, path: Path | str, mode: Mode | str = DEFAULT,
              progress: OnProgress | None = None, cancel: ShouldCancel | None = None,
              lang: str = "auto", punctuate: Punctuate | str = DEFAULT_PUNCTUATE,
              encoding: str | None = None) -> CasedFile:
    """Read a subtitle file, case it and apply the casing.  SubtitleError for a bad
    file; CasingCancelled when ``cancel`` says so (nothing is returned then).
    ``encoding``: the file's text encoding, instead of detecting it (``--encoding``).
    ``lang``: "auto" detects the language of the file and of each cue (casing/language.py);
    ``punctuate``: where missing marks are restored (casing/restoring.py)."""
    return case_loaded(engine, load(path, encoding), mode, progress, cancel, lang, punctuate)


def case_loaded(engine: CasingEngine, doc: Document, mode: Mode | str = DEFAULT,
                progress: OnProgress | None = None, cancel: ShouldCancel | None = None,
                lang: str = "auto", punctuate: Punctuate | str = DEFAULT_PUNCTUATE,
                keep_signs: bool = True) -> CasedFile:
    """``case_file`` for a document read already; ``keep_signs``: ASS signs and songs keep their letters
    (``signs_as_written``)."""
    casing = write_marks(doc, case_document(engine, doc, mode, progress, cancel, lang, punctuate, keep_signs))
    return CasedFile(doc, casing, apply_casing(doc, casing))


def case_document(engine: CasingEngine, doc: Document, mode: Mode | str = DEFAULT,
                  progress: OnProgress | None = None, cancel: ShouldCancel | None = None,
                  lang: str = "auto", punctuate: Punctuate | str = DEFAULT_PUNCTUATE,
                  keep_signs: bool = True) -> DocumentCasing:
    """Case a document's cues as one stream; markup is never seen by the model.  ASS signs and songs are
    kept as written unless ``keep_signs`` is False (``signs_as_written``).  Cues in
    a language the model cannot case get the rules of casing/rules.py instead.  A word broken by
    inline tags is cased as one (casing/joined.py); a line a rolling caption repeats is read
    once and cased as it was first (casing/rolling.py).  In a format whose captions are written in capitals
    by convention (SCC, EBU STL: ``Format.all_caps``), auto mode recases them as caps mode does: there,
    capitals with punctuation are the format's habit, not a person's choice to keep."""
    mode = Mode(mode)
    if mode is Mode.AUTO and formats.get(doc.format).all_caps:
        mode = Mode.CAPS
    casing = _case_once(engine, doc, mode, progress, cancel, lang, Punctuate(punctuate), keep_signs)
    return _as_the_output_reads(engine, doc, casing, lang, Punctuate(punctuate), keep_signs, cancel)


def _rolled(doc: Document) -> tuple[list[list[Token]], list[Rolled | None]]:
    """The cues' tokens with words broken by inline tags joined (casing/joined.py), and their rolled lines."""
    whole = [join_words(cue.text, cue.tokens())[0] for cue in doc.cues]
    return whole, find_rolled([cue.text for cue in doc.cues], whole)


def _case_once(engine: CasingEngine, doc: Document, mode: Mode, progress: OnProgress | None,
               cancel: ShouldCancel | None, lang: str, punctuate: Punctuate, keep_signs: bool) -> DocumentCasing:
    """``case_document``'s reading of the text as it stands."""
    with paused_gc():
        joined = [join_words(cue.text, cue.tokens()) for cue in doc.cues]
        whole = [tokens for tokens, _ in joined]
        rolled = find_rolled([cue.text for cue in doc.cues], whole)
        token_lists = without_rolled(whole, rolled)
        lines = [line_numbers(cue.text, toks) for cue, toks in zip(doc.cues, token_lists)]
        hints = CueHints(lines=lines, pauses=pauses_of(doc.cues), rolled=[r is not None for r in rolled])
        casing = case_by_language(engine, token_lists, hints, mode, lang, progress, cancel, punctuate)
        out = _sure_letters_only(split_words(with_rolled(casing, whole, rolled), [joins for _, joins in joined]),
                                 doc.uncertain)
        out.copies = _copies_by_index(out, copies_of(rolled, whole))
        return signs_as_written(doc, out) if keep_signs else out


# The modes whose output is the model's reading of the text (restore; keep, which only raises letters to it): a
# second conversion of their output reads it again, restored marks in, and must find the same forms.
_READ_AGAIN = (Mode.RESTORE, Mode.KEEP)


def _as_the_output_reads(engine: CasingEngine, doc: Document, casing: DocumentCasing, lang: str,
                         punctuate: Punctuate, keep_signs: bool, cancel: ShouldCancel | None) -> DocumentCasing:
    """``casing`` (restore or keep mode, marks restored), with each word whose form the output, read again, does
    not give taken from that reading: converting the output again then changes no byte (issue #56, item 4).

    The words are cased from the text without the marks the head restores (restoring.py), and a second
    conversion reads the output with them, as punctuation someone wrote: a word after a restored comma that the
    first reading took for a sentence start at a cue start ("Boon, He's") is lower case to the second; the
    pauses that start sentences in text without punctuation no longer count.  Only the words whose form differs
    take the second reading (its tag and probabilities): the others keep the first, whose confidence is the
    joint reading's and whose capital after a restored full stop belongs to that mark (the review lowers it with
    the mark, ``review.actions.positional_capital``).  Auto mode needs none of this: a second conversion keeps
    the punctuated text its first restored."""
    if casing.mode not in _READ_AGAIN or not casing.marks:
        return casing
    output = doc.copy()
    apply_casing(output, write_marks(output, casing))
    again = {(w.cue_index, w.word_index): w
             for w in _case_once(engine, output, casing.mode, None, cancel, lang, punctuate, keep_signs).words}
    words = []
    for w in casing.words:
        read = again.get((w.cue_index, w.word_index))
        if read is None or read.input != w.output or read.output == w.output:
            words.append(w)  # the same form (or, where the marks split a word differently, the first reading)
        else:
            words.append(w._replace(output=read.output, model_form=read.model_form, tag=read.tag, probs=read.probs))
    return casing.with_words(words)


def _copies_by_index(casing: DocumentCasing, first: Iterable[tuple[tuple[int, int], tuple[int, int]]]
                     ) -> WordCopies:
    """``rolling.copies_of`` by (cue, word index) instead of offsets, which the marks move: a word broken by tags
    is named by its first piece, as the review names it.  A word's index is looked up in its cue's words alone
    (the first appearance is a cue or three back), never in a table of the whole file's."""
    by_cue = casing.by_cue

    @lru_cache(maxsize=16)
    def index(c: int) -> dict[int, int]:
        return {w.start: w.word_index for w in by_cue.get(c, ())}

    def by_index() -> Iterator[tuple[tuple[int, int], tuple[int, int]]]:
        for (c, start), (c0, start0) in first:
            here, there = index(c).get(start), index(c0).get(start0)
            if here is not None and there is not None:
                yield (c, here), (c0, there)

    return WordCopies(by_index())


def signs_as_written(doc: Document, casing: DocumentCasing) -> DocumentCasing:
    """The casing with the words of ASS signs and songs left as written and no marks restored in them: cues
    whose style is named for them, or with karaoke timing or a drawing (``ass.keeps_as_written``).  Their
    letters are the typesetter's design (a sign in capitals, romaji in lower case), not lost casing."""
    if doc.format != "ass":
        return casing
    kept = {c for c, cue in enumerate(doc.cues) if ass.keeps_as_written(cue)}
    if not kept:
        return casing
    words = [w._replace(output=w.input) if w.cue_index in kept else w for w in casing.words]
    out = casing.with_words(words)
    out.marks = [m for m in casing.marks if m.cue_index not in kept]
    return out


def _sure_letters_only(casing: DocumentCasing, uncertain: frozenset[str]) -> DocumentCasing:
    """The casing with every word that would recase a letter the code page guess is unsure of left as its
    input writes it: the document keeps such words so (``Document.recase``), and the forms shown for review
    must be the ones written."""
    if not uncertain:
        return casing
    words = [w._replace(output=w.input) if any(i != o and i in uncertain for i, o in zip(w.input, w.output))
             else w for w in casing.words]
    return casing.with_words(words)


def write_marks(doc: Document, casing: DocumentCasing) -> DocumentCasing:
    """Write the casing's restored marks into ``doc`` (characters inserted, nothing else moves: a mark that ends
    a cue goes inside its closing markup, see subtitles/marking.py) and return the casing with every offset
    moved to the text with the marks in.  A casing without marks, or written already, comes back as it is.

    A mark is written as its cue's language writes it (casing/typesetting.py): in Spanish a restored "?" or "!"
    gets its opening mark at the start of its sentence, in French a no-break space before it (as the file
    spaces its own marks).  Opening marks go in with the rest, so one edit per cue moves the words."""
    if not casing.marks or casing.marks_written:
        return casing
    languages = cue_languages(casing, len(doc.cues))
    space = french_space(doc, languages) if languages and FRENCH in languages else ""
    # Spanish opening marks reach back across cues to where a sentence starts, so there every cue is checked
    # before any is written (under a guessed code page none is: they are not ASCII); elsewhere each cue is
    # written as soon as it is checked, and the places read for its checks (``Cue.mark_places``, some 6 kB a
    # cue of a word-level rolling caption) go with its old text, instead of every cue's being held at once
    # (issue #56 item 5: 120 MB of a 150,000-word rolling file)
    spanish = languages if languages and SPANISH in languages and not doc.page_guessed else None
    kept: list[InsertedMark] = []
    pending: dict[int, list[tuple[int, str]]] = {}
    edits: dict[int, MarkEdit] = {}
    for c, group in groupby(sorted(casing.marks, key=attrgetter("cue_index")), key=attrgetter("cue_index")):
        # a mark the text refuses on its own (after "Jean" of "Jean-Luc", after a word a closing quote and a
        # mark follow) is dropped, not the cue's other marks with it
        ok = [m for m in group if doc.can_insert_mark(c, m.offset, m.prediction.mark)]
        inserts = [(m.offset, written_mark(m.prediction.mark, languages[c], space) if languages
                    else m.prediction.mark) for m in ok]
        if doc.page_guessed:
            # a guessed legacy code page: a non-ASCII mark ("\u00bf", "\u2026", a no-break space) is a byte that
            # may read as a letter in the page the file is really in; ASCII reads the same in all of them
            inserts = [(at, ascii_mark) for at, mark in inserts
                       if (ascii_mark := mark.encode("ascii", "ignore").decode())]
            if not inserts:
                continue  # the cue's marks are dropped with their writing
        if not ok:
            continue
        kept += ok
        if spanish:
            pending[c] = inserts
        else:
            edits[c] = doc.insert_marks(c, inserts)
    if spanish:
        openings = spanish_openings(doc, kept, spanish, casing.restored)
        if openings and len(casing.copies):  # a rolling caption: every showing of the word opens alike
            whole, rolled = _rolled(doc)
            openings = on_every_copy(openings, lambda: copies_of(rolled, whole))
        for c, offset, mark in openings:
            if not doc.cues[c].mark_places().opening_mark(offset)[1] and doc.can_insert_mark(c, offset, mark):
                pending.setdefault(c, []).append((offset, mark))
        edits = {c: doc.insert_marks(c, inserts) for c, inserts in pending.items()}
    words = []
    for w in casing.words:
        edit = edits.get(w.cue_index)
        if edit is not None:
            start, end = edit.shift_span(w.start, w.end)
            w = w._replace(start=start, end=end)
        words.append(w)
    out = casing.with_words(words)
    out.marks = [m._replace(offset=edits[m.cue_index].shift_span(m.offset, m.offset)[1]) for m in kept]
    out.marks_written = True
    return out


def apply_casing(doc: Document, casing: DocumentCasing) -> int:
    """Write every changed word into ``doc``, one pass per cue; returns how many changed."""
    changed = 0
    for c, words in casing.by_cue.items():
        spans = [(w.start, w.end, w.output) for w in words if w.changed]
        doc.recase(c, spans)
        changed += len(spans)
    return changed


CONTEXT_CUES = 2  # cues on each side of an edited cue that the model reads with it


def cue_context(doc: Document, cue_index: int) -> tuple[list[Cue], int]:
    """Copies of a cue and its neighbours, and where the cue is among them: what ``case_cue_text``
    reads, taken on the thread that owns the document."""
    lo, hi = max(0, cue_index - CONTEXT_CUES), min(len(doc.cues), cue_index + CONTEXT_CUES + 1)
    return [replace(c, _tokens=None) for c in doc.cues[lo:hi]], cue_index - lo


def case_cue_text(engine: CasingEngine, context: tuple[list[Cue], int], cue_index: int, text: str,
                  mode: Mode | str = Mode.RESTORE, lang: str = "auto") -> list[WordCasing]:
    """How the model cases ``text`` as the new text of cue ``cue_index``, read with its neighbours
    (``cue_context``: a sentence start, a name across cues); offsets into ``text``."""
    cues, at = context
    cues = [replace(c, _tokens=None) for c in cues]
    cues[at].text = text
    tokens = [c.tokens() for c in cues]
    lines = [line_numbers(c.text, t) for c, t in zip(cues, tokens)]
    with paused_gc():  # the editor's own text: recased, never given marks it did not write
        casing = case_by_language(engine, tokens, CueHints(lines=lines, pauses=pauses_of(cues)), Mode(mode), lang,
                                  punctuate=Punctuate.NEVER)
    return [w._replace(cue_index=cue_index) for w in casing.words if w.cue_index == at]
