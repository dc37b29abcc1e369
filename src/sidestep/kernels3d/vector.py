"""3-vectors as tuples ``(x, y, z)`` of float64: the arithmetic every 3D kernel shares.

Numba keeps these tuples in registers, so writing ``dot(sub(p, a), n)``
costs what the nine scalar lines would, and the geometry reads as geometry.
Public kernels still take and return plain floats; only their insides use
these helpers.
"""
import math

from numba import njit


@njit(cache=True, inline="always")
def vec(x, y, z):
    """The tuple ``(x, y, z)`` as float64."""
    return (float(x), float(y), float(z))


@njit(cache=True, inline="always")
def add(a, b):
    """``a + b``."""
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


@njit(cache=True, inline="always")
def sub(a, b):
    """``a - b``."""
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


@njit(cache=True, inline="always")
def scale(a, s):
    """``s * a``."""
    return (a[0] * s, a[1] * s, a[2] * s)


@njit(cache=True, inline="always")
def axpy(a, s, b):
    """``a + s * b`` (a point moved ``s`` along ``b``)."""
    return (a[0] + s * b[0], a[1] + s * b[1], a[2] + s * b[2])


@njit(cache=True, inline="always")
def dot(a, b):
    """``a . b``."""
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


@njit(cache=True, inline="always")
def cross(a, b):
    """``a x b`` (right-handed)."""
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


@njit(cache=True, inline="always")
def norm(a):
    """``|a|``."""
    return math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2])


@njit(cache=True, inline="always")
def neg(a):
    """``-a``."""
    return (-a[0], -a[1], -a[2])


@njit(cache=True)
def normalize(a):
    """``(a / |a|, |a|)``; ``((0, 0, 0), 0)`` for the zero vector.

    Scaled by its largest coordinate first, so vectors whose squared length
    underflows (below about 1e-154) or overflows still give a unit vector.
    """
    s = max(abs(a[0]), abs(a[1]), abs(a[2]))
    if s == 0.0:
        return (0.0, 0.0, 0.0), 0.0
    b = (a[0] / s, a[1] / s, a[2] / s)
    length = math.sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2])
    return (b[0] / length, b[1] / length, b[2] / length), s * length


@njit(cache=True)
def any_perpendicular(a):
    """A unit vector perpendicular to ``a``; ``(1, 0, 0)`` when ``a`` is zero.

    Crosses ``a`` with the coordinate axis it has least of, so the result
    never comes from two nearly parallel vectors. A fixed choice, so every
    normal a kernel reports is defined even where the geometry leaves it open
    (a sphere centred on the agent's core).
    """
    u, length = normalize(a)
    if length == 0.0:
        return (1.0, 0.0, 0.0)
    ax = abs(u[0])
    ay = abs(u[1])
    az = abs(u[2])
    if ax <= ay and ax <= az:
        c = cross(u, (1.0, 0.0, 0.0))
    elif ay <= az:
        c = cross(u, (0.0, 1.0, 0.0))
    else:
        c = cross(u, (0.0, 0.0, 1.0))
    return normalize(c)[0]


@njit(cache=True, inline="always")
def same(a, b):
    """Whether ``a`` and ``b`` are the same point, coordinate for coordinate."""
    return a[0] == b[0] and a[1] == b[1] and a[2] == b[2]


@njit(cache=True, inline="always")
def cyclic(i, x, y, z):
    """The vector with ``x`` on axis ``i`` and ``y``, ``z`` on axes ``i + 1``, ``i + 2`` (mod 3).

    How kernels written in an axis-aligned frame (a box's faces, a
    cylinder's axis) return their answers without building a list.
    """
    if i == 0:
        return (x, y, z)
    if i == 1:
        return (z, x, y)
    return (y, z, x)
