"""Shared test set-up: the installed package, the shipped model, the shared dev data.

The tests import ``subcase`` as installed: from a wheel (what .ci/run does, from
outside the source tree) or editable (``pip install -e '.[test]'``).  Nothing
puts app/ on sys.path, so a file the wheel lacks fails the tests.  They find
the repository (golden data, models/) and ../shared from this file's place.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

try:
    import subcase  # noqa: F401
except ImportError as exc:  # pragma: no cover - a set-up mistake, not a test failure
    raise pytest.UsageError(f"subcase is not installed in this Python ({exc}): run "
                            "`python -m pip install -e '.[test]'` first, or `bash .ci/run`") from exc

MODELS = ROOT / "models"
DEV_SUBTITLES = ROOT.parent / "shared" / "data" / "dev-subtitles"


# -- the `model` marker: tests that run the shipped ONNX model ------------------------------------------
#
# Their results rest on the int8 arithmetic, which can differ between CPU kernels (tests/casing/test_golden.py),
# so `pytest -m model` selects them for the run on the users' AVX2 kernel (bench/avx2_only.py) that
# docs/dev/testing.md gives, made by hand when the model or its quantization changes; CI runs them once, with
# every other test.  A test is marked when it asks for a fixture that loads the model (MODEL_FIXTURES) or says
# so itself (`pytestmark = pytest.mark.model`, or on the test).  Every other test runs with the model out of
# reach (SUBCASE_MODEL_DIR pointing at a folder that does not exist), so one that loads it unmarked fails
# here, on every machine, instead of escaping the AVX2 run.
MODEL_FIXTURES = {"engine", "engines", "make_window"}


def pytest_configure(config):
    config.addinivalue_line("markers", "model: runs the shipped ONNX model (the AVX2-kernel run of "
                                       "docs/dev/testing.md selects these); other tests see no model")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if MODEL_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.model)


@pytest.fixture(autouse=True)
def _no_model_unless_marked(request, monkeypatch, tmp_path_factory):
    if request.node.get_closest_marker("model") is None:
        monkeypatch.setenv("SUBCASE_MODEL_DIR", str(tmp_path_factory.getbasetemp() / "no-model-for-unmarked-tests"))


@pytest.fixture(scope="session")
def engine():
    """The real shipped ONNX model, found where the app finds it (loaded once per test session)."""
    if not (MODELS / "model.onnx").is_file():
        pytest.skip(f"the shipped model is missing: {MODELS / 'model.onnx'}")
    from subcase.casing import CasingEngine
    # the model as installed (inside the wheel, or models/ for an editable install):
    # test_golden checks that it is the one in models/
    return CasingEngine()


@pytest.fixture(scope="session")
def dev_subtitles() -> list[Path]:
    if not DEV_SUBTITLES.is_dir():
        pytest.skip(f"shared dev subtitles not found at {DEV_SUBTITLES} (clone with ../shared beside the repo)")
    return sorted(p for p in DEV_SUBTITLES.iterdir() if p.suffix in (".srt", ".vtt"))


@pytest.fixture
def stripped_dev(dev_subtitles, tmp_path):
    """stripped_dev(name) -> the path of a copy of that English dev subtitle as speech recognition writes it
    (lower case, no punctuation; timing and layout as they were), in a folder of its own."""
    from subcase.evaluation.simulate import input_text
    from subcase.subtitles import load

    def make(name: str) -> Path:
        src = next((p for p in dev_subtitles if p.name == name), None)
        if src is None:
            pytest.skip(f"shared dev subtitle missing: {name}")
        doc = load(src)
        for c, cue in enumerate(doc.cues):
            doc.set_cue_text(c, input_text(cue.text, cue.tokens(), strip_punct=True, upper=False))
        path = tmp_path / "stripped" / name
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(doc.to_bytes())
        return path
    return make


DEV_SUBTITLES_ML = ROOT.parent / "shared" / "data" / "dev-subtitles-ml"


@pytest.fixture(scope="session")
def dev_subtitles_ml() -> dict[str, list[Path]]:
    """The multilingual dev subtitles by language (es, fr, de, pt); dev only, never training data."""
    if not DEV_SUBTITLES_ML.is_dir():
        pytest.skip(f"shared multilingual dev subtitles not found at {DEV_SUBTITLES_ML}")
    return {d.name: sorted(p for p in d.iterdir() if p.suffix in (".srt", ".vtt"))
            for d in sorted(DEV_SUBTITLES_ML.iterdir()) if d.is_dir()}


@pytest.fixture
def tmpfs(tmp_path):
    """mount(size, read_only=False) -> a fresh tmpfs folder: a real full disk or
    read-only folder (root ignores permission bits, so chmod cannot make one).
    Skips where mounting is not allowed; everything is unmounted afterwards."""
    import subprocess

    mounted: list[Path] = []

    def mount(size: str = "64k", read_only: bool = False) -> Path:
        point = tmp_path / f"tmpfs{len(mounted)}"
        point.mkdir()
        opts = f"size={size},mode=0777" + (",ro" if read_only else "")
        proc = subprocess.run(["mount", "-t", "tmpfs", "-o", opts, "tmpfs", str(point)],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            pytest.skip(f"cannot mount a tmpfs here: {proc.stderr.strip() or proc.returncode}")
        mounted.append(point)
        return point

    yield mount
    for point in reversed(mounted):
        subprocess.run(["umount", "-l", str(point)], capture_output=True)


@pytest.fixture
def fill_disk():
    """fill(folder) fills folder's file system until a write fails with ENOSPC."""
    return _fill_disk


