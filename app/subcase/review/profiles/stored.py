"""A stored profile by name: the one way it is loaded for use, and the one way it is built again.

``profile_for`` gives the profile a review or a conversion applies (``subcase convert --profile``,
``simulate-review --profile``, the app's File > Profile): the stored one, checked against the model
that cases the files, with the term lists of ``--terms`` added.  ``build_stored`` is
``subcase profile build``: the profile made again from edit logs, or from subtitles a person cased,
keeping what the user handed in and took out.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

from . import store
from .build import Evidence, build_from_logs, decisions_from_corrected, keep_imported
from .profile import Profile, ProfileError, valid_name

if TYPE_CHECKING:
    from subcase.casing import CasingEngine
    from subcase.subtitles import Document


def profile_for(name: str | None, model_version: str, terms: Sequence[Path] = (),
                given: Profile | None = None) -> Profile | None:
    """The profile to apply: ``given`` (a profile loaded already) or the stored one called ``name``, checked
    against ``model_version``, with the term lists in ``terms`` added (to an empty profile when there is
    none).  ProfileError for a profile of another model or one that cannot be read; a term list that
    cannot be read raises before any file is cased.  Nothing is written."""
    from ..terms import read_terms, with_terms

    profile = given
    if profile is not None:
        store.check_model(profile, model_version)
    if name is not None:
        profile = store.load(name, model_version)
    if terms:
        profile = with_terms(profile, [read_terms(Path(p)) for p in terms], model_version)
    return profile


def build_stored(name: str, engine: CasingEngine, logs: Sequence[Path] = (), subtitles: Sequence[Path] | None = None,
                 reset: bool = False, warn: Callable[[str], None] = lambda s: None) -> tuple[Profile, Path]:
    """``subcase profile build``: the profile ``name`` built from the edit ``logs``, or, when ``subtitles`` is
    given, from those files a person cased; and stored.  An existing profile's imported term lists are kept, and the
    entries the user removed stay removed unless ``reset``.  A subtitle file that cannot be read is
    left out (``warn`` says so).  Returns the profile and where it was written."""
    from subcase.subtitles import SubtitleError

    if not valid_name(name):
        raise ProfileError(f"invalid profile name {name!r} (letters, digits, spaces, . ( ) + - _)")
    old = store.find(name)
    removed = old.removed if old is not None and not reset else []
    version = engine.info.version
    if subtitles is not None:
        ev = Evidence()
        for src in subtitles:
            try:
                doc, model = _with_model_forms(src, engine)
            except SubtitleError as exc:
                warn(str(exc))
                continue
            ev.add_file(decisions_from_corrected(doc, model), decisions_from_corrected(doc))
        profile = ev.profile(name, version, removed)
    else:
        profile = build_from_logs(name, version, logs, removed)
    if old is not None:
        keep_imported(old, profile)  # the term lists the user imported are no evidence of the logs: kept
    return profile, store.save(profile)


def _with_model_forms(src: Path, engine: CasingEngine) -> tuple[Document, list[list[str]] | None]:
    """A cased subtitle file, and the model's forms of its words with the casing removed (per cue, the words
    with letters), so that only what the model gets wrong counts as a change; None when the words of the
    two readings do not pair up."""
    from subcase.casing import Mode, case_document
    from subcase.casing.restoring import Punctuate
    from subcase.casing.uncased import input_text
    from subcase.subtitles import load
    from subcase.subtitles.words import has_letters

    doc = load(src)
    written = [[t.text for t in cue.tokens() if t.is_word and has_letters(t.text)] for cue in doc.cues]
    uncased = load(src)
    for i, cue in enumerate(uncased.cues):
        uncased.set_cue_text(i, input_text(cue.text, cue.tokens(), False, False))
    # the words as written: the profile is built from the casing, never from restored marks
    casing = case_document(engine, uncased, Mode.AUTO, punctuate=Punctuate.NEVER)
    model = [[w.output for w in casing.by_cue.get(c, [])] for c in range(len(written))]
    return doc, model if all(len(m) == len(r) for m, r in zip(model, written)) else None


__all__ = ["build_stored", "profile_for"]
