"""The multilingual model's case-mask lexicon (training/lexicon_build.py), on real word-list files."""

from __future__ import annotations

import pytest

from subcase.training.lexicon_build import build_multilingual_lexicon


def test_masks_come_from_english_text_and_word_lists_but_never_cover_a_common_word(tmp_path):
    lists = tmp_path / "usr" / "share" / "dict"
    lists.mkdir(parents=True)
    (lists / "french").write_text("abus\nmarche\nMcGill\nl'Église\n", encoding="utf-8")
    (lists / "ngerman").write_text("Haus\niPod\n", encoding="utf-8")
    english = {"youtube": "YouTube", "abus": "ABus", "marche": "MArche"}
    texts = ["Il utilise JavaScript et JavaScript tous les jours.", "Une seule fois LaTeX."]
    lexicon = build_multilingual_lexicon(texts, english, [tmp_path])
    assert lexicon["youtube"] == "YouTube"          # the English model's product names
    assert lexicon["javascript"] == "JavaScript"    # seen twice in the training text
    assert "latex" not in lexicon                   # seen once: not enough
    assert lexicon["mcgill"] == "McGill" and lexicon["ipod"] == "iPod"  # mixed forms of the word lists
    assert "l'église" not in lexicon                # elided forms of the lists are left out
    assert "abus" not in lexicon and "marche" not in lexicon  # common French words stay words
    assert "haus" not in lexicon                    # Title case is no mask


def test_no_word_lists_is_a_clear_error(tmp_path):
    with pytest.raises(SystemExit, match="word lists"):
        build_multilingual_lexicon([], {}, [tmp_path])


def test_capitalised_words_are_the_ones_a_list_holds_only_in_title_case(tmp_path):
    from subcase.training.lexicon_build import capitalised_words

    lists = tmp_path / "usr" / "share" / "dict"
    lists.mkdir(parents=True)
    # "essen" (to eat) and "Essen" (food, the city): both forms, so not capitalised-only
    (lists / "ngerman").write_text("Haus\nEssen\nessen\nlaufen\nAachen\niPod\nUNO\nO'Brien\n", encoding="utf-8")
    (lists / "portuguese").write_text("Lisboa\ncasa\n", encoding="utf-8")
    (lists / "brazilian").write_text("lisboa\nRecife\n", encoding="utf-8")  # one language, two lists
    (lists / "french").write_text("maison\n", encoding="utf-8")
    found = capitalised_words([tmp_path])
    assert found["de"] == ["aachen", "haus"]
    assert found["pt"] == ["recife"]
    assert found["fr"] == []


def test_word_lists_are_read_as_utf8_and_older_latin1_ones_still_read(tmp_path):
    """SCOWL and wamerican ship UTF-8 today (ISO-8859-1 in older releases).  Read as Latin-1, the
    UTF-8 "arrêt" became "arrÃªt", a mixed-case form that the English lexicon then listed."""
    from subcase.casing.tags import Tag, tag_of
    from subcase.training.synthetic import read_word_list

    utf8 = tmp_path / "english-words.95"
    utf8.write_text("arrêt\nvoilà\nMcAdams\n", encoding="utf-8")
    latin1 = tmp_path / "english-words.old"
    latin1.write_bytes("café\nfête\n".encode("latin-1"))
    assert read_word_list(utf8) == ["arrêt", "voilà", "McAdams"]
    assert read_word_list(latin1) == ["café", "fête"]
    assert [tag_of(w) for w in read_word_list(utf8)] == [Tag.L, Tag.L, Tag.M]
    assert read_word_list(tmp_path / "not-installed") == []
