"""Helpers shared by tests in several folders (on the path through pyproject's ``pythonpath``)."""
