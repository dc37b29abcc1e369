"""Sphinx configuration of sidestep's documentation.

Build it with ``python -m sphinx -W --keep-going -b html docs docs/_build/html``
(the README's docs command; CI runs the same, warnings as errors, in a venv that
has the docs extra alone).

Why Sphinx: it reads the numpydoc docstrings the code already has (napoleon),
its autodoc documents the API from the installed package, sphinx-gallery runs
the example scripts and shows their pictures, MyST lets the pages be Markdown
like the README, and furo is a kept-up, readable theme. All of them are maintained and used by the
libraries a Python game developer knows (pygame-ce, arcade, pymunk, NumPy).
"""
import os
import sys
from pathlib import Path

import sidestep

ROOT = Path(__file__).resolve().parents[1]
os.environ.setdefault("MPLBACKEND", "Agg")

project = "sidestep"
author = "The sidestep developers"
copyright = "2026, The sidestep developers"
release = sidestep.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "myst_parser",
    "sphinx_gallery.gen_gallery",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "make_pictures.py", "auto_examples/*.ipynb",
                    "auto_examples/*.py", "auto_examples/*.zip", "auto_examples/*.json"]

# Markdown pages: headings get anchors; a page's sections may start below its
# title's level.
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
suppress_warnings = ["myst.header"]

# The engines are mocked: `pip install -e ".[docs]"` brings Sphinx and its
# extensions, not pygame, arcade, Panda3D or Gymnasium, and the API pages need
# the adapters' and environments' signatures and docstrings, not the engines
# behind them. Mocking keeps the docs install light (no engine wheels, hundreds of
# MB for Panda3D and arcade) and the documented command working on a fresh clone;
# .ci/run builds the docs in a venv holding the docs extra alone, so a module
# that starts importing another engine at import time fails CI until it is
# listed here. A class over a mocked base (NavigateEnv over gymnasium.Env, the
# arcade engines over arcade's own) still documents its own members. The other
# optional packages (pytiled-parser, Ray, pyarrow, ursina) are imported lazily,
# inside the functions that use them, so autodoc never meets them.
autodoc_mock_imports = ["gymnasium", "panda3d", "pygame", "arcade"]

autodoc_default_options = {"members": True, "show-inheritance": False}
autodoc_member_order = "bysource"
autodoc_typehints = "description"
napoleon_numpy_docstring = True
napoleon_google_docstring = False
napoleon_use_rtype = False

# No intersphinx: the docs must build offline, warnings as errors.

sphinx_gallery_conf = {
    "examples_dirs": str(ROOT / "examples"),
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "download_all_examples": False,
    "remove_config_comments": True,
    "within_subsection_order": "FileNameSortKey",
    "image_scrapers": ("matplotlib",),
    "matplotlib_animations": False,
    "capture_repr": (),
}

html_theme = "furo"
html_title = f"sidestep {release}"
html_static_path = []


def _own_init_signature(app, what, name, obj, options, signature, return_annotation):
    """A class over a mocked engine class shows its own ``__init__``'s signature.

    Such a class inherits the mock's ``__new__(*args, **kwargs)``, which autodoc
    would otherwise take for its signature (``NavigateEnv(*args, **kwargs)``).
    """
    from sphinx.ext.autodoc.mock import _MockObject
    from sphinx.util.inspect import signature as inspect_signature, stringify_signature

    if what == "class" and isinstance(obj, type) and issubclass(obj, _MockObject) \
            and "__init__" in vars(obj):
        own = inspect_signature(obj.__init__, bound_method=True)
        return stringify_signature(own, show_annotation=False), return_annotation
    return None


def setup(app):
    app.connect("autodoc-process-signature", _own_init_signature)
