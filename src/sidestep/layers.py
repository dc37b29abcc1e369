"""Collision layers and masks, 2D and 3D alike.

Every obstacle sits on one layer, ``0..31`` (``layer=`` of every ``add_*``;
0 by default). Every query takes a ``mask``: a 32-bit set of layers (bit
``k`` for layer ``k``; :data:`ALL` by default). A query with a mask sees an
obstacle only if its layer's bit is set, and passes through the others
exactly as if they had been removed: the kernels read the mask as a view of
the obstacles' ``alive`` flags (:func:`masked_alive`), so one mechanism
serves removal and layers and no kernel tests layers itself.

>>> from sidestep import layers
>>> layers.bits(0, 2)
5
>>> layers.mask(layers.ALL) == 0xFFFFFFFF
True
"""
import numbers

import numpy as np
from numpy.typing import NDArray

#: Layers an obstacle can be on: ``0 .. LAYERS - 1``.
LAYERS = 32
#: The mask that sees every layer (the default of every query).
ALL = (1 << LAYERS) - 1


def bits(*layer_numbers: int) -> int:
    """The mask that sees exactly the given layers: ``bits(0, 2) == 0b101``."""
    out = 0
    for k in layer_numbers:
        out |= 1 << layer(k)
    return out


def layer(value: object, name: str = "layer") -> int:
    """``value`` checked as one layer number, ``0 <= value < 32`` (else a clear error)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer layer 0..{LAYERS - 1}, got {value!r}")
    if not 0 <= int(value) < LAYERS:
        raise ValueError(f"{name} must be a layer 0..{LAYERS - 1}, got {int(value)}")
    return int(value)


def layers(value: object, n: int, name: str = "layer") -> NDArray[np.uint8]:
    """One layer for ``n`` obstacles (an int) or one each (``(n,)`` ints), as ``(n,) uint8``."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return np.full(n, layer(value, name), dtype=np.uint8)
    arr = np.asarray(value)
    if arr.dtype.kind not in "iu" or arr.shape != (n,):
        raise ValueError(f"{name} must be one layer 0..{LAYERS - 1} or {n} of them, got "
                         f"{'shape ' + str(arr.shape) if arr.dtype.kind in 'iu' else repr(value)}")
    bad = (arr < 0) | (arr >= LAYERS)
    if np.any(bad):
        i = int(np.argmax(bad))
        raise ValueError(f"{name}[{i}] must be a layer 0..{LAYERS - 1}, got {int(arr[i])}")
    return arr.astype(np.uint8)


def mask(value: object, name: str = "mask") -> int:
    """``value`` checked as a mask: an integer ``0 <= value <= ALL`` (0 sees nothing)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer set of layers (bit k for layer k), "
                        f"got {value!r}")
    if not 0 <= int(value) <= ALL:
        raise ValueError(f"{name} must be within 0..0x{ALL:X} (32 layers), got {int(value)}")
    return int(value)


def masked_alive(alive: NDArray[np.uint8], layer_of: NDArray[np.uint8],
                 seen: int) -> NDArray[np.uint8]:
    """The ``alive`` flags a query with mask ``seen`` reads: 0 for an obstacle off its layers.

    Parameters
    ----------
    alive : (ids,) uint8
        1 while an obstacle is in the world.
    layer_of : (ids,) uint8
        Each obstacle's layer.
    seen : int
        The query's mask.
    """
    on = ((np.uint64(seen) >> layer_of.astype(np.uint64)) & np.uint64(1)).astype(np.uint8)
    out: NDArray[np.uint8] = alive & on
    return out


class Seen:
    """The flags each mask's queries read, per world, kept until its obstacles change.

    A world's store calls :meth:`flags` with its ``alive`` and ``layer``
    arrays and its ``version`` (which every add, removal or layer change
    bumps); the answer for a mask is computed once per version.
    """

    def __init__(self) -> None:
        self._version = -1
        self._by_mask: dict[int, NDArray[np.uint8]] = {}

    def flags(self, alive: NDArray[np.uint8], layer_of: NDArray[np.uint8], version: int,
              seen: int) -> NDArray[np.uint8]:
        """``(ids + 1,) uint8``: per obstacle 1 if a query with mask ``seen`` sees it (in the
        world, on one of its layers), then 1 if it misses any obstacle ever added."""
        if version != self._version:
            self._by_mask.clear()
            self._version = version
        out = self._by_mask.get(seen)
        if out is None:
            flags = masked_alive(alive, layer_of, seen)
            out = np.append(flags, np.uint8(not np.all(flags)))
            self._by_mask[seen] = out
        return out
