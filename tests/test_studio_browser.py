"""polyfit studio in a real browser: Playwright drives headless Chromium (Debian's ``chromium``).

The server runs as ``polyfit studio`` in a subprocess on a free port, killed at the end. Without
a browser these tests skip, unless POLYFIT_REQUIRE_BROWSER=1 (CI sets it): then they fail.
"""

import io
import os
import shutil
import socket
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from helpers import ROOT

# Under -n one worker runs this module (conftest.py's ONE_WORKER): its module fixtures are made once.
CHROMIUM = os.environ.get("POLYFIT_CHROMIUM", "/usr/bin/chromium")
REQUIRED = os.environ.get("POLYFIT_REQUIRE_BROWSER") == "1"
SHOTS = Path(os.environ.get("POLYFIT_STUDIO_SHOTS", "")) if os.environ.get("POLYFIT_STUDIO_SHOTS") else None


def _missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
        import starlette  # noqa: F401
    except ImportError as exc:
        return f"{exc.name} is not installed (pip install '.[studio-test]')"
    if not Path(CHROMIUM).exists():
        return f"no browser at {CHROMIUM} (apt-get install chromium)"
    return None


@pytest.fixture(scope="module")
def studio(tmp_path_factory):
    missing = _missing()
    if missing:
        if REQUIRED:
            pytest.fail(f"POLYFIT_REQUIRE_BROWSER=1 but {missing}")
        pytest.skip(missing)
    folder = tmp_path_factory.mktemp("studio")
    shutil.copytree(ROOT / "shapes" / "soma", folder / "soma")
    subprocess.run([sys.executable, "-m", "polyfit", "convert", str(ROOT / "shapes" / "burrtools" / "level-5-burr.xmpuzzle"),
                    str(folder / "burr.vox")], check=True, capture_output=True)  # a burr, with burr.pieces.vox
    shutil.copy(ROOT / "shapes" / "burrtools" / "box-with-rim.xmpuzzle", folder)  # a box (weight 10) as a piece
    shutil.copy(ROOT / "shapes" / "burrtools" / "soma.xmpuzzle", folder)  # two problems: the Soma cube, a castle
    (folder / "prisms").mkdir()  # BurrTools' triangular prism grid: a tower, a box that comes apart; a 2D hex board
    for source in (ROOT / "tests" / "data" / "burrtools" / "prisms" / "hexagon-tower-triprisms.xmpuzzle",
                   ROOT / "tests" / "data" / "burrtools" / "prisms" / "disassembly" / "box-0.xmpuzzle"):
        shutil.copy(source, folder / "prisms")
    (folder / "prisms" / "hex.txt").write_text("; lattice: hex\n; pieces: 3*dihex\n# # #\n # # #\n")
    (folder / "space").mkdir()  # spheres and rhombic dodecahedra: shown as the library's solids too
    for source in (ROOT / "tests" / "data" / "burrtools" / "spheres" / "tetrahedron-five-tetraspheres.xmpuzzle",
                   ROOT / "tests" / "data" / "burrtools" / "finegrids" / "rd-octahedral-six.xmpuzzle"):
        shutil.copy(source, folder / "space")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "polyfit", "studio", str(folder), "--no-browser", "--port", str(port)],
        cwd=ROOT.parent, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"polyfit studio did not start: {server.stderr.read().decode()}")
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.kill()
        server.wait()


@pytest.fixture(scope="module")
def browser(studio):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--enable-unsafe-swiftshader", "--use-angle=swiftshader"])
        yield browser
        browser.close()


@pytest.fixture
def page(browser, studio):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(studio)
    page.wait_for_selector("body[data-ready=yes]")
    yield page
    page.close()
    assert not errors, errors


def shot(page, name):
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"))


