"""The outline of a union of axis-aligned boxes, as one-sided walls without seams.

Boxes side by side (a floor of tiles, a level's rect list, a grid's merged
cells, each grown by a rect in :mod:`sidestep.adapters.rects`) overlap, and
where two of them share a flat face, the corner of one lies on the face of
the other. An agent sliding along that face within the skin meets the corner
as a contact whose normal tilts (up to 60 degrees for a point agent), and
collide-and-slide turns the rest of its move along it: it climbs at every
seam, the "ghost vertex" of Box2D's chain shapes. The union's outline has no
such corners: every vertex of it is a real corner of the solid. This module
computes it and returns it as one-sided walls (solid behind, see
:meth:`~sidestep.World2D.add_walls`) that meet end to start round each solid
region and hole, so the world treats the inside as void.

How: each box edge minus the parts inside another box's interior, then on
every line the outward faces (say tops) minus the inward ones (bottoms) lying
on them, and the other way round (two boxes that touch face to face leave no
wall between them), then the pieces merged into maximal runs.
"""
import numpy as np

#: Coordinates closer than this, relative to the largest coordinate (plus 1),
#: are snapped together (mins down, maxs up: boxes only grow) so that faces meant
#: to be flush, such as tiles placed at ``0.1 * k``, lie on one line.
SNAP = 1e-9


def snap_boxes(mins, maxs, relative=SNAP):
    """Boxes whose nearly equal coordinates are made equal, never shrinking a box.

    Parameters
    ----------
    mins, maxs : (n, 2) float64
    relative : float
        Values within ``relative * (1 + max |coordinate|)`` of each other (in
        a chain of such steps, per axis) become one: the least of them for
        ``mins``, the greatest for ``maxs``.

    Returns
    -------
    mins, maxs : (n, 2) float64

    Examples
    --------
    Two tiles whose tops differ by a rounding step get one top:

    >>> lo, hi = snap_boxes([(0.0, 0.0), (1.0, 0.0)], [(1.0, 0.3), (2.0, 0.30000000000000004)])
    >>> hi[:, 1].tolist()
    [0.30000000000000004, 0.30000000000000004]
    """
    lo = np.array(mins, dtype=np.float64, copy=True).reshape(-1, 2)
    hi = np.array(maxs, dtype=np.float64, copy=True).reshape(-1, 2)
    if not len(lo):
        return lo, hi
    for axis in (0, 1):
        values = np.concatenate([lo[:, axis], hi[:, axis]])
        tol = relative * (1.0 + float(np.abs(values).max()))
        order = np.unique(values)
        group = np.concatenate([[0], np.cumsum(np.diff(order) > tol)])
        least = np.minimum.reduceat(order, np.flatnonzero(np.diff(group, prepend=-1)))
        most = np.maximum.reduceat(order, np.flatnonzero(np.diff(group, prepend=-1)))
        lo[:, axis] = least[group[np.searchsorted(order, lo[:, axis])]]
        hi[:, axis] = most[group[np.searchsorted(order, hi[:, axis])]]
    return lo, hi


def _neighbours(lo, hi):
    """For each box, the indices of the other boxes it touches or overlaps (closed boxes)."""
    order = np.argsort(lo[:, 0], kind="stable")
    x0 = lo[order, 0]
    widest = float((hi[:, 0] - lo[:, 0]).max())
    out = []
    for i in range(len(lo)):
        # A box overlapping i in x starts within [lo_x(i) - widest, hi_x(i)].
        a = np.searchsorted(x0, lo[i, 0] - widest, side="left")
        b = np.searchsorted(x0, hi[i, 0], side="right")
        js = order[a:b]
        keep = (hi[js, 0] >= lo[i, 0]) & (lo[js, 1] <= hi[i, 1]) & (hi[js, 1] >= lo[i, 1]) \
            & (js != i)
        out.append(js[keep])
    return out


def _union(intervals):
    """Sorted, disjoint, maximal intervals covering ``intervals`` (touching ones merged)."""
    out = []
    for a, b in sorted(intervals):
        if out and a <= out[-1][1]:
            if b > out[-1][1]:
                out[-1][1] = b
        else:
            out.append([a, b])
    return out


