"""Long speech-recognition-like files for the long-file benchmarks: a three-hour stream, as plain SRT and in
YouTube's rolling word-level layout (issue #56, item 5).

The text is the dev subtitles' own (lower case and bare of marks), repeated until the file has the words
asked for.  ``rolling_vtt`` shows each line again above the next one, with inline timing
tags on the new line, then a 10 ms "snapshot" cue of the finished line, as YouTube writes it.
"""

from __future__ import annotations

import re
from pathlib import Path

WORDS_PER_LINE = 8
SHARED_DEV = Path(__file__).resolve().parents[3].parent / "shared" / "data" / "dev-subtitles"
_WORD = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*")
_FALLBACK = "so we went down to the station and nobody was there what did the doctor say i told him about new york"


def dev_words(source: Path = SHARED_DEV) -> list[str]:
    """The words of the dev subtitles (``source``), in order, lower case and without marks."""
    from subcase.subtitles import load
    from subcase.subtitles.formats import is_subtitle_path

    words: list[str] = []
    if source.is_dir():
        for f in sorted(source.iterdir()):
            if is_subtitle_path(f):
                doc = load(f)
                for i in range(len(doc.cues)):
                    words += [w.lower() for w in _WORD.findall(doc.plain_text(i))]
    return words or _FALLBACK.split()


def _time(ms: int, sep: str) -> str:
    return f"{ms // 3_600_000:02d}:{ms // 60_000 % 60:02d}:{ms // 1000 % 60:02d}{sep}{ms % 1000:03d}"


def _lines(words: list[str], n_words: int) -> list[list[str]]:
    text = [words[i % len(words)] for i in range(n_words)]
    return [text[i:i + WORDS_PER_LINE] for i in range(0, n_words, WORDS_PER_LINE)]


def plain_srt(words: list[str], n_words: int) -> str:
    out = []
    for i, line in enumerate(_lines(words, n_words)):
        start = i * 2500
        out.append(f"{i + 1}\n{_time(start, ',')} --> {_time(start + 2400, ',')}\n{' '.join(line)}\n")
    return "\n".join(out)


def rolling_vtt(words: list[str], n_words: int) -> str:
    out = ["WEBVTT\nKind: captions\nLanguage: en\n"]
    before = " "
    for i, line in enumerate(_lines(words, n_words)):
        start, end = i * 2500, i * 2500 + 2490
        tagged = line[0] + "".join(f"<{_time(start + 300 * (k + 1), '.')}><c> {w}</c>" for k, w in enumerate(line[1:]))
        out.append(f"{_time(start, '.')} --> {_time(end, '.')} align:start position:0%\n{before}\n{tagged}\n")
        before = " ".join(line)
        out.append(f"{_time(end, '.')} --> {_time(end + 10, '.')} align:start position:0%\n{before}\n \n")
    return "\n".join(out)


def write_long_files(folder: Path, n_words: int, words: list[str] | None = None) -> tuple[Path, Path]:
    """``plain-N.srt`` and ``rolling-N.vtt`` of ``n_words`` words in ``folder``."""
    words = words or dev_words()
    folder.mkdir(parents=True, exist_ok=True)
    srt, vtt = folder / f"plain-{n_words}.srt", folder / f"rolling-{n_words}.vtt"
    srt.write_text(plain_srt(words, n_words), encoding="utf-8")
    vtt.write_text(rolling_vtt(words, n_words), encoding="utf-8")
    return srt, vtt
