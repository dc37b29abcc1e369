"""The README's and the docs' pictures outside the gallery come from ``docs/make_pictures.py``:
each is made by the very command the README quotes beside it. Run them all into a
temporary folder, so a picture never shows a command that no longer works."""
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _make_pictures():
    spec = importlib.util.spec_from_file_location("make_pictures", ROOT / "docs" / "make_pictures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_picture_the_readme_shows_is_made_by_make_pictures():
    made = {name for name, _, _ in _make_pictures().PICTURES} | {"crowd.png"}
    readme = (ROOT / "README.md").read_text()
    shown = {part.split(")")[0].removeprefix("docs/") for part in readme.split("](docs/")[1:]}
    shown = {name for name in shown if name.endswith(".png")}
    assert shown <= made, shown - made


def test_make_pictures_makes_each_picture(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    module = _make_pictures()
    monkeypatch.setattr(module, "DOCS", tmp_path)
    missing = module.main()
    expected = [name for name, level, _ in module.PICTURES
                if level is None or (module.DATA / level).is_file()] + ["crowd.png"]
    assert missing == len(module.PICTURES) + 1 - len(expected)
    for name in expected:
        assert (tmp_path / name).stat().st_size > 10_000, name
