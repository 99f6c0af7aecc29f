"""What the Media menu and pane say when QtMultimedia cannot be imported though it is installed.

Runs with or without the media extra (tests/gui/test_media_gui.py needs it).  Without the extra at all, the
plain wheel's own window is checked by tests/packaging/test_plain_install.py.
"""

from __future__ import annotations

from subcase.gui.media import INSTALL_HINT, broken_multimedia


def test_a_missing_system_library_is_named_with_its_package():
    # what `import PySide6.QtMultimedia` raised on a Debian 12 machine without PulseAudio's library
    said = broken_multimedia("libpulse.so.0: cannot open shared object file: No such file or directory")
    assert said == ("Playing video and audio needs the system library libpulse.so.0, which is missing "
                    "(Debian and Ubuntu: apt-get install libpulse0)")
    assert INSTALL_HINT not in said  # reinstalling the extra would not bring it


def test_an_unknown_missing_library_is_named_alone():
    said = broken_multimedia("libfoo.so.3: cannot open shared object file: No such file or directory")
    assert said == "Playing video and audio needs the system library libfoo.so.3, which is missing"


def test_anything_else_broken_says_to_reinstall_the_extra():
    said = broken_multimedia("/venv/PySide6/QtMultimedia.abi3.so: undefined symbol: _ZN5QtCore")
    assert "undefined symbol" in said and said.endswith(f"reinstall it: {INSTALL_HINT}") and "\n" not in said
