"""Without a usable display the GUI says why in one line and exits 1; Qt used to abort (134).

The subprocess tests run the real ``subcase`` with the display variables
removed or pointing at an X display nobody serves.  With Xvfb installed, the
real X11 plugin is started on a private Xvfb server, to show the check lets a
working display through.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from subcase.gui.display import XCB_PACKAGES, display_problem, xcb_plugin_problem

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "resources" / "examples" / "lowercase-example.srt"
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11/Wayland checks are for Linux")


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env.update(SUBCASE_CONFIG_DIR=str(tmp_path / "config"), SUBCASE_DATA_DIR=str(tmp_path / "data"), **extra)
    return env


def _run_gui(tmp_path: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "subcase", *args], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=120)


def _free_display() -> int:
    return next(n for n in range(4711, 4800) if not Path(f"/tmp/.X11-unix/X{n}").exists())


@linux_only
def test_no_display_prints_one_line_and_exits_1(tmp_path):
    proc = _run_gui(tmp_path, _env(tmp_path))
    assert proc.returncode == 1, f"status {proc.returncode}: {proc.stderr}"
    assert proc.stderr.startswith("subcase: no display: neither DISPLAY nor WAYLAND_DISPLAY is set")
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr


@linux_only
def test_an_x_display_nobody_serves_prints_one_line_and_exits_1(tmp_path):
    n = _free_display()
    proc = _run_gui(tmp_path, _env(tmp_path, DISPLAY=f":{n}"), str(EXAMPLE))
    assert proc.returncode == 1, f"status {proc.returncode}: {proc.stderr}"
    # A bare machine (CI's included) lacks the plugin's system libraries: that is checked first, since
    # installing them is what the user must do before any X server can help.
    missing = xcb_plugin_problem()
    if missing is None:
        assert proc.stderr.strip() == (f"subcase: cannot connect to the X display :{n}: "
                                       f"no X server is listening at /tmp/.X11-unix/X{n}")
    else:
        assert proc.stderr.strip() == f"subcase: {missing}"
        assert missing.startswith("Qt's X11 plugin cannot load lib") and missing.endswith(XCB_PACKAGES)


def test_platforms_chosen_on_purpose_are_left_to_qt():
    assert display_problem({"QT_QPA_PLATFORM": "offscreen"}, "linux") is None
    assert display_problem({"QT_QPA_PLATFORM": "minimal:enable_fonts"}, "linux") is None
    assert display_problem({}, "win32") is None
    assert display_problem({}, "darwin") is None


@linux_only
def test_a_wayland_socket_is_a_display(tmp_path):
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind(str(tmp_path / "wayland-7"))
        env = {"WAYLAND_DISPLAY": "wayland-7", "XDG_RUNTIME_DIR": str(tmp_path)}
        assert display_problem(env, "linux") is None
        missing = {"WAYLAND_DISPLAY": "wayland-8", "XDG_RUNTIME_DIR": str(tmp_path), "QT_QPA_PLATFORM": "wayland"}
        assert "cannot connect to the Wayland display 'wayland-8'" in display_problem(missing, "linux")


@linux_only
@pytest.mark.model  # the smoke test cases the example file
@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed (apt-get install xvfb)")
def test_a_real_x_server_passes_and_the_x11_plugin_shows_the_window(tmp_path):
    n = _free_display()
    xvfb = subprocess.Popen(["Xvfb", f":{n}", "-nolisten", "tcp", "-screen", "0", "1024x768x24"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while not Path(f"/tmp/.X11-unix/X{n}").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert display_problem({"DISPLAY": f":{n}"}, "linux") is None
        proc = _run_gui(tmp_path, _env(tmp_path, DISPLAY=f":{n}", QT_QPA_PLATFORM="xcb"),
                        "gui", str(EXAMPLE), "--smoke-test")
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.startswith("smoke-test: loaded"), proc.stdout
    finally:
        xvfb.terminate()
        xvfb.wait(timeout=10)


def test_the_readme_and_install_page_list_the_packages_the_error_names():
    from subcase.gui.display import XCB_PACKAGES

    for page in (ROOT / "README.md", ROOT / "docs" / "install.md"):
        assert f"\napt-get install {XCB_PACKAGES}\n" in page.read_text(encoding="utf-8"), page
