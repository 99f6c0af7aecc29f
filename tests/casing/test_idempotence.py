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

from subcase.casing.modes import NAMES as MODES
from subcase.evaluation.idempotence import convert_once, first_cues, run
from subcase.subtitles import load

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


def _make_rolling():
    spec = importlib.util.spec_from_file_location("make_rolling", CAPTIONS / "make_rolling.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _lines() -> list[str]:
    """The text of the rolling fixtures (make_rolling.LINES): our own words, as a recogniser cuts them."""
    return list(_make_rolling().LINES)


# Our own words, punctuated as a live stream's recogniser writes them, each line cut where it first shows:
# the words up to a mark, then (the next cue) the mark with the rest of the line
GROWING = [
    ("The council met on Tuesday", "; the budget was late again"),
    ("So the chair asked the clerk", ": where is the report"),
    ("She said it was still at the printer", ". Everyone laughed"),
    ("Then we moved on to the parks", ", the pools and the libraries"),
    ("What about the vote on the new library", "? We will hold it next week"),
    ("Thank you all for coming tonight", ". Good night"),
]


def _live_with_marks(folder: Path) -> Path:
    """A live stream's layout (the dev-asr live stream's): two lines shown before, the bottom line growing
    with letters timed in pieces, shown first up to a word and then with the mark the recogniser writes
    after it and the rest; a 67 ms cue showing the finished line between."""
    make = _make_rolling()
    out, shown, t = ["WEBVTT\nKind: captions\nLanguage: en\n"], [" ", " "], 60000
    for head, rest in GROWING:
        top = "\n".join(shown[-2:])
        out.append(f"{make.ms(t)} --> {make.ms(t + 700)} align:start position:0%\n{top}\n"
                   f"{make.live_timed(head, t, 33)}\n")
        out.append(f"{make.ms(t + 700)} --> {make.ms(t + 2000)} align:start position:0%\n{top}\n{head}"
                   f"{make.live_timed(rest, t + 700, 33)}\n")
        shown.append(head + rest)
        out.append(f"{make.ms(t + 2000)} --> {make.ms(t + 2067)} align:start position:0%\n"
                   + "\n".join(shown[-2:]) + "\n \n")
        t += 2067
    path = folder / "live_marks.vtt"
    path.write_bytes("\n".join(out).encode("utf-8"))
    return path


def test_live_stream_growing_lines_read_alike_and_convert_to_themselves(engine, tmp_path):
    # the dev-asr live stream with --punctuate always (docs/research/2026-11-29-idempotence.md): a mark restored
    # after the last word of a growing line ("program,") that its next showing writes otherwise ("program.") hid
    # the growth from a second conversion, which read the line as new text and restored other marks
    src = _live_with_marks(tmp_path)
    for mode in MODES:
        out = tmp_path / mode / src.name
        out.parent.mkdir()
        convert_once(engine, src, out, mode, "always")
        ends = {cue.plain_text().split("\n")[-1] for cue in load(out).cues}
        for head, rest in GROWING:
            shown = [line for line in ends if line.lower().startswith(head.lower()) and len(line) == len(head) + 1]
            assert all(line[-1] == rest[0] for line in shown), (mode, shown, rest)
    results = list(run(engine, [src], variants=("as-written",), punctuates=("always",)))
    assert len(results) == 4  # every mode
    assert _failures(results) == []


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