@pytest.mark.slow
def test_drawing_the_6x10_box_by_hand_and_counting_gives_2339(page):
    import trimesh

    page.wait_for_selector("#lint >> text=draw cells to start")
    rows, cols = 6, 10
    for r in range(rows):  # drag along each row: click and drag the box into existence
        box = page.locator("#grid").bounding_box()
        size = (box["width"] - 2) / cols
        y = box["y"] + 1 + (r + 0.5) * size
        page.mouse.move(box["x"] + 1 + 0.5 * size, y)
        page.mouse.down()
        page.mouse.move(box["x"] + 1 + (cols - 0.5) * size, y, steps=12)
        page.mouse.up()
    assert page.locator("#board-text").input_value() == ("#" * 10 + "\n") * 6
    page.wait_for_selector("#lint >> text=60 cells · pieces 60")
    page.click("#estimate")
    page.wait_for_selector("#verdict[data-nodes]", timeout=30000)
    nodes = int(page.get_attribute("#verdict", "data-nodes"))
    shown = page.inner_text("#verdict")
    assert nodes > 100_000 and f"{nodes:,} nodes" in shown, shown
    assert "solutions" in shown and "time" in shown
    if "counted exactly" in shown:  # a short search: the estimate ran it, as polyfit estimate does
        assert "2,339 (exact)" in shown
    else:
        assert "95% range" in shown
    shot(page, "studio-6x10-estimate")
    with page.expect_download() as download:
        page.click("#export-stl")
    with zipfile.ZipFile(download.value.path()) as kit:
        assert sorted(kit.namelist()) == sorted(f"{name}.stl" for name in "FILNPTUVWXYZ")
        for name in kit.namelist():
            assert trimesh.load(io.BytesIO(kit.read(name)), file_type="stl").is_watertight, name
    assert download.value.suggested_filename == "pentominoes-kit.zip"
    page.click("#count")
    page.wait_for_selector("#verdict[data-distinct]", timeout=30000)
    assert page.get_attribute("#verdict", "data-distinct") == "2339"
    assert "2,339 distinct solutions" in page.inner_text("#verdict")
    assert "9,356" in page.inner_text("#verdict")
    page.click("#solve")
    page.wait_for_selector("#sol-index >> text=1 of 200+")
    shot(page, "studio-6x10")


@pytest.mark.slow
def test_the_soma_castle_shows_its_solution_in_3d(page):
    from PIL import Image

    page.select_option("#file-list", "soma/castle.vox")
    page.wait_for_selector("#message >> text=opened soma/castle.vox")
    assert page.input_value("#board-name") == "Castle"
    page.click("#count")
    page.wait_for_selector("#verdict[data-distinct='3']", timeout=30000)
    page.click("#solve")
    page.wait_for_selector("#sol-index >> text=1 of 3")
    page.fill("#explode", "45")
    page.dispatch_event("#explode", "input")
    page.wait_for_timeout(300)
    picture = Image.open(io.BytesIO(page.locator("#figure-view canvas").screenshot())).convert("RGB")
    background = picture.getpixel((2, 2))
    pixels = [picture.getpixel((x, y)) for y in range(0, picture.height, 2) for x in range(0, picture.width, 2)]
    drawn = [p for p in pixels if max(abs(a - b) for a, b in zip(p, background)) > 40]
    assert len(drawn) > 0.08 * len(pixels), "the 3D view is (nearly) blank"
    # the pieces in the palette's colours: blue, orange and bluish green are among them
    for colour in ((0x00, 0x72, 0xB2), (0xE6, 0x9F, 0x00), (0x00, 0x9E, 0x73)):
        near = sum(1 for p in drawn if max(abs(a - b) for a, b in zip(p, colour)) < 60)
        assert near > 10, f"no piece in colour {colour}"
    shot(page, "studio-castle")  # docs/studio.png


def test_a_long_count_is_cancelled(page):
    page.fill("#pieces", "one-sided-pentominoes")
    page.dispatch_event("#pieces", "change")
    page.fill("#rows", "9")
    page.dispatch_event("#rows", "change")
    page.click("#fill")
    page.click("#count")
    page.wait_for_function("document.querySelector('#cancel').disabled === false")
    page.wait_for_timeout(1000)
    assert "distinct" not in page.inner_text("#verdict")
    page.click("#cancel")
    page.wait_for_selector("#speed >> text=count cancelled")
    assert page.is_disabled("#cancel") and page.is_enabled("#count")


def test_a_pasted_board_with_a_bad_character_shows_the_error(page):
    page.fill("#board-text", "#####\n##%##\n#####\n")
    page.click("#apply-text")
    page.wait_for_selector("#error:not([hidden])")
    message = page.inner_text("#error-text")
    assert "board:2:3: unexpected character '%'" in message
    assert page.locator("#board-text").input_value() == "#####\n##%##\n#####\n"  # left for the designer to mend


