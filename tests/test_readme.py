"""The console examples of the README and the docs/ pages are real: each ``polyfit`` run on a
board in shapes/ is run again and must print what the page shows.

A line ``...`` in the shown output stands for any lines. ``pip install`` steps are left out of
a ``pip install . && polyfit ...`` line; runs that write files or print times, and examples
not run on shapes/, are not checked here.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"

# Not checked: commands that write files, or print times (which vary from run to run), and
# runs that need a file an earlier example wrote.
UNCHECKED_COMMANDS = {"kit", "split", "run-job", "gallery", "export-dlx", "estimate"}
UNCHECKED_OPTIONS = {"--png", "--stl", "--glb", "--3mf", "--obj", "--animate", "--output", "-o", "--out",
                     "--checkpoint", "--resume", "--tray", "--svg", "--pdf"}
ELISION = "..."


def console_blocks(text: str):
    """The lines of each ```console block, without the block's own indentation."""
    lines = text.splitlines()
    k = 0
    while k < len(lines):
        fence = re.fullmatch(r"(\s*)```console\s*", lines[k])
        k += 1
        if not fence:
            continue
        indent = len(fence.group(1))
        block = []
        while k < len(lines) and lines[k].strip() != "```":
            block.append(lines[k][indent:])
            k += 1
        k += 1
        yield block


def examples(text: str):
    """``(command line, [polyfit argument lists], shown output lines)`` for each checked run."""
    for block in console_blocks(text):
        k = 0
        while k < len(block):
            line = block[k]
            k += 1
            if not line.startswith("$ "):
                continue
            shown = []
            while k < len(block) and not block[k].startswith("$ "):
                shown.append(block[k])
                k += 1
            runs = checked_runs(line[2:])
            if runs:
                yield line[2:], runs, shown


def checked_runs(command: str):
    """The polyfit runs of a command line worth checking, or None."""
    words = shlex.split(command, comments=True)
    runs, current = [], []
    for word in words + ["&&"]:
        if word != "&&":
            current.append(word)
            continue
        if current[:2] != ["pip", "install"]:
            runs.append(current)
        current = []
    for run in runs:
        if run[0] != "polyfit" or len(run) < 2 or run[1] in UNCHECKED_COMMANDS:
            return None
        if UNCHECKED_OPTIONS & set(run) or not any(w.startswith("shapes/") for w in run):
            return None
    return runs or None


def matches(shown: list[str], actual: list[str]) -> bool:
    """Is ``actual`` what ``shown`` shows, a line ``...`` standing for any lines?"""
    parts = [[]]
    for line in shown:
        if line == ELISION:
            parts.append([])
        else:
            parts[-1].append(line)
    if len(parts) == 1:
        return shown == actual
    first, *middle, last = parts
    if actual[: len(first)] != first or len(actual) < len(first) + len(last):
        return False
    if last and actual[-len(last):] != last:
        return False
    rest = actual[len(first): len(actual) - len(last)]
    for part in middle:
        found = next((i for i in range(len(rest) - len(part) + 1) if rest[i: i + len(part)] == part), None)
        if found is None:
            return False
        rest = rest[found + len(part):]
    return True


def polyfit_executable() -> str:
    beside = Path(sys.executable).with_name("polyfit")
    return str(beside) if beside.exists() else shutil.which("polyfit")


# The docs whose console examples are checked too.
DOCS = (README, ROOT / "docs" / "disassembly.md", ROOT / "docs" / "lattices.md")
EXAMPLES = [e for doc in DOCS for e in examples(doc.read_text(encoding="utf-8"))]


def test_the_readme_has_examples_to_check():
    assert len(EXAMPLES) >= 4, [command for command, _, _ in EXAMPLES]


def test_elision_matches_any_lines():
    assert matches(["a", ELISION, "z"], ["a", "b", "c", "z"])
    assert matches(["a", ELISION, "z"], ["a", "z"])
    assert matches(["a", ELISION, "m", ELISION, "z"], ["a", "x", "m", "y", "z"])
    assert not matches(["a", ELISION, "z"], ["a", "b"])
    assert not matches(["a", "z"], ["a", "b", "z"])
    assert not matches(["a", ELISION, "a"], ["a"])


@pytest.mark.parametrize("command, runs, shown", EXAMPLES, ids=[c for c, _, _ in EXAMPLES])
def test_readme_example_prints_what_it_shows(command, runs, shown):
    env = dict(os.environ, PYTHONUNBUFFERED="1")  # stdout and stderr interleaved as on a terminal
    output = ""
    for run in runs:
        result = subprocess.run([polyfit_executable(), *run[1:]], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, timeout=120)
        assert result.returncode == 0, result.stdout
        output += result.stdout
    actual = output.rstrip("\n").split("\n")
    assert matches(shown, actual), "\n".join([f"$ {command}", "README shows:", *shown, "polyfit prints:", *actual])
