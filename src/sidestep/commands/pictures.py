"""Pictures of a level: a figure shaped like the level, and saving it where the user asked.

Shared by ``render`` and ``walk``: both draw a top view of a whole level and
write it to a file whose extension picks the format.
"""
import os

#: Width of a level picture (inches); the height follows the level's shape.
WIDTH = 10.0
#: Smallest and largest height (inches), so a long thin level stays readable.
HEIGHTS = (4.0, 14.0)
#: Resolution of raster output (dots per inch): a 10-inch picture is 1500 px
#: wide, enough to see single cells of a 512 x 512 tile map.
DPI = 150


def writable_path(out):
    """``out`` as a string, once its folder exists and it is not itself a folder.

    Raises ``FileNotFoundError`` or ``IsADirectoryError`` naming ``out``.
    """
    out = os.fspath(out)
    folder = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(folder):
        raise FileNotFoundError(f"cannot write {out}: no directory {folder}")
    if os.path.isdir(out):
        raise IsADirectoryError(f"cannot write {out}: it is a directory")
    return out


def picture_format(out):
    """Check that a picture can be written at ``out``; return its format from the extension.

    Parameters
    ----------
    out : str or path-like

    Returns
    -------
    str
        A format matplotlib writes (``"png"``, ``"svg"``, ``"pdf"``...); PNG
        when ``out`` has no extension.

    Raises
    ------
    FileNotFoundError, IsADirectoryError
        ``out``'s folder does not exist, or ``out`` is a folder.
    ValueError
        matplotlib cannot write that format.

    Examples
    --------
    >>> picture_format("level.svg"), picture_format("level")
    ('svg', 'png')
    """
    from matplotlib.backend_bases import FigureCanvasBase

    out = writable_path(out)
    kind = os.path.splitext(out)[1][1:].lower() or "png"
    if kind not in FigureCanvasBase.get_supported_filetypes():
        raise ValueError(f"cannot write {out}: matplotlib has no '{kind}' format")
    return kind


def level_figure(extent, *, extra_height=0.8):
    """A bare figure with one axes, shaped like ``extent``.

    Parameters
    ----------
    extent : (x0, x1, y0, y1)
        The region the picture shows.
    extra_height : float
        Inches added for the title and labels.

    Returns
    -------
    fig : matplotlib.figure.Figure
    ax : matplotlib.axes.Axes
    """
    # A bare Figure, not pyplot: no backend to pick, no global state to clean up.
    from matplotlib.figure import Figure

    x0, x1, y0, y1 = extent
    shape = (y1 - y0) / (x1 - x0) if x1 > x0 else 1.0
    height = min(max(WIDTH * shape, HEIGHTS[0]), HEIGHTS[1])
    # A tall level at the tallest height gets a narrower figure, plus room
    # for the labels and a colorbar or legend, rather than blank margins.
    width = min(WIDTH, height / shape + 2.5)
    fig = Figure(figsize=(width, height + extra_height), layout="constrained")
    ax = fig.subplots()
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)
    ax.set_aspect("equal")
    return fig, ax


def level_extent(world, radius=0.0, points=()):
    """``(x0, x1, y0, y1)`` showing the whole world, its halos and ``points``, with a margin.

    Parameters
    ----------
    world : World2D
    radius : float
        The agent radius whose halo must fit.
    points : sequence of (k, 2) arrays
        More points to include (spawns, paths).

    Returns
    -------
    tuple of 4 float
    """
    import numpy as np

    boxes = [] if world.bounds is None else [np.reshape(world.bounds, (2, 2))]
    boxes += [np.reshape(p, (-1, 2)) for p in points if np.size(p)]
    if not boxes:
        return -1.0, 1.0, -1.0, 1.0
    every = np.vstack(boxes)
    every = every[np.all(np.isfinite(every), axis=1)]
    lo, hi = every.min(axis=0) - radius, every.max(axis=0) + radius
    margin = 0.03 * max(float(np.max(hi - lo)), 1e-9)
    return lo[0] - margin, hi[0] + margin, lo[1] - margin, hi[1] + margin