def _fill_disk(folder: Path) -> Path:
    """Fill the file system of folder until a write fails with ENOSPC; returns the filler."""
    import errno

    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as f:
        block = b"\0" * 4096
        while True:
            try:
                if f.write(block) == 0:
                    break
            except OSError as exc:
                assert exc.errno == errno.ENOSPC
                break
    return filler


# -- a scripted casing: the casing interface with probabilities the test gives ------------------------

LOWER, TITLE = (0.995, 0.003, 0.001, 0.001), (0.005, 0.99, 0.003, 0.002)  # sure lower case, sure Title


class ScriptedEngine:
    """The casing engine's interface (``predict``, ``form``, ``info``, the language and tokenizer
    parts the review core reads) with probabilities written in the test instead of the int8
    network's, whose near-ties differ from one CPU kernel to another.  Everything around
    ``predict`` is the real code: the stream, the pause, file-start and continuation rules, the
    review core, house style and learning.  The tokenizer is the shipped model's (deterministic,
    no arithmetic), so ``is_rare`` is what it is in the app.

    ``script`` maps a lower-case word, or (cue, word) for one cue of a ``predict`` call's stream, to
    its four probabilities in TAGS order (L, T, U, M); a word not in it is sure lower case, or sure
    Title where a sentence starts (the stream's start, after . ! ? ) and for "i"."""

    def __init__(self, script: dict | None = None, review_threshold: float = 0.9, languages=("en",)):
        from subcase.casing import ModelInfo
        from subcase.casing.encoder import WordEncoder

        self.script = {k if isinstance(k, str) else (k[0], k[1]): tuple(v) for k, v in (script or {}).items()}
        self.info = ModelInfo(version="scripted", sha256="0" * 64, temperature=1.0,
                              review_threshold=review_threshold, card={"languages": list(languages)})
        self.languages = self.model_languages = tuple(languages)
        self.capitalised: dict = {}
        self.lexicon: dict = {}
        self.encoder = WordEncoder(MODELS / "tokenizer.json")
        self.calls: list[list[str]] = []  # each predict call's words, for tests that ask what was cased

    def engine_for(self, language: str):
        return self if language in self.languages else None

    def form(self, word: str, tag) -> str:
        from subcase.casing import apply_tag
        return apply_tag(word, tag, self.lexicon)

    def predict(self, stream, progress=None, cancel=None):
        from subcase.casing import TAGS, WordPrediction
        from subcase.casing.encoder import BOUNDARY

        out: list = []
        cue, starts = -1, True
        for tok in stream:
            if tok.text == BOUNDARY:
                cue += 1
            if not tok.is_word:
                starts = starts or tok.text in (".", "!", "?")
                out.append(None)
                continue
            low = tok.text.lower()
            probs = self.script.get((cue, low), self.script.get(low, TITLE if starts or low == "i" else LOWER))
            out.append(WordPrediction(TAGS[max(range(4), key=probs.__getitem__)], probs))
            starts = False
        self.calls.append([t.text for t in stream if t.is_word])
        if progress is not None:
            progress(1, 1)
        return out


@pytest.fixture
def scripted():
    """scripted(script, review_threshold=0.9) -> a ScriptedEngine (see there)."""
    if not (MODELS / "tokenizer.json").is_file():
        pytest.skip(f"the shipped tokenizer is missing: {MODELS / 'tokenizer.json'}")
    return ScriptedEngine
