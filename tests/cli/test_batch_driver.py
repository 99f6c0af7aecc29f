"""The batch driver does each piece of work once, and its edges are typed.

Real model, real files: the model card's reads are counted by the interpreter's own
audit hook on ``open``, the model's runs and the collector's pause on the real engine.
"""

from __future__ import annotations

import ast
import pickle
import shutil
import sys
from pathlib import Path

import pytest

from subcase.batch import ConvertOptions, convert_batch, plan_outputs
from subcase.casing import gcpause
from subcase.casing.housestyle import PRESETS
from subcase.cli import main
from subcase.errors import SubcaseError

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "resources" / "examples" / "lowercase-example.srt"
STYLED = "1\n00:00:01,000 --> 00:00:02,000\n[door slams]\njohn: we met in paris.\n\n" \
         "2\n00:00:03,000 --> 00:00:04,000\njohn: and then [laughing] we left.\n"

_opened: list[str] | None = None  # the paths opened while a test listens (audit hooks cannot be removed)


def _audit(event: str, args: tuple) -> None:
    if _opened is not None and event == "open" and isinstance(args[0], (str, Path)):
        _opened.append(str(args[0]))


sys.addaudithook(_audit)


@pytest.mark.usefixtures("engine")
def test_the_model_card_is_read_once_per_batch(tmp_path, capsys):
    global _opened
    for name in ("a.srt", "b.srt"):
        shutil.copy(EXAMPLE, tmp_path / name)
    _opened = []
    try:
        rc = main(["convert", str(tmp_path / "a.srt"), str(tmp_path / "b.srt"), "-o", str(tmp_path / "out"),
                   "-q", "--jobs", "1"])
        cards = [p for p in _opened if Path(p).name == "model.json" and Path(p).parent.name == "models"]
    finally:
        _opened = None
    assert rc == 0 and (tmp_path / "out" / "b.srt").is_file()
    assert len(cards) == 1, cards  # the driver's reading serves the engine too


class Counting:
    """The real engine's model runs, and the collector's pause depth during each."""

    def __init__(self, engine, monkeypatch):
        self.runs, self.depths = 0, []
        real = engine.predict

        def predict(*args, **kwargs):
            self.runs += 1
            self.depths.append(gcpause._depth)
            return real(*args, **kwargs)

        monkeypatch.setattr(engine, "predict", predict)


def _convert(engine, monkeypatch, tmp_path: Path, name: str, styles=None) -> tuple[Counting, bytes]:
    src = tmp_path / "styled.srt"
    src.write_text(STYLED, encoding="utf-8")
    counting = Counting(engine, monkeypatch)
    result = convert_batch(plan_outputs([src], tmp_path / name, None), ConvertOptions(styles=styles, jobs=1, punctuate="never"),
                           engine=lambda: engine)
    monkeypatch.undo()
    assert [r.ok for r in result.results] == [True]
    return counting, (tmp_path / name / "styled.srt").read_bytes()


def test_the_collector_is_paused_once_not_nested(engine, tmp_path, monkeypatch):
    counting, _ = _convert(engine, monkeypatch, tmp_path, "out")
    assert counting.runs == 1 and counting.depths == [1]


def test_upper_house_style_does_not_run_the_model_again(engine, tmp_path, monkeypatch):
    """UPPER writes every word of a category the same way: the plain-sentence run is not needed."""
    counting, styled = _convert(engine, monkeypatch, tmp_path, "bbc", PRESETS["bbc"].style_map())
    assert counting.runs == 1
    assert b"[DOOR SLAMS]" in styled and b"JOHN:" in styled
    # lower style reads the names in the cues as a plain sentence: that run stays
    counting, _ = _convert(engine, monkeypatch, tmp_path, "netflix", PRESETS["netflix"].style_map())
    assert counting.runs == 2


def test_options_are_one_frozen_picklable_value():
    options = ConvertOptions(mode="caps", styles=PRESETS["bbc"].style_map(), terms=["names.txt"], jobs=2, punctuate="never")
    assert pickle.loads(pickle.dumps(options)) == options  # what the worker processes and Dask receive
    assert options.terms == (Path("names.txt"),) and options.mode.value == "caps"
    with pytest.raises(AttributeError):
        options.jobs = 1  # type: ignore[misc]


def test_profile_and_cluster_errors_are_subcase_errors():
    from subcase.batch.cluster import ClusterError
    from subcase.review.profiles.profile import ProfileError
    assert issubclass(ProfileError, SubcaseError) and issubclass(ClusterError, SubcaseError)


def test_a_file_error_carries_its_path_in_the_field(tmp_path):
    from subcase.subtitles import SubtitleError, load
    bad = tmp_path / "bad.srt"
    bad.write_bytes(b"\x00\x01binary")
    with pytest.raises(SubtitleError) as caught:
        load(bad)
    assert caught.value.path == bad
    assert caught.value.reason == "contains binary data (NUL bytes); this is not a subtitle text file"
    assert str(caught.value) == f"{bad}: {caught.value.reason}"


@pytest.mark.usefixtures("engine")
def test_the_cli_prints_a_profile_error_as_every_other_error(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    missing = tmp_path / "no-such-folder"
    assert main(["profile", "build", "series", "--logs", str(missing)]) == 1
    assert capsys.readouterr().err == f"subcase: {missing}: no such file or folder\n"


def test_the_cli_hands_the_library_no_argparse_namespace():
    """Every call from a ``cmd_*`` function into the library passes typed values: ``args`` itself goes
    only to the CLI's own helpers."""
    tree = ast.parse((ROOT / "app" / "subcase" / "cli.py").read_text(encoding="utf-8"))
    own = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    passed = sorted({f"line {call.lineno}: {ast.unparse(call.func)}" for call in ast.walk(tree)
                     if isinstance(call, ast.Call)
                     and any(isinstance(a, ast.Name) and a.id == "args"
                             for a in [*call.args, *(k.value for k in call.keywords)])
                     and not (isinstance(call.func, ast.Name) and call.func.id in own | {"getattr"})
                     and not (isinstance(call.func, ast.Attribute) and call.func.attr == "func")})
    assert passed == []
