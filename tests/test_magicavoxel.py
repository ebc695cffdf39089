import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyfit.errors import ParseError, PolyfitError
from polyfit.formats.magicavoxel import parse_magicavoxel, write_magicavoxel

CUBE = tuple((z, r, c) for z in range(3) for r in range(3) for c in range(3))
STEP = ((0, 0, 0), (0, 0, 1), (0, 1, 0), (1, 0, 0))


def chunk(ident, content=b"", children=b""):
    return ident + struct.pack("<ii", len(content), len(children)) + content + children


def vox(children, version=200):
    return b"VOX " + struct.pack("<i", version) + chunk(b"MAIN", b"", children)


def string(s):
    return struct.pack("<i", len(s)) + s.encode()


def dictionary(pairs):
    return struct.pack("<i", len(pairs)) + b"".join(string(k) + string(v) for k, v in pairs.items())


def model(cells):
    """SIZE and XYZI chunks for (x, y, z) voxels."""
    size = tuple(max(v[i] for v in cells) + 1 for i in range(3))
    voxels = b"".join(bytes((x, y, z, 7)) for x, y, z in cells)
    return chunk(b"SIZE", struct.pack("<iii", *size)) + chunk(
        b"XYZI", struct.pack("<i", len(cells)) + voxels
    )


@pytest.mark.parametrize("version", [150, 200])
def test_round_trip_single_model(version):
    board = parse_magicavoxel(write_magicavoxel(STEP, version))
    assert board.cells == STEP


def test_unknown_chunks_are_skipped():
    data = vox(chunk(b"PACK", struct.pack("<i", 1)) + model([(0, 0, 0), (1, 0, 0)]) + chunk(b"RGBA", bytes(1024)) + chunk(b"zzzz", b"abc"))
    assert parse_magicavoxel(data).cells == ((0, 0, 0), (0, 0, 1))


def test_version_200_scene_graph_places_two_models_side_by_side():
    # Two 1x1x1 models, the second translated 1 along x: together a domino.
    one = model([(0, 0, 0)])
    root = chunk(b"nTRN", struct.pack("<i", 0) + dictionary({}) + struct.pack("<iiii", 1, -1, -1, 1) + dictionary({}))
    group = chunk(b"nGRP", struct.pack("<i", 1) + dictionary({}) + struct.pack("<iii", 2, 2, 4))
    left = chunk(b"nTRN", struct.pack("<i", 2) + dictionary({}) + struct.pack("<iiii", 3, -1, 0, 1) + dictionary({"_t": "0 0 0"}))
    right = chunk(b"nTRN", struct.pack("<i", 4) + dictionary({}) + struct.pack("<iiii", 5, -1, 0, 1) + dictionary({"_t": "1 0 5"}))
    shape0 = chunk(b"nSHP", struct.pack("<i", 3) + dictionary({}) + struct.pack("<ii", 1, 0) + dictionary({}))
    shape1 = chunk(b"nSHP", struct.pack("<i", 5) + dictionary({}) + struct.pack("<ii", 1, 1) + dictionary({}))
    board = parse_magicavoxel(vox(one + one + root + group + left + right + shape0 + shape1))
    assert board.cells == ((0, 0, 0), (5, 0, 1))


def test_scene_rotation_is_applied():
    # A 2-voxel bar along x, rotated a quarter turn about z (_r: row0 <- -y, row1 <- x).
    bar = model([(0, 0, 0), (1, 0, 0)])
    r = 1 | (0 << 2) | (1 << 4)  # row 0 takes column 1 with sign -, row 1 takes column 0
    root = chunk(b"nTRN", struct.pack("<i", 0) + dictionary({}) + struct.pack("<iiii", 1, -1, -1, 1) + dictionary({"_r": str(r)}))
    shape = chunk(b"nSHP", struct.pack("<i", 1) + dictionary({}) + struct.pack("<ii", 1, 0) + dictionary({}))
    board = parse_magicavoxel(vox(bar + root + shape))
    assert board.cells == ((0, 0, 0), (0, 1, 0))  # now along y