def test_pre_place_undo_redo_rotate_and_the_link_reopens_the_design(page):
    page.fill("#rows", "3")
    page.dispatch_event("#rows", "change")
    page.fill("#cols", "5")
    page.dispatch_event("#cols", "change")
    page.click("#fill")
    page.click("[data-tool=place]")
    page.select_option("#place-piece", "X")
    box = page.locator("#grid").bounding_box()
    size = (box["width"] - 2) / 5
    page.mouse.click(box["x"] + 1 + 1.5 * size, box["y"] + 1 + 0.5 * size)  # the box around X starts at row 0, column 1
    assert page.locator("#board-text").input_value() == "##X##\n#XXX#\n##X##\n"
    page.click("#undo")
    assert page.locator("#board-text").input_value() == "#####\n" * 3
    page.click("#redo")
    page.click("#rotate")
    assert page.locator("#board-text").input_value() == "###\n#X#\nXXX\n#X#\n###\n"
    link = page.url
    page.goto("about:blank")
    page.goto(link)
    page.wait_for_selector("body[data-ready=yes]")
    assert page.locator("#board-text").input_value() == "###\n#X#\nXXX\n#X#\n###\n"
    assert page.input_value("#rows") == "5" and page.input_value("#cols") == "3"


LNV = "pentominoes:L,pentominoes:N,pentominoes:V"  # one way to fill the 3x5 box


def draw_box(page, rows, cols, pieces):
    page.fill("#pieces", pieces)
    page.dispatch_event("#pieces", "change")
    for field, value in (("#rows", rows), ("#cols", cols)):
        page.fill(field, str(value))
        page.dispatch_event(field, "change")
    page.click("#fill")


def grid_pixels(page, r, c):
    """The colours (#rrggbb) of the pixels inside cell (r, c) of the board's canvas, the
    cell's border left out: the first is near its top left corner, clear of any letter."""
    return page.evaluate("""([r, c]) => {
        const grid = document.getElementById('grid'), ratio = window.devicePixelRatio || 1;
        const cols = +document.getElementById('cols').value;
        const size = (grid.width / ratio - 2) / cols;
        const x0 = Math.ceil((1 + c * size + 3) * ratio), y0 = Math.ceil((1 + r * size + 3) * ratio);
        const side = Math.floor((size - 6) * ratio);
        const data = grid.getContext('2d').getImageData(x0, y0, side, side).data;
        const hex = (k) => '#' + [data[k], data[k + 1], data[k + 2]].map((v) => v.toString(16).padStart(2, '0')).join('');
        const out = [];
        for (let k = 0; k < data.length; k += 4) out.push(hex(k));
        return out;
    }""", [r, c])


def cell_colour(page, r, c):
    return grid_pixels(page, r, c)[0]


def lettered(page, r, c, fill):
    """Is something drawn over cell (r, c) in a colour far from its fill (its letter)?"""
    def far(a, b):
        return sum(abs(int(a[k:k + 2], 16) - int(b[k:k + 2], 16)) for k in (1, 3, 5)) > 200
    pixels = grid_pixels(page, r, c)
    return sum(far(p, fill) for p in pixels) > 0.04 * len(pixels)


def click_cell(page, r, c, cols):
    box = page.locator("#grid").bounding_box()
    size = (box["width"] - 2) / cols
    page.mouse.click(box["x"] + 1 + (c + 0.5) * size, box["y"] + 1 + (r + 0.5) * size)


def is_stale(page):
    return "stale" in (page.get_attribute("#verdict", "class") or "").split() and page.is_visible("#verdict-note")


@pytest.mark.slow
def test_results_belong_to_the_design_they_were_computed_for(page):
    draw_box(page, 3, 5, LNV)
    page.wait_for_selector("#lint >> text=unique")
    page.click("#count")
    page.wait_for_selector("#verdict[data-distinct='1']", timeout=30000)
    assert not is_stale(page)
    with page.expect_response("**/api/solutions") as answer:
        page.click("#solve")
    found = answer.value.json()
    colours, solution = found["colours"], found["solutions"][0]
    page.wait_for_selector("#sol-index >> text=1 of 1")
    # the solution is drawn on the board itself: each piece in polyfit's colour, with its letter
    for name, cells in solution.items():
        assert [cell_colour(page, r, c) for r, c in cells] == [colours[name]] * len(cells), name
        assert any(lettered(page, r, c, colours[name]) for r, c in cells), f"no letter on piece {name}"
    shot(page, "studio-solution-on-board")
    drawn = cell_colour(page, 0, 1)
    # One cell erased: the count and the solution were for the design before; the verdict is
    # greyed and says so, and the board shows the drawing, not the old solution.
    click_cell(page, 0, 0, 5)
    assert page.locator("#board-text").input_value().startswith(".####\n")
    assert is_stale(page) and "earlier design" in page.inner_text("#verdict-note")
    assert cell_colour(page, 0, 1) != drawn and cell_colour(page, 0, 1) not in colours.values()
    assert "earlier design" in page.inner_text("#solutions-note")
    page.wait_for_selector("#lint >> text=no solution")
    shot(page, "studio-stale")
    # undone: the design is again the one counted and solved
    page.click("#undo")
    assert not is_stale(page) and page.is_hidden("#solutions-note")
    assert cell_colour(page, 0, 1) == drawn
    # a piece spec that is not one: stale again, and the lint says why
    page.fill("#pieces", "pentominoes:Q")
    page.dispatch_event("#pieces", "change")
    assert is_stale(page)
    page.wait_for_selector("#reasons li.error >> text=unknown piece of pentominoes 'Q'")


