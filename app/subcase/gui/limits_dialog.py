"""View › Reading Limits: the characters-per-line and characters-per-second limits past which the figures warn."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QDoubleSpinBox, QFormLayout, QLabel, QSpinBox, QWidget

from .settings import DEFAULT_CPL, DEFAULT_CPS


class ReadingLimitsDialog(QDialog):
    def __init__(self, cpl: int, cps: float, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Reading Limits")
        form = QFormLayout(self)
        note = QLabel(f"Figures past these limits are shown bold, with \u201c!\u201d, in the warning colour.\n"
                      f"Defaults: {DEFAULT_CPL} characters per line and {DEFAULT_CPS:g} per second "
                      f"(Netflix, English); children's or BBC-style work often uses 17 per second.")
        note.setWordWrap(True)
        form.addRow(note)
        self.cpl = QSpinBox(self)
        self.cpl.setRange(10, 200)
        self.cpl.setValue(cpl)
        self.cps = QDoubleSpinBox(self)
        self.cps.setRange(5.0, 60.0)
        self.cps.setDecimals(1)
        self.cps.setSingleStep(0.5)
        self.cps.setValue(cps)
        form.addRow("Characters per line (CPL):", self.cpl)
        form.addRow("Characters per second (CPS):", self.cps)
        B = QDialogButtonBox.StandardButton
        buttons = QDialogButtonBox(B.Ok | B.Cancel | B.RestoreDefaults)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        buttons.button(B.RestoreDefaults).clicked.connect(self._restore_defaults)
        form.addRow(buttons)

    def _restore_defaults(self) -> None:
        self.cpl.setValue(DEFAULT_CPL)
        self.cps.setValue(DEFAULT_CPS)
