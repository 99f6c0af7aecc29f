"""Load/save speed of the subtitle core on 10,000-cue files.

    python bench/subtitles_bench.py

Generates a 10,000-cue SRT, WebVTT and TTML file in a temporary directory and
prints subcase's load and save times next to pysrt's, webvtt-py's and ttconv's
load times measured in the same run.  Target: load + save under 1 s each file
(a TTML save includes ttconv's reading of what was written, as every save does).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "app"))

import pysrt  # noqa: E402
import webvtt  # noqa: E402

from subcase.subtitles import load, save  # noqa: E402

CUES = 10_000
REPEAT = 3
AN8 = "{\\an8}"


def _stamp(ms: int, sep: str) -> str:
    s, ms = divmod(ms, 1000)
    m, s = divmod(s, 60)
    h, m = divmod(m, 60)
    return f"{h:02d}:{m:02d}:{s:02d}{sep}{ms:03d}"


def make_ttml() -> str:
    """The same cues as TTML: a pretty-printed IMSC-style file, italics as a span, the line break a <br/>."""
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n<tt xmlns="http://www.w3.org/ns/ttml" '
           'xmlns:tts="http://www.w3.org/ns/ttml#styling" xml:lang="en">\n  <body>\n    <div>\n']
    for i in range(CUES):
        start = i * 2500
        out.append(f'      <p begin="{_stamp(start, ".")}" end="{_stamp(start + 2000, ".")}">\n'
                   f'        <span tts:fontStyle="italic">Cue {i}:</span> Mr. Holmes went to London &amp; Paris,<br/>\n'
                   f'        and said "it\'s elementary".\n      </p>\n')
    out.append("    </div>\n  </body>\n</tt>\n")
    return "".join(out)


def ttconv_load(path: Path) -> None:
    import xml.etree.ElementTree as ET

    from ttconv.imsc.reader import to_model

    to_model(ET.parse(path))


def make(fmt: str) -> str:
    if fmt == "ttml":
        return make_ttml()
    sep = "," if fmt == "srt" else "."
    out = ["WEBVTT\n\n"] if fmt == "vtt" else []
    for i in range(CUES):
        start = i * 2500
        settings = " line:85% align:middle" if fmt == "vtt" and i % 7 == 0 else ""
        position = AN8 if fmt == "srt" and i % 9 == 0 else ""
        out.append(f"{i + 1}\n{_stamp(start, sep)} --> {_stamp(start + 2000, sep)}{settings}\n"
                   f"<i>Cue {i}:</i> Mr. Holmes went to London &amp; Paris,\n"
                   f"and {position}said \"it's elementary\".\n\n")
    return "".join(out)


def best(fn) -> float:
    times = []
    for _ in range(REPEAT):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def measure(fmt: str, tmp: str) -> None:
    path = Path(tmp) / f"big.{fmt}"
    path.write_text(make(fmt), encoding="utf-8", newline="")
    load_s = best(lambda: load(path))
    doc = load(path)
    assert doc.to_bytes() == path.read_bytes() and len(doc.cues) == CUES
    out = Path(tmp) / f"out.{fmt}"
    save_s = best(lambda: save(doc, out, backup=False))

    def edit_and_save() -> None:
        for cue in doc.cues:
            w = cue.words()[0]
            doc.recase(cue.index, [(w.start, w.end, w.text.swapcase())])
        save(doc, out, backup=False)
    edit_s = best(edit_and_save)
    if fmt == "srt":
        base_name, base_s = "pysrt", best(lambda: pysrt.open(str(path), encoding="utf-8"))
    elif fmt == "ttml":
        base_name, base_s = "ttconv", best(lambda: ttconv_load(path))
    else:
        base_name, base_s = "webvtt-py", best(lambda: webvtt.read(str(path)))
    print(f"{fmt:<6}{load_s:>13.3f}s{save_s:>13.3f}s{edit_s:>11.3f}s{base_s:>10.3f}s {base_name}")
    total = load_s + save_s
    print(f"      load+save {total:.3f}s {'OK' if total < 1 else 'OVER 1 s'}")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{CUES:,} cues, best of {REPEAT}")
        print(f"{'file':<6}{'subcase load':>14}{'subcase save':>14}{'edit+save':>12}{'baseline load':>16}")
        for fmt in ("srt", "vtt", "ttml"):
            measure(fmt, tmp)


if __name__ == "__main__":
    main()
