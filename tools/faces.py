"""Package faces: each package of citeproof exports, from its ``__init__``, what other
packages and users use, and keeps the rest in ``_private`` modules (httpx's way).

Run from the repository root::

    .venv/bin/python tools/faces.py            # rewrite the tree (renames with ``git mv``)
    .venv/bin/python tools/faces.py --check    # exit 1, saying what, if anything would change
    .venv/bin/python tools/faces.py --print-faces   # the faces, as the pinning test lists them

What it does, derived from the code each time it runs (so it can run again after any merge,
and a second run changes nothing):

1. The face of a package is the names that modules outside it import from its modules (in
   ``src/``: other packages and the top-level modules such as ``citeproof/__init__.py`` and
   ``citeproof/testing.py``), the names that ``examples/`` and the docs (``docs/*.md``,
   ``README.md``) take from its modules by a deep path, the names its ``__init__``
   already exports and the public names it defines itself. The ``__init__`` imports them
   and lists them, sorted, in ``__all__``.
2. Every import of such a name from outside the package is rewritten to come from the face
   (``from citeproof.sources.store import SourceStore`` → ``from citeproof.sources import
   SourceStore``), in ``src/`` and wherever else Python imports it; imports within a package,
   and from a sub-package into its parents' modules, stay direct.
3. A module that, after that, nothing outside its package imports becomes private: renamed
   ``_name.py`` with ``git mv``, every reference to it rewritten (dotted names and file paths,
   in Python, ``docs/*.md``, ``.importlinter``, ``Makefile``, ``pyproject.toml``). Deep
   dotted references in the docs (``citeproof.adapters.documents.from_langchain``) become
   face references (``citeproof.adapters.from_langchain``).

Every face it writes loads on first use (PEP 562, `citeproof.lazy.on_first_use`): its names
are imported under ``if TYPE_CHECKING:`` for type checkers, listed in a ``_WHERE`` dict (name
-> module) and loaded by the package's ``__getattr__`` when first asked for, so importing a
package runs none of its modules and a face never adds to what ``import citeproof`` or a
plain ``citeproof verify`` loads. A name the ``__init__`` itself uses stays imported eagerly.
A hand-written face in that form (under another dict name, with comments of its own) is read
and kept: only its dict, its type-checking imports and ``__all__`` are rewritten.

What it leaves alone, and says so when it runs:

- a package whose face would close an import cycle in the static graph ``lint-imports``
  reads (type-checking imports included);
- a name that is also the name of one of the package's modules, or is defined in two of them.

README.md is read (its deep paths shape the faces) but not rewritten; stale references to a
renamed module in it are printed.
"""

from __future__ import annotations

import argparse
import ast
import re
import subprocess
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
TOP = "citeproof"
PYTHON_TREES = ("src", "tests", "bench", "eval", "examples", "tools", "train")
TEXT_FILES = (".importlinter", "Makefile", "pyproject.toml")
USER_PYTHON_TREES = ("examples",)
SELF = Path(__file__).resolve()

_DOTTED = re.compile(r"\bciteproof(?:\.[A-Za-z_]\w*)+")
_QUOTED = re.compile(r"(?<=`)citeproof(?:\.[A-Za-z_]\w*)+(?=`)")
_FROM_LINE = re.compile(r"\bfrom\s+(citeproof(?:\.\w+)+)\s+import\s+([\w ,]+)")


@dataclass
class Module:
    """One module of ``src/citeproof``, as parsed."""

    name: str
    path: Path
    is_package: bool
    text: str
    tree: ast.Module
    defined: set[str] = field(default_factory=set)
    bound: set[str] = field(default_factory=set)

    @property
    def package(self) -> str:
        """The package the module belongs to (a package's ``__init__`` belongs to itself)."""
        return self.name if self.is_package else self.name.rpartition(".")[0]


