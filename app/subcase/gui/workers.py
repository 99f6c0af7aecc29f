"""The background jobs: loading and casing a file, a cue, a mode, a batch, media, term lists.

Each job is a function of its ``tasks.Task`` (``run_task`` runs it on the
global QThreadPool): it never touches a widget, polls ``task.cancelled()``,
reports progress with ``task.report`` and returns the objects it built, which
the GUI thread gets only once the job is done with them (the preview
document is a parse of its own, so the GUI can show it while the job still
cases the original).  What a job raises is said by ``tasks.describe_failure``.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from subcase.casing import CasingCancelled, CasingEngine, case_cue_text
from subcase.casing.gcpause import paused_gc
from subcase.casing.onnx_session import available_cores
from subcase.casing.modes import Mode
from subcase.casing.restoring import DEFAULT_PUNCTUATE, Punctuate
from subcase.review import ReviewSession, ReviewState
from subcase.review.opening import OpenOptions, open_review
from subcase.batch import OutputPlan
from subcase.subtitles import Document, load

from .tasks import Task

if TYPE_CHECKING:
    from subcase.media import MediaRef
    from subcase.review.profiles.profile import Profile


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


@dataclass
class OpenWith:
    """What a file is opened with: the settings of the moment, or a crash-recovery snapshot's."""

    mode: str = "restore"
    threshold: float | None = None
    styles: dict | None = None  # the house style chosen in the settings: what the editor is proposed
    profile: str | None = None  # the name of the profile chosen in the settings, if any
    learning: bool = True
    punctuate: str = DEFAULT_PUNCTUATE.value  # where missing marks are restored (casing/restoring.py)
    restoring: dict | None = field(default=None, repr=False)  # the crash-recovery snapshot this casing is for


PREVIEW = "preview"  # load_and_case reports (PREVIEW, Document) once, then (done, total) windows


def load_and_case(path: Path, engines: EngineHolder, opening: OpenWith, task: Task) -> CaseResult:
    """Load ``path``, report its preview, open it for review (``review.open_review``)."""
    path = Path(path)
    try:
        # The preview is a parse of its own (open_review reads the file again):
        # cheaper for the GUI than doc.copy(), whose deepcopy holds the GIL in long stretches.
        task.report(PREVIEW, load(path))
    except OSError as exc:
        if exc.filename is None:
            exc.filename = str(path)
        raise
    if task.cancelled():
        raise CasingCancelled()
    engine = engines.get()
    profile, note = None, ""
    if opening.profile and opening.restoring is None:  # a restored review gets its profile when it resumes
        from subcase.review.profiles import store as profile_store
        from subcase.review.profiles.profile import ProfileError
        try:
            profile = profile_store.load(opening.profile, engine.info.version)
        except ProfileError as exc:
            note = f"Profile not applied: {exc}"
    options = OpenOptions(Mode(opening.mode), threshold=opening.threshold, styles=opening.styles, profile=profile,
                          learning=opening.learning, punctuate=Punctuate(opening.punctuate))
    with paused_gc(freeze=True):  # millions of objects for a long file: no collection walks them (gcpause)
        session = open_review(path, engine, options, progress=task.report, cancel=task.cancelled)
        if task.cancelled():
            raise CasingCancelled()
        # What the first key reads, made here off the GUI thread: the document's structure (the flag reasons
        # of the word N reaches) and the review counts (the status bar), whole-file work that a key then only
        # updates for the cues it changes.
        session.structure.of(session.doc, session.state)
        session.counts()
    return CaseResult(path, session, note)


def case_cue(engines: EngineHolder, context, cue_index: int, text: str, mode: str, lang: str, task: Task):
    """Case the text typed into a cue (F2) with its neighbours, so its new words are cased and flagged
    like the rest; ``context`` is a copy (``casing.cue_context``) taken on the GUI thread."""
    return case_cue_text(engines.get(), context, cue_index, text, mode, lang)


def recase(engines: EngineHolder, doc: Document, state: ReviewState, mode: str, styles: dict | None,
           task: Task) -> ReviewState:
    """Case the open file again in another mode.  It reads the document and review state the window
    holds: the window takes no edit while it runs (``OpenReview.busy``), so they do not change."""
    from subcase.review.remode import recase_in_mode
    fresh = recase_in_mode(engines.get(), doc, state, mode, styles, task.report, task.cancelled)
    if task.cancelled():
        raise CasingCancelled()
    return fresh


