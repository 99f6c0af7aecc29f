"""The shipped model card is generated (``training/card.py``) from model.json, the evaluation and its parts
(lineage.md, ablation.md, int8_kernels.md, languages.md, simulate-review.json): a section written into
MODEL_CARD.md by hand would be lost the next time the pipeline writes the card, so the committed card must be
exactly what its parts give."""

from __future__ import annotations

import shutil
from pathlib import Path

from subcase.training.card import main

MODELS = Path(__file__).resolve().parents[2] / "models"


def test_the_committed_card_is_what_its_parts_generate(tmp_path):
    for part in MODELS.iterdir():
        if part.is_file() and part.suffix in (".json", ".md") and part.name != "MODEL_CARD.md":
            shutil.copy(part, tmp_path / part.name)
    main([str(tmp_path)])  # python -m subcase.training.card FOLDER: the parts and FOLDER/evaluation.json
    generated = (tmp_path / "MODEL_CARD.md").read_text(encoding="utf-8").splitlines()
    committed = (MODELS / "MODEL_CARD.md").read_text(encoding="utf-8").splitlines()
    assert len(generated) > 500
    differing = [(i + 1, a, b) for i, (a, b) in enumerate(zip(committed, generated)) if a != b]
    assert not differing and len(committed) == len(generated), (
        f"MODEL_CARD.md differs from what training/card.py writes from its parts (first difference, line: "
        f"committed, generated): {differing[:1] or (len(committed), len(generated))}; edit the part "
        f"(ablation.md, lineage.md, ...) and run python -m subcase.training.card")
