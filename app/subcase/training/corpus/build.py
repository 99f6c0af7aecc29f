"""One command: the test set, then the training corpus de-duplicated against it and the dev sets,
then the manifest.  Deterministic for a given ``--seed`` and snapshots."""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import shutil
import sys
import time
from collections import defaultdict
from pathlib import Path

from ...errors import SubcaseError
from . import formats, heldout, ngrams, testset
from .formats import Cue, timed_text_cues
from .mirror import Mirror
from .sources import DocRef, Source, sources

ROOT = Path(__file__).resolve().parents[4]
SHARED = ROOT.parent / "shared"
MANIFEST = Path(__file__).with_name("manifest.json")
DEV_SETS = ("dev-subtitles", "dev-subtitles-ml", "dev-asr")
TEST_DOC_WORDS = 4_000     # a test file is at most this long: more files, tighter file-bootstrap intervals
TEST_DOCS_PER_GROUP = 3    # episodes of one show, lectures of one course...: more shows, fewer of each
MIN_RUN_WORDS = 8          # a cue run left by the 8-gram dedupe shorter than this is dropped
MARKER = ".subcase-testset"


def words(cues: list[Cue] | list[str]) -> int:
    return sum(len((c.text if isinstance(c, Cue) else c).split()) for c in cues)


def questions(cues: list[Cue]) -> int:
    return sum(c.text.count("?") for c in cues)


def _slug(ref: DocRef) -> str:
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", Path(ref.id).stem)[:60].strip("_.")
    return f"{stem}-{hashlib.sha1(ref.id.encode('utf-8')).hexdigest()[:8]}"


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _shuffled(items: list, seed: int, *salt: str) -> list:
    out = list(items)
    random.Random(":".join([str(seed), *salt])).shuffle(out)
    return out


def _normalised(source: Source, cues: list[Cue]) -> list[Cue]:
    if source.lang != "fr":
        return cues
    return [Cue(formats.french_spacing(c.text), c.start, c.end) for c in cues]


def dev_texts(shared_data: Path) -> list[str]:
    """Every cue of the shared dev sets (SRT and WebVTT, all languages)."""
    texts: list[str] = []
    for name in DEV_SETS:
        folder = shared_data / name
        if not folder.is_dir():
            raise SubcaseError("dev set missing: the corpus is de-duplicated against it", folder)
        for path in sorted(folder.rglob("*")):
            if path.suffix.lower() in (".srt", ".vtt") and path.is_file() and not path.is_symlink():
                texts.extend(c.text for c in timed_text_cues(path.read_bytes().decode("utf-8", "replace")))
    return texts


