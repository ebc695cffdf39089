"""MagicaVoxel ``.vox`` files (binary, versions 150 and 200): every filled voxel is a board cell.

The file is ``VOX `` and a version, then a ``MAIN`` chunk whose children are ``SIZE``/``XYZI``
pairs (one per model) and, since version 200, a scene graph (``nTRN`` transforms, ``nGRP``
groups, ``nSHP`` shapes) placing the models. Unknown chunks are skipped by their length. Every
length and count is checked against the bytes that are really there before anything is
allocated, so truncated or hostile files give a :class:`~polyfit.errors.ParseError` (reported at
line 1, column = byte offset + 1, as binary files have no lines).
"""

from __future__ import annotations

from polyfit.puzzle.board import Board
from polyfit.files import read_bytes
from polyfit.errors import ParseError, plural
from polyfit.limits import check, limit
from polyfit.hookspecs import hookimpl

MAGIC = b"VOX "
MAX_SIZE = 2048  # MagicaVoxel's own largest model side is 256


class _Reader:
    def __init__(self, data: bytes, path, start: int = 0, end: int | None = None):
        self.data = data
        self.path = path
        self.pos = start
        self.end = len(data) if end is None else end

    def fail(self, message, at=None):
        raise ParseError(self.path, 1, (self.pos if at is None else at) + 1, message)

    def take(self, n: int) -> bytes:
        if n < 0 or self.pos + n > self.end:
            self.fail(f"truncated: needs {plural(n, 'more byte')}, {self.end - self.pos} left")
        chunk = self.data[self.pos : self.pos + n]
        self.pos += n
        return chunk

    def int32(self) -> int:
        return int.from_bytes(self.take(4), "little", signed=True)

    def string(self) -> str:
        size = self.int32()
        return self.take(size).decode("utf-8", "replace")

    def dict(self) -> dict[str, str]:
        count = self.int32()
        if count < 0 or count * 8 > self.end - self.pos:
            self.fail(f"bad dictionary size {count}")
        return {self.string(): self.string() for _ in range(count)}


def _rotation(code: int):
    """MagicaVoxel's packed rotation byte as a 3x3 signed permutation (row -> (column, sign))."""
    first, second = code & 3, (code >> 2) & 3
    if first > 2 or second > 2 or first == second:
        return None
    third = 3 - first - second
    signs = [-1 if code & (1 << bit) else 1 for bit in (4, 5, 6)]
    return [(first, signs[0]), (second, signs[1]), (third, signs[2])]


def _chunks(reader: _Reader):
    """Yield ``(id, content_reader, offset)`` for each chunk until the reader's end."""
    while reader.pos < reader.end:
        offset = reader.pos
        ident = reader.take(4)
        content = reader.int32()
        children = reader.int32()
        if content < 0 or children < 0 or reader.pos + content + children > reader.end:
            reader.fail(f"chunk {ident!r} claims more bytes than the file has", offset)
        body = _Reader(reader.data, reader.path, reader.pos, reader.pos + content)
        yield ident, body, offset
        reader.pos += content + children


def parse_magicavoxel(data: bytes, path="<bytes>") -> Board:
    top = _Reader(data, path)
    if top.take(4) != MAGIC:
        top.fail("not a MagicaVoxel file (it does not start with 'VOX ')", 0)
    version = top.int32()
    if version not in (150, 200):
        top.fail(f"unsupported MagicaVoxel version {version} (150 and 200 are read)", 4)
    ident = top.take(4)
    if ident != b"MAIN":
        top.fail(f"expected the MAIN chunk, found {ident!r}", 8)
    content, children = top.int32(), top.int32()
    if content < 0 or children < 0 or top.pos + content + children > top.end:
        top.fail("the MAIN chunk claims more bytes than the file has", 8)
    inner = _Reader(data, path, top.pos + content, top.pos + content + children)

    models = []  # (size, voxels)
    size = None
    nodes = {}
    for ident, body, offset in _chunks(inner):
        if ident == b"SIZE":
            size = (body.int32(), body.int32(), body.int32())
            if not all(0 < s <= MAX_SIZE for s in size):
                body.fail(f"bad model size {size}", offset)
        elif ident == b"XYZI":
            if size is None:
                body.fail("voxel data (XYZI) before its model size (SIZE)", offset)
            count = body.int32()
            if count < 0 or count * 4 > body.end - body.pos:
                body.fail(f"voxel count {count} does not fit the chunk", offset)
            if count + sum(len(v) for _, v in models) > limit("cells"):
                check("cells", count + sum(len(v) for _, v in models), f"{path} (byte {offset + 1})")
            raw = body.take(4 * count)
            voxels = set()
            for i in range(0, len(raw), 4):
                x, y, z = raw[i], raw[i + 1], raw[i + 2]
                if x >= size[0] or y >= size[1] or z >= size[2]:
                    body.fail(f"voxel ({x}, {y}, {z}) outside the model size {size}", offset)
                voxels.add((x, y, z))
            models.append((size, voxels))
            size = None
        elif ident in (b"nTRN", b"nGRP", b"nSHP"):
            node_id = body.int32()
            body.dict()
            if ident == b"nTRN":
                child = body.int32()
                body.int32()  # reserved
                body.int32()  # layer
                frames = body.int32()
                if frames < 1 or frames > body.end - body.pos:
                    body.fail(f"bad frame count {frames}", offset)
                frame = body.dict()
                nodes[node_id] = ("trn", child, frame)
            elif ident == b"nGRP":
                count = body.int32()
                if count < 0 or count * 4 > body.end - body.pos:
                    body.fail(f"bad child count {count}", offset)
                nodes[node_id] = ("grp", [body.int32() for _ in range(count)])
            else:
                count = body.int32()
                if count < 1 or count * 8 > body.end - body.pos:
                    body.fail(f"bad model count {count}", offset)
                nodes[node_id] = ("shp", body.int32())
    if not models:
        top.fail("the file has no voxel models")

    cells = set()
    if nodes and 0 in nodes:
        _place_scene(nodes, models, top, cells)
    else:
        for _, voxels in models:  # no scene graph (version 150): models share one origin
            cells |= voxels
    if not cells:
        top.fail("the file has no filled voxels")
    # MagicaVoxel's z is up: our cells are (z, row, col) with row = y and col = x.
    board_cells = sorted((z, y, x) for x, y, z in cells)
    low = [min(c[i] for c in board_cells) for i in range(3)]
    board_cells = tuple(tuple(c[i] - low[i] for i in range(3)) for c in board_cells)
    return Board(board_cells, "", {}, str(path))


