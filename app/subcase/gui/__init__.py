"""The PySide6 desktop app: a thin layer over ``subcase.review`` and the core.

Widgets are only touched on the GUI thread; loading, casing and batch work run
through ``tasks.run_task`` on the QThreadPool and report through queued signals.
The window is built around one ``open_review.OpenReview`` (docs/dev/architecture.md).
"""
