"""Build the case-mask lexicon: the exact form of every mixed-case (M) word.

From the training text (forms seen at least twice and as the word's majority
mixed form) and from Debian word lists and the product list.  Keys that are
ordinary lower-case English words ("abed") are left out: the lexicon must never
turn a common word into a mask.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from subcase.casing.tags import Tag, case_mask_key, tag_of
from subcase.subtitles.words import WORD_RE, words

from . import corpora, synthetic


def _masks_seen_twice(words_: Iterable[str]) -> dict[str, str]:
    """Key -> the majority mixed form, over the forms seen at least twice (possessives folded in)."""
    counts: Counter[str] = Counter(w for w in words_ if w and tag_of(w) is Tag.M)
    by_key: dict[str, Counter[str]] = {}
    for w, n in counts.items():
        key = case_mask_key(w)
        stem = w[: len(key)]
        if n >= 2 and tag_of(stem) is Tag.M:
            by_key.setdefault(key, Counter())[stem] += n
    return {k: c.most_common(1)[0][0] for k, c in by_key.items()}


def build_lexicon(dataset=None) -> dict[str, str]:
    import random
    rng = random.Random(0)
    docs = ([d for _, d in corpora.seinfeld_episodes()] + corpora.wiki_docs(rng) + corpora.fortune_docs(rng)
            + corpora.tech_docs(rng))
    lexicon = _masks_seen_twice(w for d in docs for cue in d.cues for w in words(cue))
    for k, v in synthetic.mixed_case_words().items():
        lexicon.setdefault(k, v)
    common = synthetic.common_words()
    return {k: v for k, v in lexicon.items() if k not in common and len(k) == len(v) and len(k) >= 2}


# Word lists of the multilingual model's languages (Debian wspanish, wfrench,
# wngerman, wportuguese, wbrazilian), under /usr/share/dict of an unpacked root.
LIST_LANGUAGE = {"spanish": "es", "french": "fr", "ngerman": "de", "portuguese": "pt", "brazilian": "pt"}
WORD_LISTS = tuple(LIST_LANGUAGE)


def capitalised_words(roots) -> dict[str, list[str]]:
    """Per language, the lower-cased words its word lists hold only in Title case and in no
    other form (casing/capitalised.py): German nouns, names.  "essen" and "Essen" are both in
    wngerman, so "essen" is not one of them."""
    forms: dict[str, dict[str, set[Tag]]] = {}
    for lang, listed in _word_lists(roots):
        by_key = forms.setdefault(lang, {})
        for w in listed:
            by_key.setdefault(w.lower(), set()).add(tag_of(w))
    return {lang: sorted(k for k, tags in by_key.items() if tags == {Tag.T} and WORD_RE.fullmatch(k) and len(k) >= 2)
            for lang, by_key in sorted(forms.items())}


def _word_lists(roots) -> list[tuple[str, list[str]]]:
    """(language, words) of every word list found under the roots."""
    found = []
    for root in roots:
        for name, lang in LIST_LANGUAGE.items():
            for path in sorted(root.rglob(f"dict/{name}")):
                if path.is_file():
                    found.append((lang, path.read_text(encoding="utf-8", errors="replace").split()))
    return found


def build_multilingual_lexicon(texts: list[str], english: dict[str, str], roots) -> dict[str, str]:
    """The case masks of the es/fr/de/pt model.

    Product and brand names (iPad, YouTube, VoiceOver) are written the same way
    in every language, so the English lexicon is the start; to it come the mixed
    forms of the five languages' training text (seen at least twice, the key's
    majority form) and the mixed-case entries of their word lists.  A key that
    any of the word lists holds as an ordinary lower-case word is left out
    ("abus" is French, not "ABus"): an M tag must never turn a common word of
    one language into another language's mask.  The masks only apply where the
    model tags a word M, as for English.
    """
    lists = [listed for _, listed in _word_lists(roots)]
    if not lists:
        raise SystemExit("no Debian word lists (usr/share/dict/{" + ",".join(WORD_LISTS) + "}) under the roots")
    common = {w for words_ in lists for w in words_ if w.islower()}
    seen = _masks_seen_twice(w.strip(".,;:!?¿¡()[]{}\"'«»“”‘’") for text in texts for w in text.split())
    lexicon = dict(english)
    for key, form in seen.items():
        lexicon.setdefault(key, form)
    for words_ in lists:
        for w in words_:
            if tag_of(w) is Tag.M and "'" not in w:
                lexicon.setdefault(case_mask_key(w), w)
    # only keys that are one word as subtitles/words.py cuts them (no "$home/desktop"):
    # nothing else can ever be looked up
    return dict(sorted((k, v) for k, v in lexicon.items()
                       if k not in common and len(k) == len(v) and len(k) >= 2 and WORD_RE.fullmatch(k)))
