"""``sidestep render`` of a 3D level: seen from above, and as a camera at ``eye`` sees it.

Both pictures are made of rays cast with :meth:`World3D.raycast`, all of
them in one batched (parallel) call:

- the top view casts one ray straight down (along ``-up``) per pixel of a
  grid over the level's bounds: a height map (the highest surface under each
  pixel), shaded by the surface normal as a relief;
- the camera view casts one ray per pixel from ``eye`` through a pinhole of
  horizontal field of view ``fov`` looking along ``heading``: a depth image
  (distance along ``heading``), shaded by the surface normal, as the panel
  article's viewer sees its panels.

>>> import os, tempfile
>>> import sidestep
>>> from sidestep.commands.render3d import render3d
>>> world = sidestep.World3D()
>>> wall = world.add_panels([[(4, -2, -2), (4, 2, -2), (4, 2, 2), (4, -2, 2)]])
>>> with tempfile.TemporaryDirectory() as folder:
...     picture = render3d(world, os.path.join(folder, "wall.png"), eye=(0, 0, 0),
...                        heading=(1, 0, 0), width=31, height=21)
>>> float(picture.camera.depth[10, 15])
4.0
"""
import math
from dataclasses import dataclass

import numpy as np

from .pictures import DPI, picture_format

#: The views ``render3d`` draws.
VIEWS = ("both", "top", "camera")
#: Default horizontal field of view of the camera (degrees).
FOV = 70.0
#: Default image sizes (pixels): the camera image, and the top view's longer side.
WIDTH, HEIGHT = 320, 200
#: Light for the relief shading: from above, a little from the first ground axis.
LIGHT_TILT = 0.35
#: Panels whose lowest corner is above the lowest panels' by more than this
#: share of the level's height are drawn white in the top view (overhead).
OVERHEAD = 0.25
#: Colour of camera pixels whose ray hits nothing.
SKY = (0.80, 0.88, 0.96)


@dataclass(frozen=True)
class Axes3D:
    """How a World3D's axes lie in a picture: ``up`` and the two ground axes."""

    #: Index of the up axis (0 x, 1 y, 2 z).
    up: int
    #: ``(2,) int``: indices of the ground axes drawn across and up the top view.
    ground: tuple
    #: Whether the top view's vertical axis runs downwards (so that, seen
    #: from above, the picture is not mirrored: up = y, ground x and z).
    flip: bool

    @classmethod
    def of(cls, world):
        """The axes of ``world`` (a World3D)."""
        up = "xyz".index(world.up)
        ground = tuple(i for i in range(3) if i != up)
        # Seen from above, right x screen-up must point along up (right-handed).
        flip = np.cross(np.eye(3)[ground[0]], np.eye(3)[ground[1]])[up] < 0
        return cls(up, ground, bool(flip))

    def unit_up(self):
        """``(3,) float64``: the up direction."""
        return np.eye(3)[self.up]


@dataclass(frozen=True)
class TopView:
    """The level from above: one ray straight down per pixel."""

    #: ``(rows, cols) float64``: height (along ``up``) of the highest surface
    #: under each pixel centre; NaN where the ray met nothing.
    heights: np.ndarray
    #: ``(rows, cols, 3) float64``: unit normal there (towards the sky; 0 on a miss).
    normals: np.ndarray
    #: ``(4,)``: ground extent ``[a0, a1, b0, b1]`` of the image (first and
    #: second ground axis); row 0 is at ``b0``.
    extent: np.ndarray
    #: How the picture's axes lie.
    axes: Axes3D


@dataclass(frozen=True)
class CameraView:
    """The level as a pinhole camera sees it: one ray per pixel from ``eye``."""

    #: ``(3,) float64``: the camera's position.
    eye: np.ndarray
    #: ``(3,) float64``: unit viewing direction (the centre pixel's ray).
    forward: np.ndarray
    #: Horizontal field of view (degrees).
    fov: float
    #: ``(rows, cols) float64``: depth of each pixel's hit along ``forward``
    #: (world units), inf on a miss; row 0 is the top of the image.
    depth: np.ndarray
    #: ``(rows, cols) float64``: distance along each pixel's own ray, inf on a miss.
    distance: np.ndarray
    #: ``(rows, cols, 3) float64``: unit normal at each hit, towards the camera.
    normals: np.ndarray
    #: ``(rows, cols) int64``: obstacle hit, -1 on a miss.
    obstacle: np.ndarray


@dataclass(frozen=True)
class Picture3D:
    """What :func:`render3d` drew (views not drawn are None)."""

    #: The :class:`TopView`, or None.
    top: object
    #: The :class:`CameraView`, or None.
    camera: object
    #: The matplotlib Figure, already saved.
    figure: object


