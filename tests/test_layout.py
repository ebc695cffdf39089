"""The house rules of polyfit's layout, checked on the source itself.

Data flows one way: shape -> placements -> exact cover -> backend -> solutions -> output. Each
package sits in a layer and imports only from lower layers (or from itself), so a newcomer can
read the pipeline from the file names, and nothing deep in it depends on the command line.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "polyfit"

# Lowest first. A module may import modules of its own room and of rooms in lower layers; the
# rooms of the first layer (the basics) and of the last (the command line) may also import each
# other.
LAYERS = (
    ("errors", "fields", "files", "hookspecs", "limits", "records"),
    ("lattices", "xc"),
    ("dlx", "puzzle", "motion"),
    ("longsearch", "render"),
    ("formats",),
    ("registry", "plugins"),
    ("engine", "report"),
    ("api",),
    ("gallery", "atlases", "design"),
    ("cli", "commands", "studio", "__init__", "__main__"),
)
# The faces: each parses, calls the library and shows what it says; none imports another.
FACES = ("commands", "studio")
LAYER = {room: k for k, rooms in enumerate(LAYERS) for room in rooms}


def modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        yield path, path.relative_to(PACKAGE).with_suffix("").parts


def room_of(parts) -> str:
    return parts[0]


@functools.cache
def imported(path: Path) -> tuple[tuple[str, ...], ...]:
    """The polyfit modules a file imports (at the top or inside functions), as tuples of name
    parts below ``polyfit``. Parsed once per test process: four tests read every module."""
    return tuple(_imports(path))


def _imports(path: Path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = node.module.split(".")
            if names[0] != "polyfit":
                continue
            if len(names) == 1:  # from polyfit import x: the package's API or a submodule
                for alias in node.names:
                    if alias.name == "__version__":
                        continue  # the version is a constant, not the API
                    sub = PACKAGE / alias.name
                    yield (alias.name,) if sub.is_dir() or sub.with_suffix(".py").exists() else ("__init__",)
            else:
                yield tuple(names[1:])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                names = alias.name.split(".")
                if names[0] == "polyfit":  # import polyfit: the package's API
                    yield tuple(names[1:]) if len(names) > 1 else ("__init__",)


def test_every_room_has_a_layer():
    rooms = {room_of(parts) for _, parts in modules()}
    assert rooms <= set(LAYER), sorted(rooms - set(LAYER))


def test_no_module_imports_from_a_room_above_it():
    wrong = []
    for path, parts in modules():
        here = room_of(parts)
        for target in imported(path):
            there = room_of(target)
            shared = LAYER[there] == LAYER[here] in (0, len(LAYERS) - 1)
            if there != here and LAYER[there] >= LAYER[here] and not shared:
                wrong.append(f"{'/'.join(parts)} imports {'.'.join(target)}")
    assert not wrong, "\n".join(wrong)


def test_no_face_imports_another():
    wrong = []
    for path, parts in modules():
        here = room_of(parts)
        for target in imported(path):
            there = room_of(target)
            if here != there and {here, there} <= set(FACES):
                wrong.append(f"{'/'.join(parts)} imports {'.'.join(target)}")
    assert not wrong, "\n".join(wrong)


def test_no_import_cycles():
    # Every import counts, those inside functions too: a circle there is a circle still (it
    # only waits for its first call to show).
    graph = {}
    for path, parts in modules():
        name = parts[:-1] if parts[-1] == "__init__" else parts
        graph[name] = set(imported(path))

    def resolve(target):
        if target in graph:
            return target
        if PACKAGE.joinpath(*target).with_suffix(".c").exists():
            return None  # a C extension imports nothing of polyfit
        return target[:-1]  # from polyfit.x import name

    state: dict = {}

    def visit(node, stack):
        state[node] = "open"
        for target in graph.get(node, ()):
            target = resolve(target)
            if target is None:
                continue
            if state.get(target) == "open":
                cycle = stack[stack.index(target):] + [target]
                raise AssertionError("import cycle: " + " -> ".join(".".join(c) or "polyfit" for c in cycle))
            if target not in state:
                visit(target, stack + [target])
        state[node] = "done"

    for node in graph:
        if node not in state:
            visit(node, [node])


def test_the_root_holds_few_modules():
    root = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(root) <= 15, root


def test_commands_only_parse_and_print():
    """Commands call the library; they do not build puzzles' internals themselves."""
    for path in (PACKAGE / "commands").glob("*.py"):
        for target in imported(path):
            assert room_of(target) not in ("dlx", "lattices"), f"{path.name} imports {'.'.join(target)}"


def test_no_test_module_imports_another():
    """Shared test code lives in conftest.py fixtures or tests/helpers.py, the one helper module."""
    tests = PACKAGE.parent / "tests"
    local = {p.stem for p in tests.glob("*.py")}
    for path in tests.glob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module.split(".")[0]]
            elif isinstance(node, ast.Import):
                names = [a.name.split(".")[0] for a in node.names]
            for name in names:
                assert name not in local or name == "helpers", f"{path.name} imports {name}"
