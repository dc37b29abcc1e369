"""Argument checks for the public API: clear errors that name the argument.

Every check runs before anything is stored, so a rejected call leaves the
world as it was.
"""
import math
import numbers
from typing import Any

import numpy as np

from ._types import FloatArray, IntArray
from .tolerances import MAX_COORDINATE

_FLOAT64 = np.dtype(np.float64)

#: How a coordinate beyond :data:`~sidestep.tolerances.MAX_COORDINATE` is refused.
_TOO_LARGE = (f"must be within +-{MAX_COORDINATE:g} (sidestep's tolerances are meant for "
              "coordinates below about 1e8)")


def as_float_array(value: object, name: str) -> FloatArray:
    """``value`` as a float64 array; text, complex numbers and non-numbers are a TypeError."""
    if isinstance(value, (str, bytes)) or value is None:
        raise TypeError(f"{name} must be numbers, got {type(value).__name__}")
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError) as exc:          # ragged nesting, say
        raise TypeError(f"{name} must be numbers: {exc}") from None
    # Converted straight to float64, text ('1') would be read as a number
    # and complex numbers would lose their imaginary part without a word.
    if arr.dtype.kind in "USV":
        raise TypeError(f"{name} must be numbers, got text")
    if arr.dtype.kind == "c":
        raise TypeError(f"{name} must be real numbers, got complex ones")
    try:
        return arr.astype(np.float64, copy=False)
    except OverflowError:                           # a Python int beyond float range
        raise ValueError(f"{name} must be finite numbers; a value is too large for a float") \
            from None
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be numbers: {exc}") from None


def _check_finite(arr: FloatArray, name: str) -> None:
    """Every value finite and within ``MAX_COORDINATE`` (NaN fails the comparison too)."""
    # Two reductions, no temporaries (a big batch's |arr| was a fresh array as large
    # as the batch, first touched here: 24 MB for a million 3D rays); NaN makes
    # min and max NaN, which fails. Only a failing array is searched for its place.
    if arr.size == 0 or (arr.min() >= -MAX_COORDINATE and arr.max() <= MAX_COORDINATE):
        return
    ok = np.abs(arr) <= MAX_COORDINATE
    if not np.all(ok):
        bad = np.argwhere(~ok)[0]
        where = f" at index {tuple(int(i) for i in bad)}" if arr.ndim else ""
        value = arr[tuple(bad)]
        if not np.isfinite(value):
            raise ValueError(f"{name} must be finite; found {value}{where}")
        raise ValueError(f"{name} {_TOO_LARGE}; found {value:g}{where}")


def points(value: object, name: str, *, allow_single: bool = True,
           dim: int = 2) -> tuple[FloatArray, bool]:
    """``value`` as an ``(n, dim)`` float64 array; returns ``(array, was_single)``.

    A single point ``(dim,)`` is accepted when ``allow_single`` and reported so
    the caller can answer with scalars. ``dim`` is 2 for :class:`World2D`, 3
    for :class:`World3D`.
    """
    arr = as_float_array(value, name)
    single = False
    if arr.ndim == 1 and arr.shape[0] == dim and allow_single:
        arr = arr.reshape(1, dim)
        single = True
    if arr.ndim != 2 or arr.shape[1] != dim:
        raise ValueError(f"{name} must have shape (n, {dim})"
                         f"{f' or ({dim},)' if allow_single else ''}, got shape {arr.shape}")
    _check_finite(arr, name)
    return np.ascontiguousarray(arr), single


def point(value: object, name: str, dim: int = 2) -> FloatArray:
    """``value`` as a finite ``(dim,)`` float64 array."""
    arr = as_float_array(value, name)
    if arr.shape != (dim,):
        raise ValueError(f"{name} must be a {dim}D point of shape ({dim},), got shape "
                         f"{arr.shape}")
    _check_finite(arr, name)
    return arr


