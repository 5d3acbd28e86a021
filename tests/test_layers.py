"""The layers of docs/design.md hold: every module of the installed package
imports only from its own layer or below, and no modules import each other
in a circle, inside a layer or across (read from the source with ast)."""

import ast
import importlib
import pkgutil

import pytest

import draughts

# docs/design.md, "Layers: who may import whom"
LAYERS = {
    "draughts_core": 0,
    "draughts.errors": 1,
    "draughts.limits": 1,
    "draughts._progress": 1,
    "draughts._install": 1,
    "draughts.variants": 2,
    "draughts.tuning": 2,
    "draughts.options": 2,
    "draughts._memory": 2,
    "draughts._files": 2,
    "draughts.cluster": 2,
    "draughts.notation": 3,
    "draughts._args": 3,
    "draughts.board": 4,
    "draughts.diagram": 4,
    "draughts.egdb": 5,
    "draughts.egdb.format": 5,
    "draughts.egdb.database": 5,
    "draughts.egdb.builder": 5,
    "draughts.egdb.cli": 5,
    "draughts.engine_api": 5,
    "draughts.engine": 5,
    "draughts.learned": 5,
    "draughts.pdn": 5,
    "draughts.perft": 5,
    "draughts.book": 5,
    "draughts.svg": 5,
    "draughts.bench": 6,
    "draughts.play": 6,
    "draughts.hub": 6,
    "draughts.selfplay": 6,
    "draughts.train": 6,
    "draughts.positions": 6,
    "draughts.match": 7,
    "draughts.dxp": 7,
    "draughts.book_build": 7,
    "draughts.cli": 8,
    "draughts.__main__": 8,
    "draughts.gui": 8,
}


def layer_of(name):
    """The layer of a module: its own entry, or its package's."""
    parts = name.split(".")
    for n in range(len(parts), 0, -1):
        key = ".".join(parts[:n])
        if key in LAYERS:
            return LAYERS[key]
    return None


def own_imports(name, path):
    """The draughts and draughts_core modules a source file imports."""
    with open(path, encoding="utf-8") as fh:
        tree = ast.parse(fh.read())
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
    return {
        m
        for m in out
        if m.split(".")[0] in ("draughts", "draughts_core")
        and importlib.util.find_spec(m.rsplit(".", 1)[0] if m.count(".") else m) is not None
    }


MODULES = ["draughts"] + [m.name for m in pkgutil.walk_packages(draughts.__path__, "draughts.")]


def test_every_module_has_a_layer():
    assert [m for m in MODULES if m != "draughts" and layer_of(m) is None] == []


@pytest.mark.parametrize("name", [m for m in MODULES if m != "draughts"])
def test_no_module_imports_a_layer_above_it(name):
    spec = importlib.util.find_spec(name)
    mine = layer_of(name)
    above = []
    for dep in own_imports(name, spec.origin):
        if dep == "draughts" or dep.startswith(name + "."):
            continue
        theirs = layer_of(dep)
        if theirs is not None and theirs > mine:
            above.append(f"{dep} (layer {theirs})")
    assert above == [], f"{name} (layer {mine}) imports {', '.join(sorted(above))}"


def resolve(dep):
    """The module an imported name belongs to: the longest prefix that is a module."""
    parts = dep.split(".")
    for n in range(len(parts), 0, -1):
        name = ".".join(parts[:n])
        if name in MODULES:
            return name
    return None


def imported_modules(path):
    """The package's modules a source file imports: `from P import M` of a
    module M is M (P is its package), of a name it is P."""
    with open(path, encoding="utf-8") as fh:
        tree = ast.parse(fh.read())
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(resolve(a.name) for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for a in node.names:
                sub = f"{node.module}.{a.name}"
                out.add(sub if sub in MODULES else resolve(node.module))
    return out


def import_graph():
    """module -> the package's modules it imports (the package's face, which
    names everything, left out), wherever in the file the import stands."""
    graph = {}
    for name in MODULES:
        if name == "draughts":
            continue
        deps = imported_modules(importlib.util.find_spec(name).origin)
        graph[name] = {d for d in deps if d is not None and d not in ("draughts", name)}
    return graph


def cycles(graph):
    """Every strongly connected set of more than one module, or one that
    imports itself (Tarjan's algorithm)."""
    index, low, stack, on_stack, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
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
            if len(group) > 1 or v in graph.get(v, ()):
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_cycle_finder_finds_circles():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set(), "c": {"c"}}) == [["c"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_no_modules_import_each_other_in_a_circle():
    assert cycles(import_graph()) == []
