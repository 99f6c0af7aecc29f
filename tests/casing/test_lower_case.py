"""German du-forms: the model learnt to doubt them from old-spelling training text; where it wrote one in
lower case, the weighing of casing/lower_case.py takes it off the review list without changing a word."""

from __future__ import annotations

import pytest

import subcase.casing.lower_case as lower_case
from subcase.casing import case_file

LINES = ["wenn du im internet surfst, hinterlässt du spuren.", "deine daten verraten, wer du bist.",
         "du kannst dich schützen, wenn du tor benutzt.", "ich zeige dir, wie das geht."]


def test_du_forms_written_in_lower_case_are_surer_and_nothing_else_changes(engine, tmp_path, monkeypatch):
    if engine.engine_for("de") is None:
        pytest.skip("the multilingual model (German) is not installed")
    path = tmp_path / "de.srt"
    path.write_text("\n".join(f"{i + 1}\n00:00:0{i},000 --> 00:00:0{i},900\n{t}\n" for i, t in enumerate(LINES)),
                    encoding="utf-8")
    weighed = case_file(engine, path, punctuate="never")
    monkeypatch.setattr(lower_case, "LIKELIHOOD_RATIO", 1.0)  # the model's own probabilities
    plain = case_file(engine, path, punctuate="never")
    assert weighed.casing.language is not None and weighed.casing.language.language == "de"
    # not a word changes: the sentence starts keep their capitals ("Deine", "Du"), the rest stays lower
    assert [c.text for c in weighed.doc.cues] == [c.text for c in plain.doc.cues]
    assert weighed.doc.cues[1].text.startswith("Deine") and weighed.doc.cues[2].text.startswith("Du kannst")
    threshold = weighed.casing.threshold
    pairs = [(w, p) for w, p in zip(weighed.casing.words, plain.casing.words)
             if w.input.lower() in lower_case.LOWER_CASE["de"]]
    inside = [(w, p) for w, p in pairs if w.output.islower()]
    assert len(inside) == 6
    assert all(w.confidence > p.confidence for w, p in inside)
    # the model doubts most of them; weighed, at most one is left under the review threshold
    assert sum(p.confidence < threshold for _, p in inside) >= 4
    assert sum(w.confidence < threshold for w, _ in inside) <= 1
    # a capital at a sentence start is left exactly as the model gave it
    assert all(w.probs == p.probs for w, p in pairs if not w.output.islower())
