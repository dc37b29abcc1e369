"""Paths through a corridor of convex polygons, and the geometry of following them.

- :func:`locate_polygon`: which navmesh polygon holds a point;
- :func:`corridor_portals` and :func:`funnel`: the shortest path from a
  start to a goal inside a chain of polygons, by the "simple stupid funnel"
  (Mononen, 2010): string pulling over the edges crossed, each seen as a
  portal with a left and a right end;
- :func:`clear_corners`: a path's inner corners moved off the obstacle
  corners they turn round, so a disc can follow it;
- :func:`polyline_length`.

Orientation: ``cross(u, v) = ux vy - uy vx`` is positive when ``v`` turns
anticlockwise from ``u`` in the usual x-right, y-up picture (the same rule
holds for y-down data, mirrored). "Left" is the side of positive cross.
"""
import math

from numba import njit


@njit(cache=True)
def _cross(ax, ay, bx, by, cx, cy):
    """``cross(b - a, c - a)``: > 0 when ``c`` lies left of the ray from ``a`` through ``b``."""
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)


@njit(cache=True)
def polygon_orientation(vertices, offsets, corners, out):
    """``out[p]``: +1 for an anticlockwise polygon, -1 clockwise (twice the signed area's sign)."""
    for p in range(len(offsets) - 1):
        first = offsets[p]
        count = offsets[p + 1] - first
        area = 0.0
        for i in range(count):
            a = corners[first + i]
            b = corners[first + (i + 1) % count]
            area += vertices[a, 0] * vertices[b, 1] - vertices[b, 0] * vertices[a, 1]
        out[p] = 1 if area >= 0.0 else -1


@njit(cache=True)
def locate_polygon(px, py, vertices, offsets, corners, orientation, tolerance):
    """The first convex polygon holding ``p`` (its edges included, within ``tolerance``), or -1.

    ``tolerance`` is a distance (world units): a point that far outside an
    edge still counts as on it.
    """
    for p in range(len(offsets) - 1):
        first = offsets[p]
        count = offsets[p + 1] - first
        sign = orientation[p]
        inside = True
        for i in range(count):
            a = corners[first + i]
            b = corners[first + (i + 1) % count]
            ax = vertices[a, 0]
            ay = vertices[a, 1]
            bx = vertices[b, 0]
            by = vertices[b, 1]
            side = sign * _cross(ax, ay, bx, by, px, py)
            if side < -tolerance * math.hypot(bx - ax, by - ay):
                inside = False
                break
        if inside:
            return p
    return -1


@njit(cache=True)
def corridor_portals(vertices, offsets, corners, orientation, chain, edges, sx, sy, gx, gy,
                     out):
    """The portals of a polygon chain, with the start and goal as zero-width ends.

    Parameters
    ----------
    chain : (k,) int64
        Polygons from the start's to the goal's.
    edges : (k,) int64
        ``edges[j]`` (j >= 1): index into ``corners`` of the edge of polygon
        ``chain[j - 1]`` crossed into ``chain[j]``.
    out : (k + 1, 4) float64
        Filled with ``[left x, left y, right x, right y]`` per portal, seen
        walking from start to goal: ``out[0]`` the start, ``out[k]`` the goal.
    """
    k = len(chain)
    out[0, 0] = sx
    out[0, 1] = sy
    out[0, 2] = sx
    out[0, 3] = sy
    for j in range(1, k):
        p = chain[j - 1]
        first = offsets[p]
        count = offsets[p + 1] - first
        i = edges[j] - first
        a = corners[first + i]
        b = corners[first + (i + 1) % count]
        # Leaving an anticlockwise polygon through edge a -> b, b is on the left.
        if orientation[p] > 0:
            a, b = b, a
        out[j, 0] = vertices[a, 0]
        out[j, 1] = vertices[a, 1]
        out[j, 2] = vertices[b, 0]
        out[j, 3] = vertices[b, 1]
    out[k, 0] = gx
    out[k, 1] = gy
    out[k, 2] = gx
    out[k, 3] = gy


@njit(cache=True)
def _beside(ax, ay, bx, by, cx, cy, side):
    """Whether ``c`` lies strictly on ``side`` (+1 left, -1 right) of the ray from ``a`` via ``b``.

    A ``c`` straight behind ``a`` counts as beside it: a start lying on
    the first portal opens a half-plane funnel whose sides point opposite
    ways, and the far side's end is inside that funnel, not across it.
    """
    turn = side * _cross(ax, ay, bx, by, cx, cy)
    if turn != 0.0:
        return turn > 0.0
    return (bx - ax) * (cx - ax) + (by - ay) * (cy - ay) < 0.0


@njit(cache=True)
def _append(out, sides, n, x, y, side):
    """Add ``(x, y)`` on ``side`` after the ``n`` points of ``out`` unless it repeats the last.

    Returns the new count.
    """
    if out[n - 1, 0] == x and out[n - 1, 1] == y:
        return n
    out[n, 0] = x
    out[n, 1] = y
    sides[n] = side
    return n + 1


