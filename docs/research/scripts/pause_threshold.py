"""How much a silence between cues should weigh (casing/pauses.py), per language.

    python docs/research/scripts/pause_threshold.py [FOLDER ...]     (default: the shared English and multilingual dev subtitles)

Input without punctuation, through the same code as ``subcase evaluate --strip-punct``; for each
silence (ms) and likelihood ratio, the errors, F1 and intrinsic F1 per language (intrinsic F1
drops where a word that continues a sentence is raised).  Ratio 1 is the model alone, "hard"
raises every first word after the silence.  Results: docs/research/2026-11-24-no-punctuation-pauses.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

from subcase.casing import CasingEngine, pauses
from subcase.evaluation.bench import SHARED_DEV
from subcase.casing.restoring import Punctuate
from subcase.evaluation.runner import EvaluationOptions, evaluate

HARD = 1e12
SETTINGS: list[tuple[int, float]] = [(1000, 1.0), (1000, 2.0), (1000, 4.0), (1000, HARD), (500, 2.0), (2000, 2.0),
                                     (500, HARD), (2000, HARD)]


def main(folders: list[Path]) -> None:
    paths = sorted(p for f in folders if f.is_dir() for p in f.rglob("*") if p.suffix in (".srt", ".vtt"))
    if not paths:
        print(f"no subtitles in {', '.join(map(str, folders))}")
        return
    engine = CasingEngine()
    shipped = pauses.PAUSE_MS, pauses.LIKELIHOOD_RATIO
    print(f"{len(paths)} files; shipped: {shipped[0]} ms, ratio {shipped[1]:g}")
    try:
        for ms, ratio in SETTINGS:
            pauses.PAUSE_MS, pauses.LIKELIHOOD_RATIO = ms, ratio
            r = evaluate(paths, engine, EvaluationOptions(baselines=False, per_cue=False, punct_settings=(False,),
                                                          punctuate=Punctuate.NEVER))
            cells = []
            for lang, group in sorted(r["languages"].items()):
                s = group["systems"]["subcase"]["nopunct"]
                cells.append(f"{lang} {s['errors']} err, F1 {100 * s['f1']:.1f}, iF1 {100 * s['intrinsic_f1']:.1f}")
            label = "off" if ratio == 1.0 else f"{ms} ms, {'hard' if ratio == HARD else f'x{ratio:g}'}"
            print(f"{label:>16}: " + "; ".join(cells), flush=True)
    finally:
        pauses.PAUSE_MS, pauses.LIKELIHOOD_RATIO = shipped

if __name__ == "__main__":
    main([Path(a) for a in sys.argv[1:]] or [SHARED_DEV, SHARED_DEV.parent / "dev-subtitles-ml"])
