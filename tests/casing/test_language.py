"""Language per file and per cue, and what subcase does to a language it has no model for."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from subcase.casing import Method, case_file
from subcase.casing.language import Detector, detect, token_text
from subcase.cli import main
from subcase.subtitles import load

ITALIAN = Path(__file__).resolve().parents[1] / "fixtures" / "subtitles" / "italian_fortunes.srt"


def _texts(path: Path) -> list[str]:
    return [" ".join(t.text for t in cue.tokens()) for cue in load(path).cues]


def _write_srt(path: Path, cues: list[str]) -> Path:
    """An SRT file of one cue per text, a second apart."""
    path.write_text("\n".join(f"{i + 1}\n00:00:{i:02d},000 --> 00:00:{i:02d},900\n{t}\n" for i, t in enumerate(cues)),
                    encoding="utf-8")
    return path


def test_every_dev_file_is_detected_in_its_language(dev_subtitles, dev_subtitles_ml):
    for lang, paths in [("en", dev_subtitles), *dev_subtitles_ml.items()]:
        for path in paths:
            assert detect(_texts(path)).language == lang, path.name


def test_given_language_skips_detection_and_unknown_is_refused():
    guess = detect(["hola", "que tal"], "es")
    assert guess.given and guess.cue_languages == ["es", "es"]
    with pytest.raises(ValueError):
        detect(["x"], "it")


def test_a_mixed_file_routes_each_cue_by_its_language(engine, tmp_path):
    english = ["i met john in london last week.", "we talked about the plan for the summer.",
               "he said that mary would come with us to paris."]
    italian = ["non vorrei mai far parte di un club che accettasse tra i suoi soci uno come me.",
               "la lunghezza di un minuto dipende dal lato della porta del bagno in cui ti trovi."]
    spanish = ["el año pasado mis padres compraron una casa en madrid.",
               "después fuimos a comer a un restaurante muy bonito."]
    cues = english + italian + english + spanish + english
    path = _write_srt(tmp_path / "mixed.srt", cues)
    cased = case_file(engine, path, punctuate="never")
    guess = cased.casing.language
    assert guess is not None and guess.language == "en"
    assert guess.cue_languages[3:5] == ["it", "it"] and guess.cue_languages[8:10] == ["es", "es"]
    spanish_method = Method.MODEL if "es" in engine.model_languages else Method.SENTENCE_STARTS
    assert cased.casing.methods == {"en": Method.MODEL, "es": spanish_method, "it": Method.UNCHANGED}
    texts = [cue.text for cue in cased.doc.cues]
    assert texts[3:5] == italian                    # not a language subcase cases: as it was
    assert texts[8].startswith("El año pasado")     # the model of Spanish, or the rule
    assert texts[0].startswith("I met John in London")


def test_short_english_lines_of_dialogue_stay_english(engine, tmp_path):
    """Cues of a sitcom that the detector once moved to other languages (Seinfeld, held out from training):
    it read the tokens spaced out ("pick ' em up", "T - bone !") and counted punctuation as words."""
    lines = ["i love 'em.", "no buts, elaine...", "t-bone! t-bone!", "why no t-bone?",
             "you can pick 'em up right now.", "ho-ho!"]
    story = ["so we went down to the butcher on the corner.", "he had nothing left but a few bones.",
             "and then george started to yell at him.", "that is when the police showed up."]
    cues = [*story, *lines, *story]
    path = _write_srt(tmp_path / "dialogue.srt", cues)
    guess = case_file(engine, path, punctuate="never").casing.language
    assert guess is not None and guess.cue_languages == ["en"] * len(cues)
    tokens = load(path).cues[4].tokens()
    assert token_text(tokens) == "i love 'em."


def test_short_english_lines_without_punctuation_stay_english(engine, tmp_path):
    """Without punctuation (speech recognition) the detector is sure of other languages for short English
    lines on their own ("you can pick em up right now": Portuguese 0.97, "oh ho ho oh": Italian 0.97); read
    with the cues around them they are English, and they stay English."""
    lines = ["you can pick em up right now", "oh ho ho oh", "why no t bone"]
    story = ["so we went down to the butcher on the corner", "he had nothing left but a few bones",
             "and then george started to yell at him", "that is when the police showed up"]
    cues = [story[0], story[1], lines[0], story[2], lines[1], story[3], lines[2], *story]
    assert all(next(iter(Detector.probabilities(line))) != "en" for line in lines)  # each alone: not English
    path = _write_srt(tmp_path / "asr.srt", cues)
    cased = case_file(engine, path, punctuate="never")
    assert cased.casing.language is not None and cased.casing.language.cue_languages == ["en"] * len(cues)
    assert cased.doc.cues[2].text.startswith("You can pick")  # cased by the English model, not left as it was


def test_repeated_words_are_not_enough_to_move_a_passage(engine, tmp_path):
    """Three adjacent unpunctuated Seinfeld cues, each four words with three different ones, read as
    Esperanto (0.9+) and, being neighbours, as a passage in it: they were left uncased.  A repeated word
    is no more evidence, so a cue needs four different words to leave its file's language."""
    lines = ["all t bone t bone", "t bone t bone", "no no t bone"]
    story = ["so we went down to the butcher on the corner", "he had nothing left but a few bones",
             "and then george started to yell at him", "that is when the police showed up"]
    cues = [*story, *lines, *story]
    path = _write_srt(tmp_path / "asr.srt", cues)
    cased = case_file(engine, path, punctuate="never")
    assert cased.casing.language is not None and cased.casing.language.cue_languages == ["en"] * len(cues)
    assert [cue.text for cue in cased.doc.cues[4:7]] != lines  # cased, not left as they were


