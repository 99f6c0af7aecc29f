"""The multilingual model's training command (training/multilingual.py `train`) runs a real step end to end:
it takes the share of unpunctuated windows as the English commands do, records it with the run, and refuses
a share outside 0-1 (train extra)."""

from __future__ import annotations

import json
import pickle
import random

import pytest

torch = pytest.importorskip("torch", reason="the train extra (torch) is not installed")
pytest.importorskip("transformers", reason="the train extra (transformers) is not installed")

from subcase.casing.encoder import WordEncoder  # noqa: E402
from subcase.training.corpora import Doc, split_into_cues  # noqa: E402
from subcase.training.examples import encode_doc  # noqa: E402
from subcase.training.multilingual import main  # noqa: E402
from subcase.training.paths import encoder_dir  # noqa: E402

TEXT = ("Hola, Juan. ¿Vienes a Madrid el lunes? No, me quedo en Sevilla con María. "
        "Entonces nos vemos en la estación de Atocha.")


@pytest.fixture
def run_inputs(tmp_path):
    try:
        enc = encoder_dir()  # any BERT folder will do: the English encoder is the one installed
    except RuntimeError as exc:
        pytest.skip(str(exc))
    encoder = WordEncoder(enc / "tokenizer.json")
    rng = random.Random(0)
    docs = [("wiki", encode_doc(Doc("wiki", split_into_cues(TEXT, rng)), encoder)) for _ in range(3)]
    data = {"train": {"es": docs}, "val": {"es": docs[:1]}, "stats": {"es": {"docs": 3}}}
    path = tmp_path / "data.pkl"
    path.write_bytes(pickle.dumps(data))
    return enc, path


def test_a_multilingual_run_trains_and_records_its_share_of_unpunctuated_windows(run_inputs, tmp_path):
    enc, data = run_inputs
    out = tmp_path / "run"
    main(["train", "--encoder", str(enc), "--data", str(data), "--out", str(out), "--minutes", "0.001",
          "--batch-size", "2", "--strip-share", "1.0"])
    assert json.loads((out / "config.json").read_text())["strip_share"] == 1.0
    state = torch.load(out / "last.pt", map_location="cpu")
    assert state["step"] >= 1 and "head.weight" in state["model"]
    record = json.loads((out / "log.jsonl").read_text().splitlines()[-1])
    assert 0.0 <= record["es"]["f1"] <= 1.0


def test_a_multilingual_run_refuses_a_share_outside_0_1(run_inputs, tmp_path):
    enc, data = run_inputs
    with pytest.raises(SystemExit, match="between 0 and 1"):
        main(["train", "--encoder", str(enc), "--data", str(data), "--out", str(tmp_path / "run"),
              "--strip-share", "1.5"])
    assert not (tmp_path / "run").exists()


def test_a_multilingual_run_goes_on_from_weights_without_an_optimiser(run_inputs, tmp_path):
    """Weights rebuilt from a shipped model (from_onnx) carry no optimiser state: the run starts a fresh
    one and counts on from their step."""
    from subcase.training.tagger import CaseTagger

    enc, data = run_inputs
    out = tmp_path / "run"
    out.mkdir()
    torch.save({"model": CaseTagger(str(enc), layers=None).state_dict(), "step": 40}, out / "last.pt")
    main(["train", "--encoder", str(enc), "--data", str(data), "--out", str(out), "--minutes", "0.001",
          "--batch-size", "2"])
    state = torch.load(out / "last.pt", map_location="cpu")
    assert state["step"] > 40 and state["opt"]["state"]


def test_the_average_of_two_runs_is_scored_on_each_game_held_out_and_the_card_names_both(run_inputs, tmp_path):
    """`average` (the shipped recipe's last step) scores the mean weights on data v1's held-out windows and on
    the held-out dialogue of both games (data v5: Wesnoth campaigns, FreeDroidRPG characters); the card
    writes a sentence for each."""
    from subcase.training.multilingual_card import _dialogue_note

    enc, data_path = run_inputs
    data = pickle.loads(data_path.read_bytes())
    data["val_dialogue"] = {"es": data["val"]["es"]}
    data["val_freedroid"] = {"es": data["val"]["es"]}
    data_path.write_bytes(pickle.dumps(data))
    runs = []
    for seed in ("10", "11"):
        out = tmp_path / f"run-{seed}"
        main(["train", "--encoder", str(enc), "--data", str(data_path), "--out", str(out), "--minutes", "0.001",
              "--batch-size", "2", "--seed", seed])
        runs.append(out / "last.pt")
    avg = tmp_path / "avg" / "last.pt"
    main(["average", *map(str, runs), "--out", str(avg), "--encoder", str(enc), "--data", str(data_path)])
    states = [torch.load(p, map_location="cpu")["model"] for p in [*runs, avg]]
    assert torch.allclose(states[2]["head.weight"], (states[0]["head.weight"] + states[1]["head.weight"]) / 2)
    record = json.loads((avg.parent / "log.jsonl").read_text().splitlines()[-1])
    assert set(record) >= {"es", "dialogue", "freedroid"}
    note = _dialogue_note(record)
    assert "Wesnoth campaigns" in note and "FreeDroidRPG characters (Dixon" in note
    assert f"es {100 * record['freedroid']['es']['f1']:.1f} / {100 * record['freedroid']['es']['ser']:.1f}" in note


def test_the_pipeline_s_dialogue_phase_trains_two_seeds_from_the_last_phase_and_averages_them(run_inputs, tmp_path):
    """multilingual_pipeline's phase on more dialogue: two seeds from the previous phase's weights, on the
    phase's data (here already built, so the data step is skipped), averaged into run-NAME, resumable."""
    from subcase.training import multilingual_pipeline

    enc, data_path = run_inputs
    work = tmp_path / "work"
    start = work / "run-dialogue"
    main(["train", "--encoder", str(enc), "--data", str(data_path), "--out", str(start), "--minutes", "0.001",
          "--batch-size", "2"])
    (work / "data-v5.pkl").write_bytes(data_path.read_bytes())
    final, data = multilingual_pipeline._seeds_phase(work, "freedroid", start, "data-v5.pkl", ["--with-freedroid"],
                                                     enc, [], [], 0.001)
    assert (final, data) == (work / "run-freedroid", work / "data-v5.pkl")
    seeds = [torch.load(work / f"run-freedroid-s{s}" / "last.pt", map_location="cpu") for s in (10, 11)]
    begin = torch.load(start / "last.pt", map_location="cpu")["step"]
    assert all(s["step"] > begin and (work / f"run-freedroid-s{n}" / "done").is_file() for s, n in zip(seeds, (10, 11)))
    avg = torch.load(final / "last.pt", map_location="cpu")
    assert torch.allclose(avg["model"]["head.weight"], (seeds[0]["model"]["head.weight"] + seeds[1]["model"]["head.weight"]) / 2)
    # run again: every step's output is there, nothing is trained or averaged again
    mtime = (final / "last.pt").stat().st_mtime_ns
    multilingual_pipeline._seeds_phase(work, "freedroid", start, "data-v5.pkl", ["--with-freedroid"], enc, [], [], 0.001)
    assert (final / "last.pt").stat().st_mtime_ns == mtime
