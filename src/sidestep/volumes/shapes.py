"""The volumes: small immutable records, validated on construction, 2D or 3D.

A volume's dimension is its coordinates' (2 or 3 numbers). Every pair
answers both ways round through the kernels of
:mod:`sidestep.kernels3d.volumes`, where every pair reduces to one of three
canonical families (rounded-rounded, rounded-polytope, polytope-polytope):
the reversed pair is the same kernel with its arguments swapped, so there is
no per-pair dispatch to get wrong.

Lower-dimensional volumes are sets like the others: a :class:`Point`
contains only a coincident point (or a zero-radius sphere or zero-length
segment there); a :class:`Segment` contains the points, segments and
zero-radius spheres on it; a :class:`Ray` contains only what lies on it,
rays included when they start on it and point the same way; nothing bounded
contains a ray.
"""
import enum
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NoReturn, Self, SupportsFloat

import numpy as np
from numpy.typing import ArrayLike

from .. import validation
from .._types import Convention, Coords, FloatArray, Point2, Point3, Points
from ..kernels3d import volumes as kv
from ..tolerances import VOLUME_TOLERANCE
from . import packing


class Containment(enum.IntEnum):
    """How a volume ``b`` stands against ``a``: outside, crossing or inside ``a``."""

    DISJOINT = 0
    INTERSECTS = 1
    CONTAINS = 2


def _coords(value: object, name: str, dim: int | None = None) -> tuple[float, ...]:
    arr = validation.as_float_array(value, name)
    if arr.ndim != 1 or arr.shape[0] not in (2, 3) or (dim is not None and arr.shape[0] != dim):
        want = f"{dim}D" if dim else "2D or 3D"
        raise ValueError(f"{name} must be a {want} point, got shape {arr.shape}")
    validation.point(arr, name, arr.shape[0])
    return tuple(float(x) for x in arr)


def _unit(value: object, name: str, dim: int) -> tuple[float, ...]:
    d = _coords(value, name, dim)
    if not any(d):
        raise ValueError(f"{name} must not be the zero vector")
    # The kernel that distances_along scales each row with: the same bits.
    u: tuple[float, float, float] = kv.unit_direction(*packing.lift(d))
    return u[:dim]


class Volume:
    """What every volume answers: :meth:`contains`, :meth:`intersects`."""

    __slots__ = ()

    if TYPE_CHECKING:
        #: ``(PACKED,) float64``, read-only: the volume as the kernels read it
        #: (:mod:`sidestep.kernels3d.volumes`); a field of every volume.
        packed: FloatArray

        def _anchor(self) -> tuple[float, ...]:
            """A point of the volume, whose length is its dimension."""
            raise NotImplementedError

        def _pack(self) -> FloatArray:
            """The volume packed for the kernels."""
            raise NotImplementedError

    @property
    def dim(self) -> int:
        """2 or 3."""
        return len(self._anchor())

    def _check_dim(self, other: object) -> None:
        if not isinstance(other, Volume):
            raise TypeError(f"other must be a volume, got {type(other).__name__}")
        if other.dim != self.dim:
            raise ValueError(f"other must be a {self.dim}D volume like this one, "
                             f"got a {other.dim}D one")

    def contains(self, other: "Volume") -> Containment:
        """The state of ``other`` against this volume: a :class:`Containment`.

        CONTAINS when all of ``other`` lies in this volume (its boundary
        included, within :data:`~sidestep.tolerances.VOLUME_TOLERANCE`),
        INTERSECTS when they share a point but ``other`` sticks out, DISJOINT
        otherwise. Exact for every pair.
        """
        self._check_dim(other)
        return Containment(kv.contains_pair(self.packed, other.packed, VOLUME_TOLERANCE,
                                       np.empty((2, kv.PACKED))))

    def intersects(self, other: "Volume") -> bool:
        """True when the two volumes share a point (touching counts). Exact."""
        self._check_dim(other)
        return bool(kv.intersects_pair(self.packed, other.packed, VOLUME_TOLERANCE,
                                  np.empty((2, kv.PACKED))))

    def __post_init__(self) -> None:
        object.__setattr__(self, "packed", self._pack())
        self.packed.setflags(write=False)


