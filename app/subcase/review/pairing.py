"""Spanish opening marks that follow the closing mark an editor changes (``actions.SetMark``).

A Spanish question or exclamation is opened as it is closed ("¿...?", "¡...!").  When the editor sets a "?" or
"!" after a word of a Spanish cue, or changes or removes one, the opening mark of its sentence follows in the
same undo step: one is added at the sentence start, "¿" and "¡" are switched, or it goes.

Only an opening mark that pairs with the closing mark being changed is touched: the nearest one in the sentence,
before or at its first word ("pues ¿qué dices?": Spanish opens the question where it begins), and of the old
mark's kind.  That covers every one the restoring wrote (each pairs with its mark) and a writer's own that
pairs; a writer's "¡" in a sentence that ends with "?" belongs to something else, and stays.  A new "?" or "!"
in a sentence that has no opening mark gets one before its first word: the word after the last sentence end
("." "?" "!" "…" written after a word), looking back over at most ``LOOK_BACK_CUES`` cues before the word's
own, as the restoring reads across cues.  A sentence that runs further back than that has no end to go by (a
passage without punctuation), and no opening mark is guessed for it; nor where the text refuses the place.
"""

from __future__ import annotations

from subcase.casing.marks import ends_sentence
from subcase.casing.typesetting import OPENING_OF
from subcase.subtitles import Document, MarkEdit, Token
from subcase.subtitles.marking import existing_mark, opening_mark

LOOK_BACK_CUES = 3


def sentence_of(doc: Document, cue_index: int, word_start: int) -> tuple[list[tuple[int, Token]], bool]:
    """The words of the sentence that ends with the word starting at ``word_start`` in cue ``cue_index``:
    ``(cue, word)``, that word first and back from it; and whether the last of them is known to start the
    sentence (a sentence end before it, or the start of the file), not only where the look-back stopped."""
    out: list[tuple[int, Token]] = []
    lo = max(0, cue_index - LOOK_BACK_CUES)
    for c in range(cue_index, lo - 1, -1):
        text = doc.cues[c].text
        for t in reversed([t for t in doc.cues[c].tokens() if t.is_word and (c < cue_index or t.start <= word_start)]):
            if out and _ends_sentence(text, t):
                return out, True
            out.append((c, t))
    for d in range(lo - 1, -1, -1):  # the word before the look-back: a sentence end there starts this one
        words = doc.cues[d].words()
        if words:
            return out, _ends_sentence(doc.cues[d].text, words[-1])
    return out, True


def _ends_sentence(text: str, word: Token) -> bool:
    return ends_sentence(existing_mark(text, word.end)[1])


def opening_edit(doc: Document, cue_index: int, word_start: int, old: str, new: str) -> MarkEdit | None:
    """The edit of the opening marks that the closing mark after the word starting at ``word_start`` calls for
    when it changes from ``old`` to ``new`` (``casing.marks.MARKS``), in the text with ``new`` written already;
    None when nothing is to change.  The caller checks that the cue is Spanish."""
    if old == new or (old not in OPENING_OF and new not in OPENING_OF):
        return None
    words, known = sentence_of(doc, cue_index, word_start)
    for c, t in words:  # the nearest opening mark, from the word back to the sentence's start
        at, chars = opening_mark(doc.cues[c].text, t.start)
        if not chars:
            continue
        if new in OPENING_OF and OPENING_OF[new] in chars:
            return None  # opened as it is now closed already
        if old not in OPENING_OF or OPENING_OF[old] not in chars:
            return None  # it opens something else: not ours to change
        at += chars.index(OPENING_OF[old])
        return MarkEdit(c, ((at, OPENING_OF[old], OPENING_OF.get(new, "")),))
    if new not in OPENING_OF or not known:
        return None
    c, first = words[-1]
    if not doc.can_insert_mark(c, first.start, OPENING_OF[new]):
        return None
    return MarkEdit(c, ((first.start, "", OPENING_OF[new]),))
