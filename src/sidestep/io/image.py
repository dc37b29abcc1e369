"""Images as look-up tables: dark pixels are blocked (``.png``, ``.bmp``, ``.gif``).

The panel article's trick, "use the graphics buffer itself as the look-up
table": paint the level's walls dark on a light background and every pixel
becomes one cell of a grid. A pixel is blocked when its luminance (Pillow's
``L`` conversion, ITU-R 601: ``(299 R + 587 G + 114 B) / 1000``, 0-255) is
below ``threshold`` and it is not fully transparent (alpha 0 is always free).
16-bit greyscale images are scaled to 0-255 first; an animated GIF is read
from its first frame.

**Coordinates**, as for Moving AI maps: pixel column c is x and image row r,
counted from the top, is y, so pixel ``(c, r)`` covers
``[c*s, (c+1)*s] x [r*s, (r+1)*s]`` for ``cell_size`` s, with the origin at
the image's top-left corner. y grows downwards, as in the image; a plot with
y pointing up shows it mirrored top to bottom.

Needs Pillow (``pip install sidestep[levels]``).
"""
import math
from pathlib import Path

import numpy as np

from ..level import Level, LevelError
from .build import WorldBuilder


def read_image(path, *, threshold=128, cell_size=1.0):
    """Read an image as a :class:`Level` holding one grid of its dark pixels.

    Parameters
    ----------
    path : str or path
    threshold : float in [0, 256]
        A pixel is blocked when its luminance is below this (0: nothing is
        blocked; 256: every opaque pixel is).
    cell_size : float > 0
        World units per pixel.

    Returns
    -------
    Level

    Examples
    --------
    >>> import tempfile
    >>> from PIL import Image
    >>> pixels = np.array([[255, 0], [255, 200]], dtype=np.uint8)   # one black pixel
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     Image.fromarray(pixels).save(Path(tmp) / "level.png")
    ...     level = read_image(Path(tmp) / "level.png", cell_size=0.5)
    >>> level.world.geometry("grid")["blocked"][0].astype(int).tolist()
    [[0, 1], [0, 0]]
    >>> float(level.world.clearance((0.25, 0.25)))    # 0.5 from the blocked cell at x >= 0.5
    0.25
    """
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) \
            or not 0 <= threshold <= 256:
        raise ValueError(f"threshold must be a number in [0, 256], got {threshold!r}")
    if isinstance(cell_size, bool) or not isinstance(cell_size, (int, float)) \
            or not (math.isfinite(cell_size) and cell_size > 0):
        raise ValueError(f"cell_size must be a positive finite number, got {cell_size!r}")
    path = Path(path)
    luminance, alpha, problems = _pixels(path)
    blocked = (luminance < threshold) & (alpha > 0)
    builder = WorldBuilder(path)
    builder.grid(blocked, float(cell_size), (0.0, 0.0), "image")
    builder.frame((0.0, 0.0), (blocked.shape[1] * cell_size, blocked.shape[0] * cell_size),
                  "image")
    return Level(world=builder.world(), spawns=np.zeros((0, 2)), name=path.stem,
                 source=path, problems=tuple(problems))


def _pixels(path):
    """``(luminance, alpha, problems)``: two ``(rows, cols) float64`` arrays, 0-255."""
    try:
        from PIL import Image, UnidentifiedImageError
    except ImportError:
        raise ImportError("reading images needs Pillow: pip install 'sidestep[levels]'") \
            from None
    problems = []
    try:
        with Image.open(path) as img:
            frames = getattr(img, "n_frames", 1)
            if frames > 1:
                problems.append(f"{path.name} has {frames} frames; the first was read")
            img.load()
            # Pillow's "L" conversion clips 16-bit grey to 255 instead of
            # scaling it; PNG's 16-bit grey opens as "I;16" (or "I" in older Pillow).
            if img.mode.startswith("I;16") or img.mode == "I":
                luminance = np.asarray(img, dtype=np.float64) / 257.0
                alpha = np.full(luminance.shape, 255.0)
            else:
                luminance = np.asarray(img.convert("L"), dtype=np.float64)
                alpha = np.asarray(img.convert("RGBA").getchannel("A"), dtype=np.float64)
    except FileNotFoundError:
        raise
    except UnidentifiedImageError:
        raise LevelError(path, None, "not an image Pillow can read (expected PNG, BMP or "
                         "GIF data)") from None
    except (OSError, ValueError, Image.DecompressionBombError) as exc:
        raise LevelError(path, "image data", f"cannot decode: {exc}") from None
    return luminance, alpha, problems
