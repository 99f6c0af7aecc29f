"""Batch conversion: many files or folders in, cased copies out.

Runs ``subcase.batch.convert_batch`` (the code behind ``subcase convert``) in a
worker, with a progress bar per file and overall, cancel, and a final report
of what failed and why.  Originals are never written: outputs go to the
output folder (keeping the subfolders of a folder dropped), and batch refuses
an output that would replace its input.  When outputs exist in the output
folder already, Start asks once what to do with them -- overwrite, skip them,
or choose another folder -- before anything runs: the same plan
(``outputs.OutputPlan``) as ``subcase convert --overwrite/--skip-existing``.
The question is a real QMessageBox (``existing_outputs_box`` while it is
open) and the folder choice a real, non-native QFileDialog
(``output_folder_dialog``), so tests answer them offscreen as a user would.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QAbstractButton, QComboBox, QDialog, QFileDialog, QFormLayout, QHBoxLayout, QHeaderView, QLineEdit, \
    QMessageBox, QPlainTextEdit, QProgressBar, QPushButton, QSpinBox, QTableWidget, QTableWidgetItem, \
    QVBoxLayout, QWidget

from subcase.batch import (SMALL_BATCH_BYTES, BatchProgress, BatchResult, Existing, FileResult, OutputPlan,
                           auto_jobs, check_input_folders, collect_batch_inputs, default_jobs, plan_outputs)
from subcase.errors import SubcaseError
from subcase.subtitles import FORMATS as SUBTITLE_FORMATS

from .settings import MODES, Settings
from .tasks import Task, run_task
from .workers import FILE_DONE, PROGRESS, BatchJob, EngineHolder

FORMATS = (("Keep each file's format", None),
           *((f"{f.label} ({f.suffix})", f.name) for f in SUBTITLE_FORMATS.values()))
STYLE_CHOICES = (("model", "As the model says"), ("lower", "lower case"), ("upper", "UPPER CASE"),
                 ("title", "Title Case"))
PUNCTUATE_CHOICES = (("auto", "Where the text has none"), ("always", "After any word without a mark"),
                     ("never", "Never add marks"))
ANOTHER_FOLDER = "another folder"  # the third answer to outputs that exist, besides an Existing
SHOWN_TAKEN = 12  # outputs named in the question; the rest are counted


def default_output_dir(paths: list[Path]) -> Path:
    first = paths[0] if paths else Path.cwd()
    base = first if first.is_dir() else first.parent
    return base / "cased"


def report_text(results: list[FileResult], cancelled: bool, not_started: int) -> str:
    """The batch's report: a summary line, then a line per file (and its warnings)."""
    ok = [r for r in results if r.ok]
    skipped = [r for r in results if r.skipped]
    failed = [r for r in results if not r.ok and not r.skipped]
    lines = []
    head = "Cancelled." if cancelled else "Finished."
    lines.append(f"{head} {len(ok)} converted, {len(failed)} failed"
                 + (f", {len(skipped)} skipped (their outputs exist)" if skipped else "")
                 + (f", {not_started} not started." if cancelled else "."))
    for r in ok:
        lines.append(f"OK      {r.src} -> {r.dst} ({r.changed} of {r.words} words changed)")
        doubts = [r.encoding_doubt] if r.encoding_doubt else []  # a code page guessed with low confidence
        for w in doubts + r.losses + r.save_warnings + r.warnings:
            lines.append(f"        warning: {w}")
    for r in skipped:
        lines.append(f"SKIPPED {r.src}: {r.dst} exists")
    for r in failed:
        lines.append(f"FAILED  {r.src}: {r.error}")
    return "\n".join(lines)


