"""How a restored mark is written in its cue's language: Spanish opening marks, French spacing.

The head predicts one mark after a word; some languages write more than that one character.

Spanish opens a question with "¿" and an exclamation with "¡".  A restored "?" or "!" in a Spanish cue gets its
opening mark before the first word of its sentence: the word after the last sentence end before it (a written
or restored ".", "?", "!", "...", "…"), read across cues as the head reads them.  The sentence is only looked
for inside the passage where marks were restored: with ``--punctuate auto`` the cues around it are the
writer's, and an opening mark reaching into them would change text the writer punctuated (and would rest on a
sentence start the head never saw).  A sentence that has an opening mark already (a written "¡" before its
first word, or a "¿" further in: "pues ¿qué dices") is left as it is: Spanish puts the opening mark where the
question begins, and a writer's one says where that is better than the sentence start does.  Where the text
refuses the place (a word glued to the one before, "Jean-Luc"), the opening mark alone is left out: the
closing mark still says what the sentence is.

French writes a no-break space between a word and its "?" or "!" (and ":" ";", which the head does not
predict).  A file already punctuated one way is followed: its spaced marks give the space to use (a plain
space is written as U+00A0, since a renderer may break a line at a plain space and leave the mark alone at the
start of the next line), its tight marks say to write them tight.  A file without any "?" or "!" gets U+00A0,
not the narrow U+202F that newer French typography prefers: U+00A0 is in every 8-bit Western encoding a
subtitle file is saved in (Windows-1252, Latin-1, Latin-9) and in every subtitle font, where U+202F is in
neither.  Commas and full stops are written tight, as French writes them.
"""

from __future__ import annotations

import codecs
from typing import Sequence

from subcase.subtitles import Document
from subcase.subtitles.marking import NO_BREAK, existing_mark
from subcase.subtitles.words import Token

from .marks import EXCLAMATION, QUESTION, SENTENCE_ENDS, classify
from .restoring import InsertedMark

SPANISH = "es"
FRENCH = "fr"
# the opening mark of each closing mark that has one
OPENING_OF = {QUESTION: "\u00bf", EXCLAMATION: "\u00a1"}
NBSP = "\u00a0"
_SPACED = (QUESTION, EXCLAMATION)


def cue_languages(casing, n_cues: int) -> list[str] | None:
    """Each cue's language as the casing knows it, or None when it does not."""
    guess = getattr(casing, "language", None)
    languages = getattr(guess, "cue_languages", None)
    return list(languages) if languages and len(languages) == n_cues else None


def spanish_openings(doc: Document, marks: Sequence[InsertedMark], languages: Sequence[str],
                     restored: Sequence[bool] | None) -> list[tuple[int, int, str]]:
    """``(cue, offset, mark)`` of each opening mark the restored ``marks`` (about to be written, offsets into
    the text as it is) call for in Spanish cues: at the start of the word that opens the sentence of a
    restored "?" or "!".  ``restored[c]``: that cue c lies in a passage where marks were restored (None: all)."""
    if not any(m.prediction.mark in OPENING_OF and languages[m.cue_index] == SPANISH for m in marks):
        return []
    added = {(m.cue_index, m.offset): m.prediction.mark for m in marks}
    out: list[tuple[int, int, str]] = []
    sentence: list[tuple[int, Token]] = []  # the words of the sentence so far, inside the passage
    for c, cue in enumerate(doc.cues):
        inside = restored is None or restored[c]
        if not inside or (c and languages[c] != languages[c - 1]):
            sentence = []  # a passage the writer punctuated, or another language: no sentence runs on through it
        if not inside:
            continue
        text = cue.text
        for t in cue.tokens():
            if not t.is_word:
                continue
            sentence.append((c, t))
            mark = added.get((c, t.end))
            if mark is None:
                mark = classify(existing_mark(text, t.end)[1])
            elif mark in OPENING_OF and languages[c] == SPANISH:
                out += _opening(doc, sentence, OPENING_OF[mark])
            if mark in SENTENCE_ENDS:
                sentence = []
    return out


def _opening(doc: Document, sentence: list[tuple[int, Token]], mark: str) -> list[tuple[int, int, str]]:
    if any(doc.cues[c].mark_places().opening_mark(t.start)[1] for c, t in sentence):
        return []  # the writer opened the question or exclamation already, where it begins
    c, first = sentence[0]
    return [(c, first.start, mark)] if doc.can_insert_mark(c, first.start, mark) else []


def french_space(doc: Document, languages: Sequence[str]) -> str:
    """The space to write before a restored "?" or "!" in the French cues of ``doc`` ("" for none): what the
    file's own French "?" and "!" have before them, most of them (a tie: spaced, as French typography asks),
    U+00A0 when it has none, and nothing when the file's encoding cannot hold the space."""
    tight, spaced = 0, {NBSP: 0, "\u202f": 0}
    for c, cue in enumerate(doc.cues):
        if languages[c] != FRENCH:
            continue
        text = cue.text
        for t in cue.tokens():
            if t.is_word or t.text not in _SPACED or not t.start:
                continue
            k = t.start
            while k > 0 and text[k - 1] in " \u00a0\u202f":
                k -= 1
            if not k or not (text[k - 1].isalnum() or text[k - 1] in "\"'\u00bb)]"):
                continue  # "?!" (the second sign), or a mark on a line of its own: says nothing of spacing
            if k == t.start:
                tight += 1
            else:
                space = text[t.start - 1]
                spaced[space if space in NO_BREAK else NBSP] += 1
    if tight > sum(spaced.values()):
        return ""
    space = "\u202f" if spaced["\u202f"] > spaced[NBSP] else NBSP
    for candidate in (space, NBSP):
        if _encodes(candidate, doc.encoding):
            return candidate
    return ""


def _encodes(ch: str, encoding: str) -> bool:
    try:
        codecs.encode(ch, encoding)
    except (LookupError, UnicodeError):
        return False
    return True


def written_mark(mark: str, language: str, space: str) -> str:
    """The characters a restored ``mark`` is written as after a word of a cue in ``language``; ``space``:
    ``french_space``'s answer for the file."""
    return space + mark if language == FRENCH and mark in _SPACED else mark