def top_rays(world, size):
    """Rays straight down over the level's bounds: ``(origins, directions, shape, extent)``.

    Parameters
    ----------
    world : World3D
    size : int > 0
        Pixels along the longer ground side.
    """
    lo, hi = _bounds(world)
    axes = Axes3D.of(world)
    a, b = axes.ground
    span = max(hi[a] - lo[a], hi[b] - lo[b])
    pad = 0.03 * span
    ext = np.array([lo[a] - pad, hi[a] + pad, lo[b] - pad, hi[b] + pad])
    pixel = (span + 2 * pad) / size
    cols = max(1, int(round((ext[1] - ext[0]) / pixel)))
    rows = max(1, int(round((ext[3] - ext[2]) / pixel)))
    ua = ext[0] + (np.arange(cols) + 0.5) * (ext[1] - ext[0]) / cols
    vb = ext[2] + (np.arange(rows) + 0.5) * (ext[3] - ext[2]) / rows
    gb, ga = np.meshgrid(vb, ua, indexing="ij")
    origins = np.empty((rows * cols, 3))
    origins[:, a] = ga.ravel()
    origins[:, b] = gb.ravel()
    origins[:, axes.up] = hi[axes.up] + pad
    directions = np.zeros_like(origins)
    directions[:, axes.up] = -1.0
    return origins, directions, (rows, cols), ext


def camera_frame(forward, up):
    """Right and screen-up unit vectors of a camera looking along ``forward``.

    Parameters
    ----------
    forward, up : (3,) float64, unit

    Returns
    -------
    right, screen_up : (3,) float64
    """
    right = np.cross(forward, up)
    if np.linalg.norm(right) < 1e-9:           # looking straight up or down
        right = np.cross(forward, np.roll(up, 1))
    right /= np.linalg.norm(right)
    return right, np.cross(right, forward)


def camera_rays(eye, forward, up, width, height, fov=FOV):
    """One pinhole ray per pixel: ``directions (height * width, 3)``, unit, row by row.

    Row 0 is the top of the image. With odd ``width`` and ``height`` the
    middle pixel's ray is exactly ``forward``.
    """
    right, screen_up = camera_frame(forward, up)
    half = math.tan(math.radians(fov) / 2.0)
    x = ((np.arange(width) + 0.5) / width * 2.0 - 1.0) * half
    y = (1.0 - (np.arange(height) + 0.5) / height * 2.0) * half * height / width
    gy, gx = np.meshgrid(y, x, indexing="ij")
    d = forward + gx.reshape(-1, 1) * right + gy.reshape(-1, 1) * screen_up
    return d / np.linalg.norm(d, axis=1, keepdims=True)


def default_camera(world, spawns=()):
    """A sensible eye and heading: at the first spawn looking across the level, else overlooking it.

    With spawns, the eye stands at the first one, raised by 2% of the level's
    size, looking horizontally towards the level's centre. Without, it stands
    outside the level beyond its first ground axis' low side, at 60% of its
    height, looking at its centre.

    Returns
    -------
    eye, heading : (3,) float64
    """
    lo, hi = _bounds(world)
    axes = Axes3D.of(world)
    centre = 0.5 * (lo + hi)
    size = float(np.max(hi - lo))
    spawns = np.asarray(spawns, float).reshape(-1, 3)
    if len(spawns):
        eye = spawns[0] + 0.02 * size * axes.unit_up()
        heading = centre - eye
        heading[axes.up] = 0.0
        if np.linalg.norm(heading) < 1e-9 * size:
            heading = np.eye(3)[axes.ground[0]]
        return eye, heading
    eye = centre.copy()
    a = axes.ground[0]
    eye[a] = lo[a] - 0.6 * (hi[a] - lo[a]) - 0.1 * size
    eye[axes.up] = lo[axes.up] + 0.6 * (hi[axes.up] - lo[axes.up]) + 0.1 * size
    return eye, centre - eye


def heading_vector(heading, world):
    """``heading`` as a unit vector: a ``(3,)`` direction, or a yaw in degrees in the ground plane.

    A yaw of 0 looks along the first ground axis (x), 90 along the second
    (z for ``up="y"``, y for ``up="z"``).
    """
    try:
        h = np.asarray(heading, float)
    except (TypeError, ValueError):
        raise ValueError(f"heading must be a yaw in degrees or a (3,) direction, got "
                         f"{heading!r}") from None
    if h.ndim == 0:
        axes = Axes3D.of(world)
        angle = math.radians(float(h))
        vec = np.zeros(3)
        vec[axes.ground[0]] = math.cos(angle)
        vec[axes.ground[1]] = math.sin(angle)
        h = vec
    if h.shape != (3,) or not np.all(np.isfinite(h)) or not np.any(h):
        raise ValueError(f"heading must be a yaw in degrees or a non-zero (3,) direction, "
                         f"got {heading!r}")
    return h / np.linalg.norm(h)


