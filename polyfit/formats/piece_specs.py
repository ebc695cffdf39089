"""The ``--pieces`` spec: which pieces a puzzle uses, and how many of each.

A spec is a set name (``pentominoes``), a comma-separated list of sets and single pieces
(``pentominoes,tetrominoes:O``: ``SET:NAME`` is one piece of a set), or the path of a pieces
file. Set names win over files of the same name in the current directory; a token with a path
separator or a ``.txt``/``.vox``/``.pieces`` suffix is always a file ("no such pieces file" when
it is missing, not "unknown piece set").

Each piece is used exactly once unless a count says otherwise. A count is a number ``n`` or a
range ``lo..hi``, written before a token with ``*`` (``2*tetrominoes``: two of each;
``0..1*pentominoes``: each at most once) or after it with ``=`` (``pentominoes:F=0..2``).
Copies of a piece are indistinguishable: swapping two of them is not a new solution.

A spec means the same whatever the order of its tokens:

- a piece may be named once by a whole set (or file) and once by ``SET:NAME=count``, which
  then only gives it that count; the piece keeps its place in the set
  (``pentominoes:F=0..2,pentominoes`` is ``pentominoes,pentominoes:F=0..2``). Any other way of
  naming the same piece twice is an error that names both tokens;
- different pieces with the same name are told apart by their size: each takes its number of
  cells after its name (``tetrominoes,pentominoes`` has ``I4`` and ``I5``), with a ``-`` in
  between when the name ends in a digit or the plain suffix is already a piece's name
  (``tetracubes,pentacubes`` has ``L-4`` and ``L-5`` next to the pentacube ``L4``). Different
  pieces of the same name and size are an error: pick single pieces with ``SET:NAME``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from polyfit.errors import PolyfitError, UnknownNameError
from polyfit.formats.pieces_file import PIECES_FILE_SUFFIXES, parse_count, read_pieces_file
from polyfit.puzzle.pieces import Piece


def _is_file(token: str) -> bool:
    try:
        return Path(token).is_file()
    except (OSError, ValueError):  # a name too long for the system, say
        return False


def _names_a_file(token: str) -> bool:
    return "/" in token or "\\" in token or token.lower().endswith(PIECES_FILE_SUFFIXES)


def _split_count(token: str) -> tuple[str, tuple[int, int] | None]:
    """``2*SET``, ``lo..hi*SET`` or ``SET:NAME=lo..hi`` -> (the token without its count, count)."""
    count_text = None
    if "*" in token and "=" in token:
        raise PolyfitError(f"{token!r} has two counts ('*' and '='); give one")
    if "*" in token:
        count_text, _, token = token.partition("*")
    if "=" in token:
        token, _, count_text = token.partition("=")
    token = token.strip()
    if count_text is None:
        return token, None
    if not token:
        raise PolyfitError(f"count {count_text.strip()!r} is not followed by a set or piece")
    return token, parse_count(count_text)


def _named_pieces(token: str, registry, base=None) -> tuple[list[Piece], bool]:
    """The pieces a token (without its count) names, and whether it is one piece (SET:NAME)."""
    set_name, colon, piece_name = token.partition(":")
    if set_name in registry:
        pieces = list(registry[set_name][0]())
        if not colon:
            return pieces, False
        chosen = [p for p in pieces if p.name == piece_name]
        if not chosen:
            raise UnknownNameError(
                f"piece of {set_name}", piece_name, [p.name for p in pieces], f"pieces of {set_name}"
            )
        return chosen, True
    if base is not None and not Path(token).is_absolute() and _is_file(str(Path(base) / token)):
        return read_pieces_file(Path(base) / token), False
    if _names_a_file(token) or _is_file(token):
        return read_pieces_file(token), False
    raise UnknownNameError("piece set", set_name, registry)


@dataclass(frozen=True)
class _Mention:
    """A piece as one token of the spec brings it in."""

    piece: Piece
    token: str
    order: int  # place in the spec: token by token, each set's pieces in their order
    single: bool  # the token is SET:NAME
    counted: bool  # the token gives a count


def _mentions(tokens: list[str], registry, base) -> list[_Mention]:
    mentions = []
    for token in tokens:
        bare, count = _split_count(token)
        pieces, single = _named_pieces(bare, registry, base)
        seen = set()
        for piece in pieces:
            if piece.name in seen:
                raise PolyfitError(f"{token!r} has two pieces named {piece.name!r}")
            seen.add(piece.name)
            if count is not None:
                piece = replace(piece, count=count)
            mentions.append(_Mention(piece, token, len(mentions), single, count is not None))
    return mentions


def _same_pieces(mentions: list[_Mention]) -> list[list[_Mention]]:
    """The mentions grouped by piece: one name, and the same placements (shape and turns)."""
    by_name: dict[str, list[_Mention]] = {}
    for mention in mentions:
        by_name.setdefault(mention.piece.name, []).append(mention)
    groups = []
    for named in by_name.values():
        shapes: dict[tuple, list[_Mention]] = {}
        for mention in named:
            key = mention.piece.orientations() if len(named) > 1 else ()
            shapes.setdefault(key, []).append(mention)
        groups.extend(shapes.values())
    return groups


def _one_piece(same: list[_Mention]) -> _Mention:
    """The piece a group of mentions of it stands for, with its count; or why they disagree."""
    name = same[0].piece.name
    wholes = [m for m in same if not m.single]
    singles = [m for m in same if m.single]
    if len(wholes) > 1:
        first, second = wholes[0].token, wholes[1].token
        if first == second:
            raise PolyfitError(f"{first!r} is named twice, so its piece {name!r} would be used twice")
        raise PolyfitError(
            f"piece {name!r} is in both {first!r} and {second!r}, so it would be used twice; leave "
            "it out of one by picking that set's other pieces with SET:NAME"
        )
    if len(singles) > 1:
        first, second = singles[0], singles[1]
        if first.token == second.token:
            raise PolyfitError(f"{first.token!r} is named twice, so its piece {name!r} would be used twice")
        if first.piece.count != second.piece.count:
            raise PolyfitError(
                f"piece {name!r} is given two different counts, by {first.token!r} and "
                f"{second.token!r}; give it one"
            )
        raise PolyfitError(
            f"piece {name!r} is named twice, by {first.token!r} and {second.token!r}, so it would be "
            "used twice; name it once, with a count for more copies"
        )
    if wholes and singles:
        whole, single = wholes[0], singles[0]
        if not single.counted:
            first, second = sorted([whole, single], key=lambda m: m.order)
            raise PolyfitError(
                f"piece {name!r} is in both {first.token!r} and {second.token!r}, so it would be used "
                f"twice; to say how many, give the single piece a count ({single.token}=N)"
            )
        # 'pentominoes,pentominoes:F=0..2', in either order: all twelve, F from 0 to 2 times.
        return replace(whole, piece=replace(whole.piece, count=single.piece.count))
    return same[0]


def _distinct_names(chosen: list[_Mention]) -> list[Piece]:
    """The chosen pieces, those sharing a name renamed by their size (``I4``, ``I5``)."""
    by_name: dict[str, list[_Mention]] = {}
    for mention in chosen:
        by_name.setdefault(mention.piece.name, []).append(mention)
    clashes = {name: named for name, named in by_name.items() if len(named) > 1}
    for name, named in clashes.items():
        sizes: dict[int, _Mention] = {}
        for mention in named:
            if mention.piece.size in sizes:
                other = sizes[mention.piece.size]
                raise PolyfitError(
                    f"{other.token!r} and {mention.token!r} both have a piece named {name!r} of "
                    f"{mention.piece.size} cells, and they are different pieces; pick single pieces "
                    "with SET:NAME to leave one out, or rename one in its pieces file"
                )
            sizes[mention.piece.size] = mention
    # A '-' keeps the size apart from a name that ends in a digit (H01-6), and from a name
    # that is taken (the pentacube L4: so the L tetracube is L-4, not L4).
    renamed = {}
    for name, named in clashes.items():
        dashed = name[-1].isdigit() or any(f"{name}{m.piece.size}" in by_name for m in named)
        for m in named:
            renamed[m.order] = f"{name}-{m.piece.size}" if dashed else f"{name}{m.piece.size}"
    pieces = [replace(m.piece, name=renamed[m.order]) if m.order in renamed else m.piece for m in chosen]
    names = [p.name for p in pieces]
    doubled = sorted({n for n in names if names.count(n) > 1})
    if doubled:
        raise PolyfitError(
            f"renaming pieces by size gives two pieces the name {doubled[0]!r}; pick single pieces "
            "with SET:NAME to leave one out, or rename one in its pieces file"
        )
    return pieces


def resolve_pieces(spec: str, registry, base=None) -> list[Piece]:
    """The pieces a spec names, in the order named (see the module's notes for the rules).

    ``registry`` maps set name -> (build function returning pieces, summary); a pieces file is
    looked for in the folder ``base`` first (a board's own folder, for its ``; pieces:`` line).
    """
    spec = spec.strip()
    if not spec:
        raise PolyfitError("empty piece spec; 'polyfit pieces' lists the sets")
    if _is_file(spec) and spec.split(":")[0] not in registry:
        tokens = [spec]  # a file whose name has a comma in it
    else:
        tokens = [t.strip() for t in spec.split(",")]
    if not all(tokens):
        raise PolyfitError(f"empty item in piece spec {spec!r}")
    mentions = _mentions(tokens, registry, base)
    dims = sorted({m.piece.dim for m in mentions})
    if len(dims) > 1:
        raise PolyfitError(f"{spec!r} mixes 2D and 3D pieces")
    chosen = sorted((_one_piece(same) for same in _same_pieces(mentions)), key=lambda m: m.order)
    return _distinct_names(chosen)
