"""Pieces: the model, pieces files (every error path), ``--pieces`` specs, drawing, and the
built-in piece sets' names and shapes."""

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyfit.errors import ParseError, PolyfitError, UnknownNameError
from polyfit.lattices.base import of as lattice_of
from polyfit.lattices.grid import is_connected, lattice_group, normalize, orientations
from polyfit.puzzle.piece_sets import BUILT_IN, mirrored, plane, solid
from polyfit.puzzle.pieces import Piece
from polyfit.formats.textart import draw_pieces
from polyfit.formats.pieces_file import parse_pieces_bytes, parse_pieces_text, read_pieces_file
from polyfit.formats.piece_specs import resolve_pieces
from polyfit.lattices.polyforms import free, one_sided

REGISTRY = dict(BUILT_IN)
ROTATIONS_2D = lattice_group(2, mirror=False)
ROTATIONS_3D = lattice_group(3, mirror=False)


def names(pieces):
    return [p.name for p in pieces]


# -- the piece model ---------------------------------------------------------------------------


def test_piece_normalizes_its_cells_and_is_hashable():
    piece = Piece("a", [(5, 3), (4, 3), (4, 4)])
    assert piece.cells == ((0, 0), (0, 1), (1, 0))
    assert (piece.dim, piece.size, piece.mirror) == (2, 3, True)
    assert piece == Piece("a", ((0, 0), (0, 1), (1, 0)))
    assert len({piece, Piece("a", piece.cells)}) == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        piece.name = "b"
    with pytest.raises(ValueError, match="no cells"):
        Piece("empty", ())


def test_orientations_follow_the_mirror_flag():
    f = plane(".##/##./.#.")
    assert len(Piece("F", f, True).orientations()) == 8
    assert len(Piece("F", f, False).orientations()) == 4
    assert Piece("F", f, True).orientations() == orientations(f, lattice_group(2))
    screw = solid("#./##", "../.#")
    assert len(Piece("A", screw, False).orientations()) == 12
    assert len(Piece("A", screw, True).orientations()) == 24


# -- pieces files ------------------------------------------------------------------------------


def test_pieces_file_2d(tmp_path):
    path = tmp_path / "mine.txt"
    path.write_text("; my pieces\n; mirror: no\nAAB\nA.B\n\n1\n")
    got = read_pieces_file(path)
    assert [(p.name, p.cells, p.mirror) for p in got] == [
        ("1", ((0, 0),), False),
        ("A", ((0, 0), (0, 1), (1, 0)), False),
        ("B", ((0, 0), (1, 0)), False),
    ]


def test_2d_pieces_may_be_turned_over_by_default_and_case_matters():
    got = parse_pieces_text("aA\naA\r\n", "p.txt")
    assert names(got) == ["A", "a"] and all(p.mirror for p in got)


def test_pieces_file_3d_by_suffix_or_by_metadata(tmp_path):
    path = tmp_path / "mine.vox"
    path.write_text("AA\nB.\n\n\nA.\n")  # several blank lines are one layer break
    a, b = read_pieces_file(path)
    assert a.cells == ((0, 0, 0), (0, 0, 1), (1, 0, 0)) and not a.mirror
    assert b.cells == ((0, 0, 0),)
    text = tmp_path / "mine.txt"
    text.write_text("; dim: 3\n; mirror: yes\nAA\n\nA.\n")
    (piece,) = read_pieces_file(text)
    assert piece.dim == 3 and piece.mirror
    flat = tmp_path / "flat.vox"
    flat.write_text("; dim: 2\nAA\n\nBB\n")  # in 2D a blank line is an empty row
    assert [p.dim for p in read_pieces_file(flat)] == [2, 2]


@pytest.mark.parametrize(
    "text, dim, line, column, words",
    [
        ("AA\n.A\nA.\n", 2, 3, 1, "piece 'A' is not connected"),
        ("A.A\n", 2, 1, 3, "piece 'A' is not connected"),
        ("AA\n\n..\n.A\n", 3, 4, 2, "piece 'A' is not connected"),  # touches only at an edge
        ("AB\nA#\n", 2, 2, 2, "unexpected character '#'"),
        ("A\tA\n", 2, 1, 2, "unexpected character '\\t'"),
        ("AÉ\n", 2, 1, 2, "unexpected character 'É'"),
        (" ; mirror: no\nA\n", 2, 1, 2, "unexpected character ';'"),
        ("", 2, 1, 1, "draws no pieces"),
        ("; only a comment\n...\n  \n", 2, 1, 1, "draws no pieces"),
        ("; mirror: sometimes\nA\n", 2, 1, 11, "'; mirror:' must be yes or no, not 'sometimes'"),
        ("A\n;dim:4\n", 2, 2, 6, "'; dim:' must be 2 or 3, not '4'"),
    ],
)
def test_pieces_file_errors_name_line_and_column(text, dim, line, column, words):
    with pytest.raises(ParseError) as info:
        parse_pieces_text(text, "p.txt", dim)
    assert (info.value.path, info.value.line, info.value.column) == ("p.txt", line, column)
    assert words in str(info.value)