class _Along(Volume):
    """Rays and segments: :meth:`distance_along`."""

    __slots__ = ()

    def distance_along(self, other: Volume) -> float | None:
        """The distance from the start to the first point in ``other``; ``None`` on a miss.

        0 when the start lies in ``other`` (or within
        :data:`~sidestep.tolerances.VOLUME_TOLERANCE` of it: touching
        counts). Exact, in closed form (to a few rounding steps): a box,
        frustum or wedge clips the line by its planes, a sphere or capsule
        solves its quadratics (:func:`~sidestep.kernels3d.volumes.entry_distance`).
        What the line only touches within the tolerance (a point, a segment,
        a ray; a tangent, a face it runs along) it meets where it passes
        nearest (a box or frustum: where it first comes within the
        tolerance of its planes). ``None`` exactly when :meth:`intersects`
        is False. Many rays at once: :func:`~sidestep.volumes.distances_along`.

        >>> from sidestep.volumes import Box, Point, Ray, Sphere
        >>> Ray((-5, 0.5), (1, 0)).distance_along(Box((0, 0), (1, 1)))
        5.0
        >>> Ray((0, 3), (1, 0)).distance_along(Sphere((4, 0), 3.0))    # tangent
        4.0
        >>> Ray((0, 0), (-1, 0)).distance_along(Point((1, 0))) is None
        True
        """
        self._check_dim(other)
        d = float(kv.distance_along(self.packed, other.packed, VOLUME_TOLERANCE))
        return None if d < 0.0 else d


@dataclass(frozen=True)
class Point(Volume):
    """A point ``position`` (2D or 3D)."""

    position: tuple[float, ...]
    packed: FloatArray = field(init=False, repr=False, compare=False)

    def __init__(self, position: Coords) -> None:
        object.__setattr__(self, "position", _coords(position, "position"))
        self.__post_init__()

    def _anchor(self) -> tuple[float, ...]:
        return self.position

    def _pack(self) -> FloatArray:
        return packing.rounded(self.position, self.position, 0.0, self.dim)


@dataclass(frozen=True)
class Sphere(Volume):
    """A ball (a disc in 2D) of ``radius`` >= 0 around ``center``."""

    center: tuple[float, ...]
    radius: float
    packed: FloatArray = field(init=False, repr=False, compare=False)

    def __init__(self, center: Coords, radius: float) -> None:
        object.__setattr__(self, "center", _coords(center, "center"))
        object.__setattr__(self, "radius", validation.length(radius, "radius"))
        self.__post_init__()

    def _anchor(self) -> tuple[float, ...]:
        return self.center

    @classmethod
    def enclosing(cls, points: Points, seed: int = 0) -> Self:
        """The smallest sphere (disc in 2D) holding ``points (n, 2|3)``, exact.

        Welzl's algorithm (:func:`~sidestep.kernels3d.volumes.enclosing_sphere`)
        over the points shuffled with ``seed`` (the answer does not depend on
        it, up to rounding); its radius is grown by 1e-12 relative so every
        point tests inside.
        """
        arr = validation.as_float_array(points, "points")
        if arr.ndim != 2 or arr.shape[0] == 0 or arr.shape[1] not in (2, 3):
            raise ValueError(f"points must have shape (n, 2) or (n, 3), n >= 1, "
                             f"got shape {arr.shape}")
        dim = arr.shape[1]
        validation.points(arr, "points", dim=dim)
        lifted = np.zeros((len(arr), 3))
        lifted[:, :dim] = arr
        lifted = lifted[np.random.default_rng(seed).permutation(len(arr))]
        cx, cy, cz, r = kv.enclosing_sphere(lifted, dim == 2)
        center = (cx, cy, cz)[:dim]
        far = float(np.max(np.linalg.norm(arr - center, axis=1)))
        return cls(center, max(r, far))

    def merge(self, other: "Sphere") -> "Sphere":
        """The smallest sphere holding this sphere and sphere ``other``."""
        self._check_dim(other)
        c0, c1 = np.array(self.center), np.array(other.center)
        d = float(np.linalg.norm(c1 - c0))
        if d + other.radius <= self.radius:
            return self
        if d + self.radius <= other.radius:
            return other
        r = 0.5 * (d + self.radius + other.radius)
        return Sphere(c0 + (c1 - c0) * ((r - self.radius) / d), r)

    def grow(self, amount: float) -> "Sphere":
        """This sphere with its radius grown by ``amount`` (>= 0)."""
        return Sphere(self.center, self.radius + validation.length(amount, "amount"))

    def _pack(self) -> FloatArray:
        return packing.rounded(self.center, self.center, self.radius, self.dim)


