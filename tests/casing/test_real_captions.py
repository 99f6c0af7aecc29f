"""Real speech-recognition captions: YouTube auto-captions (inline word timestamps, rolling lines) and
Whisper output, cased by the default mode.

What must hold on every such file: only letter case changes (tags and timestamps byte for byte), no
capital inside a word unless the word is tagged Mixed, a line a rolling caption repeats is cased exactly
as it first was, and casing the output again changes nothing.

The real files are not in the repository: captions of a video carry its copyright, and none of the
YouTube auto-caption or Whisper files found in public repositories came with a licence that lets us
redistribute them.  They are read from ``../shared/data/real-captions`` (``.vtt`` and ``.srt``), and
the test skips, saying so, where that folder is absent.  The same checks run on an in-repository file
written in YouTube's layout, so they are exercised everywhere.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from subcase.casing import Tag, case_file, tag_of
from subcase.casing.joined import join_words
from subcase.casing.rolling import find_rolled
from subcase.casing.stream import line_numbers
from subcase.subtitles import load


REAL = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "real-captions"
LAYOUT = Path(__file__).resolve().parents[1] / "fixtures" / "captions" / "youtube_layout_rolling.vtt"


def check_real_world_file(engine, src: Path, tmp_path: Path) -> dict:
    """The checks of this module on one file; returns counts for the report."""
    before = src.read_bytes()
    cased = case_file(engine, src, punctuate="never")
    after = cased.doc.to_bytes()
    text_in, text_out = before.decode("utf-8-sig"), after.decode("utf-8-sig")
    # only letter case changed: same length, same characters apart from case
    assert len(text_in) == len(text_out), src.name
    assert all(a == b or a.lower() == b.lower() for a, b in zip(text_in, text_out)), src.name
    # no capital inside a word (a word broken by tags counted whole) unless the model tagged it Mixed
    tags = {(w.cue_index, w.start): w.tag for w in cased.casing.words}
    inside = 0
    for c, cue in enumerate(cased.doc.cues):
        joined, _ = join_words(cue.text, cue.tokens())
        for tok in joined:
            if tok.is_word and tag_of(tok.text) is Tag.M and tags.get((c, tok.start)) is not Tag.M:
                inside += 1
    assert inside == 0, f"{src.name}: {inside} words with a capital inside"
    # a line repeated by a rolling caption is cased as it first was
    cues = cased.doc.cues
    token_lists = [join_words(cue.text, cue.tokens())[0] for cue in cues]
    rolled = find_rolled([cue.text for cue in cues], token_lists)
    repeats = 0
    for c, r in enumerate(rolled):
        if r is None:
            continue
        for i, j in r.pairs:
            assert token_lists[c][i].text == token_lists[c - 1][j].text, (src.name, c)
            repeats += 1
    # casing the output again changes nothing
    out = tmp_path / ("again" + src.suffix)
    out.write_bytes(after)
    assert case_file(engine, out, punctuate="never").changed == 0, src.name
    lines = sum(len(set(line_numbers(cue.text, toks))) for cue, toks in zip(cues, token_lists))
    return {"words": len(cased.casing.words), "changed": cased.changed, "repeated_words": repeats, "lines": lines}


def test_checks_on_a_file_in_youtube_s_layout(engine, tmp_path):
    src = tmp_path / "roll.vtt"
    src.write_bytes(LAYOUT.read_bytes())
    counts = check_real_world_file(engine, src, tmp_path)
    assert counts["repeated_words"] == 20 and counts["changed"] > 0
    assert load(src).cues  # the input is untouched and still reads


def _real_files() -> list[Path]:
    if not REAL.is_dir():
        return []
    return sorted(p for p in REAL.rglob("*") if p.suffix.lower() in (".vtt", ".srt"))


@pytest.mark.parametrize("src", _real_files() or [None], ids=lambda p: p.name if p else "none")
def test_real_auto_captions_and_whisper_files(engine, src, tmp_path):
    if src is None:
        pytest.skip(f"no real auto-caption or Whisper files at {REAL}: they are third-party captions "
                    "without a licence to redistribute, so they are not in the repository")
    check_real_world_file(engine, src, tmp_path)
