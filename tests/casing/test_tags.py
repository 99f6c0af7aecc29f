"""Tags and case masks: what each tag means, and that applying one changes only letter case."""

import pytest

from subcase.casing.tags import Tag, apply_tag, case_mask_key, tag_of

LEX = {"iphone": "iPhone", "mcadams": "McAdams", "youtube": "YouTube", "l'onu": "l'ONU"}


@pytest.mark.parametrize("word,tag", [
    ("the", Tag.L), ("London", Tag.T), ("I", Tag.T), ("I'm", Tag.T), ("FBI", Tag.U), ("FBI's", Tag.U),
    ("DON'T", Tag.U), ("iPhone", Tag.M), ("McAdams", Tag.M), ("don't", Tag.L), ("1984", Tag.L), ("x", Tag.L),
])
def test_tag_of(word, tag):
    assert tag_of(word) is tag


@pytest.mark.parametrize("word,tag,expected", [
    ("london", Tag.T, "London"), ("fbi", Tag.U, "FBI"), ("fbi's", Tag.U, "FBI's"), ("don't", Tag.U, "DON'T"),
    ("iphone", Tag.M, "iPhone"), ("iphone's", Tag.M, "iPhone's"), ("mcadams", Tag.M, "McAdams"),
    ("zorblax", Tag.M, "Zorblax"),  # an M word the lexicon does not know falls back to Title
    ("iphones", Tag.M, "iPhones"), ("youtubes", Tag.M, "YouTubes"),  # a plural takes its singular's mask
    ("zorblaxs", Tag.M, "Zorblaxs"),
    ("LONDON", Tag.L, "london"), ("i'm", Tag.T, "I'm"), ("élan", Tag.T, "Élan"),
    # a word that opens with a number: its Title form at a sentence start is itself ("84th street"),
    # except a single letter that is not a plural's "s" ("3D", "4K")
    ("84th", Tag.T, "84th"), ("1990s", Tag.T, "1990s"), ("80s", Tag.T, "80s"), ("3pm", Tag.T, "3pm"),
    ("3d", Tag.T, "3D"), ("4k", Tag.T, "4K"), ("'tis", Tag.T, "'Tis"), ("1,000th", Tag.M, "1,000th"),
    # French elision: a Mixed word the lexicon does not know keeps its elided article in lower case and
    # writes the rest as the lexicon or Title case does; a form the lexicon knows whole wins
    ("d'internet", Tag.M, "d'Internet"), ("l\u2019élysée", Tag.M, "l\u2019Élysée"), ("l'iphone", Tag.M, "l'iPhone"),
    ("qu'html5", Tag.M, "qu'Html5"), ("D'INTERNET", Tag.M, "d'Internet"), ("l'youtube", Tag.M, "l'YouTube"),
    ("aujourd'hui", Tag.M, "Aujourd'hui"), ("d'internet", Tag.T, "D'internet"),
    # name prefixes with a capital on each side, for Mixed words the lexicon does not know
    ("mcgregor", Tag.M, "McGregor"), ("mcgregor's", Tag.M, "McGregor's"), ("o'brien", Tag.M, "O'Brien"),
    ("o\u2019reilly", Tag.M, "O\u2019Reilly"), ("mcs", Tag.M, "Mcs"), ("mackenzie", Tag.M, "Mackenzie"),
    ("mcgregor", Tag.T, "Mcgregor"),
    ("l'onu", Tag.M, "l'ONU"),
])
def test_apply_tag(word, tag, expected):
    assert apply_tag(word, tag, LEX) == expected


@pytest.mark.parametrize("word", ["fbi's", "o'brien", "iphone", "rock'n'roll", "3d", "ß", "d'internet", "qu\u2019html5"])
def test_apply_tag_only_changes_case(word):
    for tag in Tag:
        out = apply_tag(word, tag, LEX)
        assert len(out) == len(word) and out.lower() == word.lower() or word == "ß"


def test_case_mask_key_strips_possessive():
    assert case_mask_key("iPhone's") == "iphone"
    assert case_mask_key("McAdams") == "mcadams"


def test_round_trip_of_every_tag():
    for w in ["the", "London", "FBI", "iPhone", "McAdams", "FBI's"]:
        assert apply_tag(w.lower(), tag_of(w), LEX) == w


def test_the_model_writes_an_unlisted_o_name_with_both_capitals(engine):
    """The English model tags "o'doherty" Mixed; its lexicon lists eleven O' names, not this one."""
    from subcase.casing import case_texts

    assert "o'doherty" not in engine.lexicon
    casing = case_texts(engine, ["detective mcnulty called o'doherty again."])
    word = next(w for w in casing.words if w.input == "o'doherty")
    assert word.tag is Tag.M and word.output == "O'Doherty"


def _misdecoded(form: str) -> bool:
    """UTF-8 read as Latin-1: "arrêt" became "arrÃªt" (and "voilà" "voilÃ" once its no-break
    space was split off)."""
    try:
        return form.encode("latin-1").decode("utf-8") != form
    except UnicodeEncodeError:
        return False
    except UnicodeDecodeError:
        return form.endswith("Ã")


@pytest.mark.parametrize("language", ["en", "pt"])
def test_every_shipped_case_mask_is_a_mixed_form_of_its_key(engine, language):
    """A word list read in the wrong encoding once put 20 lower-case French words into the
    lexicons as masks ("arrÃªt"); every entry must be a genuine mixed-case form of its key."""
    lexicon_engine = engine if language == "en" else engine.engine_for(language)
    if lexicon_engine is None:
        pytest.skip(f"no model for {language} in this model folder")
    bad = {key: form for key, form in lexicon_engine.lexicon.items()
           if _misdecoded(form) or form.lower() != key or tag_of(form) is not Tag.M}
    assert not bad
