"""Regenerate the golden file after shipping a new model:

    python tests/casing/make_golden.py        (subcase installed, e.g. pip install -e .)

The golden file pins the shipped model's tags and probabilities on fixed
inputs, so any change to the model, the tokenizer, the windowing or the
calibration shows up as a failing test rather than as silently different casing.

One file for every CPU: the shipped weights are 7-bit (training/reduce_range.py), so
onnxruntime's int8 kernels (VNNI, AMX, AVX2's vpmaddubsw, SSE) compute the same integers
(docs/research/2026-11-29-one-answer-on-every-cpu.md).  Until model 0.2.0 was re-quantized,
AVX2 CPUs had a golden-avx2.json of their own.
"""

from __future__ import annotations

import json
from pathlib import Path

from subcase.casing import CasingEngine, case_texts

HERE = Path(__file__).resolve().parent
MODELS = HERE.parents[1] / "models"
FILE = HERE / "golden.json"

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


def golden(engine: CasingEngine) -> dict:
    return {"sha256": engine.info.sha256, "cpu": sorted(cpu_features()), "cases": cases(engine, INPUTS)}


def write() -> None:
    data = golden(CasingEngine(MODELS))
    FILE.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {FILE} for model {data['sha256'][:12]}")


if __name__ == "__main__":
    write()
