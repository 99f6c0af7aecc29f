"""The README's install, no extras: the editor starts, cases a dev file and shows it, and its Media menu and
pane say how to add playback.

CI installs the wheel with the test and media extras, so every other test has QtMultimedia and none can see
a module that needs it at import time (issue #53: ``subcase`` died with ModuleNotFoundError on the plain
wheel).  This one installs the same wheel alone, in a venv of its own (pip's cache makes that about 20 s),
and runs ``subcase FILE``'s own start-up there, the real window offscreen (open_editor.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from subcase.gui.media import INSTALL_HINT
from subcase.subtitles import load

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
DEV_FILE = "meyer1994__srt__sintel_en.srt"  # English, 26 cues: cased in about a second


def _environment(tmp_path: Path) -> dict[str, str]:
    # nothing of the test run's own environment (its subcase, its model folder) leaks into the new venv
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SUBCASE_", "PYTHON", "VIRTUAL_ENV"))}
    env.update(PIP_DISABLE_PIP_VERSION_CHECK="1", QT_QPA_PLATFORM="offscreen",
               SUBCASE_CONFIG_DIR=str(tmp_path / "config"), SUBCASE_DATA_DIR=str(tmp_path / "data"))
    return env


@pytest.mark.model  # the wheel's own model cases the file
def test_the_plain_wheel_opens_the_editor_on_a_dev_file(dists, stripped_dev, tmp_path):
    _, wheel = dists
    sub = stripped_dev(DEV_FILE)  # lower case, no punctuation: what the window shows is the model's casing
    env = _environment(tmp_path)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, env=env, timeout=120)
    python = venv / ("Scripts" if os.name == "nt" else "bin") / "python"
    pip = subprocess.run([python, "-m", "pip", "install", "-q", "-c", ROOT / "constraints.txt", wheel],
                         capture_output=True, text=True, env=env, timeout=300)
    assert pip.returncode == 0, pip.stdout[-2000:] + pip.stderr[-3000:]
    probe = subprocess.run([python, "-c", "import PySide6.QtMultimedia"], capture_output=True, text=True,
                           env=env, timeout=60)
    assert probe.returncode != 0 and "No module named 'PySide6.QtMultimedia'" in probe.stderr, \
        "QtMultimedia came with the plain wheel: this test would not test an install without the media extra"

    screenshot = tmp_path / "window.png"
    run = subprocess.run([python, HERE / "open_editor.py", sub, screenshot], capture_output=True, text=True,
                         env=env, cwd=tmp_path, timeout=180)
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stdout + run.stderr[-4000:]
    facts = json.loads(run.stdout.splitlines()[-1])

    on_disk = [cue.text for cue in load(sub).cues]
    assert facts["visible"] and facts["closed"], facts
    assert facts["cues"] == facts["rows"] == len(on_disk)
    assert facts["text_shown"], f"the first cue's text has no room on screen: {screenshot}"
    assert not any(c.isupper() for text in on_disk for c in text)
    assert facts["shown"][0].startswith("This blade has a dark past"), facts["shown"]
    # the media extra is missing: one line of menu and pane says how to add it, and no player was made
    assert INSTALL_HINT in facts["media_menu_first"] and not facts["media_menu_first_enabled"], facts
    assert INSTALL_HINT in facts["media_pane"] and "\n" not in facts["media_pane"], facts
    assert not facts["player"] and not facts["multimedia_loaded"], facts
