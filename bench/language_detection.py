"""Accuracy and cost of subcase's language detection (casing/language.py) on the shared dev subtitles.

    python bench/language_detection.py [--italian /usr/share/games/fortunes/italia] [--extra-en DIR]

Files right (as written, lower-cased, and lower-cased without punctuation as speech recognition writes),
cues moved off their file's language (all wrong on these single-language files), and foreign cues found
when 10 cues of each non-English file are spliced into an English one (lower-cased, with and without
punctuation).  --italian adds 300 eight-word pieces of Debian's fortunes-it as one more "file";
--extra-en adds the English subtitle files of a folder (e.g. held-out Seinfeld episodes) as more hosts.
"""

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path

from subcase.casing.language import Detector, detect, token_text
from subcase.evaluation.simulate import input_text
from subcase.subtitles import load

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def cue_texts(path: Path) -> list[tuple[str, str]]:
    """Each cue as the detector reads it: as written, and without punctuation (lower-cased)."""
    return [(token_text(c.tokens()), " ".join(input_text(c.text, c.tokens(), True, False).split()))
            for c in load(path).cues]


def files(extra_en: Path | None) -> list[tuple[str, list[tuple[str, str]]]]:
    out = []
    for lang in ("es", "fr", "de", "pt"):
        for p in sorted((SHARED / "dev-subtitles-ml" / lang).iterdir()):
            out.append((lang, cue_texts(p)))
    for folder in (SHARED / "dev-subtitles", *([extra_en] if extra_en else [])):
        for p in sorted(folder.iterdir()):
            if p.suffix in (".srt", ".vtt"):
                out.append(("en", cue_texts(p)))
    return out


def as_read(cues: list[tuple[str, str]], case: str) -> list[str]:
    if case == "as written":
        return [c for c, _ in cues]
    if case == "lower-cased":
        return [c.lower() for c, _ in cues]
    return [u for _, u in cues]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--italian", type=Path)
    ap.add_argument("--extra-en", type=Path, help="a folder of more English subtitle files")
    args = ap.parse_args()
    t = time.perf_counter()
    Detector.model()
    print(f"detector load {1000 * (time.perf_counter() - t):.0f} ms")
    data = files(args.extra_en)
    if args.italian:
        words = re.sub(r"%\n", " ", args.italian.read_text(encoding="utf-8")).split()
        pieces = [" ".join(words[i:i + 8]) for i in range(0, 8 * 300, 8)]
        data.append(("it", [(p, re.sub(r"[^\w\s']", " ", p)) for p in pieces]))
    for case in ("as written", "lower-cased", "no punctuation"):
        right: dict[str, list[int]] = {}
        moved = n = 0
        t = time.perf_counter()
        for lang, cues in data:
            g = detect(as_read(cues, case))
            r = right.setdefault(lang, [0, 0])
            r[0] += g.language == lang
            r[1] += 1
            moved += sum(1 for c in g.cue_languages if c != g.language)
            n += len(cues)
        dt = time.perf_counter() - t
        print(f"{case}: files right " + ", ".join(f"{k} {a}/{b}" for k, (a, b) in right.items())
              + f"; cues moved {moved}/{n}; {1e6 * dt / n:.0f} us per cue")
    hosts = [cues for lang, cues in data if lang == "en"][:22]  # the dev files: the splices as before
    for case in ("lower-cased", "no punctuation"):
        found = spliced = flipped = 0
        for i, (lang, cues) in enumerate((lang, c) for lang, c in data if lang != "en"):
            host = hosts[i % len(hosts)]
            half = len(host) // 2
            mixed = as_read(host[:half] + cues[:10] + host[half:], case)
            g = detect(mixed)
            flipped += g.language != "en"
            found += sum(c == lang for c in g.cue_languages[half:half + len(cues[:10])])
            spliced += len(cues[:10])
        print(f"spliced, {case}: {found}/{spliced} foreign cues found; {flipped} English hosts taken for the "
              "other language")


if __name__ == "__main__":
    main()
