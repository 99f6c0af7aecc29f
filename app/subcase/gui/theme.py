"""Colours for word states, light and dark, safe for colour-blind users.

Hues come from the Okabe-Ito palette (distinguishable with every common
colour-vision deficiency), and no state relies on colour alone: each look
also has its own underline (thick solid for words to review, thin solid for
accepted, dashed for changed, dotted for learned, double for typed by hand)
and the current word a frame.  The selected row is a light tint rather than
the style's saturated highlight, so text, markup and flags stay readable
on it (WCAG contrast, checked in tests/gui/test_contrast.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

from subcase.paths import resource_path
from subcase.review import Look


@dataclass(frozen=True)
class WordColours:
    """Every colour the cue view paints, for one theme.

    The view paints every cell's background (``base``/``alternate``/``selected``)
    and text itself, so the contrast of every pair is known and tested (tests/gui/test_contrast.py):
    text and markup >= 4.5:1 on every row background, selected included;
    underlines and frames >= 3:1 against what is under them.
    """
    text: QColor
    base: QColor
    alternate: QColor
    selected: QColor           # the selected row: a light tint, so every look stays readable on it
    markup: QColor             # <i>, {\an8}, <v Name>: dim, literal, never rendered
    note: QColor               # the small gloss above words ("Show all tags")
    warn: QColor               # characters per line / per second past the limit
    review_bg: QColor
    review_line: QColor
    accepted_bg: QColor
    accepted_line: QColor
    changed_bg: QColor
    changed_line: QColor
    learned_bg: QColor
    learned_line: QColor
    edited_bg: QColor
    edited_line: QColor

    @property
    def frame(self) -> QColor:
        """The current word's frame: the text colour, on the row or on a fill."""
        return self.text

    @cached_property
    def _fills(self) -> dict[Look, QColor]:
        return {Look.REVIEW: self.review_bg, Look.ACCEPTED: self.accepted_bg, Look.CHANGED: self.changed_bg,
                Look.LEARNED: self.learned_bg, Look.EDITED: self.edited_bg, Look.PROFILE: self.learned_bg}

    @cached_property
    def _lines(self) -> dict[Look, QColor]:
        return {Look.REVIEW: self.review_line, Look.ACCEPTED: self.accepted_line, Look.CHANGED: self.changed_line,
                Look.LEARNED: self.learned_line, Look.EDITED: self.edited_line, Look.PROFILE: self.learned_line}

    def fill(self, look: Look) -> QColor | None:
        return self._fills.get(look)

    def line(self, look: Look) -> QColor | None:
        return self._lines.get(look)


# Hues from Okabe-Ito: orange #E69F00 (review), bluish green #009E73
# (accepted), sky blue #56B4E9 (changed), reddish purple #CC79A7 (learned),
# yellow #F0E442 (edited), vermilion #D55E00 (warnings); fills are light
# tints (dark shades in the dark theme) and lines darker (lighter) shades of
# the same hue, so each pair keeps its contrast.  Words keep the text colour on
# their fill, so a line's text is drawn in as few calls as its colours need.
LIGHT = WordColours(
    text=QColor("#000000"), base=QColor("#FFFFFF"), alternate=QColor("#F4F4F4"), selected=QColor("#CCE0F5"),
    markup=QColor("#5C5C5C"), note=QColor("#4A4A4A"), warn=QColor("#A33A00"),
    review_bg=QColor("#FFD58A"), review_line=QColor("#963F00"),
    accepted_bg=QColor("#BDEBD9"), accepted_line=QColor("#00664A"),
    changed_bg=QColor("#B7DDF5"), changed_line=QColor("#00568A"),
    learned_bg=QColor("#F2CCE3"), learned_line=QColor("#8A2F66"),
    edited_bg=QColor("#F6EFA6"), edited_line=QColor("#6E6500"),
)

DARK = WordColours(
    text=QColor("#E6E6E6"), base=QColor("#1E1E1E"), alternate=QColor("#262626"), selected=QColor("#1A3A5E"),
    markup=QColor("#ADADAD"), note=QColor("#BDBDBD"), warn=QColor("#FFA866"),
    review_bg=QColor("#6E4600"), review_line=QColor("#FFA060"),
    accepted_bg=QColor("#0D5A45"), accepted_line=QColor("#6FE0BA"),
    changed_bg=QColor("#1C5A85"), changed_line=QColor("#9AD2F5"),
    learned_bg=QColor("#6B2C55"), learned_line=QColor("#F0A8D2"),
    edited_bg=QColor("#5E5716"), edited_line=QColor("#F0E442"),
)


def relative_luminance(c: QColor) -> float:
    """WCAG 2.x relative luminance of an sRGB colour."""
    def lin(v: float) -> float:
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    return 0.2126 * lin(c.redF()) + 0.7152 * lin(c.greenF()) + 0.0722 * lin(c.blueF())


def contrast(a: QColor, b: QColor) -> float:
    """WCAG contrast ratio, 1 to 21 (4.5 for text, 3 for graphics is AA)."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def is_dark(palette: QPalette | None = None) -> bool:
    palette = palette or QGuiApplication.palette()
    return palette.color(QPalette.ColorRole.Base).lightness() < 128


def colours() -> WordColours:
    return DARK if is_dark() else LIGHT


def _dark_palette() -> QPalette:
    p = QPalette()
    base, window, text = QColor("#1E1E1E"), QColor("#2B2B2B"), QColor("#E6E6E6")
    for role, colour in ((QPalette.ColorRole.Window, window), (QPalette.ColorRole.WindowText, text), (QPalette.ColorRole.Base, base),
                         (QPalette.ColorRole.AlternateBase, QColor("#262626")), (QPalette.ColorRole.Text, text),
                         (QPalette.ColorRole.Button, window), (QPalette.ColorRole.ButtonText, text),
                         (QPalette.ColorRole.ToolTipBase, window), (QPalette.ColorRole.ToolTipText, text),
                         (QPalette.ColorRole.Highlight, QColor("#3D6A99")), (QPalette.ColorRole.HighlightedText, QColor("#FFFFFF")),
                         (QPalette.ColorRole.PlaceholderText, QColor("#8A8A8A")), (QPalette.ColorRole.BrightText, QColor("#FF6B6B"))):
        p.setColor(role, colour)
    p.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text, QColor("#777777"))
    p.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.WindowText, QColor("#777777"))
    p.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.ButtonText, QColor("#777777"))
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
