"""Limits: small inputs cannot make polyfit work or allocate without bound, and each limit
names itself and how to raise it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from polyfit.errors import PolyfitError
from polyfit.limits import LIMITS, LimitError, limit, parse_number, parse_range, variable

ROOT = Path(__file__).resolve().parent.parent


def polyfit(*args, env=None, timeout=120):
    import os

    result = subprocess.run(
        [sys.executable, "-m", "polyfit", *args], cwd=ROOT.parent, capture_output=True, text=True,
        timeout=timeout, env={**os.environ, **(env or {})},
    )
    assert "Traceback" not in result.stderr, result.stderr
    return result


@pytest.mark.parametrize("text", ["²", "٣", "1.5", "-3", "", "0x10", "1e3", "3 4"])
def test_only_ascii_digits_are_numbers(text):
    with pytest.raises(PolyfitError, match="a count .*: write a whole number with the digits 0-9"):
        parse_number(text, "a count")
    with pytest.raises(PolyfitError, match="a range lo..hi, with the digits 0-9"):
        parse_range(f"1..{text}", "a count")


def test_numbers_have_ranges():
    assert parse_number(" 42 ", "a count") == 42
    with pytest.raises(PolyfitError, match="at most 2,147,483,647"):
        parse_number("99999999999999999999", "a count")
    with pytest.raises(PolyfitError, match="at most 9"):
        parse_number("10", "a digit", high=9)
    with pytest.raises(PolyfitError, match="at least 1"):
        parse_number("0", "a size", low=1)
    assert parse_range(" 2 .. 4 ", "a count") == (2, 4) and parse_range("7", "a count") == (7, 7)
    with pytest.raises(PolyfitError, match="the low end 3 is above the high end 1"):
        parse_range("3..1", "a count")


def test_every_limit_can_be_raised_by_its_variable(monkeypatch):
    for name, (default, _, _) in LIMITS.items():
        assert limit(name) == default
        monkeypatch.setenv(variable(name), str(default + 1))
        assert limit(name) == default + 1
    monkeypatch.setenv(variable("cells"), "lots")
    with pytest.raises(PolyfitError, match="POLYFIT_MAX_CELLS must be a whole number"):
        limit("cells")


def test_a_board_over_the_cell_limit_is_refused(tmp_path):
    board = tmp_path / "big.txt"
    board.write_text("; pieces: monomino\n" + "#" * 3000 + "\n")
    result = polyfit("solve", str(board), env={"POLYFIT_MAX_CELLS": "2000"})
    assert result.returncode == 2
    assert "3,000 cells, over polyfit's limit of 2,000" in result.stderr
    assert "POLYFIT_MAX_CELLS=N" in result.stderr


def test_a_device_that_never_ends_is_not_read_without_end(tmp_path):
    board = tmp_path / "b.txt"
    board.write_text("; pieces: /dev/zero\n##\n")
    result = polyfit("solve", str(board), env={"POLYFIT_MAX_FILE_BYTES": "100000"})
    assert result.returncode == 2
    assert "/dev/zero: 100,001 bytes, over polyfit's limit" in result.stderr


def test_a_huge_high_end_of_a_count_means_as_many_as_fit(tmp_path):
    """0..2000000000 monominoes on four cells: as many as fit, at once."""
    board = tmp_path / "b.txt"
    board.write_text("; pieces: 0..2000000000*monomino\n##\n##\n")
    result = polyfit("solve", str(board), "--count", timeout=30)
    assert result.returncode == 0
    assert "1 distinct solution, 1 in all" in result.stdout


def test_too_many_placements_are_refused(tmp_path):
    board = tmp_path / "b.txt"
    board.write_text("; pieces: 100*monomino\n" + ("#" * 10 + "\n") * 10)
    result = polyfit("solve", str(board), "--count", env={"POLYFIT_MAX_PLACEMENTS": "50"})
    assert result.returncode == 2
    assert "placements, over polyfit's limit of 50" in result.stderr


def test_a_sparse_board_in_a_huge_box_is_refused():
    """Two cells far apart would make every picture, text drawing and bit grid enormous."""
    from polyfit.puzzle.board import Board

    assert Board(((0, 0), (0, 9_999_999))).area == 2
    with pytest.raises(LimitError, match="box around a board"):
        Board(((0, 0), (0, 10_000_000)))


@pytest.mark.parametrize("text, message", [
    ("A \xb2|B\nA B\n", "multiplicity '\xb2' must be 'lo:hi' or 'n': write a whole number"),
    ("A 2147483648|B\nA B\n", "at most 2,147,483,647 is allowed"),
    ("A 1:99999999999999999999|B\nA B\n", "at most 2,147,483,647 is allowed"),
])
def test_dlx_numbers_are_parsed_by_the_one_parser(tmp_path, text, message):
    path = tmp_path / "p.dlx"
    path.write_text(text, encoding="utf-8")
    result = polyfit("xc", str(path))
    assert result.returncode == 2
    assert message in result.stderr and f"{path.name}:1:3:" in result.stderr


@pytest.mark.parametrize("backend", ["dlx-c", "dlx-python"])
def test_a_huge_multiplicity_means_as_many_as_options_allow(tmp_path, backend):
    path = tmp_path / "p.dlx"
    path.write_text("A 0:600000000|B\nA B\nA\n")
    result = polyfit("xc", str(path), "--count", "--backend", backend)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("2 solutions")


def test_a_byte_order_mark_is_not_part_of_the_first_item(tmp_path):
    path = tmp_path / "p.dlx"
    path.write_bytes(b"\xef\xbb\xbfA B\nA B\n")
    result = polyfit("xc", str(path))
    assert result.returncode == 0 and result.stdout.startswith("A B\n")
    board = tmp_path / "b.txt"
    board.write_bytes(b"\xef\xbb\xbf; pieces: domino\n##\n")
    assert polyfit("solve", str(board), "--count").returncode == 0


def test_too_many_items_are_refused(tmp_path):
    path = tmp_path / "p.dlx"
    path.write_text(" ".join(f"i{k}" for k in range(101)) + "\ni0\n")
    result = polyfit("xc", str(path), env={"POLYFIT_MAX_ITEMS": "100"})
    assert result.returncode == 2 and "101 items, over polyfit's limit of 100" in result.stderr
