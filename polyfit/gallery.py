"""The gallery: every shape's first solution as a picture, piece-set sheets, and a README.

Everything written depends only on the shapes and polyfit itself (no dates, no timings), so
a rebuild diffs cleanly. Pictures are reduced to a small palette to keep the files small.

A rebuild replaces what an earlier gallery wrote (the files its README.md names); any other
file in the way is replaced only with ``force``, checked before the first search and again as
each file is written.
"""

from __future__ import annotations

import re
from pathlib import Path

from polyfit.errors import PolyfitError, plural
from polyfit.files import cannot, path_exists, path_is_dir, read_text, write_output_text
from polyfit.render.pictures import pieces_image, save_png, solution_image
from polyfit.render.style import EMPTY_CELL, Style
from polyfit.lattices.base import of as lattice_of
from polyfit.render.flat import draw_grid, draw_polygons
from polyfit.render.segments import draw_segments
from polyfit.render.views3d import draw_iso
from polyfit.api import Puzzle

SHAPE_SUFFIXES = (".txt", ".vox")
STYLE = Style(cell=24, margin=10)
STYLE_3D = Style(cell=28, margin=10)
PIECE_STYLE = Style(cell=20, margin=8)
COLUMNS = 3  # pictures per row in the README
# Companion views shown in the project README: (shape, view, labels, file, caption).
EXTRAS = (
    ("pentomino/6x10.txt", None, True, "readme-6x10-labels.png", "6x10 box with --labels"),
    ("soma/castle.vox", "exploded", False, "readme-castle-exploded.png", "Castle, --view exploded"),
    ("soma/castle.vox", "layers", True, "readme-castle-layers.png", "Castle, --view layers --labels"),
)
GALLERY_COLOURS = 64  # 3D pictures are smoothed; a 64-colour palette keeps them small
README_START = "# Gallery\n"
README_MARK = "Regenerate this directory with `polyfit gallery`."


def is_pieces_file(path: Path) -> bool:
    """Pieces files kept beside their boards are named ``NAME.pieces.txt`` or ``.pieces.vox``."""
    return path.stem.endswith(".pieces")


def shape_files(shapes: Path) -> list[Path]:
    if not path_is_dir(shapes):
        raise PolyfitError(f"shapes directory {shapes} does not exist")
    files = sorted(
        p for p in shapes.rglob("*")
        if p.suffix in SHAPE_SUFFIXES and p.is_file() and not is_pieces_file(p)
    )
    if not files:
        raise PolyfitError(f"{shapes} holds no board files (.txt, .vox)")
    return files


def first_solution_and_counts(puzzle):
    """The first solution (one per class, as ``polyfit solve`` prints it first) and the exact
    counts, as ``polyfit solve --count`` finds them (the engine chooses how)."""
    first = next(iter(puzzle.solutions(limit=1)), None)
    return (first.placements if first is not None else None), puzzle.count()


def empty_board_image(board):
    """A board no solution fills, drawn in grey."""
    if board.lattice.segments:
        return draw_segments({c: None for c in board.cells}, {}, STYLE, lattice_of(board))
    if board.dim == 2 and board.lattice.name != "square":
        return draw_polygons({c: None for c in board.cells}, {}, STYLE, lattice_of(board))
    if board.dim == 2:
        return draw_grid({c: None for c in board.cells}, {}, STYLE)
    return draw_iso({c: "" for c in board.cells}, {"": EMPTY_CELL}, STYLE_3D)


def picture_name(shapes: Path, path: Path) -> str:
    group = path.parent.relative_to(shapes).as_posix() or "shapes"
    return f"{group.replace('/', '-')}-{path.stem}.png"


def sheet_name(spec: str) -> str:
    return "pieces-" + re.sub(r"[^A-Za-z0-9_.+-]", "_", spec.replace(",", "+").replace(":", "-")) + ".png"


def gallery_names(shapes: Path, boards: list) -> list[str]:
    """Every file a gallery of these ``(path, board)`` may write (the extra views are listed
    when their shape is there, solved or not)."""
    drawn = [(path, board.metadata["pieces"]) for path, board in boards if board.metadata.get("pieces")]
    relative = {path.relative_to(shapes).as_posix() for path, _ in drawn}
    names = [picture_name(shapes, path) for path, _ in drawn]
    names += list(dict.fromkeys(sheet_name(spec) for _, spec in drawn))
    names += [name for shape, _, _, name, _ in EXTRAS if shape in relative]
    return names + ["README.md"]


def earlier_gallery(out: Path) -> set[str]:
    """The files an earlier ``polyfit gallery`` wrote into ``out``: its README.md and the
    pictures that names; nothing when ``out`` holds no README.md of a gallery."""
    readme = out / "README.md"
    try:
        text = read_text(readme) if readme.is_file() else ""
    except PolyfitError:
        return set()
    if not (text.startswith(README_START) and README_MARK in text):
        return set()
    return {"README.md"} | set(re.findall(r"\]\(([^()/\\]+\.png)\)", text))


