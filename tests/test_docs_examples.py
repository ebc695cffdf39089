"""Every ```console block of README.md and of each docs/*.md page (found by glob, so a new page
is covered the day it is written) is run, and must print exactly what it shows.

How a block is run
- Each line that starts with ``$ `` is a command, run by bash in a fresh temporary folder that
  holds copies of shapes/, plugins/ and tests/data/ (nothing a page writes lands in the
  checkout), with this environment's ``polyfit`` first on PATH. The commands of one block run
  in order in the same folder, so a block may write a file and read it back; each block starts
  afresh.
- The lines under a command, up to the next command, are what it prints (stdout and stderr
  together, as on a terminal) and must be exactly that, except:
  - a line ``...`` stands for any lines, none included;
  - a time in seconds (``0.7s``, ``1.30 s``) stands for any time in seconds.
- A command must exit with 0, or with 2 when the output shown has a ``polyfit: error:`` line.
- ``pip install ...`` is not run: the environment under test is installed already (.ci/run
  installs it with the README's own commands), and ``pip install X && CMD`` runs ``CMD``. A
  block that installs ``./plugins/NAME`` runs with the plugin packages installed (once per test
  session, into a folder of their own: conftest's ``plugin_packages``), and is slow (the
  install takes about a minute).

Marks, each an HTML comment on the line just before the block's opening fence:
- ``<!-- docs-test: slow -->``: the block takes more than a few seconds; its test has the slow
  marker, so ``pytest -m "not slow"`` leaves it out and plain ``pytest`` runs it. Prefer a
  quicker example that teaches the same point.
- ``<!-- docs-test: skip REASON -->``: the block cannot run here (it starts a server, or it is
  this very test suite); it is reported as skipped, with REASON.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
COPIED = ["shapes", "plugins", "tests/data", "benchmarks/data"]  # what the examples may read, copied for each block
ELISION = "..."
MARK = re.compile(r"<!--\s*docs-test:\s*(slow|skip)\b\s*(.*?)\s*-->")
SECONDS = r"\d+(?:\.\d+)? ?s\b"  # a time in seconds: 0.7s, 1.30 s
TIMEOUT = 300  # seconds, for one command


class Block:
    """One ```console block: where it is, its mark, and its commands with what each prints."""

    def __init__(self, page: Path, line: int, mark: tuple[str, str] | None, lines: list[str]):
        self.page, self.line, self.mark = page, line, mark
        self.commands: list[tuple[str, list[str]]] = []
        for text in lines:
            if text.startswith("$ "):
                self.commands.append((text[2:], []))
            elif self.commands:
                self.commands[-1][1].append(text)
            else:
                raise ValueError(f"{self.where}: output before the first command: {text!r}")

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def console_blocks(page: Path):
    """The ```console blocks of a page, each without its own indentation."""
    lines = page.read_text(encoding="utf-8").splitlines()
    k = 0
    while k < len(lines):
        fence = re.fullmatch(r"(\s*)```console\s*", lines[k])
        k += 1
        if not fence:
            continue
        start, indent = k, len(fence.group(1))
        before = lines[k - 2].strip() if k >= 2 else ""
        mark = MARK.fullmatch(before)
        block = []
        while k < len(lines) and lines[k].strip() != "```":
            block.append(lines[k][indent:])
            k += 1
        k += 1
        yield Block(page, start, (mark.group(1), mark.group(2)) if mark else None, block)


def line_matches(shown: str, actual: str) -> bool:
    if shown == actual:
        return True
    if not re.search(SECONDS, shown):
        return False
    parts = re.split(SECONDS, shown)
    return re.fullmatch(SECONDS.join(map(re.escape, parts)), actual) is not None


def matches(shown: list[str], actual: list[str]) -> bool:
    """Is ``actual`` what ``shown`` shows, a line ``...`` standing for any lines?"""
    parts = [[]]
    for line in shown:
        if line == ELISION:
            parts.append([])
        else:
            parts[-1].append(line)

    def equal(a, b):
        return len(a) == len(b) and all(line_matches(x, y) for x, y in zip(a, b))

    if len(parts) == 1:
        return equal(shown, actual)
    first, *middle, last = parts
    if not equal(first, actual[: len(first)]) or len(actual) < len(first) + len(last):
        return False
    if last and not equal(last, actual[-len(last):]):
        return False
    rest = actual[len(first): len(actual) - len(last)]
    for part in middle:
        found = next((i for i in range(len(rest) - len(part) + 1) if equal(part, rest[i: i + len(part)])), None)
        if found is None:
            return False
        rest = rest[found + len(part):]
    return True


def what_runs(command: str) -> str | None:
    """The command line without its ``pip install`` steps (None when nothing is left)."""
    steps = [step.strip() for step in command.split("&&")]
    kept = [step for step in steps if not step.startswith("pip install ")]
    return " && ".join(kept) or None


def installs_plugins(block: Block) -> bool:
    return any(re.match(r"pip install \S*plugins/", command) for command, _ in block.commands)


BLOCKS = [block for page in PAGES for block in console_blocks(page)]


def block_param(block: Block):
    marks = []
    if block.mark and block.mark[0] == "slow" or installs_plugins(block):
        marks.append(pytest.mark.slow)
    if block.mark and block.mark[0] == "skip":
        marks.append(pytest.mark.skip(reason=f"{block.where}: {block.mark[1] or 'no reason given'}"))
    return pytest.param(block, marks=marks, id=block.where)


@pytest.fixture
def workdir(tmp_path):
    for name in COPIED:
        shutil.copytree(ROOT / name, tmp_path / name,
                        ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    return tmp_path


@pytest.mark.parametrize("block", [block_param(b) for b in BLOCKS])
def test_console_block_prints_what_it_shows(block, workdir, request):
    assert block.commands, f"{block.where}: a console block with no command"
    env = dict(os.environ, PYTHONUNBUFFERED="1")  # stdout and stderr interleaved as on a terminal
    env["PATH"] = os.pathsep.join([str(Path(polyfit_executable()).parent), env.get("PATH", "")])
    if installs_plugins(block):
        env.update(request.getfixturevalue("plugin_packages"))
    for command, shown in block.commands:
        line = what_runs(command)
        if line is None:
            continue
        result = subprocess.run(["bash", "-c", line], cwd=workdir, env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=TIMEOUT)
        expected = 2 if any(s.startswith("polyfit: error:") for s in shown) else 0
        actual = result.stdout.rstrip("\n").split("\n") if result.stdout.strip("\n") else []
        report = "\n".join([f"{block.where}: $ {command}", "the page shows:", *shown, "it prints:", *actual])
        assert result.returncode == expected, f"exit code {result.returncode}, not {expected}\n{report}"
        assert matches(shown, actual), report


def polyfit_executable() -> str:
    beside = Path(sys.executable).with_name("polyfit")
    return str(beside) if beside.exists() else shutil.which("polyfit")


def test_every_page_is_found_and_has_examples():
    names = {page.name for page in PAGES}
    assert {"README.md", "api.md", "plugins.md", "studio.md"} <= names
    assert sum(1 for b in BLOCKS if b.page.name == "README.md") >= 2
    assert len(BLOCKS) >= 25, len(BLOCKS)


def test_marks_are_read():
    skipped = [b for b in BLOCKS if b.mark and b.mark[0] == "skip"]
    assert all(b.mark[1] for b in skipped), [b.where for b in skipped if not b.mark[1]]


def test_elision_matches_any_lines():
    assert matches(["a", ELISION, "z"], ["a", "b", "c", "z"])
    assert matches(["a", ELISION, "z"], ["a", "z"])
    assert matches(["a", ELISION, "m", ELISION, "z"], ["a", "x", "m", "y", "z"])
    assert not matches(["a", ELISION, "z"], ["a", "b"])
    assert not matches(["a", "z"], ["a", "b", "z"])
    assert not matches(["a", ELISION, "a"], ["a"])


def test_a_time_stands_for_any_time_and_nothing_else():
    assert matches(["done in 0.7s on dlx-c"], ["done in 12.25s on dlx-c"])
    assert matches(["1 solution, 5 nodes, 0.000 s on dlx-c"], ["1 solution, 5 nodes, 0.013 s on dlx-c"])
    assert not matches(["1 solution, 5 nodes, 0.000 s on dlx-c"], ["1 solution, 6 nodes, 0.000 s on dlx-c"])
    assert not matches(["done in 0.7s"], ["done in soon"])
    assert not matches(["2 solutions"], ["3 solutions"])


def test_pip_install_steps_are_left_out():
    assert what_runs("pip install . && polyfit solve shapes/soma/castle.vox") == "polyfit solve shapes/soma/castle.vox"
    assert what_runs("pip install './plugins/polyfit-classics'") is None


# -- links ------------------------------------------------------------------------------------

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_relative_link_and_image_exists(page):
    text = page.read_text(encoding="utf-8")
    missing = []
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        path = target.split("#")[0]
        if not (page.parent / path).exists():
            missing.append(target)
    assert not missing, missing


def test_the_readme_is_short():
    """A newcomer reads it in five minutes; the rest is in docs/."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines < 250, lines


def test_the_index_lists_every_page():
    """docs/README.md links to every page of docs/: a new page is added to it."""
    index = (ROOT / "docs" / "README.md").read_text(encoding="utf-8")
    linked = {target.split("#")[0] for target in LINK.findall(index)}
    missing = [p.name for p in PAGES if p.parent.name == "docs" and p.name != "README.md" and p.name not in linked]
    assert not missing, f"add these pages to docs/README.md: {missing}"
