"""The shipped model card is generated (``training/card.py``) from model.json, the dev evaluation, the held-out
evaluation and the simulated review: a section written into MODEL_CARD.md by hand would be lost the next time the
pipeline writes the card, so the committed card must be exactly what its sources give, in the standard shape."""

from __future__ import annotations

import shutil
from pathlib import Path

from subcase.training.card import SECTIONS, main

MODELS = Path(__file__).resolve().parents[2] / "models"
MAX_LINES = 250


def test_the_committed_card_is_what_its_sources_generate(tmp_path):
    for part in MODELS.iterdir():
        if part.is_file() and part.suffix in (".json", ".md") and part.name != "MODEL_CARD.md":
            shutil.copy(part, tmp_path / part.name)
    main([str(tmp_path)])  # python -m subcase.training.card FOLDER
    generated = (tmp_path / "MODEL_CARD.md").read_text(encoding="utf-8").splitlines()
    committed = (MODELS / "MODEL_CARD.md").read_text(encoding="utf-8").splitlines()
    differing = [(i + 1, a, b) for i, (a, b) in enumerate(zip(committed, generated)) if a != b]
    assert not differing and len(committed) == len(generated), (
        f"MODEL_CARD.md differs from what training/card.py writes (first difference, line: committed, "
        f"generated): {differing[:1] or (len(committed), len(generated))}; run python -m subcase.training.card")


def test_the_card_has_the_standard_sections_in_order_and_is_short():
    lines = (MODELS / "MODEL_CARD.md").read_text(encoding="utf-8").splitlines()
    headings = [line for line in lines if line.startswith("## ")]
    assert headings == list(SECTIONS)
    assert len(lines) <= MAX_LINES
    text = "\n".join(lines)
    # evaluation with intervals on the dev set and on the held-out set
    assert "### Dev set" in text and "### Held-out set" in text and text.count("F1 (90% interval)") >= 2