class Builder:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.seed: int = args.seed
        self.mirrors: dict[str, Mirror] = {}
        self.log = sys.stderr

    def mirror(self, repo: str) -> Mirror:
        if repo not in self.mirrors:
            self.mirrors[repo] = Mirror(self.args.mirrors, repo)
        return self.mirrors[repo]

    def say(self, text: str) -> None:
        print(f"[{time.strftime('%H:%M:%S')}] {text}", file=self.log, flush=True)

    # --- test set ---------------------------------------------------------------------------------

    def hold_out(self, source: Source, refs: list[DocRef]) -> tuple[list[tuple[DocRef, list[Cue]]], set[str]]:
        """The test documents of ``source`` and the groups held out for them (whole shows, courses,
        seasons: none of their documents is trained on)."""
        if source.test_words == 0:
            return [], set()
        mirror = self.mirror(source.repo)
        by_group: dict[str, list[DocRef]] = defaultdict(list)
        for ref in refs:
            by_group[ref.group].append(ref)
        taken: list[tuple[DocRef, list[Cue]]] = []
        held: set[str] = set()
        total = 0
        budget = source.test_words if source.test_words > 0 else float("inf")
        for group in _shuffled(sorted(by_group), self.seed, source.key, "groups"):
            if total >= budget:
                break
            held.add(group)
            in_group = 0
            for ref in _shuffled(by_group[group], self.seed, source.key, group):
                if total >= budget or (in_group >= TEST_DOCS_PER_GROUP and source.test_words > 0):
                    break
                cues = source.parse(mirror, ref)
                if not cues or formats.mostly_capitals([c.text for c in cues]):
                    continue
                cues = _normalised(source, cues)
                kept, n = [], 0
                for cue in cues:
                    if n >= TEST_DOC_WORDS:
                        break
                    kept.append(cue)
                    n += len(cue.text.split())
                taken.append((ref, kept))
                total += n
                in_group += 1
        return taken, held

    def write_testset(self, tests: dict[str, tuple[Source, list[tuple[DocRef, list[Cue]]]]]) -> dict:
        out: Path = self.args.testset
        if out.exists():
            if not (out / MARKER).is_file():
                raise SubcaseError("exists and was not written by this builder: choose another --testset", out)
            shutil.rmtree(out)
        out.mkdir(parents=True)
        (out / MARKER).write_text("written by python -m subcase.training.corpus\n", encoding="utf-8")
        files = []
        for key, (source, docs) in tests.items():
            for ref, cues in docs:
                path = out / source.lang / source.genre / f"{key}__{_slug(ref)}.srt"
                testset.write_atomic(path, testset.srt(testset.timed(cues, source.cue_cuts)))
                files.append({"file": str(path.relative_to(out)), "source": key, "doc": ref.id,
                              "words": words(cues), "questions": questions(cues),
                              "times": "source" if all(c.start is not None for c in cues) else "synthetic",
                              "sha256": _sha256(path)})
        summary: dict = defaultdict(lambda: defaultdict(lambda: {"files": 0, "words": 0, "questions": 0}))
        for f in files:
            lang, genre = f["file"].split("/")[:2]
            cell = summary[lang][genre]
            cell["files"] += 1
            cell["words"] += f["words"]
            cell["questions"] += f["questions"]
        return {"summary": json.loads(json.dumps(summary)), "files": sorted(files, key=lambda f: f["file"])}

    # --- training corpus ---------------------------------------------------------------------------

    def train_shard(self, source: Source, refs: list[DocRef], protected: set[str],
                    near: ngrams.NearDuplicates) -> dict:
        mirror = self.mirror(source.repo)
        cap = source.train_cap * self.args.scale if source.train_cap else None
        shard = self.args.out / source.lang / f"{source.key}.jsonl"
        stats = {"documents": 0, "words": 0, "near_duplicate_documents": 0, "overlap_cues_dropped": 0,
                 "overlap_documents": 0, "unparsable_or_filtered_files": 0}
        lines = []
        for ref in _shuffled(refs, self.seed, source.key, "train"):
            if cap is not None and stats["words"] >= cap:
                break
            cues = source.parse(mirror, ref)
            texts = [c.text for c in _normalised(source, cues)] if cues else []
            if not texts or formats.mostly_capitals(texts):
                stats["unparsable_or_filtered_files"] += 1
                continue
            if not near.keep(texts):
                stats["near_duplicate_documents"] += 1
                continue
            runs, dropped = ngrams.split_on_overlap(texts, protected)
            if dropped:
                stats["overlap_documents"] += 1
                stats["overlap_cues_dropped"] += dropped
            part = 0
            for run in runs:
                if words(run) < MIN_RUN_WORDS:
                    continue
                doc_id = f"{source.key}:{ref.id}" + (f"#{part}" if part else "")
                part += 1
                lines.append(json.dumps({"id": doc_id, "source": source.repo, "genre": source.genre,
                                         "lang": source.lang, "cues": run}, ensure_ascii=False))
                stats["documents"] += 1
                stats["words"] += words(run)
        testset.write_atomic(shard, "\n".join(lines) + ("\n" if lines else ""))
        stats["shard"] = str(shard.relative_to(self.args.out))
        stats["sha256"] = _sha256(shard)
        return stats

    def run(self) -> dict:
        args = self.args
        listed = heldout.held_out(args.held_out)
        chosen = [s for s in sources() if s.lang in args.langs and (not args.sources or s.key in args.sources)]
        for source in chosen:
            heldout.check(source.repo, listed)
        refs: dict[str, list[DocRef]] = {}
        tests: dict[str, tuple[Source, list[tuple[DocRef, list[Cue]]]]] = {}
        held: dict[str, set[str]] = {}
        for source in chosen:
            refs[source.key] = sorted(source.refs(self.mirror(source.repo)), key=lambda r: r.id)
            docs, groups = self.hold_out(source, refs[source.key])
            tests[source.key] = (source, docs)
            held[source.key] = groups
            self.say(f"{source.key}: {len(refs[source.key])} documents, test {sum(words(c) for _, c in docs)} words "
                     f"from {len(groups)} held-out groups")
        test_report = self.write_testset(tests)
        self.say(f"test set written to {args.testset}")
        protected = ngrams.text_grams(dev_texts(args.shared / "data"))
        dev_grams = len(protected)
        for _, docs in tests.values():
            for _, cues in docs:
                protected |= ngrams.text_grams(c.text for c in cues)
        self.say(f"{len(protected)} protected 8-grams ({dev_grams} from the dev sets)")
        near: dict[str, ngrams.NearDuplicates] = defaultdict(ngrams.NearDuplicates)
        report = []
        for source in chosen:
            train_refs = [r for r in refs[source.key] if r.group not in held[source.key]]
            stats = self.train_shard(source, train_refs, protected, near[source.lang]) if source.test_words != -1 else None
            test_docs = tests[source.key][1]
            mirror = self.mirror(source.repo)
            entry = {"key": source.key, "repo": source.repo, "commit": mirror.commit, "paths": source.paths,
                     "licence": source.licence, "genre": source.genre, "lang": source.lang, "note": source.note,
                     "words": {"train": stats["words"] if stats else 0,
                               "test": sum(words(c) for _, c in test_docs)},
                     "test_files": len(test_docs), "held_out_groups": sorted(held[source.key]),
                     "train": stats, "train_cap": source.train_cap * args.scale if source.train_cap else None}
            report.append(entry)
            if stats:
                self.say(f"{source.key}: train {stats['words']} words in {stats['documents']} documents; "
                         f"{stats['overlap_cues_dropped']} cues dropped for 8-gram overlap, "
                         f"{stats['near_duplicate_documents']} near-duplicate documents")
        for mirror in self.mirrors.values():
            mirror.close()
        totals: dict = defaultdict(lambda: {"train": 0, "test": 0})
        for entry in report:
            totals[entry["lang"]]["train"] += entry["words"]["train"]
            totals[entry["lang"]]["test"] += entry["words"]["test"]
        return {
            "command": "python -m subcase.training.corpus " + " ".join(args.argv),
            "seed": self.seed,
            "held_out_check": (f"every source repository was checked against {args.held_out.name} "
                               f"({len(listed)} repositories listed) by the builder itself; none is listed"),
            "dedupe": {"rule": "lower-cased, punctuation-stripped word 8-grams across cue boundaries; a training "
                               "cue run sharing any 8-gram with the test set or the dev sets is dropped",
                       "dev_sets": list(DEV_SETS), "protected_8grams": len(protected), "dev_8grams": dev_grams,
                       "near_duplicates": f"a training document with >= {ngrams.NEAR_DUPLICATE:.0%} of its sampled "
                                          "8-grams already in the corpus (another release of an episode) is dropped"},
            "words": json.loads(json.dumps(totals)),
            "sources": report,
            "testset": test_report,
        }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m subcase.training.corpus", description=__doc__)
    ap.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    ap.add_argument("--out", type=Path, default=Path("/work/corpus"))
    ap.add_argument("--testset", type=Path, default=Path("/work/testset"))
    ap.add_argument("--shared", type=Path, default=SHARED, help="holds data/ (dev sets) and notes/held-out-sources.md")
    ap.add_argument("--manifest", type=Path, default=MANIFEST)
    ap.add_argument("--seed", type=int, default=55)
    ap.add_argument("--langs", default="en,es,fr,de,pt")
    ap.add_argument("--sources", default="", help="comma-separated source keys (default: all)")
    ap.add_argument("--scale", type=float, default=1.0, help="multiplies every source's training cap")
    args = ap.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    args.langs = set(args.langs.split(","))
    args.sources = {s for s in args.sources.split(",") if s}
    args.held_out = args.shared / "notes" / "held-out-sources.md"
    try:
        manifest = Builder(args).run()
    except SubcaseError as exc:
        print(f"subcase: {exc}", file=sys.stderr)
        raise SystemExit(1) from None
    testset.write_atomic(args.manifest, json.dumps(manifest, indent=1, ensure_ascii=False) + "\n")
    print(json.dumps(manifest["words"]), file=sys.stderr)
