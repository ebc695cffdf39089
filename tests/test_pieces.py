import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyfit.errors import ParseError, PolyfitError, UnknownNameError
from polyfit.geometry import lattice_group, normalize, orientations
from polyfit.piece_sets import BUILT_IN
from polyfit.pieces import draw_pieces, parse_pieces_text, resolve_pieces
from polyfit.polyforms import fixed, free, one_sided


def test_polyomino_counts():
    assert [len(free(n)) for n in range(1, 10)] == [1, 1, 2, 5, 12, 35, 108, 369, 1285]
    assert [len(one_sided(n)) for n in range(1, 10)] == [1, 1, 2, 7, 18, 60, 196, 704, 2500]
    assert [len(fixed(n)) for n in range(1, 10)] == [1, 2, 6, 19, 63, 216, 760, 2725, 9910]


def test_polycube_counts():
    assert [len(one_sided(n, 3)) for n in range(1, 8)] == [1, 1, 2, 8, 29, 166, 1023]
    assert [len(free(n, 3)) for n in range(1, 8)] == [1, 1, 2, 7, 23, 112, 607]


def pieces(name):
    return {p.name: p for p in BUILT_IN[name][0]()}


def test_built_in_set_sizes_and_names():
    sizes = {name: len(build()) for name, (build, _) in BUILT_IN.items()}
    assert sizes == {
        "monomino": 1, "domino": 1, "trominoes": 2, "tetrominoes": 5, "pentominoes": 12,
        "hexominoes": 35, "heptominoes": 108, "one-sided-tetrominoes": 7,
        "one-sided-pentominoes": 18, "one-sided-hexominoes": 60, "soma": 7, "tricubes": 2,
        "tetracubes": 8, "pentacubes": 29,
    }
    assert sorted(pieces("pentominoes")) == list("FILNPTUVWXYZ")
    assert sorted(pieces("tetrominoes")) == list("ILOST")
    assert sorted(pieces("one-sided-tetrominoes")) == list("IJLOSTZ")
    assert list(pieces("soma")) == list("VLTZABP")


def test_pentomino_shapes_by_letter():
    p = pieces("pentominoes")
    assert len(p["X"].orientations()) == 1
    assert len(p["I"].orientations()) == 2
    assert len(p["F"].orientations()) == 8
    assert len(p["T"].orientations()) == 4
    assert p["X"].cells == ((0, 1), (1, 0), (1, 1), (1, 2), (2, 1))
    assert normalize([(0, 0), (0, 2), (1, 0), (1, 1), (1, 2)]) in p["U"].orientations()
    assert all(q.mirror for q in p.values())


def test_one_sided_pentominoes_pair_mirror_images():
    p = pieces("one-sided-pentominoes")
    assert all(len(q.orientations()) <= 4 and not q.mirror for q in p.values())
    rotations = lattice_group(2, mirror=False)
    f, f2 = p["F"].cells, p["F'"].cells
    assert set(orientations(f, rotations)).isdisjoint(orientations(f2, rotations))
    assert normalize((r, -c) for r, c in f) in orientations(f2, rotations)


def test_soma_pieces():
    p = pieces("soma")
    assert sum(q.size for q in p.values()) == 27
    assert p["V"].size == 3
    rotations = lattice_group(3, mirror=False)
    mirror_a = normalize((z, r, -c) for z, r, c in p["A"].cells)
    assert mirror_a in orientations(p["B"].cells, rotations)
    assert p["A"].cells not in orientations(p["B"].cells, rotations)
    assert len(p["A"].orientations()) == 12
    assert len(p["P"].orientations()) == 8
    # P is the branch: one cube touches the three others.
    cells = set(p["P"].cells)
    degrees = [sum(1 for d in cells if sum(abs(a - b) for a, b in zip(c, d)) == 1) for c in cells]
    assert sorted(degrees) == [1, 1, 1, 3]


REGISTRY = {name: entry for name, entry in BUILT_IN.items()}


def test_spec_sets_and_single_pieces():
    got = resolve_pieces("pentominoes,tetrominoes:O", REGISTRY)
    assert [p.name for p in got] == list("FILNPTUVWXYZ") + ["O"]


def test_unknown_set_lists_the_valid_names():
    with pytest.raises(UnknownNameError) as info:
        resolve_pieces("pentominos", REGISTRY)
    assert "pentominoes" in str(info.value) and "soma" in str(info.value)


def test_unknown_piece_lists_the_set_pieces():
    with pytest.raises(UnknownNameError, match="I, L, O, S, T"):
        resolve_pieces("tetrominoes:Q", REGISTRY)


@pytest.mark.parametrize(
    "spec, words",
    [("pentominoes,tetrominoes", "appears twice"), ("", "empty"), ("pentominoes,,soma", "empty item"),
     ("pentominoes,soma:A", "mixes 2D and 3D")],
)
def test_bad_specs(spec, words):
    with pytest.raises(PolyfitError, match=words):
        resolve_pieces(spec, REGISTRY)


def test_pieces_file(tmp_path):
    path = tmp_path / "mine.txt"
    path.write_text("; mirror: no\nAAB\nA.B\n\n1\n")
    got = resolve_pieces(str(path), REGISTRY)
    assert [(p.name, p.cells, p.mirror) for p in got] == [
        ("1", ((0, 0),), False),
        ("A", ((0, 0), (0, 1), (1, 0)), False),
        ("B", ((0, 0), (1, 0)), False),
    ]


def test_3d_pieces_file(tmp_path):
    path = tmp_path / "mine.vox"
    path.write_text("AA\n\nA.\n")
    (piece,) = resolve_pieces(str(path), REGISTRY)
    assert piece.cells == ((0, 0, 0), (0, 0, 1), (1, 0, 0)) and not piece.mirror


@pytest.mark.parametrize(
    "text, line, column, words",
    [("AA\n.A\nA.\n", 3, 1, "not connected"), ("A.A\n", 1, 3, "not connected"), ("AB\nA#\n", 2, 2, "unexpected character '#'")],
)
def test_pieces_file_errors(text, line, column, words):
    with pytest.raises(ParseError) as info:
        parse_pieces_text(text, "p.txt")
    assert (info.value.line, info.value.column) == (line, column)
    assert words in str(info.value)


def test_empty_pieces_file():
    with pytest.raises(PolyfitError, match="no pieces"):
        parse_pieces_text("; nothing\n...\n", "p.txt")


@settings(max_examples=300)
@given(st.text(alphabet=st.sampled_from("AB1. \n;:#é\r"), max_size=60), st.sampled_from([2, 3]))
def test_random_pieces_text_gives_pieces_or_a_documented_error(text, dim):
    try:
        got = parse_pieces_text(text, "p", dim)
    except ParseError as err:
        assert err.line >= 1 and err.column >= 1
    except PolyfitError:
        pass
    else:
        assert all(p.dim == dim for p in got)


def test_draw_pieces_shows_every_cell():
    art = draw_pieces(resolve_pieces("pentominoes", REGISTRY))
    for letter in "FILNPTUVWXYZ":
        assert art.count(letter) == 5
