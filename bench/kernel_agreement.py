"""Do two int8 kernels give the same answer?  Every dev file, cased on this CPU's kernel and on AVX2's.

    python bench/kernel_agreement.py                       # native against AVX2 (bench/avx2_only.py's way)
    python bench/kernel_agreement.py --dev ../shared/data/dev-subtitles --json work/agreement.json
    python bench/kernel_agreement.py --model-dir work/candidate   # a candidate model folder (SUBCASE_MODEL_DIR)

Each dev file (English and multilingual by default) is read three ways, as ``subcase
evaluate`` and ``simulate-review`` make their inputs (evaluation/simulate.py ``prepare``):
lower-cased, lower-cased without punctuation, and in capitals; each is cased in auto mode with
marks restored where the input has none (``--punctuate auto``, the default), through the real
pipeline (language routing, both models, the punctuation head).  A child process does that on
each kernel and records every word's tag and probabilities and every restored mark with the
head's probabilities; this compares them word by word and prints the tags and marks that
differ and the largest probability differences.

The AVX2 kernel is reached as ``bench/avx2_only.py`` reaches it on this host: natively where
the CPU has CPUID faulting, with a patched onnxruntime where it has no AVX-VNNI, else under
valgrind (results only, 20-50x slower: about 15 minutes for the 57 dev files here).  Run it
after any change to a model or its quantization (docs/dev/testing.md); the last run is recorded
in docs/research/2026-11-29-one-answer-on-every-cpu.md.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SHARED = ROOT.parent / "shared" / "data"
DEV = [SHARED / "dev-subtitles", SHARED / "dev-subtitles-ml"]
FORMS = {"lower": (False, False), "stripped": (True, False), "caps": (False, True)}


def dev_files(folders: list[Path]) -> list[Path]:
    return sorted(p for d in folders for p in d.rglob("*") if p.suffix.lower() in (".srt", ".vtt"))


def record(folders: list[Path]) -> dict:
    """Every word's tag and probabilities, and every restored mark, of every dev file in every form."""
    from subcase.casing import CasingEngine
    from subcase.casing.modes import Mode
    from subcase.casing.pipeline import case_document
    from subcase.casing.restoring import Punctuate
    from subcase.evaluation.cpuid import from_cpuid, int8_kernel
    from subcase.evaluation.simulate import input_text
    from subcase.subtitles import load

    engine = CasingEngine(threads=1)
    words: dict[str, list] = {}
    marks: dict[str, list] = {}
    for path in dev_files(folders):
        for form, (strip, upper) in FORMS.items():
            doc = load(path)
            for i, cue in enumerate(doc.cues):
                doc.set_cue_text(i, input_text(cue.text, cue.tokens(), strip, upper))
            casing = case_document(engine, doc, Mode.AUTO, punctuate=Punctuate.AUTO)
            key = f"{path.parent.name}/{path.name}:{form}"
            for w in casing.words:
                words[f"{key}:{w.cue_index}:{w.word_index}"] = [w.input, w.output, w.tag.value,
                                                                 [round(p, 6) for p in w.probs]]
            for m in casing.marks:
                p = m.prediction
                marks[f"{key}:{m.cue_index}:{m.word_index}"] = [p.mark, [round(float(x), 6) for x in p.probs]]
    return {"kernel": int8_kernel(from_cpuid() or {}), "words": words, "marks": marks}


def compare(a: dict, b: dict) -> dict:
    """What differs between two records (``a`` is the reference)."""
    tag_flips, prob_diffs = [], []
    for key, (word, out, tag, probs) in a["words"].items():
        _, out2, tag2, probs2 = b["words"][key]
        d = max(abs(x - y) for x, y in zip(probs, probs2))
        prob_diffs.append(d)
        if tag != tag2 or out != out2:
            tag_flips.append(f"{key} {word!r}: {out!r} {tag} {probs} -> {out2!r} {tag2} {probs2}")
    mark_flips, mark_diffs = [], []
    for key in sorted(set(a["marks"]) | set(b["marks"])):
        m1, m2 = a["marks"].get(key), b["marks"].get(key)
        if m1 is None or m2 is None or m1[0] != m2[0]:
            mark_flips.append(f"{key}: {m1} -> {m2}")
        else:
            mark_diffs.append(max(abs(x - y) for x, y in zip(m1[1], m2[1])))
    return {"words": len(a["words"]), "tag_flips": tag_flips, "max_prob_diff": max(prob_diffs, default=0.0),
            "words_moved": sum(d > 0 for d in prob_diffs),
            "marks": len(a["marks"]), "mark_flips": mark_flips, "max_mark_prob_diff": max(mark_diffs, default=0.0)}


