"""The package's layers, read from its source (docs/architecture.md): no import loop, each floor
imports only the floors below it, a variant's package imports no other variant and nothing above it,
no import hides inside a function to dodge a loop, and no code outside a variant's package and the
registry knows a variant by its name."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "rummysim"
REGISTRY = "rummysim.variants"

#: floor 0: what every variant shares; a variant package may import these and itself, nothing else
GROUND = ("rummysim.base", "rummysim.engine", "rummysim.cards", "rummysim.results")
#: what sits above the registry: never imported by a variant or by floor 0
UPPER = ("rummysim.run", "rummysim.strategy", "rummysim.analysis", "rummysim.report", "rummysim.play",
         "rummysim.env", "rummysim.cli", "rummysim.replay_html", "rummysim.serve", "rummysim.compiling")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in PACKAGE.rglob("*.py")}


def _is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def _imports(name: str) -> list[tuple[str, bool]]:
    """The rummysim modules ``name`` imports, each with whether the import is inside a function."""
    tree = ast.parse(MODULES[name].read_text())
    inside = {id(n) for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
              for n in ast.walk(f) if isinstance(n, (ast.Import, ast.ImportFrom))}
    here = name.split(".") if _is_package(name) else name.split(".")[:-1]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(here[:len(here) - node.level + 1] + ([node.module] if node.module else [])) \
                if node.level else node.module or ""
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
        else:
            continue
        out += [(t, id(node) in inside) for t in targets if t in MODULES and t != name]
    return out


def _missing(name: str) -> list[str]:
    """The rummysim modules ``name`` imports that are not in this tree (an editable install elsewhere
    would still answer them, hiding a module that was moved or deleted)."""
    tree = ast.parse(MODULES[name].read_text())
    here = name.split(".") if _is_package(name) else name.split(".")[:-1]
    wanted = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            wanted += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            wanted.append(".".join(here[:len(here) - node.level + 1] + ([node.module] if node.module else []))
                          if node.level else node.module or "")
    return sorted(m for m in wanted if m.split(".")[0] == "rummysim" and m not in MODULES)


def _registered() -> list[str]:
    """The variant packages the registry lists (``PACKAGES``), whose ``variant`` module it imports."""
    tree = ast.parse(MODULES[REGISTRY].read_text())
    value = next(n.value for n in tree.body if isinstance(n, ast.Assign)
                 and any(isinstance(t, ast.Name) and t.id == "PACKAGES" for t in n.targets))
    return [e.value for e in value.elts]


def graph() -> dict[str, set[str]]:
    """Every module's imports of rummysim modules (in functions too), with the registry's imports of
    the variants it lists."""
    g = {m: {t for t, _ in _imports(m)} for m in MODULES}
    g[REGISTRY] |= {f"{REGISTRY}.{name}.variant" for name in _registered()}
    return g


def _cycle(g: dict[str, set[str]]) -> list[str] | None:
    """One import loop of ``g``, as the modules around it, or None."""
    colour, stack = {}, []

    def visit(m):
        colour[m] = 1
        stack.append(m)
        for t in sorted(g[m]):
            if colour.get(t) == 1:
                return stack[stack.index(t):] + [t]
            if t not in colour:
                found = visit(t)
                if found:
                    return found
        colour[m] = 2
        stack.pop()
        return None

    for m in sorted(g):
        if m not in colour:
            found = visit(m)
            if found:
                return found
    return None


def _under(name: str, prefixes) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def test_no_import_loop():
    loop = _cycle(graph())
    assert loop is None, "import loop: " + " -> ".join(loop)


def test_the_loop_finder_finds_a_loop():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_every_registered_variant_is_a_package_with_a_variant_module():
    names = _registered()
    assert names, "the registry lists no variant"
    for name in names:
        assert f"{REGISTRY}.{name}.variant" in MODULES


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_import_of_rummysim_is_a_module_of_this_tree(module):
    assert not _missing(module), f"{module} imports {_missing(module)}, which is not in rummysim/"


@pytest.mark.parametrize("module", sorted(m for m in MODULES if _under(m, GROUND)))
def test_the_ground_floor_imports_only_itself(module):
    wrong = sorted(t for t, _ in _imports(module) if not _under(t, GROUND))
    assert not wrong, f"{module} (floor 0) imports {wrong}"


def _is_report(module: str) -> bool:
    """A variant's report sections (``rummysim.variants.<name>.report``): its one module above the
    registry, loaded by the report floor through ``Variant.report``."""
    parts = module.split(".")
    return module.startswith(REGISTRY + ".") and len(parts) == 4 and parts[3] == "report"


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m.startswith(REGISTRY + ".") and not _is_report(m)))
def test_a_variant_imports_only_the_ground_floor_and_itself(module):
    own = ".".join(module.split(".")[:3])
    wrong = sorted(t for t, _ in _imports(module) if not _under(t, GROUND + (own,)))
    assert not wrong, f"{module} imports {wrong}: a variant package imports only {', '.join(GROUND)} and itself"


@pytest.mark.parametrize("module", sorted(m for m in MODULES if _is_report(m)))
def test_a_variants_report_imports_no_other_variant_and_nothing_imports_it(module):
    own = ".".join(module.split(".")[:3])
    other = sorted(t for t, _ in _imports(module) if _under(t, (REGISTRY,)) and not _under(t, (own,)))
    assert not other, f"{module} imports {other}: another variant, or the registry"
    importers = sorted(m for m in MODULES if any(t == module for t, _ in _imports(m)))
    assert not importers, f"{importers} import {module}: only the report loads it, through Variant.report"


@pytest.mark.parametrize("module", sorted(m for m in MODULES if not _under(m, (REGISTRY,))))
def test_above_the_registry_a_variant_is_reached_only_through_it(module):
    direct = sorted(t for t, _ in _imports(module) if t.startswith(REGISTRY + "."))
    assert not direct, f"{module} imports {direct}: code outside a variant reaches it through its Variant"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_import_of_rummysim_hides_inside_a_function(module):
    hidden = sorted(t for t, inside in _imports(module) if inside)
    assert not hidden, f"{module} imports {hidden} inside a function"


def _variant_names() -> set[str]:
    return set(_registered())


@pytest.mark.parametrize("module", sorted(m for m in MODULES if not m.startswith(REGISTRY)))
def test_no_code_above_the_registry_names_a_variant(module):
    """A string that is a variant's name (``"shanghai"``), outside docstrings, is a variant known by name:
    a table keyed by it, a test of it, a default."""
    tree = ast.parse(MODULES[module].read_text())
    docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                  if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    named = sorted({n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and id(n) not in docstrings
                    and isinstance(n.value, str) and n.value in _variant_names()})
    assert not named, f"{module} names variant(s) {named}"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_signature_takes_a_variant_name_with_a_default(module):
    tree = ast.parse(MODULES[module].read_text())
    for f in ast.walk(tree):
        if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = f.args.args + f.args.kwonlyargs
            defaults = dict(zip([a.arg for a in f.args.args][::-1], f.args.defaults[::-1]))
            defaults |= {a.arg: d for a, d in zip(f.args.kwonlyargs, f.args.kw_defaults) if d is not None}
            for a in args:
                d = defaults.get(a.arg)
                assert not (a.arg == "variant" and isinstance(d, ast.Constant) and isinstance(d.value, str)), \
                    f"{module}.{f.name}: variant defaults to {d.value!r}"
