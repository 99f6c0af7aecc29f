"""Background work: loading + casing a file, batch conversion.

Workers are QRunnables on the global QThreadPool.  They never touch widgets;
they own the objects they build and hand them to the GUI thread through
queued signals only when done with them (the preview document is a copy, so
the GUI can display it while the worker still cases the original).
"""

from __future__ import annotations

import threading
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from PySide6.QtCore import QObject, QRunnable, Signal

from subcase.casing import CasingCancelled, CasingEngine, ModelError, case_cue_text
from subcase.casing.onnx_session import available_cores
from subcase.casing.modes import Mode
from subcase.casing.restoring import Punctuate
from subcase.review import ReviewSession, ReviewState
from subcase.review.opening import OpenOptions, open_review
from subcase.errors import SubcaseError, describe_oserror
from subcase.batch import OutputPlan
from subcase.subtitles import Document, load


def gui_engine() -> CasingEngine:
    """The engine as the GUI uses it: every core, as ``subcase convert`` does.

    It used to leave one core to the GUI thread, which on a 2-core machine halved the
    model's cores for nothing: the GUI thread sleeps but for a paint or a key, and the OS
    wakes it on a busy core at once.  ``bench/gui_bench.py``, a 1,500-cue film on 2 cores
    under Xvfb, two runs each twice: cased in 657-886 ms against 1,067-1,238 ms with one
    core left, the longest event-loop gap 37-45 ms either way (none over 100 ms)."""
    return CasingEngine(threads=available_cores())


class EngineHolder:
    """Loads the casing engine once, on first use, in whichever worker needs it.

    Workers share the one engine; it takes turns between them per batch of
    windows (see ``CasingEngine``), so a file opened during a batch conversion
    cases alongside it, and each can be cancelled at any time.
    """

    def __init__(self, factory: Callable[[], CasingEngine] = gui_engine):
        self._factory = factory
        self._engine: CasingEngine | None = None
        self._load_lock = threading.Lock()

    @property
    def loaded(self) -> CasingEngine | None:
        return self._engine

    def get(self) -> CasingEngine:
        with self._load_lock:
            if self._engine is None:
                self._engine = self._factory()
            return self._engine


@dataclass
class CaseResult:
    path: Path
    session: ReviewSession  # opened by review.open_review, without its edit log (the GUI thread gives it)
    profile_note: str = ""  # why the chosen profile was not applied, if it was not

    @property
    def doc(self) -> Document:
        return self.session.doc

    @property
    def state(self) -> ReviewState:
        return self.session.state

    @property
    def cue_languages(self) -> list[str] | None:
        return self.session.cue_languages


class LoadSignals(QObject):
    loaded = Signal(object)          # a preview Document (a copy), shown before casing ends
    progress = Signal(int, int)      # windows done, windows total
    cased = Signal(object)           # CaseResult
    cancelled = Signal()
    failed = Signal(str)


class CancellableTask(QRunnable):
    """A background task the window keeps a reference to while it runs (no auto-delete), can
    cancel (``cancel``; the task polls ``_cancel``) and can wait for (``done``, set when ``run`` ends)."""

    def __init__(self) -> None:
        super().__init__()
        self.setAutoDelete(False)
        self._cancel = threading.Event()
        self.done = threading.Event()

    def cancel(self) -> None:
        self._cancel.set()


class LoadAndCaseTask(CancellableTask):
    def __init__(self, path: Path, engines: EngineHolder, mode: str = "restore", threshold: float | None = None,
                 styles: dict | None = None, restoring: dict | None = None, profile: str | None = None,
                 learning: bool = True, punctuate: str = "never"):
        super().__init__()
        self.restoring = restoring  # the crash-recovery snapshot this casing is for, if any
        self.styles = styles  # the house style chosen in the settings: what the editor is proposed
        self.path = Path(path)
        self.engines = engines
        self.mode = mode
        self.threshold = threshold
        self.profile = profile  # the name of the profile chosen in the settings, if any
        self.learning = learning
        self.punctuate = punctuate  # where missing marks are restored (casing/restoring.py)
        self.signals = LoadSignals()

    def run(self) -> None:
        try:
            self._run()
        except CasingCancelled:
            self.signals.cancelled.emit()
        except ModelError as exc:
            self.signals.failed.emit(f"The casing model cannot be used: {exc}")
        except SubcaseError as exc:  # not subtitles, a special file, mixed encodings...
            self.signals.failed.emit(str(exc))
        except OSError as exc:
            self.signals.failed.emit(describe_oserror(exc, self.path))
        except Exception:  # a bug: report it instead of dying silently in a thread
            self.signals.failed.emit(traceback.format_exc())
        finally:
            self.done.set()

    def _run(self) -> None:
        # The preview is a parse of its own (open_review reads the file again):
        # cheaper for the GUI than doc.copy(), whose deepcopy holds the GIL in
        # long stretches.
        self.signals.loaded.emit(load(self.path))
        if self._cancel.is_set():
            raise CasingCancelled()
        engine = self.engines.get()
        profile, note = None, ""
        if self.profile and self.restoring is None:  # a restored review gets its profile when it resumes
            from subcase.review.profiles import store as profile_store
            from subcase.review.profiles.profile import ProfileError
            try:
                profile = profile_store.load(self.profile, engine.info.version)
            except ProfileError as exc:
                note = f"Profile not applied: {exc}"
        options = OpenOptions(Mode(self.mode), threshold=self.threshold, styles=self.styles, profile=profile,
                              learning=self.learning, punctuate=Punctuate(self.punctuate))
        session = open_review(self.path, engine, options, progress=lambda d, t: self.signals.progress.emit(d, t),
                              cancel=self._cancel.is_set)
        if self._cancel.is_set():
            raise CasingCancelled()
        self.signals.cased.emit(CaseResult(self.path, session, note))


