"""Translated Wesnoth dialogue as multilingual training text (training/dialogue_texts.py), on files laid
out as the Debian campaign packages unpack them, with a catalogue compiled by GNU msgfmt."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from subcase.training import dialogue_texts

pytestmark = pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext's msgfmt is not installed")

BASE = Path("usr/share/games/wesnoth/1.16")
SCENARIO = '''#textdomain wesnoth-httt
[scenario]
    name= _ "scenario name^Blackwater Port"
    [event]
        [message]
            speaker=Konrad
            message= _ "Delfador, some orcs are following us! We must make haste!"
        [/message]
        # message= _ "A commented-out line is not dialogue."
        [message]
            speaker=Kaylan
            message= _ "They call it ""the Dark Crown"",
and they fear it."
        [/message]
        [message]
            message= _ "This line was never translated."
        [/message]
        [message]
            message= _ "$unit.name, you fought well."
        [/message]
        [message]
            message= _ "<i>Yes</i>, we will sail to the Isle of Alduin."
        [/message]
    [/event]
[/scenario]
'''
PO = r'''msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"

msgid "Delfador, some orcs are following us! We must make haste!"
msgstr "¡Delfador, unos orcos nos siguen! ¡Debemos darnos prisa!"

msgid ""
"They call it \"the Dark Crown\",\n"
"and they fear it."
msgstr ""
"La llaman «la Corona Oscura»,\n"
"y la temen."

msgid "$unit.name, you fought well."
msgstr "$unit.name, luchaste bien."

msgid "<i>Yes</i>, we will sail to the Isle of Alduin."
msgstr "<i>Sí</i>, navegaremos a la isla de Alduin."
'''


def _campaign(root: Path, name: str) -> None:
    folder = root / BASE / "data" / "campaigns" / name
    (folder / "scenarios").mkdir(parents=True)
    (folder / "_main.cfg").write_text("#textdomain wesnoth-httt\n[campaign]\n[/campaign]\n", encoding="utf-8")
    (folder / "scenarios" / "02_Blackwater_Port.cfg").write_text(SCENARIO, encoding="utf-8")


def _catalogue(root: Path, folder: str) -> None:
    messages = root / BASE / "locale" / folder / "LC_MESSAGES"
    messages.mkdir(parents=True)
    (root / "httt.po").write_text(PO, encoding="utf-8")
    subprocess.run(["msgfmt", "-o", str(messages / "wesnoth-httt.mo"), str(root / "httt.po")], check=True)


def test_lines_follow_the_scenario_untranslated_lines_break_the_run_and_templated_ones_are_left_out(tmp_path: Path) -> None:
    _campaign(tmp_path, "Heir_To_The_Throne")
    _catalogue(tmp_path, "es")

    found = dialogue_texts.dialogue_by_language([tmp_path], ("es", "fr"))

    assert found["train"]["es"] == [
        ("wesnoth", "¡Delfador, unos orcos nos siguen! ¡Debemos darnos prisa! La llaman «la Corona Oscura», y la temen."),
        ("wesnoth", "Sí, navegaremos a la isla de Alduin."),
    ]
    assert found["train"]["fr"] == []  # no French catalogue: nothing, and no English in its place
    assert found["val"] == {"es": [], "fr": []}


def test_held_out_campaigns_go_to_val(tmp_path: Path) -> None:
    _campaign(tmp_path, dialogue_texts.VAL_CAMPAIGNS[0])
    _catalogue(tmp_path, "es")

    found = dialogue_texts.dialogue_by_language([tmp_path], ("es",))

    assert found["train"]["es"] == []
    assert len(found["val"]["es"]) == 2
