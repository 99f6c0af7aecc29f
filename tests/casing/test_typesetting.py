"""Restored marks written as their cue's language writes them (casing/typesetting.py, through
``pipeline.write_marks``): Spanish opening marks at the start of the sentence, French spacing before ? and !.

The casings are scripted (what the engine would return, marks included), so each rule is pinned without a
near-tie of the model; tests/cli/test_convert_punctuate.py runs the real multilingual model."""

from __future__ import annotations

from subcase.casing import DocumentCasing, Tag, WordCasing
from subcase.casing.language import LanguageGuess
from subcase.casing.marks import mark_after
from subcase.casing.pipeline import write_marks
from subcase.casing.punctuation import MarkPrediction
from subcase.casing.restoring import InsertedMark
from subcase.evaluation.punctuation import cue_marks
from subcase.subtitles import loads
from subcase.subtitles.marking import existing_mark
from subcase.subtitles.words import tokenize

STOP = MarkPrediction(".", (0.0, 0.0, 1.0, 0.0, 0.0))
QUESTION = MarkPrediction("?", (0.0, 0.0, 0.0, 1.0, 0.0))
EXCLAMATION = MarkPrediction("!", (0.0, 0.0, 0.0, 0.0, 1.0))
COMMA = MarkPrediction(",", (0.0, 1.0, 0.0, 0.0, 0.0))


def srt(*texts: str) -> bytes:
    return "".join(f"{i + 1}\n00:00:{i:02d},000 --> 00:00:{i:02d},900\n{t}\n\n" for i, t in enumerate(texts)).encode()


def restore(doc, after: dict[tuple[int, str], MarkPrediction], languages: list[str],
            restored: list[bool] | None = None) -> DocumentCasing:
    """``write_marks`` on a scripted casing: every word kept as written, the mark ``after[(cue, word)]``
    restored after that word."""
    words, marks = [], []
    for c, cue in enumerate(doc.cues):
        for k, t in enumerate(cue.words()):
            words.append(WordCasing(c, k, t.start, t.end, t.text, t.text, t.text, Tag.L, (1.0, 0.0, 0.0, 0.0)))
            if (c, t.text) in after:
                marks.append(InsertedMark(c, k, t.end, after[(c, t.text)]))
    casing = DocumentCasing(words, "restore", 0.9, marks=marks, language=LanguageGuess(languages[0], 1.0, languages),
                            restored=restored)
    return write_marks(doc, casing)


def texts(doc) -> list[str]:
    return [cue.text for cue in doc.cues]


def offsets_hold(doc, casing) -> None:
    """Every word's offsets, and every mark's, are where they are in the text with the marks in."""
    for w in casing.words:
        assert doc.cues[w.cue_index].text[w.start:w.end] == w.input, w
    for m in casing.marks:
        text = doc.cues[m.cue_index].text
        assert existing_mark(text, m.offset)[1].strip("\u00a0\u202f") == m.prediction.mark, (m, text)


def test_a_spanish_question_opens_at_the_start_of_its_sentence_across_cues_and_markup():
    doc = loads(srt("hola amigos", "y entonces", "<i>cómo estáis</i>", "qué bien", "- vamos ya"), "es.srt")
    casing = restore(doc, {(0, "amigos"): STOP, (2, "estáis"): QUESTION, (3, "bien"): EXCLAMATION,
                           (4, "ya"): EXCLAMATION}, ["es"] * 5)
    # the question started a cue earlier, after the full stop; the opening mark goes inside the italics,
    # after a dash
    assert texts(doc) == ["hola amigos.", "¿y entonces", "<i>cómo estáis?</i>", "¡qué bien!", "- ¡vamos ya!"]
    offsets_hold(doc, casing)


def test_a_written_sentence_end_starts_the_sentence_and_a_written_opening_mark_is_kept():
    # --punctuate always: marks restored in punctuated text, whose own marks count
    doc = loads(srt("Vale. y tú qué dices", "pues ¿cómo lo sabes", "¡qué pena", "bueno... y ahora"), "es.srt")
    casing = restore(doc, {(0, "dices"): QUESTION, (1, "sabes"): QUESTION, (2, "pena"): QUESTION,
                           (3, "ahora"): QUESTION}, ["es"] * 4)
    # "¿" at the question's start after the written full stop and ellipsis; a sentence the writer opened
    # (mid-way, as Spanish may, or with another mark) gets no second one
    assert texts(doc) == ["Vale. ¿y tú qué dices?", "pues ¿cómo lo sabes?", "¡qué pena?", "bueno... ¿y ahora?"]
    offsets_hold(doc, casing)