def test_non_utf8_bytes_are_a_parse_error_at_the_bad_byte(tmp_path):
    with pytest.raises(ParseError) as info:
        parse_pieces_bytes(b"AA\nA\xff\n", "p.txt")
    assert (info.value.line, info.value.column) == (2, 2) and "UTF-8" in info.value.message
    path = tmp_path / "latin1.txt"
    path.write_bytes("; pièces\nAA\n".encode("latin-1"))
    with pytest.raises(ParseError, match="latin1.txt:1:5"):
        read_pieces_file(path)


def test_unreadable_pieces_file_is_a_polyfit_error(tmp_path):
    with pytest.raises(PolyfitError, match="no such pieces file: .*missing.txt"):
        read_pieces_file(tmp_path / "missing.txt")
    with pytest.raises(PolyfitError, match="cannot read .*: Is a directory"):
        read_pieces_file(tmp_path)
    with pytest.raises(PolyfitError, match="cannot read"):
        read_pieces_file(tmp_path / "nul\x00.txt")


def art_cell_count(text):
    """Letters and digits outside comment lines: each is one cell of a piece."""
    return sum(
        ch.isascii() and ch.isalnum()
        for line in text.splitlines()
        if not line.startswith(";")
        for ch in line
    )


def check_result(pieces, text, dim):
    assert names(pieces) == sorted(set(names(pieces)))
    for p in pieces:
        lattice = lattice_of(p)  # squares, or the lattice a '; lattice:' line names
        assert p.dim == dim and lattice.is_connected(p.cells) and p.cells == lattice.normalize(p.cells)
    assert sum(p.size for p in pieces) == art_cell_count(text)


PIECES_ALPHABET = st.sampled_from(
    list("AAAABBB1a.. \n\n\r;:#\tÉ") + ["; mirror: no\n", "; dim: 3\n"]
)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(st.lists(PIECES_ALPHABET, max_size=80).map("".join), st.sampled_from([None, 2, 3]))
def test_pieces_like_text_gives_pieces_or_a_parse_error(text, dim):
    try:
        got = parse_pieces_text(text, "p", dim)
    except ParseError as err:
        assert err.line >= 1 and err.column >= 1 and err.path == "p"
    else:
        effective = got[0].dim
        assert effective == (dim or 2) or "dim: 3" in text
        check_result(got, text, effective)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_any_text_gives_pieces_or_a_parse_error(text):
    try:
        got = parse_pieces_text(text, "p")
    except ParseError as err:
        assert err.line >= 1 and err.column >= 1
    else:
        assert all(is_connected(p.cells) for p in got)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=60), st.sampled_from([2, 3]))
def test_any_bytes_give_pieces_or_a_parse_error(data, dim):
    try:
        got = parse_pieces_bytes(data, "p.bin", dim)
    except ParseError as err:
        assert err.line >= 1 and err.column >= 1 and err.path == "p.bin"
    else:
        check_result(got, data.decode("utf-8"), got[0].dim)


# -- specs -------------------------------------------------------------------------------------


def test_spec_of_sets_and_single_pieces_keeps_the_order_named():
    got = resolve_pieces("pentominoes, tetrominoes:O", REGISTRY)
    assert names(got) == list("FILNPTUVWXYZ") + ["O"]
    got = resolve_pieces("tetrominoes:O,pentominoes:X,monomino", REGISTRY)
    assert names(got) == ["O", "X", "M"]


def test_spec_with_a_pieces_file(tmp_path):
    path = tmp_path / "extra.txt"
    path.write_text("ab\nab\n")
    assert names(resolve_pieces(str(path), REGISTRY)) == ["a", "b"]
    assert names(resolve_pieces(f"tetrominoes:O,{path}", REGISTRY)) == ["O", "a", "b"]
    odd = tmp_path / "a,b"
    odd.write_text("x\n")
    assert names(resolve_pieces(str(odd), REGISTRY)) == ["x"]  # a comma in a file name


