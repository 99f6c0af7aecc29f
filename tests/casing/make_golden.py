"""Regenerate the golden files after shipping a new model:

    python tests/casing/make_golden.py        (subcase installed, e.g. pip install -e .)

The golden files pin the shipped model's tags and probabilities on fixed
inputs, so any change to the model, the tokenizer, the windowing or the
calibration shows up as a failing test rather than as silently different casing.

onnxruntime's int8 matrix kernels compute in one of two ways on x86-64 (see
test_golden.py): exactly (VNNI, AMX, SSE) or with the 16-bit saturation of
vpmaddubsw (AVX2 and AVX-512 without VNNI).  Each way gets its own file:

* golden.json       -- this machine, which must have VNNI or AMX (exact);
* golden-avx2.json  -- the same script on an AVX2 CPU without VNNI: under valgrind
                       (apt-get install valgrind; its CPU has AVX2 and nothing newer), or
                       else under ``qemu-x86_64 -cpu Haswell`` (apt-get install qemu-user).
                       ``python bench/avx2_only.py python tests/casing/make_golden.py avx2``
                       does it natively where the CPU has CPUID faulting.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable

from subcase.casing import CasingEngine, case_texts

HERE = Path(__file__).resolve().parent
MODELS = HERE.parents[1] / "models"
FILES = {"exact": HERE / "golden.json", "avx2": HERE / "golden-avx2.json"}

INPUTS = {
    "cross_cue": ["so we flew to new york", "on monday with john smith", "and the fbi was waiting."],
    "no_punctuation": ["i think the bbc said that", "london is closed on sundays", "ask doctor jones"],
    "all_caps": ["NARRATOR: IN 1969, NASA SENT", "THREE MEN TO THE MOON."],
    "sound_and_speaker": ["[door slams]", "JOHN: who's there?", "- it's me, mary."],
    "mixed_case": ["she bought an iphone on ebay", "and watched youtube in mcdonald's."],
    "honorifics": ["yes, your majesty.", "the king will see you now."],
}


def cpu_features() -> set[str]:
    """What CPUID tells this process (under qemu: the emulated CPU)."""
    try:
        from numpy._core._multiarray_umath import __cpu_features__ as feats
    except ImportError:  # numpy < 2
        from numpy.core._multiarray_umath import __cpu_features__ as feats
    return {name for name, present in feats.items() if present}


def cases(engine: CasingEngine, inputs: dict[str, list[str]]) -> dict:
    """Each case's texts and every word's cue, input, output, tag and probabilities."""
    out = {}
    for name, texts in inputs.items():
        casing = case_texts(engine, texts)
        out[name] = {
            "texts": texts,
            "words": [{"cue": w.cue_index, "input": w.input, "output": w.output, "tag": w.tag.value,
                       "probs": [round(p, 4) for p in w.probs]} for w in casing.words],
        }
    return out


def golden(engine: CasingEngine, kernel: str) -> dict:
    return {"sha256": engine.info.sha256, "int8_kernel": kernel, "cpu": sorted(cpu_features()),
            "cases": cases(engine, INPUTS)}


def write(kernel: str) -> None:
    data = golden(CasingEngine(MODELS), kernel)
    FILES[kernel].write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {FILES[kernel]} for model {data['sha256'][:12]}")


def both_kernels(script: str, files: dict[str, Path], write: Callable[[str], None]) -> int:
    """Write files["exact"] here (a VNNI/AMX CPU) and files["avx2"] from ``script avx2`` under qemu."""
    name = Path(script).stem
    if len(sys.argv) == 2 and sys.argv[1] in files:  # the child run under qemu
        write(sys.argv[1])
        return 0
    feats = cpu_features()
    if "AVX512VNNI" not in feats:
        print(f"{name}: {files['exact'].name} must be made on a CPU with AVX-512 VNNI (or AMX), "
              f"this one has {sorted(feats & {'AVX2', 'AVX512F', 'AVX512BW'})}", file=sys.stderr)
        return 1
    write("exact")
    valgrind, qemu = shutil.which("valgrind"), shutil.which("qemu-x86_64")
    if valgrind:
        return subprocess.run([valgrind, "--tool=none", "-q", sys.executable, script, "avx2"]).returncode
    if not qemu:
        print(f"{name}: neither valgrind nor qemu-x86_64 found (apt-get install valgrind); "
              f"{files['avx2'].name} not made", file=sys.stderr)
        return 1
    return subprocess.run([qemu, "-cpu", "Haswell", sys.executable, script, "avx2"],
                          stderr=subprocess.DEVNULL).returncode


if __name__ == "__main__":
    sys.exit(both_kernels(__file__, FILES, write))
