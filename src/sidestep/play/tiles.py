"""The static level, drawn once per zoom into tiles of :data:`TILE` pixels and blitted each frame.

The level's still part never moves (its bodies are left out: :mod:`sidestep.play.draw`
draws them every frame), so a frame only blits the few tiles the view covers; a tile is
drawn the first time it is seen at a zoom (with or without the
debug drawing) and kept. Drawing a tile draws only the obstacles whose
bounding boxes meet it. Walls are their surface band (the points within
their clearance) and their segment; circles, boxes and polygons filled; a
grid's blocked cells by looking up each pixel's cell; the outside of a
level's edge (one-sided walls) shaded where ``World2D.clearance`` is negative.
The debug drawing adds, underneath, every obstacle grown by the character's
radius (the band its centre cannot enter: ``World2D.segments`` with the
radius added to each capsule's thickness) and, on top, the collision
capsules' segments and outlines, as the wall article drew its collision
distances.
"""
import math

import numpy as np
import pygame

from . import palette

#: Tile side in pixels.
TILE = 256
#: Tiles kept at most; beyond it the cache starts again (a long walk over a
#: huge level at a close zoom).
MAX_TILES = 512
#: Thinnest line drawn, in pixels.
LINE = 1
#: The outside of a level's edge is shaded in blocks of this many pixels a side
#: (one ``World2D.clearance`` query per block: a tile's worth of pixels would
#: take tens of milliseconds on a big level; the edge's lines hide the steps).
OUTSIDE_BLOCK = 4


class LevelTiles:
    """The level's obstacles, drawn tile by tile.

    Parameters
    ----------
    world : sidestep.World2D
        Its obstacles are read once (the game does not change them).
    radius : float > 0
        The character's radius: the debug drawing's halo.
    leave_out : (k,) int, optional
        Obstacles not to draw: those that move (drawn every frame where they are).
    """

    def __init__(self, world, radius, leave_out=()):
        self.radius = float(radius)
        out = np.asarray(leave_out, dtype=np.int64)

        def kept(family):
            g = world.geometry(family)
            return g, ~np.isin(g["ids"], out)

        c, k = kept("circle")
        self._circles = (c["centers"][k], c["radii"][k])
        w, walls = kept("wall")
        self._walls = (np.hstack([w["starts"], w["ends"]])[walls], w["clearance"][walls])
        b, k = kept("box")
        self._boxes = (b["mins"][k], b["maxs"][k])
        p, k = kept("polygon")
        self._polygons = [v for v, keep in zip(p["vertices"], k) if keep]
        g, k = kept("grid")
        self._grids = [row for row, keep in zip(zip(g["blocked"], g["cell_size"], g["origin"]),
                                                k) if keep]
        capsules, owner = world.segments()
        self._capsules = capsules[~np.isin(owner, out)]   # (m, 5): ax, ay, bx, by, thickness
        # A level with an edge (one-sided walls: a navigation mesh, a Doom map) has an
        # outside, where clearance is negative; shade it. A tile map's edge is its
        # grid's border, and its blocked cells are drawn exactly: no shade there.
        self._world = world if w["one_sided"][walls].any() and not self._grids else None
        self._view = None                    # (scale, flip, debug) the tiles were drawn for
        self._tiles = {}
        self._boxes_px = None

    def blit(self, surface, camera, debug):
        """Blit the tiles covering ``camera``'s view onto ``surface``."""
        view = (camera.scale, camera.flip, bool(debug))
        if view != self._view or len(self._tiles) > MAX_TILES:
            self._view = view
            self._tiles = {}
            self._boxes_px = self._canvas_boxes(camera)
        ox, oy = camera.origin
        width, height = camera.size
        for j in range(math.floor(oy / TILE), math.floor((oy + height - 1) / TILE) + 1):
            for i in range(math.floor(ox / TILE), math.floor((ox + width - 1) / TILE) + 1):
                tile = self._tiles.get((i, j))
                if tile is None:
                    tile = self._tiles[(i, j)] = self._draw_tile(i, j, camera, debug)
                surface.blit(tile, (i * TILE - ox, j * TILE - oy))

    # ------------------------------------------------------------ drawing
    def _canvas_boxes(self, camera):
        """Each drawable's bounding box in canvas pixels, ``(k, 4)`` [x0, y0, x1, y1], per kind."""
        def boxes(lo, hi, grow):
            if not len(lo):
                return np.zeros((0, 4))
            a, b = camera.to_canvas(lo), camera.to_canvas(hi)
            g = np.reshape(grow, (-1, 1)) * camera.scale
            return np.hstack([np.minimum(a, b) - g, np.maximum(a, b) + g])

        centers, radii = self._circles
        seg, clearance = self._walls
        cap = self._capsules
        mins, maxs = self._boxes
        polys = self._polygons
        return {
            "circles": boxes(centers, centers, radii),
            "walls": boxes(seg[:, 0:2], seg[:, 2:4], clearance),
            "capsules": boxes(cap[:, 0:2], cap[:, 2:4], cap[:, 4] + self.radius),
            "boxes": boxes(mins, maxs, 0.0),
            "polygons": boxes(np.array([v.min(axis=0) for v in polys]).reshape(-1, 2),
                              np.array([v.max(axis=0) for v in polys]).reshape(-1, 2), 0.0),
        }

    def _meets(self, kind, x0, y0):
        """Indices of the drawables of ``kind`` whose box meets the tile at canvas ``(x0, y0)``."""
        b = self._boxes_px[kind]
        pad = 2 * LINE
        return np.flatnonzero((b[:, 0] <= x0 + TILE + pad) & (b[:, 2] >= x0 - pad)
                              & (b[:, 1] <= y0 + TILE + pad) & (b[:, 3] >= y0 - pad))

    def _draw_tile(self, i, j, camera, debug):
        x0, y0 = i * TILE, j * TILE
        tile = pygame.Surface((TILE, TILE))
        tile.fill(palette.BACKGROUND)
        offset = np.array([x0, y0], float)

        def px(points):
            # Whole canvas pixels first: an obstacle across two tiles meets itself at the seam
            # (pygame truncates floats, which would round the two sides' negatives apart).
            return np.rint(camera.to_canvas(points)) - offset

        s = camera.scale
        if self._world is not None:
            _outside(tile, self._world, camera, x0, y0)
        if debug:
            cap = self._capsules[self._meets("capsules", x0, y0)]
            fill_capsules(tile, px(cap[:, 0:2]), px(cap[:, 2:4]),
                          (cap[:, 4] + self.radius) * s, palette.HALO)
        for table, size, origin in self._grids:
            _grid(tile, table, size, origin, camera, x0, y0)
        seg, clearance = self._walls
        k = self._meets("walls", x0, y0)
        a, b = px(seg[k, 0:2]), px(seg[k, 2:4])
        fill_capsules(tile, a, b, clearance[k] * s, palette.WALL_BAND)
        width = max(LINE, int(round(0.06 * s))) if len(seg) < 300 else LINE
        for p, q in zip(a, b):
            pygame.draw.line(tile, palette.WALL, p, q, width)
        mins, maxs = self._boxes
        k = self._meets("boxes", x0, y0)
        for lo, hi in zip(px(mins[k]), px(maxs[k])):
            corner = np.minimum(lo, hi)
            size = np.maximum(lo, hi) - corner
            pygame.draw.rect(tile, palette.SOLID, (*corner, *np.maximum(size, 1)))
        for k in self._meets("polygons", x0, y0):
            pygame.draw.polygon(tile, palette.SOLID, px(self._polygons[k]))
        centers, radii = self._circles
        k = self._meets("circles", x0, y0)
        for c, r in zip(px(centers[k]), radii[k] * s):
            pygame.draw.circle(tile, palette.TREE, c, max(r, LINE))
        if debug:
            cap = self._capsules[self._meets("capsules", x0, y0)]
            a, b = px(cap[:, 0:2]), px(cap[:, 2:4])
            for p, q, r in zip(a, b, cap[:, 4] * s):
                if r >= 2 and np.allclose(p, q):
                    pygame.draw.circle(tile, palette.GEOMETRY, p, r, LINE)
                pygame.draw.line(tile, palette.GEOMETRY, p, q, LINE)
        return tile