def test_set_names_win_over_files_in_the_current_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "soma").write_text("q\n")
    (tmp_path / "mine").write_text("q\n")
    assert len(resolve_pieces("soma", REGISTRY)) == 7
    assert names(resolve_pieces("mine", REGISTRY)) == ["q"]


def test_unknown_set_lists_the_valid_set_names():
    with pytest.raises(UnknownNameError) as info:
        resolve_pieces("pentominoes,pentominos", REGISTRY)
    err = info.value
    assert (err.kind, err.name, err.valid) == ("piece set", "pentominos", sorted(REGISTRY))
    assert "valid piece sets: domino, heptominoes" in str(err)


@pytest.mark.parametrize(
    "spec, name", [("tetrominoes:Q", "Q"), ("tetrominoes:", ""), ("tetrominoes:o", "o")]
)
def test_unknown_piece_lists_the_pieces_of_its_set(spec, name):
    with pytest.raises(UnknownNameError) as info:
        resolve_pieces(spec, REGISTRY)
    assert (info.value.name, info.value.valid) == (name, ["I", "L", "O", "S", "T"])
    assert info.value.kind == "piece of tetrominoes"
    assert str(info.value).endswith(": I, L, O, S, T")


@pytest.mark.parametrize(
    "spec, words",
    [
        (
            "tetrominoes,one-sided-tetrominoes:L",
            "'tetrominoes' and 'one-sided-tetrominoes:L' both have a piece named 'L' of 4 cells",
        ),
        ("tetrominoes:O,tetrominoes", "piece 'O' is in both 'tetrominoes:O' and 'tetrominoes'"),
        ("soma,soma", "'soma' is named twice"),
        ("twins", "'twins' has two pieces named 'a'"),
        ("", "empty piece spec"),
        ("  ", "empty piece spec"),
        ("pentominoes,,soma", "empty item in piece spec"),
        ("pentominoes,", "empty item in piece spec"),
        ("pentominoes,soma:A", "mixes 2D and 3D pieces"),
        ("no/such/file.txt", "no such pieces file: no/such/file.txt"),
        ("missing.vox", "no such pieces file: missing.vox"),
        ("nofile.pieces", "no such pieces file: nofile.pieces"),
        ("pentominoes,nofile.pieces", "no such pieces file: nofile.pieces"),
        ("nofile", "unknown piece set 'nofile'; valid piece sets: domino"),
    ],
)
def test_bad_specs(spec, words):
    registry = dict(REGISTRY, twins=(lambda: [Piece("a", ((0, 0),)), Piece("a", ((0, 0),))], ""))
    with pytest.raises(PolyfitError) as info:
        resolve_pieces(spec, registry)
    assert words in str(info.value)


def test_a_bad_pieces_file_in_a_spec_is_a_parse_error(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("A.A\n")
    with pytest.raises(ParseError, match="bad.txt:1:3"):
        resolve_pieces(f"monomino,{path}", REGISTRY)


# -- drawing -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec", ["pentominoes", "one-sided-tetrominoes", "trominoes,domino,monomino"]
)
def test_drawing_of_2d_pieces_reads_back_as_the_same_pieces(spec):
    pieces = resolve_pieces(spec, REGISTRY)
    art = draw_pieces(pieces)
    back = {p.name: p.cells for p in parse_pieces_text(art, "drawn")}
    assert back == {p.name: p.cells for p in pieces}


def test_drawing_wraps_at_the_width():
    pieces = resolve_pieces("pentominoes", REGISTRY)
    art = draw_pieces(pieces, width=24)
    assert max(len(line) for line in art.splitlines()) <= 24
    assert len(art.splitlines()) > len(draw_pieces(pieces).splitlines())
    assert draw_pieces([]) == ""


def test_3d_pieces_are_drawn_layer_by_layer_under_their_names():
    art = draw_pieces(resolve_pieces("soma", REGISTRY))
    sections = art.split("\n\n")
    assert sections[0] == "V:\nz=0\nV.\nVV"
    assert "A:\nz=0\nA.\nAA\n\nz=1\n..\n.A" in art
    for piece in resolve_pieces("soma", REGISTRY):
        assert art.count(piece.name) == piece.size + 1  # its cells and its heading