@pytest.mark.slow
def test_a_late_answer_for_an_earlier_design_is_never_shown_as_current(page):
    draw_box(page, 3, 5, LNV)
    page.wait_for_selector("#lint >> text=unique")
    held = []

    def hold_the_check(route):
        if "forced_limit" in (route.request.post_data or ""):
            route.continue_()  # the lint's checks go through
        else:
            held.append(route)

    page.route("**/api/check", hold_the_check)
    page.click("#check")
    page.wait_for_function("document.querySelector('#message').textContent.includes('checking')")
    assert len(held) == 1
    click_cell(page, 2, 4, 5)  # the design changes while the answer is on its way
    page.wait_for_selector("#lint >> text=no solution")
    held[0].continue_()
    page.wait_for_function("!document.querySelector('#message').textContent.includes('checking')")
    page.wait_for_timeout(200)
    shown = page.inner_text("#verdict")
    assert "Unique solution" not in shown or is_stale(page), shown


def test_an_estimate_that_met_no_solution_says_unknown(page):
    answer = {"board": "board", "probes": 412, "exact": False, "converged": True, "nodes": 4_400_000_000,
              "nodes_low": 3_100_000_000, "nodes_high": 6_000_000_000, "solutions": None, "solutions_low": None,
              "solutions_high": None, "seconds": 3600.0, "seconds_low": 2500.0, "seconds_high": 5000.0,
              "backend": "dlx-c", "nodes_per_second": 1_200_000}
    page.route("**/api/estimate", lambda route: route.fulfill(json=answer))
    draw_box(page, 3, 5, LNV)
    page.click("#estimate")
    page.wait_for_selector("#verdict[data-nodes]")
    shown = page.inner_text("#verdict")
    assert "unknown" in shown and "no probe met a solution" in shown, shown
    assert "0 (95% range 0 to 0)" not in shown and "null" not in shown


def test_the_turn_over_box_says_what_checking_it_does(page):
    label = page.inner_text("label[for=mirror], label:has(#mirror)")
    assert "mirror" in label.lower()
    page.fill("#pieces", "pentominoes")
    page.dispatch_event("#pieces", "change")
    assert "already" in page.inner_text("#mirror-info")  # flat pieces are turned over anyway
    page.fill("#pieces", "one-sided-pentominoes")
    page.dispatch_event("#pieces", "change")
    assert "one-sided" in page.inner_text("#mirror-info").lower() and "check" in page.inner_text("#mirror-info").lower()
    page.click("#dim3")
    page.fill("#pieces", "soma")
    page.dispatch_event("#pieces", "change")
    info = page.inner_text("#mirror-info").lower()
    assert "solid" in info and "mirror image" in info, info
    page.check("#mirror")
    assert "every piece may also be placed as its mirror image" in page.inner_text("#mirror-info").lower()


def test_a_long_error_is_shown_whole(page):
    draw_box(page, 3, 5, "pentominos")
    page.click("#check")
    page.wait_for_selector("#error:not([hidden])")
    text = page.inner_text("#error-text")
    assert text.startswith("unknown piece set 'pentominos'") and text.rstrip().endswith("trominoes"), text
    fits = page.evaluate("""() => { const e = document.getElementById('error-text');
        return e.scrollWidth <= e.clientWidth + 1 && e.scrollHeight <= e.clientHeight + 1; }""")
    assert fits, "the error is cut off"
    shot(page, "studio-long-error")
    page.click("#error-close")
    assert page.is_hidden("#error")


