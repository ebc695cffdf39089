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


def test_the_soma_castle_shows_its_solution_in_3d(page):
    from PIL import Image

    page.select_option("#file-list", "soma/castle.vox")
    page.wait_for_selector("#message >> text=opened soma/castle.vox")
    assert page.input_value("#board-name") == "Castle"
    page.click("#solve")
    page.wait_for_selector("#sol-index >> text=1 of 3")
    page.wait_for_timeout(300)
    picture = Image.open(io.BytesIO(page.locator("#sol-3d canvas").screenshot())).convert("RGB")
    background = picture.getpixel((2, 2))
    pixels = [picture.getpixel((x, y)) for y in range(0, picture.height, 2) for x in range(0, picture.width, 2)]
    drawn = [p for p in pixels if max(abs(a - b) for a, b in zip(p, background)) > 40]
    assert len(drawn) > 0.08 * len(pixels), "the 3D view is (nearly) blank"
    # the pieces in the palette's colours: blue, orange and bluish green are among them
    for colour in ((0x00, 0x72, 0xB2), (0xE6, 0x9F, 0x00), (0x00, 0x9E, 0x73)):
        near = sum(1 for p in drawn if max(abs(a - b) for a, b in zip(p, colour)) < 60)
        assert near > 10, f"no piece in colour {colour}"
    shot(page, "studio-castle")


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
    page.wait_for_selector("#message.error")
    message = page.inner_text("#message")
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
