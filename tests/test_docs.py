"""The docs keep their shape: a short README that points into the docs, generated reference pages that match
the app, and every page of docs/ reachable from the site's navigation.

``mkdocs build --strict`` (in .ci/run) also fails on a broken link or anchor; these tests say which rule broke
without the docs extra, and the last one runs that build where mkdocs is installed."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
README = ROOT / "README.md"
README_MAX_LINES = 200
INSTALL = "python -m pip install -c constraints.txt . && subcase convert resources/examples -o converted"


def generator():
    spec = importlib.util.spec_from_file_location("gen_reference", DOCS / "gen_reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def nav_pages() -> list[str]:
    yaml = pytest.importorskip("yaml")

    class Loader(yaml.SafeLoader):  # mkdocs.yml may hold !!python tags for extensions; none are needed here
        pass

    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)
    pages: list[str] = []

    def walk(node) -> None:
        if isinstance(node, str):
            pages.append(node)
        elif isinstance(node, list):
            for item in node:
                walk(item)
        elif isinstance(node, dict):
            for value in node.values():
                walk(value)

    walk(config["nav"])
    return pages


def hook_pages() -> set[str]:
    text = (DOCS / "hooks.py").read_text(encoding="utf-8")
    return set(re.findall(r'"(models/[\w/]+\.md)"', text))


def test_the_readme_is_a_front_door_of_at_most_200_lines():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines; move detail into docs/"
    text = "\n".join(lines)
    assert INSTALL in text and "\nbash .ci/run\n" in text  # the two commands, exactly as CI and the docs use them


def test_every_relative_link_of_the_readme_exists():
    text = README.read_text(encoding="utf-8")
    links = [t.split("#")[0] for t in re.findall(r"\]\(([^)\s]+)\)", text)
             if not re.match(r"[a-z]+:", t) and not t.startswith("#")]
    assert any(link.startswith("docs/") for link in links)
    missing = [link for link in links if not (ROOT / link).exists()]
    assert not missing, f"README.md links to files that do not exist: {missing}"
    pages = set(nav_pages())
    orphans = [link for link in links if link.startswith("docs/") and link.endswith(".md")
               and link.removeprefix("docs/") not in pages]
    assert not orphans, f"README.md links to docs pages that are not in mkdocs.yml's nav: {orphans}"


def test_every_docs_page_is_in_the_nav_and_every_nav_entry_exists():
    pages = nav_pages()
    on_disk = {p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")}
    assert sorted(on_disk - set(pages)) == [], "pages of docs/ missing from mkdocs.yml's nav"
    extra = hook_pages()  # the model cards, served from models/ by docs/hooks.py
    assert extra and all((ROOT / p).is_file() for p in extra)
    assert sorted(set(pages) - on_disk - extra) == [], "nav entries with no page"
    assert len(pages) == len(set(pages)), "a page listed twice in the nav"


def test_the_cli_reference_is_what_the_parser_gives():
    committed = (DOCS / "reference" / "cli.md").read_text(encoding="utf-8")
    assert committed == generator().cli_markdown(), "docs/reference/cli.md is stale: run python docs/gen_reference.py"


def test_the_shortcut_page_is_what_the_window_gives(qapp):
    gen = generator()
    rows = gen.shortcut_table()
    assert any(action == "Next Word to Review" for _, action, _ in rows)
    committed = (DOCS / "reference" / "shortcuts.md").read_text(encoding="utf-8")
    assert committed == gen.shortcuts_markdown(rows), \
        "docs/reference/shortcuts.md is stale: run python docs/gen_reference.py"


def test_the_cli_generator_sees_a_new_option(monkeypatch):
    """The check is real: an option added to the parser changes the page."""
    import subcase.cli

    gen = generator()
    before = gen.cli_markdown()
    build = subcase.cli.build_parser

    def with_extra():
        parser = build()
        parser.add_argument("--brand-new-flag", action="store_true", help="a flag the page does not list")
        return parser

    monkeypatch.setattr(subcase.cli, "build_parser", with_extra)
    after = gen.cli_markdown()
    assert "--brand-new-flag" in after and after != before


def test_the_site_builds_strictly(tmp_path):
    pytest.importorskip("mkdocs")
    pytest.importorskip("material")
    import os
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-f",
                           str(ROOT / "mkdocs.yml"), "-d", str(tmp_path / "site")],
                          capture_output=True, text=True, env=os.environ | {"NO_MKDOCS_2_WARNING": "1"})
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert (tmp_path / "site" / "reference" / "cli" / "index.html").is_file()


def test_the_readme_accuracy_table_is_the_shipped_models_evaluation():
    """The README quotes models/evaluation.json (the card's dev set): a new evaluation must update it."""
    import json

    evaluation = json.loads((ROOT / "models" / "evaluation.json").read_text(encoding="utf-8"))
    names = {"**subcase**": "subcase", 'first word + "I"': "first word + I", "`truecase` (PyPI)": "truecase (PyPI)"}
    inputs = {"punctuated": "punct", "no punctuation": "nopunct"}
    rows = [line.split("|")[1:-1] for line in README.read_text(encoding="utf-8").splitlines()
            if line.startswith("| ") and line.split("|")[1].strip() in names]
    assert len(rows) == 6

    def number(cell: str) -> float:
        return float(cell.strip("*").split()[0].strip("*"))

    for system, inp, f1, ser, intrinsic in (map(str.strip, r) for r in rows):
        entry = evaluation["systems"][names[system]][inputs[inp]]
        assert number(f1) == round(100 * entry["f1"], 1), (system, inp)
        assert number(ser) == round(100 * entry["ser"], 1), (system, inp)
        assert number(intrinsic) == round(100 * entry["intrinsic_f1"], 1), (system, inp)
        if system == "**subcase**":
            lo, hi = (round(100 * x, 1) for x in entry["f1_interval"])
            assert f"({lo}-{hi})" in f1
    assert evaluation["model"]["version"] in README.read_text(encoding="utf-8")


def test_the_readme_says_what_every_convert_option_means():
    import argparse

    from subcase.cli import build_parser

    parser = build_parser()
    convert = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices["convert"]
    table = "\n".join(line for line in README.read_text(encoding="utf-8").splitlines() if line.startswith("| `"))
    missing = [a.option_strings[-1] for a in convert._actions
               if a.option_strings and a.help != argparse.SUPPRESS and not isinstance(a, argparse._HelpAction)
               and not any(f"`{o}" in table for o in a.option_strings)]
    assert not missing, f"README's convert table does not explain {missing}"


def test_the_edit_log_tables_are_the_record_types():
    page = DOCS / "reference" / "edit-log.md"
    committed = page.read_text(encoding="utf-8")
    assert committed == generator().editlog_markdown(committed), \
        "docs/reference/edit-log.md is stale: run python docs/gen_reference.py"
