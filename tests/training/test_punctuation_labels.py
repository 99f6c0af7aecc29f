"""The punctuation head's training labels (training/punctuation.py): the mark at each word's end, in the
multilingual model's languages too."""

from __future__ import annotations

from subcase.training.corpora import Doc
from subcase.training.punctuation import doc_stream


def labelled(text: str, spaced: bool = False) -> list[tuple[str, str]]:
    stream, marks, _ = doc_stream(Doc("test", [text]), spaced=spaced)
    return list(zip([t.text for t in stream if t.is_word], marks))


def test_spanish_opening_marks_belong_to_no_word():
    # ¿ and ¡ open a sentence; the mark the head learns is the one that closes it, at the word before
    assert labelled("¿Qué haces? ¡Vamos, rápido! Hola ¿sí?") == [
        ("qué", ""), ("haces", "?"), ("vamos", ","), ("rápido", "!"), ("hola", ""), ("sí", "?")]


def test_a_french_mark_after_a_space_is_the_word_before_s():
    text = "Quoi ? Il dit\u00a0: « oui ». Bon !"
    assert labelled(text, spaced=True) == [("quoi", "?"), ("il", ""), ("dit", ","), ("oui", "."), ("bon", "!")]
    # elsewhere the one rule of casing.marks holds: a mark is written right after its word, or after a no-break
    # space, which keeps it on the word's line (as scoring and the written marks read it)
    assert labelled(text) == [("quoi", ""), ("il", ""), ("dit", ","), ("oui", ""), ("bon", "")]
    # a dash or an opening quote after a space is no mark
    assert labelled("Il a dit - non « peut-être", spaced=True)[2:4] == [("dit", ""), ("non", "")]
