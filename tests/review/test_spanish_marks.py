"""A Spanish "?" or "!" set, changed or removed in review brings its opening mark along (``SetMark`` with
review/pairing.py): added at the sentence start, switched "¿" <-> "¡", or removed, in the same undo step; and
a French one is written after a no-break space.

The casing is scripted (every word lower case and sure, the marks given), so only the rule is under test."""

from __future__ import annotations

from subcase.casing import DocumentCasing, Tag, WordCasing, apply_casing
from subcase.casing.language import LanguageGuess
from subcase.casing.pipeline import write_marks
from subcase.casing.punctuation import MarkPrediction
from subcase.casing.restoring import InsertedMark
from subcase.review import ReviewState, SetMark
from subcase.subtitles import loads

from .conftest import form

STOP = MarkPrediction(".", (0.0, 0.0, 1.0, 0.0, 0.0))
QUESTION = MarkPrediction("?", (0.0, 0.0, 0.0, 1.0, 0.0))


def opened(*cues: str, after: dict[tuple[int, str], MarkPrediction] | None = None, language: str = "es"):
    """The file as review opens it: ``after``'s marks restored (and their opening marks), the words kept."""
    body = "".join(f"{i + 1}\n00:00:{i:02d},000 --> 00:00:{i:02d},900\n{t}\n\n" for i, t in enumerate(cues))
    doc = loads(body.encode(), "es.srt")
    words, marks = [], []
    for c, cue in enumerate(doc.cues):
        for k, t in enumerate(cue.words()):
            words.append(WordCasing(c, k, t.start, t.end, t.text, t.text, t.text, Tag.L, (0.99, 0.01, 0.0, 0.0)))
            if after and (c, t.text) in after:
                marks.append(InsertedMark(c, k, t.end, after[(c, t.text)]))
    languages = [language] * len(cues)
    casing = write_marks(doc, DocumentCasing(words, "restore", 0.9, marks=marks,
                                             language=LanguageGuess(language, 1.0, languages)))
    apply_casing(doc, casing)
    return doc, ReviewState.from_casing(len(doc.cues), casing)


def at(state, cue: int, word: str):
    return next((cue, s) for s, w in enumerate(state.cues[cue]) if w.form.lower() == word)


def texts(doc) -> list[str]:
    return [cue.text for cue in doc.cues]


def snapshot(doc, state):
    return doc.to_bytes(), [[(w.start, w.end, w.form, w.status, w.mark) for w in ws] for ws in state.cues]


def spans_hold(doc, state) -> None:
    for ws in state.cues:
        for w in ws:
            assert doc.cues[w.cue_index].text[w.start:w.end] == w.form, w


def test_the_restored_opening_mark_switches_and_goes_with_its_mark_across_cues_in_one_undo_step():
    doc, state = opened("hola amigos", "y entonces", "cómo estáis", "bien",
                        after={(0, "amigos"): STOP, (2, "estáis"): QUESTION})
    assert texts(doc) == ["hola amigos.", "¿y entonces", "cómo estáis?", "bien"]
    start = snapshot(doc, state)
    pos = at(state, 2, "estáis")
    to_exclamation = SetMark(pos, "!", form, "es")
    to_exclamation.do(doc, state)
    assert texts(doc)[1:3] == ["¡y entonces", "cómo estáis!"]
    assert to_exclamation.cues == (1, 2)  # the cue with the opening mark is redrawn too
    spans_hold(doc, state)
    to_none = SetMark(pos, "", form, "es")
    to_none.do(doc, state)
    assert texts(doc)[1:3] == ["y entonces", "cómo estáis"]
    spans_hold(doc, state)
    to_none.undo(doc, state)
    to_exclamation.undo(doc, state)
    assert snapshot(doc, state) == start
    # a full stop makes the question a statement: the opening mark goes (the sentence still ends there)
    to_stop = SetMark(pos, ".", form, "es")
    to_stop.do(doc, state)
    assert texts(doc)[1:] == ["y entonces", "cómo estáis.", "bien"]
    to_stop.undo(doc, state)
    assert snapshot(doc, state) == start