def _place_scene(nodes, models, reader, cells):
    """Walk the scene graph from node 0, composing each transform down to the shapes."""
    identity = ([(0, 1), (1, 1), (2, 1)], (0, 0, 0))
    stack = [(0, identity, 0)]
    visits = 0
    placed = 0  # voxels placed so far, each time a model is placed counted again
    most = limit("voxel-placements")
    while stack:
        node_id, (rot, shift), depth = stack.pop()
        visits += 1
        if depth > 64 or visits > 100_000:
            reader.fail("the scene graph is too deep or has a cycle")
        node = nodes.get(node_id)
        if node is None:
            reader.fail(f"the scene graph refers to missing node {node_id}")
        if node[0] == "trn":
            frame = node[2]
            try:
                local = _rotation(int(frame["_r"])) if "_r" in frame else identity[0]
            except ValueError:
                local = None
            if local is None:
                reader.fail(f"bad rotation {frame.get('_r')!r} in node {node_id}")
            try:
                t = tuple(int(v) for v in frame.get("_t", "0 0 0").split())
            except ValueError:
                t = ()
            if len(t) != 3:
                reader.fail(f"bad translation {frame.get('_t')!r} in node {node_id}")
            # parent(rot, shift) after local(local, t): p = rot*(local*v + t) + shift
            new_rot = [(local[rot_col][0], rot_sign * local[rot_col][1]) for rot_col, rot_sign in rot]
            moved = _apply(rot, t)
            stack.append((node[1], (new_rot, tuple(a + b for a, b in zip(moved, shift))), depth + 1))
        elif node[0] == "grp":
            for child in node[1]:
                stack.append((child, (rot, shift), depth + 1))
        else:
            model = node[1]
            if not 0 <= model < len(models):
                reader.fail(f"the scene graph refers to missing model {model}")
            size, voxels = models[model]
            placed += len(voxels)
            if placed > most:
                check("voxel-placements", placed, f"{reader.path} (its scene graph)")
            half = tuple(s // 2 for s in size)
            for v in voxels:
                centred = tuple(a - h for a, h in zip(v, half))
                p = _apply(rot, centred)
                cells.add(tuple(a + b for a, b in zip(p, shift)))


def _apply(rot, v):
    return tuple(sign * v[col] for col, sign in rot)


def read_magicavoxel(path) -> Board:
    return parse_magicavoxel(read_bytes(path), path)


def write_magicavoxel(cells, version: int = 150) -> bytes:
    """A minimal single-model file holding the given (z, row, col) cells (for tests and export)."""
    import struct  # writing only: reading takes its numbers without it

    xs = [(c, r, z) for z, r, c in cells]
    size = tuple(max(v[i] for v in xs) + 1 for i in range(3))
    size_chunk = b"SIZE" + struct.pack("<iiiii", 12, 0, *size)
    voxels = b"".join(bytes((x, y, z, 1)) for x, y, z in xs)
    xyzi = b"XYZI" + struct.pack("<iii", 4 + len(voxels), 0, len(xs)) + voxels
    children = size_chunk + xyzi
    return MAGIC + struct.pack("<i", version) + b"MAIN" + struct.pack("<ii", 0, len(children)) + children


@hookimpl
def register_shape_readers(register):
    register("magicavoxel", (), read_magicavoxel, lambda head: head.startswith(MAGIC))
