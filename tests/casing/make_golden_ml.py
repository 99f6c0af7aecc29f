"""Regenerate tests/casing/golden_ml.json and golden_ml-avx2.json after shipping a new multilingual model
(models/multilingual/):

    python tests/casing/make_golden_ml.py

Pins the companion model's tags and probabilities on fixed sentences (written for this test, one set per
language it cases), as golden.json and golden-avx2.json do for the English model, and for the same reason
(see make_golden.py): onnxruntime's int8 arithmetic differs between CPUs with VNNI/AMX and AVX2 CPUs
without it, so the second file is made by this script under ``qemu-x86_64 -cpu Haswell``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from make_golden import both_kernels, cases  # the English golden script, beside this one

from subcase.casing import CasingEngine

HERE = Path(__file__).resolve().parent
MODELS = HERE.parents[1] / "models"
FILES = {"exact": HERE / "golden_ml.json", "avx2": HERE / "golden_ml-avx2.json"}

INPUTS = {
    "de": ["gestern sind wir mit dem zug nach berlin gefahren", "und haben dort frau müller getroffen.",
           "DAS WETTER WAR SCHÖN."],
    "es": ["el lunes fuimos a madrid con maría", "y visitamos el museo del prado.", "¿dónde está juan?"],
    "fr": ["en janvier, nous sommes allés à paris", "avec pierre et la société nationale des chemins de fer."],
    "pt": ["no domingo fomos ao rio de janeiro", "com o joão e a ana.", "o brasil ganhou o jogo"],
}


def golden(engine: CasingEngine) -> dict:
    inputs = {lang: texts for lang, texts in INPUTS.items() if lang in engine.languages}
    return {"sha256": engine.info.sha256, "languages": list(engine.languages), "cases": cases(engine, inputs)}


def write(kernel: str) -> None:
    data = golden(CasingEngine(MODELS / "multilingual"))
    data["int8_kernel"] = kernel
    FILES[kernel].write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {FILES[kernel]} for model {data['sha256'][:12]}")


if __name__ == "__main__":
    sys.exit(both_kernels(__file__, FILES, write))
