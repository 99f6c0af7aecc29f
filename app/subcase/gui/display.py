"""Is there a display the GUI can use?  Asked before QApplication exists.

When Qt's platform plugin cannot start (no DISPLAY, an X server that is gone,
or the X11 plugin missing system libraries) Qt prints several lines and
aborts the process: status 134 and a core dump.  ``display_problem`` finds
those cases first, so ``subcase`` can say what is wrong in one line and exit 1.

Only X11 and Wayland are judged, on Linux and the BSDs; any other platform
named in QT_QPA_PLATFORM (offscreen, minimal, vnc, eglfs...) and Windows and
macOS are left to Qt.  The probes touch only local files and Unix sockets,
never the network: a display on another host (``host:0``) is taken as given.
"""

from __future__ import annotations

import ctypes
import os
import re
import socket
import sys
from pathlib import Path
from typing import Mapping

# What Qt's X11 plugin (PySide6 6.11.3 and 6.12.0) needs on a bare Debian 12 system, found with ldd in a
# minimal debootstrap and checked by running the GUI on Xvfb; the README and docs/install.md show the same line.
XCB_PACKAGES = ("libegl1 libgl1 libfontconfig1 libdbus-1-3 libglib2.0-0 libx11-xcb1 libxcb-cursor0 "
                "libxcb-icccm4 libxcb-image0 libxcb-keysyms1 libxcb-randr0 libxcb-render-util0 libxcb-shape0 "
                "libxcb-sync1 libxcb-xfixes0 libxcb-xkb1 libxkbcommon-x11-0")

_LOCAL_X = re.compile(r"^(?:unix)?:(\d+)(?:\.\d+)?$")
_UNIX_LIKE = ("linux", "freebsd", "openbsd", "netbsd")


def _requested(env: Mapping[str, str]) -> list[str]:
    """The platform plugins QT_QPA_PLATFORM asks for, in order ("xcb;wayland", "offscreen:size=..")."""
    return [part.split(":")[0].strip() for part in env.get("QT_QPA_PLATFORM", "").split(";") if part.strip()]


def _wayland_ok(env: Mapping[str, str]) -> bool:
    name = env.get("WAYLAND_DISPLAY", "")
    if not name:
        return False
    path = Path(name) if name.startswith("/") else Path(env.get("XDG_RUNTIME_DIR", "")) / name
    return path.is_socket()


def _x_server_problem(display: str) -> str | None:
    """None if an X server answers on a local display's Unix socket (or the display is remote)."""
    m = _LOCAL_X.match(display)
    if not m:
        return None  # host:N (ssh -X forwarding, remote X) or a launchd path: Qt's business
    path = f"/tmp/.X11-unix/X{m.group(1)}"
    for address in (path, "\0" + path):  # the socket file, then the abstract socket Xorg also binds
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(2)
            try:
                s.connect(address)
                return None
            except OSError:
                continue
    return f"cannot connect to the X display {display}: no X server is listening at {path}"


def xcb_plugin_problem() -> str | None:
    """None if Qt's X11 plugin and the system libraries it links against load."""
    try:
        from PySide6.QtCore import QLibraryInfo
    except ImportError as exc:
        return f"Qt (PySide6) cannot load: {exc}"
    plugin = Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath)) / "platforms" / "libqxcb.so"
    if not plugin.is_file():
        return None  # an unusual Qt layout: let Qt look for itself
    try:
        ctypes.CDLL(str(plugin))  # what Qt will dlopen: fails on the first missing library
    except OSError as exc:
        missing = str(exc).split(":")[0] if "cannot open shared object" in str(exc) else str(exc)
        return (f"Qt's X11 plugin cannot load {missing}; install the system libraries it needs: "
                f"apt-get install {XCB_PACKAGES}")
    return None


def display_problem(env: Mapping[str, str] | None = None, platform: str | None = None) -> str | None:
    """Why the GUI cannot show a window here, or None if it can (as far as can be told)."""
    env = os.environ if env is None else env
    if not (platform or sys.platform).startswith(_UNIX_LIKE):
        return None
    requested = _requested(env)
    if requested and not any(p == "xcb" or p.startswith("wayland") for p in requested):
        return None  # offscreen, minimal, vnc, eglfs...: chosen on purpose
    want_wayland = any(p.startswith("wayland") for p in requested) if requested else bool(env.get("WAYLAND_DISPLAY"))
    want_x11 = "xcb" in requested if requested else True  # Qt falls back to xcb
    if want_wayland and _wayland_ok(env):
        return None
    display = env.get("DISPLAY", "")
    if want_x11 and display:
        return xcb_plugin_problem() or _x_server_problem(display)
    if not display and not env.get("WAYLAND_DISPLAY"):
        return ("no display: neither DISPLAY nor WAYLAND_DISPLAY is set (start subcase from a desktop session; "
                "`subcase convert` works without one)")
    if want_wayland:
        return f"cannot connect to the Wayland display {env.get('WAYLAND_DISPLAY')!r}: no socket in XDG_RUNTIME_DIR"
    return "no display: QT_QPA_PLATFORM=xcb but DISPLAY is not set"
