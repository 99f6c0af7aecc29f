"""A simulated review session that opens each file with a profile, as the editor does."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from subcase.casing import CasingEngine
from subcase.review import EditLog, ReviewSession, ReviewState
from subcase.review.flags import FlagContext
from subcase.review.learning import make_learner
from subcase.review.profiles.profile import Profile
from subcase.review.profiles.apply import ProfileApplication, apply_profile
from subcase.subtitles import Document

Factory = Callable[[Document, ReviewState, CasingEngine, str | None], ReviewSession]


class SavingSession(ReviewSession):
    """A session whose editor saves the file when done (``close``), as the editor does: the edit
    log then holds the saved document, which the next profile reads."""

    save_to: Path | None = None

    def close(self) -> None:
        if self.save_to is not None and self.log is not None:
            self.save(self.save_to)
        super().close()


def profiled_session(profile: Profile, log_path: Path | None = None, learning: bool = True,
                     save_to: Path | None = None,
                     on_applied: Callable[[ProfileApplication], None] | None = None) -> Factory:
    """A session factory: the profile is applied when the file opens, the session learns (unless
    ``learning`` is off), writes a real edit log to ``log_path`` when given and saves the
    reviewed file to ``save_to`` at the end."""
    rare: dict[int, Callable[[str], bool]] = {}

    def make(doc: Document, state: ReviewState, engine: CasingEngine, language: str | None = None) -> ReviewSession:
        session = SavingSession(doc, state, doc.path or Path("simulated"), model_version=engine.info.version,
                                model_sha256=engine.info.sha256, log=EditLog(log_path) if log_path else None)
        session.save_to = save_to
        learner = make_learner(engine, language)
        if learning:
            session.learner = learner
        is_rare = rare.setdefault(id(engine), learner.is_rare)
        app = apply_profile(doc, state, profile, engine.form, is_rare, engine)
        state.flag_context = FlagContext(doc=doc, learner=session.learner, profile=app)
        if on_applied is not None:
            on_applied(app)
        return session

    return make