def check_gallery_out(out: Path, names: list[str], force: bool) -> set[str]:
    """Refuse, before any search, to replace files in ``out`` that are not an earlier
    gallery's, unless forced; returns the names that may be replaced."""
    if path_exists(out, "write") and not path_is_dir(out, "write"):
        raise PolyfitError(f"{out} is not a directory")
    for name in names:
        if path_is_dir(out / name, "write"):
            raise cannot("write", out / name, "Is a directory")
    if force:
        return set(names)
    earlier = earlier_gallery(out) if path_is_dir(out, "write") else set()
    in_the_way = [n for n in names if n not in earlier and (out / n).exists()]
    if in_the_way:
        shown = ", ".join(in_the_way[:5]) + (", ..." if len(in_the_way) > 5 else "")
        raise PolyfitError(
            f"{out} already has {plural(len(in_the_way), 'file')} the gallery would replace "
            f"({shown}); use --force to overwrite {'it' if len(in_the_way) == 1 else 'them'}"
        )
    return earlier


def build_gallery(registry, resolve_pieces, shapes: Path, out: Path, force: bool = False) -> list[str]:
    """Write the gallery into ``out``; returns a line per file written. Files an earlier
    gallery wrote there are replaced; any other only with ``force``."""
    shapes, out = Path(shapes), Path(out)
    boards = [(path, registry.read_shape(path)) for path in shape_files(shapes)]
    replaceable = check_gallery_out(out, gallery_names(shapes, boards), force)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise cannot("create", out, exc) from None

    def save(image, name, colours=None):
        save_png(image, out / name, colours, force=name in replaceable)
        done.append(f"wrote {out / name}")

    done = []
    sections: dict[str, list] = {}
    piece_sets: dict[str, list] = {}
    firsts = {}
    for path, board in boards:
        spec = board.metadata.get("pieces")
        if not spec:
            done.append(f"skipped {path}: no '; pieces:' line")
            continue
        pieces = resolve_pieces(spec, path.parent)  # a pieces file is looked for beside it
        piece_sets.setdefault(spec, pieces)
        first, counts = first_solution_and_counts(Puzzle(board, pieces, plugins=registry))
        if first is None:
            image = empty_board_image(board)
        else:
            image = solution_image(board.cells, pieces, first, STYLE if board.dim == 2 else STYLE_3D)
        firsts[path.relative_to(shapes).as_posix()] = (board, pieces, first)
        group = path.parent.relative_to(shapes).as_posix() or "shapes"
        name = picture_name(shapes, path)
        save(image, name, GALLERY_COLOURS if board.dim == 3 else None)
        sections.setdefault(group, []).append((board, path, name, counts, spec))
    sheets = {}
    for spec, pieces in piece_sets.items():
        name = sheet_name(spec)
        save(pieces_image(pieces, PIECE_STYLE), name, GALLERY_COLOURS if pieces[0].dim == 3 else None)
        sheets[spec] = name
    extras = []
    for shape, view, labels, name, caption in EXTRAS:
        if shape not in firsts or firsts[shape][2] is None:
            continue
        board, pieces, first = firsts[shape]
        style = Style(cell=STYLE.cell if board.dim == 2 else STYLE_3D.cell, margin=STYLE.margin, labels=labels)
        image = solution_image(board.cells, pieces, first, style, view)
        save(image, name, GALLERY_COLOURS if view in ("iso", "exploded") else None)
        extras.append((name, caption))
    readme = gallery_readme(shapes, sections, sheets, extras)
    write_output_text(out / "README.md", readme, force="README.md" in replaceable)
    done.append(f"wrote {out / 'README.md'}")
    return done


def count_text(counts, dim: int) -> str:
    if counts.total == 0:
        return "no solution"
    text = f"{counts.distinct:,} distinct"
    if dim == 3:
        text += f" ({counts.distinct_rotations:,} up to rotation alone)"
    return text + f", {counts.total:,} in all"


def gallery_readme(shapes: Path, sections: dict, sheets: dict, extras: list) -> str:
    lines = [
        "# Gallery",
        "",
        f"Every board in `{shapes.name}/`, drawn from the first solution `polyfit solve` prints",
        "(3D figures in isometric view), with exact solution counts from a full search:",
        "**distinct** is one per symmetry class of the board (rotations and reflections), **in all**",
        "counts every solution; 3D figures also give the count up to rotation alone, as most Soma",
        f"books count. {README_MARK}",
        "",
        "## Piece sets",
        "",
    ]
    for spec, name in sheets.items():
        lines += [f"### {spec}", "", f"![{spec}]({name})", ""]
    if extras:
        lines += ["## Other views", ""]
        for name, caption in extras:
            lines += [f"### {caption}", "", f"![{caption}]({name})", ""]
    for group, entries in sections.items():
        lines += [f"## {group}", "", "|" + " |" * COLUMNS, "|" + " --- |" * COLUMNS]
        cells = []
        for board, path, name, counts, spec in entries:
            title = board.name or path.stem
            where = (Path(shapes.name) / path.relative_to(shapes)).as_posix()
            cells.append(
                f"![{title}]({name})<br>**{title}**<br>`{where}`<br>{count_text(counts, board.dim)}"
            )
        for k in range(0, len(cells), COLUMNS):
            row = cells[k:k + COLUMNS] + [""] * (COLUMNS - len(cells[k:k + COLUMNS]))
            lines.append("| " + " | ".join(row) + " |")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
