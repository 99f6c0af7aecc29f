"""FreeDroidRPG's translated dialogue as multilingual training text (training/freedroid_dialogue.py), on files
laid out as Debian's freedroidrpg-data unpacks them, with a catalogue compiled by GNU msgfmt; and the weighing
of dialogue among a language's documents (data v5)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from subcase.training import freedroid_dialogue

DIALOG = '''--[[WIKI
PERSONALITY = { "Militaristic", "Helpful" },
BACKSTORY = "$$NAME$$ is the Red Guard's Quartermaster"
WIKI]]--
return {
	{
		id = "node0",
		text = _"Hi! I'm new here.",
		code = function()
			Npc:says(_"A newcomer! Great! Welcome to the Red Guard! I'm Lukas.")
			-- Npc:says(_"A commented-out line is not dialogue.")
			Npc:says(_"You have %d bullets left.")
			Npc:says(_"This line was never translated.")
			Tux:says(_"Spencer said you\\'d sell me \\"better\\" armor.")
		end,
	},
}
'''
PO = r'''msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"

msgid "Hi! I'm new here."
msgstr "¡Hola! Soy nuevo aquí."

msgid "A newcomer! Great! Welcome to the Red Guard! I'm Lukas."
msgstr "¡Un recién llegado! ¡Genial! ¡Bienvenido a la Guardia Roja! Soy Lukas."

msgid "You have %d bullets left."
msgstr "Te quedan %d balas."

msgid "This line was never translated."
msgstr "This line was never translated."

msgid "Spencer said you'd sell me \"better\" armor."
msgstr "Spencer dijo que me venderías una armadura «mejor»."
'''


def _game(root: Path, character: str) -> None:
    dialogs = root / freedroid_dialogue.STORYLINE / "act1" / "dialogs"
    dialogs.mkdir(parents=True)
    (dialogs / f"{character}.lua").write_text(DIALOG, encoding="utf-8")
    messages = root / freedroid_dialogue.LOCALE / "es" / "LC_MESSAGES"
    messages.mkdir(parents=True)
    (root / "es.po").write_text(PO, encoding="utf-8")
    subprocess.run(["msgfmt", "-o", str(messages / "freedroidrpg-dialogs.mo"), str(root / "es.po")], check=True)


needs_msgfmt = pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext's msgfmt is not installed")


@needs_msgfmt
def test_lines_follow_the_dialog_and_copied_or_templated_lines_are_left_out(tmp_path: Path) -> None:
    _game(tmp_path, "Lukas")

    found = freedroid_dialogue.dialogue_by_language([tmp_path], ("es", "pt"))

    # the %d line is left out; the untranslated one (msgstr = msgid) breaks the run
    assert found["train"]["es"] == [
        ("freedroid", "¡Hola! Soy nuevo aquí. ¡Un recién llegado! ¡Genial! ¡Bienvenido a la Guardia Roja! Soy Lukas."),
        ("freedroid", "Spencer dijo que me venderías una armadura «mejor»."),
    ]
    assert found["train"]["pt"] == []  # no Brazilian catalogue: nothing, and no English in its place
    assert found["val"] == {"es": [], "pt": []}


@needs_msgfmt
def test_held_out_characters_go_to_val(tmp_path: Path) -> None:
    _game(tmp_path, freedroid_dialogue.VAL_DIALOGS[0])

    found = freedroid_dialogue.dialogue_by_language([tmp_path], ("es",))

    assert found["train"]["es"] == [] and len(found["val"]["es"]) == 2


def test_dialogue_is_repeated_to_about_a_quarter_of_the_documents() -> None:
    from subcase.training.multilingual import _weigh_dialogue

    docs = [("wiki", i) for i in range(90)] + [("wesnoth", "w"), ("freedroid", "f")] * 5
    assert _weigh_dialogue(docs) == 3  # 10 dialogue documents among 90 others: three copies of each
    assert len(docs) == 120 and sum(d[0] != "wiki" for d in docs) == 30
    plenty = [("wiki", 0)] * 10 + [("wesnoth", "w")] * 10
    assert _weigh_dialogue(plenty) == 1 and len(plenty) == 20  # already over a quarter: never fewer
