"""The gallery: rebuilt deterministically from shapes/, small files, honest counts."""

import json
import re
import shutil
from pathlib import Path

import pytest
from PIL import Image

from polyfit.gallery import shape_files
from polyfit.render.palette import piece_colours

from helpers import run

ROOT = Path(__file__).resolve().parent.parent
GALLERY = ROOT / "gallery"


@pytest.fixture
def small_shapes(tmp_path):
    shapes = tmp_path / "shapes"
    for name in ("pentomino/3x20.txt", "tetromino/4x5.txt", "soma/castle.vox"):
        (shapes / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / "shapes" / name, shapes / name)
    return shapes


def test_gallery_build_is_deterministic_and_small(app, small_shapes, tmp_path):
    out = tmp_path / "gallery"
    result = run(app, "gallery", "--shapes", small_shapes, "--out", out)
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in out.iterdir())
    assert names == sorted([
        "README.md", "pentomino-3x20.png", "tetromino-4x5.png", "soma-castle.png",
        "pieces-pentominoes.png", "pieces-tetrominoes.png", "pieces-soma.png",
        "readme-castle-exploded.png", "readme-castle-layers.png",
    ])
    first = {p.name: p.read_bytes() for p in out.iterdir()}
    assert run(app, "gallery", "--shapes", small_shapes, "--out", out).exit_code == 0
    assert {p.name: p.read_bytes() for p in out.iterdir()} == first
    for name, data in first.items():
        if name.endswith(".png"):
            assert len(data) < 50_000, name
    readme = (out / "README.md").read_text()
    assert "2 distinct, 8 in all" in readme  # 3x20
    assert "3 distinct (6 up to rotation alone), 6 in all" in readme  # castle
    assert "no solution" in readme  # the 4x5 box and the tetrominoes
    for name in names:
        if name.endswith(".png"):
            assert f"({name})" in readme, name
    # The 3x20 picture is its first solution: every pentomino's colour is in it.
    found = {c for _, c in Image.open(out / "pentomino-3x20.png").convert("RGB").getcolors(4096)}
    assert set(piece_colours("FILNPTUVWXYZ").values()) <= found


def test_gallery_errors(app, tmp_path):
    result = run(app, "gallery", "--shapes", tmp_path / "none", "--out", tmp_path / "g")
    assert result.exit_code == 2 and "does not exist" in result.output
    (tmp_path / "file").write_text("")
    (tmp_path / "s").mkdir()
    shutil.copy(ROOT / "shapes/pentomino/3x20.txt", tmp_path / "s")
    result = run(app, "gallery", "--shapes", tmp_path / "s", "--out", tmp_path / "file")
    assert result.exit_code == 2 and "not a directory" in result.output


def test_committed_gallery_covers_every_shape_with_the_manifest_counts():
    readme = (GALLERY / "README.md").read_text()
    shapes = shape_files(ROOT / "shapes")
    assert len(shapes) >= 50 and not any(p.name.endswith(".pieces.vox") for p in shapes)
    for path in shapes:
        group = path.parent.relative_to(ROOT / "shapes").as_posix()  # soma, generated/soma, ...
        picture = GALLERY / f"{group.replace('/', '-')}-{path.stem}.png"
        assert picture.exists(), picture
        assert picture.stat().st_size < 50_000, picture
        assert f"shapes/{group}/{path.name}`" in readme, path
    manifest = json.loads((ROOT / "shapes/soma/manifest.json").read_text())["figures"]
    for file, entry in manifest.items():
        cell = re.search(rf"`shapes/soma/{re.escape(file)}`<br>([^|]*)", readme).group(1).strip()
        if entry["total"] == 0:
            assert cell == "no solution", file
        else:
            expected = (f"{entry['distinct']:,} distinct ({entry['distinct_rotations']:,} up to "
                        f"rotation alone), {entry['total']:,} in all")
            assert cell == expected, file
