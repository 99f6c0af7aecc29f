"""MkDocs hook: the screenshots of resources/ and the two model cards of models/ are pages and files of
the site without a copy in docs/ (one source each; the wheel ships the originals)."""

from __future__ import annotations

from pathlib import Path

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[1]
# outside docs/, served at the same path as in the repository
EXTRA = ["models/MODEL_CARD.md", "models/multilingual/MODEL_CARD.md",
         *(str(p.relative_to(ROOT)) for p in sorted((ROOT / "resources").glob("screenshot-*.png")))]


def on_files(files: Files, config) -> Files:
    for path in EXTRA:
        files.append(File(path, str(ROOT), config["site_dir"], config["use_directory_urls"]))
    return files
