"""The builder refuses any repository on shared/notes/held-out-sources.md (our evaluation sources)."""

from __future__ import annotations

import re
from pathlib import Path

from ...errors import SubcaseError


class HeldOutSource(SubcaseError):
    """A corpus source is one of the repositories our evaluation sets come from."""


def held_out(notes: Path) -> set[str]:
    """The ``owner/name`` of every repository listed (as "- owner/name" lines), lower-cased."""
    text = notes.read_text(encoding="utf-8")
    return {m.group(1).lower() for m in re.finditer(r"^\s*-\s+([\w.-]+/[\w.-]+)\s*$", text, re.MULTILINE)}


def check(repo: str, listed: set[str]) -> None:
    if repo.lower() in listed:
        raise HeldOutSource("on held-out-sources.md: never a training or test-set source", repo)