def fill_capsules(surface, a, b, radius, color):
    """Fill capsules ``a``-``b`` of ``radius`` (pixels): a quad and two discs each."""
    d = b - a
    length = np.sqrt((d * d).sum(axis=1))
    with np.errstate(invalid="ignore", divide="ignore"):
        n = np.column_stack([-d[:, 1], d[:, 0]]) * (radius / length)[:, None]
    for p, q, r, m, long in zip(a, b, radius, n, length > 0):
        if r < 1.0:
            pygame.draw.line(surface, color, p, q, LINE)
            continue
        if long:
            pygame.draw.polygon(surface, color, (p + m, q + m, q - m, p - m))
            pygame.draw.circle(surface, color, q, r)
        pygame.draw.circle(surface, color, p, r)


def _grid(surface, table, size, origin, camera, x0, y0):
    """Paint a grid's blocked cells: each pixel takes its centre's cell."""
    rows, cols = table.shape
    # Pixel centres of the tile, back in world units, then in cells.
    x = (x0 + np.arange(TILE) + 0.5) / camera.scale
    y = (y0 + np.arange(TILE) + 0.5) / (camera.flip * camera.scale)
    c = np.floor((x - origin[0]) / size).astype(np.int64)
    r = np.floor((y - origin[1]) / size).astype(np.int64)
    cin, rin = (c >= 0) & (c < cols), (r >= 0) & (r < rows)
    if not cin.any() or not rin.any():
        return
    blocked = np.zeros((TILE, TILE), dtype=bool)       # indexed [x, y], as surfarray
    blocked[np.ix_(cin, rin)] = table[np.ix_(r[rin], c[cin])].T
    if blocked.any():
        pixels = pygame.surfarray.pixels3d(surface)
        pixels[blocked] = palette.SOLID
        del pixels                                      # unlocks the surface


def _outside(surface, world, camera, x0, y0):
    """Shade the blocks of the tile whose centres lie outside the level (negative clearance)."""
    n = TILE // OUTSIDE_BLOCK
    centres = (np.arange(n) + 0.5) * OUTSIDE_BLOCK
    x = (x0 + centres) / camera.scale
    y = (y0 + centres) / (camera.flip * camera.scale)
    points = np.stack(np.meshgrid(x, y, indexing="ij"), axis=-1).reshape(-1, 2)
    outside = (np.atleast_1d(world.clearance(points)) < 0).reshape(n, n)   # [x, y]
    if outside.any():
        big = np.repeat(np.repeat(outside, OUTSIDE_BLOCK, axis=0), OUTSIDE_BLOCK, axis=1)
        pixels = pygame.surfarray.pixels3d(surface)
        pixels[big] = palette.OUTSIDE
        del pixels
