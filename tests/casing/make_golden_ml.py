"""Regenerate tests/casing/golden_ml.json after shipping a new multilingual model (models/multilingual/):

    python tests/casing/make_golden_ml.py

Pins the companion model's tags and probabilities on fixed sentences (written for this test, one set per
language it cases), as golden.json does for the English model; one file for every CPU, for the same
reason (see make_golden.py).
"""

from __future__ import annotations

import json
from pathlib import Path

from make_golden import cases  # the English golden script, beside this one

from subcase.casing import CasingEngine

HERE = Path(__file__).resolve().parent
MODELS = HERE.parents[1] / "models"
FILE = HERE / "golden_ml.json"

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


def write() -> None:
    data = golden(CasingEngine(MODELS / "multilingual"))
    FILE.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {FILE} for model {data['sha256'][:12]}")


if __name__ == "__main__":
    write()