@dataclass(frozen=True)
class Segment(_Along, Volume):
    """The segment from ``start`` to ``end`` (equal ends: a point)."""

    start: tuple[float, ...]
    end: tuple[float, ...]
    packed: FloatArray = field(init=False, repr=False, compare=False)

    def __init__(self, start: Coords, end: Coords) -> None:
        object.__setattr__(self, "start", _coords(start, "start"))
        object.__setattr__(self, "end", _coords(end, "end", len(self.start)))
        self.__post_init__()

    @property
    def length(self) -> float:
        """The distance from start to end."""
        return math.dist(self.start, self.end)

    def _anchor(self) -> tuple[float, ...]:
        return self.start

    def _pack(self) -> FloatArray:
        return packing.rounded(self.start, self.end, 0.0, self.dim)


@dataclass(frozen=True)
class Capsule(Volume):
    """All points within ``radius`` of the segment ``start``-``end`` (a stadium in 2D)."""

    start: tuple[float, ...]
    end: tuple[float, ...]
    radius: float
    packed: FloatArray = field(init=False, repr=False, compare=False)

    def __init__(self, start: Coords, end: Coords, radius: float) -> None:
        object.__setattr__(self, "start", _coords(start, "start"))
        object.__setattr__(self, "end", _coords(end, "end", len(self.start)))
        object.__setattr__(self, "radius", validation.length(radius, "radius"))
        self.__post_init__()

    def _anchor(self) -> tuple[float, ...]:
        return self.start

    def _pack(self) -> FloatArray:
        return packing.rounded(self.start, self.end, self.radius, self.dim)


@dataclass(frozen=True)
class Ray(_Along, Volume):
    """The half-line from ``origin`` along ``direction`` (stored as a unit vector)."""

    origin: tuple[float, ...]
    direction: tuple[float, ...]
    packed: FloatArray = field(init=False, repr=False, compare=False)

    def __init__(self, origin: Coords, direction: Coords) -> None:
        object.__setattr__(self, "origin", _coords(origin, "origin"))
        object.__setattr__(self, "direction", _unit(direction, "direction", len(self.origin)))
        self.__post_init__()

    def _anchor(self) -> tuple[float, ...]:
        return self.origin

    def _pack(self) -> FloatArray:
        return packing.ray(self.origin, self.direction, self.dim)