def test_the_opening_mark_never_reaches_before_the_restored_passage():
    doc = loads(srt("y entonces", "qué pasó", "no lo sé"), "es.srt")
    casing = restore(doc, {(1, "pasó"): QUESTION, (2, "sé"): EXCLAMATION}, ["es"] * 3,
                     restored=[False, True, True])
    assert texts(doc) == ["y entonces", "¿qué pasó?", "¡no lo sé!"]
    offsets_hold(doc, casing)


def test_a_refused_place_skips_the_opening_mark_alone():
    # the word after "vale." is glued to it: no mark goes inside that token, the "?" is written all the same
    doc = loads(srt("vale.qué dices"), "es.srt")
    casing = restore(doc, {(0, "dices"): QUESTION}, ["es"])
    assert texts(doc) == ["vale.qué dices?"]
    offsets_hold(doc, casing)


def test_only_spanish_cues_get_opening_marks_and_a_language_change_ends_a_sentence():
    doc = loads(srt("so what", "qué pasa", "e agora", "o que foi"), "mixed.srt")
    casing = restore(doc, {(0, "what"): QUESTION, (1, "pasa"): QUESTION, (3, "foi"): QUESTION},
                     ["en", "es", "pt", "pt"])
    assert texts(doc) == ["so what?", "¿qué pasa?", "e agora", "o que foi?"]
    offsets_hold(doc, casing)


def test_a_casing_without_languages_writes_marks_as_before():
    doc = loads(srt("qué pasa"), "es.srt")
    words = [WordCasing(0, k, t.start, t.end, t.text, t.text, t.text, Tag.L, (1.0, 0.0, 0.0, 0.0))
             for k, t in enumerate(doc.cues[0].words())]
    write_marks(doc, DocumentCasing(words, "restore", 0.9, marks=[InsertedMark(0, 1, 8, QUESTION)]))
    assert texts(doc) == ["qué pasa?"]


def test_french_marks_take_a_no_break_space_in_a_file_without_marks():
    doc = loads(srt("tu viens", "<i>quelle surprise</i>", "oui, bien sûr"), "fr.srt")
    casing = restore(doc, {(0, "viens"): QUESTION, (1, "surprise"): EXCLAMATION, (2, "sûr"): STOP}, ["fr"] * 3)
    # ? and ! spaced, inside closing markup; full stops (and commas) tight
    assert texts(doc) == ["tu viens\u00a0?", "<i>quelle surprise\u00a0!</i>", "oui, bien sûr."]
    offsets_hold(doc, casing)


def test_french_spacing_follows_the_file():
    def restored_in(*cues: str) -> str:
        doc = loads(srt(*cues, "tu viens"), "fr.srt")
        restore(doc, {(len(cues), "viens"): QUESTION}, ["fr"] * (len(cues) + 1))
        return doc.cues[-1].text

    assert restored_in("C'est vrai\u202f? Oui\u202f!", "Quoi ?") == "tu viens\u202f?"   # narrow no-break spaces
    assert restored_in("C'est vrai?", "Vraiment!") == "tu viens?"                  # tight
    assert restored_in("Quoi ?") == "tu viens\u00a0?"  # a plain space could break the line before the mark
    assert restored_in("Quoi\u00a0?") == "tu viens\u00a0?"
    # only the French cues' marks say how French is spaced
    doc = loads(srt("What?", "Really?", "tu viens"), "fr.srt")
    restore(doc, {(2, "viens"): QUESTION}, ["en", "en", "fr"])
    assert texts(doc)[2] == "tu viens\u00a0?"


def test_a_file_whose_encoding_cannot_hold_the_space_gets_tight_marks():
    doc = loads(srt("tu viens"), "fr.srt")
    doc.encoding = "ascii"
    restore(doc, {(0, "viens"): QUESTION}, ["fr"])
    assert texts(doc) == ["tu viens?"]


def test_a_spaced_mark_is_the_words_mark_for_scoring_and_for_the_next_pass():
    text = "tu viens\u00a0? <i>quelle surprise\u202f!</i> «\u00a0non\u00a0»"
    assert cue_marks(text) == ["", "?", "", "!", ""]
    assert mark_after("tu viens\u00a0?", 8) == "?" and mark_after("le 5\u00a0000", 4) == ""
    # the tokenizer reads the mark as its own token after the word, as a tight one
    assert [t.text for t in tokenize("viens\u00a0?")] == ["viens", "?"]
    # the document refuses a second mark after a spaced one, and finds it as the word's
    doc = loads(srt("tu viens\u00a0? oui"), "fr.srt")
    assert not doc.can_insert_mark(0, 8, "?") and not doc.can_insert_mark(0, 8, "\u00a0?")
    assert existing_mark(doc.cues[0].text, 8) == (8, "\u00a0?")
    assert doc.can_insert_mark(0, 14, "\u00a0!")
