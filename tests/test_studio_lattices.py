"""polyfit studio on BurrTools' other grids: files on a lattice the page does not draw (triangular
prisms, spheres, ...) open read-only, count and solve as the command line does, and are shown as
the library's solids (/api/meshes); a lattice without solids is refused in one line."""

import json
import math
import time

import pytest

from helpers import ROOT, run_cli

pytest.importorskip("starlette", reason="polyfit studio needs pip install 'polyfit[studio]'")
from starlette.testclient import TestClient  # noqa: E402

from polyfit.studio.app import create_app  # noqa: E402

PORT = 8765
PRISMS = ROOT / "tests" / "data" / "burrtools" / "prisms"
SPHERES = ROOT / "tests" / "data" / "burrtools" / "spheres"
PRISM_AREA = math.sqrt(3) / 4  # a prism's volume: a triangle of side 1, one layer high


@pytest.fixture
def client(tmp_path):
    for source in (PRISMS / "hexagon-tower-triprisms.xmpuzzle", PRISMS / "diamonds-and-stacks.xmpuzzle",
                   PRISMS / "disassembly" / "box-0.xmpuzzle", SPHERES / "flat-hexagon.xmpuzzle"):
        (tmp_path / source.name).write_bytes(source.read_bytes())
    (tmp_path / "hex.txt").write_text("; lattice: hex\n; pieces: 3*dihex\n# # #\n # # #\n")
    with TestClient(create_app(tmp_path, PORT), base_url=f"http://127.0.0.1:{PORT}") as client:
        yield client


def opened(client, name):
    """The body of a request for a file opened as the page opens it."""
    answer = client.get(f"/api/files/{name}")
    assert answer.status_code == 200, answer.text
    data = answer.json()
    return data, {"board": data["text"], "dim": data["dim"], **({"file": name} if data["pieces"] else {})}


def counted(client, body):
    started = client.post("/api/count", json=body)
    assert started.status_code == 200, started.text
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        state = client.get(f"/api/jobs/{started.json()['job']}").json()
        if state["state"] != "running" and state["state"] != "queued":
            assert state["state"] == "done", state
            return state["result"]
        time.sleep(0.05)
    raise AssertionError("the count did not finish in 60 s")


def cli_counts(path, *options):
    result = run_cli(["solve", str(path), "--count", "--json", *options])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def volume(mesh) -> float:
    """A closed mesh's volume (the divergence theorem over its triangles)."""
    points = mesh["vertices"]
    total = 0.0
    for i, j, k in mesh["faces"]:
        (a, b, c) = points[i], points[j], points[k]
        total += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0])) / 6
    return total


def closed(mesh) -> bool:
    """Every edge of the triangles is met once each way: a watertight, consistently turned surface."""
    edges = {}
    for face in mesh["faces"]:
        for p, q in zip(face, face[1:] + face[:1]):
            edges[(p, q)] = edges.get((p, q), 0) + 1
    return all(n == 1 and edges.get((q, p)) == 1 for (p, q), n in edges.items())


def test_a_prism_file_opens_read_only_with_its_lattice_and_counts_as_the_cli_does(client):
    data, body = opened(client, "hexagon-tower-triprisms.xmpuzzle")
    assert (data["lattice"], data["editable"], data["dim"]) == ("prisms", False, 3)
    assert "; lattice: prisms" in data["text"]
    cli = cli_counts(PRISMS / "hexagon-tower-triprisms.xmpuzzle")
    studio = counted(client, body)
    fields = ("distinct", "distinct_rotations", "total", "symmetries", "complete")
    assert [studio[f] for f in fields] == [cli[f] for f in fields] == [366, 708, 7443, 24, True]
    check = client.post("/api/check", json={**body, "forced_limit": 0})
    assert check.status_code == 200 and check.json()["verdict"] == "multiple"


def test_a_polyfit_text_board_on_prisms_counts_as_the_cli_does(client, tmp_path):
    for name in ("tower.vox", "tower.pieces.vox"):  # a board, and the pieces file its '; pieces:' line names
        (tmp_path / name).write_bytes((ROOT / "tests" / "data" / "prisms" / name).read_bytes())
    data, body = opened(client, "tower.vox")
    assert (data["lattice"], data["editable"]) == ("prisms", False)
    assert data["text"] == (tmp_path / "tower.vox").read_text()  # as it is: the page sends it back unchanged
    cli = cli_counts(tmp_path / "tower.vox")
    studio = counted(client, body)
    assert (studio["distinct"], studio["total"]) == (cli["distinct"], cli["total"]) == (150, 1760)


