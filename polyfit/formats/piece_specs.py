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
"""

from __future__ import annotations

from dataclasses import replace
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


def _pieces_of(token: str, registry, base=None) -> list[Piece]:
    token, count = _split_count(token)
    pieces = _named_pieces(token, registry, base)
    if count is not None:
        pieces = [replace(p, count=count) for p in pieces]
    return pieces


def _named_pieces(token: str, registry, base=None) -> list[Piece]:
    set_name, colon, piece_name = token.partition(":")
    if set_name in registry:
        pieces = list(registry[set_name][0]())
        if not colon:
            return pieces
        chosen = [p for p in pieces if p.name == piece_name]
        if not chosen:
            raise UnknownNameError(
                f"piece of {set_name}", piece_name, [p.name for p in pieces], f"pieces of {set_name}"
            )
        return chosen
    if base is not None and not Path(token).is_absolute() and _is_file(str(Path(base) / token)):
        return read_pieces_file(Path(base) / token)
    if _names_a_file(token) or _is_file(token):
        return read_pieces_file(token)
    raise UnknownNameError("piece set", set_name, registry)


def _twice(name: str, first: str, second: str, same_token: bool) -> str:
    if same_token:
        return f"{second!r} has two pieces named {name!r}"
    if first == second:
        return f"{first!r} is named twice, so its piece {name!r} would be used twice"
    return (
        f"piece {name!r} is in both {first!r} and {second!r}; pick single pieces with "
        "SET:NAME to combine sets whose names overlap"
    )


def _recounts(token: str, before: Piece, piece: Piece) -> bool:
    """Does this token only give a new count to a piece named before (SET:NAME=n)?"""
    bare, count = _split_count(token)
    return count is not None and ":" in bare and (before.cells, before.mirror) == (piece.cells, piece.mirror)


def resolve_pieces(spec: str, registry, base=None) -> list[Piece]:
    """The pieces a spec names, in the order named.

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
    result: list[Piece] = []
    named_by: dict[str, int] = {}  # piece name -> index of the token that brought it
    for index, token in enumerate(tokens):
        if not token:
            raise PolyfitError(f"empty item in piece spec {spec!r}")
        for piece in _pieces_of(token, registry, base):
            if piece.name in named_by:
                first = named_by[piece.name]
                position = next(k for k, p in enumerate(result) if p.name == piece.name)
                if _recounts(token, result[position], piece) and first != index:
                    # 'pentominoes,pentominoes:F=0..2': all twelve, F from 0 to 2 times.
                    result[position] = piece
                    continue
                raise PolyfitError(_twice(piece.name, tokens[first], token, first == index))
            named_by[piece.name] = index
            result.append(piece)
    dims = sorted({p.dim for p in result})
    if len(dims) > 1:
        raise PolyfitError(f"{spec!r} mixes 2D and 3D pieces")
    return result