def test_a_pre_placed_piece_has_the_colour_polyfit_gives_it(page):
    with page.expect_response(lambda r: "/api/check" in r.url and r.request.post_data and "X" in r.request.post_data) as answer:
        draw_box(page, 3, 5, "pentominoes")
        page.click("[data-tool=place]")
        page.select_option("#place-piece", "X")
        click_cell(page, 0, 1, 5)
    colours = answer.value.json()["colours"]
    page.wait_for_timeout(100)
    assert cell_colour(page, 1, 1) == colours["X"]
    assert lettered(page, 1, 1, colours["X"])


def test_a_count_waiting_for_a_worker_says_so(page):
    page.route("**/api/count", lambda route: route.fulfill(json={"job": "0-test"}))
    waiting = {"state": "queued", "progress": 0, "result": None, "error": None, "nodes": 0, "nodes_per_second": 0,
               "seconds": 0, "ahead": 1, "message": "waiting for a free worker (the studio runs at most 2 counts "
               "and 6 workers at once): 1 ahead of this one"}
    page.route("**/api/jobs/0-test", lambda route: route.fulfill(json=waiting))
    draw_box(page, 3, 5, LNV)
    page.click("#count")
    page.wait_for_selector("#speed >> text=waiting for a free worker")
    assert "1 ahead of this one" in page.inner_text("#speed")


@pytest.mark.slow
def test_a_burr_shows_the_level_of_each_solution_and_counts_what_comes_apart(page):
    page.select_option("#file-list", "burr.vox")
    page.wait_for_selector("#message >> text=opened burr.vox")
    assert page.is_hidden("#sol-level")
    page.check("#disassemble")
    page.click("#solve")
    page.wait_for_selector("#sol-index >> text=1 of 2")
    assert page.inner_text("#sol-level") == "level 5.2.2.2 · 12 moves to take it apart"
    page.click("#next")
    assert page.inner_text("#sol-level") == "level 5.2 · 10 moves to take it apart"
    shot(page, "studio-burr-level")
    page.click("#count")
    page.wait_for_selector("#verdict[data-distinct='2']", timeout=30000)
    shown = page.inner_text("#verdict")
    assert "2 of 2 assemblies come apart" in shown and "5.2: 1, 5.2.2.2: 1" in shown, shown
    page.uncheck("#disassemble")  # the levels belong to the disassembled answers: now stale
    assert page.is_hidden("#sol-level")
    assert page.is_visible("#solutions-note")


# -- the disassembly, played in the 3D view ------------------------------------------------------

STATE = "window.polyfitStudio.playback()"


def playback(page):
    return page.evaluate(STATE)


def settled(page, step):
    """Wait until the playback rests at move ``step`` (no slide under way)."""
    page.wait_for_function(f"(() => {{ const s = {STATE}; return s.total !== null && s.step === {step} && !s.moving; }})()",
                           timeout=30000)
    return playback(page)


def beyond(cells, bounds, margin=1.0):
    """Every cube of ``cells`` at least ``margin`` cells past the assembly's box on one axis,
    the same axis for all (the piece is clear of the box, not beside a corner of it)."""
    (lo, hi) = bounds
    return any(all(c[k] >= hi[k] + margin for c in cells) or all(c[k] <= lo[k] - margin for c in cells) for k in range(3))


def within(cells, bounds):
    (lo, hi) = bounds
    return all(lo[k] - 1e-6 <= c[k] <= hi[k] + 1e-6 for c in cells for k in range(3))


def same_cells(a, b):
    return sorted(tuple(round(v, 6) for v in c) for c in a) == sorted(tuple(float(v) for v in c) for c in b)


