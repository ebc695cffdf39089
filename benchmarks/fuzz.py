"""Fuzzing polyfit's readers through its command line: mutated inputs, each run in a fork.

Every reader is fed mutations of valid files (boards, voxel text, pieces files, MagicaVoxel,
BurrTools .xmpuzzle (plain and gzip), the Soma notations (Bundgaard's, yass), DLX, and the JSON files polyfit writes for itself: checkpoints, job files, job results, saved
solutions). Each input runs the real CLI entry point in a forked child with a CPU-time, wall-time and memory
cap, and must end in exit 0 or in one line ``polyfit: error: ...`` with exit 2: never a
traceback, a signal or a hang.

Three kinds go further:

- ``look-alike``: a board counted with a checkpoint (or split into job files and run) is
  changed (pre-placed pieces to holes and back, cells made optional, its name, any mutation),
  and the count is resumed (or merged) on the changed board. It must be refused, or print
  exactly the counts of a fresh count of the changed board: anything else is a ``wrong-count``.
- ``long option``: exact cover problems with an option of tens of thousands of items (reading
  them was quadratic); each must end within the time cap like any input.
- ``long name``: file names longer than the system allows (and with NUL bytes, deep folders,
  odd characters), given to every command that reads or writes a file.
- ``huge box``: gzipped BurrTools files of a few kilobytes declaring boxes of up to ten
  million voxels (one took minutes and gigabytes before its error): each must end within the
  caps like any input.
- ``separations``: BurrTools files with ``<separation>`` trees (written by ``polyfit convert
  --disassemble``), read by the library's ``read_separations`` (no command reads them yet)
  through the same error handling as the command line: each must end in trees whose levels
  print, or in one error line.

The tests run a short campaign (tests/test_fuzz.py); a long one runs from the shell::

    python benchmarks/fuzz.py --inputs 10000 [--seed S] [--kinds look-alike,"long option"]
"""

from __future__ import annotations

import json
import os
import random
import resource
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SECONDS = 20  # CPU seconds per input: far more than any of these inputs needs
WALL_SECONDS = 300  # and wall-clock seconds, for an input that waits on nothing forever
MEMORY = 3 * 1024**3  # bytes of address space per input
UNICODE_DIGITS = ["²", "٣", "５", "߄", "𝟘", "Ⅻ", "½"]
HUGE_NUMBERS = ["2147483648", "4294967296", "99999999999999999999", "-1", "0", "1e9", "600000000"]


@dataclass
class Seed:
    kind: str  # what reads it
    name: str  # file name (the suffix chooses the reader)
    data: bytes
    args: list  # the command line, with {} for the input file
    saved: Path | None = None  # look-alike: the checkpoint or job directory of the original


@dataclass
class Outcome:
    kind: str
    mutation: str
    result: str  # ok, error, traceback, signal, hang, bad-exit, not-one-line, wrong-count
    detail: str = ""


@dataclass
class Report:
    outcomes: list = field(default_factory=list)

    def counts(self) -> Counter:
        return Counter(o.result for o in self.outcomes)

    def failures(self) -> list:
        return [o for o in self.outcomes if o.result not in ("ok", "error")]

    def table(self) -> str:
        kinds = sorted({o.kind for o in self.outcomes})
        results = ["ok", "error", "traceback", "signal", "hang", "bad-exit", "not-one-line", "wrong-count"]
        lines = ["| input | tried | " + " | ".join(results) + " |", "| --- " * (len(results) + 2) + "|"]
        for kind in kinds:
            mine = Counter(o.result for o in self.outcomes if o.kind == kind)
            lines.append(f"| {kind} | {sum(mine.values())} | " + " | ".join(str(mine[r]) for r in results) + " |")
        return "\n".join(lines)


# -- seeds ----------------------------------------------------------------------------------


def _polyfit(*args, cwd):
    return subprocess.run([sys.executable, "-m", "polyfit", *args], cwd=cwd, capture_output=True, timeout=300)


