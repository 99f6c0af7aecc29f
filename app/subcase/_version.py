"""Fallback version for frozen bundles; kept equal to pyproject.toml by a test."""

VERSION = "0.3.0"
