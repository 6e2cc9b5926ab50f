"""rublimp.workflow.module_closure's import scan: every import statement, wherever it is nested."""

from __future__ import annotations

import ast
import os
import textwrap
from pathlib import Path

from rublimp.workflow import PACKAGE_DIR, _import_targets, _imported_modules, module_closure

# one import in each kind of statement body an import can sit in
NESTED = textwrap.dedent("""
    import rublimp.a0
    if x:
        import rublimp.a1
    else:
        import rublimp.a2
    try:
        import rublimp.a3
    except ImportError:
        import rublimp.a4
    else:
        import rublimp.a5
    finally:
        import rublimp.a6
    with open(p) as fh:
        import rublimp.a7
    for i in y:
        import rublimp.a8
    else:
        import rublimp.a9
    while z:
        import rublimp.b0
    else:
        import rublimp.b1
    class C:
        import rublimp.b2
        def m(self):
            import rublimp.b3
    async def f():
        async with g() as h:
            from rublimp import b4
        async for j in k:
            from . import b5
    match v:
        case 1:
            from .sub import b6
    def outer():
        def inner():
            from .. import b7
""")


def test_imports_in_every_kind_of_nested_statement_are_found():
    targets = _import_targets(ast.parse(NESTED), "rublimp.pkg.mod", False)
    found = {t if not names else f"{t}:{','.join(names)}" for t, names in targets}
    want = {f"rublimp.a{i}" for i in range(10)} | {"rublimp.b0", "rublimp.b1", "rublimp.b2", "rublimp.b3",
                                                   "rublimp:b4", "rublimp.pkg:b5", "rublimp.pkg.sub:b6", "rublimp:b7"}
    assert found == want


def test_statement_scan_finds_what_a_full_walk_finds_in_every_package_file():
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        module = ".".join(("rublimp",) + path.relative_to(PACKAGE_DIR).with_suffix("").parts)
        scanned = _import_targets(tree, module, path.name == "__init__.py")
        n_walked = sum(len(n.names) if isinstance(n, ast.Import) else 1
                       for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom)))
        assert len(scanned) == n_walked, path


def test_a_file_edited_in_the_process_is_scanned_again(tmp_path: Path):
    pkg = tmp_path / "rublimp"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "x.py").write_text("")
    (pkg / "a.py").write_text("from . import x\n")
    (pkg / "b.py").write_text("")
    assert _imported_modules(pkg / "a.py", "rublimp.a", False, pkg) == {"rublimp", "rublimp.x"}
    assert [Path(p).name for p in module_closure(["rublimp.a"], root=pkg)] == ["__init__.py", "a.py", "x.py"]
    st = (pkg / "a.py").stat()
    (pkg / "a.py").write_text("from . import x\nimport rublimp.b\n")
    os.utime(pkg / "a.py", ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    assert [Path(p).name for p in module_closure(["rublimp.a"], root=pkg)] == ["__init__.py", "a.py", "b.py", "x.py"]
