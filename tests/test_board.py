import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyfit.formats.textart import parse_board_text, read_text_board
from polyfit.errors import ParseError, PolyfitError


def test_parse_cells_metadata_and_ragged_rows():
    board = parse_board_text("; name: tee\n; pieces: tetrominoes\n; just a comment\n###\n.#\n")
    assert board.cells == ((0, 0), (0, 1), (0, 2), (1, 1))
    assert board.name == "tee"
    assert board.metadata["pieces"] == "tetrominoes"
    assert board.dim == 2 and board.area == 4


def test_spaces_and_dots_are_holes_and_blank_edges_are_ignored():
    board = parse_board_text("\n\n# #\n#.#\n\n")
    assert board.cells == ((0, 0), (0, 2), (1, 0), (1, 2))


def test_crlf_line_endings():
    assert parse_board_text("##\r\n##\r\n").area == 4


def test_optional_cells_and_pre_placed_letters():
    board = parse_board_text("+##+\n#XX#\n#XX#\nA##A\n")
    assert board.area == 16
    assert board.optional == {(0, 0), (0, 3)}
    assert [(name, cells) for name, cells, _ in board.fixed] == [
        ("X", ((1, 1), (1, 2), (2, 1), (2, 2))),
        ("A", ((3, 0),)),
        ("A", ((3, 3),)),
    ]
    assert board.fixed[1][2] == (4, 1)  # line and column of the letter, for error messages


def test_reserved_character_names_line_and_column(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("; name: x\n####\n##*#\n")
    with pytest.raises(ParseError) as info:
        read_text_board(path)
    err = info.value
    assert (err.line, err.column) == (3, 3)
    assert str(err).startswith(f"{path}:3:3:")
    assert "'*'" in str(err)


def test_not_utf8_names_position(tmp_path):
    path = tmp_path / "bin.txt"
    path.write_bytes(b"##\n#\xff#\n")
    with pytest.raises(ParseError) as info:
        read_text_board(path)
    assert (info.value.line, info.value.column) == (2, 2)


def test_empty_board_is_an_error():
    with pytest.raises(PolyfitError, match="no cells"):
        parse_board_text("; only a comment\n...\n")


@settings(max_examples=300)
@given(st.text(alphabet=st.sampled_from("#. \n;:abX\t\r\u00e9"), max_size=80))
def test_random_text_gives_a_board_or_a_documented_error(text):
    try:
        board = parse_board_text(text)
    except ParseError as err:
        assert err.line >= 1 and err.column >= 1
    except PolyfitError:
        pass
    else:
        assert board.area >= 1


@pytest.mark.slow
@settings(max_examples=300)
@given(st.binary(max_size=80))
def test_random_bytes_give_a_board_or_a_documented_error(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("fuzz") / "board.txt"
    path.write_bytes(data)
    try:
        read_text_board(path)
    except ParseError as err:
        assert err.line >= 1 and err.column >= 1
    except PolyfitError:
        pass


def test_voxel_layers_bottom_first():
    from polyfit.formats.textart import parse_voxel_text

    board = parse_voxel_text("; name: step\n; pieces: soma\n##\n##\n\n\n#.\n")
    assert board.dim == 3
    assert board.cells == ((0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1, 1), (1, 0, 0))
    assert board.metadata["pieces"] == "soma"


def test_voxel_error_position_counts_lines_across_layers(tmp_path):
    from polyfit.formats.textart import read_voxel_text

    path = tmp_path / "bad.vox"
    path.write_text("##\n##\n\n#?\n")
    with pytest.raises(ParseError) as info:
        read_voxel_text(path)
    assert (info.value.line, info.value.column) == (4, 2)


@settings(max_examples=200)
@given(st.text(alphabet=st.sampled_from("#. \n;:aX\r"), max_size=80))
def test_random_voxel_text_gives_a_board_or_a_documented_error(text):
    from polyfit.formats.textart import parse_voxel_text

    try:
        board = parse_voxel_text(text)
    except ParseError as err:
        assert err.line >= 1 and err.column >= 1
    except PolyfitError:
        pass
    else:
        assert board.dim == 3