def cast_views(world, eye, forward, *, top=True, camera=True, width=WIDTH, height=HEIGHT,
               fov=FOV, top_size=None):
    """Cast the rays of a top view and a camera view, all in one batched ``raycast`` call.

    Parameters
    ----------
    world : World3D
    eye, forward : (3,) float64
        The camera's position and unit viewing direction.
    top, camera : bool
        Which views to make.
    width, height : int
        The camera image (pixels).
    fov : float
        Horizontal field of view (degrees).
    top_size : int, optional
        Pixels along the top view's longer side; ``width`` by default.

    Returns
    -------
    top : TopView or None
    camera : CameraView or None
    """
    axes = Axes3D.of(world)
    origins, directions, spans = [], [], {}
    if top:
        o, d, shape, ext = top_rays(world, top_size or width)
        spans["top"] = (len(o), shape, ext)
        origins.append(o)
        directions.append(d)
    if camera:
        d = camera_rays(eye, forward, axes.unit_up(), width, height, fov)
        spans["camera"] = (len(d), (height, width), None)
        origins.append(np.broadcast_to(eye, d.shape))
        directions.append(d)
    all_origins = np.concatenate(origins)
    all_dirs = np.concatenate(directions)
    hits = world.raycast(all_origins, all_dirs)
    top_view = camera_view = None
    start = 0
    if top:
        n, shape, ext = spans["top"]
        s = slice(start, start + n)
        start += n
        ceiling = all_origins[0, axes.up]
        heights = np.where(hits.hit[s], ceiling - hits.distance[s], np.nan).reshape(shape)
        top_view = TopView(heights, hits.normal[s].reshape(shape + (3,)), ext, axes)
    if camera:
        n, shape, _ = spans["camera"]
        s = slice(start, start + n)
        distance = hits.distance[s].reshape(shape)
        depth = np.where(hits.hit[s], hits.distance[s] * (all_dirs[s] @ forward), np.inf)
        camera_view = CameraView(np.asarray(eye, float), forward, float(fov),
                                 depth.reshape(shape), distance,
                                 hits.normal[s].reshape(shape + (3,)),
                                 hits.obstacle[s].reshape(shape))
    return top_view, camera_view