def test_long_names_are_drawn_whole():
    art = draw_pieces(resolve_pieces("hexominoes:H01,hexominoes:H02", REGISTRY))
    assert art.count("H01") == 6 and art.count("H02") == 6


# -- the built-in piece sets -------------------------------------------------------------------


def built(name):
    return {p.name: p for p in BUILT_IN[name][0]()}


def rotation_class(shape):
    group = ROTATIONS_3D if len(shape[0]) == 3 else ROTATIONS_2D
    return min(orientations(shape, group))


def test_set_sizes_names_and_cost():
    sizes = {name: len(build()) for name, (build, _) in BUILT_IN.items()}
    assert sizes == {
        "monomino": 1, "domino": 1, "trominoes": 2, "tetrominoes": 5, "pentominoes": 12,
        "hexominoes": 35, "heptominoes": 108, "one-sided-tetrominoes": 7,
        "one-sided-pentominoes": 18, "one-sided-hexominoes": 60, "soma": 7, "tricubes": 2,
        "tetracubes": 8, "pentacubes": 29,
    }
    assert list(built("monomino")) == ["M"] and list(built("domino")) == ["D"]
    assert list(built("trominoes")) == ["I", "L"]
    assert list(built("tetrominoes")) == list("ILOST")
    assert list(built("pentominoes")) == list("FILNPTUVWXYZ")
    assert list(built("one-sided-tetrominoes")) == list("IJLOSTZ")
    assert list(built("soma")) == list("VLTZABP")
    assert list(built("tricubes")) == ["I", "V"]
    assert list(built("tetracubes")) == list("IOTLSPAB")
    for name, (build, summary) in BUILT_IN.items():
        assert build() is build(), name  # built once, then cached
        assert summary and len(set(p.name for p in build())) == len(build()), name


FREE_SETS = [
    "monomino", "domino", "trominoes", "tetrominoes", "pentominoes", "hexominoes", "heptominoes"
]


@pytest.mark.parametrize("n, name", list(enumerate(FREE_SETS, start=1)))
def test_free_sets_are_exactly_the_free_polyominoes(n, name):
    pieces = built(name).values()
    assert sorted(min(orientations(p.cells, lattice_group(2))) for p in pieces) == list(free(n))
    assert all(p.mirror and p.size == n for p in pieces)


def test_numbered_sets_follow_the_enumerator_order():
    hexominoes = built("hexominoes")
    assert list(hexominoes) == [f"H{i:02d}" for i in range(1, 36)]
    assert [p.cells for p in hexominoes.values()] == list(free(6))
    heptominoes = built("heptominoes")
    assert list(heptominoes)[0] == "S001" and list(heptominoes)[-1] == "S108"
    assert [p.cells for p in heptominoes.values()] == list(free(7))


# Golomb's letters, each drawn here independently of piece_sets, with its orientation count.
PENTOMINO_ART = {
    "F": ([".##", "##.", ".#."], 8), "I": (["#####"], 2), "L": (["#...", "####"], 8),
    "N": (["###.", "..##"], 8), "P": (["###", "##."], 8), "T": (["#..", "###", "#.."], 4),
    "U": (["##", "#.", "##"], 4), "V": (["###", "#..", "#.."], 4), "W": ([".##", "##.", "#.."], 4),
    "X": ([".#.", "###", ".#."], 1), "Y": ([".#..", "####"], 8), "Z": (["#..", "###", "..#"], 4),
}


@pytest.mark.parametrize("letter", sorted(PENTOMINO_ART))
def test_pentomino_letters(letter):
    art, count = PENTOMINO_ART[letter]
    piece = built("pentominoes")[letter]
    assert plane("/".join(art)) in piece.orientations()
    assert len(piece.orientations()) == count


def test_tetromino_and_tromino_letters():
    expected = {"I": "####", "O": "##/##", "T": ".#./###", "L": "..#/###", "S": "##./.##"}
    for letter, art in expected.items():
        assert plane(art) in built("tetrominoes")[letter].orientations(), letter
    assert plane("#/#/#") in built("trominoes")["I"].orientations()
    assert plane(".#/##") in built("trominoes")["L"].orientations()


