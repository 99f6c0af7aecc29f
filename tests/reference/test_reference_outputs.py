"""Behaviour is pinned: convert, evaluate and simulate-review give today's bytes on the dev subtitles.

The recorded outputs (make_reference.py, one file per int8 kernel) were made before the review core
and batch conversion were restructured; any change to a converted file, a --details line, a flag
count or a score fails here.  A change meant to alter outputs regenerates them in its own commit.
"""

from __future__ import annotations

import json

import pytest
from make_reference import DEV, DEV_ML, FILES, kernel_way, produce

pytestmark = pytest.mark.model


@pytest.fixture(scope="module")
def produced(tmp_path_factory) -> dict:
    for folder in (DEV, DEV_ML):
        if not folder.is_dir():
            pytest.skip(f"shared dev subtitles not found at {folder} (clone with ../shared beside the repo)")
    return produce(tmp_path_factory.mktemp("reference"))


@pytest.fixture(scope="module")
def recorded() -> dict:
    path = FILES[kernel_way()]
    if not path.is_file():
        pytest.skip(f"no reference outputs recorded for this CPU's int8 kernel ({path.name}): "
                    "make_reference.py's docstring says how to record them")
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("command", ["convert", "simulate-review", "evaluate"])
def test_outputs_are_byte_identical_to_the_recorded_ones(produced, recorded, command):
    assert produced[command].keys() == recorded[command].keys()
    for case in recorded[command]:
        assert produced[command][case] == recorded[command][case], f"{command} {case}"
