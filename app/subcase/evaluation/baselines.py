"""Baselines that subcase must beat: "first word plus I", and the PyPI ``truecase`` package.

``truecase`` (an n-gram model with its own statistics) and NLTK are in the
``bench`` extra, not in the app.  ``truecase.get_true_case`` needs NLTK punkt
data that cannot be downloaded here, so we tokenise with NLTKWordTokenizer
(no data needed) and call ``get_true_case_from_tokens``.
"""

from __future__ import annotations

from subcase.casing.marks import ends_sentence
from subcase.casing.tags import Tag, apply_tag
from subcase.subtitles.words import Token, has_letters

from .metrics import scored_words

_I_FORMS = {"i", "i'm", "i'll", "i've", "i'd", "i\u2019m", "i\u2019ll", "i\u2019ve", "i\u2019d"}


def first_word_and_i(cues: list[list[Token]], punctuated: bool, pronoun_i: bool = True) -> list[list[str]]:
    """Capitalise sentence starts (after . ! ?, or every cue start when there is no
    punctuation to go by) and, with ``pronoun_i`` (English), the pronoun I; everything else lower case."""
    out: list[list[str]] = [[] for _ in cues]
    for c, tok, start in scored_words(cues, cue_starts_sentence=not punctuated):
        w = tok.text.lower()
        out[c].append(apply_tag(w, Tag.T) if start or (pronoun_i and w in _I_FORMS) else w)
    return out


class TruecaseBaseline:
    def __init__(self) -> None:
        try:
            from nltk.tokenize import NLTKWordTokenizer
            from truecase import TrueCaser
        except ImportError as exc:
            raise RuntimeError("the truecase baseline needs the bench extra: pip install 'subcase[bench]'") from exc
        self._caser = TrueCaser()
        # truecase keeps each word's forms in a set and breaks ties between equal scores by the set's
        # order, which follows the interpreter's hash seed: its F1 on the dev files moved by 0.2 from
        # one run to the next.  Sorted, every run scores the same.
        lookup = self._caser.word_casing_lookup
        self._caser.word_casing_lookup = {word: sorted(forms) for word, forms in lookup.items()}
        self._tokenizer = NLTKWordTokenizer()

    def case_text(self, text: str) -> str:
        """``text`` with the case truecase chooses, copied letter by letter onto the original."""
        cased = self._caser.get_true_case_from_tokens(self._tokenizer.tokenize(text), "as-is")
        chars = list(text)
        pos = 0
        lower = text.lower()
        for tok in cased:
            at = lower.find(tok.lower(), pos)
            if at < 0 or at - pos > 3:  # NLTK rewrote this token (quotes): leave it
                continue
            for k, c in enumerate(tok):
                if chars[at + k].lower() == c.lower():
                    chars[at + k] = c
            pos = at + len(tok)
        return "".join(chars)

    def case(self, cues: list[list[Token]], punctuated: bool = True) -> list[list[str]]:
        """Cased words of each cue.

        As ``truecase.get_true_case`` does, each sentence is cased on its own
        (it capitalises the first token of what it is given); sentences end at
        . ! ? when the input has punctuation, and at cue ends when it has none.
        """
        segments: list[list[tuple[int, Token]]] = [[]]
        for c, tokens in enumerate(cues):
            if not punctuated and segments[-1]:
                segments.append([])
            for tok in tokens:
                segments[-1].append((c, tok))
                if punctuated and ends_sentence(tok.text):
                    segments.append([])
        out: list[list[str]] = [[] for _ in cues]
        for seg in segments:
            if not seg:
                continue
            text = " ".join(t.text for _, t in seg)
            cased = self.case_text(text)
            pos = 0
            for c, tok in seg:
                if tok.is_word and has_letters(tok.text):  # the words the metrics count
                    out[c].append(cased[pos:pos + len(tok.text)])
                pos += len(tok.text) + 1
        return out
