"""No import circles between the project's modules (function-level imports included): a
circle hides the path of a call and breaks as soon as an import moves to the top of a file.
Imports under ``TYPE_CHECKING`` are left out (they never run)."""

from __future__ import annotations

import sys

import grimp

PACKAGES = ("games", "config", "accounts", "social", "live", "web")


def cycles(graph) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in graph.find_modules_directly_imported_by(module):
            if imported not in graph.modules:
                continue
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        for module in sorted(graph.modules):
            if module not in index:
                visit(module)
    finally:
        sys.setrecursionlimit(limit)
    return found


def test_no_module_imports_itself_in_a_circle():
    graph = grimp.build_graph(*PACKAGES, exclude_type_checking_imports=True)
    assert cycles(graph) == []


def test_the_check_sees_a_circle():
    graph = grimp.ImportGraph()
    for module in ("a", "a.one", "a.two", "a.three"):
        graph.add_module(module)
    graph.add_import(importer="a.one", imported="a.two")
    graph.add_import(importer="a.two", imported="a.one")
    graph.add_import(importer="a.two", imported="a.three")
    assert cycles(graph) == [["a.one", "a.two"]]
