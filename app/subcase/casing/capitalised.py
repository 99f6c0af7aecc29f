"""Words a language's word list writes only with a capital: its nouns in German, names elsewhere.

German capitalises every noun, and its Debian word list (wngerman) holds each
noun only in that form; a word it also holds in lower case ("essen", "Essen")
is not one of them.  The multilingual model knows the rule but is unsure of it:
such words it writes in Title case are nearly always right, and the few it
writes in lower case nearly always wrong, far more often than its confidences
say (docs/research/2026-11-25-capitalised-words.md).  So where the model chose
lower or Title case for such a word, the odds for Title case are multiplied by
``LIKELIHOOD_RATIO`` (the mass taken from the other tags in proportion), as a
silence is weighed in pauses.py: weighed, not obeyed.  Spanish and French lists
hold no capitalised-only words.  A word the model wrote in capitals or mixed
case is left alone (an acronym).

The lists are built with the multilingual lexicon (``training.lexicon_build``)
into ``capitalised.json.gz`` beside the model (``lexicon.load_capitalised``).
"""

from __future__ import annotations

from .engine import WordPrediction
from .tags import Tag

LIKELIHOOD_RATIO = 10.0


def weigh_capitalised(pred: WordPrediction) -> WordPrediction:
    """``pred`` for a word its language writes only capitalised: the odds for Title times ``LIKELIHOOD_RATIO``."""
    return pred.weighed(Tag.T, LIKELIHOOD_RATIO) if pred.tag in (Tag.L, Tag.T) else pred
