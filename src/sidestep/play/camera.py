"""The camera: world units to screen pixels, following the character.

Screen and level share one *canvas*: the world scaled by ``scale`` pixels per
unit, y flipped unless the level's y axis points down. The view is the
window-sized rectangle of the canvas whose top-left corner is ``origin``
(whole pixels, so that the level's pre-drawn tiles and the moving things
drawn over them line up exactly). The first scale shows the whole level
when the character is still big enough in it (:data:`MIN_RADIUS_PIXELS`),
else zooms in on the character; it follows the character and stays over
the level.

>>> camera = Camera((800, 600), bounds=(0, 0, 40, 30), radius=0.3)
>>> camera.scale >= MIN_RADIUS_PIXELS / 0.3
True
>>> camera.follow((20.0, 15.0))
>>> camera.to_screen([(20.0, 15.0)]).round().tolist()     # the middle of the window
[[400.0, 300.0]]
"""
import math

import numpy as np

#: The character is drawn at least this many pixels in radius at zoom 1...
MIN_RADIUS_PIXELS = 6.0
#: ...and at most this many (a tiny level is not blown up beyond it).
MAX_RADIUS_PIXELS = 24.0
#: Share of the window a whole level fills when it fits.
FIT_SHARE = 0.95
#: The view may show this many pixels beyond the level's bounds, at most.
MARGIN_PIXELS = 40


class Camera:
    """Maps world points to window pixels.

    Parameters
    ----------
    size : (int, int)
        The window's width and height in pixels.
    bounds : (minx, miny, maxx, maxy) or None
        The level's extent (``World2D.bounds``).
    radius : float > 0
        The character's radius, which sets the first scale.
    y_down : bool
        Whether world y grows down the screen.
    """

    def __init__(self, size, bounds, radius, y_down=False):
        self.size = (int(size[0]), int(size[1]))
        self.bounds = None if bounds is None else tuple(float(b) for b in bounds)
        self.flip = 1.0 if y_down else -1.0
        fit = math.inf
        if self.bounds is not None:
            width, height = self.bounds[2] - self.bounds[0], self.bounds[3] - self.bounds[1]
            if width > 0 and height > 0:
                fit = FIT_SHARE * min(self.size[0] / width, self.size[1] / height)
        #: Pixels per world unit at zoom 1.
        self.base_scale = min(max(fit, MIN_RADIUS_PIXELS / radius), MAX_RADIUS_PIXELS / radius)
        #: Pixels per world unit.
        self.scale = self.base_scale
        #: ``(int, int)``: the canvas pixel at the window's top-left corner.
        self.origin = (0, 0)

    def set_zoom(self, zoom):
        """Scale to ``zoom`` times :attr:`base_scale`."""
        self.scale = self.base_scale * float(zoom)

    def to_canvas(self, points):
        """``(n, 2)`` world points to canvas pixels (floats)."""
        p = np.asarray(points, float).reshape(-1, 2)
        return np.column_stack([p[:, 0] * self.scale, p[:, 1] * (self.flip * self.scale)])

    def to_screen(self, points):
        """``(n, 2)`` world points to window pixels (floats, x right, y down)."""
        return self.to_canvas(points) - np.array(self.origin, float)

    def to_world(self, pixels):
        """``(n, 2)`` window pixels back to world points."""
        q = np.asarray(pixels, float).reshape(-1, 2) + np.array(self.origin, float)
        return np.column_stack([q[:, 0] / self.scale, q[:, 1] / (self.flip * self.scale)])

    def follow(self, target):
        """Centre the view on ``target`` (world), kept over the level.

        Along an axis where the level is wider than the window, the view
        stops :data:`MARGIN_PIXELS` beyond the level's edge; where it is
        narrower, the level stays centred. Either way ``target`` stays at
        least :data:`MARGIN_PIXELS` inside the view (a ghost that walked out
        of the level is followed).
        """
        centre = self.to_canvas(target)[0]
        half = np.array(self.size, float) / 2
        corner = centre - half
        if self.bounds is not None:
            a = self.to_canvas([self.bounds[:2], self.bounds[2:]])
            lo, hi = a.min(axis=0), a.max(axis=0)
            for axis in range(2):
                extent = hi[axis] - lo[axis]
                if extent + 2 * MARGIN_PIXELS <= self.size[axis]:
                    corner[axis] = (lo[axis] + hi[axis]) / 2 - half[axis]
                else:
                    corner[axis] = min(max(corner[axis], lo[axis] - MARGIN_PIXELS),
                                       hi[axis] + MARGIN_PIXELS - self.size[axis])
                inside = min(MARGIN_PIXELS, half[axis])
                corner[axis] = min(max(corner[axis], centre[axis] + inside - self.size[axis]),
                                   centre[axis] - inside)
        self.origin = (int(math.floor(corner[0] + 0.5)), int(math.floor(corner[1] + 0.5)))
