"""The multilingual card can be rewritten without the training run's log (which is not kept with the
model): the held-out section and the speed line stay as the card states them, the dev table is new."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from subcase.training.multilingual_card import HELD_OUT_HEADING, CardError, kept_from_card, write_card

SHIPPED = Path(__file__).resolve().parents[2] / "models" / "multilingual"


def scores(f1: float, intrinsic: float, ser: float) -> dict:
    return {"f1": f1, "intrinsic_f1": intrinsic, "ser": ser}


EVALUATION = {"languages": {"pt": {"words": 3217, "systems": {
    "subcase": {"punct": scores(0.801, 0.587, 0.342), "nopunct": scores(0.692, 0.559, 0.521)},
    "sentence starts": {"punct": scores(0.634, 0.0, 0.541), "nopunct": scores(0.519, 0.108, 0.914)},
    "English model, forced": {"punct": scores(0.558, 0.23, 0.929), "nopunct": scores(0.412, 0.182, 1.14)}}}}}


@pytest.fixture
def model_dir(tmp_path):
    if not (SHIPPED / "MODEL_CARD.md").is_file():
        pytest.skip("the multilingual model is not in this checkout")
    out = tmp_path / "multilingual"
    out.mkdir()
    for name in ("model.json", "MODEL_CARD.md", "lexicon.json", "capitalised.json.gz"):
        shutil.copy(SHIPPED / name, out / name)
    return out


def test_a_card_written_without_the_log_keeps_its_held_out_section_and_speed(model_dir):
    held, speed = kept_from_card(model_dir / "MODEL_CARD.md")
    assert held.startswith("F1 / SER over non-lowercase words") and speed
    card = write_card(model_dir, EVALUATION, None, None).read_text(encoding="utf-8").splitlines()
    assert card[card.index(HELD_OUT_HEADING) + 2] == held
    assert f"| speed | {speed} |" in card
    # the dev table comes from the evaluation given, not from the old card
    assert ("| Portuguese (3,217 words) | no punctuation | 69.2 / 55.9 / 52.1 | 51.9 / 10.8 / 91.4 | "
            "41.2 / 18.2 / 114.0 |") in card
    assert not any(line.startswith("| German (") for line in card)


def test_without_a_card_to_keep_from_the_log_is_asked_for(model_dir):
    (model_dir / "MODEL_CARD.md").unlink()
    with pytest.raises(CardError, match="give --log and --speed"):
        write_card(model_dir, EVALUATION, None, None)


def test_the_shipped_card_has_the_standard_sections_and_is_short():
    from subcase.training.multilingual_card import SECTIONS

    if not (SHIPPED / "MODEL_CARD.md").is_file():
        pytest.skip("the multilingual model is not in this checkout")
    lines = (SHIPPED / "MODEL_CARD.md").read_text(encoding="utf-8").splitlines()
    assert [line for line in lines if line.startswith("## ")] == list(SECTIONS)
    assert len(lines) <= 250
    # this model's dev F1 with its interval over files
    assert any(line.startswith("| German (") and " (" in line.split("|")[3] for line in lines)


def test_a_card_of_the_earlier_shape_can_still_be_kept_from(model_dir):
    from subcase.training.multilingual_card import LEGACY_HELD_OUT_HEADING

    card = model_dir / "MODEL_CARD.md"
    held, speed = kept_from_card(card)
    card.write_text(f"# old card\n\n| speed | {speed} |\n\n{LEGACY_HELD_OUT_HEADING}\n\n{held}\n", encoding="utf-8")
    assert kept_from_card(card) == (held, speed)