@dataclass(frozen=True)
class Box(Volume):
    """The axis-aligned box ``[min, max]`` (closed; a flat or zero box is allowed)."""

    min: tuple[float, ...]
    max: tuple[float, ...]
    packed: FloatArray = field(init=False, repr=False, compare=False)

    def __init__(self, min: Coords, max: Coords) -> None:   # noqa: A002 - the natural names
        lo = _coords(min, "min")
        hi = _coords(max, "max", len(lo))
        for j, (a, b) in enumerate(zip(lo, hi)):
            if a > b:
                raise ValueError(f"min must not exceed max; axis {j}: {a} > {b}")
        object.__setattr__(self, "min", lo)
        object.__setattr__(self, "max", hi)
        self.__post_init__()

    def _anchor(self) -> tuple[float, ...]:
        return self.min

    def _pack(self) -> FloatArray:
        lo, hi = packing.lift(self.min), packing.lift(self.max)
        dirs = np.eye(3)[:self.dim]
        return packing.polytope(packing.box_corners(lo, hi), packing.box_planes(lo, hi), dirs,
                                self.dim)

    @classmethod
    def enclosing(cls, points: Points) -> Self:
        """The smallest box holding ``points (n, 2|3)``."""
        arr = validation.as_float_array(points, "points")
        if arr.ndim != 2 or arr.shape[0] == 0 or arr.shape[1] not in (2, 3):
            raise ValueError(f"points must have shape (n, 2) or (n, 3), n >= 1, "
                             f"got shape {arr.shape}")
        validation.points(arr, "points", dim=arr.shape[1])
        return cls(arr.min(axis=0), arr.max(axis=0))

    def merge(self, other: "Box") -> "Box":
        """The smallest box holding this box and box ``other``."""
        self._check_dim(other)
        return Box(np.minimum(self.min, other.min), np.maximum(self.max, other.max))

    def grow(self, amount: float) -> "Box":
        """This box with every side moved out by ``amount`` (>= 0)."""
        a = validation.length(amount, "amount")
        return Box(np.subtract(self.min, a), np.add(self.max, a))


def _planes_from_corners(corners: FloatArray) -> FloatArray:
    # Outward unit planes of a hexahedron, ordered by the bit held fixed: -x, +x, -y, ...
    centre = corners.mean(axis=0)
    planes = np.zeros((6, 4))
    for j, (bit, side) in enumerate((b, s) for b in (0, 1, 2) for s in (0, 1)):
        others = [x for x in (0, 1, 2) if x != bit]
        cycle = []
        for ia, ib in ((0, 0), (1, 0), (1, 1), (0, 1)):
            cycle.append((side << bit) | (ia << others[0]) | (ib << others[1]))
        pts = corners[cycle]
        n = np.zeros(3)
        for i in range(4):                       # Newell's normal
            p, q = pts[i], pts[(i + 1) % 4]
            n += np.cross(p, q)
        size = np.linalg.norm(n)
        if not size > 1e-12 * max(1.0, np.abs(corners).max()) ** 2:
            raise ValueError("the frustum is degenerate (a face has no area)")
        n /= size
        face = pts.mean(axis=0)
        if n @ (face - centre) < 0:
            n = -n
        planes[j, :3], planes[j, 3] = n, n @ face
    return planes