def render3d(level, out, *, eye=None, heading=None, view="both", width=WIDTH, height=HEIGHT,
             fov=FOV, title=None):
    """Draw a 3D level from above and as a camera sees it, and save the picture at ``out``.

    Parameters
    ----------
    level : Level or World3D
        A level of :func:`sidestep.load` (its ``spawns (k, 3)`` are drawn) or a bare world.
    out : str or path-like
        PNG, SVG or any format matplotlib writes; PNG without an extension.
    eye : (3,) float64, optional
        The camera's position; by default :func:`default_camera`'s.
    heading : float or (3,) float64, optional
        Where the camera looks: a direction, or a yaw in degrees in the ground
        plane (see :func:`heading_vector`). By default towards the level's centre.
    view : {"both", "top", "camera"}
    width, height : int > 0
        The camera image in pixels; the top view is ``width`` pixels along
        the level's longer ground side.
    fov : float in (0, 180)
        Horizontal field of view of the camera (degrees).
    title : str, optional

    Returns
    -------
    Picture3D
        The views' arrays (``top``, ``camera``, None for a view not drawn)
        and the saved figure.

    Raises
    ------
    ValueError
        An empty world, a bad view, size, field of view, eye or heading.
    """
    world = getattr(level, "world", level)
    if not hasattr(world, "raycast") or not hasattr(world, "up"):
        raise TypeError(f"render3d draws a World3D level, got {type(world).__name__}")
    if view not in VIEWS:
        raise ValueError(f"view must be one of {', '.join(VIEWS)}, got {view!r}")
    for name, value in (("width", width), ("height", height)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1 \
                or value > 4096:
            raise ValueError(f"{name} must be a whole number of pixels in 1..4096, got {value!r}")
    fov = float(fov)
    if not 0.0 < fov < 180.0:
        raise ValueError(f"fov must be in (0, 180) degrees, got {fov}")
    kind = picture_format(out)
    spawns = np.asarray(getattr(level, "spawns", np.zeros((0, 3))), float).reshape(-1, 3)
    axes = Axes3D.of(world)
    default_eye, default_heading = default_camera(world, spawns)
    eye = default_eye if eye is None else np.asarray(eye, float)
    if eye.shape != (3,) or not np.all(np.isfinite(eye)):
        raise ValueError(f"eye must be a finite (3,) point, got {eye!r}")
    if heading is None:
        heading = default_heading if eye is default_eye else _towards_centre(world, eye, axes)
    forward = heading_vector(heading, world)

    top, camera = cast_views(world, eye, forward, top=view in ("both", "top"),
                             camera=view in ("both", "camera"), width=width, height=height,
                             fov=fov)
    figure = _draw(level, world, top, camera, spawns, title)
    figure.savefig(out, format=kind, dpi=DPI)
    return Picture3D(top, camera, figure)


def relief(top):
    """``(rows, cols, 3)`` RGB of a top view: height as colour, lit by the normals; white on a miss."""
    from matplotlib import colormaps

    h = top.heights
    lo, hi = np.nanmin(h, initial=np.inf), np.nanmax(h, initial=-np.inf)
    scale = (h - lo) / (hi - lo) if hi > lo else np.zeros_like(h)
    # The terrain map from its greens (low) to its browns and white (high): no sea blue.
    rgb = colormaps["terrain"](np.nan_to_num(0.3 + 0.65 * scale))[..., :3]
    light = top.axes.unit_up() + LIGHT_TILT * np.eye(3)[top.axes.ground[0]] \
        + 0.5 * LIGHT_TILT * np.eye(3)[top.axes.ground[1]]
    light /= np.linalg.norm(light)
    lit = 0.35 + 0.65 * np.clip(np.abs(top.normals @ light), 0.0, 1.0)
    rgb = rgb * lit[..., None]
    rgb[np.isnan(h)] = 1.0
    return rgb


def shade(camera):
    """``(rows, cols, 3)`` RGB of a camera view: the normal's colour, darker with distance and grazing angle."""
    hit = np.isfinite(camera.depth)
    rgb = np.empty(camera.depth.shape + (3,))
    rgb[:] = SKY
    if hit.any():
        n = camera.normals[hit]
        facing = np.abs(n @ camera.forward)
        far = camera.depth[hit]
        fog = 1.0 - 0.6 * (far - far.min()) / max(far.max() - far.min(), 1e-300)
        rgb[hit] = (0.5 + 0.5 * n) * (0.3 + 0.7 * facing)[:, None] * fog[:, None]
    return rgb


def draw_outlines(ax, world, axes):
    """Draw the outlines of panels, boxes and cylinders seen from above, over a relief.

    A wall panel stands edge-on to the top view's rays, so the relief alone
    does not show it: its outline does. Meshes are left to the relief. When
    the obstacles are on more than one collision layer, each outline takes
    its layer's colour (:mod:`sidestep.plot_layers`) and the legend lists
    the layers.
    """
    from matplotlib.collections import LineCollection
    from matplotlib.patches import Circle, Rectangle

    from ..plot_layers import layer_colors

    a, b = axes.ground
    edge = "0.15"
    colours = layer_colors(world, edge)
    if len(colours) > 1:
        for k, colour in colours.items():
            ax.plot([], [], color=colour, linewidth=2, label=f"layer {k}")

    def outline(family):
        """The edge colour of each obstacle of ``family``: its layer's, or the one edge colour."""
        ids = world.geometry(family)["ids"]
        return [colours[k] for k in world.layers(ids).tolist()] if len(colours) > 1 \
            else [edge] * len(ids)

    width = 2.0 if len(colours) > 1 else 1.0
    panels = world.geometry("panel")["vertices"]
    if len(panels):
        # Panels that stop well above the lowest ones (a lintel over a doorway)
        # are drawn white: an agent on the floor passes under them. (Dashes
        # would not show: an edge-on panel's outline runs out and back.)
        bottoms = np.array([v[:, axes.up].min() for v in panels])
        lo, hi = world.bounds
        overhead = bottoms > bottoms.min() + OVERHEAD * (hi[axes.up] - lo[axes.up])
        loops = [np.vstack([v, v[:1]])[:, [a, b]] for v in panels]
        lines = np.array(outline("panel"), dtype=object)
        for high in (False, True):
            chosen = [loop for loop, o in zip(loops, overhead) if o == high]
            if chosen:
                colour = "white" if high else list(lines[overhead == high])
                ax.add_collection(LineCollection(chosen, colors=colour, linewidths=1.4,
                                                 zorder=2 + high))
    boxes = world.geometry("box")
    for lo, hi, colour in zip(boxes["mins"], boxes["maxs"], outline("box")):
        ax.add_patch(Rectangle((lo[a], lo[b]), hi[a] - lo[a], hi[b] - lo[b], facecolor="0.55",
                               edgecolor=colour, linewidth=width, zorder=2))
    cylinders = world.geometry("cylinder")
    for base, r, colour in zip(cylinders["bases"], cylinders["radii"], outline("cylinder")):
        ax.add_patch(Circle((base[a], base[b]), r, facecolor="tab:olive", edgecolor=colour,
                            linewidth=width, zorder=2))
    spheres = world.geometry("sphere")
    for centre, r, colour in zip(spheres["centers"], spheres["radii"], outline("sphere")):
        ax.add_patch(Circle((centre[a], centre[b]), r, facecolor="0.7", edgecolor=colour,
                            linewidth=width, zorder=2))


def draw_top(ax, top, spawns=None, world=None):
    """Draw a top view (relief, outlines of ``world``'s panels and solids, spawns) on ``ax``."""
    ax.imshow(relief(top), origin="lower", extent=top.extent, interpolation="nearest")
    if world is not None:
        draw_outlines(ax, world, top.axes)
    a, b = top.axes.ground
    if spawns is not None and len(spawns):
        ax.plot(spawns[:, a], spawns[:, b], "o", color="tab:green", markeredgecolor="k",
                markersize=5, label=f"spawns ({len(spawns)})")
    ax.set(xlabel="xyz"[a], ylabel="xyz"[b], aspect="equal")
    if top.axes.flip:
        ax.invert_yaxis()


def draw_camera(ax, camera):
    """Draw a camera view on ``ax``, titled with the eye, field of view and depth range."""
    ax.imshow(shade(camera), interpolation="nearest")
    ax.set(xticks=[], yticks=[])
    finite = camera.depth[np.isfinite(camera.depth)]
    span = f"depth {finite.min():.3g} to {finite.max():.3g}" if len(finite) else "no hit"
    ax.set_title(f"camera at ({', '.join(f'{v:.3g}' for v in camera.eye)}), "
                 f"fov {camera.fov:g} deg: normal as colour, {span}", fontsize=9)


def _draw(level, world, top, camera, spawns, title):
    """The figure: top view on the left, camera view on the right."""
    from matplotlib.figure import Figure

    panels = [v for v in (top, camera) if v is not None]
    fig = Figure(figsize=(6.0 * len(panels), 5.0), layout="constrained")
    axs = np.atleast_1d(fig.subplots(1, len(panels)))
    i = 0
    if top is not None:
        ax = axs[i]
        i += 1
        draw_top(ax, top, spawns, world)
        if camera is not None:
            a, b = top.axes.ground
            reach = 0.15 * max(top.extent[1] - top.extent[0], top.extent[3] - top.extent[2])
            ax.plot(camera.eye[a], camera.eye[b], "r^", markersize=7, label="camera")
            x0, x1 = sorted(ax.get_xlim())
            y0, y1 = sorted(ax.get_ylim())
            ax.set_xlim(min(x0, camera.eye[a] - reach), max(x1, camera.eye[a] + reach))
            ylim = (min(y0, camera.eye[b] - reach), max(y1, camera.eye[b] + reach))
            ax.set_ylim(ylim[::-1] if top.axes.flip else ylim)
            ax.annotate("", (camera.eye[a] + reach * camera.forward[a],
                             camera.eye[b] + reach * camera.forward[b]),
                        (camera.eye[a], camera.eye[b]),
                        arrowprops=dict(arrowstyle="->", color="red"))
        if ax.get_legend_handles_labels()[0]:
            ax.legend(loc="upper right", fontsize=8)
        ax.set_title("from above: height of the highest surface, lit by its normal", fontsize=9)
    if camera is not None:
        draw_camera(axs[i], camera)
    name = getattr(level, "name", "") or "level"
    fig.suptitle(title if title is not None else f"{name}: {world!r}", fontsize=10)
    return fig


def _towards_centre(world, eye, axes):
    """A horizontal heading from ``eye`` towards the level's centre (first ground axis if above it)."""
    lo, hi = _bounds(world)
    heading = 0.5 * (lo + hi) - eye
    heading[axes.up] = 0.0
    if np.linalg.norm(heading) < 1e-12:
        heading = np.eye(3)[axes.ground[0]]
    return heading


def _bounds(world):
    """The world's bounds, or a ValueError for an empty world."""
    bounds = world.bounds
    if bounds is None:
        raise ValueError("the level has no obstacles to draw")
    lo, hi = (np.asarray(v, float) for v in bounds)
    return lo, hi