def test_a_new_question_mark_opens_its_sentence_after_the_last_sentence_end():
    doc, state = opened("Vale. y tú", "qué dices", "ya")
    start = snapshot(doc, state)
    action = SetMark(at(state, 1, "dices"), "?", form, "es")
    action.do(doc, state)
    # one step: the opening mark in the cue before, the mark, and the capital of the next sentence
    assert texts(doc) == ["Vale. ¿y tú", "qué dices?", "Ya"]
    assert action.cues == (0, 1, 2)  # the opening mark's cue and the re-cased word's are redrawn and autosaved
    spans_hold(doc, state)
    action.undo(doc, state)
    assert snapshot(doc, state) == start


def test_a_writers_opening_mark_stays_unless_it_pairs_with_the_changed_mark():
    doc, state = opened("¡qué pena?")
    pos = at(state, 0, "pena")
    SetMark(pos, ".", form, "es").do(doc, state)
    assert texts(doc) == ["¡qué pena."]   # "¡" does not pair with "?": not ours to remove
    SetMark(pos, "!", form, "es").do(doc, state)
    assert texts(doc) == ["¡qué pena!"]   # opened as it is closed already: nothing added
    doc, state = opened("¿qué pena?")
    SetMark(at(state, 0, "pena"), "", form, "es").do(doc, state)
    assert texts(doc) == ["qué pena"]     # the writer's "¿" paired with the "?" removed
    # Spanish may open a question mid-sentence: the opening mark is switched where it stands
    doc, state = opened("pues ¿cómo lo sabes?")
    SetMark(at(state, 0, "sabes"), "!", form, "es").do(doc, state)
    assert texts(doc) == ["pues ¡cómo lo sabes!"]


def test_no_opening_mark_outside_spanish_or_without_a_known_sentence_start():
    doc, state = opened("e agora", "o que foi", language="pt")
    SetMark(at(state, 1, "foi"), "?", form, "pt").do(doc, state)
    assert texts(doc) == ["e agora", "o que foi?"]
    # within the look-back the start of the file is a sentence start
    doc, state = opened("y bien", "qué", "dices", "tú")
    SetMark(at(state, 3, "tú"), "?", form, "es").do(doc, state)
    assert texts(doc) == ["¿y bien", "qué", "dices", "tú?"]
    # further back than that, with no sentence end: no start to go by, no opening mark guessed
    doc, state = opened("y bien", "qué", "dices", "tú", "ahora")
    SetMark(at(state, 4, "ahora"), "?", form, "es").do(doc, state)
    assert texts(doc) == ["y bien", "qué", "dices", "tú", "ahora?"]


def test_a_french_question_mark_is_spaced_as_the_file_spaces_its_marks_and_undone_exactly():
    doc, state = opened("tu viens", "oui bien sûr", after={(0, "viens"): QUESTION}, language="fr")
    assert texts(doc) == ["tu viens\u00a0?", "oui bien sûr"]
    start = snapshot(doc, state)
    pos = at(state, 0, "viens")
    assert SetMark.mark_at(doc, state, pos) == "?"   # the spaced mark is the word's own
    to_exclamation = SetMark(pos, "!", form, "fr")
    to_exclamation.do(doc, state)
    assert texts(doc)[0] == "tu viens\u00a0!"
    to_stop = SetMark(pos, ".", form, "fr")
    to_stop.do(doc, state)
    assert texts(doc)[0] == "tu viens."          # a full stop is tight, its space goes with the old mark
    spans_hold(doc, state)
    new = SetMark(at(state, 1, "sûr"), "?", form, "fr")
    new.do(doc, state)
    assert texts(doc)[1] == "oui bien sûr\u00a0?"  # a new one spaced
    for action in (new, to_stop, to_exclamation):
        action.undo(doc, state)
    assert snapshot(doc, state) == start
