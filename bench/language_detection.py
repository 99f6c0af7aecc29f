"""Accuracy and cost of subcase's language detection (casing/language.py) on the shared dev subtitles.

    python bench/language_detection.py [--italian /usr/share/games/fortunes/italia]

Files right (as written and lower-cased), cues moved off their file's language (all wrong on these
single-language files), and foreign cues found when 10 cues of each non-English file are spliced into an
English one.  --italian adds 300 eight-word pieces of Debian's fortunes-it as one more "file".
"""

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path

from subcase.casing.language import Detector, detect, token_text
from subcase.subtitles import load

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def files() -> list[tuple[str, list[str]]]:
    out = []
    for lang in ("es", "fr", "de", "pt"):
        for p in sorted((SHARED / "dev-subtitles-ml" / lang).iterdir()):
            out.append((lang, [token_text(c.tokens()) for c in load(p).cues]))
    for p in sorted((SHARED / "dev-subtitles").iterdir()):
        if p.suffix in (".srt", ".vtt"):
            out.append(("en", [token_text(c.tokens()) for c in load(p).cues]))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--italian", type=Path)
    args = ap.parse_args()
    t = time.perf_counter()
    Detector.model()
    print(f"detector load {1000 * (time.perf_counter() - t):.0f} ms")
    data = files()
    if args.italian:
        words = re.sub(r"%\n", " ", args.italian.read_text(encoding="utf-8")).split()
        data.append(("it", [" ".join(words[i:i + 8]) for i in range(0, 8 * 300, 8)]))
    for case in ("as written", "lower-cased"):
        right: dict[str, list[int]] = {}
        moved = n = 0
        t = time.perf_counter()
        for lang, cues in data:
            cues = cues if case == "as written" else [c.lower() for c in cues]
            g = detect(cues)
            r = right.setdefault(lang, [0, 0])
            r[0] += g.language == lang
            r[1] += 1
            moved += sum(1 for c in g.cue_languages if c != g.language)
            n += len(cues)
        dt = time.perf_counter() - t
        print(f"{case}: files right " + ", ".join(f"{k} {a}/{b}" for k, (a, b) in right.items())
              + f"; cues moved {moved}/{n}; {1e6 * dt / n:.0f} us per cue")
    hosts = [cues for lang, cues in data if lang == "en"]
    found = spliced = flipped = 0
    for i, (lang, cues) in enumerate((lang, c) for lang, c in data if lang != "en"):
        host = hosts[i % len(hosts)]
        half = len(host) // 2
        mixed = [c.lower() for c in host[:half] + cues[:10] + host[half:]]
        g = detect(mixed)
        flipped += g.language != "en"
        found += sum(c == lang for c in g.cue_languages[half:half + len(cues[:10])])
        spliced += len(cues[:10])
    print(f"spliced: {found}/{spliced} foreign cues found; {flipped} English hosts taken for the other language")


if __name__ == "__main__":
    main()
