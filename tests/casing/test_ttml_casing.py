"""Issue #58: TTML cased by the real model as ``convert`` cases it.  An ALL-CAPS broadcast file (EBU-TT-D)
comes back in proper case with only letters (and restored marks) changed; its cues are cased exactly
as the same text in an SRT file is (across cue boundaries, speaker labels and sound cues by the house
style), so the format changes nothing of the casing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from subcase.casing.pipeline import case_file
from subcase.casing.restoring import Punctuate
from subcase.subtitles import load

from helpers.changes import assert_only_letters_and_marks

pytestmark = pytest.mark.model

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "ttml"
CAPS = FIXTURES / "ebu_tt_d_caps.xml"


def _as_srt(path: Path, tmp_path: Path) -> Path:
    """The same cues, as plain SRT text."""
    doc = load(path)
    srt = tmp_path / (path.stem + ".srt")
    srt.write_text("".join(f"{k + 1}\n00:00:{k:02d},000 --> 00:00:{k:02d},900\n{c.plain_text()}\n\n"
                           for k, c in enumerate(doc.cues)), encoding="utf-8")
    return srt


@pytest.mark.parametrize("punctuate", [Punctuate.NEVER, Punctuate.ALWAYS])
def test_all_caps_ebu_tt_d_converts_to_proper_case_as_srt_does(engine, tmp_path: Path, punctuate) -> None:
    before = CAPS.read_text(encoding="utf-8")
    cased = case_file(engine, CAPS, punctuate=punctuate)  # --mode auto, the default
    after = cased.doc.to_bytes().decode("utf-8")
    assert_only_letters_and_marks(before, after)
    # everything outside the cues' text is byte for byte as it was
    assert re.sub(r">[^<]*<", "><", after) == re.sub(r">[^<]*<", "><", before)
    letters = [c for c in "".join(cue.plain_text() for cue in cased.doc.cues) if c.isalpha()]
    assert sum(c.islower() for c in letters) > len(letters) / 2  # proper case now, not capitals
    srt = case_file(engine, _as_srt(CAPS, tmp_path), punctuate=punctuate)
    assert [c.plain_text() for c in cased.doc.cues] == [c.text for c in srt.doc.cues]
    caps = case_file(engine, CAPS, mode="caps", punctuate=punctuate)
    assert caps.doc.to_bytes() == cased.doc.to_bytes()  # auto saw an ALL-CAPS file


_CAPS_WORDS = ["THE", "AND", "LONDON", "PARIS", "I", "WE", "WILL", "GO", "TO", "TOMORROW", "JOHN", "SAID", "IT'S",
               "NEW", "YORK", "MONDAY", "HELLO", "DOCTOR", "SMITH", "YES", "NO", "WHERE", "ARE", "YOU"]


@st.composite
def caps_ttml(draw) -> str:
    cues = []
    for k in range(draw(st.integers(1, 5))):
        words = draw(st.lists(st.sampled_from(_CAPS_WORDS), min_size=1, max_size=8))
        if draw(st.booleans()):
            words[0] = draw(st.sampled_from(["MARY:", "[MUSIC]", "(LAUGHS)", "- JOHN:"])) + " " + words[0]
        half = len(words) // 2
        text = " ".join(words[:half]) + ("<tt:br/>" if half else "") + " ".join(words[half:])
        cues.append(f'  <tt:p begin="{k}s" end="{k}.9s"><tt:span style="s">{text}</tt:span></tt:p>')
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<tt:tt xmlns:tt="http://www.w3.org/ns/ttml">\n<tt:body><tt:div>\n'
            + "\n".join(cues) + "\n</tt:div></tt:body></tt:tt>\n")


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("caps-ttml")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(caps_ttml(), st.sampled_from([Punctuate.NEVER, Punctuate.ALWAYS]))
def test_caps_ttml_cased_changes_only_letters_and_marks(engine, folder, text, punctuate) -> None:
    path = folder / "caps.ttml"
    path.write_text(text, encoding="utf-8")
    cased = case_file(engine, path, punctuate=punctuate)
    assert_only_letters_and_marks(text, cased.doc.to_bytes().decode("utf-8"))
