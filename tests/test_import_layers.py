"""The house drawn from its imports (issue 25): no circle between modules and no arrow pointing up the layers
core <- games (sfb, fc, armada) <- sim <- front ends (cli, web, envs). Module-level and function-level imports
both count: an import hidden inside a function is still an arrow. Imports under ``if TYPE_CHECKING:`` are left
out: they name types for annotations and never run."""
from __future__ import annotations

import ast
from pathlib import Path

import paperrobot

ROOT = Path(paperrobot.__file__).parent
LAYERS = {"_native": 0, "_version": 0, "core": 0, "sfb": 1, "fc": 1, "armada": 1, "sim": 2, "cli": 3, "web": 3, "envs": 3}
GAMES = {"sfb", "fc", "armada"}
ALLOWED_UP = {
    # handled elsewhere (issue 25, the "search2" helper): core/players.py names sim's search player
    ("paperrobot.core.players", "paperrobot.sim.search"),
    # the program's own start: cli/__init__ puts in the Ctrl-C handler before anything slow is imported (only
    # when the running program is paperrobot itself); it uses nothing of the front end
    ("paperrobot", "paperrobot.cli"),
}


def _modules() -> dict[str, Path]:
    found = {}
    for path in ROOT.rglob("*.py"):
        parts = ("paperrobot",) + path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _walk(tree: ast.AST):
    """Every node but those under ``if TYPE_CHECKING:`` (names for annotations only, never run)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                todo.extend(child.orelse)
            else:
                todo.append(child)


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        edges = graph.setdefault(name, set())
        for node in _walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[:len(base) - node.level + 1]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                targets = [f"{source}.{alias.name}" if f"{source}.{alias.name}" in modules else source
                           for alias in node.names]
            elif (isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) ==
                  "import_module" and node.args and isinstance(node.args[0], ast.Constant)):
                targets = [node.args[0].value]  # a literal import_module("paperrobot.x") is an import too
            else:
                continue
            for target in targets:
                while target and target not in modules:  # "paperrobot.core.dice.Dice" -> the module
                    target = target.rpartition(".")[0]
                if target.startswith("paperrobot") and target != name:
                    edges.add(target)
    return graph


def _layer(module: str) -> tuple[float, str]:
    parts = module.split(".")
    if len(parts) == 1:
        return 1.5, "paperrobot"  # the top package, the public API: above the games it loads, below sim
    return LAYERS[parts[1]], parts[1]


def test_no_import_points_up_the_layers():
    wrong = []
    for source, targets in _graph().items():
        (low, area) = _layer(source)
        for target in targets:
            (high, other) = _layer(target)
            if (source, target) in ALLOWED_UP:
                continue
            if high > low or (low == high == 1 and area != other):  # up, or one game importing another
                wrong.append(f"{source} -> {target}")
    assert not wrong, "imports pointing up (or game to game):\n" + "\n".join(sorted(wrong))


def test_no_circle_between_modules():
    graph = _graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles = []
    counter = [0]

    def visit(node: str) -> None:  # Tarjan's strongly connected components
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    assert not circles, "import circles:\n" + "\n".join(", ".join(c) for c in circles)