def test_each_solution_is_shown_as_closed_solids_of_the_pieces_cells(client):
    _, body = opened(client, "diamonds-and-stacks.xmpuzzle")
    answer = client.post("/api/solutions", json={**body, "limit": 3})
    assert answer.status_code == 200
    found = answer.json()
    assert len(found["solutions"]) == 3
    for solution in found["solutions"]:
        shown = client.post("/api/meshes", json={**body, "solution": solution})
        assert shown.status_code == 200, shown.text
        meshes = shown.json()["meshes"]
        assert set(meshes) == set(solution) and shown.json()["lattice"] == "prisms"
        for label, mesh in meshes.items():
            assert closed(mesh), label
            cells = len(solution[label]) * PRISM_AREA  # a thin gap all round: a little less
            assert 0.7 * cells < volume(mesh) < cells, (label, volume(mesh), cells)
            assert shown.json()["colours"][label] == found["colours"][label]
        # in its place: two pieces' solids never overlap, and together they fill the board's box
        lows = [min(v[2] for v in m["vertices"]) for m in meshes.values()]
        highs = [max(v[2] for v in m["vertices"]) for m in meshes.values()]
        assert min(lows) == pytest.approx(0.03) and max(highs) == pytest.approx(3 - 0.03)
    board = client.post("/api/meshes", json=body)
    assert board.status_code == 200
    (only,) = board.json()["meshes"].values()
    assert closed(only) and 0.7 * 24 * PRISM_AREA < volume(only) < 24 * PRISM_AREA


def test_a_solution_not_of_the_puzzle_gets_no_solids(client):
    _, body = opened(client, "diamonds-and-stacks.xmpuzzle")
    solution = client.post("/api/solutions", json={**body, "limit": 1}).json()["solutions"][0]
    label = next(iter(solution))
    moved = {**solution, label: [[z + 5, r, c] for z, r, c in solution[label]]}
    answer = client.post("/api/meshes", json={**body, "solution": moved})
    assert answer.status_code == 400 and "not on the board" in answer.json()["error"]
    answer = client.post("/api/meshes", json={**body, "solution": [1, 2]})
    assert answer.status_code == 400 and "'solution' must be" in answer.json()["error"]


def test_a_lattice_without_solids_is_refused_in_one_line_and_still_counts(client, tmp_path):
    data, body = opened(client, "hex.txt")
    assert (data["lattice"], data["editable"]) == ("hex", False)
    answer = client.post("/api/meshes", json=body)
    assert answer.status_code == 400
    assert answer.json()["error"] == ("the studio's 3D view shows solids; this board is 2D on the hex lattice "
                                      "(polyfit solve FILE --png draws its solutions)")
    studio, cli = counted(client, body), cli_counts(tmp_path / "hex.txt")
    assert (studio["distinct"], studio["total"]) == (cli["distinct"], cli["total"])
    # a 3D lattice: solids where the library makes them, else the library's own one-line refusal
    from polyfit import PolyfitError, read_board
    from polyfit.render.solids import only_solids

    _, body = opened(client, "flat-hexagon.xmpuzzle")
    answer = client.post("/api/meshes", json=body)
    try:
        only_solids([read_board(SPHERES / "flat-hexagon.xmpuzzle")], "the studio's 3D view")
    except PolyfitError as exc:
        assert answer.status_code == 400 and answer.json() == {"error": str(exc)}
        assert "\n" not in str(exc) and "spheres" in str(exc)
    else:
        assert answer.status_code == 200 and len(answer.json()["meshes"]["board"]["faces"]) > 0


def test_a_prism_box_comes_apart_with_the_levels_and_moves_of_the_cli(client):
    data, body = opened(client, "box-0.xmpuzzle")
    body = {**body, "disassemble": True}
    cli = cli_counts(PRISMS / "disassembly" / "box-0.xmpuzzle", "--disassemble")
    studio = counted(client, body)
    assert (studio["assemblies"], studio["disassemblable"], studio["levels"]) == \
        (cli["assemblies"], cli["disassemblable"], cli["levels"]) == (4, 2, {"1.2.2": 2})
    found = client.post("/api/solutions", json=body).json()
    assert [d["level"] for d in found["disassemblies"]] == ["1.2.2", "1.2.2"]
    taken = client.post("/api/disassembly", json={**body, "solution": found["solutions"][0]})
    assert taken.status_code == 200, taken.text
    moves = taken.json()["moves"]
    assert [m["by"] for m in moves] == [m["by"] for m in found["disassemblies"][0]["moves"]]
    half = math.sqrt(3) / 2  # a row of triangles is this high; a step along a row half a side
    ways = {(1, 0, 0): [0, 0, 1], (-1, 0, 0): [0, 0, -1], (0, 0, 2): [1, 0, 0], (0, 0, -2): [-1, 0, 0],
            (0, -1, 1): [0.5, half, 0], (0, -1, -1): [-0.5, half, 0], (0, 1, 1): [0.5, -half, 0], (0, 1, -1): [-0.5, -half, 0]}
    for move in moves:
        k = max(abs(v) for v in move["by"]) // (2 if move["by"][0] == 0 and move["by"][1] == 0 else 1)
        unit = tuple(v // k for v in move["by"])
        assert move["vector"] == pytest.approx([k * v for v in ways[unit]], abs=1e-5), move
