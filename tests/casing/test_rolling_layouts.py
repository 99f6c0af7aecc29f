"""Rolling layouts read once: the fixtures of make_rolling.py (our own text in the layouts speech recognition
writes), and the real machine-made files of ../shared/data/dev-asr where present.

On every one: the model reads the spoken text once, in order; every copy of a line reads the same after casing,
restored marks too; and the only bytes that change are letters and restored marks."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from subcase.casing import case_file
from subcase.casing.joined import join_words
from subcase.casing.restoring import Punctuate
from subcase.evaluation.flicker import count_flicker, cue_lines
from subcase.subtitles import load

from helpers.changes import assert_only_letters_and_marks

CAPTIONS = Path(__file__).resolve().parents[1] / "fixtures" / "captions"
DEV_ASR = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "dev-asr"
LAYOUTS = ["youtube_new.vtt", "youtube_old.vtt", "youtube_live.vtt", "youtube_srt.srt", "rollup.srt"]
MARKS = ",.?!"


def spoken_words() -> list[str]:
    """The text the fixtures lay out (make_rolling.LINES), word by word."""
    spec = importlib.util.spec_from_file_location("make_rolling", CAPTIONS / "make_rolling.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return " ".join(module.LINES).split()


class _Reading:
    """The real engine, remembering the words of each stream it reads (with the tags, or with the marks too)."""

    def __init__(self, engine):
        self.engine, self.words = engine, []

    def __getattr__(self, name):
        return getattr(self.engine, name)

    def engine_for(self, language):
        return self if self.engine.engine_for(language) is not None else None

    def predict(self, stream, **kw):
        self.words += [t.text for t in stream if t.is_word]
        return self.engine.predict(stream, **kw)

    def word_outputs(self, stream, *args, **kw):
        self.words += [t.text for t in stream if t.is_word]
        return self.engine.word_outputs(stream, *args, **kw)

    def word_output_chunks(self, stream, *args, **kw):  # a long file's pass, chunk by chunk
        self.words += [t.text for t in stream if t.is_word]
        return self.engine.word_output_chunks(stream, *args, **kw)


@pytest.mark.parametrize("name", LAYOUTS)
def test_the_model_reads_the_spoken_text_once_in_order(engine, name):
    reading = _Reading(engine)
    case_file(reading, CAPTIONS / name, punctuate=Punctuate.AUTO)
    assert [w.lower() for w in reading.words] == spoken_words()


@pytest.mark.parametrize("name", LAYOUTS)
def test_every_copy_of_a_line_reads_the_same(engine, name):
    src = CAPTIONS / name
    cased = case_file(engine, src, punctuate=Punctuate.AUTO)
    repeats, differ = count_flicker(cue_lines(load(src)), cue_lines(cased.doc))
    assert repeats > 0 and differ == 0, (repeats, differ)
    assert cased.casing.marks  # marks were restored (the text has none): each copy got them
    text = cased.doc.render()
    assert "Denver" in text and "Salt Lake City" in text
    assert_only_letters_and_marks(src.read_text(encoding="utf-8"), text, marks=MARKS)


def test_a_timing_tag_inside_a_word_joins_its_apostrophe():
    # the live layout cuts "owner's", "wouldn't" and "we'd" with tags on either side of the apostrophe
    doc = load(CAPTIONS / "youtube_live.vtt")
    words = {t.text for cue in doc.cues for t in join_words(cue.text, cue.tokens())[0] if t.is_word}
    assert {"owner's", "wouldn't", "we'd"} <= words
    assert not words & {"s", "t", "d", "n"}


def _dev_asr() -> list[Path]:
    if not DEV_ASR.is_dir():
        return []
    return sorted(p for p in DEV_ASR.iterdir() if p.suffix.lower() in (".vtt", ".srt"))


@pytest.mark.parametrize("src", _dev_asr() or [None], ids=lambda p: p.name[:40] if p else "none")
@pytest.mark.parametrize("punctuate", [Punctuate.AUTO, Punctuate.NEVER])
def test_dev_asr_files_do_not_flicker(engine, src, punctuate):
    if src is None:
        pytest.skip(f"no dev-asr files at {DEV_ASR}: real machine-made captions whose licences are unknown, "
                    "so they are not in the repository")
    cased = case_file(engine, src, punctuate=punctuate)
    repeats, differ = count_flicker(cue_lines(load(src)), cue_lines(cased.doc))
    assert differ == 0, f"{src.name}: {differ} of {repeats} repeated lines read differently"
    assert_only_letters_and_marks(src.read_bytes().decode("utf-8-sig"), cased.doc.to_bytes().decode("utf-8-sig"),
                                  marks=MARKS)