def make_seeds(work: Path, kinds=None) -> list[Seed]:
    """Valid inputs of every kind (or of ``kinds``), written by hand or by polyfit itself."""
    shapes = ROOT / "shapes"
    seeds = [
        Seed("board", "b.txt", (shapes / "pentomino" / "3x20.txt").read_bytes(), ["export-dlx", "{}"]),
        Seed("board", "b.txt", (shapes / "pentomino" / "scott.txt").read_bytes(), ["export-dlx", "{}", "--pieces", "pentominoes,tetrominoes:O"]),
        Seed("board", "b.txt", b"; pieces: 0..2*trominoes\n###+\n#A##\n#AA#\n", ["solve", "{}", "--limit", "2"]),
        Seed("board", "b.txt", b"; pieces: 0..4*trominoes,0..2*domino\n; max-holes: 2\n+##+\n####\n####\n+##+\n", ["solve", "{}", "--count"]),
        Seed("board", "b.txt", (shapes / "polyiamond" / "parallelogram-4x9.txt").read_bytes(), ["export-dlx", "{}"]),
        Seed("board", "b.txt", (shapes / "polyhex" / "tetrahexes-4x7-bee.txt").read_bytes(), ["solve", "{}", "--limit", "2"]),
        Seed("voxel text", "b.vox", (shapes / "soma" / "castle.vox").read_bytes(), ["solve", "{}", "--limit", "1"]),
        Seed("voxel text", "b.vox", (shapes / "soma" / "cube.vox").read_bytes(), ["export-dlx", "{}"]),
        Seed("pieces file", "p.pieces.txt", b"; mirror: yes\n; count A: 2\nAAB\n.CB\nCCB\n", ["export-dlx", str(shapes / "pentomino" / "3x20.txt"), "--pieces", "{}"]),
        Seed("pieces file", "p.pieces.txt", b"; lattice: hex\na a b\n a b b\n  c c c c\n", ["export-dlx", str(shapes / "polyhex" / "tetrahexes-4x7.txt"), "--pieces", "{}"]),
        Seed("pieces file", "p.pieces.vox", (shapes / "bricks" / "conway.pieces.vox").read_bytes(), ["export-dlx", str(shapes / "bricks" / "cube5.vox"), "--pieces", "{}"]),
        Seed("piece spec", "spec", b"2*tetrominoes,pentominoes:F=0..2", ["export-dlx", str(shapes / "pentomino" / "3x20.txt"), "--pieces", "@{}"]),
        Seed("dlx", "p.dlx", b"| a simple problem\nA B C | x y\nA B x:1\nC y\nA x:2\nB C\nB y\n", ["xc", "{}", "--count"]),
        Seed("dlx", "p.dlx", b"2:3|A B C\nA B\nB C\nA C\nA\nC\n", ["xc", "{}", "--count"]),
    ]
    from polyfit.formats.magicavoxel import write_magicavoxel

    cube = [(z, r, c) for z in range(3) for r in range(3) for c in range(3)]
    seeds.append(Seed("magicavoxel", "m.vox", write_magicavoxel(cube, 200), ["export-dlx", "{}", "--pieces", "soma"]))
    seeds.append(Seed("magicavoxel", "m.vox", write_magicavoxel(cube[:9], 150), ["export-dlx", "{}", "--pieces", "trominoes"]))
    import gzip

    burr = ROOT / "tests" / "data" / "burrtools"
    seeds.append(Seed("xmpuzzle", "p.xmpuzzle", (burr / "optional.xmpuzzle").read_bytes(), ["solve", "{}", "--count"]))
    soma = (shapes / "burrtools" / "soma.xmpuzzle").read_bytes()
    seeds.append(Seed("xmpuzzle", "p.xmpuzzle", gzip.compress(soma, mtime=0), ["solve", "{}", "--problem", "2", "--count"]))
    seeds.append(Seed("xmpuzzle", "p.xmpuzzle", soma, ["convert", "{}", "{dir}/out.txt", "--problem", "Castle"]))
    seeds.append(Seed("xmpuzzle", "p.xmpuzzle", (burr / "coloured-soma.xmpuzzle").read_bytes(), ["solve", "{}", "--count"]))
    holes = ROOT / "benchmarks" / "data" / "burrtools" / "max-holes.xmpuzzle"  # maxHoles
    seeds.append(Seed("xmpuzzle", "p.xmpuzzle", gzip.decompress(holes.read_bytes()), ["solve", "{}", "--count"]))
    # BurrTools' other grids: prisms (with assemblies, and taken apart), spheres, rhombic, tetra-octa
    seeds.append(Seed("xmpuzzle", "p.xmpuzzle", (burr / "prisms" / "tower-solved-by-burrtools.xmpuzzle").read_bytes(),
                      ["solve", "{}", "--count"]))
    seeds.append(Seed("xmpuzzle", "p.xmpuzzle", (burr / "prisms" / "disassembly" / "box-2.xmpuzzle").read_bytes(),
                      ["solve", "{}", "--count", "--disassemble", "--jobs", "1"]))
    seeds.append(Seed("xmpuzzle", "p.xmpuzzle", (burr / "spheres" / "box-tetraspheres-solved-by-burrtools.xmpuzzle").read_bytes(),
                      ["solve", "{}", "--limit", "2"]))
    seeds.append(Seed("xmpuzzle", "p.xmpuzzle", (burr / "finegrids" / "rd-octahedral-six-solved-by-burrtools.xmpuzzle").read_bytes(),
                      ["solve", "{}", "--count"]))
    seeds.append(Seed("xmpuzzle", "p.xmpuzzle", (burr / "finegrids" / "to-octahedron.xmpuzzle").read_bytes(),
                      ["convert", "{}", "{dir}/out.xmpuzzle", "--force"]))
    # flat pieces turned in their plane (transformations 24 to 119), and colours on the other grids
    seeds.append(Seed("xmpuzzle", "p.xmpuzzle", (burr / "spheres" / "flat-rhombus-four-by-four.xmpuzzle").read_bytes(),
                      ["convert", "{}", "{dir}/out.xmpuzzle", "--force"]))
    seeds.append(Seed("xmpuzzle", "p.xmpuzzle", (burr / "prisms" / "box-6-coloured.xmpuzzle").read_bytes(),
                      ["solve", "{}", "--count", "--disassemble", "--jobs", "1"]))
    seeds.append(Seed("xmpuzzle", "p.xmpuzzle", (burr / "spheres" / "flat-rhombus-four-by-four-coloured.xmpuzzle").read_bytes(),
                      ["solve", "{}", "--count"]))
    seeds.append(Seed("xmpuzzle", "p.xmpuzzle", (burr / "finegrids" / "to-cube-threes-coloured.xmpuzzle").read_bytes(),
                      ["convert", "{}", "{dir}/out.xmpuzzle", "--force"]))
    seeds.append(Seed("bundgaard", "f.std", (shapes / "soma" / "figures.std").read_bytes(), ["solve", "{}", "--figure", "2", "--count"]))
    seeds.append(Seed("bundgaard", "f.txt", (shapes / "soma" / "figures.std").read_bytes(), ["solve", "{}", "--list"]))
    seeds.append(Seed("yass", "f.soma", (shapes / "soma" / "cube-t-placed.soma").read_bytes(), ["solve", "{}", "--limit", "1"]))
    # Files polyfit writes for itself.
    board = work / "3x20.txt"
    board.write_bytes((shapes / "pentomino" / "3x20.txt").read_bytes())
    _polyfit("solve", str(board), "--count", "--checkpoint", str(work / "c.ckpt"), "--jobs", "1", cwd=work)
    seeds.append(Seed("checkpoint", "c.ckpt", (work / "c.ckpt").read_bytes(), ["solve", str(board), "--count", "--resume", "{}", "--jobs", "1"]))
    _polyfit("split", str(board), "--depth", "1", "--out", str(work / "jobs"), cwd=work)
    job = sorted((work / "jobs").glob("job-*.json"))[0]
    seeds.append(Seed("job file", "job-00.json", job.read_bytes(), ["run-job", "{}"]))
    for path in sorted((work / "jobs").glob("job-*.json")):
        _polyfit("run-job", str(path), cwd=work)
    results = sorted((work / "jobs").glob("result-*.json"))
    seeds.append(Seed("job result", results[0].name, results[0].read_bytes(), ["merge", "{dir}"]))
    _polyfit("solve", str(board), "--limit", "2", "-o", str(work / "s.json"), cwd=work)
    seeds.append(Seed("solutions", "s.json", (work / "s.json").read_bytes(), ["render", "{}", "--png", "{dir}/out.png", "--force"]))
    if kinds is None or "look-alike" in kinds:
        seeds += look_alike_seeds(work)
    seeds += long_option_seeds()
    seeds += long_name_seeds()
    seeds += huge_box_seeds()
    seeds += separation_seeds(work)
    return seeds if kinds is None else [s for s in seeds if s.kind in kinds]


