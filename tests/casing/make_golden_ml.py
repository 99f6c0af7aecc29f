"""Regenerate tests/casing/golden_ml.json after shipping a new multilingual model (models/multilingual/):

    PYTHONPATH=app python tests/casing/make_golden_ml.py

Pins the companion model's tags and probabilities on fixed sentences (written for this test, one set per
language it cases), as golden.json does for the English model.
"""

from __future__ import annotations

import json
from pathlib import Path

from subcase.casing import CasingEngine, case_texts

HERE = Path(__file__).resolve().parent
MODELS = HERE.parents[1] / "models"

INPUTS = {
    "de": ["gestern sind wir mit dem zug nach berlin gefahren", "und haben dort frau müller getroffen.",
           "DAS WETTER WAR SCHÖN."],
    "es": ["el lunes fuimos a madrid con maría", "y visitamos el museo del prado.", "¿dónde está juan?"],
    "fr": ["en janvier, nous sommes allés à paris", "avec pierre et la société nationale des chemins de fer."],
    "pt": ["no domingo fomos ao rio de janeiro", "com o joão e a ana.", "o brasil ganhou o jogo"],
}


def golden(engine: CasingEngine) -> dict:
    out = {"sha256": engine.info.sha256, "languages": list(engine.languages), "cases": {}}
    for lang, texts in INPUTS.items():
        if lang not in engine.languages:
            continue
        casing = case_texts(engine, texts)
        out["cases"][lang] = {
            "texts": texts,
            "words": [{"cue": w.cue_index, "input": w.input, "output": w.output, "tag": w.tag.value,
                       "probs": [round(p, 4) for p in w.probs]} for w in casing.words],
        }
    return out


if __name__ == "__main__":
    data = golden(CasingEngine(MODELS / "multilingual"))
    (HERE / "golden_ml.json").write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {HERE / 'golden_ml.json'} for model {data['sha256'][:12]}")
