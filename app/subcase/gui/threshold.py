"""The review threshold: the toolbar's box, [ and ], the model's default."""

from __future__ import annotations

from PySide6.QtWidgets import QDoubleSpinBox

from subcase.casing import CasingEngine

from .cue_view import CueView
from .open_review import OpenReview
from .settings import Settings
from .workers import EngineHolder

# Shown until the model is loaded when the user has chosen no threshold (ModelInfo's own fallback).
FALLBACK_THRESHOLD = 0.9


class Threshold:
    """``spin`` (the menus put it in the toolbar), ``nudge``, ``reset``; the user's choice is kept in the
    settings, None meaning the model's calibrated default."""

    def __init__(self, review: OpenReview, settings: Settings, engines: EngineHolder, view: CueView):
        self.review = review
        self.settings = settings
        self.engines = engines
        self.view = view
        self.spin = QDoubleSpinBox()
        self.spin.setRange(0.0, 1.0)
        self.spin.setSingleStep(0.05)
        self.spin.setDecimals(3)
        self.spin.setToolTip("Words whose confidence is under this threshold are highlighted for review")
        engine = engines.loaded
        if settings.threshold is not None:
            self.spin.setValue(settings.threshold)
        else:  # with no file open too, the box shows the threshold the next file gets
            self.spin.setValue(engine.info.review_threshold if engine is not None else FALLBACK_THRESHOLD)
        self.spin.valueChanged.connect(self._on_changed)
        review.opened.connect(self._on_opened)

    def _set_spin(self, value: float) -> None:
        self.spin.blockSignals(True)
        self.spin.setValue(value)
        self.spin.blockSignals(False)

    def on_engine_ready(self, engine: CasingEngine) -> None:
        """The model is loaded: with no choice of the user's, the box shows its default."""
        if self.settings.threshold is None and self.review.session is None:
            self._set_spin(engine.info.review_threshold)

    def _on_opened(self) -> None:
        session = self.review.session
        assert session is not None
        if self.review.restored_unsaved or self.settings.threshold is None:
            self._set_spin(session.state.threshold)  # the snapshot's, or the model's calibrated default
        else:
            session.state.threshold = self.spin.value()

    def _apply(self, value: float) -> None:
        if self.review.session is not None:
            self.review.session.state.threshold = value
            self.view.viewport().update()
            self.review.touch(())

    def _on_changed(self, value: float) -> None:
        self.settings.threshold = value
        self._apply(value)

    def nudge(self, delta: float) -> None:
        self.spin.setValue(round(self.spin.value() + delta, 2))

    def reset(self) -> None:
        engine = self.engines.loaded
        self.settings.threshold = None
        if engine is not None:
            self._set_spin(engine.info.review_threshold)
            self._apply(engine.info.review_threshold)