def test_italian_is_left_exactly_as_it_is(engine, tmp_path, capsys):
    """A real Italian file (from Debian's fortunes-it), cased and lower-cased: byte for byte unchanged."""
    lower = tmp_path / "lower" / "italian_lower.srt"
    lower.parent.mkdir()
    lower.write_text(ITALIAN.read_text(encoding="utf-8").lower(), encoding="utf-8")
    out = tmp_path / "out"
    assert main(["convert", str(ITALIAN), str(lower), "-o", str(out), "-q", "--details", str(tmp_path / "d.jsonl")]) == 0
    assert (out / ITALIAN.name).read_bytes() == ITALIAN.read_bytes()
    assert (out / lower.name).read_bytes() == lower.read_bytes()
    err = capsys.readouterr().err
    assert err.count("not a language subcase can case: left as it was") == 2
    rows = [json.loads(line) for line in (tmp_path / "d.jsonl").read_text(encoding="utf-8").splitlines()]
    assert rows and {r["lang"] for r in rows} == {"it"} and {r["method"] for r in rows} == {"unchanged"}
    # the English model, forced, would have changed it: the guard is what keeps it intact (in restore mode:
    # the default, auto, keeps a cased file as written whatever the language)
    assert main(["convert", str(ITALIAN), "-o", str(tmp_path / "forced"), "-q", "--lang", "en",
                 "--mode", "restore"]) == 0
    assert (tmp_path / "forced" / ITALIAN.name).read_bytes() != ITALIAN.read_bytes()


def _english_only(tmp_path: Path):
    """The English model alone (no companion): es/fr/de/pt then get the sentence-start rule."""
    import shutil

    from subcase.casing import CasingEngine
    from subcase.paths import models_dir

    root = tmp_path / "english-only"
    root.mkdir()
    for name in ("model.onnx", "tokenizer.json", "lexicon.json", "model.json"):
        shutil.copyfile(models_dir() / name, root / name)
    return CasingEngine(root)


@pytest.mark.model
def test_rule_languages_barely_touch_human_cased_files(dev_subtitles_ml, tmp_path):
    """The rule only raises sentence starts, so cased files stay as they are; measured: 6 of 9,208 words
    (sentence continuations the rule cannot tell from new sentences), against 995 by the English model."""
    engine = _english_only(tmp_path)
    changed = words = 0
    for paths in dev_subtitles_ml.values():
        for path in paths:
            cased = case_file(engine, path, punctuate="never")
            changed += cased.changed
            words += len(cased.casing.words)
            assert set(cased.casing.methods.values()) <= {Method.SENTENCE_STARTS, Method.UNCHANGED}, path.name
    assert words > 9000 and changed <= 10