def avx2_command(way: str | None = None) -> list[str]:
    """bench/avx2_only.py's way to the AVX2 kernel on this host: ``way`` (its option "--patch" or "--valgrind"), or the
    first that runs here (the shim, then --patch, then --valgrind)."""
    sys.path.insert(0, str(HERE))
    import avx2_only
    if way is not None:
        return [sys.executable, str(HERE / "avx2_only.py"), way]
    if avx2_only.available() is None:
        return [sys.executable, str(HERE / "avx2_only.py")]
    if avx2_only.patch_available() is None:
        return [sys.executable, str(HERE / "avx2_only.py"), "--patch"]
    if avx2_only.valgrind():
        return [sys.executable, str(HERE / "avx2_only.py"), "--valgrind"]
    raise SystemExit("kernel_agreement: no way to the AVX2 kernel here "
                     "(no CPUID faulting, an AVX-VNNI CPU, no valgrind: apt-get install valgrind)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dev", type=Path, action="append", help="a folder of reference subtitles (repeatable; "
                    "default: the shared English and multilingual dev sets)")
    ap.add_argument("--model-dir", type=Path, help="the model folder to check (default: the installed one)")
    ap.add_argument("--json", type=Path, help="also write the comparison here")
    ap.add_argument("--way", choices=["patch", "valgrind"], help="reach the AVX2 kernel this way "
                    "(default: the fastest that runs here)")
    ap.add_argument("--record", type=Path, help=argparse.SUPPRESS)  # the child: write this kernel's record
    args = ap.parse_args()
    folders = args.dev or DEV
    missing = [str(d) for d in folders if not d.is_dir()]
    if missing:
        print(f"kernel_agreement: not a folder: {', '.join(missing)}", file=sys.stderr)
        return 2
    if args.record:
        args.record.write_text(json.dumps(record(folders)), encoding="utf-8")
        return 0
    way = f"--{args.way}" if args.way else None
    env = dict(os.environ)
    if args.model_dir:
        env["SUBCASE_MODEL_DIR"] = str(args.model_dir.resolve())
    records, seconds = {}, {}
    with tempfile.TemporaryDirectory() as tmp:
        for label, prefix in (("native", []), ("avx2", avx2_command(way))):
            out = Path(tmp) / f"{label}.json"
            cmd = [*prefix, sys.executable, __file__, "--record", str(out)]
            for d in folders:
                cmd += ["--dev", str(d)]
            t0 = time.perf_counter()
            subprocess.run(cmd, check=True, env=env)
            seconds[label] = round(time.perf_counter() - t0, 1)
            records[label] = json.loads(out.read_text(encoding="utf-8"))
    result = compare(records["native"], records["avx2"])
    result.update({"kernels": {k: r["kernel"] for k, r in records.items()}, "seconds": seconds,
                   "files": len(dev_files(folders)), "forms": list(FORMS)})
    print(f"native: {result['kernels']['native']} ({seconds['native']} s)\n"
          f"avx2:   {result['kernels']['avx2']} ({seconds['avx2']} s, {' '.join(avx2_command(way)[1:])})")
    print(f"{result['files']} files x {len(FORMS)} forms: {result['words']:,} words, "
          f"{len(result['tag_flips'])} tags or outputs differ, {result['words_moved']:,} words' probabilities "
          f"differ at all, largest difference {result['max_prob_diff']:.6f}")
    print(f"restored marks: {result['marks']:,}, {len(result['mark_flips'])} differ, largest probability "
          f"difference {result['max_mark_prob_diff']:.6f}")
    for line in result["tag_flips"] + result["mark_flips"]:
        print("   ", line)
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0 if not result["tag_flips"] and not result["mark_flips"] else 1


if __name__ == "__main__":
    sys.exit(main())
