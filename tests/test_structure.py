"""The package layout: the engine imports no game, and no import circle spans two folders (issue 30)."""

from __future__ import annotations

import ast
import subprocess
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "kiev_tui"


def test_the_engine_names_no_game_package() -> None:
    """`grep -rn "kiev_tui.games" kiev_tui/engine` prints nothing (the '.' matches any character)."""
    found = subprocess.run(["grep", "-rnI", "kiev_tui.games", "kiev_tui/engine"], cwd=ROOT,
                           capture_output=True, text=True)
    assert found.stdout == ""
    assert found.returncode == 1  # grep's "nothing found", not an error


def module_files(root: Path, package: str) -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name, for its __init__)."""
    out: dict[str, Path] = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _runtime_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement run at some time (module level or inside a function), but not
    those under ``if TYPE_CHECKING:``, which never run."""
    found: list[ast.Import | ast.ImportFrom] = []
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            todo.extend(node.orelse)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        todo.extend(ast.iter_child_nodes(node))
    return found


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package's own modules this module imports; ``from p import x`` counts as p.x when x
    is a module, else as p.  Relative imports are resolved from the module's package."""
    is_package = path.name == "__init__.py"
    here = name if is_package else name.rpartition(".")[0]
    out: set[str] = set()
    for node in _runtime_imports(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        else:
            base = node.module or ""
            if node.level:
                anchor = here.split(".")
                anchor = anchor[:len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
        for target in targets:
            while target and target not in modules:  # `import a.b.c` of a name inside a module
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


def import_graph(root: Path = ROOT, package: str = PACKAGE) -> dict[str, set[str]]:
    modules = module_files(root, package)
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def folder(module: str, graph: dict[str, set[str]], packages: set[str]) -> str:
    """The folder a module's file lies in (a package's __init__ lies in the package's folder)."""
    return module if module in packages else module.rpartition(".")[0]


def _components(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        top = stack.pop()
                        on.discard(top)
                        comp.append(top)
                        if top == node:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return sorted(out)


def _path(graph: dict[str, set[str]], start: str, goal: str, within: set[str]) -> list[str]:
    """A shortest import chain start -> ... -> goal inside one component."""
    before: dict[str, str] = {}
    queue = deque([start])
    seen = {start}
    while queue:
        node = queue.popleft()
        if node == goal:
            chain = [goal]
            while chain[-1] != start:
                chain.append(before[chain[-1]])
            return chain[::-1]
        for child in sorted(graph[node] & within):
            if child not in seen:
                seen.add(child)
                before[child] = node
                queue.append(child)
    raise AssertionError(f"{goal} is not reachable from {start}")  # a component is strongly connected


def cross_folder_cycles(graph: dict[str, set[str]]) -> list[str]:
    """Every import circle through an import between two folders, as 'a -> b -> a': for each such
    import inside a strongly connected component, the shortest chain back (each circle once)."""
    packages = {m for m in graph if any(other.startswith(m + ".") for other in graph)}
    found: list[str] = []
    seen: set[frozenset[str]] = set()
    for comp in _components(graph):
        members = set(comp)
        for src in comp:
            for dst in sorted(graph[src] & members):
                if folder(src, graph, packages) == folder(dst, graph, packages):
                    continue
                chain = [src] + _path(graph, dst, src, members)
                if frozenset(chain) not in seen:
                    seen.add(frozenset(chain))
                    found.append(" -> ".join(chain))
    return found


def test_no_import_circle_spans_two_folders() -> None:
    cycles = cross_folder_cycles(import_graph())
    assert cycles == [], "import circles across folders:\n  " + "\n  ".join(cycles)


def test_the_graph_sees_function_level_and_relative_imports(tmp_path: Path) -> None:
    """The check itself: a circle closed by an import inside a function is reported, with the
    chain; one closed only under TYPE_CHECKING is not; one within a folder is not."""
    pkg = tmp_path / "pkg"
    (pkg / "a").mkdir(parents=True)
    (pkg / "b").mkdir()
    for init in (pkg, pkg / "a", pkg / "b"):
        (init / "__init__.py").write_text("")
    (pkg / "a" / "one.py").write_text("from pkg.b import two\n")
    (pkg / "b" / "two.py").write_text("def f():\n    from ..a import one\n")
    (pkg / "b" / "three.py").write_text("from typing import TYPE_CHECKING\nfrom pkg.a import one\n"
                                        "if TYPE_CHECKING:\n    from pkg.b import three\n")
    (pkg / "b" / "four.py").write_text("import pkg.b.five\n")
    (pkg / "b" / "five.py").write_text("from pkg.b import four\n")
    graph = import_graph(tmp_path, "pkg")
    assert graph["pkg.a.one"] == {"pkg.b.two"}
    assert graph["pkg.b.two"] == {"pkg.a.one"}
    assert graph["pkg.b.three"] == {"pkg.a.one"}
    assert cross_folder_cycles(graph) == ["pkg.a.one -> pkg.b.two -> pkg.a.one"]


def test_kievs_rule_system_is_in_no_import_circle() -> None:
    """system.py -> handlers.py -> the action modules, which use changes.py, never system.py (the
    circle through system.HANDLERS that issue 30 names)."""
    graph = import_graph()
    kiev = "kiev_tui.games.spi_kiev"
    assert [c for c in _components(graph) if f"{kiev}.system" in c or f"{kiev}.handlers" in c] == []
    assert f"{kiev}.handlers" in graph[f"{kiev}.system"]
    assert [m for m in graph if f"{kiev}.system" in graph[m]] == []  # the registry names it by path only


def test_no_module_adds_a_handler_by_import() -> None:
    """Kiev's action table is built in one place (handlers.py); no module assigns into it."""
    found = subprocess.run(["grep", "-rnIE", r"HANDLERS\[[^]]*\] *=", "kiev_tui"], cwd=ROOT,
                           capture_output=True, text=True)
    assert found.stdout == ""
    assert found.returncode == 1