@dataclass(frozen=True)
class Edge:
    """One import in ``src``: ``importer`` imports module ``imported`` (``names`` from it)."""

    importer: str
    imported: str
    names: tuple[str, ...]


def read_modules() -> dict[str, Module]:
    """Every module under ``src/citeproof``, by dotted name."""
    modules: dict[str, Module] = {}
    for path in sorted((SRC / TOP).rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text, filename=str(path))
        module = Module(".".join(parts), path, is_package, text, tree)
        module.defined = _defined_names(tree)
        module.bound = _bound_names(tree)
        modules[module.name] = module
    return modules


def _bound_names(tree: ast.Module) -> set[str]:
    """The names a module defines or imports at its top level: ``from package import main``
    gives the ``__init__``'s ``main``, not the module ``main``, when the ``__init__`` binds it."""
    names = _defined_names(tree)
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            names.update(a.asname or a.name for a in node.names)
    lazy = _lazy_table(tree)
    if lazy is not None:
        names.update(_dict_of(lazy[1]))
    return names


def _defined_names(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def edges_of(modules: dict[str, Module]) -> list[Edge]:
    """Every import between citeproof's modules (in functions and type-checking blocks too)."""
    edges: list[Edge] = []
    for module in modules.values():
        for node in ast.walk(module.tree):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in modules:
                plain = []
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    if sub in modules and alias.name not in modules[node.module].bound:
                        edges.append(Edge(module.name, sub, ()))
                    else:
                        plain.append(alias.name)
                edges.append(Edge(module.name, node.module, tuple(plain)))
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in modules:
                        edges.append(Edge(module.name, alias.name, ()))
        for constant in ast.walk(module.tree):
            # importlib.import_module("citeproof.x.y") and the like: a module named whole. A
            # package's name is left out: loggers and entry-point groups are spelled so too.
            if (
                isinstance(constant, ast.Constant)
                and isinstance(constant.value, str)
                and constant.value in modules
                and not modules[constant.value].is_package
            ):
                edges.append(Edge(module.name, constant.value, ()))
    return edges


def is_cross(importer_package: str, imported_package: str) -> bool:
    """Whether an import from ``importer_package`` into ``imported_package`` goes through the
    face: not within one package, not into a package's parents, not into the top level."""
    if imported_package in (TOP, importer_package):
        return False
    return not importer_package.startswith(imported_package + ".")


def private_name(name: str) -> str:
    head, _, last = name.rpartition(".")
    return f"{head}._{last}"


@dataclass
class Plan:
    """What the codemod would do, before any file is touched."""

    faces: dict[str, dict[str, str]]  # package -> face name -> module it comes from
    added: dict[str, set[str]]  # package -> names the face gains
    renames: dict[str, str]  # module -> its private name
    frozen: dict[str, str]  # package -> why its face is left as it is
    left_deep: list[str]  # names kept deep, with why


def existing_face(module: Module) -> dict[str, str]:
    """The names a package's ``__init__`` exports, each with the module it imports it from,
    eagerly, under ``if TYPE_CHECKING:`` or on first use (the package itself for names it
    defines)."""
    exported = _all_of(module.tree)
    sources: dict[str, str] = {}
    for node in _face_imports(module.tree):
        for alias in node.names:
            sources[alias.asname or alias.name] = node.module or ""
    lazy = _lazy_table(module.tree)
    if lazy is not None:
        sources.update(_dict_of(lazy[1]))
    return {name: sources.get(name, module.name) for name in exported}


def _face_imports(tree: ast.Module) -> Iterator[ast.ImportFrom]:
    """The absolute ``from ... import`` statements at the top level and in its
    ``if TYPE_CHECKING:`` blocks."""
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node
        elif _is_type_checking(node):
            assert isinstance(node, ast.If)
            for inner in node.body:
                if isinstance(inner, ast.ImportFrom) and inner.level == 0 and inner.module:
                    yield inner


def _is_type_checking(node: ast.stmt) -> bool:
    return (
        isinstance(node, ast.If)
        and not node.orelse
        and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING")
    )


def _lazy_table(tree: ast.Module) -> tuple[ast.Assign, ast.Assign] | None:
    """The ``__getattr__ = on_first_use(globals(), TABLE)`` assignment and the assignment of
    its ``TABLE`` dict, when the module has them."""
    for node in tree.body:
        if not (
            isinstance(node, ast.Assign)
            and [ast.unparse(t) for t in node.targets] == ["__getattr__"]
            and isinstance(node.value, ast.Call)
            and len(node.value.args) == 2
            and isinstance(node.value.args[1], ast.Name)
        ):
            continue
        table = node.value.args[1].id
        for other in tree.body:
            if (
                isinstance(other, ast.Assign)
                and [ast.unparse(t) for t in other.targets] == [table]
                and isinstance(other.value, ast.Dict)
            ):
                return node, other
    return None


def _dict_of(node: ast.Assign) -> dict[str, str]:
    assert isinstance(node.value, ast.Dict)
    return {
        k.value: v.value
        for k, v in zip(node.value.keys, node.value.values, strict=True)
        if isinstance(k, ast.Constant)
        and isinstance(k.value, str)
        and isinstance(v, ast.Constant)
        and isinstance(v.value, str)
    }


def _all_of(tree: ast.Module) -> list[str]:
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
            and isinstance(node.value, ast.List | ast.Tuple)
        ):
            return [
                e.value
                for e in node.value.elts
                if isinstance(e, ast.Constant) and isinstance(e.value, str)
            ]
    return []


