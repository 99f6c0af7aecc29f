"""Learning from every fix within a file: the app re-cases what the editor taught it.

A human decision is evidence about *this file*: how it writes a phrase, a
name, its sound cues and speaker labels.  ``Learner`` turns each decision into
rules and applies them to the words nobody has reviewed yet.  What it changes
gets ``Status.LEARNED`` and is undone together with the human fix that caused
it (``Taught`` is one compound action), and the edit log records it as the
app's action linked to that fix.

Naive replace-all breaks as many words as it fixes (``And`` fixed at a cue
start, then pushed onto every ``and``), so every rule is narrow:

- **context**: a changed word is learned with two words on each side in its
  cue (lowercased) and applies only where the same five words appear; one
  word each side broke 3 words for 5 fixed on the dev subtitles without
  punctuation.  One fix is thin evidence: a context rule re-cases only from its
  second agreeing fix, and until then raises the occurrences the model is sure
  of (the others are on the review list anyway); a phrase taught once re-cases
  only the occurrences the model doubts and raises the rest (``thin_rules_raise``).  Sentence-initial words are never evidence and never targets
  of a lower-case or Title rule (their capital is positional).
- **phrases**: a run of capitalised words (a name or title; small words such
  as "of" inside) is learned as a whole with its two neighbours and applies
  only where the whole run appears between the same neighbours.
- **positional or intrinsic** (Beaufays & Strope): a capital at a sentence start
  is the position's and teaches nothing; one given at a line or cue start that the
  file does not mark as a sentence start (a full stop left out, rolling captions)
  teaches only line starts between the same neighbours, unless the file writes the
  word so inside a sentence too (``teaching``).  Without sentence punctuation a
  common word fixed to Title anywhere is taken as an unmarked sentence start: no
  context rule (in six held-out Seinfeld episodes without punctuation "All right
  That's it" was carried to "all right, that's it": 2 broken, now none).
- **word-wide**: an UPPER or Mixed form (``EM``, ``QualWeb``), written or
  accepted twice (or once, where the file writes it so inside a sentence
  elsewhere), carries over to every occurrence of the word away from sentence
  starts and settles the flagged ones already written so (``settle_acronyms``);
  after one fix it re-cases only the occurrences the model reads as capitalised
  too, and the others are raised for review;
  a Title form only for a word the model barely knows (split by the tokenizer,
  a name such as ``Proog``), from its second agreeing fix; in a file with
  sentence punctuation, a Title form decided twice only settles the flagged
  ones written so (``settle_titles``).  Two different forms from the editor
  switch the word-wide rule off.
- **raised, not changed** (``raising``): the other occurrences of a fixed word
  cased otherwise, the words between two fixes to Title in one cue, and in
  English the word after a fix to Title are raised for review with the reason.
- **house style**: the first fix inside a sound cue or a speaker label sets
  that category's style for the file (see ``housestyle``); every unreviewed
  word of the category is restyled, names inside a cue keep their capitals,
  and the flagged ones already in that style are settled.
  One fix can mislead, so the next restyled cue is raised for a check
  (``styles``).

Confirmations from accepts and raising the neighbours of a change were
measured and left out: they cost more visits than they caught errors
(docs/research/2026-11-24-learning-rules.md).
A learned phrase raises for review, rather than capitalises, a word the model
is sure is lower case (``raise_sure_phrases``).

The learner reads only the document and the review state, so a profile from
other files can seed its knowledge (``Knowledge(rules=..., styles=...)``).

The package is split by data:

- ``knowledge``: what the editor taught, one immutable value (``Knowledge``); a learning step
  drafts the next one, and undo puts the previous one back (``learner.Taught``);
- ``layout``: where each word sits in the file (sentence and line starts, sound cues and
  labels, a word index), read from one review state;
- ``teaching``: what one decision teaches; ``applying``: the words that knowledge re-cases or
  settles; ``raising``: the words it raises for review; ``styles``: house style and its check;
- ``step``: what those read and write while one learning step runs;
- ``learner``: the ``Learner`` (settings, knowledge, layout) and ``Taught``.
"""

from ..changes import Change
from ..positions import sentence_initial
from .applying import SURE_LOWER
from .knowledge import Knowledge, StyleCheck
from .layout import Layout
from .learner import Learner, Taught, main_language, make_learner
from .raising import UNPUNCTUATED_SURE_LOWER

__all__ = ["SURE_LOWER", "UNPUNCTUATED_SURE_LOWER", "Change", "Knowledge", "Layout", "Learner", "StyleCheck", "Taught",
           "main_language", "make_learner", "sentence_initial"]
