"""What the evaluation tests share."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

import pytest

from subcase.cli import main


@pytest.fixture
def evaluate_punctuated(tmp_path: Path, capsys) -> Callable[[list[Path]], tuple[str, dict]]:
    """Runs `subcase evaluate` on real files, subcase only, punctuated input, across cues; gives its
    report and its JSON."""
    def run(paths: list[Path]) -> tuple[str, dict]:
        out_json = tmp_path / "e.json"
        assert main(["evaluate", *map(str, paths), "--no-per-cue", "--no-baselines", "--punct-only",
                     "--json", str(out_json)]) == 0
        return capsys.readouterr().out, json.loads(out_json.read_text(encoding="utf-8"))
    return run
