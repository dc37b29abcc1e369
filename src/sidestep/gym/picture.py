"""Frames of the navigation task as RGB arrays, drawn with NumPy alone.

The level is drawn once, from ``World2D.clearance`` sampled at every pixel:
inside obstacles (and within half a pixel of a surface, so thin walls show)
dark, where the agent's centre cannot go light grey, free space white. Each
frame then adds the range finder's rays, the goal and the agent.

>>> import numpy as np, sidestep
>>> from sidestep.gym.picture import Picture
>>> world = sidestep.World2D()
>>> box = world.add_boxes([(-1.0, -1.0)], [(1.0, 1.0)])
>>> picture = Picture(world, np.array([-4.0, -2.0, 4.0, 2.0]), radius=0.5, width=80)
>>> frame = picture.draw(np.array([[-3.0, 0.0]]), np.array([[3.0, 0.0]]),
...                      np.array([[[-1.0, 0.0]]]))
>>> frame.shape, frame.dtype.name, frame[20, 40].tolist()     # the box's middle
((40, 80, 3), 'uint8', [60, 60, 60])
"""
import numpy as np

SOLID = (60, 60, 60)
NEAR = (205, 205, 205)
FREE = (255, 255, 255)
AGENT = (30, 90, 220)
GOAL = (20, 170, 60)
RAY = (230, 120, 40)


class Picture:
    """A level's background image and the drawing of agents, goals and rays on it.

    Parameters
    ----------
    world : World2D
    area : (4,) float64
        ``(minx, miny, maxx, maxy)`` shown; +y is up in the image.
    radius : float
        The agent's radius.
    goal_radius : float, optional
        Radius of the goal's disc (the arrival zone); ``radius`` by default.
    width : int
        Image width in pixels; the height keeps the area's aspect.
    """

    def __init__(self, world, area, radius, goal_radius=None, width=400):
        minx, miny, maxx, maxy = (float(v) for v in area)
        self.pixel = (maxx - minx) / width
        height = max(1, int(round((maxy - miny) / self.pixel)))
        self.origin = np.array([minx, maxy])
        self.shape = (height, width)
        xs = minx + (np.arange(width) + 0.5) * self.pixel
        ys = maxy - (np.arange(height) + 0.5) * self.pixel
        gx, gy = np.meshgrid(xs, ys)
        self._centers = np.stack([gx, gy], axis=-1)
        clearance = world.clearance(self._centers.reshape(-1, 2)).reshape(height, width)
        image = np.empty((height, width, 3), dtype=np.uint8)
        image[...] = FREE
        image[clearance < radius] = NEAR
        image[clearance < 0.5 * self.pixel] = SOLID
        self._background = image
        self.radius = radius
        self.goal_radius = radius if goal_radius is None else goal_radius

    def pixels(self, points):
        """Rows and columns ``(k,) int64`` of the ``(m, 2)`` world points that lie in the image."""
        col = np.floor((points[:, 0] - self.origin[0]) / self.pixel).astype(np.int64)
        row = np.floor((self.origin[1] - points[:, 1]) / self.pixel).astype(np.int64)
        inside = (row >= 0) & (row < self.shape[0]) & (col >= 0) & (col < self.shape[1])
        return row[inside], col[inside]

    def _disc(self, image, center, radius, colour):
        gap = self._centers - center
        image[np.hypot(gap[..., 0], gap[..., 1]) <= max(radius, self.pixel)] = colour

    def draw(self, positions, goals, ray_ends):
        """One frame: ``(height, width, 3) uint8``.

        Parameters
        ----------
        positions, goals : (n, 2) float64
        ray_ends : (n, rays, 2) float64
            Where each ray stopped (its hit, or its end at the maximum range).
        """
        image = self._background.copy()
        for start, ends in zip(positions, ray_ends):
            length = np.hypot(*(ends - start).T).max(initial=0.0)
            steps = np.linspace(0.0, 1.0, max(2, int(2 * length / self.pixel)))
            along = start + steps[None, :, None] * (ends - start)[:, None, :]
            image[self.pixels(along.reshape(-1, 2))] = RAY
        for goal in goals:
            self._disc(image, goal, self.goal_radius, GOAL)
        for position in positions:
            self._disc(image, position, self.radius, AGENT)
        return image