def test_evaluate_groups_by_language(engine, dev_subtitles_ml, tmp_path, capsys):
    from subcase.casing.restoring import Punctuate
    from subcase.evaluation.runner import EvaluationOptions, evaluate

    paths = [dev_subtitles_ml["de"][0], dev_subtitles_ml["es"][0]]
    assert main(["evaluate", *map(str, paths), "--no-per-cue", "--punct-only", "--json", str(tmp_path / "e.json")]) == 0
    out = capsys.readouterr().out
    assert "German (de)" in out and "Spanish (es)" in out
    results = json.loads((tmp_path / "e.json").read_text(encoding="utf-8"))
    for lang in ("de", "es"):
        group = results["languages"][lang]
        assert group["files"] == 1
        assert group["method"] == ("model" if lang in engine.model_languages else "sentence starts")
        assert {"subcase", "sentence starts", "English model, forced"} <= set(group["systems"])
        # the app's default highlight: the threshold of the model that cased the file
        cased_by = engine.engine_for(lang) or engine
        assert group["systems"]["subcase"]["punct"]["review_default"]["thresholds"] == [cased_by.info.review_threshold]
    assert "the app's default highlight per language" in out
    # without a model for them, subcase writes the rule's forms: on lower-cased input no capital
    # inside a sentence, where the English model (forced) puts some, right or wrong
    rule = evaluate(paths, _english_only(tmp_path),
                    EvaluationOptions(per_cue=False, punct_settings=(True,), punctuate=Punctuate.NEVER))
    for lang in ("de", "es"):
        systems = rule["languages"][lang]["systems"]
        assert rule["languages"][lang]["method"] == "sentence starts"
        assert systems["subcase"]["punct"]["intrinsic_f1"] == 0.0
        assert systems["subcase"]["punct"]["precision"] > systems["English model, forced"]["punct"]["precision"]


@pytest.mark.model
def test_a_companion_model_is_loaded_only_for_its_languages(tmp_path, dev_subtitles, dev_subtitles_ml):
    """models/multilingual/ (here: the shipped network under a card that says "es") cases Spanish files,
    is never loaded for English ones, and its languages are no longer given the rule."""
    import shutil

    from subcase.casing import CasingEngine
    from subcase.paths import models_dir

    root = tmp_path / "models"
    shutil.copytree(models_dir(), root)
    companion = root / "multilingual"
    shutil.rmtree(companion, ignore_errors=True)  # replaced by the test's own
    companion.mkdir()
    for name in ("model.onnx", "tokenizer.json"):
        shutil.copyfile(root / name, companion / name)
    card = json.loads((root / "model.json").read_text(encoding="utf-8"))
    card["languages"] = ["es", "en"]  # "en" stays with the main model
    (companion / "model.json").write_text(json.dumps(card), encoding="utf-8")
    engine = CasingEngine(root)
    assert engine.model_languages == ("en", "es")
    case_file(engine, dev_subtitles[0], punctuate="never")
    assert engine._companion is None  # English only: the second network was never loaded
    cased = case_file(engine, dev_subtitles_ml["es"][0], punctuate="never")
    assert engine._companion is not None and engine.engine_for("es") is engine._companion
    assert cased.casing.methods == {"es": Method.MODEL}
    assert engine.engine_for("fr") is None


def test_the_companion_model_writes_mixed_case_words_by_its_lexicon(engine):
    """The M tag and case masks work in every language: the es/fr/de/pt model has its own
    case-mask lexicon (product names as in English, plus the languages' own mixed forms), and
    none of its keys is a common word of those languages."""
    from subcase.casing import Tag

    companion = engine.engine_for("pt")
    if companion is None:
        pytest.skip("no companion model for Portuguese in this model folder")
    assert companion is not engine and len(companion.lexicon) > 1000
    for word, form in (("ipad", "iPad"), ("javascript", "JavaScript"), ("voiceover", "VoiceOver"),
                       ("youtube", "YouTube")):
        assert companion.form(word, Tag.M) == form
    # French and Spanish words that an English-only lexicon could have turned into masks
    for common in ("abus", "inde", "marche", "pedir", "parcs"):
        assert common not in companion.lexicon
    # an M word it does not know falls back to Title case
    assert companion.form("zzqx", Tag.M) == "Zzqx"


