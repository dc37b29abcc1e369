"""The gallery's scripts (``examples/plot_*.py``) run, check what they show, and draw.

The docs' pictures are made from these scripts when the docs are built
(sphinx-gallery), so a script that breaks here would break a picture there.
Each script asserts its own promise (no agent inside an obstacle, hits on
surfaces, batch answers equal single ones); here it must also leave a figure
with something drawn on it.
"""
import runpy
from pathlib import Path

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

EXAMPLES = sorted((Path(__file__).resolve().parents[1] / "examples").glob("plot_*.py"))


def test_the_gallery_has_its_scripts():
    names = {p.stem for p in EXAMPLES}
    assert {"plot_first_move", "plot_tile_map", "plot_line_of_sight", "plot_crowd",
            "plot_level_check", "plot_character", "plot_frustum_culling"} <= names


@pytest.mark.parametrize("script", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_runs_and_draws_a_picture(script, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    plt.close("all")
    monkeypatch.setattr(plt, "show", lambda *a, **k: None)
    runpy.run_path(str(script), run_name="__main__")
    figures = [plt.figure(n) for n in plt.get_fignums()]
    assert figures, f"{script.name} drew no figure"
    for fig in figures:
        fig.canvas.draw()
        pixels = np.asarray(fig.canvas.buffer_rgba())[..., :3]
        # More than a blank canvas: many distinct colours (obstacles, paths, labels).
        assert len(np.unique(pixels.reshape(-1, 3), axis=0)) > 20, script.name
    plt.close("all")


def test_the_output_getting_started_quotes_is_what_the_script_prints(capsys, monkeypatch,
                                                                      tmp_path):
    page = (Path(__file__).resolve().parents[1] / "docs" / "getting-started.md").read_text()
    quoted = page.split("It prints\n\n```text\n", 1)[1].split("\n```", 1)[0]
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(plt, "show", lambda *a, **k: None)
    runpy.run_path(str(EXAMPLES[0].parent / "plot_first_move.py"), run_name="__main__")
    plt.close("all")
    assert capsys.readouterr().out.strip() == quoted.strip()
