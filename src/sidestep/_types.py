"""Type aliases of sidestep's annotations: arrays by dtype, inputs by shape, modes by name.

Inputs are anything NumPy reads as an array (:data:`numpy.typing.ArrayLike`:
a tuple, a list of tuples, an array); each alias is named for the shape the
argument must have, which :mod:`sidestep.validation` checks at run time.
Outputs are NumPy arrays of a known dtype. The string options a call takes
(modes, families, sides, axes) are ``Literal`` types, so a type checker
catches a misspelt mode before the ``ValueError`` would.

Nothing here exists at run time beyond the aliases themselves: importing
this module costs nothing and imports only NumPy's typing helpers.
"""
import os
from typing import Literal, TypeAlias, TypedDict

import numpy as np
from numpy.typing import ArrayLike, NDArray

# ================================================================= outputs
#: float64 array (positions, distances, normals...).
FloatArray: TypeAlias = NDArray[np.float64]
#: int64 array (obstacle ids, agent ids, parts...).
IntArray: TypeAlias = NDArray[np.int64]
#: bool array (ray hits, blocked cells...).
BoolArray: TypeAlias = NDArray[np.bool_]
#: int8 array of :class:`~sidestep.volumes.Containment` values.
StateArray: TypeAlias = NDArray[np.int8]

# ================================================================== inputs
#: One 2D point or vector ``(2,)``: ``(x, y)``, a list, an array.
Point2: TypeAlias = tuple[float, float] | ArrayLike
#: 2D points ``(n, 2)``, or one point ``(2,)`` where the call says so.
Points2: TypeAlias = ArrayLike
#: One 3D point or vector ``(3,)``: ``(x, y, z)``, a list, an array.
Point3: TypeAlias = tuple[float, float, float] | ArrayLike
#: 3D points ``(n, 3)``, or one point ``(3,)`` where the call says so.
Points3: TypeAlias = ArrayLike
#: One point or vector of either dimension, ``(2,)`` or ``(3,)`` (a bounding volume's).
Coords: TypeAlias = tuple[float, float] | tuple[float, float, float] | ArrayLike
#: Points of either dimension ``(n, 2|3)`` (a bounding volume's own).
Points: TypeAlias = ArrayLike
#: A number, or one number per item ``(n,)`` (radii, clearances, distances).
Numbers: TypeAlias = ArrayLike
#: One bool, or one per item ``(n,)``.
Flags: TypeAlias = ArrayLike
#: One obstacle (or agent) id, or many ``(n,)``.
Ids: TypeAlias = ArrayLike
#: A look-up table of bool (or 0/1): ``(rows, cols)`` in 2D, ``(nx, ny, nz)`` in 3D.
Table: TypeAlias = ArrayLike
#: A file's path, as a string or a path object.
StrPath: TypeAlias = str | os.PathLike[str]

# ================================================================= options
#: How a move meets obstacles (:meth:`sidestep.World2D.move`).
Mode: TypeAlias = Literal["slide", "push", "block", "ghost"]
#: How a crowd's agents meet each other (:meth:`sidestep.Crowd.step`).
CrowdMode: TypeAlias = Literal["slide", "block", "ghost"]
#: Why a move ended (:attr:`sidestep.Move.stop`).
Stop: TypeAlias = Literal["done", "slid", "blocked", "pushed", "max_iterations", "stuck",
                         "squeezed"]
#: Why a character's frame ended (:attr:`sidestep.Character.stop`).
CharacterStop: TypeAlias = Literal["done", "slid", "blocked", "pushed", "max_iterations",
                                   "stuck", "stepped", "landed", "fell", "squeezed"]
#: What a surface touching a character is (:attr:`sidestep.Touch.kind`).
TouchKind: TypeAlias = Literal["floor", "wall", "ceiling"]
#: Which faces of a panel or mesh block: both, or only the counter-clockwise one.
Sides: TypeAlias = Literal["both", "front"]
#: A 3D world's up axis.
Axis: TypeAlias = Literal["x", "y", "z"]
#: The obstacle families of a :class:`~sidestep.World2D`.
Family2D: TypeAlias = Literal["circle", "wall", "box", "polygon", "grid"]
#: The obstacle families of a :class:`~sidestep.World3D`.
Family3D: TypeAlias = Literal["panel", "mesh", "box", "sphere", "cylinder", "voxels",
                              "heightfield"]
#: Clip depth range of a projection matrix (:meth:`sidestep.volumes.Frustum.from_matrix`).
Convention: TypeAlias = Literal["opengl", "directx"]


# =============================================================== geometry
class Geometry2D(TypedDict, total=False):
    """What :meth:`sidestep.World2D.geometry` returns: ``ids`` and the family's arrays."""

    ids: IntArray
    centers: FloatArray
    radii: FloatArray
    starts: FloatArray
    ends: FloatArray
    clearance: FloatArray
    one_sided: BoolArray
    mins: FloatArray
    maxs: FloatArray
    vertices: list[FloatArray]
    blocked: list[BoolArray]
    cell_size: FloatArray
    origin: FloatArray


class Geometry3D(TypedDict, total=False):
    """What :meth:`sidestep.World3D.geometry` returns: ``ids`` and the family's arrays."""

    ids: IntArray
    vertices: list[FloatArray]
    triangles: list[IntArray]
    sides: list[Sides]
    mins: FloatArray
    maxs: FloatArray
    centers: FloatArray
    radii: FloatArray
    bases: FloatArray
    heights: FloatArray | list[FloatArray]
    blocked: list[BoolArray]
    cell_size: FloatArray
    origin: FloatArray