def test_french_elided_names_the_lexicon_does_not_list_keep_their_article_lower(engine, tmp_path):
    """The model tags "l'élysée" and "d'internet" Mixed (a capital after the apostrophe); the lexicon lists
    hundreds of such forms but not these, and Title case made "L'élysée" and "D'internet" of them."""
    companion = engine.engine_for("fr")
    if companion is None:
        pytest.skip("no companion model for French in this model folder")
    assert "l'élysée" not in companion.lexicon and "d'internet" not in companion.lexicon
    lines = ["elle habite à paris, près de l'élysée.", "le président de l'europe parle d'internet."]
    path = tmp_path / "fr.srt"
    path.write_text("\n".join(f"{i + 1}\n00:00:0{i},000 --> 00:00:0{i},900\n{t}\n" for i, t in enumerate(lines)),
                    encoding="utf-8")
    cased = case_file(engine, path, punctuate="never")
    assert [c.text for c in cased.doc.cues] == ["Elle habite à Paris, près de l'Élysée.",
                                               "Le président de l'Europe parle d'Internet."]


def test_each_file_is_highlighted_at_the_threshold_of_the_model_that_cased_it(engine, dev_subtitles_ml, dev_subtitles,
                                                                             tmp_path):
    """--details' "highlighted" and simulate-review use the review threshold of the model that
    cased the file, as the editor gets it in the app, not the English model's for every language."""
    from subcase.casing import Mode, case_document
    from subcase.casing.restoring import Punctuate
    from subcase.evaluation.simulate import SimulateOptions, prepare, simulate
    from subcase.subtitles import load as load_doc

    companion = engine.engine_for("es")
    if companion is None or companion is engine:
        pytest.skip("no companion model for Spanish in this model folder")
    assert companion.info.review_threshold != engine.info.review_threshold
    spanish, english = dev_subtitles_ml["es"][0], dev_subtitles[0]
    details = tmp_path / "d.jsonl"
    # restore mode: in the default, auto, these human-cased files are kept as written, and a kept word is
    # highlighted only where the model is sure of another form (tests/casing/test_auto.py)
    assert main(["convert", str(spanish), str(english), "-o", str(tmp_path / "out"), "--details", str(details),
                 "-q", "--mode", "restore"]) == 0
    records = [json.loads(line) for line in details.read_text(encoding="utf-8").splitlines()]
    for r in records:
        own = companion if r["lang"] == "es" else engine
        assert r["highlighted"] == (r["confidence"] < own.info.review_threshold), r
    assert {r["lang"] for r in records} == {"es", "en"}
    # the casing carries it, and the simulated editor reviews at it
    assert case_document(engine, load_doc(spanish), Mode.RESTORE, punctuate="never").threshold == companion.info.review_threshold
    prep = prepare(spanish, engine, SimulateOptions(punctuate=Punctuate.NEVER))
    own = simulate([prep], engine, None)["total"]["visited"]
    assert own == simulate([prep], engine, companion.info.review_threshold)["total"]["visited"]
    assert own != simulate([prep], engine, engine.info.review_threshold)["total"]["visited"]


def test_a_one_cue_file_is_judged_as_a_cue_is(engine, tmp_path):
    """A file too short for the file rule (under 12 words) takes another language only on the evidence a
    single cue needs; short English stays English even where the detector leans to Dutch."""
    assert detect(["el lunes fuimos a madrid con maría."]).language == "es"
    assert detect(["we met john in new york"]).language == "en"      # nl 0.76, en 0.23
    assert detect(["hola"]).language == "en"                         # too short to tell at all
    path = tmp_path / "one.srt"
    path.write_text("1\n00:00:01,000 --> 00:00:02,000\nel lunes fuimos a madrid con maría.\n", encoding="utf-8")
    cased = case_file(engine, path, punctuate="never")
    assert cased.casing.language is not None and cased.casing.language.language == "es"
    if "es" in engine.model_languages:  # the multilingual model, not the English one ("El Lunes Fuimos")
        assert cased.doc.cues[0].text == "El lunes fuimos a Madrid con María."