# Boards whose look-alikes share their exact cover problem: pre-placed dominoes and holes
# (a count range, so the dominoes left are the same either way), mirror-placed; and optional
# cells, some of which a look-alike's max-holes line makes required.
LOOK_ALIKES = [
    b"; pieces: 0..99*domino\nDD..DD\n######\n######\n######\n",
    b"; pieces: 0..99*domino\nD....D\nD....D\n######\n######\n######\n",
    b"; pieces: 0..99*domino\n.D..D.\n.D..D.\n######\n######\n######\n######\n",
    b"; pieces: 0..99*domino,trominoes:I=0..9\n##I#\n##I#\n##I#\n####\n####\n",
    b"; pieces: 0..99*domino,trominoes:I=0..9\n+##+\n####\n####\n+##+\n",  # max-holes changes its answer
]
LOOK_ALIKE_COUNT = ["solve", "{}", "--count", "--json", "--jobs", "1", "--depth", "2", "--backend", "dlx-c"]


def look_alike_seeds(work: Path) -> list[Seed]:
    """Each look-alike board, counted with a checkpoint and split into job files (all run)."""
    seeds = []
    for k, text in enumerate(LOOK_ALIKES):
        folder = work / f"look-alike-{k}"
        folder.mkdir()
        board = folder / "board.txt"
        board.write_bytes(text)
        count = [a.replace("{}", str(board)) for a in LOOK_ALIKE_COUNT]
        _polyfit(*count, "--checkpoint", str(folder / "c.ckpt"), cwd=folder)
        seeds.append(Seed("look-alike", "board.txt", text, ["resume"], folder / "c.ckpt"))
        _polyfit("split", str(board), "--depth", "2", "--out", str(folder / "jobs"), cwd=folder)
        for path in sorted((folder / "jobs").glob("job-*.json")):
            _polyfit("run-job", str(path), cwd=folder)
        seeds.append(Seed("look-alike", "board.txt", text, ["merge"], folder / "jobs"))
    return seeds


