"""The document's structure (review/structure.py): computed once per version of its words, held by the
session, read by the flag reasons and the edit log's record context, never keyed on an object's id()."""

from __future__ import annotations

from subcase.casing import DocumentCasing, Tag, WordCasing, apply_casing, apply_tag
from subcase.review import EditText, ReviewState, SetTag, flag_reasons
from subcase.review.flags import FlagContext
from subcase.review.logcontext import record_context
from subcase.review.structure import DocumentStructure, Structure
from subcase.subtitles import loads

SRT = ("1\n00:00:01,000 --> 00:00:02,000\nwe saw it. web pages\n\n"
       "2\n00:00:03,000 --> 00:00:04,000\ni like the Web.\n\n")
UNSURE = (0.40, 0.55, 0.03, 0.02)  # the model's Title guess, under the threshold
SURE = (0.99, 0.005, 0.003, 0.002)


def opened() -> tuple:
    doc = loads(SRT.encode("utf-8"), "talk.srt")
    words = []
    for c, cue in enumerate(doc.cues):
        for k, tok in enumerate(cue.words()):
            tag, probs = (Tag.T, UNSURE) if (c, tok.text) == (1, "Web") else (Tag.L, SURE)
            out = apply_tag(tok.text, tag)
            words.append(WordCasing(c, k, tok.start, tok.end, tok.text, out, out, tag, probs))
    casing = DocumentCasing(words, "restore", 0.9)
    apply_casing(doc, casing)
    return doc, ReviewState.from_casing(len(doc.cues), casing)


def cased_differently(state: ReviewState) -> list[str]:
    return [str(r) for r in flag_reasons(state, (1, 3)) if r.code == "cased_differently"]


def test_the_flag_reasons_see_a_sentence_start_a_text_edit_removed():
    """'web' opens a sentence in cue 1, so its lower case says nothing against 'Web' in cue 2; once
    the editor turns the full stop into a comma it does.  The flag context used to keep the sentence
    starts of the text it first saw."""
    doc, state = opened()
    state.flag_context = FlagContext(doc)
    assert cased_differently(state) == []
    EditText(0, "we saw it, web pages").do(doc, state)
    assert cased_differently(state) == ["cased differently in cue 1 ('web')"]


def test_the_structure_is_computed_again_only_when_the_words_change():
    doc, state = opened()
    owner = DocumentStructure()
    first = owner.of(doc, state)
    assert first.initial[(0, 3)] is True and first.index["web"] == ((0, 3), (1, 3))
    SetTag((0, 3), Tag.U, apply_tag).do(doc, state)  # a tag change moves no sentence start
    assert owner.of(doc, state) is first
    EditText(0, "we saw it, web pages").do(doc, state)
    second = owner.of(doc, state)
    assert second is not first and second.initial[(0, 3)] is False
    assert second == Structure.compute(doc, state)


def test_two_documents_never_share_a_structure():
    """The log context's module-wide cache was keyed on id(doc), id(state): another document made
    where a freed one was could read its sentence starts.  Each owner now holds its own."""
    doc_a, state_a = opened()
    doc_b, state_b = opened()
    EditText(0, "we saw it, web pages").do(doc_b, state_b)
    a, b = DocumentStructure(), DocumentStructure()
    word_a, word_b = state_a.word((0, 3)), state_b.word((0, 3))
    assert record_context(doc_a, state_a, a.of(doc_a, state_a), word_a)["initial"] is True
    assert record_context(doc_b, state_b, b.of(doc_b, state_b), word_b)["initial"] is False
