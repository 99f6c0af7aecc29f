"""The training and validation sets: every source, decorated, encoded once and cached."""

from __future__ import annotations

import pickle
import random
from dataclasses import dataclass
from pathlib import Path

from subcase.casing.encoder import WordEncoder

from . import corpora, synthetic
from .examples import IGNORE, EncodedDoc, encode_doc

# Bump when the data change: the default cache is named after it, so an old cache is never trained on by mistake.
DATA_VERSION = 5
DEFAULT_CACHE = Path(f"work/train/dataset-v{DATA_VERSION}.pkl")
VAL_SEINFELD_EPISODES = 6
VAL_DOCS_PER_SOURCE = 300


@dataclass
class Dataset:
    train: list[tuple[str, EncodedDoc]]
    val: list[tuple[str, EncodedDoc]]
    stats: dict


def build(encoder: WordEncoder, seed: int = 0) -> Dataset:
    rng = random.Random(seed)
    names = synthetic.proper_names()
    episodes = corpora.seinfeld_episodes()
    groups: dict[str, tuple[list[corpora.Doc], list[corpora.Doc]]] = {
        "seinfeld": ([d for _, d in episodes[:-VAL_SEINFELD_EPISODES]], [d for _, d in episodes[-VAL_SEINFELD_EPISODES:]]),
    }
    for source, docs in (("wiki", corpora.wiki_docs(rng)), ("fortunes", corpora.fortune_docs(rng)),
                         ("synthetic", synthetic.phenomenon_docs(rng)), ("tech", corpora.tech_docs(rng))):
        rng.shuffle(docs)
        groups[source] = (docs[VAL_DOCS_PER_SOURCE:], docs[:VAL_DOCS_PER_SOURCE])
    train, val, stats = [], [], {}
    for source, (tr, va) in groups.items():
        n_words = 0
        for split, docs in (("train", tr), ("val", va)):
            for d in docs:
                if source != "synthetic":
                    d = synthetic.decorate(d, rng, names)
                enc = encode_doc(d, encoder)
                if enc is None:
                    continue
                (train if split == "train" else val).append((source, enc))
                if split == "train":
                    n_words += sum(1 for lab in enc.labels if lab != IGNORE)
        stats[source] = {"train_docs": len(tr), "val_docs": len(va), "train_words": n_words}
    return Dataset(train, val, stats)


def load_or_build(cache: Path, encoder: WordEncoder, seed: int = 0) -> Dataset:
    if cache.exists():
        with open(cache, "rb") as f:
            return pickle.load(f)
    ds = build(encoder, seed)
    cache.parent.mkdir(parents=True, exist_ok=True)
    with open(cache, "wb") as f:
        pickle.dump(ds, f)
    return ds