def separation_seeds(work: Path) -> list[Seed]:
    """Two files with disassembly trees: a box with a lid (a tree per solution) and a
    six-piece burr (deeper trees)."""
    seeds = []
    data = ROOT / "tests" / "data" / "disassembly"
    for name, solutions in (("lid-3", "3"), ("burr-5", "1")):
        target = work / f"{name}-trees.xmpuzzle"
        _polyfit("convert", str(data / f"{name}.xmpuzzle"), str(target), "--solutions", solutions, "--disassemble", cwd=work)
        import gzip  # mutated as plain XML, which the reader takes too

        seeds.append(Seed("separations", "t.xmpuzzle", gzip.decompress(target.read_bytes()), [READ_SEPARATIONS, "{}"]))
    return seeds


READ_SEPARATIONS = "@read_separations"  # a library call, not a command


def read_separations_call(args) -> int:
    """The library's tree reader on ``args[1]``: every tree's level and moves printed; a
    library error as the command line reports one."""
    from polyfit.errors import PolyfitError, error_line
    from polyfit.formats.burrtools import read_separations

    try:
        for text, tree in read_separations(args[1]):
            print(len(text.split()), "-" if tree is None else f"{tree.level()} {tree.total()}")
    except PolyfitError as exc:
        print(error_line(exc), file=sys.stderr)
        return 2
    return 0


