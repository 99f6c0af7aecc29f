"""The layering, checked from the source's own imports (every import statement, at any depth).

    gui -> review -> casing -> subtitles        (and batch, evaluation, cli on top)

- each part of ``subcase`` imports only the parts listed for it in LAYERS;
- Qt is imported only by ``subcase.gui``;
- torch, transformers and onnx (the training stack) only by ``subcase.training``,
  and nothing that runs in the app imports ``subcase.training``;
- no two modules of subcase import each other, directly or round a longer loop;
- a ``ReviewSession`` is made only by ``review.opening`` (``open_review``, ``resume_review``):
  the app, simulate-review and batch conversion open a file for review the one same way;
- a package of an optional extra (pyproject.toml: QtMultimedia of ``media``, Dask of ``cluster``,
  torch of ``train``...) is loaded as a module loads only by that extra's own feature
  (OPTIONAL_FEATURES): everything else imports it where it is used, so the plain wheel runs.

A new top-level module or package must be added to LAYERS, which is the point:
where it sits is a decision, not an accident.
"""

from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
import tomllib
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "app" / "subcase"

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


def imported_modules(path: Path, as_it_loads: bool = False) -> list[tuple[int, str]]:
    """(line, absolute module name) for every import in the file, including
    ``from package import submodule`` as that submodule.  ``as_it_loads``: only the imports
    that run when the module is imported (``load_time_nodes``)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: list[tuple[int, str]] = []
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in load_time_nodes(tree.body) if as_it_loads else ast.walk(tree):
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
                if target.split(".")[0] != "subcase":
                    # another package's module or a name in it (unknowable without importing it): the
                    # checks read its top-level package and, for PySide6, the module under it, so
                    # "from PySide6 import QtMultimedia" is PySide6.QtMultimedia
                    out.append((node.lineno, candidate))
                else:
                    out.append((node.lineno, candidate if _is_module(candidate) else target))
    return out


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    names = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(n is None or isinstance(n, ast.Name) and n.id in {"ImportError", "ModuleNotFoundError", "Exception",
                                                                    "BaseException"} for n in names)


def load_time_nodes(body: Iterable[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements that run as a module is imported: its body and the blocks in it, class bodies
    included; not function bodies (they run when called), not ``if TYPE_CHECKING:`` (never runs),
    not a ``try`` whose ``except`` takes an ImportError (the module loads without it)."""
    for node in body:
        yield node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if isinstance(node, ast.If) and ast.unparse(node.test) in {"TYPE_CHECKING", "typing.TYPE_CHECKING"}:
            yield from load_time_nodes(node.orelse)
        elif isinstance(node, ast.Try):
            if not any(_catches_import_error(h) for h in node.handlers):
                yield from load_time_nodes(node.body)
            for h in node.handlers:
                yield from load_time_nodes(h.body)
            yield from load_time_nodes(node.orelse)
            yield from load_time_nodes(node.finalbody)
        else:
            for field in ("body", "orelse", "finalbody"):  # if, for, while, with, class
                block = getattr(node, field, None)
                if isinstance(block, list):
                    yield from load_time_nodes(block)


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


# A function that needs more than this many values wants a value that groups them (``casing.hints.CueHints``,
# ``review.autosave.Origin``, an options dataclass).  ``self`` and ``cls`` do not count.
MAX_PARAMETERS = 8
# the parts the rule does not hold for yet: the training pipeline, and the GUI (issue 57's window rebuild)
PARAMETER_RULE_EXEMPT = {"training", "gui"}


def long_signatures() -> list[str]:
    """Every function of app/ (outside ``PARAMETER_RULE_EXEMPT``) that takes more than ``MAX_PARAMETERS``."""
    found = []
    for path in sources():
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] in PARAMETER_RULE_EXEMPT:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            a = node.args
            names = [x.arg for x in [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg] if x is not None]
            n = len([x for x in names if x not in ("self", "cls")])
            if n > MAX_PARAMETERS:
                found.append(f"{rel.as_posix()}:{node.lineno} {node.name} takes {n}")
    return found


def private_imports() -> list[str]:
    """Every ``from module import _name`` in app/: a private name is its module's own, not a second door
    beside the public one."""
    found = []
    for path in sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.ImportFrom):
                found += [f"{path.relative_to(PACKAGE).as_posix()}:{node.lineno} {alias.name}" for alias in node.names
                          if alias.name.startswith("_") and not alias.name.startswith("__")]
    return found


def test_no_function_takes_more_than_eight_parameters() -> None:
    assert long_signatures() == []


