"""The PySide6 desktop app: a thin layer over ``subcase.review`` and the core.

Widgets are only touched on the GUI thread; loading, casing and batch work run
in QThreadPool workers that report through queued signals.
"""
