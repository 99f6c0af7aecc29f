"""The punctuation head: a small network over the shipped encoder's last hidden state, trained on its own.

The casing model's encoder already reads lower-case, unpunctuated cues across their boundaries and must
know where sentences start to case them, so the head reads its features as they are: the encoder is not
changed, so casing stays exactly what it was.  The mark after word i is read from the hidden states of words
i - 1, i and i + 1 (whether the next word starts a sentence is most of a full stop) and whether word i ends
its cue, through one hidden layer (``casing.punctuation`` runs it in numpy).  The graph gets the hidden state
as a second output, ``hidden``, at the same words as ``probs``: one pass gives both.  Steps (the train
extra, from the source tree):

    python -m subcase.training.punctuation features --model models --out work/punct/en.npz
    python -m subcase.training.punctuation fit --features work/punct/en.npz --out work/punct/en-head.npz
    python -m subcase.training.punctuation install --head work/punct/en-head.npz --model models

``features`` reads the training documents (corpora.py; the validation episodes and documents of data.py
are left out and used for the held-out figures) with punctuation stripped, as cues of words only, and
records each word's hidden state and the mark written after it (``casing.marks``).

The multilingual model's head (es, fr, de, pt) comes from the same steps over the multilingual pipeline's
registry text (``multilingual.texts_by_language``, the Wesnoth and FreeDroidRPG dialogue), unpacked under
``--roots`` as docs/dev/training.md fetches it; the held-out campaigns and dialogs of that dialogue and some
running-text documents of each language are held out, and ``fit`` reports the held-out F1 per language:

    python -m subcase.training.punctuation features --model models/multilingual --multilingual \
        --roots work/ml/debs work/ml/pkgs/unpacked work/ml/debs-dialogue work/ml/debs-freedroid --out work/punct/ml.npz
    python -m subcase.training.punctuation fit --features work/punct/ml.npz --out work/punct/ml-head.npz
    python -m subcase.training.punctuation install --head work/punct/ml-head.npz --model models/multilingual
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from pathlib import Path

import numpy as np

from subcase.casing.encoder import BOUNDARY
from subcase.casing.engine import CasingEngine, StreamToken
from subcase.casing.marks import CLOSERS, MARKS, classify, mark_after
from subcase.subtitles.words import tokenize

from . import corpora

from subcase.casing.punctuation import HEAD_FILE, HIDDEN

N = len(MARKS)


def _hidden_tensor(model) -> str:
    """The encoder's last hidden state: what the casing head's MatMul reads (quantized or not)."""
    producers = {out: node for node in model.graph.node for out in node.output}
    probs = producers["probs"]
    node = producers[probs.input[0]]  # the head's Add
    while node.op_type not in ("MatMulInteger", "MatMul"):
        node = producers[next(i for i in node.input if i in producers)]
    source = node.input[0]
    quant = producers.get(source)
    if quant is not None and quant.op_type == "DynamicQuantizeLinear":
        source = quant.input[0]
    return source


def with_output(src: Path, dst: Path) -> None:
    """A copy of the model with the encoder's last hidden state as a second output, ``hidden`` (a model
    that has it already, one with a head installed, is copied as it is)."""
    import onnx
    model = onnx.load(str(src))
    if HIDDEN in {o.name for o in model.graph.output}:
        onnx.save(model, str(dst))
        return
    name = _hidden_tensor(model)
    model.graph.node.append(onnx.helper.make_node("Identity", [name], [HIDDEN], name="hidden_out"))
    model.graph.output.append(onnx.helper.make_tensor_value_info(HIDDEN, onnx.TensorProto.FLOAT, ["words", None]))
    onnx.save(model, str(dst))


def documents(seed: int = 0) -> tuple[list[corpora.Doc], list[corpora.Doc]]:
    """Training and held-out documents: dialogue (Seinfeld, fortunes) and prose (Wikipedia, technical)."""
    rng = random.Random(seed)
    episodes = [d for _, d in corpora.seinfeld_episodes()]
    sources = {"seinfeld": episodes, "fortunes": corpora.fortune_docs(rng), "wiki": corpora.wiki_docs(rng),
               "tech": corpora.tech_docs(rng)}
    # words per source: dialogue matters most (questions, exclamations, short sentences)
    budget = {"seinfeld": 10**9, "fortunes": 250_000, "wiki": 150_000, "tech": 80_000}
    train, held = [], []
    for name, docs in sources.items():
        docs = list(docs)
        if name != "seinfeld":
            rng.shuffle(docs)
        cut = 6 if name == "seinfeld" else 150
        held += docs[-cut:]
        words = 0
        for d in docs[:-cut]:
            if words >= budget[name]:
                break
            train.append(d)
            words += sum(len(c.split()) for c in d.cues)
    return train, held


# Words per source and language of the multilingual head's training text: all of the dialogue (questions,
# exclamations, short lines: what subtitles are) up to its cap, some of each kind of running text.
ML_BUDGET = {"wesnoth": 150_000, "freedroid": 10**9, "fortunes": 60_000, "wiki": 50_000, "reference": 25_000}
ML_HELD_DOCS = 60  # running-text documents of each source and language held out


def multilingual_documents(roots: list[Path], seed: int = 0) -> tuple[list[tuple[str, corpora.Doc]],
                                                                      list[tuple[str, corpora.Doc]]]:
    """Training and held-out (language, document) pairs for the multilingual head.  The dialogue's held-out
    campaigns and dialogs (``dialogue_texts.VAL_CAMPAIGNS``, ``freedroid_dialogue.VAL_DIALOGS``) are held out
    whole, and the last ``ML_HELD_DOCS`` shuffled documents of each running-text source."""
    from . import dialogue_texts, freedroid_dialogue
    from .multilingual import LANGS, texts_by_language

    rng = random.Random(seed)
    running = texts_by_language(roots)
    dialogue = [dialogue_texts.dialogue_by_language(roots, LANGS),
                freedroid_dialogue.dialogue_by_language(roots, LANGS)]
    train: list[tuple[str, corpora.Doc]] = []
    held: list[tuple[str, corpora.Doc]] = []

    def doc(source: str, text: str) -> corpora.Doc:
        return corpora.Doc(source, corpora.split_into_cues(text, rng))

    for lang in LANGS:
        if not any(found["train"][lang] for found in dialogue):
            raise SystemExit(f"no dialogue for {lang} under {[str(r) for r in roots]}: unpack the wesnoth-1.16-<campaign> "
                             "and freedroidrpg-data packages there (docs/dev/training.md)")
        by_source: dict[str, list[str]] = {}
        for source, text in running[lang]:
            by_source.setdefault(source, []).append(text)
        pools: list[tuple[str, list[str]]] = []
        for source, texts in by_source.items():
            rng.shuffle(texts)
            held += [(lang, doc(source, t)) for t in texts[-ML_HELD_DOCS:]]
            pools.append((source, texts[:-ML_HELD_DOCS]))
        for found in dialogue:
            items = found["train"][lang]
            if items:
                texts = [t for _, t in items]
                rng.shuffle(texts)
                pools.append((items[0][0], texts))
            held += [(lang, doc(s, t)) for s, t in found["val"][lang]]
        for source, texts in pools:
            words = 0
            for t in texts:
                if words >= ML_BUDGET[source]:
                    break
                train.append((lang, doc(source, t)))
                words += len(t.split())
    return train, held


def label_after(text: str, end: int, spaced: bool) -> str:
    """The mark after the word ending at ``end``: ``casing.marks``'s rule, and where ``spaced`` (French
    typography: "quoi ?", "dit : « oui »") a mark written as its own token after a space, which the reader of
    such text takes as the word's own."""
    mark = mark_after(text, end)
    if mark or not spaced:
        return mark
    m = _SPACED.match(text, end)
    return classify("".join(c for c in m.group(1) if c not in CLOSERS)) if m else mark


