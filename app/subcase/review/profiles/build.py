"""Building a profile from the evidence of a series: the edit logs and the saved files.

Two kinds of evidence: the editor's final *decisions* (a change says the model
gets the word wrong there) and every word of each *document* the editor saved
(so a file that writes a key otherwise counts, decided or not).  Logs are read
leniently: corrupt lines, unknown schemas and decisions without context are
skipped and counted, never raised.

Why so narrow: the earlier cross-file memory (branch experiment/domain-memory)
removed at most 4 of 191 errors because the W3C files disagree with each
other on some terms.  So an entry needs consistent evidence: at least
``MIN_EVIDENCE`` decisions, at least one of them a change (the model gets it
wrong), and no decision for another form of the same key, in any file.
Sentence starts are never evidence (their capital is positional).
The review hints (confirms and asks, see ``profile``) are built from the
evidence that is too plain or too thin for an entry.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator

from subcase.casing import Tag, tag_of

from ..editlog import EDITLOG_SCHEMA
from .profile import CATEGORY_NAMES, CHANGING, IMPORTED, KINDS, Entry, Profile, ProfileError, context_key, valid_name

MIN_EVIDENCE = 2          # agreeing decisions an entry needs (one fix is an anecdote)
MIN_FILES = 2             # files they come from: one file's convention may be its own
# 2 has no context: its records give no evidence; 5 adds the punctuation decisions, which teach no casing
KNOWN_LOG_SCHEMAS = (2, 3, 4, EDITLOG_SCHEMA)
HUMAN = ("accepted", "changed_tag")


@dataclass
class Skipped:
    schema: int = 0     # records of an unknown log schema
    corrupt: int = 0    # lines that are not JSON records (torn or damaged)
    no_context: int = 0  # decisions from logs before schema 3 (no neighbours: no evidence)
    # saves (schema 4) whose file is gone or was changed since by something else than subcase
    documents: int = 0

    def as_json(self) -> dict:
        out = {"corrupt": self.corrupt, "no_context": self.no_context, "schema": self.schema}
        if self.documents:
            out["documents"] = self.documents
        return out


@dataclass
class Evidence:
    """Counts per key and form, accumulated file by file (the order of files does not matter).

    Two kinds of evidence: the editor's *decisions* (a change says the model gets
    the key wrong) and the *documents* as the editor saved them (every word, so a
    file that also writes the key otherwise is seen, decided or not)."""

    forms: dict[str, dict[str, dict[str, list[int]]]] = field(default_factory=lambda: {k: {} for k in CHANGING})
    # kind -> key -> forms the saved documents write it in, away from sentence starts
    seen: dict[str, dict[str, set[str]]] = field(default_factory=lambda: {"context": {}, "word": {}})
    phrase_cues: list[tuple[list[str], list[bool]]] = field(default_factory=list)  # saved cues: forms, starts
    styles: dict[str, dict[str, int]] = field(default_factory=dict)   # category -> style -> files
    files: int = 0
    documents: int = 0
    decisions: int = 0
    skipped: Skipped = field(default_factory=Skipped)

    def add(self, kind: str, key: str, form: str, changed: bool, seen: set[tuple[str, str, str]]) -> None:
        counts = self.forms[kind].setdefault(key, {}).setdefault(form, [0, 0, 0])
        counts[0] += 1
        counts[1] += int(changed)
        if (kind, key, form) not in seen:  # files: once per file
            seen.add((kind, key, form))
            counts[2] += 1

    def add_file(self, decisions: list[dict], document: list[dict] | None = None) -> None:
        """One file: its final human decisions and, if saved, every word of the saved document
        (dicts with cue, word, form, proposed, left, right, initial, category)."""
        self.files += 1
        seen: set[tuple[str, str, str]] = set()
        file_styles: dict[str, str] = {}
        by_cue: dict[int, dict[int, dict]] = {}
        for d in sorted(decisions, key=lambda d: (d["cue"], d["word"])):
            self.decisions += 1
            form, changed = d["form"], d["form"] != d["proposed"]
            if d["category"] is not None:
                style = _style_shown(d, changed)
                if style is not None and d["category"] not in file_styles:
                    file_styles[d["category"]] = style
                continue
            by_cue.setdefault(d["cue"], {})[d["word"]] = d
            if d["initial"]:
                continue
            lower = form.lower()
            self.add("context", _context_key(d), form, changed, seen)
            self.add("word", lower, form, changed, seen)
        for cat, style in sorted(file_styles.items()):
            self.styles.setdefault(cat, {})
            self.styles[cat][style] = self.styles[cat].get(style, 0) + 1
        for words in by_cue.values():
            for run in _capital_runs(words):
                forms = [words[k]["form"] for k in run]
                self.add("phrase", " ".join(forms).lower(), " ".join(forms),
                         any(words[k]["form"] != words[k]["proposed"] for k in run), seen)
        if document is not None:
            self.add_document(document)

    def add_document(self, words: list[dict]) -> None:
        self.documents += 1
        cues: dict[int, list[dict]] = {}
        for d in sorted(words, key=lambda d: (d["cue"], d["word"])):
            if d["category"] is not None:
                continue
            cues.setdefault(d["cue"], []).append(d)
            if d["initial"]:
                continue
            self.seen["word"].setdefault(d["form"].lower(), set()).add(d["form"])
            self.seen["context"].setdefault(_context_key(d), set()).add(d["form"])
        for c in sorted(cues):
            self.phrase_cues.append(([d["form"] for d in cues[c]], [d["initial"] for d in cues[c]]))

    def _phrase_forms(self, keys: set[str]) -> dict[str, set[str]]:
        """How the saved documents write each phrase; a sentence-initial first word is left as the
        phrase writes it (its capital is positional)."""
        out: dict[str, set[str]] = {}
        if not keys:
            return out
        firsts: dict[str, list[list[str]]] = {}
        for key in keys:
            parts = key.split(" ")
            firsts.setdefault(parts[0], []).append(parts)
        for forms, initial in self.phrase_cues:
            lowers = [f.lower() for f in forms]
            for s, low in enumerate(lowers):
                for parts in firsts.get(low, ()):
                    n = len(parts)
                    if lowers[s:s + n] != parts:
                        continue
                    written = forms[s:s + n]
                    out.setdefault(" ".join(parts), set()).add(" ".join(written) if not initial[s] else
                                                              "\0" + " ".join(written[1:]))
        return out

    def profile(self, name: str, model_version: str, removed: Iterable[str] = ()) -> Profile:
        entries: dict[str, dict[str, Entry]] = {k: {} for k in KINDS}
        phrase_seen = self._phrase_forms({k for k, f in self.forms["phrase"].items() if len(f) == 1})
        for kind in CHANGING:
            for key, form, decisions, changes, files in self._agreed(kind):
                if decisions < MIN_EVIDENCE or changes < 1 or files < MIN_FILES:
                    continue
                if kind == "word" and tag_of(form) is Tag.L:
                    continue  # lowering a word everywhere breaks its names and titles: contexts only
                if kind == "phrase":
                    rest = "\0" + " ".join(form.split(" ")[1:])
                    if phrase_seen.get(key, set()) - {form, rest}:
                        continue  # a saved file writes the phrase otherwise
                elif self.seen[kind].get(key, set()) - {form}:
                    continue  # a saved file writes it otherwise away from sentence starts
                entries[kind][key] = Entry(form, decisions, changes, files)
        self._hints(entries)
        styles = {c: next(iter(s)) for c, s in self.styles.items() if len(s) == 1}
        sources = {"files": self.files, "documents": self.documents, "decisions": self.decisions,
                   "skipped": self.skipped.as_json()}
        return Profile(name, model_version, styles, entries, sorted(set(removed)), sources)

    def _agreed(self, kind: str) -> Iterator[tuple[str, str, int, int, int]]:
        """(key, form, decisions, changes, files) of every key decided one way only: a key
        decided two ways somewhere gives no entry and no hint."""
        for key, forms in self.forms[kind].items():
            if len(forms) == 1:
                (form, (decisions, changes, files)), = forms.items()
                yield key, form, decisions, changes, files

    def _hints(self, entries: dict[str, dict[str, Entry]]) -> None:
        """The review hints, from the evidence that is too weak (asks) or too plain (confirms)
        to re-case a word."""
        for key, form, decisions, changes, files in self._agreed("word"):
            if (key not in entries["word"] and decisions >= MIN_EVIDENCE and files >= MIN_FILES
                    and not self.seen["word"].get(key, set()) - {form}):
                entries["confirm"][key] = Entry(form, decisions, changes, files)
        for key, form, decisions, changes, files in self._agreed("context"):
            if key not in entries["context"] and changes >= 1:
                entries["ask"][key] = Entry(form, decisions, changes, files)


def _context_key(d: dict) -> str:
    """"left<sep>|word|<sep>right": the word between its neighbours and what separates them."""
    left = d["left"][-1].lower() if d["left"] else ""
    right = d["right"][0].lower() if d["right"] else ""
    sep = d.get("sep") or ["", ""]
    return context_key(left, sep[0], d["form"].lower(), sep[1], right)


def _style_shown(d: dict, changed: bool) -> str | None:
    """The style a decision inside a sound cue or label shows: only a change shows one, and a
    capital on a word the model took for a name (or a sound cue's first word) shows none."""
    if not changed:
        return None
    t = tag_of(d["form"])
    if t is Tag.L:
        return "lower"
    if t is Tag.U:
        return "upper"
    if t is Tag.T and d["category"] == "speaker-labels":
        return "title"
    return None


def _capital_runs(words: dict[int, dict]) -> list[list[int]]:
    """Runs of two or more consecutive decided, capitalised words of one cue (names, titles);
    a run's first word may not start a sentence, and one word of it at least must be capitalised
    away from a sentence start."""
    runs: list[list[int]] = []
    run: list[int] = []
    for k in sorted(words):
        d = words[k]
        ok = tag_of(d["form"]) is not Tag.L and d["category"] is None
        if ok and run and run[-1] == k - 1:
            run.append(k)
            continue
        if len(run) >= 2:
            runs.append(run)
        run = [k] if ok and not d["initial"] else []
    if len(run) >= 2:
        runs.append(run)
    return runs


# -- reading edit logs ----------------------------------------------------------------
def read_log(path: Path, skipped: Skipped) -> list[dict]:
    """The records of one log; corrupt lines and unknown schemas are counted, never raised."""
    out: list[dict] = []
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise ProfileError(f"cannot read edit log ({exc.strerror or exc})", path) from None
    for line in raw.split(b"\n"):
        if not line.strip():
            continue
        try:
            r = json.loads(line)
        except ValueError:
            skipped.corrupt += 1
            continue
        if not isinstance(r, dict) or not isinstance(r.get("seq"), int) or not isinstance(r.get("action"), str):
            skipped.corrupt += 1
            continue
        if r.get("schema") not in KNOWN_LOG_SCHEMAS:
            skipped.schema += 1
            continue
        out.append(r)
    return out


def final_decisions(records: list[dict], skipped: Skipped) -> dict[str, list[dict]]:
    """Per subtitle file of the log, its words' last human decisions that were not undone."""
    undone = undone_seqs(records)
    last: dict[str, dict[tuple[int, int], dict]] = {}
    for r in sorted(records, key=lambda r: r["seq"]):
        if r["seq"] in undone or r["action"] not in HUMAN:
            continue
        cue, word = r.get("cue_index"), r.get("word_index")
        final, proposed = r.get("final"), r.get("proposed")
        if not (isinstance(cue, int) and isinstance(word, int) and isinstance(final, str)
                and isinstance(proposed, str)):
            skipped.corrupt += 1
            continue
        ctx = r.get("context")
        if not isinstance(ctx, dict):
            skipped.no_context += 1
            continue
        left, right = ctx.get("left"), ctx.get("right")
        if not (isinstance(left, list) and isinstance(right, list)
                and all(isinstance(x, str) for x in left + right)):
            skipped.corrupt += 1
            continue
        cat = ctx.get("category")
        sep = ctx.get("sep")
        if not (isinstance(sep, list) and len(sep) == 2 and all(isinstance(x, str) for x in sep)):
            sep = ["", ""]
        last.setdefault(str(r.get("file", "")), {})[(cue, word)] = {
            "cue": cue, "word": word, "form": final, "proposed": proposed, "left": left, "right": right, "sep": sep,
            "initial": bool(ctx.get("initial")), "category": cat if cat in CATEGORY_NAMES else None}
    return {f: list(d.values()) for f, d in sorted(last.items())}


def undone_seqs(records: list[dict]) -> set[int]:
    """The seqs the log's undo records take back: a list per undo step (schema 4), one each before."""
    out: set[int] = set()
    for r in records:
        if r["action"] != "undo":
            continue
        undoes = r.get("undoes")
        if isinstance(undoes, int):
            out.add(undoes)
        elif isinstance(undoes, list):
            out.update(x for x in undoes if isinstance(x, int))
    return out


def _saved_bytes(r: dict, skipped: Skipped) -> bytes | None:
    """The bytes a "saved" record stands for: held in the record before schema 4, read back from the
    saved file since (only while it is still the file subcase wrote: same sha256)."""
    if isinstance(r.get("document"), str):
        return r["document"].encode("utf-8")
    path, digest = r.get("saved_to"), r.get("saved_sha256")
    if not (isinstance(path, str) and isinstance(digest, str)):
        return None
    try:
        data = Path(path).read_bytes()
    except OSError:
        skipped.documents += 1
        return None
    if hashlib.sha256(data).hexdigest() != digest:
        skipped.documents += 1
        return None
    return data


def saved_documents(records: list[dict], skipped: Skipped) -> dict[str, list[dict]]:
    """Per subtitle file of the log, every word of the last document the editor saved."""
    from subcase.subtitles import SubtitleError, loads

    last: dict[str, dict] = {}
    for r in sorted(records, key=lambda r: r["seq"]):
        if r["action"] == "saved" and (isinstance(r.get("document"), str) or isinstance(r.get("saved_sha256"), str)):
            last[str(r.get("file", ""))] = r
    out: dict[str, list[dict]] = {}
    for f, r in sorted(last.items()):
        fmt = r.get("saved_format") if isinstance(r.get("saved_format"), str) else None
        data = _saved_bytes(r, skipped)
        if data is None:
            continue
        try:
            doc = loads(data, Path(f).name or "saved.srt", fmt)
        except (SubtitleError, ValueError):
            skipped.corrupt += 1
            continue
        out[f] = decisions_from_corrected(doc)
    return out


def log_files(paths: Iterable[Path]) -> list[Path]:
    """Every .jsonl log under the given files and folders, in a stable order."""
    out: set[Path] = set()
    for p in paths:
        p = Path(p)
        if p.is_dir():
            out.update(x for x in p.rglob("*.jsonl") if x.is_file())
        elif p.is_file():
            out.add(p)
        else:
            raise ProfileError("no such file or folder", p)
    return sorted(out)


def evidence_from_logs(paths: Iterable[Path]) -> Evidence:
    ev = Evidence()
    per_file: dict[str, list[dict]] = {}
    documents: dict[str, list[dict]] = {}
    for path in log_files(paths):
        records = read_log(path, ev.skipped)
        for f, decisions in final_decisions(records, ev.skipped).items():
            per_file.setdefault(f, []).extend(decisions)
        documents.update(saved_documents(records, ev.skipped))  # logs in name order: the later save wins
    for f in sorted(set(per_file) | set(documents)):
        ev.add_file(per_file.get(f, []), documents.get(f))
    return ev


def build_from_logs(name: str, model_version: str, paths: Iterable[Path], removed: Iterable[str] = ()) -> Profile:
    """The profile of these logs; its ``sources["logs"]`` lists them (absolute paths, sorted), so
    that the app can rebuild it with the next file's log (``updated``)."""
    if not valid_name(name):
        raise ProfileError(f"invalid profile name {name!r} (letters, digits, spaces, . ( ) + - _)")
    paths = log_files(paths)
    profile = evidence_from_logs(paths).profile(name, model_version, removed)
    profile.sources["logs"] = sorted({str(p.resolve()) for p in paths})
    return profile


def updated(profile: Profile, new_log: Path) -> Profile:
    """The profile rebuilt from its own logs and one more file's log: what the app does after the
    editor saves a file opened with the profile.  Removed entries stay removed.  A profile whose
    logs are not all on this computer (imported, or logs deleted) cannot be rebuilt: ProfileError."""
    if "logs" not in profile.sources:
        raise ProfileError(f"profile {profile.name} was not built from edit logs; rebuild it with subcase profile build")
    names = profile.sources["logs"]
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ProfileError(f"profile {profile.name}: its list of logs is invalid")
    missing = [n for n in names if not Path(n).is_file()]
    if missing:
        raise ProfileError(f"profile {profile.name} was built from {len(missing)} log(s) not on this computer "
                           f"(first: {missing[0]}); rebuild it with subcase profile build")
    out = build_from_logs(profile.name, profile.model_version, [*map(Path, names), Path(new_log)], profile.removed)
    keep_imported(profile, out)
    return out


def keep_imported(old: Profile, new: Profile) -> None:
    """What the user handed in (term lists) is no evidence from the logs: a rebuild keeps it."""
    for kind in IMPORTED:
        new.entries[kind] = {**old.entries[kind], **new.entries[kind]}


def decisions_from_corrected(doc, model_forms: list[list[str]] | None = None) -> list[dict]:
    """A corrected subtitle file as decisions: every word with letters, as the editor left it.

    With ``model_forms`` (the model's forms per cue, for the same words) a word
    counts as a change where the model wrote it otherwise; without, every
    capitalised word counts as one (what a name list would say)."""
    from subcase.casing.housestyle import categories_of
    from subcase.subtitles.words import has_letters

    from ..positions import sentence_initial
    from ..logcontext import separators
    from ..state import ReviewState, ReviewWord

    cues: list[list[ReviewWord]] = []
    for c, cue in enumerate(doc.cues):
        ws = [t for t in cue.tokens() if t.is_word and has_letters(t.text)]
        cues.append([ReviewWord(c, i, t.start, t.end, t.text, t.text, t.text, None, None) for i, t in enumerate(ws)])
    state = ReviewState(cues, 1.0)
    initial = sentence_initial(doc, state)
    cats = categories_of(doc, cues)
    out = []
    for c, words in enumerate(cues):
        for s, w in enumerate(words):
            proposed = (model_forms[c][s] if model_forms is not None
                        else (w.form.lower() if tag_of(w.form) is not Tag.L else w.form))
            cat = cats.get((c, s))
            out.append({"cue": c, "word": s, "form": w.form, "proposed": proposed,
                        "left": [x.form for x in words[max(0, s - 2):s]], "right": [x.form for x in words[s + 1:s + 3]],
                        "sep": separators(doc.cues[c].text, words, s),
                        "initial": initial.get((c, s), False), "category": cat.value if cat is not None else None})
    return out


__all__ = ["Evidence", "MIN_EVIDENCE", "MIN_FILES", "Skipped", "build_from_logs", "decisions_from_corrected",
           "evidence_from_logs", "final_decisions", "log_files", "read_log", "updated"]
