"""Shared paths and the "only letter case changed" check for subtitle tests."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures" / "subtitles"
DEV_SUBTITLES = REPO / ".." / "shared" / "data" / "dev-subtitles"

# Fixtures that are subtitles (the rest must be refused).
GOOD_FIXTURES = sorted(p for p in FIXTURES.iterdir() if p.suffix in (".srt", ".vtt")
                       and p.name not in ("binary.srt", "empty.srt"))


def dev_files() -> list[Path]:
    if not DEV_SUBTITLES.is_dir():
        return []
    return sorted(p for p in DEV_SUBTITLES.iterdir() if p.suffix in (".srt", ".vtt"))


needs_dev = pytest.mark.skipif(not DEV_SUBTITLES.is_dir(),
                               reason=f"shared dev subtitles not found at {DEV_SUBTITLES.resolve()}")

_BOMS = (codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE, codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


def assert_only_case_changed(before: bytes, after: bytes, encoding: str) -> None:
    """after equals before except for the case of letters."""
    bom = next((b for b in _BOMS if before.startswith(b)), b"")
    assert after[:len(bom)] == bom, "byte-order mark changed"
    old, new = before[len(bom):].decode(encoding), after[len(bom):].decode(encoding)
    assert len(old) == len(new), "length changed"
    for i, (a, b) in enumerate(zip(old, new)):
        if a != b:
            assert a.isalpha() and a.lower() == b.lower(), f"{a!r} -> {b!r} at char {i} is not a case change"


def recase_word(doc, cue_index: int, word_index: int, form: str) -> None:
    """Recase the cue's ``word_index``-th word (as Cue.words() counts) through Document.recase."""
    w = doc.cues[cue_index].words()[word_index]
    doc.recase(cue_index, [(w.start, w.end, form)])