_SPACED = re.compile(r"[ \u00a0\u202f]+([^\w\s]+)(?=\s|$)")


def doc_stream(doc: corpora.Doc, spaced: bool = False) -> tuple[list[StreamToken], list[str], list[bool]]:
    """A document as the model sees it stripped (a boundary, then each cue's words), the mark written after
    each word (``label_after``), and whether the word ends its cue."""
    stream: list[StreamToken] = []
    marks: list[str] = []
    ends: list[bool] = []
    for cue in doc.cues:
        words = [t for t in tokenize(cue) if t.is_word]
        if not words:
            continue
        stream.append(StreamToken(BOUNDARY, False))
        for k, t in enumerate(words):
            stream.append(StreamToken(t.text.lower(), True))
            marks.append(label_after(cue, t.end, spaced))
            ends.append(k == len(words) - 1)
    return stream, marks, ends


def extract(engine: CasingEngine, docs: list[tuple[str, corpora.Doc]]) -> dict[str, np.ndarray]:
    """Each word's hidden state, its mark, whether it ends its cue and its language (an index into
    ``LANGUAGES``); ``doc`` is where each document starts."""
    own, labels, ends, starts, langs = [], [], [], [0], []
    for lang, doc in docs:
        stream, marks, cue_ends = doc_stream(doc, spaced=lang == "fr")
        if not marks:
            continue
        (hidden,) = engine.word_outputs(stream, (HIDDEN,))
        h = hidden[[t.is_word for t in stream]].astype(np.float16)
        own.append(h)
        labels.append(np.array([MARKS.index(m) for m in marks], np.int8))
        ends.append(np.array(cue_ends, np.int8))
        langs.append(np.full(len(h), LANGUAGES.index(lang), np.int8))
        starts.append(starts[-1] + len(h))
    return {"own": np.vstack(own), "label": np.concatenate(labels), "end": np.concatenate(ends),
            "doc": np.array(starts[:-1], np.int64), "lang": np.concatenate(langs)}


