"""The package's layers, read from the source with :mod:`ast` (no imports are run).

* A *paradigm module* is a module of ``rublimp.paradigms`` that registers a paradigm (a class
  decorated with ``@register``). No module of the package imports one, except the package's own
  ``__init__`` (which imports them all so that they register): a paradigm module holds rules only, and
  what two of them share lives in ``rublimp.trees`` or in a helper module of ``rublimp.paradigms``
  that registers nothing (``base.py``, ``agreement.py``, the shared agreement edit).
* ``rublimp.trees`` imports only the CoNLL-U model, morphology, the lexicon, ``io`` and itself
  (never ``rublimp.paradigms``).
* No module imports another module's private name (``from .x import _name``).
* No paradigm module is longer than 1,000 lines.

Each rule is checked per module, so a failure names the file to fix.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE_DIR = Path(__file__).resolve().parents[1] / "src" / "rublimp"
MAX_PARADIGM_LINES = 1000
#: what the tree layer may import besides itself
TREES_MAY_IMPORT = frozenset({"rublimp.conllu_doc", "rublimp.morph", "rublimp.lexicon", "rublimp.io"})


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES: dict[str, Path] = {_module_name(p): p for p in sorted(PACKAGE_DIR.rglob("*.py"))}
TREES: dict[str, ast.Module] = {m: ast.parse(p.read_text(encoding="utf-8"), filename=str(p)) for m, p in MODULES.items()}


def _registers(tree: ast.Module) -> bool:
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            for dec in node.decorator_list:
                target = dec.func if isinstance(dec, ast.Call) else dec
                if (isinstance(target, ast.Name) and target.id == "register") or (
                    isinstance(target, ast.Attribute) and target.attr == "register"
                ):
                    return True
    return False


PARADIGM_MODULES = sorted(m for m, t in TREES.items() if m.startswith("rublimp.paradigms.") and _registers(t))


def _imports(module: str) -> list[tuple[str, list[str], int]]:
    """(imported module, names taken from it, line) for every import statement of ``module``, anywhere."""
    is_package = MODULES[module].name == "__init__.py"
    package = module if is_package else module.rpartition(".")[0]
    out = []
    for node in ast.walk(TREES[module]):
        if isinstance(node, ast.Import):
            out += [(a.name, [], node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                target = ".".join(anchor + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            names = [a.name for a in node.names]
            out.append((target, names, node.lineno))
            # `from pkg import submodule` imports the submodule
            out += [(f"{target}.{n}", [], node.lineno) for n in names if f"{target}.{n}" in MODULES]
    return out


def test_the_rules_see_the_package():
    # the rules below are vacuous if the walk finds nothing: the paradigm modules are there
    assert len(PARADIGM_MODULES) >= 10
    assert "rublimp.paradigms.base" not in PARADIGM_MODULES
    assert "rublimp.trees.memo" in MODULES


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_module_imports_a_paradigm_module(module):
    if module == "rublimp.paradigms":
        return  # the package imports every paradigm module so that it registers
    bad = [f"line {line}: {target}" for target, _, line in _imports(module) if target in PARADIGM_MODULES and target != module]
    assert not bad, f"{MODULES[module]} imports a paradigm module (move the shared code to rublimp.trees): {bad}"


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m == "rublimp.trees" or m.startswith("rublimp.trees.")))
def test_trees_import_only_the_layers_below(module):
    bad = [
        f"line {line}: {target}"
        for target, _, line in _imports(module)
        if target.split(".")[0] == "rublimp"
        and target not in TREES_MAY_IMPORT
        and not (target == "rublimp.trees" or target.startswith("rublimp.trees."))
    ]
    assert not bad, f"{MODULES[module]} imports above the tree layer: {bad}"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_private_name_is_imported_from_another_module(module):
    bad = [
        f"line {line}: {target}.{name}"
        for target, names, line in _imports(module)
        if target.split(".")[0] == "rublimp" and target != module
        for name in names
        if name.startswith("_") and not name.startswith("__")
    ]
    assert not bad, f"{MODULES[module]} imports private names of other modules (make them public there): {bad}"


@pytest.mark.parametrize("module", PARADIGM_MODULES)
def test_paradigm_modules_are_short(module):
    n = len(MODULES[module].read_text(encoding="utf-8").splitlines())
    assert n <= MAX_PARADIGM_LINES, f"{MODULES[module]} has {n} lines (at most {MAX_PARADIGM_LINES}): split it by responsibility"


def test_the_rules_catch_what_they_forbid(tmp_path):
    # the import walk resolves relative imports the way Python does
    global MODULES, TREES
    saved = MODULES, TREES
    try:
        MODULES = {**MODULES, "rublimp.paradigms.fake": tmp_path / "fake.py", "rublimp.trees.fake": tmp_path / "tfake.py"}
        TREES = {
            **TREES,
            "rublimp.paradigms.fake": ast.parse("from .tense import _norm\nfrom . import aspect\n"),
            "rublimp.trees.fake": ast.parse("def f():\n    from ..paradigms.base import Paradigm\n"),
        }
        fake = _imports("rublimp.paradigms.fake")
        assert ("rublimp.paradigms.tense", ["_norm"], 1) in fake
        assert ("rublimp.paradigms.aspect", [], 2) in fake
        assert _imports("rublimp.trees.fake") == [("rublimp.paradigms.base", ["Paradigm"], 2)]
        with pytest.raises(AssertionError):
            test_no_module_imports_a_paradigm_module("rublimp.paradigms.fake")
        with pytest.raises(AssertionError):
            test_no_private_name_is_imported_from_another_module("rublimp.paradigms.fake")
        with pytest.raises(AssertionError):
            test_trees_import_only_the_layers_below("rublimp.trees.fake")
    finally:
        MODULES, TREES = saved
