"""What the editor taught in this file so far: one immutable value.

A learning step reads the current ``Knowledge``, writes what it learns into a ``Draft`` (copies
of the collections it changes) and freezes that into the next value.  A value is never changed
after it is made, so the step that taught it can be undone by putting the previous value back
(``learner.Taught``), and two values compare equal when they know the same.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Mapping, NamedTuple

from subcase.casing.housestyle import Category, Style

from ..state import Pos, Status

Context = tuple[str | None, ...]  # lowercased words around and including the word, within the cue
PhraseKey = tuple[str | None, ...]  # (left neighbour, *lowercased words, right neighbour)


class StyleCheck(NamedTuple):
    """A house style learned from one fix and not yet checked (``styles``)."""

    style: Style
    origin: int                  # the cue of the fix that taught it
    ordinary: frozenset[Pos]     # the ordinary words (no names) it restyled
    done: Mapping[Pos, tuple[str, Status, str]]  # every word it changed: (form before, status before, form after)


@dataclass(frozen=True)
class Knowledge:
    """Every rule, count and style the editor's decisions taught; read-only (see ``draft``)."""

    rules: Mapping[Context, str | None] = field(default_factory=dict)  # context -> its middle word's form (None: conflicting)
    phrases: Mapping[PhraseKey, tuple[str, ...]] = field(default_factory=dict)  # multi-word names and titles -> their forms
    words: Mapping[str, str] = field(default_factory=dict)  # lowercased word -> form, any context
    styles: Mapping[Category, Style] = field(default_factory=dict)  # category -> style, learned or chosen
    seen: Mapping[str, Mapping[str, int]] = field(default_factory=dict)  # lowercased word -> forms decided, with their counts
    opening: frozenset[Context] = frozenset()  # context rules taught at a line start
    support: Mapping[Context, tuple[int, int]] = field(default_factory=dict)  # context -> (fixes, the first fix's cue)
    phrase_support: Mapping[PhraseKey, int] = field(default_factory=dict)  # phrase -> fixes
    checks: Mapping[Category, StyleCheck] = field(default_factory=dict)  # styles learned from one fix, still to check

    def __post_init__(self) -> None:
        # Plain dicts (the defaults, a profile's rules and styles) are held behind read-only views.
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, dict):
                object.__setattr__(self, f.name, MappingProxyType(value))
            elif isinstance(value, set):
                object.__setattr__(self, f.name, frozenset(value))

    def draft(self) -> Draft:
        """Writable copies of the collections, for one learning step."""
        return Draft(dict(self.rules), dict(self.phrases), dict(self.words), dict(self.styles), dict(self.seen),
                     set(self.opening), dict(self.support), dict(self.phrase_support), dict(self.checks))


@dataclass
class Draft:
    """The knowledge one learning step is writing; ``freeze`` makes the next value of it.

    ``seen`` holds the previous value's inner maps until a word's counts change, so those are
    replaced (``count_form``), never written into."""

    rules: dict[Context, str | None] = field(default_factory=dict)
    phrases: dict[PhraseKey, tuple[str, ...]] = field(default_factory=dict)
    words: dict[str, str] = field(default_factory=dict)
    styles: dict[Category, Style] = field(default_factory=dict)
    seen: dict[str, Mapping[str, int]] = field(default_factory=dict)
    opening: set[Context] = field(default_factory=set)
    support: dict[Context, tuple[int, int]] = field(default_factory=dict)
    phrase_support: dict[PhraseKey, int] = field(default_factory=dict)
    checks: dict[Category, StyleCheck] = field(default_factory=dict)

    def count_form(self, lower: str, form: str) -> Mapping[str, int]:
        """One more decision writing the word ``form``; returns the word's forms with their counts."""
        forms = dict(self.seen.get(lower, {}))
        forms[form] = forms.get(form, 0) + 1
        self.seen[lower] = MappingProxyType(forms)
        return self.seen[lower]

    def freeze(self) -> Knowledge:
        return Knowledge(MappingProxyType(self.rules), MappingProxyType(self.phrases), MappingProxyType(self.words),
                         MappingProxyType(self.styles), MappingProxyType(self.seen), frozenset(self.opening),
                         MappingProxyType(self.support), MappingProxyType(self.phrase_support),
                         MappingProxyType(self.checks))


__all__ = ["Context", "Draft", "Knowledge", "PhraseKey", "StyleCheck"]