@pytest.mark.slow
def test_the_box_with_a_rim_plays_its_disassembly_and_the_box_stays(page):
    from PIL import Image

    page.select_option("#file-list", "box-with-rim.xmpuzzle")
    page.wait_for_selector("#message >> text=opened box-with-rim.xmpuzzle")
    assert "box-with-rim.xmpuzzle" in page.inner_text("#piece-info")
    page.check("#disassemble")
    page.click("#solve")
    page.wait_for_selector("#sol-index >> text=1 of 1")
    assert page.inner_text("#sol-level") == "level 1.2.2 · 5 moves to take it apart"
    assert page.is_visible("#playback") and page.inner_text("#move-counter") == "move – of –"
    shot(page, "studio-disassembly-start")
    page.click("#play")
    state = settled(page, 3)
    assert state["level"] == "1.2.2" and state["total"] == 5
    assert [m["pieces"] for m in state["moves"]] == [["D"], ["B", "C"], ["C"], ["B"], ["B"]]
    shot(page, "studio-disassembly-middle")  # docs/studio-disassembly.png
    state = settled(page, 5)
    page.wait_for_selector("#play >> text=Play again")
    assert page.inner_text("#move-counter") == "move 5 of 5"
    assert page.inner_text("#move-text") == "5. B slides up 1 and out"
    cells, bounds = state["cells"], state["bounds"]
    assert same_cells(cells["A"], state["pieces"]["A"]), "the box (weight 10) moved"
    for name in "BCD":  # each taken out of the box, clear of it, and still out at the end
        assert beyond(cells[name], bounds), (name, cells[name], bounds)
    picture = Image.open(io.BytesIO(page.locator("#figure-view canvas").screenshot())).convert("RGB")
    shot(page, "studio-disassembly-end")
    pixels = [picture.getpixel((x, y)) for y in range(0, picture.height, 3) for x in range(0, picture.width, 3)]
    magenta = (0xE7, 0x29, 0x8A)  # the box's colour in the palette (polyfit.colours)
    assert sum(1 for p in pixels if max(abs(a - b) for a, b in zip(p, magenta)) < 50) > 100, "the box is not drawn in its colour"
    # one move back: B is in the box again (moved towards its way out, not yet out)
    page.click("#step-back")
    state = settled(page, 4)
    assert page.inner_text("#move-counter") == "move 4 of 5"
    assert within(state["cells"]["B"], state["bounds"]) and beyond(state["cells"]["C"], state["bounds"])
    # reset: the assembly as it was
    page.click("#reset")
    state = settled(page, 0)
    assert page.inner_text("#move-counter") == "move 0 of 5"
    for name, start in state["pieces"].items():
        assert same_cells(state["cells"][name], start), name


@pytest.mark.slow
def test_a_polycube_burr_steps_move_by_move_to_its_end(page):
    page.select_option("#file-list", "burr.vox")
    page.wait_for_selector("#message >> text=opened burr.vox")
    page.click("#solve")  # the plain solutions: the playback asks the server for the moves itself
    page.wait_for_selector("#sol-index >> text=/ of /")
    for step in range(1, 13):
        page.click("#step")
        settled(page, step)
        assert page.inner_text("#move-counter") == f"move {step} of 12"
        if step == 1:
            assert page.inner_text("#sol-level") == "level 5.2.2.2 · 12 moves to take it apart"
    assert page.is_disabled("#step")
    state = playback(page)
    stays = {n for n in state["pieces"] if all(n not in m["pieces"] for m in state["moves"])}
    removed = {n for m in state["moves"] if m["removed"] for n in m["pieces"]}
    assert stays == {"D"} and removed == set(state["pieces"]) - stays
    for name in removed:
        assert beyond(state["cells"][name], state["bounds"]), name
    assert same_cells(state["cells"]["D"], state["pieces"]["D"])
    assert page.inner_text("#play") == "↺ Play again"  # from the assembly again, then reset stops it there
    page.click("#play")
    page.wait_for_function(f"(() => {{ const s = {STATE}; return s.playing && s.step >= 1 && s.step < 12; }})()", timeout=30000)
    page.click("#reset")
    state = settled(page, 0)
    assert not state["playing"] and page.inner_text("#move-counter") == "move 0 of 12"
    for name, start in state["pieces"].items():
        assert same_cells(state["cells"][name], start), name


@pytest.mark.slow
def test_a_solution_that_does_not_come_apart_says_so_in_the_page(page):
    page.select_option("#file-list", "box-with-rim.xmpuzzle")
    page.wait_for_selector("#message >> text=opened box-with-rim.xmpuzzle")
    page.click("#solve")  # every assembly: the first one found is stuck in its box
    page.wait_for_selector("#sol-index >> text=/ of /")
    page.click("#play")
    page.wait_for_selector("#error:not([hidden])")
    assert "this solution does not come apart" in page.inner_text("#error-text")
    assert page.inner_text("#move-counter") == "move – of –"