@njit(cache=True)
def funnel(portals, out, sides):
    """String pulling: the shortest path through ``portals`` from the first to the last.

    Parameters
    ----------
    portals : (m, 4) float64
        ``[left x, left y, right x, right y]``; the first and the last are
        the start and the goal (both ends equal).
    out : (m + 1, 2) float64
        Receives the path's points, start and goal included.
    sides : (m + 1,) int64
        Receives, per point, the side of the path its corner lies on: +1
        left, -1 right (a portal's left or right end), 0 for the start and goal.

    Returns
    -------
    int
        How many points were written.
    """
    m = len(portals)
    apex_x = portals[0, 0]
    apex_y = portals[0, 1]
    left_x = apex_x
    left_y = apex_y
    right_x = apex_x
    right_y = apex_y
    apex_i = 0
    left_i = 0
    right_i = 0
    out[0, 0] = apex_x
    out[0, 1] = apex_y
    sides[0] = 0
    n = 1
    i = 1
    while i < m:
        lx = portals[i, 0]
        ly = portals[i, 1]
        rx = portals[i, 2]
        ry = portals[i, 3]
        # The right side: does the new right end narrow the funnel? One in
        # line with the right side does not: the corner it lies beyond stays
        # on the path, where the path grazes it.
        if (apex_x == right_x and apex_y == right_y) or \
                _cross(apex_x, apex_y, right_x, right_y, rx, ry) > 0.0:
            if (apex_x == right_x and apex_y == right_y) or \
                    _beside(apex_x, apex_y, left_x, left_y, rx, ry, -1.0):
                right_x = rx
                right_y = ry
                right_i = i
            else:
                # It crossed the left side: the left end is a corner of the path.
                n = _append(out, sides, n, left_x, left_y, 1)
                apex_x = left_x
                apex_y = left_y
                apex_i = left_i
                right_x = apex_x
                right_y = apex_y
                right_i = apex_i
                i = apex_i + 1
                continue
        # The left side, in mirror.
        if (apex_x == left_x and apex_y == left_y) or \
                _cross(apex_x, apex_y, left_x, left_y, lx, ly) < 0.0:
            if (apex_x == left_x and apex_y == left_y) or \
                    _beside(apex_x, apex_y, right_x, right_y, lx, ly, 1.0):
                left_x = lx
                left_y = ly
                left_i = i
            else:
                n = _append(out, sides, n, right_x, right_y, -1)
                apex_x = right_x
                apex_y = right_y
                apex_i = right_i
                left_x = apex_x
                left_y = apex_y
                left_i = apex_i
                i = apex_i + 1
                continue
        i += 1
    last_x = portals[m - 1, 0]
    last_y = portals[m - 1, 1]
    if out[n - 1, 0] != last_x or out[n - 1, 1] != last_y or n == 1:
        out[n, 0] = last_x
        out[n, 1] = last_y
        n += 1
    sides[n - 1] = 0
    return n


@njit(cache=True)
def clear_corners(points, sides, distance, out):
    """A path's inner points moved ``distance`` off the corners they turn round.

    A string-pulled path touches obstacles only at its inner points, each
    an obstacle corner on a known side of the path (``sides``, from
    :func:`funnel`). Where the path bends, the corner is on the inner side
    of the bend (a string round a peg) and the point moves along the
    bend's bisector away from it; where it runs straight on, grazing the
    corner, the point moves square to the path, away from the corner's
    side. A disc of radius below ``distance`` centred on the moved point
    clears that corner. The first and last points stay.

    Parameters
    ----------
    points : (k, 2) float64
    sides : (k,) int64
        +1 the point's corner lies left of the path, -1 right, 0 none.
    distance : float >= 0
    out : (k, 2) float64
    """
    k = len(points)
    for i in range(k):
        out[i, 0] = points[i, 0]
        out[i, 1] = points[i, 1]
    for i in range(1, k - 1):
        cx = points[i, 0]
        cy = points[i, 1]
        ux = points[i - 1, 0] - cx
        uy = points[i - 1, 1] - cy
        vx = points[i + 1, 0] - cx
        vy = points[i + 1, 1] - cy
        lu = math.hypot(ux, uy)
        lv = math.hypot(vx, vy)
        if lu == 0.0 or lv == 0.0:
            continue                               # a repeated point
        bx = ux / lu + vx / lv
        by = uy / lu + vy / lv
        lb = math.hypot(bx, by)
        if lb > 1e-9:
            out[i, 0] = cx - distance * bx / lb
            out[i, 1] = cy - distance * by / lb
        elif sides[i] != 0:
            # Straight on: the left normal of the way out is (-vy, vx).
            out[i, 0] = cx + sides[i] * distance * vy / lv
            out[i, 1] = cy - sides[i] * distance * vx / lv


@njit(cache=True)
def polyline_length(points, count):
    """Length of the polyline through the first ``count`` of ``points (k, 2)``."""
    total = 0.0
    for i in range(1, count):
        total += math.hypot(points[i, 0] - points[i - 1, 0], points[i, 1] - points[i - 1, 1])
    return total
