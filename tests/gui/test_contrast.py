"""WCAG contrast of every colour pair the cue view paints, light and dark, selected row included."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor

from subcase.gui import theme
from subcase.review import Look

LOOKS = [Look.REVIEW, Look.ACCEPTED, Look.CHANGED, Look.LEARNED, Look.EDITED]


def test_contrast_formula():
    assert theme.contrast(QColor("#000000"), QColor("#FFFFFF")) == pytest.approx(21.0)
    assert theme.contrast(QColor("#777777"), QColor("#FFFFFF")) == pytest.approx(4.48, abs=0.01)


@pytest.mark.parametrize("name", ["light", "dark"])
def test_every_pair_meets_wcag_aa(name):
    c = theme.LIGHT if name == "light" else theme.DARK
    rows = {"base": c.base, "alternate": c.alternate, "selected": c.selected}
    ratios: dict[str, float] = {}
    for row, bg in rows.items():
        # text: 4.5:1 (WCAG 1.4.3), on plain, alternate and selected rows
        for what, fg in (("text", c.text), ("markup", c.markup), ("gloss", c.note), ("warning", c.warn),
                         ("gutter ?", c.review_line)):
            ratios[f"{what} on {row}"] = theme.contrast(fg, bg)
        # the current word's frame sits on the row: 3:1 (WCAG 1.4.11)
        ratios[f"frame on {row}"] = theme.contrast(c.frame, bg)
    for look in LOOKS:
        fill, line = c.fill(look), c.line(look)
        ratios[f"word text on {look.value} fill"] = theme.contrast(c.text, fill)
        ratios[f"{look.value} underline on its fill"] = theme.contrast(line, fill)
    print("\n".join(f"{name}: {k} {v:.2f}" for k, v in ratios.items()))
    for k, v in ratios.items():
        need = 3.0 if ("frame" in k or "underline" in k) else 4.5
        assert v >= need, f"{name}: {k} is {v:.2f}:1, under {need}:1"