def xy(value: Any, name: str) -> tuple[float, float]:
    """``value``, one 2D point, as two floats ``(x, y)``.

    Tuples and lists of two plain numbers, the common case in a game loop, take
    a fast path; anything else goes through :func:`point`.
    """
    kind = type(value)
    if kind is np.ndarray:
        # A previous move's position: (2,) float64.
        if value.dtype is _FLOAT64 and value.shape == (2,):
            x, y = value.tolist()
            if -MAX_COORDINATE <= x <= MAX_COORDINATE and -MAX_COORDINATE <= y <= MAX_COORDINATE:
                return x, y
    elif (kind is tuple or kind is list) and len(value) == 2:
        x, y = value
        if type(x) is float and type(y) is float and -MAX_COORDINATE <= x <= MAX_COORDINATE \
                and -MAX_COORDINATE <= y <= MAX_COORDINATE:
            return x, y
    p = point(value, name)
    return float(p[0]), float(p[1])


def _float(value: Any, name: str) -> float:
    """A real number as a float; a Python int beyond float range is a ValueError."""
    try:
        return float(value)
    except OverflowError:
        raise ValueError(f"{name} {_TOO_LARGE}; got an integer of "
                         f"{len(str(abs(value)))} digits") from None


def number(value: object, name: str) -> float:
    """``value``, one real number, as a float within ``MAX_COORDINATE``.

    Bools count as 0 and 1, as they do in the arrays :func:`points` reads.
    """
    if type(value) is not float:
        if not isinstance(value, (numbers.Real, np.floating, np.integer, np.bool_)):
            raise TypeError(f"{name} must be real numbers, got {type(value).__name__}")
        value = _float(value, name)   # a float16 inf compares as within range in float16
    if not -MAX_COORDINATE <= value <= MAX_COORDINATE:   # NaN fails it too
        if not math.isfinite(value):
            raise ValueError(f"{name} must be finite, got {value}")
        raise ValueError(f"{name} {_TOO_LARGE}; got {value:g}")
    return value


def lengths(value: object, name: str, n: int, *, allow_zero: bool = True) -> FloatArray:
    """``value`` (scalar or ``(n,)``) as an ``(n,)`` float64 array of finite lengths >= 0."""
    arr = as_float_array(value, name)
    if arr.ndim == 0:
        arr = np.full(n, float(arr))
    elif arr.shape != (n,):
        raise ValueError(f"{name} must be a number or have shape ({n},), got shape {arr.shape}")
    _check_finite(arr, name)
    bad = arr < 0.0 if allow_zero else arr <= 0.0
    if np.any(bad):
        i = int(np.argmax(bad))
        need = "non-negative" if allow_zero else "positive"
        raise ValueError(f"{name} must be {need}; found {arr[i]} at index {i}")
    return np.ascontiguousarray(arr)


def flags(value: object, name: str, n: int) -> FloatArray:
    """``value`` (one bool or ``(n,)`` bools) as an ``(n,)`` float64 array of 0.0/1.0."""
    arr = np.asarray(value)
    if arr.dtype != bool:
        raise TypeError(f"{name} must be a bool or an array of bools, got "
                        f"{type(value).__name__} of dtype {arr.dtype}")
    if arr.ndim == 0:
        arr = np.full(n, bool(arr))
    elif arr.shape != (n,):
        raise ValueError(f"{name} must be a bool or have shape ({n},), got shape {arr.shape}")
    return arr.astype(np.float64)


def length(value: object, name: str, *, allow_zero: bool = True,
           allow_inf: bool = False) -> float:
    """``value`` as one float length (>= 0, or > 0 when not ``allow_zero``)."""
    if type(value) is float:          # the common case, without the ABC checks below
        v = value
    else:
        if isinstance(value, bool) or \
                not isinstance(value, (numbers.Real, np.floating, np.integer)):
            if not (isinstance(value, np.ndarray) and value.shape == ()
                    and value.dtype.kind in "iuf"):
                raise TypeError(f"{name} must be a number, got {type(value).__name__}")
        v = _float(value, name)
    if math.isnan(v) or (math.isinf(v) and not allow_inf):
        raise ValueError(f"{name} must be finite, got {v}")
    if MAX_COORDINATE < abs(v) < math.inf:
        raise ValueError(f"{name} {_TOO_LARGE}; got {v:g}")
    if v < 0.0 or (v == 0.0 and not allow_zero):
        raise ValueError(f"{name} must be {'non-negative' if allow_zero else 'positive'}, got {v}")
    return v