def _difference(keep, cut):
    """``keep`` minus ``cut`` (both sorted disjoint lists), dropping empty pieces."""
    out = []
    k = 0
    for a, b in keep:
        while k < len(cut) and cut[k][1] <= a:
            k += 1
        j = k
        start = a
        while j < len(cut) and cut[j][0] < b:
            if cut[j][0] > start:
                out.append([start, cut[j][0]])
            start = max(start, cut[j][1])
            j += 1
        if start < b:
            out.append([start, b])
    return out


def union_outline(mins, maxs):
    """The boundary of the union of closed boxes, as one-sided walls.

    Parameters
    ----------
    mins, maxs : (n, 2) float64, ``mins < maxs``

    Returns
    -------
    starts, ends : (k, 2) float64
        Segments, each with the union's outside on its left looking from start
        to end (as :meth:`~sidestep.World2D.add_walls` wants with
        ``one_sided=True``): clockwise round each solid region,
        counter-clockwise round each hole. Maximal: no two meet in a straight
        line. Each ends exactly where the next of its loop starts.
    sources : list of k (m, 3) float64
        For each segment, the faces of the boxes it is made of, ``[from,
        to, box index]`` along the segment's line (x for horizontal ones, y for
        vertical ones), sorted by ``from``: which box a point of it belongs to.

    Examples
    --------
    Two tiles side by side make one 2 x 1 rectangle, four walls:

    >>> s, e, sources = union_outline([(0, 0), (1, 0)], [(1, 1), (2, 1)])
    >>> np.column_stack([s, e]).tolist()
    [[0.0, 0.0, 0.0, 1.0], [2.0, 1.0, 2.0, 0.0], [2.0, 0.0, 0.0, 0.0], [0.0, 1.0, 2.0, 1.0]]
    >>> sources[3].tolist()                # the top: box 0 from x = 0 to 1, box 1 from 1 to 2
    [[0.0, 1.0, 0.0], [1.0, 2.0, 1.0]]
    """
    lo = np.asarray(mins, dtype=np.float64).reshape(-1, 2)
    hi = np.asarray(maxs, dtype=np.float64).reshape(-1, 2)
    if not len(lo):
        return np.zeros((0, 2)), np.zeros((0, 2)), []
    near = _neighbours(lo, hi)
    lines = {}          # (axis, coordinate) -> (outward faces, inward faces) as intervals
    for i in range(len(lo)):
        js = near[i]
        for axis in (0, 1):                 # the face's normal axis: 0 for x = const
            along = 1 - axis
            a0, a1 = lo[i, along], hi[i, along]
            for outward, coord in ((True, hi[i, axis]), (False, lo[i, axis])):
                inside = (lo[js, axis] < coord) & (coord < hi[js, axis]) \
                    & (lo[js, along] < a1) & (hi[js, along] > a0)
                cover = _union(zip(lo[js[inside], along].tolist(), hi[js[inside], along].tolist()))
                pieces = _difference([[a0, a1]], cover)
                if pieces:
                    faces = lines.setdefault((axis, coord), ([], []))
                    faces[0 if outward else 1].extend([a, b, i] for a, b in pieces)
    starts, ends, sources = [], [], []
    for (axis, c), (outward, inward) in sorted(lines.items()):
        up = _union([f[:2] for f in outward])
        down = _union([f[:2] for f in inward])
        for faces, out, mine in ((_difference(up, down), True, outward),
                                 (_difference(down, up), False, inward)):
            for a, b in faces:
                held = sorted(f for f in mine if f[0] < b and f[1] > a)
                sources.append(np.array(held, dtype=np.float64).reshape(-1, 3))
                # Outside on the left: tops run +x, bottoms -x, right faces -y, left faces +y.
                if axis == 1:
                    s, e = ((a, c), (b, c)) if out else ((b, c), (a, c))
                else:
                    s, e = ((c, b), (c, a)) if out else ((c, a), (c, b))
                starts.append(s)
                ends.append(e)
    return np.array(starts, dtype=np.float64), np.array(ends, dtype=np.float64), sources
