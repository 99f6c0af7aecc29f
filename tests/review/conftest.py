"""Review-core tests: a real document and a hand-written casing result.

The casing here is data (what the engine would return), so these tests pin
the review logic without the model; the GUI tests run the real model.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from subcase.casing import DocumentCasing, Tag, WordCasing, apply_casing, apply_tag
from subcase.review import ReviewState
from subcase.subtitles import load

SRT = (b"1\r\n00:00:01,000 --> 00:00:02,000\r\nwe met john in london.\r\n\r\n"
       b"2\r\n00:00:03,000 --> 00:00:04,000\r\n<i>the fbi called</i>\r\n\r\n"
       b"3\r\n00:00:05,000 --> 00:00:06,000\r\nok 42 times\r\n")

# word -> (tag, probs) ; everything else is L with high confidence
PRED = {"we": (Tag.T, (0.30, 0.65, 0.03, 0.02)), "john": (Tag.T, (0.02, 0.97, 0.005, 0.005)),
        "london": (Tag.T, (0.20, 0.75, 0.03, 0.02)), "the": (Tag.T, (0.10, 0.88, 0.01, 0.01)),
        "fbi": (Tag.U, (0.05, 0.40, 0.50, 0.05)), "ok": (Tag.U, (0.30, 0.20, 0.45, 0.05))}


def form(word: str, tag: Tag) -> str:
    return apply_tag(word, tag, {"iphone": "iPhone"})


@pytest.fixture
def data_dir(tmp_path, monkeypatch) -> Path:
    d = tmp_path / "data"
    monkeypatch.setenv("SUBCASE_DATA_DIR", str(d))
    return d


@pytest.fixture
def srt_file(tmp_path) -> Path:
    p = tmp_path / "film.srt"
    p.write_bytes(SRT)
    return p


def make_casing(doc) -> DocumentCasing:
    words = []
    for c, cue in enumerate(doc.cues):
        for k, tok in enumerate(cue.words()):
            if not any(ch.isalpha() for ch in tok.text):
                continue
            tag, probs = PRED.get(tok.text, (Tag.L, (0.99, 0.005, 0.003, 0.002)))
            out = form(tok.text, tag)
            words.append(WordCasing(c, k, tok.start, tok.end, tok.text, out, out, tag, probs))
    return DocumentCasing(words, "restore", 0.9)


def cased_copy(path):
    """The file read and cased by the script above, as it opens: a fresh document and review state each call
    (what a crash recovery cases again)."""
    doc = load(path)
    casing = make_casing(doc)
    apply_casing(doc, casing)
    return doc, ReviewState.from_casing(len(doc.cues), casing)


@pytest.fixture
def cased(srt_file):
    return cased_copy(srt_file)