def test_no_private_name_is_imported_from_another_module() -> None:
    assert private_imports() == []


def test_the_run_time_path_has_no_training_code() -> None:
    edges = graph()
    offenders = sorted(m for m, targets in edges.items() if part_of(m) != "training"
                       for t in targets if part_of(t) == "training")
    assert offenders == []


# -- optional extras: loaded as a module loads only by their own feature -----------------------------
#
# A module that loads an extra's package as it is imported cannot be imported where the extra is
# missing, and neither can any module that imports it at its top: the editor did not start on the
# plain wheel (issue #53) because gui/sound_decoding.py imported QtMultimedia and the window imported
# it.  CI installs the media extra for the tests, so no test that runs the app could see it (but
# tests/packaging/test_plain_install.py, which installs the plain wheel).  The extras and their
# distributions are read from pyproject.toml.

# extra -> the modules that may load its packages as they load: its feature, which runs only where the
# extra is installed and which the rest of the app imports where it is used.
OPTIONAL_FEATURES: dict[str, set[str]] = {
    # QtMultimedia's decoder: media_window imports it once a player exists (the extra is there)
    "media": {"subcase.gui.sound_decoding"},
    # the training pipeline is not in the wheel (pyproject.toml excludes it): it runs from a source tree
    # installed with the train extra (pip install -e '.[train]'), and nothing of the app imports it
    # (test_the_run_time_path_has_no_training_code)
    "train": {"subcase.training"},
}

# distribution (normalised: lower case, "-") -> the top-level modules it installs, where they are not
# its name with "_" for "-"
IMPORT_NAMES: dict[str, set[str]] = {
    "dask": {"dask", "distributed"},  # the extras ask for dask[distributed]
    "pyinstaller": {"PyInstaller"},
    "pytest-qt": {"pytestqt"},
    "mkdocs-material": {"material"},
    # PySide6-Addons adds modules to the PySide6 package itself: those of PySide6's that
    # PySide6-Essentials (a run-time dependency) does not install (essential_qt)
    "pyside6-addons": {"PySide6.*"},
}


def _distribution(requirement: str) -> str:
    match = re.match(r"[A-Za-z0-9._-]+", requirement)
    assert match, requirement
    return re.sub(r"[-_.]+", "-", match.group(0)).lower()


