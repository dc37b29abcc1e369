"""The tour notebook (``examples/sidestep-tour.ipynb``) runs top to bottom without an error.

Executed with nbclient in a Jupyter kernel of this interpreter, as a reader
would run it; its own cells assert the promise they show (the agent ends
outside every obstacle), and the figures must come out as images.
"""
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOK = Path(__file__).resolve().parents[1] / "examples" / "sidestep-tour.ipynb"


def test_the_tour_notebook_runs_and_shows_its_pictures(tmp_path):
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    text = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    assert "blocked" in text or "slid" in text          # the slide's stop reason printed
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(images) >= 2                             # the slide and the clearance map
