"""As-written conversion of the dev subtitles in auto mode: words changed, flags, and the conventions learned.

    python docs/research/scripts/file_conventions.py [--punctuate auto] [DIR ...]

DIRs default to ../shared/data/dev-subtitles and dev-subtitles-ml beside the repository.  For each set: files,
words, words changed, flags (words the review raises for a disagreement with the model, kept passages and
convention words), flags whose reason does not name the model's form (should be 0), words written by a file's
convention, and the conventions and capitals-on-purpose passages found (docs/research/2026-11-29-file-conventions.md).
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from subcase.casing import CasingEngine, case_file
from subcase.casing.auto import Passage

ROOT = Path(__file__).resolve().parents[3]
DEFAULT = [ROOT.parent / "shared" / "data" / "dev-subtitles", ROOT.parent / "shared" / "data" / "dev-subtitles-ml"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("dirs", nargs="*", type=Path, default=DEFAULT)
    ap.add_argument("--punctuate", default="auto")
    ap.add_argument("--model", type=Path, default=None)
    args = ap.parse_args()
    engine = CasingEngine(args.model) if args.model else CasingEngine()
    for d in args.dirs:
        files = sorted(p for p in d.rglob("*") if p.suffix in (".srt", ".vtt"))
        words = changed = flags = unnamed = by_convention = 0
        found: Counter[str] = Counter()
        for src in files:
            cased = case_file(engine, src, punctuate=args.punctuate)
            casing = cased.casing
            words += len(casing.words)
            changed += sum(1 for w in casing.words if w.output != w.input)
            for w in casing.words:
                kept = casing.passage(w.cue_index) is Passage.KEEP
                reason = casing.disagrees(w) if kept or getattr(w, "convention", None) is not None \
                    else casing.doubted(w)
                if getattr(w, "convention", None) is not None:
                    by_convention += 1
                    found[f"{src.name}: {w.convention.convention}"] += 0
                if reason is not None:
                    flags += 1
                    unnamed += f"the model would write '{w.model_form}'" not in reason
            for why in casing.reasons.values():
                if why.startswith("written in capitals on purpose"):
                    found[f"{src.name}: {why}"] += 1
        print(f"{d.name}: {len(files)} files, {words} words, {changed} changed, {flags} flags, "
              f"{unnamed} flags without the model's form, {by_convention} words by a convention")
        for what, n in sorted(found.items()):
            print(f"  {what}" + (f" x{n} cues" if n else ""))


if __name__ == "__main__":
    main()
