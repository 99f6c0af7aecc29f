"""The QApplication as subcase runs it: its names, icon, theme and the interpreter's GIL switch interval.

Apart from the window (``app.run_gui``), so a tool that only needs the application (the screenshot
tool, a benchmark) does not load the window's modules to get it.
"""

from __future__ import annotations

import sys

import subcase


def tune_interpreter() -> None:
    """Hand the GIL over every 0.1 ms instead of 5 ms.

    Workers run Python between model calls, and painting the cue view calls
    back into Python many times; each callback waits up to one switch
    interval for the GIL, so a short interval keeps the window responsive at
    no cost to casing time (docs/research/2026-11-28-measurements-behind-code-comments.md).
    """
    sys.setswitchinterval(0.0001)


def make_app(argv: list[str] | None = None):
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication

    from subcase.paths import resource_path

    from . import theme
    from .settings import Settings

    tune_interpreter()
    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else \
        QApplication([sys.argv[0] if sys.argv else "subcase", *(argv or [])])
    app.setApplicationName("subcase")
    app.setOrganizationName("subcase")
    app.setApplicationVersion(subcase.__version__)
    app.setDesktopFileName("subcase")
    icon = resource_path("icons/subcase.png")
    if icon.is_file():
        app.setWindowIcon(QIcon(str(icon)))
    theme.apply_theme(app, Settings().theme)
    return app
