"""Words a language writes in lower case wherever no sentence starts: German's familiar "you".

German has written du, dich, dir, dein, euch, euer and their forms in lower case since the
1996 spelling reform (a capital is allowed in letters only), and subtitles follow it.  The
multilingual model's German training text does not: Debian's fortunes-de keeps the older
letter style, writing these words capitalised in the middle of a sentence 40% of the time
("Du" 403 against "du" 600, "Dich" 83 / "dich" 179, "Dir" 84 / "dir" 179), and the model
learnt to doubt them.  In the German dev subtitles 24 of its 27 du-forms were under the review
threshold, all in lower case as the model wrote them: a fifth of the German review.  So where
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