def existing_outputs_box(plan: OutputPlan, parent: QWidget) -> tuple[QMessageBox, dict[QAbstractButton, Existing | str | None]]:
    """The question about the outputs that exist, and what each of its buttons answers."""
    taken = plan.taken
    listed = "\n".join(str(e.dst) + (f" ({e.taken})" if e.taken != "a file" else "") for e in taken[:SHOWN_TAKEN])
    more = f"\n\u2026 and {len(taken) - SHOWN_TAKEN} more" if len(taken) > SHOWN_TAKEN else ""
    box = QMessageBox(QMessageBox.Icon.Warning, "Outputs exist already",
                      f"{len(taken)} of the {len(plan)} output file(s) exist already in {plan.out_dir}:\n\n"
                      f"{listed}{more}\n\nA symbolic link is replaced itself; the file it points to is never "
                      "written.",
                      QMessageBox.StandardButton.NoButton, parent)
    box.setTextFormat(Qt.TextFormat.PlainText)  # file names are untrusted
    overwrite = box.addButton("Overwrite", QMessageBox.ButtonRole.DestructiveRole)
    skip = box.addButton("Skip existing", QMessageBox.ButtonRole.AcceptRole)
    answers: dict[QAbstractButton, Existing | str | None] = {
        overwrite: Existing.OVERWRITE,
        skip: Existing.SKIP,
        box.addButton("Choose another folder\u2026", QMessageBox.ButtonRole.ActionRole): ANOTHER_FOLDER,
    }
    cancel = box.addButton("Cancel", QMessageBox.ButtonRole.RejectRole)
    answers[cancel] = None
    box.setDefaultButton(skip)  # Enter loses nothing
    box.setEscapeButton(cancel)
    return box, answers


