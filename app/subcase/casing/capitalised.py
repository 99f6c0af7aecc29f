"""Words a language's word list writes only with a capital: its nouns in German, names elsewhere.

German capitalises every noun, and its Debian word list (wngerman) holds each
noun only in that form; a word it also holds in lower case ("essen", "Essen")
is not one of them.  The multilingual model knows the rule but is unsure of it:
on held-out Wesnoth dialogue in German (the campaigns the model never trained
on, cut into cues and lower-cased, with and without punctuation; 30,916
words), of the 3,573 such words it wrote in Title case 2 were wrong where its
confidences expected 110, and of the 63 it wrote in lower case 61 were wrong
where they expected 20.  So where the model chose lower or Title case for such
a word, the odds for Title case are multiplied by ``LIKELIHOOD_RATIO`` (the
mass taken from the other tags in proportion), as a silence is weighed in
pauses.py: weighed, not obeyed.  On that dialogue errors went 1,508 -> 1,453
and words under the review threshold 11,472 -> 10,632 with a ratio of 10
(3: 1,463 and 10,911; 30: 1,453 and 10,521); the Portuguese lists (names
only, 5,105 of them) 1,157 -> 1,152 errors.  Spanish and French lists hold no
capitalised-only words.  A word the model wrote in capitals or mixed case is
left alone (an acronym).

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
