"""Converting an output of ``subcase convert`` again changes no byte (issue #56, item 4).

A property over a fixed, cheap part of ``bench/idempotence.py``'s matrix (that command runs the whole of it:
every dev subtitle and dev-asr file): a few dev files cut to their first cues, as written, lower-cased,
stripped and in capitals; the rolling-caption fixtures and speech-recognition layouts written here from our
own text; each under every ``--mode`` and every ``--punctuate``.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from subcase.evaluation.idempotence import first_cues, run

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
CAPTIONS = Path(__file__).resolve().parents[1] / "fixtures" / "captions"

# dev files (under ../shared/data) and the cues of each the test keeps: each sample holds a case a second
# conversion changed before the fix (issue #56 item 4, docs/research/2026-11-29-idempotence.md)
SAMPLES = {
    # stripped, restore and keep modes with --punctuate auto: "Boon, He's" -> "Boon, he's" (a cue-initial word
    # the bare reading took for a sentence start, after a restored comma)
    "dev-subtitles/ableplayer__ableplayer__media__blocks4all_captions_en.vtt": 10,
    # stripped, --punctuate always: "Scales." -> "scales." (a pause counted in text without punctuation only)
    "dev-subtitles/meyer1994__srt__sintel_en.srt": 12,
    # stripped, restore mode: "Y si es tan importante" -> "y si..."; and the "¿" a restored "?" brings, read by
    # the second run with --punctuate always ("niños pequeños" -> "niños, pequeños" in the whole file)
    "dev-subtitles-ml/es/es__ableplayer__ableplayer__media__blocks4all_captions_es.vtt": 17,
}


def _failures(results) -> list[str]:
    return [f"{r.src.name} {r.variant} --mode {r.mode} --punctuate {r.punctuate}: {r.first_change}"
            for r in results if not r.idempotent]


@pytest.mark.parametrize("name", list(SAMPLES))
def test_every_kind_of_input_in_every_mode_converts_to_itself(engine, tmp_path, name):
    src = DATA / name
    if not src.is_file():
        pytest.skip(f"shared dev file not found: {src} (clone with ../shared beside the repo)")
    sample = first_cues(src, SAMPLES[name], tmp_path)
    assert _failures(run(engine, [sample])) == []


def _lines() -> list[str]:
    """The text of the rolling fixtures (make_rolling.LINES): our own words, as a recogniser cuts them."""
    spec = importlib.util.spec_from_file_location("make_rolling", CAPTIONS / "make_rolling.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return list(module.LINES)


def _ms(t: int, sep: str) -> str:
    return f"{t // 3600000:02d}:{t // 60000 % 60:02d}:{t // 1000 % 60:02d}{sep}{t % 1000:03d}"


def _speech_layouts(folder: Path) -> list[Path]:
    """Our text as other recognisers write it: Whisper's SRT (long cues, back to back) and a meeting
    transcript's WebVTT (numbered cues, a speaker label on each, CRLF)."""
    lines = _lines()
    whisper = "".join(f"{k + 1}\n{_ms(k * 4000, ',')} --> {_ms(k * 4000 + 4000, ',')}\n {a} {b}\n\n"
                      for k, (a, b) in enumerate(zip(lines[::2], lines[1::2] + [""])))
    meeting = "WEBVTT\r\n\r\n" + "".join(
        f"{k + 1}\r\n{_ms(k * 2500, '.')} --> {_ms(k * 2500 + 2400, '.')}\r\n{('Dana', 'Lee')[k % 2]} Okafor: {line}\r\n\r\n"
        for k, line in enumerate(lines))
    out = []
    for name, text in (("whisper.srt", whisper), ("meeting.vtt", meeting)):
        (folder / name).write_bytes(text.encode("utf-8"))
        out.append(folder / name)
    return out


def test_rolling_and_speech_recognition_layouts_convert_to_themselves(engine, tmp_path):
    layouts = sorted(p for p in CAPTIONS.iterdir() if p.suffix in (".srt", ".vtt"))
    assert len(layouts) >= 5, "the rolling-caption fixtures (make_rolling.py) are missing"
    results = list(run(engine, [*layouts, *_speech_layouts(tmp_path)], variants=("as-written",)))
    assert len(results) == (len(layouts) + 2) * 12  # every file, mode and --punctuate
    assert _failures(results) == []