def user_references(modules: dict[str, Module]) -> list[tuple[str, str]]:
    """(module, name) pairs that examples and the docs take by a deep path."""
    found: list[tuple[str, str]] = []
    for tree_name in USER_PYTHON_TREES:
        for path in sorted((ROOT / tree_name).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.module in modules:
                    found.extend((node.module, a.name) for a in node.names)
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        for match in _FROM_LINE.finditer(text):
            if match.group(1) in modules:
                names = [n.strip().split(" as ")[0] for n in match.group(2).split(",")]
                found.extend((match.group(1), n) for n in names if n.isidentifier())
        for match in _DOTTED.finditer(text):
            module, _, name = match.group(0).rpartition(".")
            if module in modules and not modules[module].is_package:
                found.append((module, name))
    return found


def strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's components of size two or more, or with a self loop."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    counter = 0
    sys.setrecursionlimit(10000)

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component: set[str] = set()
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.add(top)
                if top == node:
                    break
            if len(component) > 1 or node in graph.get(node, ()):
                found.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _parents(name: str) -> Iterator[str]:
    while "." in name:
        name = name.rpartition(".")[0]
        yield name


def import_graph(
    modules: dict[str, Module],
    edges: Iterable[Edge],
    faces: dict[str, dict[str, str]],
) -> dict[str, set[str]]:
    """module -> modules it imports, as ``lint-imports`` reads them (in functions and
    type-checking blocks too), with the faces in place: an import through a face imports the
    face, which imports every module it takes names from, and a module imports the
    ``__init__`` of its packages (but for those the importer is inside)."""
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for edge in edges:
        importer = modules[edge.importer]
        target = modules[edge.imported].package
        hits = {edge.imported}
        if edge.names and is_cross(importer.package, target) and target in faces:
            face = faces[target]
            hits = {target if face.get(n) == edge.imported else edge.imported for n in edge.names}
        for hit in hits:
            for parent in [hit, *_parents(hit)]:
                inside = edge.importer == parent or edge.importer.startswith(parent + ".")
                if parent != TOP and parent in modules and not inside:
                    graph[edge.importer].add(parent)
    for package, face in faces.items():
        graph[package].update(m for m in face.values() if m != package)
    return graph


def plan(modules: dict[str, Module]) -> Plan:
    edges = edges_of(modules)
    packages = sorted(m.name for m in modules.values() if m.is_package and m.name != TOP)
    current = {p: existing_face(modules[p]) for p in packages}
    left_deep: list[str] = []

    wanted: dict[str, dict[str, set[str]]] = {p: {} for p in packages}
    for edge in edges:
        target = modules[edge.imported].package
        if edge.imported == target or not is_cross(modules[edge.importer].package, target):
            continue
        for name in edge.names:
            wanted[target].setdefault(name, set()).add(edge.imported)
    for module, name in user_references(modules):
        target = modules[module].package
        if (
            target != module
            and target in wanted
            and name
            in modules[module].defined | {n for e in edges if e.importer == module for n in e.names}
        ):
            wanted[target].setdefault(name, set()).add(module)

    proposed: dict[str, dict[str, str]] = {}
    for package in packages:
        face = dict(current[package])
        # What the __init__ defines itself is its own face (citeproof.testing.assert_cited).
        face.update({n: package for n in modules[package].defined if not n.startswith("_")})
        submodules = {m.rpartition(".")[2] for m in modules if m.startswith(package + ".")}
        submodules |= {n.lstrip("_") for n in submodules}
        for name, sources in sorted(wanted[package].items()):
            if name in face:
                continue
            definers = sorted(s for s in sources if name in modules[s].defined) or sorted(sources)
            if len(definers) > 1:
                left_deep.append(f"{package}: {name} (defined in {', '.join(definers)})")
            elif name in submodules:
                left_deep.append(f"{package}: {name} (also the name of a module)")
            else:
                face[name] = definers[0]
        proposed[package] = face

    # The faces load on first use, so a face adds nothing to what `import citeproof` loads;
    # but lint-imports reads their type-checking imports, so a face must close no cycle.
    frozen: dict[str, str] = {}
    before_cycles = strongly_connected(import_graph(modules, edges, {}))
    while True:
        faces = {p: (current[p] if p in frozen else proposed[p]) for p in packages}
        rewritten = {p: f for p, f in faces.items() if p not in frozen}
        graph = import_graph(modules, edges, rewritten)
        new_cycles = [
            c for c in strongly_connected(graph) if not any(c <= old for old in before_cycles)
        ]
        culprits = sorted({p for c in new_cycles for p in c if p in faces and p not in frozen})
        if not culprits:
            break
        for package in culprits:
            cycle = next(c for c in new_cycles if package in c)
            others = sorted(p for p in cycle if p in faces and p != package)
            frozen[package] = "its face would close an import cycle with " + ", ".join(others)
    added = {p: set(faces[p]) - set(current[p]) for p in packages}

    # After the rewrite: which modules does anything outside their package still import?
    outside: set[str] = set()
    for edge in edges:
        importer = modules[edge.importer]
        target_module = modules[edge.imported]
        target = target_module.package
        if target_module.is_package or not is_cross(importer.package, target):
            continue
        through_face = target not in frozen and edge.names
        if through_face and all(faces[target].get(n) == edge.imported for n in edge.names):
            continue
        outside.add(edge.imported)
    for package, face in faces.items():
        outside.update(m for m in face.values() if m != package and m.rpartition(".")[0] != package)
    renames = {
        name: private_name(name)
        for name, module in sorted(modules.items())
        if not module.is_package
        and modules[module.package].name != TOP
        and not name.rpartition(".")[2].startswith("_")
        and name not in outside
        and not _entry_point(name)
    }
    return Plan(faces, added, renames, frozen, sorted(set(left_deep)))


def _entry_point(name: str) -> bool:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    return re.search(rf'"{re.escape(name)}(:\w+)?"', text) is not None


# --- rewriting -------------------------------------------------------------------------------


def _import_lines(by_module: dict[str, list[str]], indent: str = "") -> str:
    return "".join(
        f"{indent}from {module} import {', '.join(sorted(names))}\n"
        for module, names in sorted(by_module.items())
    )


def _used_names(tree: ast.Module) -> set[str]:
    """Names the module reads anywhere (its own code needs them bound, not loaded lazily)."""
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def rewrite_init(module: Module, face: dict[str, str], renames: dict[str, str]) -> str:
    """The package's ``__init__`` with its face written to load on first use: the face's
    names imported under ``if TYPE_CHECKING:``, their modules in the lookup table that
    ``__getattr__ = on_first_use(globals(), TABLE)`` reads (the ``__init__``'s own table, or
    ``_WHERE``), and ``__all__``. Names the ``__init__``'s own code reads, and what it imports
    for itself, stay eager; everything else in it is kept as written."""
    tree = module.tree
    lines = module.text.splitlines(keepends=True)
    used = _used_names(tree)
    drop: set[int] = set()
    insert_at = 0  # after the docstring and the top-level imports
    all_at: int | None = None
    eager: dict[str, list[str]] = {}  # module -> names imported at the top level
    lazy: dict[str, str] = {}  # name -> module it loads from
    for name, source in face.items():
        if source != module.name:
            lazy[name] = renames.get(source, source)

    def inside(source: str) -> bool:
        return source.startswith(module.name + ".")

    checking: ast.If | None = None
    kept_checking: list[str] = []
    for node in tree.body:
        end = node.end_lineno or node.lineno
        span = range(node.lineno - 1, end)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            insert_at = max(insert_at, end)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and inside(node.module or ""):
            drop.update(span)
            insert_at = max(insert_at, end)
            for alias in node.names:
                bound = alias.asname or alias.name
                if bound in lazy and bound in used:
                    del lazy[bound]  # the __init__'s own code reads it: stays eager
                if bound not in lazy:
                    spelled = f"{alias.name} as {alias.asname}" if alias.asname else alias.name
                    eager.setdefault(renames.get(node.module or "", node.module or ""), []).append(
                        spelled
                    )
        elif isinstance(node, ast.Import | ast.ImportFrom):
            insert_at = max(insert_at, end)
        elif _is_type_checking(node) and checking is None:
            assert isinstance(node, ast.If)
            checking = node
            drop.update(span)
            for inner in node.body:
                faced = (
                    isinstance(inner, ast.ImportFrom)
                    and inner.level == 0
                    and inside(inner.module or "")
                    and all((a.asname or a.name) in face for a in inner.names)
                )
                if not faced:
                    kept_checking.append(ast.get_source_segment(module.text, inner) or "")
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            drop.update(span)
            all_at = node.lineno - 1

    table_name, table_at = "_WHERE", all_at
    getter = "on_first_use"
    found = _lazy_table(tree)
    if found is not None:
        call, table = found
        table_name = ast.unparse(table.targets[0])
        assert isinstance(call.value, ast.Call)
        getter = ast.unparse(call.value.func)
        table_at = table.lineno - 1
        for node in (call, table):
            drop.update(range(node.lineno - 1, node.end_lineno or node.lineno))
    added_imports = ""
    if lazy and getter not in module.bound:
        added_imports += f"from citeproof.lazy import {getter}\n"
    test = ast.unparse(checking.test) if checking is not None else None
    if test is None and lazy:
        test = "TYPE_CHECKING" if "TYPE_CHECKING" in module.bound else "typing.TYPE_CHECKING"
        if test == "typing.TYPE_CHECKING" and "typing" not in _imported_modules(tree):
            added_imports = "import typing\n" + added_imports

    by_module: dict[str, list[str]] = {}
    for name, source in lazy.items():
        by_module.setdefault(source, []).append(name)
    checking_block = ""
    if test is not None and (lazy or kept_checking):
        body = "".join(f"    {line}\n" for text in kept_checking for line in text.splitlines())
        checking_block = f"\nif {test}:\n" + body + _import_lines(by_module, "    ") + "\n"
    table_block = ""
    if lazy:
        entries = "".join(f'    "{n}": "{m}",\n' for n, m in sorted(lazy.items()))
        table_block = (
            f"{table_name} = {{\n{entries}}}\n\n"
            f"__getattr__ = {getter}(globals(), {table_name})\n\n\n"
        )
    names = sorted(face, key=lambda n: (not n.isupper(), not n[:1].isupper(), n))
    listed = "__all__ = [" + ", ".join(f'"{n}"' for n in names) + "]\n" if names else ""
    head = "\n" + added_imports + _import_lines(eager) + checking_block + "\n"

    out: list[str] = []
    for i, line in enumerate(lines):
        if i == insert_at:
            out.append(head)
        if i == table_at:
            out.append(table_block)
        if i == all_at:
            out.append(listed)
        if i not in drop:
            out.append(line)
    if insert_at >= len(lines):
        out.append(head)
    if table_at is None:
        out.append("\n\n" + table_block)
    if all_at is None and listed:
        out.append("\n\n" + listed)
    return "".join(out)


def _imported_modules(tree: ast.Module) -> set[str]:
    return {a.asname or a.name for n in tree.body if isinstance(n, ast.Import) for a in n.names}


@dataclass
class Context:
    modules: dict[str, Module]
    plan: Plan

    def face_of(self, module: str) -> tuple[str, dict[str, str]] | None:
        package = self.modules[module].package if module in self.modules else None
        if package is None or package == TOP or package in self.plan.frozen:
            return None
        return package, self.plan.faces[package]


def _importer_package(path: Path, modules: dict[str, Module]) -> str | None:
    """The package of a file under src/, or None for files outside it."""
    try:
        parts = list(path.relative_to(SRC).with_suffix("").parts)
    except ValueError:
        return None
    name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
    module = modules.get(name)
    return module.package if module else None


def rewrite_imports(text: str, path: Path, ctx: Context) -> tuple[str, int, int]:
    """``text`` with its imports of face names taken from the face and its imports of renamed
    modules renamed; how many statements now import from a face, and how many still name a
    renamed module (by its new name, once `rename_references` has run)."""
    tree = ast.parse(text)
    importer = _importer_package(path, ctx.modules)
    lines = text.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    edits: list[tuple[int, int, str]] = []
    faced = renamed = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            renamed += any(_renamed_in(a.name, ctx) for a in node.names)
        if not (isinstance(node, ast.ImportFrom) and node.level == 0 and node.module):
            continue
        source = node.module
        if source not in ctx.modules:
            continue
        face = ctx.face_of(source)
        moved: list[ast.alias] = []
        kept: list[ast.alias] = []
        for alias in node.names:
            through_face = (
                face is not None
                and not ctx.modules[source].is_package
                and face[1].get(alias.name) == source
                and (importer is None or is_cross(importer, face[0]))
            )
            (moved if through_face else kept).append(alias)
        statements = []
        if moved and face is not None:
            statements.append(f"from {face[0]} import {_aliases(moved)}")
        if kept:
            statements.append(f"from {source} import {_aliases(kept, source, ctx)}")
            named = [f"{source}.{a.name}" for a in kept if a.name not in ctx.modules[source].bound]
            renamed += any(_renamed_in(n, ctx) for n in [source, *named])
        new = ("\n" + " " * node.col_offset).join(statements)
        start = offsets[node.lineno - 1] + node.col_offset
        end = offsets[(node.end_lineno or node.lineno) - 1] + (node.end_col_offset or 0)
        if new != text[start:end] and (moved or _aliases(kept, source, ctx) != _aliases(kept)):
            edits.append((start, end, new))
            faced += bool(moved)
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text, faced, renamed


def _renamed_in(dotted: str, ctx: Context) -> bool:
    """Whether ``dotted`` is a renamed module or inside one."""
    return any(dotted == old or dotted.startswith(old + ".") for old in ctx.plan.renames)


def _aliases(aliases: list[ast.alias], source: str = "", ctx: Context | None = None) -> str:
    out = []
    for alias in aliases:
        name, asname = alias.name, alias.asname
        sub = f"{source}.{name}"
        bound = ctx is not None and name in ctx.modules[source].bound
        if ctx is not None and sub in ctx.plan.renames and not bound:
            new = ctx.plan.renames[sub].rpartition(".")[2]
            asname = asname or name
            name = new
        out.append(f"{name} as {asname}" if asname and asname != name else name)
    return ", ".join(out)


def rename_references(text: str, renames: dict[str, str]) -> str:
    """Dotted names and file paths of renamed modules, renamed."""

    def dotted(match: re.Match[str]) -> str:
        parts = match.group(0).split(".")
        for n in range(len(parts), 1, -1):
            head = ".".join(parts[:n])
            if head in renames:
                return ".".join([renames[head], *parts[n:]])
        return match.group(0)

    text = _DOTTED.sub(dotted, text)
    for old, new in renames.items():
        pieces = old.split(".")
        stem = pieces[-1]
        dirs = ["src", *pieces[:-1]]
        pattern = re.compile(rf"(?<![\w.])((?:[\w.-]+/)*){re.escape(stem)}\.py\b")

        def path(match: re.Match[str], dirs: list[str] = dirs, new: str = new) -> str:
            given = [d for d in match.group(1).split("/") if d]
            if given and given == dirs[len(dirs) - len(given) :]:
                return match.group(1) + new.rpartition(".")[2] + ".py"
            return match.group(0)

        text = pattern.sub(path, text)
    return text


def _through_face(match: re.Match[str], ctx: Context) -> str:
    """A dotted ``module.name`` as ``face.name`` when the face exports it from that module."""
    module, _, name = match.group(0).rpartition(".")
    face = ctx.face_of(module)
    if face and face[1].get(name) == module:
        return f"{face[0]}.{name}"
    return match.group(0)


def docstring_references(text: str, ctx: Context) -> str:
    """Deep dotted references in backquotes (docstrings and comments of ``src``), through the
    faces; code's strings (module names for ``importlib``) are left alone."""
    return _QUOTED.sub(lambda m: _through_face(m, ctx), text)


def face_references(text: str, ctx: Context) -> str:
    """Deep dotted references and ``from ... import`` lines in the docs, through the faces."""

    def from_line(match: re.Match[str]) -> str:
        module = match.group(1)
        face = ctx.face_of(module)
        names = [n.strip().split(" as ")[0] for n in match.group(2).split(",") if n.strip()]
        if face and names and all(face[1].get(n) == module for n in names):
            return match.group(0).replace(module, face[0], 1)
        return match.group(0)

    text = _FROM_LINE.sub(from_line, text)
    return _DOTTED.sub(lambda m: _through_face(m, ctx), text)


def ruff(text: str, path: Path) -> str:
    """``text`` with its imports sorted, ``__all__`` sorted and formatted, as ruff would."""
    ruff_bin = str(Path(sys.executable).with_name("ruff"))
    name = str(path.relative_to(ROOT))
    fixed = subprocess.run(
        [ruff_bin, "check", "--fix-only", "--select", "I001,RUF022", "--stdin-filename", name, "-"],
        input=text,
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    ).stdout
    return subprocess.run(
        [ruff_bin, "format", "--stdin-filename", name, "-"],
        input=fixed,
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    ).stdout


def files_to_rewrite() -> list[Path]:
    files = [
        p
        for tree in PYTHON_TREES
        for p in sorted((ROOT / tree).rglob("*.py"))
        if p.resolve() != SELF and ".venv" not in p.parts
    ]
    files += sorted((ROOT / "docs").rglob("*.md"))
    files += [ROOT / name for name in TEXT_FILES if (ROOT / name).exists()]
    return files


def new_path(path: Path, renames: dict[str, str]) -> Path:
    try:
        parts = list(path.relative_to(SRC).with_suffix("").parts)
    except ValueError:
        return path
    name = ".".join(parts)
    if name in renames:
        return path.with_name(renames[name].rpartition(".")[2] + ".py")
    return path


def changes(modules: dict[str, Module], the_plan: Plan) -> tuple[dict[Path, str], int, int]:
    """New text of every file that changes (by its path after the renames), how many imports
    now come from a face and how many name a renamed module."""
    ctx = Context(modules, the_plan)
    by_path = {m.path: m for m in modules.values()}
    out: dict[Path, str] = {}
    faced = renamed = 0
    for path in files_to_rewrite():
        old = path.read_text(encoding="utf-8")
        text = old
        module = by_path.get(path)
        if path.suffix == ".py":
            if (
                module is not None
                and module.is_package
                and module.name in the_plan.faces
                and module.name not in the_plan.frozen
            ):
                text = rewrite_init(module, the_plan.faces[module.name], the_plan.renames)
            text, through_face, of_renamed = rewrite_imports(text, path, ctx)
            faced += through_face
            renamed += of_renamed
        if path.suffix == ".md":
            text = face_references(text, ctx)
        elif module is not None:
            text = docstring_references(text, ctx)
        text = rename_references(text, the_plan.renames)
        target = new_path(path, the_plan.renames)
        if path.suffix == ".py" and text != old:
            text = ruff(text, target)
        if text != old or target != path:
            out[target] = text
    return out, faced, renamed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if needed")
    parser.add_argument(
        "--print-faces",
        action="store_true",
        help="print each face's names as tests/test_exported_members_faces.py lists them",
    )
    args = parser.parse_args(argv)
    modules = read_modules()
    the_plan = plan(modules)
    if args.print_faces:
        for package, face in sorted(the_plan.faces.items()):
            listed = ", ".join(f'"{name}"' for name in sorted(face))
            print(f'    "{package}": [{listed}],')
        return 0
    new_files, faced, renamed = changes(modules, the_plan)

    for package, why in sorted(the_plan.frozen.items()):
        print(f"face left as it is: {package}: {why}")
    for line in the_plan.left_deep:
        print(f"left deep: {line}")
    for package, names in sorted(the_plan.added.items()):
        if names and package not in the_plan.frozen:
            print(f"face of {package} gains: {', '.join(sorted(names))}")
    for old, new in the_plan.renames.items():
        print(f"private: {old} -> {new}")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for old in the_plan.renames:
        if re.search(rf"\b{re.escape(old)}\b", readme):
            print(f"README.md still names {old} (not rewritten)")
    changed = sorted(str(p.relative_to(ROOT)) for p in new_files)
    for name in changed:
        print(f"rewrites {name}")
    print(
        f"{len(the_plan.renames)} modules made private, {faced} imports rewritten through a "
        f"face, {renamed} imports of a renamed module, {len(changed)} files changed"
    )
    if args.check:
        return 1 if new_files or the_plan.renames else 0
    for old in the_plan.renames:
        old_path = modules[old].path
        subprocess.run(
            ["git", "mv", str(old_path), str(new_path(old_path, the_plan.renames))],
            check=True,
            cwd=ROOT,
        )
    for path, text in new_files.items():
        path.write_text(text, encoding="utf-8")
    # Once the renamed files exist, ruff sorts their imports as first-party modules.
    python_files = sorted(str(p.relative_to(ROOT)) for p in new_files if p.suffix == ".py")
    ruff_bin = str(Path(sys.executable).with_name("ruff"))
    if python_files:
        subprocess.run(
            [ruff_bin, "check", "--fix-only", "--quiet", "--select", "I001,RUF022", *python_files],
            check=True,
            cwd=ROOT,
        )
        subprocess.run([ruff_bin, "format", "--quiet", *python_files], check=True, cwd=ROOT)
    return 0


if __name__ == "__main__":
    sys.exit(main())
