"""Acronyms next to their expansions, the way talks and documentaries say them (data v6).

Speakers spell out names: "RSI, Repetitive Stress Injury", "WCAG-EM, the Website
Accessibility Conformance Evaluation Methodology", "it's an acronym for Advanced
Decision Support Tools".  Whether the expansion is capitalised depends on what
it names: an organisation, project or document is a name ("World Health
Organization (WHO)"), a common term is not ("magnetic resonance imaging (MRI)").
The cue the model can learn is that the words' initials spell the acronym beside
them, and the kind of words they are.

Pairs come from two places.  Mined: "Expansion (ACR)" in the Wikipedia and
technical prose, kept exactly as the human wrote them, Title or lower case.
Invented: Title-case names of projects and documents built from ordinary words
and a name word ("Open Garden Data Initiative", ODGI).  Both go into documents
of real prose cues from the same corpora, in spoken patterns ("X stands for Y",
"Y, or X,", "X, the Y").  Pairs (and the words of invented names) are split between
training and validation, so a held-out pair was never seen in training.
"""

from __future__ import annotations

import random
import re

from .corpora import Doc
from .synthetic import NAME_SUFFIXES, _cap_first

# Short words that an acronym skips ("Union of European Football Associations", UEFA).
SKIPPED = frozenset("of the and for on in with to a an at by or".split())
_PAREN = re.compile(r"((?:[\w'-]+ ){1,10})\(([A-Z][A-Za-z]{1,7})\)")

TEMPLATES = (
    "{A} stands for {E}.", "{A} is short for {E}.", "It's an acronym for {E}.", "We call it {A}, {E}.",
    "The {E}, or {A}, is new.", "So {A}, the {E}, helps here.", "{A}: {E}.", "That's {A}, {E}.",
    "The {E} ({A}) said so.", "I work on {A}, the {E}.", "{A}, which means {E}, came later.",
    "And {A} means {E}.", "We call this the {E}.", "You may know {A}, the {E}.", "It's the {E} we mean by {A}.",
    "Have you heard of the {E}?", "{A} is the {E}.", "This is {A}. {E}.",
)


def _initials(words: list[str]) -> str:
    return "".join(w[0] for w in words if w.lower() not in SKIPPED)


def mine_pairs(docs: list[Doc]) -> list[tuple[str, str]]:
    """(expansion, acronym) pairs written as "Expansion (ACR)" whose initials spell the acronym.

    Only expansions cased consistently are kept: every counted word Title (a name) or
    every word lower case (a term).  The shortest matching tail of the words before the
    bracket is the expansion, so "founded the World Health Organization (WHO)" gives
    "World Health Organization".
    """
    found: dict[tuple[str, str], None] = {}
    for doc in docs:
        text = " ".join(doc.cues).replace("\n", " ")
        for m in _PAREN.finditer(text):
            words = [w.strip(",;:\"") for w in m.group(1).split()]
            acr = m.group(2)
            letters = acr.upper()
            for start in range(len(words) - 1, -1, -1):
                tail = words[start:]
                if tail[0].lower() in SKIPPED:
                    continue
                ini = _initials(tail)
                if ini.upper() == letters and len(ini) >= 2:
                    counted = [w for w in tail if w.lower() not in SKIPPED]
                    title = all(w[0].isupper() and (w[1:].islower() or not w[1:].isalpha()) for w in counted)
                    lower = all(w.islower() for w in tail)
                    if (title and all(w.islower() for w in tail if w.lower() in SKIPPED)) or lower:
                        found[(" ".join(tail), acr)] = None
                    break
                if len(ini) > len(letters):
                    break
    return list(found)


def invented_pair(rng: random.Random, vocab: list[str]) -> tuple[str, str]:
    """A Title-case project or document name and its acronym: ("Open Garden Data Initiative", "OGDI")."""
    words = [_cap_first(rng.choice(vocab)) for _ in range(rng.choice((1, 2, 2, 3, 3)))]
    if rng.random() < 0.35:
        words.insert(rng.randrange(1, len(words) + 1), rng.choice(("for", "of", "and", "in")))
    words.append(rng.choice(NAME_SUFFIXES))
    words = " ".join(words).split()
    if words[-1].lower() in SKIPPED:
        words.append(_cap_first(rng.choice(vocab)))
    return " ".join(words), _initials(words).upper()


def expansion_line(rng: random.Random, expansion: str, acronym: str) -> str:
    return rng.choice(TEMPLATES).format(A=acronym, E=expansion)


def expansion_docs(rng: random.Random, pairs: list[tuple[str, str]], prose: list[Doc], vocab: list[str],
                   n_docs: int) -> list[Doc]:
    """Documents of real prose cues with one or two acronym lines among them.

    Half of the pairs are mined (as written) and half invented (Title case names).
    """
    docs = []
    for _ in range(n_docs):
        context = rng.choice(prose).cues
        start = rng.randrange(max(len(context) - 4, 0) + 1)
        cues = list(context[start:start + rng.randint(2, 5)])
        for _ in range(rng.choice((1, 1, 2))):
            expansion, acronym = rng.choice(pairs) if pairs and rng.random() < 0.5 else invented_pair(rng, vocab)
            # only between sentences, so the prose around the line still reads as written
            gaps = [i for i in range(len(cues) + 1) if i == 0 or cues[i - 1].rstrip().endswith((".", "!", "?"))]
            cues.insert(rng.choice(gaps), expansion_line(rng, expansion, acronym))
        docs.append(Doc("expansions", cues))
    return docs