@pytest.mark.parametrize(
    "data, words",
    [
        (b"VOX", "truncated"),
        (b"VOX " + struct.pack("<i", 999), "version 999"),
        (b"VOXX" + bytes(20), "not a MagicaVoxel"),
        (vox(chunk(b"SIZE", struct.pack("<iii", 2, 2, 2)) + chunk(b"XYZI", struct.pack("<i", 10**9))), "voxel count"),
        (vox(chunk(b"SIZE", struct.pack("<iii", -1, 2, 2))), "bad model size"),
        (vox(chunk(b"XYZI", struct.pack("<i", 0))), "before its model size"),
        (vox(model([(0, 0, 0)]))[:-2], "claims more bytes"),
        (vox(chunk(b"SIZE", struct.pack("<iii", 1, 1, 1)) + chunk(b"XYZI", struct.pack("<i", 1) + bytes((3, 0, 0, 1)))), "outside the model size"),
        (vox(b""), "no voxel models"),
    ],
)
def test_bad_files_give_clear_errors(data, words):
    with pytest.raises(ParseError, match=words):
        parse_magicavoxel(data, "bad.vox")


@settings(max_examples=300)
@given(st.binary(max_size=200))
def test_random_bytes_after_the_magic_never_crash(tail):
    try:
        parse_magicavoxel(b"VOX " + struct.pack("<i", 150) + tail)
    except ParseError:
        pass


@settings(max_examples=200)
@given(st.data())
def test_truncated_real_files_give_parse_errors(data):
    full = write_magicavoxel(CUBE, 200)
    cut = data.draw(st.integers(0, len(full) - 1))
    with pytest.raises(ParseError):
        parse_magicavoxel(full[:cut])


def scene(count, translation=lambda k: f"{k} 0 0"):
    """A root transform over a group of ``count`` transforms, each placing model 0."""
    nodes = [chunk(b"nTRN", struct.pack("<i", 0) + dictionary({}) + struct.pack("<iiii", 1, -1, -1, 1) + dictionary({}))]
    children = [2 + 2 * k for k in range(count)]
    nodes.append(chunk(b"nGRP", struct.pack("<i", 1) + dictionary({}) + struct.pack("<i", count) + struct.pack(f"<{count}i", *children)))
    for k, node in enumerate(children):
        nodes.append(chunk(b"nTRN", struct.pack("<i", node) + dictionary({}) + struct.pack("<iiii", node + 1, -1, 0, 1) + dictionary({"_t": translation(k)})))
        nodes.append(chunk(b"nSHP", struct.pack("<i", node + 1) + dictionary({}) + struct.pack("<ii", 1, 0) + dictionary({})))
    return b"".join(nodes)


def test_a_scene_graph_that_places_a_model_too_often_is_refused_quickly(monkeypatch):
    """A small file may place one model a hundred thousand times: it stops at the limit."""
    import time

    monkeypatch.setenv("POLYFIT_MAX_VOXEL_PLACEMENTS", "20000")
    block = [(x, y, z) for x in range(4) for y in range(4) for z in range(4)]
    data = vox(model(block) + scene(20_000))
    start = time.process_time()
    with pytest.raises(PolyfitError, match="POLYFIT_MAX_VOXEL_PLACEMENTS"):
        parse_magicavoxel(data)
    assert time.process_time() - start < 10  # a bound on runaway work, not a benchmark


def test_voxels_placed_far_apart_are_refused_not_allocated():
    data = vox(model([(0, 0, 0)]) + scene(2, lambda k: f"{k * 10**9} 0 0"))
    with pytest.raises(PolyfitError, match="box around a board.*POLYFIT_MAX_BOX"):
        parse_magicavoxel(data)