LANGUAGES = ("en", "es", "fr", "de", "pt")


def cmd_features(args) -> None:
    import tempfile
    if args.multilingual:
        if not args.roots:
            raise SystemExit("--multilingual needs --roots: the folders the registry packages are unpacked in")
        train, held = multilingual_documents([Path(r) for r in args.roots])
    else:
        train, held = [[("en", d) for d in docs] for docs in documents()]
    with tempfile.TemporaryDirectory() as tmp:
        model_dir = Path(tmp)
        for path in Path(args.model).iterdir():
            if path.is_file() and path.name != "model.onnx":
                (model_dir / path.name).write_bytes(path.read_bytes())
        with_output(Path(args.model) / "model.onnx", model_dir / "model.onnx")
        engine = CasingEngine(model_dir)
        t = time.time()
        out = {}
        for split, docs in (("train", train), ("held", held)):
            for key, value in extract(engine, docs).items():
                out[f"{split}_{key}"] = value
            print(f"{split}: {len(out[f'{split}_label'])} words, {time.time() - t:.0f} s", flush=True)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    np.savez(args.out, **out)


def _inputs(data, split: str):
    from subcase.casing.punctuation import neighbours
    import torch
    own = data[f"{split}_own"].astype(np.float32)
    first = np.zeros(len(own), bool)
    first[data[f"{split}_doc"]] = True
    x = neighbours(own, data[f"{split}_end"].astype(np.float32), first)
    return torch.from_numpy(x), torch.from_numpy(data[f"{split}_label"].astype(np.int64))


def scores(pred: np.ndarray, gold: np.ndarray) -> dict[str, float]:
    """F1 x 100 per mark (comma, full stop, question, exclamation)."""
    out = {}
    for k in range(1, N):
        tp = int(((pred == k) & (gold == k)).sum())
        fp = int(((pred == k) & (gold != k)).sum())
        fn = int(((pred != k) & (gold == k)).sum())
        out[MARKS[k]] = round(200 * tp / max(2 * tp + fp + fn, 1), 1)
    return out


