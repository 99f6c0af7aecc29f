"""The layering, checked from the source's own imports (every import statement, at any depth).

    gui -> review -> casing -> subtitles        (and batch, evaluation, cli on top)

- each part of ``subcase`` imports only the parts listed for it in LAYERS;
- Qt is imported only by ``subcase.gui``;
- torch, transformers and onnx (the training stack) only by ``subcase.training``,
  and nothing that runs in the app imports ``subcase.training``;
- no two modules of subcase import each other, directly or round a longer loop;
- a ``ReviewSession`` is made only by ``review.opening`` (``open_review``, ``resume_review``):
  the app, simulate-review and batch conversion open a file for review the one same way.

A new top-level module or package must be added to LAYERS, which is the point:
where it sits is a decision, not an accident.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "app" / "subcase"

# part -> the parts it may import (a part is a top-level module or package of subcase).
# The package root (``import subcase`` for __version__) and the leaf utilities
# below may be imported by anyone.
LEAVES = {"_version", "paths", "digest", "errors", "terminal"}
LAYERS: dict[str, set[str]] = {
    "subtitles": set(),
    "casing": {"subtitles"},
    "review": {"casing", "subtitles"},
    "media": set(),  # which media file, a cue's span, waveform samples: arithmetic and files, no Qt
    # the output plan, the driver and its back-ends (this process, --jobs, --cluster); review: profiles
    "batch": {"casing", "subtitles", "review"},
    "evaluation": {"review", "casing", "subtitles"},  # simulate-review plays the editor through the review core
    "gui": {"review", "casing", "subtitles", "batch", "media"},
    "cli": {"batch", "casing", "subtitles", "evaluation", "gui", "review"},  # review: profiles
    "__main__": {"cli"},
    "training": {"casing", "subtitles", "evaluation"},
}
QT = {"PySide6", "shiboken6", "PyQt5", "PyQt6"}
TRAINING_STACK = {"torch", "transformers", "onnx", "onnxscript"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module name) for every import in the file, including
    ``from package import submodule`` as that submodule."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:  # "from . import formats" imports the module formats
                candidate = f"{target}.{alias.name}"
                out.append((node.lineno, candidate if _is_module(candidate) else target))
    return out


def _is_module(name: str) -> bool:
    if not name.startswith("subcase."):
        return False
    rel = Path(*name.split(".")[1:])
    return (PACKAGE / rel).with_suffix(".py").is_file() or (PACKAGE / rel / "__init__.py").is_file()


def part_of(module: str) -> str | None:
    """The top-level part of subcase a module belongs to; None for the package root."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def sources() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def graph() -> dict[str, set[str]]:
    """subcase module -> the subcase modules it imports."""
    edges: dict[str, set[str]] = {}
    for path in sources():
        edges[module_name(path)] = {m for _, m in imported_modules(path)
                                    if m.startswith("subcase.") and _is_module(m) or m == "subcase"}
    return edges


def layering_violations() -> list[str]:
    problems = []
    for path in sources():
        here = module_name(path)
        mine = part_of(here)
        for line, target in imported_modules(path):
            where = f"{path.relative_to(PACKAGE.parent)}:{line}"
            top = target.split(".")[0]
            if top in QT and mine != "gui":
                problems.append(f"{where}: {target} (Qt) outside subcase.gui")
            if top in TRAINING_STACK and mine != "training":
                problems.append(f"{where}: {target} (training stack) outside subcase.training")
            if top != "subcase" or mine is None:
                continue
            theirs = part_of(target)
            if theirs is None or theirs == mine or theirs in LEAVES:
                continue
            if mine in LEAVES:
                problems.append(f"{where}: {target}: {mine} is a leaf utility and imports no other part")
            elif mine not in LAYERS:
                problems.append(f"{where}: subcase.{mine} is not in LAYERS (tests/test_architecture.py); "
                                "decide where it sits")
            elif theirs not in LAYERS[mine]:
                problems.append(f"{where}: subcase.{mine} must not import {target}")
    return problems


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan), and self-imports."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_every_import_respects_the_layers() -> None:
    assert layering_violations() == []


