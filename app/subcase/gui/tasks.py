"""The one way the GUI runs work off its thread: ``run_task(fn, on_done, on_error)``.

Picard's idiom: ``fn`` runs on the global QThreadPool and never touches a
widget; what it returns goes to ``on_done`` on the GUI thread, what it raises
to ``on_error`` as one line of text (the error block below, written once).
``fn`` is given its ``Task``: it polls ``task.cancelled()`` and raises
``CasingCancelled`` to stop (``on_cancelled`` then runs instead), and
``task.report(*values)`` sends progress or a partial result to
``on_progress`` on the GUI thread.  Every report and the result cross by
queued signals, so the GUI thread only ever sees finished objects.

The caller keeps the returned ``Task`` while it matters: to cancel it, to
ignore a task it has since replaced (``task is not self.task``), to wait
for it (``task.done``) or to look at its ``signals`` in a test.
"""

from __future__ import annotations

import threading
import traceback
from typing import Any, Callable

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from subcase.casing import CasingCancelled, ModelError
from subcase.errors import SubcaseError, describe_oserror


def describe_failure(exc: BaseException) -> str:
    """What the user is told when background work fails: the error block of every task."""
    if isinstance(exc, ModelError):
        return f"The casing model cannot be used: {exc}"
    if isinstance(exc, SubcaseError):  # not subtitles, a special file, a profile that does not fit...
        return str(exc)
    if isinstance(exc, OSError):
        return describe_oserror(exc)
    # a bug: reported with its traceback instead of dying silently in a thread
    return "".join(traceback.format_exception(exc))


class TaskSignals(QObject):
    progress = Signal(object)  # the tuple fn reported (task.report), in order
    done = Signal(object)      # fn's result
    cancelled = Signal()
    failed = Signal(str)       # describe_failure of what fn raised


class Task(QRunnable):
    """One background job: ``cancel()``, ``cancelled()``, ``report(*values)``, ``done`` (set when
    it has ended, whichever way)."""

    def __init__(self, fn: Callable[[Task], Any]):
        super().__init__()
        self.setAutoDelete(False)  # the caller's reference keeps it, and its signals, alive
        self.fn = fn
        self.signals = TaskSignals()
        self._cancel = threading.Event()
        self.done = threading.Event()

    def cancel(self) -> None:
        self._cancel.set()

    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def report(self, *values: object) -> None:
        self.signals.progress.emit(values)

    def run(self) -> None:
        try:
            result = self.fn(self)
        except CasingCancelled:
            self.signals.cancelled.emit()
        except Exception as exc:
            self.signals.failed.emit(describe_failure(exc))
        else:
            self.signals.done.emit(result)
        finally:
            self.done.set()


def run_task(fn: Callable[[Task], Any], on_done: Callable[[Any], object], on_error: Callable[[str], object],
             on_progress: Callable[..., object] | None = None,
             on_cancelled: Callable[[], object] | None = None) -> Task:
    """Run ``fn(task)`` off the GUI thread; its result, error, reports and cancellation come back on it."""
    task = Task(fn)
    task.signals.done.connect(on_done)
    task.signals.failed.connect(on_error)
    if on_progress is not None:
        task.signals.progress.connect(lambda values: on_progress(*values))
    if on_cancelled is not None:
        task.signals.cancelled.connect(on_cancelled)
    QThreadPool.globalInstance().start(task)
    return task