def test_one_sided_pentominoes_pair_each_chiral_piece_with_its_mirror_image():
    pieces = built("one-sided-pentominoes")
    assert list(pieces) == sorted(list("FILNPTUVWXYZ") + ["F'", "L'", "N'", "P'", "Y'", "Z'"])
    assert all(not p.mirror and len(p.orientations()) <= 4 for p in pieces.values())
    assert sorted(rotation_class(p.cells) for p in pieces.values()) == list(one_sided(5))
    for letter in "FLNPYZ":
        image = mirrored(pieces[letter].cells)
        assert rotation_class(image) == rotation_class(pieces[letter + "'"].cells)
    assert pieces["F"].cells == built("pentominoes")["F"].cells  # the unprimed one as drawn


def test_one_sided_tetrominoes_use_the_tetris_letters():
    pieces = built("one-sided-tetrominoes")
    assert sorted(rotation_class(p.cells) for p in pieces.values()) == list(one_sided(4))
    assert plane("#../###") in pieces["J"].orientations()  # J: the corner on the left
    assert plane("..#/###") in pieces["L"].orientations()
    assert plane(".##/##.") in pieces["S"].orientations()
    assert plane("##./.##") in pieces["Z"].orientations()


def test_one_sided_hexominoes():
    pieces = built("one-sided-hexominoes")
    assert sorted(rotation_class(p.cells) for p in pieces.values()) == list(one_sided(6))
    primed = [name for name in pieces if name.endswith("'")]
    assert len(primed) == 25 and all(name[:-1] in pieces for name in primed)


def neighbour_counts(cells):
    cells = set(cells)
    touching = [[d for d in cells if sum(abs(a - b) for a, b in zip(c, d)) == 1] for c in cells]
    return sorted(len(t) for t in touching)


def test_soma_pieces():
    p = built("soma")
    assert sum(q.size for q in p.values()) == 27
    assert all(not q.mirror and q.dim == 3 for q in p.values())
    assert solid("##/#.") in p["V"].orientations()
    for letter, art in {"L": "###/#..", "T": "###/.#.", "Z": "##./.##"}.items():
        assert solid(art) in p[letter].orientations(), letter  # the flat tetracubes
    # A and B: the screws, mirror images of each other and not the same under rotation.
    assert rotation_class(mirrored(p["A"].cells)) == rotation_class(p["B"].cells)
    assert rotation_class(p["A"].cells) != rotation_class(p["B"].cells)
    assert len(p["A"].orientations()) == len(p["B"].orientations()) == 12
    # A's top cube is over the arm clockwise of the other (layers seen from above, back row first).
    assert solid("#./##", "../.#") in p["A"].orientations()
    # P, the branch: one cube touches the three others; it is its own mirror image.
    assert neighbour_counts(p["P"].cells) == [1, 1, 1, 3]
    assert rotation_class(mirrored(p["P"].cells)) == rotation_class(p["P"].cells)
    assert len(p["P"].orientations()) == 8
    # Together: every polycube of at most four cubes with an inside corner (no cuboids).
    cuboids = {rotation_class(solid(art)) for art in ("#", "##", "###", "####", "##/##")}
    small = {shape for n in range(1, 5) for shape in one_sided(n, 3)} - cuboids
    assert sorted(rotation_class(q.cells) for q in p.values()) == sorted(small)


@pytest.mark.parametrize("n, name", [(3, "tricubes"), (4, "tetracubes"), (5, "pentacubes")])
def test_polycube_sets_are_the_rotation_classes(n, name):
    pieces = built(name).values()
    assert sorted(rotation_class(p.cells) for p in pieces) == list(one_sided(n, 3))
    assert all(not p.mirror and p.size == n for p in pieces)


def test_tetracubes_share_the_soma_names():
    tetracubes, soma = built("tetracubes"), built("soma")
    for name in "PAB":
        assert tetracubes[name].cells == soma[name].cells


def test_pentacube_names():
    pieces = built("pentacubes")
    flat = [name for name, p in pieces.items() if len({c[0] for c in p.cells}) == 1]
    assert flat == list("FILNPTUVWXYZ")
    for letter in flat:
        assert pieces[letter].cells == tuple((0,) + c for c in built("pentominoes")[letter].cells)
    pairs = [("L1", "J1"), ("L2", "J2"), ("L4", "J4"), ("N1", "S1"), ("N2", "S2"), ("V1", "V2")]
    for left, right in pairs:
        assert rotation_class(mirrored(pieces[left].cells)) == rotation_class(pieces[right].cells)
    for name in ["L3", "T1", "T2", "Q", "A"]:
        assert rotation_class(mirrored(pieces[name].cells)) == rotation_class(pieces[name].cells)
    assert len(pieces) - len(flat) == 2 * len(pairs) + 5
