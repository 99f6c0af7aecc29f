"""Style-guide presets (``--style``): the house style they set, their documented sources, and real
Netflix-style SDH lines written with lower-case cues whose names keep their capitals.

The lines, as the reference writes them:

- "[jaunty piano tune]", "[blocks clattering]": the Blocks4All captions (ableplayer/ableplayer,
  media/blocks4all_captions_en.vtt, in ../shared/data/dev-subtitles), which write their sound cues
  Netflix-style;
- "[coughs, sniffs]", "However, lately, I've been…", "[man]", "-Are you coming?" / "-In a minute.":
  the examples of Netflix's English (USA) Timed Text Style Guide, SDH section;
- "[Maria sighs]", "[tires screech]": the two cues of the issue that asked for this; "[Jerry laughs]",
  "[Elaine gasps]": the same rule with the names of the held-out Seinfeld episodes.

The names are ones the model is sure of when the cue is read as a plain sentence (P(lower) at most
0.07 against the 0.2 it takes to keep a capital), so the test sits on no near-tie of the int8 model.
"""

from __future__ import annotations

from subcase.casing.housestyle import PRESETS, Category, Style
from subcase.cli import build_parser, main

REFERENCE = [
    "[jaunty piano tune]",
    "[blocks clattering]",
    "[coughs, sniffs]\nHowever, lately, I've been…",
    "[Maria sighs]",
    "[tires screech]",
    "[Jerry laughs]\nWhere were you?",
    "[Elaine gasps]",
    "-[man] Are you coming?\n-In a minute.",
]


def srt(texts: list[str]) -> str:
    return "\n".join(f"{i}\n00:00:{i:02d},000 --> 00:00:{i:02d},900\n{t}\n" for i, t in enumerate(texts, 1))


def cues_of(text: str) -> list[str]:
    return ["\n".join(block.split("\n")[2:]) for block in text.strip().split("\n\n")]


def test_every_preset_documents_its_rule_and_source():
    assert set(PRESETS) >= {"netflix", "bbc", "dcmp", "fcc"}
    for p in PRESETS.values():
        assert p.rule and p.source and set(p.style_map()) == {Category.SOUND, Category.LABEL}
    assert PRESETS["netflix"].style_map()[Category.SOUND] is Style.LOWER
    assert PRESETS["bbc"].style_map()[Category.SOUND] is Style.UPPER
    assert "17350977" in PRESETS["netflix"].source and "captioningkey.org" in PRESETS["dcmp"].source


def test_a_category_given_on_the_command_line_overrides_the_preset():
    from subcase.cli import _styles
    args = build_parser().parse_args(["convert", "x.srt", "-o", "out", "--style", "bbc", "--speaker-labels", "title"])
    assert _styles(args) == {Category.SOUND: Style.UPPER, Category.LABEL: Style.TITLE}


def test_netflix_preset_writes_lower_case_cues_and_keeps_the_names(tmp_path, engine):
    for name, recase in (("lower", str.lower), ("upper", str.upper)):
        src = tmp_path / f"{name}.srt"
        src.write_text(srt([recase(t) for t in REFERENCE]), encoding="utf-8")
        assert main(["convert", str(src), "-o", str(tmp_path / "out"), "--style", "netflix", "-q"]) == 0
        out = cues_of((tmp_path / "out" / f"{name}.srt").read_text(encoding="utf-8"))
        cues = [c.split("\n")[0] for c in out]
        assert cues[:2] == ["[jaunty piano tune]", "[blocks clattering]"], name
        assert cues[2].startswith("[coughs, sniffs]"), name
        assert cues[3:5] == ["[Maria sighs]", "[tires screech]"], name
        assert cues[5].startswith("[Jerry laughs]") and cues[6] == "[Elaine gasps]", name
        assert out[7].startswith("-[man] "), name
