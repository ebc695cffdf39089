"""``polyfit convert --solutions N --disassemble``: BurrTools ``<separation>`` trees.

The trees polyfit writes are read back (polyfit's reader), turned into moves by code here that
shares nothing with the writer, and replayed by the independent checker (``helpers.replay``):
every move free, every removal for good, the same level text. Where BurrTools is built, it reads
the files back without complaint and writes the same trees again, and the trees it finds itself
for the same assemblies are the ones polyfit wrote."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

import polyfit
from helpers import BURRTXT2, ROOT, burrtxt2, replay, run
from polyfit.errors import ParseError
from polyfit.formats import burrtools
from polyfit.longsearch.disassembly import take_apart

SHAPES = ROOT / "shapes" / "burrtools"
DATA = ROOT / "tests" / "data" / "disassembly"
PRISMS = ROOT / "tests" / "data" / "burrtools" / "prisms" / "disassembly"


def convert(app, source, target, *options):
    result = run(app, "convert", source, target, *options)
    assert result.exit_code == 0, result.output
    return result.output


def moves_of(tree, out=None):
    """The tree's moves in cells' order ``(z, y, x)``, pieces by BurrTools number: a part's
    moves, then the part left's, then the part removed's (as the level text reads them)."""
    out = [] if out is None else out
    where = [list(zip(*state)) for state in tree.states]  # per state: (x, y, z) per piece
    for before, after in zip(where, where[1:]):
        gone = [k for k, p in enumerate(after) if any(abs(v) > 10000 for v in p)]
        if gone:
            diff = [b - a for a, b in zip(before[gone[0]], after[gone[0]])]
            unit = tuple((v > 0) - (v < 0) for v in diff)
            assert sum(map(abs, unit)) == 1, diff
            out.append(([tree.pieces[k] for k in gone], unit[::-1], True))
            continue
        moved = [k for k in range(len(before)) if before[k] != after[k]]
        vectors = {tuple(b - a for a, b in zip(before[k], after[k])) for k in moved}
        assert moved and len(vectors) == 1, (before, after)
        out.append(([tree.pieces[k] for k in moved], next(iter(vectors))[::-1], False))
    for part in (tree.left, tree.removed):
        if part is not None:
            moves_of(part, out)
    return out


@pytest.mark.parametrize("name, limit", [("level-5-burr", 5), ("box-with-rim", 5)])
def test_separations_read_back_replay_and_keep_their_levels(app, tmp_path, name, limit):
    source = SHAPES / f"{name}.xmpuzzle"
    target = tmp_path / "out.xmpuzzle"
    said = convert(app, source, target, "--solutions", str(limit), "--disassemble")
    expected = [(s.to_json(), t) for s, t in polyfit.load(source).disassemblies(limit=limit)]
    assert f"with {len(expected)} solution" in said and "apart" in said
    found = burrtools.read_separations(target)
    solutions = burrtools.read_assemblies(target)
    assert len(found) == len(solutions) == len(expected) >= 1
    for (text, tree), cells, (_, taken) in zip(found, solutions, expected):
        assert tree is not None
        assert (tree.level(), tree.total()) == (taken.level, taken.total)
        pieces = list(cells.values())  # BurrTools' piece order: every piece is placed here
        assert sorted(tree.pieces) == list(range(len(pieces)))
        moves = moves_of(tree)
        assert len(moves) == taken.total
        assert replay([list(map(tuple, p)) for p in pieces], moves) == taken.level
    # the assemblies read back as the solutions polyfit found
    assert [{k: sorted(map(tuple, v)) for k, v in s.items()} for s in solutions] == [
        {k: sorted(map(tuple, v)) for k, v in s.items()} for s, _ in expected]


def test_weights_and_groups_are_written_with_the_trees(app, tmp_path):
    rim = tmp_path / "rim.xmpuzzle"
    convert(app, SHAPES / "box-with-rim.xmpuzzle", rim, "--solutions", "1", "--disassemble")
    assert 'weight="10"' in gzip.decompress(rim.read_bytes()).decode()
    group = tmp_path / "group.xmpuzzle"
    convert(app, DATA / "group-6.xmpuzzle", group, "--solutions", "1", "--disassemble")
    text = gzip.decompress(group.read_bytes()).decode()
    assert 'group="2"' in text and '<group group="1" count="1"/>' in text
    board = polyfit.read_board(group)
    original = polyfit.read_board(DATA / "group-6.xmpuzzle")
    assert [(r[0], r[1]) for r in board.motion] == [(r[0], r[1]) for r in original.motion]
    [(_, tree)] = burrtools.read_separations(group)
    [placements] = burrtools.read_assemblies(group)
    taken = take_apart(polyfit.load(group), placements)  # the assembly as saved, as it stands
    assert (tree.level(), tree.total()) == (taken.level, taken.total) == ("1", 3)
    assert taken.groups == [["D"], ["B", "D"]]


def test_without_disassemble_no_tree_is_written(app, tmp_path):
    target = tmp_path / "plain.xmpuzzle"
    convert(app, SHAPES / "level-5-burr.xmpuzzle", target, "--solutions", "2")
    assert [tree for _, tree in burrtools.read_separations(target)] == [None, None]


@pytest.mark.parametrize("options, message", [
    (["--disassemble"], "--solutions N"),
    (["--max-states", "5", "--solutions", "1"], "add --disassemble"),
])
def test_disassemble_options_refuse_what_does_not_fit(app, tmp_path, options, message):
    result = run(app, "convert", SHAPES / "level-5-burr.xmpuzzle", tmp_path / "x.xmpuzzle", *options)
    assert result.exit_code == 2 and message in result.output
    assert not (tmp_path / "x.xmpuzzle").exists()


def test_an_existing_file_is_refused_before_the_search(app, tmp_path):
    target = tmp_path / "x.xmpuzzle"
    target.write_text("mine")
    result = run(app, "convert", SHAPES / "level-5-burr.xmpuzzle", target, "--solutions", "1", "--disassemble")
    assert result.exit_code == 2 and "--force" in result.output
    assert target.read_text() == "mine"


BAD = '''<?xml version="1.0"?>
<puzzle version="2"><gridType type="0"/><colors/><shapes>
<voxel x="1" y="1" z="1" type="0">#</voxel><voxel x="2" y="1" z="1" type="0">##</voxel>
</shapes><problems><problem><shapes><shape id="0" count="2"/></shapes><result id="1"/><bitmap/>
<solutions><solution><assembly>0 0 0 0 1 0 0 0</assembly>
<separation><pieces count="2">0 1</pieces>
<state><dx>0 1</dx><dy>0 0</dy><dz>0 0</dz></state>
{last}
</separation></solution></solutions></problem></problems></puzzle>
'''


@pytest.mark.parametrize("last, message", [
    ("<state><dx>0 20001</dx><dy>0 0</dy><dz>0 0</dz></state>", None),
    ("<state><dx>0 20001</dx><dy>0 0</dy></state>", "needs one <dz>"),
    ("<state><dx>0 2x</dx><dy>0 0</dy><dz>0 0</dz></state>", "<dx> needs 2 numbers"),
    ("<state><dx>0 1</dx><dy>0 0</dy><dz>0 0</dz></state><separation type=\"left\"><pieces count=\"1\">0</pieces></separation>",
     "must remove some pieces"),
])
def test_a_bad_separation_is_a_parse_error_with_its_place(tmp_path, last, message):
    path = tmp_path / "bad.xmpuzzle"
    path.write_text(BAD.format(last=last))
    if message is None:
        [(text, tree)] = burrtools.read_separations(path)
        assert (text, tree.level(), tree.pieces) == ("0 0 0 0 1 0 0 0", "1", (0, 1))
        return
    with pytest.raises(ParseError) as caught:
        burrtools.read_separations(path)
    assert message in str(caught.value) and "bad.xmpuzzle:" in str(caught.value)
    polyfit.read_board(path)  # the board itself still reads: trees are read when asked for


# -- BurrTools itself ------------------------------------------------------------------------------


def burrtxt2_trees(path: Path, *options: str) -> list:
    """burrTxt2 OPTIONS on a copy of ``path``: the solutions and trees of the file it writes."""
    work = path.parent / ("bt-" + "".join(options).replace("-", "") + "-" + path.stem)
    work.mkdir()
    return burrtools.read_separations(burrtxt2(path, work, *options))


@pytest.mark.slow
@pytest.mark.skipif(not BURRTXT2.exists(), reason="BurrTools is not built here (bash ../shared/burrtools/build.sh)")
@pytest.mark.parametrize("source", [SHAPES / "level-5-burr.xmpuzzle", SHAPES / "box-with-rim.xmpuzzle",
                                    DATA / "knot-3.xmpuzzle", DATA / "box-1.xmpuzzle", DATA / "group-1.xmpuzzle", DATA / "group-6.xmpuzzle",
                                    DATA / "burr-4.xmpuzzle", PRISMS / "box-2.xmpuzzle", PRISMS / "box-6.xmpuzzle"],
                         ids=lambda p: p.parent.name + "-" + p.stem)
def test_burrtools_reads_the_trees_back_and_finds_the_same_ones(app, tmp_path, source):
    target = tmp_path / "ours.xmpuzzle"
    convert(app, source, target, "--solutions", "10", "--disassemble")  # burrTxt2 keeps 10
    ours = dict(burrtools.read_separations(target))
    assert ours and all(tree is not None for tree in ours.values())
    # read and written again by BurrTools (-c: count only, so it adds none of its own)
    assert dict(burrtxt2_trees(target, "-c")) == ours
    # BurrTools' own disassembly of the same file: the same tree for every assembly both have
    own = burrtxt2_trees(target, "-R", "-d")
    shared = [(text, tree) for text, tree in own if text in ours]
    assert shared, "BurrTools kept none of polyfit's assemblies"
    for text, tree in shared:
        assert tree == ours[text], (text, tree.level(), ours[text].level())
