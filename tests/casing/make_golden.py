"""Regenerate tests/casing/golden.json after shipping a new model:

    PYTHONPATH=app python tests/casing/make_golden.py

The golden file pins the shipped model's tags and probabilities on fixed
inputs, so any change to the model, the tokenizer or the windowing shows up as
a failing test rather than as silently different casing.
"""

from __future__ import annotations

import json
from pathlib import Path

from subcase.casing import CasingEngine, case_texts

HERE = Path(__file__).resolve().parent
MODELS = HERE.parents[1] / "models"

INPUTS = {
    "cross_cue": ["so we flew to new york", "on monday with john smith", "and the fbi was waiting."],
    "no_punctuation": ["i think the bbc said that", "london is closed on sundays", "ask doctor jones"],
    "all_caps": ["NARRATOR: IN 1969, NASA SENT", "THREE MEN TO THE MOON."],
    "sound_and_speaker": ["[door slams]", "JOHN: who's there?", "- it's me, mary."],
    "mixed_case": ["she bought an iphone on ebay", "and watched youtube in mcdonald's."],
    "honorifics": ["yes, your majesty.", "the king will see you now."],
}


def golden(engine: CasingEngine) -> dict:
    out = {"sha256": engine.info.sha256, "cases": {}}
    for name, texts in INPUTS.items():
        casing = case_texts(engine, texts)
        out["cases"][name] = {
            "texts": texts,
            "words": [{"cue": w.cue_index, "input": w.input, "output": w.output, "tag": w.tag.value,
                       "probs": [round(p, 4) for p in w.probs]} for w in casing.words],
        }
    return out


if __name__ == "__main__":
    data = golden(CasingEngine(MODELS))
    (HERE / "golden.json").write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {HERE / 'golden.json'} for model {data['sha256'][:12]}")