def choice(value: object, name: str, options: tuple[str, ...]) -> str:
    """``value`` as one of ``options`` (strings)."""
    if not isinstance(value, str) or value not in options:
        raise ValueError(f"{name} must be one of {', '.join(repr(o) for o in options)}; "
                         f"got {value!r}")
    return value


def ids(value: object, name: str) -> IntArray:
    """``value`` (an int or ints) as a 1-D int64 array."""
    arr = np.asarray(value)
    if arr.dtype == bool or not (np.issubdtype(arr.dtype, np.integer) or arr.size == 0):
        raise TypeError(f"{name} must be integer obstacle ids, got dtype {arr.dtype}")
    return arr.astype(np.int64).reshape(-1)


def mesh(vertices: object, triangles: object, *,
         names: tuple[str, str] = ("vertices", "triangles")) -> tuple[FloatArray, IntArray]:
    """A triangle mesh's arrays, checked: ``(n, 3)`` float64 corners, ``(m, 3)`` int64 indices.

    Parameters
    ----------
    vertices : (n, 3) array_like of float
        Corner positions; finite and within ``MAX_COORDINATE``.
    triangles : (m, 3) array_like of int
        Corner indices into ``vertices``, from 0 to ``n - 1``. Whole numbers
        stored as floats (``2.0``) are taken; fractions, text and bools are not.
        ``m`` may be 0.
    names : (str, str)
        How the two arguments are called in error messages.

    Returns
    -------
    vertices : (n, 3) float64, C-contiguous
    triangles : (m, 3) int64, C-contiguous

    Raises
    ------
    TypeError
        Not numbers (text, bools as indices, complex...).
    ValueError
        Wrong shapes, NaN or infinite corners, fractional, negative or
        out-of-range indices; the message names the argument and the row.

    Examples
    --------
    >>> v, t = mesh([(0, 0, 0), (1, 0, 0), (0, 1, 0)], [(0, 1, 2)])
    >>> v.shape, t.dtype
    ((3, 3), dtype('int64'))
    >>> mesh([(0, 0, 0), (1, 0, 0), (0, 1, 0)], [(0, 1, 3)])
    Traceback (most recent call last):
    ...
    ValueError: triangles[0] indexes corner 3, but vertices holds 3 (indices 0 to 2)
    """
    vname, tname = names
    v = as_float_array(vertices, vname)
    if v.ndim != 2 or v.shape[1] != 3:
        raise ValueError(f"{vname} must have shape (n, 3), got shape {v.shape}")
    _check_finite(v, vname)
    if isinstance(triangles, (str, bytes)) or triangles is None:
        raise TypeError(f"{tname} must be integer corner indices, got "
                        f"{type(triangles).__name__}")
    try:
        t = np.asarray(triangles)
    except (TypeError, ValueError) as exc:          # ragged nesting
        raise TypeError(f"{tname} must be integer corner indices: {exc}") from None
    if t.shape == (0,):                             # [] : no triangles (np.asarray gives float64)
        t = t.astype(np.int64).reshape(0, 3)
    if t.dtype.kind == "f":
        whole = np.isfinite(t) & (t == np.round(t))
        if not np.all(whole):
            at = tuple(int(i) for i in np.argwhere(~whole)[0])
            raise ValueError(f"{tname} must be whole corner indices; found {t[at]} at index "
                             f"{at}")
        if np.any(np.abs(t) > 2.0 ** 62):
            raise ValueError(f"{tname} holds an index too large for int64")
    elif t.dtype.kind not in "iu":
        raise TypeError(f"{tname} must be integer corner indices, got dtype {t.dtype}")
    if t.ndim != 2 or t.shape[1] != 3:
        raise ValueError(f"{tname} must have shape (m, 3), got shape {t.shape}")
    if t.dtype.kind == "u" and t.size and t.max() > np.iinfo(np.int64).max:
        raise ValueError(f"{tname} holds an index too large for int64")
    t = t.astype(np.int64)
    bad = (t < 0) | (t >= len(v))
    if np.any(bad):
        i, k = (int(x) for x in np.argwhere(bad)[0])
        held = f"holds {len(v)} (indices 0 to {len(v) - 1})" if len(v) else "is empty"
        raise ValueError(f"{tname}[{i}] indexes corner {int(t[i, k])}, but {vname} {held}")
    return np.ascontiguousarray(v), np.ascontiguousarray(t)