def cmd_fit(args) -> None:
    import torch
    torch.manual_seed(args.seed)
    torch.set_num_threads(2)
    data = np.load(args.features)
    x, y = _inputs(data, "train")
    hx, hy = _inputs(data, "held")
    hl = data["held_lang"] if "held_lang" in data else np.zeros(len(hy), np.int8)
    net = torch.nn.Sequential(torch.nn.Linear(x.shape[1], args.hidden), torch.nn.GELU(), torch.nn.Dropout(0.1),
                              torch.nn.Linear(args.hidden, N))
    counts = torch.bincount(y, minlength=N).float()
    # rarer marks weigh more (``balance`` 0.5, the square root of their rarity: between precision and recall)
    weight = (counts.sum() / counts.clamp(min=1)) ** args.balance
    weight = weight / weight[0]
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-2)
    loss_fn = torch.nn.CrossEntropyLoss(weight=weight)
    start = time.time()
    held: dict[str, float] = {}
    by_language: dict[str, dict[str, float]] = {}
    for epoch in range(args.epochs):
        net.train()
        perm = torch.randperm(len(y))
        for i in range(0, len(y), 1024):
            idx = perm[i:i + 1024]
            loss = loss_fn(net(x[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        net.eval()
        with torch.no_grad():
            pred = net(hx).argmax(1).numpy()
        held = scores(pred, hy.numpy())
        by_language = {LANGUAGES[k]: scores(pred[hl == k], hy.numpy()[hl == k]) for k in np.unique(hl).tolist()}
        print(f"epoch {epoch + 1}: {time.time() - start:.0f} s, held-out F1 {held}", flush=True)
        if len(by_language) > 1:
            print(f"  by language {by_language}", flush=True)
    first, second = net[0], net[3]
    np.savez(args.out, w1=first.weight.detach().numpy().T.copy(), b1=first.bias.detach().numpy(),
             w2=second.weight.detach().numpy().T.copy(), b2=second.bias.detach().numpy(),
             held=np.array(json.dumps({"f1": held, **({"f1_by_language": by_language} if len(by_language) > 1 else {}),
                                       "train_words": len(y), "held_words": len(hy)})))


def cmd_install(args) -> None:
    """The head into a model folder: the graph with its ``hidden`` output, the head's weights, the card."""
    model_dir = Path(args.model)
    head = np.load(args.head)
    onnx_path = model_dir / "model.onnx"
    tmp = onnx_path.with_suffix(".tmp")
    import onnx
    if HIDDEN not in {o.name for o in onnx.load(str(onnx_path)).graph.output}:
        with_output(onnx_path, tmp)
        tmp.replace(onnx_path)
    np.savez(model_dir / HEAD_FILE, **{k: head[k].astype(np.float32) for k in ("w1", "b1", "w2", "b2")})
    card_path = model_dir / "model.json"
    card = json.loads(card_path.read_text(encoding="utf-8"))
    from subcase.digest import file_sha256
    card["sha256"] = file_sha256(onnx_path)
    card["outputs"] = ["probs", HIDDEN]
    card["punctuation"] = {"head": HEAD_FILE, "marks": list(MARKS), **json.loads(str(head["held"]))}
    card_path.write_text(json.dumps(card, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"installed the punctuation head in {model_dir}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("features")
    f.add_argument("--model", default="models")
    f.add_argument("--out", required=True)
    f.add_argument("--multilingual", action="store_true",
                   help="the multilingual model's text (es, fr, de, pt) from the packages under --roots")
    f.add_argument("--roots", nargs="*", default=[], help="folders the registry packages are unpacked in")
    f.set_defaults(run=cmd_features)
    t = sub.add_parser("fit")
    t.add_argument("--features", required=True)
    t.add_argument("--out", required=True)
    t.add_argument("--epochs", type=int, default=5)
    t.add_argument("--hidden", type=int, default=256)
    t.add_argument("--lr", type=float, default=1e-3)
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--balance", type=float, default=0.5, help="weigh each mark by its rarity to this power")
    t.set_defaults(run=cmd_fit)
    i = sub.add_parser("install")
    i.add_argument("--head", required=True)
    i.add_argument("--model", default="models")
    i.set_defaults(run=cmd_install)
    args = ap.parse_args(argv)
    args.run(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
