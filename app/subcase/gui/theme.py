"""Colours for word states, light and dark, safe for colour-blind users.

Hues come from the Okabe-Ito palette (distinguishable with every common
colour-vision deficiency), and no state relies on colour alone: words to
review also get a thick underline and a "?" marker, accepted words a check
mark, changed words a pencil, edited words an "e", the current word a frame.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

from subcase.paths import resource_path


@dataclass(frozen=True)
class WordColours:
    review_bg: QColor
    review_line: QColor
    accepted_bg: QColor
    changed_bg: QColor
    edited_bg: QColor
    learned_bg: QColor  # words the app re-cased from what the editor taught
    markup: QColor
    note: QColor
    frame: QColor


LIGHT = WordColours(
    review_bg=QColor("#FFD58A"),    # orange (Okabe-Ito #E69F00), light
    review_line=QColor("#D55E00"),  # vermilion
    accepted_bg=QColor("#BDEBD9"),  # bluish green (#009E73), light
    changed_bg=QColor("#B7DDF5"),   # sky blue (#56B4E9), light
    edited_bg=QColor("#F6EFA6"),    # yellow (#F0E442), light
    learned_bg=QColor("#EBC7DD"),   # reddish purple (#CC79A7), light
    markup=QColor("#7A7A7A"),
    note=QColor("#555555"),
    frame=QColor("#000000"),
)

DARK = WordColours(
    review_bg=QColor("#7A4E00"),
    review_line=QColor("#FF9A4D"),
    accepted_bg=QColor("#0D5A45"),
    changed_bg=QColor("#1C5A85"),
    edited_bg=QColor("#6B6320"),
    learned_bg=QColor("#6B2F55"),
    markup=QColor("#9A9A9A"),
    note=QColor("#BBBBBB"),
    frame=QColor("#FFFFFF"),
)


def is_dark(palette: QPalette | None = None) -> bool:
    palette = palette or QGuiApplication.palette()
    return palette.color(QPalette.Base).lightness() < 128


def colours() -> WordColours:
    return DARK if is_dark() else LIGHT


def _dark_palette() -> QPalette:
    p = QPalette()
    base, window, text = QColor("#1E1E1E"), QColor("#2B2B2B"), QColor("#E6E6E6")
    for role, colour in ((QPalette.Window, window), (QPalette.WindowText, text), (QPalette.Base, base),
                         (QPalette.AlternateBase, QColor("#262626")), (QPalette.Text, text),
                         (QPalette.Button, window), (QPalette.ButtonText, text),
                         (QPalette.ToolTipBase, window), (QPalette.ToolTipText, text),
                         (QPalette.Highlight, QColor("#3D6A99")), (QPalette.HighlightedText, QColor("#FFFFFF")),
                         (QPalette.PlaceholderText, QColor("#8A8A8A")), (QPalette.BrightText, QColor("#FF6B6B"))):
        p.setColor(role, colour)
    p.setColor(QPalette.Disabled, QPalette.Text, QColor("#777777"))
    p.setColor(QPalette.Disabled, QPalette.WindowText, QColor("#777777"))
    p.setColor(QPalette.Disabled, QPalette.ButtonText, QColor("#777777"))
    return p


_system_palette: QPalette | None = None


def apply_theme(app: QApplication, name: str) -> None:
    """Switch between the system look and explicit light/dark palettes."""
    global _system_palette
    if _system_palette is None:
        _system_palette = QPalette(app.palette())
    if name == "dark":
        app.setStyle("Fusion")
        app.setPalette(_dark_palette())
    elif name == "light":
        app.setStyle("Fusion")
        app.setPalette(app.style().standardPalette())
    else:
        app.setPalette(_system_palette)
    qss = resource_path(f"styles/{'dark' if is_dark(app.palette()) else 'light'}.qss")
    try:
        app.setStyleSheet(qss.read_text(encoding="utf-8"))
    except OSError:
        app.setStyleSheet("")