@pytest.mark.slow
def test_a_file_of_two_problems_offers_both_and_saves_a_changed_board_with_its_pieces(page, studio):
    """soma.xmpuzzle: the page offers its two problems, counts the castle with the file's
    pieces, and after a cell is made optional saves the drawing as a new BurrTools file."""
    page.select_option("#file-list", "soma.xmpuzzle")
    page.wait_for_selector("#message >> text=opened soma.xmpuzzle, Soma cube (1 of 2)")
    assert page.is_visible("#problem-list")
    assert page.locator("#problem-list option").all_inner_texts() == ["1. Soma cube", "2. Castle"]
    page.select_option("#problem-list", "2")
    page.wait_for_selector("#message >> text=opened soma.xmpuzzle, Castle (2 of 2)")
    shot(page, "studio-problems")
    assert "soma.xmpuzzle" in page.inner_text("#piece-info")
    page.click("#count")
    page.wait_for_selector("#verdict[data-distinct='3']", timeout=30000)  # as polyfit solve --problem 2 says
    text = page.locator("#board-text").input_value()
    changed = text.replace("#", "+", 1)
    page.fill("#board-text", changed)
    page.click("#apply-text")
    page.wait_for_function("() => atob(location.hash.slice(1).replace(/-/g, '+').replace(/_/g, '/')).includes('+####')")
    assert "soma.xmpuzzle" in page.inner_text("#piece-info")  # the file's pieces stay with the drawing
    page.fill("#file-name", "castle-2.xmpuzzle")
    page.click("#save")
    page.wait_for_selector("#message >> text=saved castle-2.xmpuzzle")
    opened = page.request.get(studio + "api/files/castle-2.xmpuzzle").json()
    assert opened["pieces"] == ["V", "L", "T", "Z", "A", "B", "P"] and opened["text"].count("+") == 1
    page.fill("#file-name", "soma.xmpuzzle")
    page.once("dialog", lambda dialog: dialog.accept())  # "soma.xmpuzzle exists. Replace it?"
    page.click("#save")
    page.wait_for_selector("#error-text >> text=holds several problems and saving keeps only this one")
    assert page.request.get(studio + "api/files/soma.xmpuzzle").json()["boards"] == ["Soma cube", "Castle"]


# -- BurrTools' other grids: read-only, shown as the library's solids --------------------------------

FIGURE = "window.polyfitStudio.figure()"


def drawn_fraction(page):
    """The share of the 3D view's pixels that are not its background, and the picture."""
    from PIL import Image

    picture = Image.open(io.BytesIO(page.locator("#figure-view canvas").screenshot())).convert("RGB")
    background = picture.getpixel((2, 2))
    pixels = [picture.getpixel((x, y)) for y in range(0, picture.height, 2) for x in range(0, picture.width, 2)]
    drawn = [p for p in pixels if max(abs(a - b) for a, b in zip(p, background)) > 40]
    return len(drawn) / len(pixels), drawn


@pytest.mark.slow
def test_a_prism_tower_opens_read_only_counts_and_shows_its_solutions_as_solids(page):
    page.select_option("#file-list", "prisms/hexagon-tower-triprisms.xmpuzzle")
    page.wait_for_selector("#message >> text=opened prisms/hexagon-tower-triprisms.xmpuzzle")
    assert "prisms lattice: read-only" in page.inner_text("#readonly-note")
    assert page.is_hidden("#grid") and page.is_hidden("#fill") and page.is_visible("#figure-view")
    page.wait_for_function(f"{FIGURE}.shows === 'board'", timeout=30000)
    assert page.evaluate(FIGURE) == {"mode": "meshes", "shows": "board", "pieces": ["board"]}
    page.click("#count")
    page.wait_for_selector("#verdict[data-distinct='366']", timeout=30000)  # polyfit solve --count: 366
    assert "7,443" in page.inner_text("#verdict")
    page.click("#solve")
    page.wait_for_selector("#sol-index >> text=1 of 200+")
    page.wait_for_function(f"{FIGURE}.shows === 'solution'", timeout=30000)
    shown = page.evaluate(FIGURE)
    solution = page.evaluate("window.polyfitStudio.solution()")
    assert sorted(shown["pieces"]) == sorted(solution)  # one solid per piece of the solution shown
    share, drawn = drawn_fraction(page)
    assert share > 0.08, "the 3D view is (nearly) blank"
    colours = page.evaluate("window.polyfitStudio.colours()")
    for label in solution:  # each piece in its palette colour (lit: a shade of it) somewhere in the view
        target = tuple(int(colours[label][k:k + 2], 16) for k in (1, 3, 5))
        assert any(max(abs(a - b) for a, b in zip(p, target)) < 70 for p in drawn), (label, colours[label])
    shot(page, "studio-prisms-tower")
    page.click("#next")  # the next solution: other solids
    page.wait_for_selector("#sol-index >> text=2 of 200+")
    page.wait_for_function(f"{FIGURE}.shows === 'solution'", timeout=30000)
    assert page.evaluate("window.polyfitStudio.solution()") != solution


