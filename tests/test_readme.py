"""The README's and the docs pages' examples run as written (so neither can drift from the API).

A ```python block runs; a ```py block is shown only (it needs a window, an engine's event
loop or a file of the reader's own).
"""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PAGES = sorted(p for p in (ROOT / "docs").rglob("*.md")
               if "_build" not in p.parts and "```python\n" in p.read_text())


def _run_blocks(path, capsys):
    blocks = re.findall(r"```python\n(.*?)```", path.read_text(), flags=re.S)
    namespace = {}
    for block in blocks:
        exec(compile(block, str(path), "exec"), namespace)   # later blocks use earlier names
    return blocks, namespace, capsys.readouterr().out.splitlines()


def _promises(printed):
    # The lines an example prints as its checks: only True and False words.
    return [line for line in printed if line and set(line.split()) <= {"True", "False"}]


def test_readme_python_examples_run(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.chdir(tmp_path)
    blocks, namespace, printed = _run_blocks(README, capsys)
    assert len(blocks) >= 4                       # 2D, a character, a crowd, an engine
    assert printed[1] == "True"                   # the first example's promise line
    assert namespace["hero"].stop in ("done", "slid", "blocked")
    promises = _promises(printed)
    assert len(promises) >= 4, printed            # each example checks what it claims
    assert all(set(line.split()) == {"True"} for line in promises), promises


def test_the_docs_pages_cover_what_the_readme_no_longer_holds():
    # The reference text left the README for these pages; none may lose it again.
    assert PAGES, "no docs page has a runnable example"
    names = {p.relative_to(ROOT / "docs").as_posix() for p in PAGES}
    assert {"tutorials/world2d.md", "tutorials/world3d.md", "tutorials/crowds.md",
            "tutorials/character.md", "tutorials/volumes.md", "tutorials/play.md",
            "tutorials/engines.md"} <= names, names


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT / "docs").as_posix())
def test_docs_page_python_examples_run(page, capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.chdir(tmp_path)
    blocks, _, printed = _run_blocks(page, capsys)
    assert blocks and printed                     # each page's examples print what they show
