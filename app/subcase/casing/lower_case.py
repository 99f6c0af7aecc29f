"""Words a language writes in lower case wherever no sentence starts: German's familiar "you".

German has written du, dich, dir, dein, euch, euer and their forms in lower case since the
1996 spelling reform (a capital is allowed in letters only), and subtitles follow it.  The
multilingual model's German training text does not: Debian's fortunes-de keeps the older
letter style, often writing these words capitalised in the middle of a sentence, and the model
learnt to doubt them, sending the editor to du-forms it had right
(docs/research/2026-11-27-lower-case-words.md).  So where
the model wrote such a word in lower case, its odds for lower case are multiplied by
``LIKELIHOOD_RATIO``, weighed, not obeyed, as capitalised.py weighs German nouns; where it
wrote a capital (a sentence start) the word is left as it is.
"""

from __future__ import annotations

from .engine import WordPrediction
from .tags import Tag

LIKELIHOOD_RATIO = 10.0

LOWER_CASE: dict[str, frozenset[str]] = {
    "de": frozenset({"du", "dich", "dir", "dein", "deine", "deinen", "deinem", "deiner", "deines",
                     "euch", "euer", "eure", "euren", "eurem", "eurer", "eures"}),
}


def weigh_lower(pred: WordPrediction) -> WordPrediction:
    """``pred`` for a word its language writes in lower case: the odds for lower case times
    ``LIKELIHOOD_RATIO`` where the model wrote it in lower case, else ``pred`` as it is."""
    return pred.weighed(Tag.L, LIKELIHOOD_RATIO) if pred.tag is Tag.L else pred