@pytest.mark.slow
@pytest.mark.parametrize("name, lattice, distinct", [("tetrahedron-five-tetraspheres", "spheres", 1),
                                                     ("rd-octahedral-six", "rhombic", 2)])
def test_spheres_and_rhombic_dodecahedra_are_shown_as_solids(page, name, lattice, distinct):
    """A tetrahedron of tetraspheres and six rhombic dodecahedra pieces: counted as the command
    line counts them (polyfit solve FILE --count: 1 and 2 distinct) and each solution drawn as
    one solid per piece, in the pieces' colours."""
    page.select_option("#file-list", f"space/{name}.xmpuzzle")
    page.wait_for_selector(f"#message >> text=opened space/{name}.xmpuzzle")
    assert f"{lattice} lattice: read-only" in page.inner_text("#readonly-note")
    page.wait_for_function(f"{FIGURE}.shows === 'board'", timeout=60000)
    page.click("#count")
    page.wait_for_selector(f"#verdict[data-distinct='{distinct}']", timeout=60000)
    page.click("#solve")
    page.wait_for_selector(f"#sol-index >> text=1 of {distinct}")
    page.wait_for_function(f"{FIGURE}.shows === 'solution'", timeout=60000)
    solution = page.evaluate("window.polyfitStudio.solution()")
    assert sorted(page.evaluate(FIGURE)["pieces"]) == sorted(solution)
    share, drawn = drawn_fraction(page)
    assert share > 0.05, "the 3D view is (nearly) blank"
    colours = page.evaluate("window.polyfitStudio.colours()")
    for label in solution:
        target = tuple(int(colours[label][k:k + 2], 16) for k in (1, 3, 5))
        assert any(max(abs(a - b) for a, b in zip(p, target)) < 70 for p in drawn), (label, colours[label])
    assert page.is_hidden("#playback")  # pieces on this lattice do not slide: no disassembly to play
    shot(page, f"studio-{lattice}")


@pytest.mark.slow
def test_a_prism_box_plays_its_disassembly_and_each_piece_ends_clear_of_the_box(page):
    page.select_option("#file-list", "prisms/box-0.xmpuzzle")
    page.wait_for_selector("#message >> text=opened prisms/box-0.xmpuzzle")
    page.check("#disassemble")
    page.click("#count")
    page.wait_for_selector("#verdict[data-distinct='2']", timeout=30000)
    assert "2 of 4 assemblies come apart" in page.inner_text("#verdict") and "1.2.2: 2" in page.inner_text("#verdict")
    page.click("#solve")
    page.wait_for_selector("#sol-index >> text=1 of 2")
    assert page.inner_text("#sol-level") == "level 1.2.2 · 5 moves to take it apart"
    page.wait_for_function(f"{FIGURE}.shows === 'solution'", timeout=30000)
    start = playback(page)["boxes"]
    page.click("#play")
    state = settled(page, 5)
    assert page.inner_text("#move-text") == "5. B slides up 1 and out"
    end = state["boxes"]
    assert end["X"][0] + end["X"][1] == pytest.approx(start["X"][0] + start["X"][1]), "the box (the heavy piece) moved"
    top = start["X"][1][2]
    for name in "ABC":  # each lifted out of the box, clear above it
        assert end[name][0][2] > top + 0.5, (name, end[name], top)
    share, _ = drawn_fraction(page)
    assert share > 0.03, "the 3D view is (nearly) blank"
    shot(page, "studio-prisms-apart")
    page.click("#reset")
    state = settled(page, 0)
    for name, box in state["boxes"].items():
        assert box[0] + box[1] == pytest.approx(start[name][0] + start[name][1]), name


@pytest.mark.slow
def test_a_board_on_a_lattice_without_solids_says_so_in_one_line(page):
    page.select_option("#file-list", "prisms/hex.txt")
    page.wait_for_selector("#message >> text=opened prisms/hex.txt")
    page.wait_for_selector("#figure-note:visible")
    assert page.inner_text("#figure-note") == ("the studio's 3D view shows solids; this board is 2D on the hex lattice "
                                                "(polyfit solve FILE --png draws its solutions)")
    page.click("#count")  # it still counts
    page.wait_for_selector("#verdict[data-distinct]", timeout=30000)