def optional_packages() -> dict[str, set[str]]:
    """Top-level module (``PySide6.*`` for the addons' modules) -> the extras that install it; what a run-time
    dependency installs too is not optional."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    required = {_distribution(r) for r in project["dependencies"]}
    out: dict[str, set[str]] = {}
    for extra, requirements in project["optional-dependencies"].items():
        for dist in {_distribution(r) for r in requirements} - required:
            for name in IMPORT_NAMES.get(dist, {dist.replace("-", "_")}):
                out.setdefault(name, set()).add(extra)
    return out


def essential_qt() -> set[str]:
    """The modules under PySide6 that PySide6-Essentials installs (it ships every module's .pyi stub, so
    the stubs do not count)."""
    files = importlib.metadata.files("PySide6-Essentials")
    assert files, "PySide6-Essentials lists no files: a broken install"
    return {f.parts[1].split(".")[0] for f in files if f.parts[0] == "PySide6" and len(f.parts) > 1
            and f.suffix != ".pyi"}


def optional_package(target: str, optional: dict[str, set[str]], essential: set[str]) -> tuple[str, set[str]]:
    """The package an import's target is of (a module under PySide6, else the top-level package) and the
    extras it comes with: none for what every install has."""
    top, _, rest = target.partition(".")
    if top == "PySide6":
        under = rest.partition(".")[0]
        return (f"PySide6.{under}", optional.get("PySide6.*", set())) if under and under not in essential else (top, set())
    return top, optional.get(top, set())


def loaded_with(module: str, imports: dict[str, list[tuple[int, str]]]) -> dict[str, list[str]]:
    """What importing ``module`` loads: each module outside subcase -> the chain of subcase modules
    (shortest first found) whose top-level imports reach it.  A subcase module loads its packages'
    ``__init__`` first."""
    chains: dict[str, list[str]] = {module: [module]}
    found: dict[str, list[str]] = {}
    queue = [module]
    while queue:
        here = queue.pop(0)
        parts = here.split(".")
        targets = [".".join(parts[:i]) for i in range(1, len(parts))] + [t for _, t in imports.get(here, [])]
        for target in targets:
            if target.split(".")[0] != "subcase":
                found.setdefault(target, chains[here])
            elif target in imports and target not in chains:
                chains[target] = chains[here] + [target]
                queue.append(target)
    return found


def optional_import_violations() -> list[str]:
    optional, essential = optional_packages(), essential_qt()
    imports = {module_name(p): imported_modules(p, as_it_loads=True) for p in sources()}
    problems: dict[tuple[str, str], str] = {}
    for module in sorted(imports):
        allowed = {extra for extra, features in OPTIONAL_FEATURES.items()
                   if any(module == f or module.startswith(f + ".") for f in features)}
        for target, chain in sorted(loaded_with(module, imports).items()):
            package, extras = optional_package(target, optional, essential)
            if extras and not extras & allowed:
                problems.setdefault((module, package), (
                    f"{module} loads {package} (the {' or '.join(sorted(extras))} extra) as it is imported, "
                    f"through {' -> '.join(chain)}: import it where it is used"))
    return list(problems.values())


def test_optional_extras_are_loaded_only_by_their_features() -> None:
    optional = optional_packages()
    # the check knows the extras it is for: without them it would pass on anything
    assert {"PySide6.*", "dask", "distributed", "torch", "truecase", "nltk", "PyInstaller"} <= set(optional)
    assert "QtMultimedia" not in essential_qt() and "QtWidgets" in essential_qt()
    problems = optional_import_violations()
    assert not problems, "\n".join(problems)


# -- the GUI's shape (issue #57): one OpenReview, no window protocols, small parts ------------

MAX_CLASS_LINES = 300   # every class in app/, training/ aside
MAX_GUI_PARAMETERS = 8  # every function in gui/, self and cls aside (the core has its own test)
GUI_FLOORS = 9          # the longest chain of imports between gui/'s own modules (11 before issue #57)


def app_trees() -> list[tuple[str, ast.Module]]:
    """(path relative to the package, parsed) for every source file, training/ aside."""
    return [(path.relative_to(PACKAGE).as_posix(), ast.parse(path.read_text(encoding="utf-8"), str(path)))
            for path in sources() if part_of(module_name(path)) != "training"]


def gui_trees() -> list[tuple[str, ast.Module]]:
    return [(rel, tree) for rel, tree in app_trees() if rel.startswith("gui/")]


def window_protocols() -> list[str]:
    """A ``*Window`` Protocol makes the window's internals a contract: controllers take the OpenReview instead."""
    return [f"{rel}:{node.lineno} {node.name}" for rel, tree in gui_trees() for node in ast.walk(tree)
            if isinstance(node, ast.ClassDef) and node.name.endswith("Window")
            and any(ast.unparse(base).split(".")[-1] == "Protocol" for base in node.bases)]


def private_reaches() -> list[str]:
    """``x._name`` on anything but ``self`` or ``cls``: one part reaching into another's internals."""
    found = []
    for rel, tree in gui_trees():
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                    and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))):
                found.append(f"{rel}:{node.lineno} {ast.unparse(node)}")
    return found


def long_classes() -> list[str]:
    return [f"{rel}:{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1} lines)"
            for rel, tree in app_trees() for node in ast.walk(tree)
            if isinstance(node, ast.ClassDef) and node.end_lineno - node.lineno + 1 > MAX_CLASS_LINES]


