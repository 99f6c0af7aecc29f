"""The batch dialog with files at a time > 1: real worker processes, the real model,
offscreen Qt.  It converts and reports as one process does, and cancel stops it."""

from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtCore import Qt

from subcase.batch import ConvertOptions, collect_batch_inputs, convert_batch, plan_outputs

from .conftest import DATA, long_srt, needs_model


def make_inputs(root: Path, films: int = 0) -> Path:
    src = root / "in"
    src.mkdir(parents=True)
    shutil.copy(DATA / "sample.srt", src / "a.srt")
    (src / "b.vtt").write_text("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nhello from paris, said john.\n",
                               encoding="utf-8")
    (src / "c.srt").write_text("1\n00:00:01,000 --> 00:00:02,000\nthe bbc in london\n", encoding="utf-8")
    (src / "broken.srt").write_bytes(b"\x00\x01\x02 not subtitles \xff\xfe")
    for k in range(films):
        long_srt(src / f"film{k}.srt", cues=400)
    return src


def open_dialog(qtbot, engines, src: Path, out: Path, jobs: int):
    from subcase.gui.batch_dialog import BatchDialog
    from subcase.gui.settings import Settings

    dialog = BatchDialog([src], engines, Settings())
    qtbot.addWidget(dialog)
    dialog.out_edit.setText(str(out))
    dialog.jobs_spin.setValue(jobs)
    return dialog


@needs_model
def test_batch_with_two_jobs_converts_and_reports(qtbot, engines, tmp_path):
    src = make_inputs(tmp_path)
    out = tmp_path / "out"
    dialog = open_dialog(qtbot, engines, src, out, jobs=2)
    with qtbot.waitSignal(dialog.finished_batch, timeout=180_000) as done:
        qtbot.mouseClick(dialog.start_button, Qt.LeftButton)
    result = done.args[0]
    assert result is not None and not result.cancelled
    assert dialog.job.jobs == 2
    report = dialog.report.toPlainText()
    assert "3 converted, 1 failed" in report and "FAILED" in report and "broken.srt" in report
    states = {p.name: bar.format() for p, bar in zip(dialog.inputs, dialog.bars, strict=True)}
    assert states == {"a.srt": "done", "b.vtt": "done", "broken.srt": "failed", "c.srt": "done"}
    assert [bar.value() for bar in dialog.bars] == [100] * 4
    assert dialog.overall.value() == dialog.overall.maximum()
    # the same bytes as one process with the app's own engine and the dialog's punctuation
    found, _ = collect_batch_inputs([src])
    options = ConvertOptions(jobs=1, punctuate=dialog.punctuate_combo.currentData())
    convert_batch(plan_outputs(found, tmp_path / "one", None), options, engine=engines.get)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == {p.name: p.read_bytes() for p in (tmp_path / "one").iterdir()}
    dialog.close()


def test_files_at_a_time_defaults_to_automatic(qtbot, engines, tmp_path):
    src = make_inputs(tmp_path)  # four small files: automatic keeps them in this process
    dialog = open_dialog(qtbot, engines, src, tmp_path / "out", jobs=0)
    assert dialog.jobs_spin.text() == "Automatic"
    with qtbot.waitSignal(dialog.finished_batch, timeout=180_000):
        qtbot.mouseClick(dialog.start_button, Qt.LeftButton)
    assert dialog.job.jobs == 1 and "3 converted, 1 failed" in dialog.report.toPlainText()
    dialog.close()


@needs_model
def test_batch_with_two_jobs_cancels(qtbot, engines, tmp_path):
    src = make_inputs(tmp_path, films=10)
    out = tmp_path / "out"
    dialog = open_dialog(qtbot, engines, src, out, jobs=2)
    qtbot.mouseClick(dialog.start_button, Qt.LeftButton)
    from subcase.gui.workers import FILE_DONE

    reports: list[tuple] = []
    dialog.task.signals.progress.connect(reports.append)  # connected before the first report is delivered
    qtbot.waitUntil(lambda: any(r[0] == FILE_DONE for r in reports), timeout=120_000)  # the workers are converting
    qtbot.mouseClick(dialog.cancel_button, Qt.LeftButton)
    # the dialog keeps the batch's result (set before finished_batch is emitted)
    qtbot.waitUntil(lambda: dialog.batch_result is not None, timeout=120_000)
    result = dialog.batch_result
    assert result.cancelled
    assert 1 <= len(result.results) < len(dialog.inputs)
    assert dialog.report.toPlainText().startswith("Cancelled.")
    # what was written is exactly what the report lists; nothing half-written
    assert sorted(p.name for p in out.iterdir()) == sorted(r.dst.name for r in result.results if r.ok)
    dialog.close()


@needs_model
def test_a_profile_for_another_model_is_one_message_not_a_traceback(qtbot, engines, tmp_path):
    """The driver checks the profile against the model before any file is cased (in this process and
    in worker processes alike); the dialog gets the profile's own one-line error."""
    from subcase.gui.tasks import Task
    from subcase.gui.workers import BatchJob
    from subcase.review.profiles.profile import Profile

    src = make_inputs(tmp_path)
    found, _ = collect_batch_inputs([src])
    for jobs in (1, 2):
        task = Task(BatchJob(engines, plan_outputs(found, tmp_path / f"out{jobs}", None), "restore",
                             profile=Profile("old series", "some-other-model"), jobs=jobs))
        failures: list[str] = []
        task.signals.failed.connect(failures.append)
        task.run()
        assert len(failures) == 1 and "Traceback" not in failures[0]
        assert failures[0].startswith("profile old series was built for model some-other-model, not ")
        assert not (tmp_path / f"out{jobs}").exists()  # nothing was converted
