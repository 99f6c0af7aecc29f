"""The punctuation test set and the training corpus of real captions (issue 55, items 1 and 2).

    python -m subcase.training.corpus --mirrors /work/.mirror --out /work/corpus --testset /work/testset

builds both from fetched snapshots of the sources in ``sources.py`` and writes ``manifest.json`` beside
this file.  See docs/dev/corpus.md.
"""