def parameter_count(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    args = node.args
    names = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
    if names and names[0] in ("self", "cls"):
        names = names[1:]
    return len(names) + (args.vararg is not None) + (args.kwarg is not None)


def long_gui_signatures() -> list[str]:
    return [f"{rel}:{node.lineno} {node.name} ({parameter_count(node)} parameters)"
            for rel, tree in gui_trees() for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and parameter_count(node) > MAX_GUI_PARAMETERS]


def floors(package: str) -> dict[str, int]:
    """Each module of ``package`` -> its floor: 1 for one that imports none of the package's modules, else one
    more than the highest it imports (every import, TYPE_CHECKING ones too: a type is a dependency)."""
    edges = {m: {t for t in targets if t.startswith(package + ".")} - {m}
             for m, targets in graph().items() if m.startswith(package + ".")}
    memo: dict[str, int] = {}

    def floor(m: str) -> int:
        if m not in memo:
            memo[m] = 1 + max((floor(t) for t in edges.get(m, ())), default=0)
        return memo[m]

    return {m: floor(m) for m in edges}


def test_no_window_protocol_in_the_gui() -> None:
    assert window_protocols() == []


def test_no_gui_part_reaches_into_another_s_private_names() -> None:
    assert private_reaches() == []


def test_no_class_is_longer_than_300_lines() -> None:
    assert long_classes() == []


def test_no_gui_function_takes_more_than_8_parameters() -> None:
    assert long_gui_signatures() == []


def test_the_gui_has_no_more_import_floors_than_it_had() -> None:
    gui = floors("subcase.gui")
    assert gui and max(gui.values()) <= GUI_FLOORS, sorted(gui.items(), key=lambda kv: -kv[1])[:4]


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


@pytest.mark.parametrize("source, reported", [
    ("from PySide6.QtMultimedia import QMediaPlayer\n", True),
    ("from PySide6 import QtMultimedia\n", True),
    ("import dask.distributed\n", True),
    ("class Pane:\n    from truecase import TrueCaser\n", True),  # a class body runs as the module loads
    ("from .sound_decoding import SoundDecoding\n", True),  # the feature, imported at the top
    ("def decode():\n    from .sound_decoding import SoundDecoding\n", False),
    ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from PySide6.QtMultimedia import QMediaPlayer\n", False),
    ("try:\n    import torch\nexcept ImportError:\n    torch = None\n", False),
    ("from PySide6.QtWidgets import QWidget\nimport numpy\n", False),  # what every install has
])
def test_an_optional_import_as_a_module_loads_is_reported(source: str, reported: bool, tmp_path, monkeypatch) -> None:
    fake = tmp_path / "subcase"
    (fake / "gui").mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "gui" / "__init__.py").write_text("")
    (fake / "gui" / "sound_decoding.py").write_text("from PySide6.QtMultimedia import QAudioDecoder\n")  # the feature
    (fake / "gui" / "window.py").write_text(source)
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", fake)
    problems = optional_import_violations()
    assert [p.split(" loads ")[0] for p in problems] == (["subcase.gui.window"] if reported else []), problems


@pytest.mark.parametrize("source, reported", [
    ("def f(a, b, c, d, e, f, g, h, i):\n    pass\n", True),
    ("def f(a, b, c, d, *, e=1, f=2, g=3, h=4, **rest):\n    pass\n", True),
    ("class C:\n    def f(self, a, b, c, d, e, f, g, h):\n        pass\n", False),
    ("def f(a, b, c, d, e, f, g, *h):\n    pass\n", False),
])
def test_a_long_signature_is_reported(source: str, reported: bool, tmp_path, monkeypatch) -> None:
    fake = tmp_path / "subcase"
    for part in ("casing", "training"):
        (fake / part).mkdir(parents=True)
        (fake / part / "wide.py").write_text(source)  # training/ is exempt: only casing/ may be reported
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", fake)
    assert [p.split(":")[0] for p in long_signatures()] == (["casing/wide.py"] if reported else [])


def test_a_private_import_is_reported(tmp_path, monkeypatch) -> None:
    fake = tmp_path / "subcase"
    (fake / "casing").mkdir(parents=True)
    (fake / "casing" / "a.py").write_text("from .b import _twin, __version__, public\n")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", fake)
    assert private_imports() == ["casing/a.py:1 _twin"]
@pytest.mark.parametrize("source, rule", [
    ("from typing import Protocol\nclass SavingWindow(Protocol):\n    pass\n", window_protocols),
    ("def f(window):\n    window._show_session()\n", private_reaches),
    ("class Big:\n" + "    x = 1\n" * MAX_CLASS_LINES, long_classes),
    ("def f(a, b, c, d, e, f, g, h, i):\n    pass\n", long_gui_signatures),
])
def test_a_gui_shape_violation_is_reported(source: str, rule, tmp_path, monkeypatch) -> None:
    fake = tmp_path / "subcase"
    (fake / "gui").mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "gui" / "__init__.py").write_text("")
    (fake / "gui" / "ok.py").write_text("class Fine:\n    def f(self, a, b, c, d, e, f, g, h):\n        self._x = 1\n")
    (fake / "gui" / "bad.py").write_text(source)
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", fake)
    assert [p.split(":")[0] for p in rule()] == ["gui/bad.py"]


def test_gui_floors_are_counted(tmp_path, monkeypatch) -> None:
    fake = tmp_path / "subcase"
    (fake / "gui").mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "gui" / "__init__.py").write_text("")
    (fake / "gui" / "a.py").write_text("")
    (fake / "gui" / "b.py").write_text("from . import a\n")
    (fake / "gui" / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import B\n")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", fake)
    assert floors("subcase.gui") == {"subcase.gui.a": 1, "subcase.gui.b": 2, "subcase.gui.c": 3}
