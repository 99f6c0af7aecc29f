"""Opening a file for review: the one way a ``ReviewSession`` is made.

The app, ``subcase simulate-review`` (with or without a profile, and file after file with
``--series``) and ``subcase convert --profile`` all open a file through ``open_review``, so
what the simulated post-editor measures is what the editor gets:

1. the file is read and cased in ``mode`` and ``lang`` (or a ``CasedFile`` is given: a
   simulation cases each input once and reviews it several times);
2. the review state is built over the cased words, at ``threshold`` (None: the threshold of
   the model that cased the file);
3. the chosen house ``styles`` are applied; an opened file's casing fingerprint is taken
   here, before anything else touches the state (a crash recovery cases the file again
   with the same styles and checks it);
4. with ``learning``, a learner for the file's language (the language most of its cues
   are in) learns from every decision;
5. the flag context (the file, the learner, the model's lexicon) explains the highlights;
6. the ``profile`` (its imported terms included) re-cases the words nobody reviewed; the
   cues it touched count as changed, so an autosave keeps them.

Nothing here knows of Qt: the app calls ``open_review`` in its worker thread, then gives the
session its edit log on the GUI thread (``ReviewSession.replace_log``) once the user has
settled where the log goes.  ``resume_review`` is the other door: a review restored from a
crash-recovery snapshot, whose words were decided already.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from subcase.casing import CasedFile, CasingEngine, DocumentCasing, Mode, apply_casing, case_document
from subcase.casing.engine import OnProgress, ShouldCancel
from subcase.casing.housestyle import StyleMap, apply_styles
from subcase.casing.pipeline import write_marks
from subcase.casing.restoring import DEFAULT_PUNCTUATE, Punctuate
from subcase.digest import file_sha256
from subcase.subtitles import load

from . import autosave
from .editlog import EditLog
from .flags import FlagContext
from .learning import main_language, make_learner
from .session import ReviewSession
from .state import ReviewState

if TYPE_CHECKING:
    from subcase.subtitles import Document

    from .profiles.profile import Profile


@dataclass(frozen=True)
class OpenOptions:
    """The choices of opening a file for review; the defaults are the app's.  ``mode`` and ``punctuate`` may
    be given by name ("restore", "auto"): they are made ``Mode`` and ``Punctuate`` here, once."""

    mode: Mode = Mode.RESTORE
    lang: str = "auto"                 # "auto": detected per file and per cue (casing/language.py)
    threshold: float | None = None     # None: the calibrated threshold of the model that cased the file
    styles: StyleMap | None = None     # house styles applied after casing
    profile: Profile | None = None     # applied to the words nobody reviewed (review/profiles/apply.py)
    learning: bool = True              # the session learns from every decision (review/learning/)
    punctuate: Punctuate = DEFAULT_PUNCTUATE  # where missing marks are restored (casing/restoring.py)

    def __post_init__(self) -> None:
        object.__setattr__(self, "mode", Mode(self.mode))
        object.__setattr__(self, "punctuate", Punctuate(self.punctuate))


def open_review(source: Path | str | CasedFile, engine: CasingEngine, options: OpenOptions = OpenOptions(), *,
                log: EditLog | None = None, progress: OnProgress | None = None,
                cancel: ShouldCancel | None = None) -> ReviewSession:
    """A review session over ``source``: a subtitle file read and cased here, or a ``CasedFile``
    (a document with its casing applied; it becomes the session's document).

    SubtitleError for a file that is not subtitles, CasingCancelled when ``cancel`` says so.
    A file read here is the session's origin (what crash recovery cases again); a given
    ``CasedFile`` has none."""
    mode = options.mode
    if isinstance(source, CasedFile):
        cased, path = source, source.doc.path or Path("simulated")
        # Cased elsewhere (a simulation, a batch conversion): no crash-recovery snapshot is made of it,
        # and an empty hash matches no file, so none would ever be offered back.
        sha256, origin = "", False
    else:
        path = Path(source)
        sha256, origin = file_sha256(path), True  # of the bytes the review starts from, read before the casing
        doc = load(path)
        casing = write_marks(doc, case_document(engine, doc, mode, progress, cancel, options.lang, options.punctuate))
        cased = CasedFile(doc, casing, apply_casing(doc, casing))
    doc, casing = cased.doc, cased.casing
    state = cased_state(doc, casing, engine, options.threshold, options.styles)
    state.punctuate = options.punctuate.value  # a given CasedFile: how it was cased, as the caller says
    if not origin:
        _as_written(doc, state)
    cue_languages = casing.language.cue_languages if casing.language is not None else None
    session = ReviewSession(doc, state, path, model_version=engine.info.version, model_sha256=engine.info.sha256,
                            mode=mode.value, log=log, base_sha256=sha256)
    session.cue_languages = cue_languages
    session.casing_summary = casing.summary()
    if origin:
        styles = {str(getattr(k, "value", k)): str(getattr(v, "value", v)) for k, v in (options.styles or {}).items()}
        session.set_origin(autosave.Origin(path, sha256, autosave.fingerprint(state), mode.value, styles))
    _equip(session, engine, options)
    return session


def cased_state(doc: Document, casing: DocumentCasing, engine: CasingEngine, threshold: float | None = None,
                styles: StyleMap | None = None) -> ReviewState:
    """The review state of a document with ``casing`` applied, with the house ``styles`` applied to both:
    what the editor is proposed, on opening and after a change of mode (review/remode.py)."""
    state = ReviewState.from_casing(len(doc.cues), casing, threshold)
    if styles:
        apply_styles(doc, state.cues, styles, engine)
    return state


def _as_written(doc: Document, state: ReviewState) -> None:
    """Each word's form and proposal as the document writes it: a document cased elsewhere may have
    been restyled since (batch conversion applies its house styles itself), and a profile must read
    the words the file will hold, as it does when the editor opens the file."""
    for c, words in enumerate(state.cues):
        text = doc.cues[c].text
        for w in words:
            written = text[w.start:w.end]
            if written != w.form:
                w.form = w.proposed = written


def resume_review(doc: Document, state: ReviewState, data: dict, engine: CasingEngine | None,
                  options: OpenOptions = OpenOptions(), *, log: EditLog | None = None,
                  cue_languages: list[str] | None = None) -> ReviewSession:
    """The session of a review restored from a crash-recovery snapshot ``data`` (review/autosave.py)
    over its restored ``doc`` and ``state``: learner, flags and profile as ``open_review`` gives
    them (without an engine, none of them but the flag context), and the learner goes on from the
    decisions already made.  ``options`` gives ``learning`` and ``profile``; the snapshot the rest (the
    punctuation restoring of the origin among it: ``fresh`` for ``autosave.restore`` comes from
    ``open_review`` with ``reopen_options(data)``)."""
    session = ReviewSession(doc, state, Path(data["source"]), model_version=data["model_version"],
                            model_sha256=data["model_sha256"], mode=data["mode"], log=log,
                            base_sha256=data["base_sha256"])
    session.cue_languages = cue_languages
    origin = autosave.origin_of(data)
    if origin is not None:  # later snapshots stay proportional too
        session.set_origin(origin, autosave.punctuate_of(data))
        session.changed_cues.update(e["cue"] for e in data["cues"])
        session.rewritten_cues.update(e["cue"] for e in data["cues"] if "words" in e)
    _equip(session, engine, options)
    if session.learner is not None:
        session.learner.learn_from_reviewed(doc, state)
    return session


def reopen_options(data: dict) -> OpenOptions:
    """How to open a snapshot's origin again for ``autosave.restore``: as it was opened (mode, threshold, house
    styles, punctuation restoring), without profile or learning, which ``resume_review`` adds."""
    from subcase.casing.housestyle import Category, Style

    styles = {Category(k): Style(v) for k, v in (data.get("styles") or {}).items()}
    return OpenOptions(mode=data.get("origin_mode", data["mode"]), threshold=float(data["threshold"]),
                       styles=styles or None, learning=False,
                       punctuate=Punctuate(autosave.punctuate_of(data)))


def profile_adapter(profile: Profile, engine: CasingEngine) -> Callable[[Document, DocumentCasing], int]:
    """For batch conversion (``subcase convert --profile``, the batch dialog): each cased document
    opened for review with ``profile``, as the editor opens the file, and left as it opened;
    returns the words the profile changed.  The document is the one batch conversion writes."""

    def adapt(doc: Document, casing: DocumentCasing) -> int:
        session = open_review(CasedFile(doc, casing, 0), engine,
                              OpenOptions(mode=casing.mode, profile=profile, learning=False))
        return len(session.profile.by_pos) if session.profile is not None else 0

    return adapt


def _equip(session: ReviewSession, engine: CasingEngine | None, options: OpenOptions) -> None:
    """The learner, the flag context and the profile, in that order (the profile's changes are
    then words the learner may re-case, and the flags name its entries).  The learner works
    with the model of the language most of the file's cues are in."""
    doc, state = session.doc, session.state
    learner = make_learner(engine, main_language(session.cue_languages)) if engine is not None else None
    if learner is not None:
        learner.structure = session.structure  # one structure of the document for learner, flags and log
    if options.learning:
        session.learner = learner
    state.flag_context = FlagContext(doc, session.learner, engine.lexicon if engine is not None else None,
                                     session.learner.is_rare if session.learner is not None else None,
                                     structure=session.structure)
    if options.profile is None or engine is None or learner is None:
        return
    from .profiles.apply import apply_profile

    # A Title form applies word-wide only to a word the model of the file's language barely knows,
    # whether or not the session learns.
    applied = apply_profile(doc, state, options.profile, engine.form, learner.is_rare, engine,
                            session.structure.of(doc, state))
    session.profile = applied
    state.flag_context.profile = applied
    # what the profile re-cased differs from the file's casing: an autosave keeps it
    session.changed_cues.update(c for c, _ in [*applied.by_pos, *applied.asked])


__all__ = ["OpenOptions", "cased_state", "open_review", "profile_adapter", "reopen_options", "resume_review"]