def warm_up(engines: EngineHolder, task: Task) -> CasingEngine:
    """Load the engine early so the first file cases sooner (and the About box knows the model)."""
    return engines.get()


@dataclass
class BatchJob:
    """``subcase.batch.convert_batch``, the very code ``subcase convert`` uses.  With ``jobs`` > 1 the
    files go to that many worker processes (each loads the model once); with one job they are cased
    in the task's thread with the shared engine."""

    engines: EngineHolder
    plan: OutputPlan
    mode: str
    styles: dict | None = None
    profile: Profile | None = None  # applied to every file
    jobs: int = 1
    punctuate: str = DEFAULT_PUNCTUATE.value

    def __call__(self, task: Task):
        """Reports (FILE_STARTED, i), (PROGRESS, i, n, done, total) and (FILE_DONE, i, FileResult)."""
        from subcase.batch import ConvertOptions, convert_batch

        started: set[int] = set()
        index = {p: i for i, p in enumerate(self.plan.sources)}
        done_files = 0

        def progress(i: int, n: int, done: int, total: int) -> None:
            if i not in started:  # files run side by side with jobs > 1
                started.add(i)
                task.report(FILE_STARTED, i)
            task.report(PROGRESS, i, n, done, total)

        def on_file_done(result) -> None:
            nonlocal done_files
            # by input index: with jobs > 1 a cancelled batch may finish files out of order
            task.report(FILE_DONE, index.get(result.src, done_files), result)
            done_files += 1

        # the driver checks the profile against the model before any file is cased
        options = ConvertOptions(mode=Mode(self.mode), punctuate=Punctuate(self.punctuate), styles=self.styles,
                                 profile=self.profile, jobs=max(1, self.jobs))
        # a cancelled batch still reports what it did: it returns, never raises CasingCancelled
        return convert_batch(self.plan, options, progress, on_file_done, task.cancelled, self.engines.get)


FILE_STARTED, PROGRESS, FILE_DONE = "file started", "progress", "file done"


@dataclass
class MediaFound:
    """What ``probe_media`` found: a checked, fingerprinted ``media.MediaRef`` or None, and the name of a
    remembered file that is no longer the one chosen (not opened), if any."""

    ref: MediaRef | None = None
    mismatch: str = ""


def probe_media(subtitle: Path | None, explicit: Path | None, remembered, task: Task) -> MediaFound:
    """Which media file goes with a subtitle file, checked and fingerprinted off the GUI thread.

    ``explicit`` (File › Open Media…, ``--media``) wins; then the file remembered for this
    subtitle, if it is still there with its fingerprint; then the same-stem file beside it.  The player opens
    the file itself, asynchronously, once this has found it."""
    from subcase.media import media_ref, same_stem_media, still_matches

    found = MediaFound()
    path = explicit
    if path is None and remembered is not None and remembered.path.is_file():
        if still_matches(remembered):
            path = remembered.path
        else:  # another file now has that path, or the entry is damaged or planted: never opened
            found.mismatch = remembered.name
    if path is None and subtitle is not None:
        path = same_stem_media(subtitle)
    if path is not None:
        found.ref = media_ref(path)
    return found


def read_wave(path: Path, task: Task):
    """The samples of a PCM WAV for the waveform strip, or None for a WAV the standard library cannot
    read (float, ADPCM...): that goes to QtMultimedia's decoder, driven from the GUI thread
    (gui/sound_decoding.py says why), as any other sound does."""
    from subcase.media import MediaError, read_wav
    try:
        return read_wav(Path(path))
    except MediaError:
        return None


def import_terms(profile: str, paths: list[Path], task: Task):
    """File > Import Terms: read the lists and store them in a profile, off the GUI thread (a language's
    names list is thousands of lines, and the profile is read and written on disk).
    (Profile, [TermList], [int])."""
    from subcase.casing.engine import load_model_info
    from subcase.review.terms import import_into_profile
    return import_into_profile(profile, paths, load_model_info().version)

