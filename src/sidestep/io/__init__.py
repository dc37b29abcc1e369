"""Level files in, scene files out: :func:`load` picks a reader by the file's extension.

- ``.json``: a sidestep scene (it says ``"format": "sidestep-scene"``) or a
  Tiled JSON map, told apart by content; ``layers=`` for Tiled maps.
- ``.toml``: a sidestep scene (:mod:`sidestep.io.scene`).
- ``.tmx``, ``.tmj``: a Tiled map (:mod:`sidestep.io.tiled`); ``layers=``.
- ``.map``: a Moving AI grid map, with ``<name>.map.scen`` beside it when
  there is one (:mod:`sidestep.io.movingai`); ``scenarios=``.
- ``.png``, ``.bmp``, ``.gif``: an image whose dark pixels are blocked
  (:mod:`sidestep.io.image`); ``threshold=``, ``cell_size=``.
- ``.wad``: one map of a Doom WAD (:mod:`sidestep.io.wad`); ``map=``,
  ``step_height=``, ``agent_height=``.
- ``.mesh``: a Polyanya navigation mesh, its outline as walls
  (:mod:`sidestep.io.navmesh`); ``scenarios=``.

Every reader returns a :class:`~sidestep.level.Level` and raises a
:class:`~sidestep.level.LevelError` naming the file, the place in it and what
was expected when the file is at fault; a missing file raises
``FileNotFoundError``, and a bad option ``TypeError`` or ``ValueError``. The
world is built only after the whole file was read.

Coordinates stay as each format has them: Tiled pixels and grid rows (Moving
AI, images, navigation meshes made from them) with y pointing down, Doom map units with y up, scene files as
saved. :func:`save` writes sidestep's own scene format
(:mod:`sidestep.io.scene`), which loads back to the same world, ids included.

- ``.obj``, ``.glb``, ``.gltf``: a 3D level (:mod:`sidestep.io.meshes`), its
  triangles one mesh obstacle of a ``World3D``; ``up=``.

The Tiled and image readers need the ``levels`` extra
(``pip install sidestep[levels]``: pytiled-parser, Pillow).
"""
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .._types import StrPath
from ..level import Level, LevelError
from . import image, meshes, movingai, navmesh, scene, tiled, wad
from .scene import save

__all__ = ["load", "save", "EXTENSIONS"]


def _read_json(path: Path, **options: Any) -> Level:
    """A ``.json`` file: a sidestep scene if it says so, else a Tiled JSON map."""
    data = scene.parse_json(path.read_bytes(), path)
    if scene.is_scene(data):
        if options:
            raise TypeError(f"load() got option {next(iter(options))!r}, but {path.name} is a "
                            "sidestep scene, which takes none")
        return scene.scene_from_data(data, path)
    return tiled.read_tiled(path, data=data, **options)


#: Each supported extension: its reader and the options that reader takes.
EXTENSIONS: dict[str, tuple[Callable[..., Level], tuple[str, ...]]] = {
    ".json": (_read_json, ("layers",)),
    ".toml": (scene.read_scene, ()),
    ".tmx": (tiled.read_tiled, ("layers",)),
    ".tmj": (tiled.read_tiled, ("layers",)),
    ".map": (movingai.read_map, ("scenarios",)),
    ".png": (image.read_image, ("threshold", "cell_size")),
    ".bmp": (image.read_image, ("threshold", "cell_size")),
    ".gif": (image.read_image, ("threshold", "cell_size")),
    ".wad": (wad.read_wad, ("map", "step_height", "agent_height")),
    ".mesh": (navmesh.read_mesh, ("scenarios",)),
    ".obj": (meshes.read_level, ("up",)),
    ".glb": (meshes.read_level, ("up",)),
    ".gltf": (meshes.read_level, ("up",)),
}


def load(path: StrPath, **options: Any) -> Level:
    """Read a level file; the reader is picked by the extension (see the module table).

    Parameters
    ----------
    path : str or path
    **options
        Options of that file's reader (``map="E1M1"`` for a WAD,
        ``threshold=100`` for an image...).

    Returns
    -------
    Level

    Raises
    ------
    LevelError
        The file is malformed, or is not a level (a tileset, a scenario file,
        an unknown extension); the message names the file and the place.
    FileNotFoundError
        No such file.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = Path(tmp) / "room.map"
    ...     _ = path.write_text("type octile\\nheight 1\\nwidth 3\\nmap\\n.@.\\n")
    ...     level = load(path)
    >>> level.name, len(level.world)       # the grid, and 4 one-sided walls round the map
    ('room', 5)
    >>> load("level.xyz")                  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    sidestep.level.LevelError: level.xyz: unknown extension '.xyz'; sidestep reads ...
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".scen":
        base = path.name[:-len(path.suffix)]
        target = base if base.lower().endswith(".map") else "the .map file it belongs to"
        raise LevelError(path, None, f"a Moving AI scenario file holds no obstacles: load "
                         f"{target}, which reads {path.name} beside it (or pass "
                         "scenarios=... to load)")
    if suffix in (".tsx", ".tsj"):
        raise LevelError(path, None, "is a Tiled tileset, not a map: load the map that uses it")
    if suffix not in EXTENSIONS:
        raise LevelError(path, None, f"unknown extension {path.suffix!r}; sidestep reads "
                         f"{', '.join(EXTENSIONS)}")
    reader, accepted = EXTENSIONS[suffix]
    for option in options:
        if option not in accepted:
            takes = f"it takes {', '.join(accepted)}" if accepted else "it takes none"
            raise TypeError(f"load() got option {option!r}, which {suffix} files do not take; "
                            f"{takes}")
    if not path.is_file():
        raise FileNotFoundError(f"no such level file: {path}")
    return reader(path, **options)
