"""Profiles and term lists from the window: a new profile, its contents, removing an entry, importing terms."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from .edit_log_recovery import EditLogRecovery
from .open_review import OpenReview
from .prompts import Prompts
from .review_commands import push
from .settings import Settings
from .tasks import Task, run_task
from .workers import import_terms

if TYPE_CHECKING:
    from .profile_dialog import ProfileDialog


class ProfileCommands:
    """Review › Profile, File › Import Terms."""

    def __init__(self, review: OpenReview, edit_log: EditLogRecovery, settings: Settings, prompts: Prompts):
        self.review = review
        self.edit_log = edit_log
        self.settings = settings
        self.prompts = prompts
        self.parent = prompts.parent  # the dialogs' parent
        self.status_bar = prompts.status_bar
        self.profile_dialog: ProfileDialog | None = None
        self._term_import: Task | None = None  # kept alive until it reports

    def show_profile_dialog(self) -> None:
        from .profile_dialog import ProfileDialog

        app = self.review.profile_app
        if self.review.session is None or app is None:
            return
        self.profile_dialog = ProfileDialog(self, app, self.parent)
        self.profile_dialog.show()

    def import_terms_dialog(self) -> None:
        """File > Import Terms: a term list into the chosen profile (asked for when none is chosen)."""
        from PySide6.QtWidgets import QFileDialog, QInputDialog

        path, _ = QFileDialog.getOpenFileName(self.parent, "Import terms", "",
                                              "Term lists (*.txt *.xml *.dic);;All files (*)")
        if not path:
            return
        name = self.settings.profile
        if not name:
            name, ok = QInputDialog.getText(self.parent, "Import terms",
                                            "Profile to keep the terms in (e.g. \"Lupin S1\"):", text=Path(path).stem)
            if not ok or not name.strip():
                return
        self.import_terms(name.strip(), [Path(path)])

    def import_terms(self, profile: str, paths: list[Path]) -> None:
        """Read and store the lists in a task; the profile is chosen for the next file opened and the
        batches, where its terms apply."""
        self._term_import = run_task(partial(import_terms, profile, paths), self._terms_imported,
                                     lambda text: self.prompts.notify("Cannot import the terms", text, error=True))

    def _terms_imported(self, result) -> None:
        profile, lists, counts = result
        self.settings.profile = profile.name
        what = ", ".join(f"{t.name}: {len(t.terms)} terms ({n} new or changed)" for t, n in zip(lists, counts))
        self.status_bar.showMessage(f"Profile {profile.name}: {what}; they apply to the next file opened", 10000)

    def new_profile_dialog(self) -> None:
        from PySide6.QtWidgets import QInputDialog

        name, ok = QInputDialog.getText(self.parent, "New profile", "Name of the series (e.g. \"Lupin S1\"):")
        if ok and name.strip():
            self.new_profile(name.strip())

    def new_profile(self, name: str) -> bool:
        """A profile built from this file's log, chosen for this file and the next ones; saving the
        file updates it (saving.py)."""
        from subcase.review.profiles import store as profile_store
        from subcase.review.profiles.profile import ProfileError
        from subcase.review.profiles.build import build_from_logs
        from subcase.review.profiles.apply import ProfileApplication

        session = self.review.session
        if session is None:
            return False
        try:
            if profile_store.exists(name):
                raise ProfileError(f"a profile named {name!r} exists already")
            logs = [session.log.path] if session.log is not None and session.log.path.is_file() else []
            profile = build_from_logs(name, session.model_version, logs)
            profile_store.save(profile)
        except ProfileError as exc:
            self.prompts.notify("Cannot create the profile", str(exc), error=True)
            return False
        self.settings.profile = name
        self.review.apply_profile(ProfileApplication(profile))
        self.status_bar.showMessage(f"Profile {name} created; it learns from this file when you save", 8000)
        return True

    def remove_profile_entry(self, entry_id: str) -> None:
        """Take a wrong entry out of the open file's profile: its words go back, one undo step."""
        from subcase.review.profiles.apply import RemoveEntry

        from .profile_dialog import persist

        app = self.review.profile_app
        if self.review.session is None or app is None:
            return
        with self.review.one_change():
            push(self.review, self.edit_log, RemoveEntry(app, entry_id, persist))
        self.status_bar.showMessage(f"Removed from profile {app.profile.name}: {entry_id} (Ctrl+Z brings it back)",
                                    8000)
