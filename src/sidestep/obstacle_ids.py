"""The id bookkeeping :class:`~sidestep.World2D` and :class:`~sidestep.World3D` share.

A world hands out an integer id per obstacle, in order from 0, and never
reuses one: ``remove`` clears the obstacle's ``alive`` flag in the store. The
store (:class:`~sidestep.storage.Store`, :class:`~sidestep.storage3d.Store3D`)
keeps ``alive`` and ``family`` as growable arrays indexed by id; a world class
names its families in ``_FAMILIES`` (the store's order) and may rename some of
them for its ``repr`` in ``_LABELS``.
"""
from typing import TYPE_CHECKING, ClassVar

from numpy.typing import NDArray

import numpy as np

from . import validation
from ._types import Ids, IntArray

if TYPE_CHECKING:
    from .storage import Store
    from .storage3d import Store3D


def count_noun(n: int, noun: str) -> str:
    """``n`` and ``noun``, plural unless ``n`` is 1: ``"1 box"``, ``"132 boxes"``, ``"2 meshes"``."""
    if n == 1:
        return f"1 {noun}"
    return f"{n} {noun}{'es' if noun.endswith(('s', 'x', 'sh', 'ch')) else 's'}"


class ObstacleIds:
    """Ids, membership, families and removal of a world's obstacles (a mixin)."""

    _FAMILIES: ClassVar[tuple[str, ...]] = ()
    _LABELS: ClassVar[dict[str, str]] = {}
    _store: "Store | Store3D"

    def _known(self, ids: Ids) -> IntArray:
        """``ids`` as an ``(n,) int64`` array, each one held by this world (else ``KeyError``)."""
        arr = validation.ids(ids, "ids")
        known = self._store.alive.size
        for i in arr:
            if i < 0 or i >= known or self._store.alive.data[i] == 0:
                raise KeyError(f"no obstacle with id {int(i)} in this world")
        return arr

    def _layered(self, ids: IntArray, layer: "NDArray[np.uint8]") -> IntArray:
        """Put the obstacles just added, ``ids``, on their (checked) layers; returns ``ids``."""
        self._store.set_layers(ids, layer)
        return ids

    def layers(self, ids: Ids) -> IntArray:
        """The layer (0..31) of each obstacle: ``(n,) int64`` (``KeyError`` for an unknown id)."""
        return self._store.layer.view()[self._known(ids)].astype(np.int64)

    def set_layer(self, ids: Ids, layer: int) -> None:
        """Move obstacles ``ids`` to ``layer`` (0..31); every later query sees them there."""
        from .layers import layers as _checked
        arr = self._known(ids)
        self._store.set_layers(arr, _checked(layer, len(arr)))

    def remove(self, ids: Ids) -> None:
        """Remove obstacles by id (ids already removed or unknown raise ``KeyError``).

        Either every id is removed or, on an error, none is.
        """
        self._store.remove(self._known(ids))

    def __len__(self) -> int:
        return int(self._store.alive.view().sum())

    def __contains__(self, obstacle_id: object) -> "bool | np.bool_":
        a = self._store.alive
        return isinstance(obstacle_id, (int, np.integer)) and 0 <= obstacle_id < a.size \
            and bool(a.data[obstacle_id])

    @property
    def ids(self) -> IntArray:
        """``(n,) int64``: ids of the obstacles in the world."""
        return np.flatnonzero(self._store.alive.view()).astype(np.int64)

    def family(self, obstacle_id: int) -> str:
        """Family of an obstacle, one of the world's family names (``KeyError`` if unknown).

        ``"circle"``, ``"wall"``, ``"box"``, ``"polygon"``, ``"grid"`` in a
        :class:`~sidestep.World2D`; ``"panel"``, ``"mesh"``, ``"box"``,
        ``"sphere"``, ``"cylinder"``, ``"voxels"``, ``"heightfield"`` in a
        :class:`~sidestep.World3D`.
        """
        if obstacle_id not in self:
            raise KeyError(f"no obstacle with id {obstacle_id} in this world")
        name: str = self._FAMILIES[self._store.family.data[obstacle_id]]
        return name

    def __repr__(self) -> str:
        families = self._store.family.view()[self._store.alive.view() != 0]
        counts = ", ".join(
            count_noun(int(n), self._LABELS.get(self._FAMILIES[f], self._FAMILIES[f]))
            for f, n in zip(*np.unique(families, return_counts=True)))
        return (f"{type(self).__name__}({count_noun(len(families), 'obstacle')}"
                f"{': ' + counts if counts else ''})")
