"""The level files a many-level command works on: files, folders and globs, expanded.

>>> import tempfile
>>> from pathlib import Path
>>> with tempfile.TemporaryDirectory() as tmp:
...     for name in ("a.map", "a.map.scen", "b.wad", "notes.txt", "sub/c.mesh"):
...         (Path(tmp) / name).parent.mkdir(exist_ok=True)
...         _ = (Path(tmp) / name).write_text("")
...     found = expand([tmp, f"{tmp}/*.wad"])
>>> [Path(f).name for f in found]          # scenarios, notes and repeats left out
['a.map', 'b.wad', 'c.mesh']
"""
import glob
import json
import os
from pathlib import Path

#: Extensions of the level files a folder is searched for: 2D maps and
#: scenes, and 3D meshes (OBJ, glTF, GLB; a ``.json`` scene may be either).
LEVEL_SUFFIXES = (".json", ".toml", ".tmx", ".tmj", ".map", ".png", ".bmp", ".gif", ".wad",
                  ".mesh", ".obj", ".glb", ".gltf")
#: Extensions that are always 3D levels.
MESH_SUFFIXES = (".obj", ".glb", ".gltf")


def expand(arguments):
    """The level files that ``arguments`` name, in order, each once.

    Parameters
    ----------
    arguments : iterable of str or path
        A file (kept whatever its extension, so a file that is no level is
        reported as such), a folder (searched recursively for
        :data:`LEVEL_SUFFIXES`, sorted, Tiled tilesets left out), or a glob pattern (``*``, ``?``,
        ``[...]``; ``**`` reaches into sub-folders), whose matches are
        expanded the same way.

    Returns
    -------
    list of str
        Paths as given or found (not resolved), without repeats.

    Raises
    ------
    FileNotFoundError
        An argument that names nothing (no file, folder or match).
    """
    out, seen = [], set()

    def keep(path):
        key = os.path.realpath(path)
        if key not in seen:
            seen.add(key)
            out.append(str(path))

    for argument in arguments:
        text = os.fspath(argument)
        if os.path.isdir(text):
            for path in _in_folder(text):
                keep(path)
        elif os.path.isfile(text):
            keep(text)
        elif glob.has_magic(text):
            matches = sorted(glob.glob(text, recursive=True))
            if not matches:
                raise FileNotFoundError(f"{text}: no level matches")
            for match in matches:
                if os.path.isdir(match):
                    for path in _in_folder(match):
                        keep(path)
                elif _is_level(match):
                    keep(match)
        else:
            raise FileNotFoundError(f"{text}: no such file or folder")
    return out


def is_3d_file(path):
    """Whether ``path`` looks like a 3D level: a mesh, or a scene saying ``"dimensions": 3``.

    A guess from the file's name and header, for compiling the right kernels
    before a run; what a level is, the reader says (a broken file: False).

    >>> is_3d_file("dungeon.obj"), is_3d_file("arena.map")
    (True, False)
    """
    suffix = Path(path).suffix.lower()
    if suffix in MESH_SUFFIXES:
        return True
    if suffix != ".json":
        return False
    try:
        with open(path, "rb") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and data.get("dimensions") == 3


def _in_folder(folder):
    """Level files under ``folder``, sorted by path."""
    found = []
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        found += [os.path.join(root, f) for f in sorted(files)
                  if _is_level(os.path.join(root, f))]
    return sorted(found)


def _is_level(path):
    """Whether a file found in a folder is a level: its extension, and no Tiled tileset.

    A Moving AI ``.scen`` has no level extension; a Tiled tileset saved as
    ``.json`` (``"type": "tileset"``, or a tile count and no layers) sits
    beside the maps that use it.
    """
    suffix = Path(path).suffix.lower()
    if suffix not in LEVEL_SUFFIXES:
        return False
    if suffix == ".json":
        try:
            with open(path, "rb") as f:
                data = json.load(f)
        except (OSError, ValueError):
            return True                     # a broken file is reported, not hidden
        # The test the Tiled reader makes (io.tiled_formats).
        return not (isinstance(data, dict) and (data.get("type") == "tileset" or (
            "layers" not in data and "tilecount" in data)))
    return True
