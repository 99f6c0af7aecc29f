"""Batch conversion: many files or folders in, cased copies out.

Runs ``subcase.parallel.convert_batch`` (the code behind ``subcase convert``) in a
worker, with a progress bar per file and overall, cancel, and a final report
of what failed and why.  Originals are never written: outputs go to the
output folder, and batch refuses an output that would replace its input.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QThreadPool, Qt, Signal
from PySide6.QtWidgets import QComboBox, QDialog, QFileDialog, QFormLayout, QHBoxLayout, QHeaderView, QLineEdit, \
    QPlainTextEdit, QProgressBar, QPushButton, QSpinBox, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget

from subcase.batch import BatchProgress, BatchResult, FileResult, collect_inputs
from subcase.parallel import SMALL_BATCH_BYTES, auto_jobs, default_jobs
from subcase.subtitles import FORMATS as SUBTITLE_FORMATS

from .settings import MODES, Settings
from .workers import BatchTask, EngineHolder

FORMATS = (("Keep each file's format", None),
           *((f"{f.label} ({f.suffix})", f.name) for f in SUBTITLE_FORMATS.values()))
STYLE_CHOICES = (("model", "As the model says"), ("lower", "lower case"), ("upper", "UPPER CASE"),
                 ("title", "Title Case"))


def default_output_dir(paths: list[Path]) -> Path:
    first = paths[0] if paths else Path.cwd()
    base = first if first.is_dir() else first.parent
    return base / "cased"


class BatchDialog(QDialog):
    finished_batch = Signal(object)  # BatchResult, or None after an internal error

    def __init__(self, paths: list[Path], engines: EngineHolder, settings: Settings, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Batch convert")
        self.engines, self.settings = engines, settings
        self.paths = [Path(p) for p in paths]
        out_dir = Path(settings.output_dir or str(default_output_dir(self.paths))).expanduser()
        # The output folder is never walked for inputs: a second run into
        # FOLDER/cased must not convert the first run's outputs again.
        self.inputs, self.rejected_inputs = collect_inputs(self.paths, [out_dir])
        self.inputs_for = out_dir
        self.task: BatchTask | None = None
        self.overall_progress = BatchProgress(len(self.inputs))
        self.result: BatchResult | None = None
        self.report_text = ""

        layout = QVBoxLayout(self)
        form = QFormLayout()
        self.out_edit = QLineEdit(str(out_dir))
        browse = QPushButton("Browse\u2026")
        browse.clicked.connect(self._browse)
        row = QHBoxLayout()
        row.addWidget(self.out_edit)
        row.addWidget(browse)
        form.addRow("Output folder:", row)
        self.mode_combo = QComboBox()
        for m in MODES:
            self.mode_combo.addItem(m, m)
        self.mode_combo.setCurrentIndex(max(0, MODES.index(settings.mode)))
        form.addRow("Mode:", self.mode_combo)
        self.format_combo = QComboBox()
        for label, fmt in FORMATS:
            self.format_combo.addItem(label, fmt)
        wanted = settings.output_format
        self.format_combo.setCurrentIndex(next((i for i, (_, f) in enumerate(FORMATS) if (f or "keep") == wanted), 0))
        form.addRow("Output format:", self.format_combo)
        # House style: how this batch writes [sound cues] and speaker labels (casing/housestyle.py);
        # a style guide's preset sets both combos, which stay free to change.
        from subcase.casing.housestyle import PRESETS
        self.preset_combo = QComboBox()
        self.preset_combo.addItem("Custom", "")
        for key, preset in PRESETS.items():
            self.preset_combo.addItem(preset.title, key)
            self.preset_combo.setItemData(self.preset_combo.count() - 1, f"{preset.rule} ({preset.source})",
                                          Qt.ToolTipRole)
        self.preset_combo.currentIndexChanged.connect(self._preset_chosen)
        form.addRow("Style guide:", self.preset_combo)
        self.style_combos: dict[str, QComboBox] = {}
        for category, label in (("sound-cues", "Sound cues:"), ("speaker-labels", "Speaker labels:")):
            combo = QComboBox()
            for value, text in STYLE_CHOICES:
                combo.addItem(text, value)
            combo.setCurrentIndex(next(i for i, (v, _) in enumerate(STYLE_CHOICES)
                                       if v == settings.house_style(category)))
            self.style_combos[category] = combo
            form.addRow(label, combo)
        # A profile (review/profile.py): what the editor taught in other files of the series.
        from subcase.review import profile_store
        self.profile_combo = QComboBox()
        self.profile_combo.addItem("None", "")
        for name in profile_store.names():
            self.profile_combo.addItem(name, name)
        self.profile_combo.setCurrentIndex(max(0, self.profile_combo.findData(settings.profile)))
        form.addRow("Profile:", self.profile_combo)
        # 0 shows as "Automatic": one per core, or one for a small batch (as `subcase convert`
        # without --jobs), so dropping three short files does not wait for workers to start.
        self.jobs_spin = QSpinBox()
        self.jobs_spin.setRange(0, max(8, 2 * default_jobs()))
        self.jobs_spin.setSpecialValueText("Automatic")
        self.jobs_spin.setValue(settings.batch_jobs)
        self.jobs_spin.setToolTip(f"Files converted at a time, each in its own process. Automatic: one per core "
                                  f"({default_jobs()} here), or one for a batch under "
                                  f"{SMALL_BATCH_BYTES // 1024} KB, where starting the workers costs more than "
                                  "they save")
        form.addRow("Files at a time:", self.jobs_spin)
        layout.addLayout(form)

        self.table = QTableWidget(0, 2, self)
        self.table.setHorizontalHeaderLabels(["File", "Progress"])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.Stretch)
        self.bars: list[QProgressBar] = []
        self._fill_table()
        layout.addWidget(self.table)
        self.overall = QProgressBar()
        self.overall.setRange(0, 1000)
        self.overall.setFormat("Overall %p%")
        layout.addWidget(self.overall)
        self.report = QPlainTextEdit()  # plain text: file names and errors are untrusted
        self.report.setReadOnly(True)
        self.report.setPlaceholderText(f"{len(self.inputs)} subtitle file(s) to convert.")
        layout.addWidget(self.report)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        self.start_button = QPushButton("Start")
        self.start_button.setDefault(True)
        self.start_button.clicked.connect(self.start)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.close_button = QPushButton("Close")
        self.close_button.clicked.connect(self.close)
        for b in (self.start_button, self.cancel_button, self.close_button):
            buttons.addWidget(b)
        layout.addLayout(buttons)
        self.resize(720, 520)
        if not self.inputs:
            self.start_button.setEnabled(False)
            self._show_report(BatchResult([]))

    def _fill_table(self) -> None:
        self.table.setRowCount(len(self.inputs))
        self.bars = []
        for r, p in enumerate(self.inputs):
            self.table.setItem(r, 0, QTableWidgetItem(str(p)))
            bar = QProgressBar()
            bar.setRange(0, 100)
            bar.setValue(0)
            self.table.setCellWidget(r, 1, bar)
            self.bars.append(bar)

    def _preset_chosen(self) -> None:
        from subcase.casing.housestyle import PRESETS

        key = self.preset_combo.currentData()
        if not key:
            return
        for category, style in PRESETS[key].style_map().items():
            combo = self.style_combos[category.value]
            combo.setCurrentIndex(max(0, combo.findData(style.value)))

    def _browse(self) -> None:
        d = QFileDialog.getExistingDirectory(self, "Output folder", self.out_edit.text())
        if d:
            self.out_edit.setText(d)

    @property
    def running(self) -> bool:
        return self.task is not None and not self.task.done.is_set()

    def start(self) -> None:
        if self.running or not self.inputs:
            return
        out_dir = Path(self.out_edit.text()).expanduser()
        if out_dir != self.inputs_for:  # the user picked another output folder: walk again without it
            self.inputs, self.rejected_inputs = collect_inputs(self.paths, [out_dir])
            self.inputs_for = out_dir
            self._fill_table()
            if not self.inputs:
                self._show_report(BatchResult([]))
                return
        mode = self.mode_combo.currentData()
        fmt = self.format_combo.currentData()
        self.settings.output_dir = str(out_dir)
        self.settings.mode = mode
        self.settings.output_format = fmt or "keep"
        for category, combo in self.style_combos.items():
            self.settings.set_house_style(category, combo.currentData())
        profile = None
        name = self.profile_combo.currentData()
        self.settings.profile = name
        if name:
            from subcase.review import profile_store
            from subcase.review.profile import ProfileError
            try:
                profile = profile_store.load(name)
            except ProfileError as exc:
                self.report.setPlainText(str(exc))
                return
        self.settings.batch_jobs = self.jobs_spin.value()
        jobs = self.jobs_spin.value() or auto_jobs(self.inputs)
        self.overall_progress = BatchProgress(len(self.inputs))
        self.task = BatchTask(self.engines, self.inputs, out_dir, mode, fmt, self.settings.house_styles(), profile,
                              jobs)
        s = self.task.signals
        s.progress.connect(self._on_progress)
        s.file_done.connect(self._on_file_done)
        s.finished.connect(self._on_finished)
        s.failed.connect(self._on_failed)
        self.start_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        for w in (self.out_edit, self.mode_combo, self.format_combo, self.jobs_spin, *self.style_combos.values()):
            w.setEnabled(False)
        self.report.setPlainText("Converting\u2026")
        QThreadPool.globalInstance().start(self.task)

    def cancel(self) -> None:
        if self.task is not None:
            self.task.cancel()
            self.report.appendPlainText("Cancelling\u2026")

    def _on_progress(self, i: int, n: int, done: int, total: int) -> None:
        frac = done / total if total else 0.0
        if i < len(self.bars):
            self.bars[i].setValue(max(self.bars[i].value(), int(100 * frac)))
        self.overall.setValue(int(1000 * self.overall_progress.update(i, done, total)))

    def _on_file_done(self, i: int, result: FileResult) -> None:
        if i < len(self.bars):
            bar = self.bars[i]
            bar.setValue(100)
            bar.setFormat("done" if result.ok else "failed")

    def _show_report(self, result: BatchResult) -> None:
        results = list(self.rejected_inputs) + list(result.results)
        ok = [r for r in results if r.ok]
        failed = [r for r in results if not r.ok]
        lines = []
        head = "Cancelled." if result.cancelled else "Finished."
        lines.append(f"{head} {len(ok)} converted, {len(failed)} failed"
                     + (f", {len(self.inputs) - len(result.results)} not started." if result.cancelled else "."))
        for r in ok:
            lines.append(f"OK      {r.src} -> {r.dst} ({r.changed} of {r.words} words changed)")
            for w in r.losses + r.save_warnings + r.warnings:
                lines.append(f"        warning: {w}")
        for r in failed:
            lines.append(f"FAILED  {r.src}: {r.error}")
        self.report_text = "\n".join(lines)
        self.report.setPlainText(self.report_text)

    def _on_finished(self, result: BatchResult) -> None:
        self.result = result
        self.overall.setValue(1000 if not result.cancelled else self.overall.value())
        self._show_report(result)
        self._end()
        self.finished_batch.emit(result)

    def _on_failed(self, message: str) -> None:
        self.report_text = f"The batch stopped on an internal error:\n{message}"
        self.report.setPlainText(self.report_text)
        self._end()
        self.finished_batch.emit(None)

    def _end(self) -> None:
        self.cancel_button.setEnabled(False)
        self.start_button.setEnabled(False)

    def closeEvent(self, event) -> None:
        if self.running:
            self.cancel()
        super().closeEvent(event)
