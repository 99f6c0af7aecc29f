"""What subcase does to text in a language its model cannot case: rules that never damage.

Measured on the development subtitles
(docs/research/2026-11-23-languages-routing-detection.md), the English model
on Spanish, French, German or Portuguese text makes more errors than it fixes
(SER 70-111%), and in Spanish and Portuguese it loses even to a rule that
capitalises sentence starts.  So, until a language has a model of its own:

- es, fr, de, pt ("sentence starts"): a word that starts a sentence (the text
  start, or after . ! ? ...) and is all lower case gets a capital first letter;
  every other word keeps the form it has.  Nothing is ever lowered, so a file
  that is already cased keeps its casing (no word of the human-cased
  development files in these languages was changed; tests/casing/test_language.py).
- any other language ("unchanged"): the file is left exactly as it is, with a
  one-line reason.  Sentence starts are not even raised: we cannot measure
  every language, and some (Turkish dotted i, Dutch "'s avonds") break the rule.
"""

from __future__ import annotations

from enum import Enum
from typing import Iterator, Sequence

from subcase.subtitles.words import Token, has_letters

from .marks import ends_sentence
from .tags import TAGS, Tag, apply_tag, tag_of

RULE_LANGUAGES = ("es", "fr", "de", "pt")
PROBE_CUES = 200  # a punctuated file shows a sentence end long before this; keeps the check cheap on a film


def marks_sentence_ends(cues: Sequence[Sequence[Token]]) -> bool:
    """Whether the text marks sentence ends at all (speech recognition output often does not)."""
    return any(not t.is_word and ends_sentence(t.text) for tokens in cues[:PROBE_CUES] for t in tokens)


class Method(str, Enum):
    MODEL = "model"
    SENTENCE_STARTS = "sentence starts"
    UNCHANGED = "unchanged"


NOTES = {
    Method.MODEL: "cased by the model",
    Method.SENTENCE_STARTS: "no model for this language: only sentence starts capitalised, all else left as it was",
    Method.UNCHANGED: "not a language subcase can case: left as it was",
}


def method_note(method: Method) -> str:
    return NOTES[method]


def method_for(language: str, model_languages: Sequence[str]) -> Method:
    if language in model_languages:
        return Method.MODEL
    if language in RULE_LANGUAGES:
        return Method.SENTENCE_STARTS
    return Method.UNCHANGED


def sentence_starts(cues: Sequence[Sequence[Token]], cue_starts_sentence: bool = False
                    ) -> Iterator[tuple[int, Token, bool]]:
    """(cue index, word token, starts a sentence) for every word token: the one sentence-start rule.

    A sentence starts the text and follows . ! ? or an ellipsis and, with ``cue_starts_sentence``
    (input without sentence punctuation), every cue start.  A mark with a word straight after it
    ends no sentence: "w3.org", "U.S.A.", and the ellipsis that carries a sentence on into the
    next cue ("I just want to answer the... / ...phone.").  A dash or ``>>`` opening a line is no
    sentence start of its own: after a sentence end the word is one anyway, and after a line
    without one the human-cased development files go on in lower case (a list:
    "in the higher education community / - faculty, staff")."""
    start = True
    for c, tokens in enumerate(cues):
        words, start = cue_sentence_starts(tokens, start or cue_starts_sentence)
        for tok, starts in words:
            yield c, tok, starts


def cue_sentence_starts(tokens: Sequence[Token], start: bool) -> tuple[list[tuple[Token, bool]], bool]:
    """``sentence_starts`` within one cue that opens with ``start`` (a sentence starts at its first word unless
    a word comes first): each word token with whether it starts a sentence, and ``start`` after the cue, what
    the next cue opens with (before ``cue_starts_sentence``).  The review's structure re-reads one edited cue
    with it, and the cues after it only while what they open with changed."""
    out: list[tuple[Token, bool]] = []
    stop_end = None  # end of the sentence-ending marks just passed, if they made ``start``
    for tok in tokens:
        if not tok.is_word:
            if ends_sentence(tok.text) and (not start or stop_end is not None):
                start, stop_end = True, tok.end
            elif not ends_sentence(tok.text):
                stop_end = None
            continue
        if stop_end is not None and tok.start == stop_end:
            start = False
        out.append((tok, start))
        start, stop_end = False, None
    return out, start


def scored_words(cues: Sequence[Sequence[Token]], cue_starts_sentence: bool = False
                 ) -> Iterator[tuple[int, Token, bool]]:
    """(cue index, word, starts a sentence) for every word with letters (``sentence_starts``)."""
    return ((c, tok, start) for c, tok, start in sentence_starts(cues, cue_starts_sentence) if has_letters(tok.text))


_OPEN, _CLOSE = {"[", "("}, {"]", ")"}
_JOINERS = {".", "/", "@", ":"}


def rule_starts(cues: Sequence[Sequence[Token]], cue_starts_sentence: bool = False) -> set[tuple[int, int]]:
    """(cue, token start) of the words the rule may raise: sentence starts (``scored_words``)
    except where human-cased subtitles keep them lower case.  On the development files these
    exceptions were most of what the plain rule changed in already-cased text: a sentence
    continued after an ellipsis ("y... le gusta", "... et plus"), a sound cue
    ("[alegre melodía de piano]") and a web address ("github.com/...")."""
    starts = {(c, tok.start) for c, tok, start in scored_words(cues, cue_starts_sentence) if start}
    out: set[tuple[int, int]] = set()
    for c, tokens in enumerate(cues):
        depth = 0
        for k, tok in enumerate(tokens):
            if not tok.is_word:
                depth += (tok.text in _OPEN) - (tok.text in _CLOSE and depth > 0)
                continue
            if (c, tok.start) not in starts or depth > 0:
                continue
            prev = tokens[k - 1].text if k else ""
            if prev == "\u2026" or (prev == "." and k >= 2 and tokens[k - 2].text == "."):
                continue
            if k + 2 < len(tokens) and tokens[k + 1].text in _JOINERS and tokens[k + 1].start == tok.end \
                    and tokens[k + 2].start == tokens[k + 1].end and tokens[k + 2].is_word:
                continue
            out.add((c, tok.start))
    return out


def rule_form(word: str, sentence_initial: bool, method: Method) -> str:
    """``word`` as the rule writes it: raised at a sentence start when all lower case, else as it is."""
    if method is Method.SENTENCE_STARTS and sentence_initial and tag_of(word) is Tag.L:
        return apply_tag(word, Tag.T)
    return word


def one_hot(tag: Tag) -> tuple[float, float, float, float]:
    """The probabilities of a rule's decision: certain (no model, nothing to calibrate)."""
    p = [0.0, 0.0, 0.0, 0.0]
    p[TAGS.index(tag)] = 1.0
    return (p[0], p[1], p[2], p[3])