class CueSignals(QObject):
    cased = Signal(object)   # list[WordCasing] of the new cue text
    failed = Signal(str)


class CaseCueTask(QRunnable):
    """Case the text typed into a cue (F2) with its neighbours, so its new words are cased and
    flagged like the rest; ``context`` is a copy (``casing.cue_context``) taken on the GUI thread."""

    def __init__(self, engines: EngineHolder, context, cue_index: int, text: str, mode: str, lang: str):
        super().__init__()
        self.setAutoDelete(False)
        self.engines, self.context, self.cue_index, self.text = engines, context, cue_index, text
        self.mode, self.lang = mode, lang
        self.signals = CueSignals()
        self.done = threading.Event()

    def run(self) -> None:
        try:
            words = case_cue_text(self.engines.get(), self.context, self.cue_index, self.text, self.mode, self.lang)
            self.signals.cased.emit(words)
        except ModelError as exc:
            self.signals.failed.emit(f"The casing model cannot be used: {exc}")
        except Exception:  # a bug: report it instead of dying silently in a thread
            self.signals.failed.emit(traceback.format_exc())
        finally:
            self.done.set()


class ModeSignals(QObject):
    progress = Signal(int, int)      # windows done, windows total
    cased = Signal(object)           # the ReviewState of the new mode (review.remode.recase_in_mode)
    cancelled = Signal()
    failed = Signal(str)


class ModeTask(CancellableTask):
    """Case the open file again in another mode.  It reads the document and review state the
    window holds: the window takes no edit while it runs (``busy``), so they do not change."""

    def __init__(self, engines: EngineHolder, doc: Document, state: ReviewState, mode: str, styles: dict | None):
        super().__init__()
        self.engines, self.doc, self.state, self.mode, self.styles = engines, doc, state, mode, styles
        self.signals = ModeSignals()

    def run(self) -> None:
        from subcase.review.remode import recase_in_mode
        try:
            fresh = recase_in_mode(self.engines.get(), self.doc, self.state, self.mode, self.styles,
                                   lambda d, t: self.signals.progress.emit(d, t), self._cancel.is_set)
            if self._cancel.is_set():
                raise CasingCancelled()
            self.signals.cased.emit(fresh)
        except CasingCancelled:
            self.signals.cancelled.emit()
        except ModelError as exc:
            self.signals.failed.emit(f"The casing model cannot be used: {exc}")
        except Exception:  # a bug: report it instead of dying silently in a thread
            self.signals.failed.emit(traceback.format_exc())
        finally:
            self.done.set()


class EngineSignals(QObject):
    ready = Signal(object)  # CasingEngine
    failed = Signal(str)


class WarmUpTask(QRunnable):
    """Load the engine early so the first file cases sooner (and the About box knows the model)."""

    def __init__(self, engines: EngineHolder):
        super().__init__()
        self.setAutoDelete(False)
        self.engines = engines
        self.signals = EngineSignals()

    def run(self) -> None:
        try:
            self.signals.ready.emit(self.engines.get())
        except Exception as exc:
            self.signals.failed.emit(str(exc))


class BatchSignals(QObject):
    progress = Signal(int, int, int, int)  # file index, files, done in file, total in file
    file_started = Signal(int)
    file_done = Signal(int, object)        # file index, FileResult
    finished = Signal(object)              # BatchResult
    failed = Signal(str)


