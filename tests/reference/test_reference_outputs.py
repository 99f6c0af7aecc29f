"""Behaviour is pinned: convert, evaluate and simulate-review give today's bytes on the dev subtitles.

The recorded outputs (make_reference.py, on a CPU with AVX-512, as CI's) were made before the review core
and batch conversion were restructured; any change to a converted file, a --details line, a flag
count or a score fails here.  A change meant to alter outputs regenerates them in its own commit.
"""

from __future__ import annotations

import json

import pytest
from make_reference import DEV, DEV_ML, FILE, float_code, produce

pytestmark = pytest.mark.model


@pytest.fixture(scope="module")
def produced(tmp_path_factory) -> dict:
    for folder in (DEV, DEV_ML):
        if not folder.is_dir():
            pytest.skip(f"shared dev subtitles not found at {folder} (clone with ../shared beside the repo)")
    return produce(tmp_path_factory.mktemp("reference"))


@pytest.fixture(scope="module")
def recorded() -> dict:
    recorded = json.loads(FILE.read_text(encoding="utf-8"))
    if float_code() != recorded["float_code"]:
        pytest.skip(f"the outputs were recorded where onnxruntime runs {recorded['float_code']} float code, this "
                    f"process runs {float_code()}: the last bits of the probabilities differ (make_reference.py)")
    return recorded


@pytest.mark.parametrize("command", ["convert", "simulate-review", "evaluate"])
def test_outputs_are_byte_identical_to_the_recorded_ones(produced, recorded, command):
    assert produced[command].keys() == recorded[command].keys()
    for case in recorded[command]:
        assert produced[command][case] == recorded[command][case], f"{command} {case}"
