"""Lowercase the shared dev subtitles, run ``subcase convert``: only letter case may change."""

from __future__ import annotations

from subcase.cli import main
from subcase.subtitles import load


def test_convert_lowercased_dev_subtitles_changes_only_case(engine, dev_subtitles, tmp_path, capsys):
    src = tmp_path / "lower"
    src.mkdir()
    originals = {}
    for path in dev_subtitles:
        doc = load(path)
        for cue in doc.cues:
            doc.recase(cue.index, [(w.start, w.end, w.text.lower()) for w in cue.words()
                                   if w.text.lower() != w.text and len(w.text.lower()) == len(w.text)])
        lowered = doc.to_bytes()
        (src / path.name).write_bytes(lowered)
        originals[path.name] = (path.read_bytes(), lowered)
    assert main(["convert", str(src), "-o", str(tmp_path / "out"), "-q"]) == 0
    assert "failed" in capsys.readouterr().out
    right = total = 0
    for name, (original, lowered) in originals.items():
        out = (tmp_path / "out" / name).read_bytes()
        assert (src / name).read_bytes() == lowered            # inputs untouched
        assert len(out) == len(lowered), name                  # nothing added or lost
        assert out.lower() == lowered.lower(), name            # only letter case differs
        assert out.lower() == original.lower(), name           # and it is the human file up to case
        right += sum(a == b for a, b in zip(out, original))
        total += len(out)
    assert right / total > 0.97  # bytes agreeing with the human casing (most bytes are not letters)