def _box_xml(sizes: tuple[int, int, int], voxels: str) -> bytes:
    """A box to fill with one domino: read, then refused (a count of domino tilings of a big
    box would be a real search without end, not a reader's fault)."""
    x, y, z = sizes
    return (
        '<?xml version="1.0"?>\n<puzzle version="2"><gridType type="0"/><colors/><shapes>\n'
        '<voxel x="2" y="1" z="1" type="0" name="domino">##</voxel>\n'
        f'<voxel x="{x}" y="{y}" z="{z}" type="0" name="box">{voxels}</voxel>\n</shapes>\n'
        '<problems><problem name="box"><shapes><shape id="0" count="1"/></shapes>'
        '<result id="1"/><bitmap/></problem></problems><comment/></puzzle>\n'
    ).encode()


def huge_box_seeds() -> list[Seed]:
    """BurrTools files declaring huge boxes (written gzipped: kilobytes for millions of voxels):
    under the limit on cells, just over it, far over it, and sizes with a short voxel string."""
    seeds = []
    for side in (60, 101, 215):
        data = _box_xml((side, side, side), "#" * side**3)
        seeds.append(Seed("huge box", "box.xmpuzzle", data, ["solve", "{}", "--count"]))
    seeds.append(Seed("huge box", "box.xmpuzzle", _box_xml((10_000, 10_000, 10_000), "#" * 1000), ["check", "{}"]))
    seeds.append(Seed("huge box", "box.xmpuzzle", _box_xml((1, 10_000, 1000), "_#" * 1000), ["solve", "{}", "--count"]))
    return seeds


def long_option_seeds() -> list[Seed]:
    """Problems with one option of many items (plus a short one), read by ``xc``."""
    seeds = []
    for n in (20_000, 50_000):
        names = [f"i{k}" for k in range(n)]
        text = " ".join(names) + " | s\n" + " ".join(reversed(names)) + "\n" + " ".join(names[:3]) + " s\n"
        seeds.append(Seed("long option", "long.dlx", text.encode(), ["xc", "{}", "--count"]))
    return seeds


# Commands given a name too long for the system, with {} for it (a name in the input folder).
LONG_NAME_COMMANDS = [
    ["solve", "{}.txt"],
    ["solve", "{}/board.txt"],
    ["check", "{}.vox"],
    ["solve", "{board}", "--output", "{}.json"],
    ["solve", "{board}", "--limit", "1", "--png", "{}.png"],
    ["solve", "{board}", "--count", "--checkpoint", "{}"],
    ["solve", "{board}", "--count", "--resume", "{}"],
    ["split", "{board}", "--out", "{}"],
    ["run-job", "{}.json"],
    ["merge", "{}"],
    ["render", "{}.json", "--png", "{dir}/out.png"],
    ["xc", "{}.dlx"],
    ["export-dlx", "{board}", "--output", "{}.dlx"],
    ["convert", "{board}", "{}.txt"],
    ["solve", "{board}", "--pieces", "{}.pieces.txt"],
    ["kit", "{}.pieces.txt", "--stl", "{dir}"],
    ["check", "{board}", "--png", "{}.png"],
    ["generate", "--pieces", "pentominoes", "--within", "6x10", "-o", "{}", "--time", "1"],
    ["gallery", "--shapes", "{}"],
]


def long_name_seeds() -> list[Seed]:
    board = str(ROOT / "shapes" / "pentomino" / "3x20.txt")
    return [
        Seed("long name", "", b"a" * 300, [a.replace("{board}", board) for a in command])
        for command in LONG_NAME_COMMANDS
    ]


# -- mutations ------------------------------------------------------------------------------


def _json_mutation(data: bytes, rng: random.Random) -> bytes:
    value = json.loads(data)
    paths = []

    def walk(node, path):
        paths.append(path)
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, path + [k])
        elif isinstance(node, list):
            for k, v in enumerate(node[:5]):
                walk(v, path + [k])

    walk(value, [])
    path = rng.choice(paths)
    replacements = [None, 1.5, -1, 10**20, "x", [], {}, True, "²", 2**31, 0]
    if not path:
        return json.dumps(rng.choice(replacements)).encode()
    parent = value
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    how = rng.randrange(3)
    if how == 0 and isinstance(parent, dict):
        del parent[key]
    elif how == 1 and isinstance(parent, dict):
        parent[str(rng.randrange(100))] = parent[key]  # a key more (an index, a job)
    else:
        parent[key] = rng.choice(replacements)
    return json.dumps(value).encode()