class BatchDialog(QDialog):
    finished_batch = Signal(object)  # BatchResult, or None after an internal error
    existing_outputs_box: QMessageBox | None = None
    output_folder_dialog: QFileDialog | None = None

    def __init__(self, paths: list[Path], engines: EngineHolder, settings: Settings, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Batch convert")
        self.engines, self.settings = engines, settings
        self.paths = [Path(p) for p in paths]
        out_dir = Path(settings.output_dir or str(default_output_dir(self.paths))).expanduser()
        # The output folder is never walked for inputs: a second run into
        # FOLDER/cased must not convert the first run's outputs again.
        self._collect(out_dir)
        self.task: Task | None = None
        self.job: BatchJob | None = None  # what the task runs
        self.overall_progress = BatchProgress(len(self.inputs))
        self.batch_result: BatchResult | None = None  # not ``result``: that is QDialog's own method
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
        # Restored punctuation (casing/restoring.py), as `subcase convert --punctuate`
        from subcase.casing.restoring import PUNCTUATE_HELP, Punctuate
        self.punctuate_combo = QComboBox()
        for value, text in PUNCTUATE_CHOICES:
            self.punctuate_combo.addItem(text, value)
            self.punctuate_combo.setItemData(self.punctuate_combo.count() - 1,
                                             PUNCTUATE_HELP[Punctuate(value)].capitalize(), Qt.ItemDataRole.ToolTipRole)
        self.punctuate_combo.setCurrentIndex(max(0, self.punctuate_combo.findData(settings.punctuate)))
        form.addRow("Punctuation:", self.punctuate_combo)
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
                                          Qt.ItemDataRole.ToolTipRole)
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
        # A profile (review/profiles/profile.py): what the editor taught in other files of the series.
        from subcase.review.profiles import store as profile_store
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
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
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

    def _collect(self, out_dir: Path) -> None:
        self.batch_inputs, self.rejected_inputs = collect_batch_inputs(self.paths, [out_dir])
        self.inputs = [i.path for i in self.batch_inputs]
        self.inputs_for = out_dir

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

    def _browse(self) -> bool:
        """Let the user pick the output folder; True when one was chosen."""
        dialog = QFileDialog(self, "Output folder", self.out_edit.text())
        dialog.setFileMode(QFileDialog.FileMode.Directory)
        dialog.setOption(QFileDialog.Option.ShowDirsOnly, True)
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)  # the same dialog everywhere, and testable
        self.output_folder_dialog = dialog
        try:
            chosen = dialog.selectedFiles() if dialog.exec() else []
        finally:
            self.output_folder_dialog = None
        if chosen:
            self.out_edit.setText(chosen[0])
        return bool(chosen)

    def ask_existing(self, plan: OutputPlan) -> Existing | str | None:
        """Existing.OVERWRITE, Existing.SKIP, ANOTHER_FOLDER, or None (cancel) for the outputs that exist."""
        box, answers = existing_outputs_box(plan, self)
        self.existing_outputs_box = box
        try:
            box.exec()
        finally:
            self.existing_outputs_box = None
        return answers.get(box.clickedButton())

    def _plan(self, out_dir: Path, fmt: str | None) -> OutputPlan | None:
        """The plan for this folder, after asking about outputs that exist; None when the user cancels
        or the folder cannot take the outputs (the report says why, before any file is cased)."""
        while True:
            try:
                check_input_folders(self.paths, out_dir)
            except SubcaseError as exc:
                self.report.setPlainText(str(exc))
                return None
            if out_dir != self.inputs_for:  # another output folder: walk again without it
                self._collect(out_dir)
                self._fill_table()
            plan = plan_outputs(self.batch_inputs, out_dir, fmt)
            try:
                plan.check_folder()
            except SubcaseError as exc:
                self.report.setPlainText(str(exc))
                return None
            if not self.inputs or not plan.taken:
                return plan
            answer = self.ask_existing(plan)
            if isinstance(answer, Existing):
                return plan.with_existing(answer)
            if answer != ANOTHER_FOLDER or not self._browse():
                return None
            out_dir = Path(self.out_edit.text()).expanduser()

    @property
    def running(self) -> bool:
        return self.task is not None and not self.task.done.is_set()

    def start(self) -> None:
        if self.running or not self.inputs:
            return
        fmt = self.format_combo.currentData()
        plan = self._plan(Path(self.out_edit.text()).expanduser(), fmt)
        if plan is None:
            return  # cancelled: nothing started, the dialog stays as it was
        if not self.inputs:
            self._show_report(BatchResult([]))
            return
        out_dir = plan.out_dir
        mode = self.mode_combo.currentData()
        punctuate = self.punctuate_combo.currentData()
        self.settings.output_dir = str(out_dir)
        self.settings.mode = mode
        self.settings.punctuate = punctuate
        self.settings.output_format = fmt or "keep"
        for category, combo in self.style_combos.items():
            self.settings.set_house_style(category, combo.currentData())
        profile = None
        name = self.profile_combo.currentData()
        self.settings.profile = name
        if name:
            from subcase.review.profiles import store as profile_store
            from subcase.review.profiles.profile import ProfileError
            try:
                profile = profile_store.load(name)
            except ProfileError as exc:
                self.report.setPlainText(str(exc))
                return
        self.settings.batch_jobs = self.jobs_spin.value()
        jobs = self.jobs_spin.value() or auto_jobs(self.inputs)
        self.overall_progress = BatchProgress(len(self.inputs))
        self.job = BatchJob(self.engines, plan, mode, self.settings.house_styles(), profile, jobs, punctuate)
        self.start_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        for w in (self.out_edit, self.mode_combo, self.punctuate_combo, self.format_combo, self.jobs_spin, *self.style_combos.values()):
            w.setEnabled(False)
        self.report.setPlainText("Converting\u2026")
        self.task = run_task(self.job, self._on_finished, self._on_failed, self._on_report)

    def _on_report(self, kind: str, *values) -> None:
        if kind == PROGRESS:
            self._on_progress(*values)
        elif kind == FILE_DONE:
            self._on_file_done(*values)

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
            bar.setFormat("done" if result.ok else "skipped" if result.skipped else "failed")

    def _show_report(self, result: BatchResult) -> None:
        self.report_text = report_text(list(self.rejected_inputs) + list(result.results), result.cancelled,
                                       len(self.inputs) - len(result.results))
        self.report.setPlainText(self.report_text)

    def _on_finished(self, result: BatchResult) -> None:
        self.batch_result = result
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
