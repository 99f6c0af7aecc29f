"""Write long speech-recognition-like subtitle files for the long-file benchmarks (issue #56 item 5).

The text is the dev subtitles' own (../shared/data/dev-subtitles, English), repeated until the file has the
words asked for, written as speech recognition writes it: lower case, no punctuation.  Two layouts:

- ``plain.srt``: cues of eight words, one after the other;
- ``rolling.vtt``: YouTube's word-level layout (each cue shows the line before again above its new line, with
  inline timing tags, then a 10 ms "snapshot" cue of the finished line).

The files are generated, never committed (the dev text stays outside the repository):

    python bench/long_files.py --words 150000 --out /tmp/long
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from subcase.subtitles import load

DEV = Path(__file__).resolve().parents[2] / "shared" / "data" / "dev-subtitles"
WORDS_PER_CUE = 8
_WORD = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*")


def dev_words(folder: Path = DEV) -> list[str]:
    """Every word of the English dev subtitles, in order, lower case and without punctuation."""
    words: list[str] = []
    for path in sorted(folder.iterdir()):
        if path.suffix not in (".srt", ".vtt") or "__" not in path.name:
            continue
        for cue in load(path).cues:
            words += [w.lower() for w in _WORD.findall(re.sub(r"<[^>]*>", " ", cue.text))]
    if not words:
        raise SystemExit(f"no dev subtitles in {folder}")
    return words


def _time(ms: int, sep: str) -> str:
    h, rest = divmod(ms, 3_600_000)
    m, rest = divmod(rest, 60_000)
    s, ms = divmod(rest, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}{sep}{ms:03d}"


def lines_of(words: list[str], n_words: int) -> list[list[str]]:
    text = [words[i % len(words)] for i in range(n_words)]
    return [text[i:i + WORDS_PER_CUE] for i in range(0, n_words, WORDS_PER_CUE)]


def plain_srt(lines: list[list[str]]) -> str:
    out = []
    for i, line in enumerate(lines):
        start = i * 2500
        out.append(f"{i + 1}\n{_time(start, ',')} --> {_time(start + 2400, ',')}\n{' '.join(line)}\n")
    return "\n".join(out)


def rolling_vtt(lines: list[list[str]]) -> str:
    out = ["WEBVTT\nKind: captions\nLanguage: en\n"]
    prev = " "
    for i, line in enumerate(lines):
        start, end = i * 2500, i * 2500 + 2490
        tagged = line[0] + "".join(f"<{_time(start + 300 * (k + 1), '.')}><c> {w}</c>" for k, w in enumerate(line[1:]))
        out.append(f"{_time(start, '.')} --> {_time(end, '.')} align:start position:0%\n{prev}\n{tagged}\n")
        prev = " ".join(line)
        out.append(f"{_time(end, '.')} --> {_time(end + 10, '.')} align:start position:0%\n{prev}\n \n")
    return "\n".join(out)


def write(out: Path, n_words: int) -> tuple[Path, Path]:
    lines = lines_of(dev_words(), n_words)
    out.mkdir(parents=True, exist_ok=True)
    srt, vtt = out / f"plain-{n_words}.srt", out / f"rolling-{n_words}.vtt"
    srt.write_text(plain_srt(lines), encoding="utf-8")
    vtt.write_text(rolling_vtt(lines), encoding="utf-8")
    return srt, vtt


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--words", type=int, default=150_000)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    for path in write(args.out, args.words):
        print(f"{path}  {path.stat().st_size / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