def look_alike(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    """A board that may share the original's exact cover problem but not its answer."""
    text = data.decode("utf-8", "surrogateescape")
    lines = text.split("\n")
    art = [k for k, line in enumerate(lines) if line and not line.startswith(";")]
    kind = rng.choice(["holes", "pre-placed", "optional", "name", "rows", "max-holes", "any"])
    if kind == "holes" and art:  # pre-placed pieces left out
        letter = rng.choice([c for c in "DI" if c in text] or ["D"])
        for k in art:
            lines[k] = lines[k].replace(letter, ".")
    elif kind == "pre-placed" and art:  # two holes or cells of a row drawn in as a domino
        k = rng.choice(art)
        lines[k] = lines[k].replace(rng.choice(["..", "##"]), "DD", 1)
    elif kind == "optional" and "#" in text:
        k = rng.choice([k for k in art if "#" in lines[k]])
        cells = [j for j, c in enumerate(lines[k]) if c == "#"]
        j = rng.choice(cells)
        lines[k] = lines[k][:j] + "+" + lines[k][j + 1:]
    elif kind == "name":
        lines.insert(0, f"; name: look-alike {rng.randrange(1000)}")
    elif kind == "max-holes":  # at most so many optional cells left empty
        lines = [line for line in lines if not line.startswith("; max-holes:")]
        lines.insert(0, f"; max-holes: {rng.randrange(4)}")
    elif kind == "rows" and art:  # upside down: the same shape, other cell names
        rows = [lines[k] for k in art]
        for k, row in zip(art, reversed(rows)):
            lines[k] = row
    else:
        return mutate(data, rng)
    return "\n".join(lines).encode("utf-8", "surrogateescape"), f"look-alike:{kind}"


def mutate(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    """One mutation of ``data`` and its name."""
    kinds = ["flip", "truncate", "unicode-digit", "huge-number", "insert", "duplicate-line", "drop-line"]
    if data[:1] in (b"{", b"["):
        kinds += ["json"] * 4
    kind = rng.choice(kinds)
    text = bytearray(data)
    if kind == "flip" and text:
        for _ in range(rng.randint(1, 3)):
            text[rng.randrange(len(text))] = rng.randrange(256)
    elif kind == "truncate":
        text = text[: rng.randrange(len(text) + 1)]
    elif kind in ("unicode-digit", "huge-number"):
        digits = [k for k, b in enumerate(text) if 48 <= b <= 57]
        if digits:
            k = rng.choice(digits)
            new = rng.choice(UNICODE_DIGITS if kind == "unicode-digit" else HUGE_NUMBERS).encode()
            end = k + 1
            while kind == "huge-number" and end < len(text) and 48 <= text[end] <= 57:
                end += 1
            text[k:end] = new
    elif kind == "insert":
        k = rng.randrange(len(text) + 1)
        text[k:k] = rng.choice([b"\xef\xbb\xbf", b"\x00", b"\r", b"\n\n", b":", b"|", b"..", b"*", b"=", b";", bytes(rng.randrange(256) for _ in range(4))])
    elif kind in ("duplicate-line", "drop-line"):
        lines = bytes(text).split(b"\n")
        k = rng.randrange(len(lines))
        if kind == "duplicate-line":
            lines.insert(k, lines[k])
        else:
            del lines[k]
        text = bytearray(b"\n".join(lines))
    elif kind == "json":
        try:
            return _json_mutation(bytes(data), rng), kind
        except (ValueError, RecursionError):
            kind = "flip"
    return bytes(text), kind


# -- running --------------------------------------------------------------------------------


def _child(app_runner, args, out_fd, err_fd, folder):
    os.dup2(out_fd, 1)
    os.dup2(err_fd, 2)
    # Python's own streams may point elsewhere (a test runner captures them): use fds 1 and 2.
    sys.stdout = open(1, "w", closefd=False)
    sys.stderr = open(2, "w", closefd=False)
    os.chdir(folder)
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    # CPU time, not the clock, says an input runs too long: on a loaded machine a slow clock
    # is not a hang.
    resource.setrlimit(resource.RLIMIT_CPU, (SECONDS, SECONDS + 5))
    signal.alarm(WALL_SECONDS)
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    code = 1
    try:
        code = app_runner(args)
    except BaseException:  # anything that escapes the CLI is a failure the parent sees as 99
        import traceback

        traceback.print_exc()
        code = 99
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code if isinstance(code, int) else 1)


def _run_child(app_runner, args: list, folder: Path, tag: str = "") -> tuple[int, str, str, float]:
    """Run the command line with ``args`` in a forked child in ``folder``: its wait status,
    stdout, stderr and seconds."""
    out_path, err_path = folder / f".{tag}stdout", folder / f".{tag}stderr"
    out = os.open(out_path, os.O_WRONLY | os.O_CREAT, 0o600)
    err = os.open(err_path, os.O_WRONLY | os.O_CREAT, 0o600)
    sys.stdout.flush()
    sys.stderr.flush()
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        _child(app_runner, args, out, err, folder)
    os.close(out)
    os.close(err)
    _, status = os.waitpid(pid, 0)
    return status, out_path.read_text(errors="replace"), err_path.read_text(errors="replace"), time.monotonic() - start


def _judge(seed: Seed, mutation: str, args: list, status: int, stderr: str, seconds: float) -> Outcome:
    """What an ending says: ok, one-line error, or one of the failures."""
    shown = " ".join(args)
    detail = f"{shown[:1000]}\n{stderr[-2000:]}"
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        result = "hang" if sig in (signal.SIGALRM, signal.SIGXCPU) else "signal"
        return Outcome(seed.kind, mutation, result, f"signal {sig} after {seconds:.1f} s: {detail}")
    code = os.WEXITSTATUS(status)
    if "Traceback" in stderr or code == 99:
        return Outcome(seed.kind, mutation, "traceback", detail)
    if code == 0:
        return Outcome(seed.kind, mutation, "ok")
    if code != 2:
        return Outcome(seed.kind, mutation, "bad-exit", f"exit {code}: {detail}")
    lines = [line for line in stderr.splitlines() if not line.startswith("polyfit: warning:")]
    if len(lines) != 1 or not lines[0].startswith("polyfit: error: "):
        return Outcome(seed.kind, mutation, "not-one-line", detail)
    return Outcome(seed.kind, mutation, "error")


def _prepare_look_alike(seed: Seed, data: bytes, folder: Path) -> list:
    """The changed board beside a copy of the original's checkpoint or job files; the command
    that goes on from them on the changed board."""
    import shutil

    board = folder / seed.name
    board.write_bytes(data)
    if seed.args == ["resume"]:
        shutil.copy(seed.saved, folder / "c.ckpt")
        return [a.replace("{}", str(board)) for a in LOOK_ALIKE_COUNT] + ["--resume", str(folder / "c.ckpt")]
    jobs = folder / "jobs"
    shutil.copytree(seed.saved, jobs)
    manifest = json.loads((jobs / "manifest.json").read_text())
    manifest["board"] = str(board)  # the board named by path, as on another machine
    (jobs / "manifest.json").write_text(json.dumps(manifest))
    return ["merge", str(jobs), "--json"]


COUNTED = ("distinct", "distinct_rotations", "total")


def _check_count(app_runner, seed: Seed, mutation: str, folder: Path, printed: str) -> Outcome:
    """A count printed on a look-alike board must be a fresh count's."""
    truth_args = [a.replace("{}", str(folder / seed.name)) for a in LOOK_ALIKE_COUNT]
    status, out, err, _ = _run_child(app_runner, truth_args, folder, "truth.")
    try:
        got = json.loads(printed)
        got = {k: got[k] for k in COUNTED}
    except (ValueError, KeyError, TypeError):
        return Outcome(seed.kind, mutation, "wrong-count", f"printed no counts: {printed[:500]}")
    if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
        return Outcome(seed.kind, mutation, "wrong-count", f"printed {got} for a board a fresh count refuses: {err[-500:]}")
    truth = json.loads(out)
    truth = {k: truth[k] for k in COUNTED}
    if got != truth:
        board = (folder / seed.name).read_text(errors="replace")
        return Outcome(seed.kind, mutation, "wrong-count", f"printed {got}, a fresh count {truth}; board:\n{board}")
    return Outcome(seed.kind, mutation, "ok")


def run_one(app_runner, seed: Seed, data: bytes, mutation: str, work: Path) -> Outcome:
    folder = Path(tempfile.mkdtemp(dir=work))
    target = None
    if seed.kind == "job result":
        # merge reads a directory: the seed's own directory of results, one of them mutated.
        jobs = work / "jobs"
        for path in jobs.iterdir():
            (folder / path.name).write_bytes(path.read_bytes())
        target = folder / seed.name
        target.write_bytes(data)
    elif seed.kind == "look-alike":
        args = _prepare_look_alike(seed, data, folder)
    elif seed.kind == "long name":
        # A name, not a file: any byte a command line can hold (all but NUL), undecodable
        # ones as Python gives them in sys.argv.
        target = str(folder) + "/" + data.replace(b"\x00", b"").decode("utf-8", "surrogateescape")
    elif seed.kind == "huge box":  # mutated as XML, read gzipped
        import gzip

        target = folder / seed.name
        target.write_bytes(gzip.compress(data, 6, mtime=0))
    elif seed.kind != "piece spec":
        target = folder / seed.name
        target.write_bytes(data)
    if seed.kind != "look-alike":
        args = []
        for arg in seed.args:
            if arg == "@{}":
                arg = data.decode("utf-8", "replace").replace("\x00", "")
            args.append(arg.replace("{dir}", str(folder)).replace("{}", str(target)))
    status, stdout, stderr, seconds = _run_child(app_runner, args, folder)
    outcome = _judge(seed, mutation, args, status, stderr, seconds)
    if seed.kind == "look-alike" and outcome.result == "ok":
        return _check_count(app_runner, seed, mutation, folder, stdout)
    return outcome


def campaign(inputs: int, seed: int = 0, work: Path | None = None, progress=None, kinds=None) -> Report:
    """Run ``inputs`` mutated inputs, spread over every seed (of ``kinds`` only, when given),
    and report their outcomes."""
    from polyfit.cli import build_app, run

    work = Path(work or tempfile.mkdtemp(prefix="polyfit-fuzz-"))
    seeds = make_seeds(work, kinds)
    unknown = set(kinds or ()) - {s.kind for s in seeds}
    if unknown:
        raise ValueError(f"no seeds of kind {', '.join(sorted(unknown))}")
    app = build_app()
    rng = random.Random(seed)
    report = Report()
    for k in range(inputs):
        chosen = seeds[k % len(seeds)]
        data, mutation = chosen.data, "none"
        change = look_alike if chosen.kind == "look-alike" else mutate
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            data, mutation = change(data, rng)
        runner = read_separations_call if chosen.args[0] == READ_SEPARATIONS else (lambda args: run(app, args))
        report.outcomes.append(run_one(runner, chosen, data, mutation, work))
        if progress is not None:
            progress(k + 1, report)
    return report


def main() -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--kinds", default=None, help="Only these kinds of input, comma-separated (default: all).")
    options = parser.parse_args()
    start = time.monotonic()

    def progress(done, report):
        if done % 500 == 0:
            print(f"{done} inputs, {time.monotonic() - start:.0f} s: {dict(report.counts())}", file=sys.stderr)

    kinds = options.kinds.split(",") if options.kinds else None
    report = campaign(options.inputs, options.seed, progress=progress, kinds=kinds)
    print(report.table())
    for failure in report.failures()[:20]:
        print(f"\n{failure.result} ({failure.kind}, {failure.mutation}):\n{failure.detail}")
    print(f"\n{len(report.outcomes)} inputs in {time.monotonic() - start:.0f} s: {dict(report.counts())}")
    return 1 if report.failures() else 0


if __name__ == "__main__":
    sys.exit(main())
