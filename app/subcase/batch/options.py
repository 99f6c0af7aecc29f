"""What a batch conversion does to each file, as one value.

Every way of running a batch (``subcase convert``, ``--jobs``, ``--cluster``,
the GUI's batch dialog) fills one ``ConvertOptions`` and hands it to
``convert_batch`` with the output plan.  It is frozen and picklable: the
worker processes and the Dask workers receive the very same value.

Where the outputs go, in which format, and what to do with a name that is
taken are the output plan's (``plan.OutputPlan``), decided before any option
here is looked at; progress, cancel and the report of each file are the
caller's callbacks, not options.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from subcase.casing.modes import Mode
from subcase.casing.restoring import DEFAULT_PUNCTUATE, Punctuate
from subcase.subtitles.files import MAX_SIZE_MB

if TYPE_CHECKING:
    from subcase.casing.housestyle import Category, Style
    from subcase.review.profiles.profile import Profile


@dataclass(frozen=True)
class ConvertOptions:
    mode: Mode = Mode.RESTORE
    lang: str = "auto"        # a language code, or "auto": detected per file and per cue
    punctuate: Punctuate = DEFAULT_PUNCTUATE  # where missing marks are restored (casing/restoring.py)
    encoding: str | None = None  # every input's text encoding (``--encoding``); None: detected per file
    # house style (casing/housestyle.py): a category's style; None or Style.MODEL keeps the model's casing
    styles: Mapping[Category, Style] | None = None
    profile: Profile | None = None   # a profile already loaded (the GUI), applied after casing
    profile_name: str | None = None  # a stored profile to load (``--profile``)
    terms: tuple[Path, ...] = ()     # term lists added to the profile, or to an empty one (``--terms``)
    details: Path | None = None      # write every word's tag and probabilities here (``--details``)
    model_dir: Path | None = None    # another model than the shipped one
    # files at a time, each in its own process; None: one per core, one for a small batch (pool.auto_jobs)
    jobs: int | None = None
    cluster: Any = None              # a Dask scheduler's address or a distributed.Client (``--cluster``)
    max_size_mb: float | None = MAX_SIZE_MB  # a larger input is refused unread (``--max-size``; None or 0: none)
    case_signs: bool = False  # case ASS signs and songs like dialogue (``--case-signs``); by default kept as written

    def __post_init__(self) -> None:
        object.__setattr__(self, "mode", Mode(self.mode))
        object.__setattr__(self, "punctuate", Punctuate(self.punctuate))
        object.__setattr__(self, "terms", tuple(Path(t) for t in self.terms))
        if self.details is not None:
            object.__setattr__(self, "details", Path(self.details))
        if self.model_dir is not None:
            object.__setattr__(self, "model_dir", Path(self.model_dir))

    @property
    def keep_casing(self) -> bool:
        """Whether each file's casing is kept in its result (for the details file)."""
        return self.details is not None

    @property
    def wants_profile(self) -> bool:
        return self.profile is not None or self.profile_name is not None or bool(self.terms)