@dataclass(frozen=True)
class Frustum(Volume):
    """A view volume: a 3D frustum (six planes) or a 2D view wedge (near and far).

    Build one with :meth:`perspective`, :meth:`orthographic`,
    :meth:`from_matrix`, :meth:`from_planes` (3D) or :meth:`wedge` (2D).
    ``corners (8, 2|3)``: corner ``i`` is on the right where bit 0 of ``i``
    is set, at the top for bit 1 (3D only) and at the far end for bit 2.
    ``planes (6, 4)`` (3D) hold outward unit normals and offsets, inside
    where ``n . p <= d``.
    """

    corners: tuple[tuple[float, ...], ...]
    planes: tuple[tuple[float, ...], ...]
    packed: FloatArray = field(init=False, repr=False, compare=False)

    def __init__(self, corners: Iterable[Iterable[SupportsFloat]],
                 planes: Iterable[Iterable[SupportsFloat]]) -> None:
        object.__setattr__(self, "corners", tuple(tuple(float(x) for x in c) for c in corners))
        object.__setattr__(self, "planes", tuple(tuple(float(x) for x in p) for p in planes))
        self.__post_init__()

    def _anchor(self) -> tuple[float, ...]:
        return self.corners[0]

    def _pack(self) -> FloatArray:
        c = np.array([packing.lift(p) for p in self.corners])
        planes = np.array(self.planes)
        if self.dim == 2:
            planes = np.vstack([planes, [[0, 0, 1, 0], [0, 0, -1, 0]]])
        return packing.polytope(c, planes, packing.edge_directions(c), self.dim)

    @classmethod
    def _from_corners(cls, corners: ArrayLike) -> Self:
        corners = np.asarray(corners, dtype=np.float64)
        planes = _planes_from_corners(corners)
        scale = max(1.0, np.abs(corners).max())
        depth = (corners @ planes[:, :3].T - planes[:, 3]).min(axis=0)
        if not np.all(depth < -1e-9 * scale):
            raise ValueError("the frustum is degenerate (it has no volume)")
        return cls(corners, planes)

    @classmethod
    def perspective(cls, eye: Point3, target: Point3, up: Point3, fov_y: float, aspect: float,
                    near: float, far: float) -> Self:
        """A perspective view: ``fov_y`` radians in (0, pi), ``aspect`` width/height, 0 < near < far."""
        eye = np.array(_coords(eye, "eye", 3))
        forward = np.array(_coords(target, "target", 3)) - eye
        fov_y = validation.length(fov_y, "fov_y", allow_zero=False)
        if not fov_y < math.pi:
            raise ValueError(f"fov_y must be below pi, got {fov_y}")
        aspect = validation.length(aspect, "aspect", allow_zero=False)
        near, far = _near_far(near, far)
        t = math.tan(fov_y / 2)
        return cls._from_camera(eye, forward, up, lambda d: (d * t * aspect, d * t), near, far)

    @classmethod
    def orthographic(cls, eye: Point3, target: Point3, up: Point3, width: float, height: float,
                     near: float, far: float) -> Self:
        """A box-shaped view ``width`` by ``height`` from ``near`` to ``far`` along the view."""
        eye = np.array(_coords(eye, "eye", 3))
        forward = np.array(_coords(target, "target", 3)) - eye
        width = validation.length(width, "width", allow_zero=False)
        height = validation.length(height, "height", allow_zero=False)
        near, far = _near_far(near, far, allow_zero=True)
        return cls._from_camera(eye, forward, up, lambda d: (width / 2, height / 2), near, far)

    @classmethod
    def _from_camera(cls, eye: FloatArray, forward: FloatArray, up: Point3,
                     half: Callable[[float], tuple[float, float]], near: float,
                     far: float) -> Self:
        f = forward / (np.linalg.norm(forward) or _raise("target", "must differ from eye"))
        u = np.array(_coords(up, "up", 3))
        r = np.cross(f, u)
        if not np.linalg.norm(r) > 1e-12 * (np.linalg.norm(u) or 1.0):
            raise ValueError("up must not be zero or parallel to the view direction")
        r /= np.linalg.norm(r)
        u = np.cross(r, f)
        corners = np.zeros((8, 3))
        for i in range(8):
            d = far if i & 4 else near
            hw, hh = half(d)
            corners[i] = eye + f * d + r * (hw if i & 1 else -hw) + u * (hh if i & 2 else -hh)
        return cls._from_corners(corners)

    @classmethod
    def from_planes(cls, planes: ArrayLike) -> Self:
        """From six planes ``(6, 4)`` in order left, right, bottom, top, near, far.

        Each row ``(nx, ny, nz, d)`` holds an outward normal (any length) and
        its offset: inside where ``n . p <= d``.
        """
        arr = validation.as_float_array(planes, "planes")
        if arr.shape != (6, 4):
            raise ValueError(f"planes must have shape (6, 4), got shape {arr.shape}")
        validation.points(arr, "planes", dim=4)
        norms = np.linalg.norm(arr[:, :3], axis=1)
        if not np.all(norms > 0):
            raise ValueError("planes must have non-zero normals")
        arr = arr / norms[:, None]
        corners = np.zeros((8, 3))
        for i in range(8):
            rows = arr[[i & 1, 2 + ((i >> 1) & 1), 4 + ((i >> 2) & 1)]]
            try:
                corners[i] = np.linalg.solve(rows[:, :3], rows[:, 3])
            except np.linalg.LinAlgError:
                raise ValueError("planes make a degenerate frustum (three of them meet in "
                                 "no single corner)") from None
        if not np.all(np.isfinite(corners)) or \
                np.any(corners @ arr[:, :3].T - arr[:, 3] > 1e-7 * max(1.0, np.abs(corners).max())):
            raise ValueError("planes make a degenerate frustum (a corner lies outside "
                             "another plane)")
        return cls._from_corners(corners)

    @classmethod
    def from_matrix(cls, m: ArrayLike, convention: Convention = "opengl") -> Self:
        """From a view-projection matrix ``m (4, 4)`` acting on column vectors.

        ``convention`` is the clip depth range: ``"opengl"`` (-w..w) or
        ``"directx"`` (0..w). A row-vector (D3DX-style) matrix is passed as
        its transpose.
        """
        arr = validation.as_float_array(m, "m")
        if arr.shape != (4, 4):
            raise ValueError(f"m must have shape (4, 4), got shape {arr.shape}")
        validation.points(arr, "m", dim=4)
        validation.choice(convention, "convention", ("opengl", "directx"))
        w = arr[3]
        inward = [w + arr[0], w - arr[0], w + arr[1], w - arr[1],
                  arr[2] if convention == "directx" else w + arr[2], w - arr[2]]
        # a.p + d >= 0 inside is (-a).p <= d.
        return cls.from_planes([(-p[0], -p[1], -p[2], p[3]) for p in inward])

    @classmethod
    def wedge(cls, eye: Point2, heading: Point2, fov: float, near: float, far: float) -> Self:
        """A 2D view wedge: from ``eye`` facing ``heading`` (a direction), ``fov`` radians wide.

        It holds the points at angle within ``fov / 2`` of ``heading`` whose
        distance *along the heading* is in ``[near, far]`` (a trapezoid, the
        top view of a frustum), ``0 < fov < pi``, ``0 < near < far``.
        """
        eye = np.array(_coords(eye, "eye", 2))
        f = np.array(_unit(heading, "heading", 2))
        fov = validation.length(fov, "fov", allow_zero=False)
        if not fov < math.pi:
            raise ValueError(f"fov must be below pi, got {fov}")
        near, far = _near_far(near, far)
        left = np.array([-f[1], f[0]])
        t = math.tan(fov / 2)
        corners = np.zeros((8, 2))
        for i in range(8):
            d = far if i & 4 else near
            corners[i] = eye + f * d + left * (d * t if i & 1 else -d * t)
        planes = []
        for a, b in ((0, 4), (5, 1), (1, 0), (4, 5)):    # right side, left side, near, far
            e = corners[b] - corners[a]
            n = np.array([e[1], -e[0]])
            n /= np.linalg.norm(n)
            if n @ (corners[a] - (eye + f * (near + far) / 2)) < 0:
                n = -n
            planes.append((n[0], n[1], 0.0, n @ corners[a]))
        return cls(corners, planes)


def _raise(name: str, what: str) -> NoReturn:
    raise ValueError(f"{name} {what}")


def _near_far(near: float, far: float, allow_zero: bool = False) -> tuple[float, float]:
    near = validation.length(near, "near", allow_zero=allow_zero)
    far = validation.length(far, "far", allow_zero=False)
    if not near < far:
        raise ValueError(f"near must be below far, got near={near}, far={far}")
    return near, far