def test_no_import_cycles() -> None:
    edges = graph()
    # A package's __init__ re-exports its modules; a module importing its own
    # package's __init__ back would be a cycle too, so nothing is exempt.
    assert cycles(edges) == []


SESSION_MAKER = "review/opening.py"


def session_makers() -> list[str]:
    """Every place outside review/opening.py that calls ``ReviewSession(...)`` or subclasses it."""
    found = []
    for path in sources():
        rel = path.relative_to(PACKAGE).as_posix()
        if rel == SESSION_MAKER:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Call):
                names = [node.func]
            elif isinstance(node, ast.ClassDef):
                names = list(node.bases)
            else:
                continue
            for name in names:
                if (isinstance(name, ast.Name) and name.id == "ReviewSession") or (
                        isinstance(name, ast.Attribute) and name.attr == "ReviewSession"):
                    found.append(f"{rel}:{node.lineno}")
    return found


def test_review_sessions_are_made_only_by_open_review() -> None:
    assert (PACKAGE / SESSION_MAKER).is_file()
    assert session_makers() == []


def test_the_run_time_path_has_no_training_code() -> None:
    edges = graph()
    offenders = sorted(m for m, targets in edges.items() if part_of(m) != "training"
                       for t in targets if part_of(t) == "training")
    assert offenders == []


# -- the checker checks: each rule fires on a file that breaks it ------------

@pytest.mark.parametrize("part, source, expected", [
    ("subtitles", "from subcase.casing import Mode\n", "must not import subcase.casing"),
    ("casing", "from subcase.review import ReviewState\n", "must not import subcase.review"),
    ("review", "import PySide6.QtCore\n", "(Qt) outside subcase.gui"),
    ("casing", "def f():\n    import torch\n", "(training stack) outside subcase.training"),
    ("gui", "from subcase.training import train\n", "must not import subcase.training"),
])
def test_a_violation_is_reported(part: str, source: str, expected: str, tmp_path, monkeypatch) -> None:
    fake = tmp_path / "subcase"
    fake.mkdir()
    (fake / "__init__.py").write_text("")
    for name in LAYERS:
        (fake / name).mkdir()
        (fake / name / "__init__.py").write_text("")
    (fake / "training" / "train.py").write_text("")
    (fake / part / "bad.py").write_text(source)
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", fake)
    problems = layering_violations()
    assert problems and all(expected in p and "bad.py:" in p for p in problems), problems


def test_a_cycle_is_reported(tmp_path, monkeypatch) -> None:
    fake = tmp_path / "subcase"
    (fake / "subtitles").mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "subtitles" / "__init__.py").write_text("")
    (fake / "subtitles" / "a.py").write_text("from . import b\n")
    (fake / "subtitles" / "b.py").write_text("def f():\n    from .a import x\n")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", fake)
    assert cycles(graph()) == [["subcase.subtitles.a", "subcase.subtitles.b"]]


@pytest.mark.parametrize("source", [
    "from subcase.review import ReviewSession\nsession = ReviewSession(doc, state, path)\n",
    "from subcase import review\ndef f():\n    return review.ReviewSession(doc, state, path)\n",
    "from subcase.review import ReviewSession\nclass Saving(ReviewSession):\n    pass\n",
])
def test_a_session_made_elsewhere_is_reported(source: str, tmp_path, monkeypatch) -> None:
    fake = tmp_path / "subcase"
    (fake / "review").mkdir(parents=True)
    (fake / "evaluation").mkdir()
    (fake / "review" / "opening.py").write_text("session = ReviewSession(doc, state, path)\n")
    (fake / "evaluation" / "bad.py").write_text(source)
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", fake)
    assert [m.rpartition(":")[0] for m in session_makers()] == ["evaluation/bad.py"]
