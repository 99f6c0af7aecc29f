"""Write a few documents of the training corpus (/work/corpus, JSON Lines of cues) as SRT files, for fitting
the restored marks' temperature on text a model did not train on (``subcase.evaluation.mark_calibration``).

    python docs/research/scripts/corpus_sample_srt.py /work/corpus/en OUT_DIR --per-source 6 --max-words 4000

The first ``--per-source`` documents of each source file, each cut to its first ``--max-words`` words; cues two
seconds long, a tenth of a second apart (no silence long enough to count as a pause).  The text is never
committed: OUT_DIR is a scratch folder.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def srt_time(ms: int) -> str:
    return f"{ms // 3_600_000:02d}:{ms // 60_000 % 60:02d}:{ms // 1000 % 60:02d},{ms % 1000:03d}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("corpus", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--per-source", type=int, default=6)
    ap.add_argument("--max-words", type=int, default=4000)
    ap.add_argument("--sources", default="", help="comma-separated source file names (default: all)")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    wanted = set(filter(None, args.sources.split(",")))
    for src in sorted(args.corpus.glob("*.jsonl")):
        if wanted and src.stem not in wanted:
            continue
        with open(src, encoding="utf-8") as f:
            for k, line in zip(range(args.per_source), f):
                cues, words = [], 0
                for text in json.loads(line)["cues"]:
                    if words >= args.max_words:
                        break
                    cues.append(text.strip())
                    words += len(text.split())
                blocks = [f"{i + 1}\n{srt_time(2100 * i)} --> {srt_time(2100 * i + 2000)}\n{t}\n"
                          for i, t in enumerate(c for c in cues if c)]
                (args.out / f"{src.stem}-{k:02d}.srt").write_text("\n".join(blocks), encoding="utf-8")


if __name__ == "__main__":
    main()
