"""The truecaser at run time: ONNX model + WordPiece tokenizer + case-mask lexicon.

No torch.  Words of consecutive cues form one stream, cut into overlapping
windows (see ``windows``); windows are batched through the model; each word
takes the tag probabilities of its first sub-token in the window where it is
most central.  Probabilities are temperature-calibrated (``model.json``), so
the confidence of a word is the calibrated probability of its chosen tag.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, NamedTuple, Protocol, Sequence

import numpy as np

from subcase.digest import file_sha256
from subcase.paths import models_dir

from .calibration import apply_temperature
from .encoder import WordEncoder
from .lexicon import CAPITALISED_FILE, load_capitalised, load_lexicon
from .onnx_session import ModelError, OnnxSession
from .punctuation import HIDDEN, MARKS_OUTPUT, GraphMarks, PunctuationHead
from .tags import TAGS, Tag, apply_tag
from .windows import assign_tokens, plan_windows

BUDGET = 62          # sub-tokens per window, as in training, plus [CLS] and [SEP]
STEP = 54            # a new window every 54 sub-tokens: 1.15x overlap, every word keeps some context both sides
BATCH = 16           # windows per model call (16 beat 8, 32 and 64 on 2 cores)
COMPANION = "multilingual"  # subfolder of the model folder with the model of other languages, if any

OnProgress = Callable[[int, int], None]  # (window batches done, total)
ShouldCancel = Callable[[], bool]


class CasingCancelled(Exception):
    """The caller asked to stop; nothing was changed."""


# StreamToken and WordPrediction are NamedTuples: immutable as frozen dataclasses are, and cheaper to make
# (0.29 against 0.41 us for a prediction), which counts when a film makes one per word
# (docs/research/2026-11-27-bench-python-overhead.md).
class StreamToken(NamedTuple):
    """One token of the input stream: a word (to be tagged) or punctuation."""

    text: str
    is_word: bool


class StreamItem(Protocol):
    """What ``predict`` reads of a token: a StreamToken, or a cue's own Token (casing/stream.py passes those
    as they are rather than copying each one)."""

    @property
    def text(self) -> str: ...

    @property
    def is_word(self) -> bool: ...


class WordPrediction(NamedTuple):
    tag: Tag
    probs: tuple[float, float, float, float]  # calibrated, in TAGS order

    @property
    def confidence(self) -> float:
        return self.probs[TAGS.index(self.tag)]

    def weighed(self, tag: Tag, ratio: float) -> WordPrediction:
        """This prediction with evidence for ``tag`` folded in: its odds times ``ratio``, the other tags
        scaled in proportion, and the tag the most probable one after that (casing/continuations.py,
        casing/capitalised.py)."""
        k = TAGS.index(tag)
        p = self.probs[k]
        rest = 1.0 - p
        if rest <= 0.0:
            return self
        new = ratio * p / (ratio * p + rest)
        scale = (1.0 - new) / rest
        q = tuple(new if i == k else x * scale for i, x in enumerate(self.probs))
        return WordPrediction(TAGS[max(range(len(q)), key=q.__getitem__)], (q[0], q[1], q[2], q[3]))


@dataclass(frozen=True)
class ModelInfo:
    version: str
    sha256: str
    temperature: float
    review_threshold: float
    card: dict


def load_model_info(model_dir: Path | None = None) -> ModelInfo:
    """The model's card and calibration, without loading the network (cheap: a
    parent process that only hands files to workers needs no more)."""
    model_dir = Path(model_dir) if model_dir else models_dir()
    for name in ("model.onnx", "tokenizer.json", "model.json"):
        if not (model_dir / name).is_file():
            raise ModelError(f"the casing model is incomplete: {model_dir / name} is missing")
    try:
        meta = json.loads((model_dir / "model.json").read_text(encoding="utf-8"))
    except ValueError as exc:
        raise ModelError(f"{model_dir / 'model.json'} is not valid JSON: {exc}") from exc
    cal = meta.get("calibration", {})
    return ModelInfo(
        version=str(meta.get("version", "unknown")),
        sha256=str(meta.get("sha256") or file_sha256(model_dir / "model.onnx")),
        temperature=float(cal.get("temperature", 1.0)),
        review_threshold=float(cal.get("review_threshold", 0.9)),
        card=meta,
    )


class CasingEngine:
    """Loads the shipped model once; any number of threads may call ``predict``.

    ``threads`` is how many cores the model may use: the batches of one call run
    side by side on that many threads (``OnnxSession.run_all``).  Callers share the
    session batch by batch, not call by call: the engine's lock is held only while
    the tokenizer cache is updated.  A file opened during a long batch conversion
    therefore interleaves with it instead of waiting for it, and either can be
    cancelled between two batches.
    """

    def __init__(self, model_dir: Path | None = None, threads: int | None = None, step: int | None = None,
                 budget: int | None = None, info: ModelInfo | None = None):
        model_dir = Path(model_dir) if model_dir else models_dir()
        self.model_dir = model_dir
        # ``info``: this model's card as the caller read it already (a batch reads it once for all its engines)
        self.info = info if info is not None else load_model_info(model_dir)
        meta = self.info.card
        self.session = OnnxSession(model_dir / "model.onnx", threads)
        self.encoder = WordEncoder(model_dir / "tokenizer.json")
        # the mark after each word, from the same pass (casing/punctuation.py), where the model has a head
        outputs = self.session.output_names
        self.punctuation: GraphMarks | PunctuationHead | None = (
            GraphMarks() if MARKS_OUTPUT in outputs
            else PunctuationHead.load(model_dir) if HIDDEN in outputs else None)
        if self.punctuation is not None:
            self.punctuation.temperature = float(meta.get("punctuation", {}).get("temperature", 1.0))
        lex_path = model_dir / "lexicon.json"
        self.lexicon = load_lexicon(lex_path) if lex_path.is_file() else {}
        # (word, tag) -> form: a film writes its ~2,000 distinct words 11,000 times (``form``)
        self._forms: dict[tuple[str, Tag], str] = {}
        # words each language writes only capitalised (German nouns; casing/capitalised.py), if shipped
        cap_path = model_dir / CAPITALISED_FILE
        try:
            self.capitalised = load_capitalised(cap_path) if cap_path.is_file() else {}
        except ValueError as exc:
            raise ModelError(str(exc)) from exc
        window = meta.get("window", {})
        self.budget = int(budget or window.get("budget", BUDGET))
        self.step = int(step or window.get("step", STEP))
        self.batch = BATCH
        # the languages this model cases (others go to casing/rules.py); the English model's card predates the field
        self.languages: tuple[str, ...] = tuple(meta.get("languages", ("en",)))
        # A second model for other languages may sit in a subfolder (models/multilingual/).  Only its
        # card is read here; its network is loaded the first time a file needs it, so a user who
        # only cases English pays nothing for it (casing/routing.py asks ``engine_for``).
        self._threads = threads
        self._companion: CasingEngine | None = None
        self._companion_dir = model_dir / COMPANION
        self._companion_languages: tuple[str, ...] = ()
        card = self._companion_dir / "model.json"
        if card.is_file():
            try:
                self._companion_languages = tuple(
                    lang for lang in json.loads(card.read_text(encoding="utf-8")).get("languages", ())
                    if lang not in self.languages)
            except ValueError as exc:
                raise ModelError(f"{card} is not valid JSON: {exc}") from exc
        self._lock = threading.Lock()

    # -- which model cases which language ----------------------------------------------

    @property
    def model_languages(self) -> tuple[str, ...]:
        """Every language a model cases: this one's, then its companion's."""
        return self.languages + self._companion_languages

    def engine_for(self, language: str) -> CasingEngine | None:
        """The engine that cases ``language`` (loading the companion model on first use), or None."""
        if language in self.languages:
            return self
        if language not in self._companion_languages:
            return None
        with self._lock:
            if self._companion is None:
                self._companion = CasingEngine(self._companion_dir, self._threads)
        return self._companion

    # -- the model over a token stream -------------------------------------------------

    def predict(self, stream: Sequence[StreamItem], progress: OnProgress | None = None,
                cancel: ShouldCancel | None = None) -> list[WordPrediction | None]:
        """Predictions for every token of ``stream`` (None for punctuation)."""
        if not stream:
            return []
        (probs,) = self.word_outputs(stream, ("probs",), progress, cancel)
        return self.predictions(stream, probs)

    def shrink_arena(self) -> None:
        """After a long pass: the memory the session's arena holds for activations given back
        (``OnnxSession.shrink_arena``), so that the per-word results made next are not added to it."""
        self.session.shrink_arena()

    def predictions(self, stream: Sequence[StreamItem], probs: np.ndarray) -> list[WordPrediction | None]:
        """Each token's prediction (None for punctuation) from the model's ``probs`` of its words."""
        result: list[WordPrediction | None] = [None] * len(stream)
        word_tokens = np.flatnonzero([t.is_word for t in stream])
        if len(word_tokens):
            calibrated = self.calibrate(probs[word_tokens])
            best = calibrated.argmax(1).tolist()
            for tok, k, p in zip(word_tokens.tolist(), best, calibrated.tolist()):
                result[tok] = WordPrediction(TAGS[k], tuple(p))  # four floats
        return result

    def word_outputs(self, stream: Sequence[StreamItem], names: tuple[str, ...],
                     progress: OnProgress | None = None, cancel: ShouldCancel | None = None) -> list[np.ndarray]:
        """The model's outputs ``names`` at every word of ``stream``: one array per name, a row per token
        (zeros at punctuation), each word's row from the window where it is most central."""
        parts = list(self.word_output_chunks(stream, names, progress, cancel))
        if not parts:
            return [np.zeros((len(stream), 0), dtype=np.float32) for _ in names]
        return [np.concatenate([arrays[i] for _, _, arrays in parts]) for i in range(len(names))]

    # Windows run per chunk of ``word_output_chunks``: what bounds its memory.  A chunk's windows are batched
    # among themselves, and the model's int8 activations are quantized with one scale per batch, so this also
    # fixes which windows share a batch: any other value changes some probabilities (63 of 10,000 tags moved
    # at 7 windows), so it is one constant, never a caller's choice.  256 windows are about 11,000 words: a
    # film is one chunk, batched exactly as before chunks.
    CHUNK_WINDOWS = 256

    def word_output_chunks(self, stream: Sequence[StreamItem], names: tuple[str, ...],
                           progress: OnProgress | None = None,
                           cancel: ShouldCancel | None = None) -> Iterator[tuple[int, int, list[np.ndarray]]]:
        """``word_outputs`` in consecutive pieces: ``(lo, hi, arrays)`` with the rows of tokens lo to hi of
        ``stream``, in order, covering it.  The windows are planned over the whole stream and each word
        read in the same window as in one call; they run ``CHUNK_WINDOWS`` at a time, so a three-hour stream
        never holds more than a chunk's outputs (the hidden states of a 36k-word file took 600 MB at once)."""
        # A film starts a sentence.  Training windows often begin mid-sentence, so
        # the model is told so the way running text says it: a full stop before
        # the first word (context only; it gets no prediction of its own).
        stream = [StreamToken(".", False), *stream]
        with self._lock:  # the encoder's cache of word pieces is shared
            pieces = self.encoder.pieces([t.text.lower() for t in stream])
        lengths = [min(len(p), self.budget) for p in pieces]
        # every sub-token id in one flat array; token i owns flat[starts[i]:starts[i + 1]]
        flat = np.fromiter((t for p in pieces for t in p[:self.budget]), dtype=np.int64,
                           count=sum(lengths))
        del pieces
        starts = np.zeros(len(stream) + 1, dtype=np.int64)
        np.cumsum(lengths, out=starts[1:])
        windows = plan_windows(lengths, self.budget, self.step)
        owner = np.asarray(assign_tokens(lengths, windows))
        is_word = np.fromiter((t.is_word for t in stream), dtype=bool, count=len(stream))
        word_tokens = np.flatnonzero(is_word)
        # group the words by the window that predicts them
        order = np.argsort(owner[word_tokens], kind="stable")
        grouped = word_tokens[order]
        needed, first = np.unique(owner[grouped], return_index=True)
        groups = dict(zip(needed.tolist(), np.split(grouped, first[1:])))
        if not groups:  # no word at all
            return
        span = {w: int(starts[windows[w].last] - starts[windows[w].first]) for w in groups}
        # where each window's words start in its row of input ids (after [CLS])
        at = {w: starts[toks] - starts[windows[w].first] + 1 for w, toks in groups.items()}
        # The windows that predict words, in stream order, cut into chunks; tokens before the first token
        # any later chunk predicts are complete once a chunk has run.
        ordered = sorted(groups)
        size = self.CHUNK_WINDOWS
        chunks = [ordered[b:b + size] for b in range(0, len(ordered), size)]
        lowest = [int(min(groups[w].min() for w in chunk)) for chunk in chunks]
        complete = [min(lowest[k + 1:], default=len(stream)) for k in range(len(chunks))]
        # windows of similar length share a batch, to waste less on padding
        batches = [queue[b:b + self.batch] for chunk in chunks
                   for queue in [sorted(chunk, key=span.__getitem__)] for b in range(0, len(queue), self.batch)]
        batch_chunk = [k for k, chunk in enumerate(chunks) for _ in range(0, len(chunk), self.batch)]
        gathers = self.session.gathers

        def inputs():
            for batch in batches:
                width = max(span[w] for w in batch) + 2
                ids = np.full((len(batch), width), self.encoder.pad_id, dtype=np.int64)
                mask = np.zeros((len(batch), width), dtype=np.int64)
                for r, w in enumerate(batch):
                    lo = starts[windows[w].first]
                    ids[r, 0] = self.encoder.cls_id
                    ids[r, 1:span[w] + 1] = flat[lo:lo + span[w]]
                    ids[r, span[w] + 1] = self.encoder.sep_id
                    mask[r, :span[w] + 2] = 1
                if not gathers:
                    yield ids, mask
                    continue
                # only the sub-tokens whose tags are read go through the last layer: their places in the
                # batch's rows laid end to end, row by row (so the output's rows come in the same order)
                yield ids, mask, np.concatenate([r * width + at[w] for r, w in enumerate(batch)])

        if cancel is not None and cancel():
            raise CasingCancelled()
        outputs = self.session.run_all(inputs(), names)
        # Each batch's rows go straight into the arrays of the chunk being handed out (tokens ``emitted`` to
        # ``complete`` of the chunk; the first token is the full stop above), so a batch's outputs are freed once
        # read rather than held, row by row, until the chunk is copied out: the hidden states of a chunk are
        # never held twice.  ``pending``: copies of the rows of tokens past it, for a later chunk's arrays.
        pending: dict[int, list[np.ndarray]] = {}
        arrays: list[np.ndarray] | None = None
        emitted = 1
        ran = 0  # windows run
        try:
            for done, (batch, outs) in enumerate(zip(batches, outputs), 1):
                upto = complete[batch_chunk[done - 1]]
                if arrays is None:
                    arrays = [np.zeros((upto - emitted, out.shape[-1]), dtype=np.float32) for out in outs]
                    for t in [t for t in pending if t < upto]:
                        for into, v in zip(arrays, pending.pop(t)):
                            into[t - emitted] = v
                for name_index, out in enumerate(outs):
                    into = arrays[name_index]
                    row = 0
                    for r, w in enumerate(batch):
                        toks = groups[w]
                        if gathers:
                            rows = out[row:row + len(toks)]
                            row += len(toks)
                        else:
                            rows = out[r, at[w]]
                        for t, values in zip(toks.tolist(), rows):
                            if t < upto:
                                into[t - emitted] = values
                            else:
                                pending.setdefault(t, [None] * len(names))[name_index] = values.copy()  # type: ignore[list-item]
                del outs
                if done == len(batches) or batch_chunk[done] != batch_chunk[done - 1]:
                    yield emitted - 1, upto - 1, arrays
                    arrays = None
                    emitted = upto
                ran += len(batch)
                if progress is not None:
                    progress(ran, len(ordered))
                if done < len(batches) and cancel is not None and cancel():
                    raise CasingCancelled()
        finally:
            outputs.close()  # waits for the batches still running

    def calibrate(self, probs: np.ndarray) -> np.ndarray:
        """Temperature-scaled probabilities (rows sum to 1)."""
        return apply_temperature(probs, self.info.temperature)

    MAX_FORMS = 200_000  # remembered forms; far beyond any film's vocabulary times its tags

    def form(self, word: str, tag: Tag) -> str:
        """``word`` written with ``tag`` (M words from the case-mask lexicon); remembered, since the
        lexicon never changes once loaded."""
        key = (word, tag)
        found = self._forms.get(key)
        if found is None:
            if len(self._forms) >= self.MAX_FORMS:
                self._forms.clear()
            found = self._forms[key] = apply_tag(word, tag, self.lexicon)
        return found