class BatchTask(CancellableTask):
    """Runs ``subcase.batch.convert_batch``: the very code ``subcase convert`` uses.

    With ``jobs`` > 1 the files go to that many worker processes (each loads
    the model once); with one job they are cased here with the shared engine.
    """

    def __init__(self, engines: EngineHolder, plan: OutputPlan, mode: str, styles: dict | None = None,
                 profile=None, jobs: int = 1, punctuate: str = "never"):
        super().__init__()
        self.engines, self.plan, self.inputs = engines, plan, plan.sources
        self.punctuate = punctuate
        self.mode, self.styles, self.jobs = mode, styles, max(1, jobs)
        self.profile = profile  # a review.profiles.profile.Profile applied to every file, or None
        self.signals = BatchSignals()
        self._done_files = 0

    def run(self) -> None:
        try:
            from subcase.batch import ConvertOptions, convert_batch

            started: set[int] = set()

            def progress(i: int, n: int, done: int, total: int) -> None:
                if i not in started:  # files run side by side with jobs > 1
                    started.add(i)
                    self.signals.file_started.emit(i)
                self.signals.progress.emit(i, n, done, total)

            index = {p: i for i, p in enumerate(self.inputs)}

            def on_file_done(result) -> None:
                # by input index: with jobs > 1 a cancelled batch may finish files out of order
                self.signals.file_done.emit(index.get(result.src, self._done_files), result)
                self._done_files += 1

            # the driver checks the profile against the model before any file is cased
            options = ConvertOptions(mode=Mode(self.mode), punctuate=Punctuate(self.punctuate), styles=self.styles,
                                     profile=self.profile, jobs=self.jobs)
            result = convert_batch(self.plan, options, progress, on_file_done, self._cancel.is_set, self.engines.get)
            self.signals.finished.emit(result)
        except ModelError as exc:  # the worker processes could not load the model
            self.signals.failed.emit(f"The casing model cannot be used: {exc}")
        except SubcaseError as exc:  # the profile does not fit the model
            self.signals.failed.emit(str(exc))
        except Exception:
            self.signals.failed.emit(traceback.format_exc())
        finally:
            self.done.set()


class MediaSignals(QObject):
    found = Signal(object)       # a media.MediaRef, checked and fingerprinted
    none = Signal()              # nothing to open (no same-stem media, none remembered)
    failed = Signal(str)
    mismatch = Signal(str)       # the remembered media's file is not the one chosen: its name (not opened)


class MediaProbeTask(QRunnable):
    """Which media file goes with a subtitle file, checked and fingerprinted off the GUI thread.

    ``explicit`` (File › Open Media…, ``--media``) wins; then the file remembered for this
    subtitle, if it is still there with its fingerprint; then the same-stem file beside it.  The player opens
    the file itself, asynchronously, once this has found it."""

    def __init__(self, subtitle: Path | None, explicit: Path | None = None, remembered=None):
        super().__init__()
        self.setAutoDelete(False)
        self.subtitle, self.explicit, self.remembered = subtitle, explicit, remembered
        self.signals = MediaSignals()
        self.done = threading.Event()

    def run(self) -> None:
        from subcase.media import MediaError, media_ref, same_stem_media, still_matches
        try:
            path = self.explicit
            if path is None and self.remembered is not None and self.remembered.path.is_file():
                if still_matches(self.remembered):
                    path = self.remembered.path
                else:  # another file now has that path, or the entry is damaged or planted: never opened
                    self.signals.mismatch.emit(self.remembered.name)
            if path is None and self.subtitle is not None:
                path = same_stem_media(self.subtitle)
            if path is None:
                self.signals.none.emit()
            else:
                self.signals.found.emit(media_ref(path))
        except MediaError as exc:
            self.signals.failed.emit(str(exc))
        except Exception:
            self.signals.failed.emit(traceback.format_exc())
        finally:
            self.done.set()


class WaveformSignals(QObject):
    ready = Signal(object)       # a media.Waveform
    failed = Signal(str)
    not_pcm = Signal()           # a WAV the standard library cannot read: for the decoder (gui/sound_decoding.py)


class WaveformTask(CancellableTask):
    """The samples of a PCM WAV for the waveform strip, read directly in this worker thread.  Any
    other sound is decoded by QtMultimedia's decoder, which is driven from the GUI thread
    (gui/sound_decoding.py says why); a WAV this reader refuses (float, ADPCM...) goes there too."""

    def __init__(self, path: Path):
        super().__init__()
        self.path = Path(path)
        self.signals = WaveformSignals()

    def run(self) -> None:
        from subcase.media import MediaError, read_wav
        try:
            self.signals.ready.emit(read_wav(self.path))
        except MediaError:
            self.signals.not_pcm.emit()
        except Exception:
            self.signals.failed.emit(traceback.format_exc())
        finally:
            self.done.set()


class TermImportSignals(QObject):
    done = Signal(object)  # (Profile, [TermList], [int])
    failed = Signal(str)


class TermImportTask(QRunnable):
    """File > Import Terms: read the lists and store them in a profile, off the GUI thread (a language's
    names list is thousands of lines, and the profile is read and written on disk)."""

    def __init__(self, profile: str, paths: list[Path]):
        super().__init__()
        self.setAutoDelete(False)
        self.profile, self.paths = profile, paths
        self.signals = TermImportSignals()

    def run(self) -> None:
        from subcase.casing.engine import load_model_info
        from subcase.errors import SubcaseError
        from subcase.review.profiles.profile import ProfileError
        from subcase.review.terms import import_into_profile
        try:
            self.signals.done.emit(import_into_profile(self.profile, self.paths, load_model_info().version))
        except (SubcaseError, ProfileError, OSError) as exc:
            self.signals.failed.emit(str(exc))
