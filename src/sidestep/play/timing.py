"""Frame times: how long each frame's update (game step) and drawing took.

>>> times = FrameTimes()
>>> for update, draw in [(1.0, 2.0), (3.0, 2.5), (2.0, 9.0)]:
...     times.add(update, draw)
>>> summary = times.summary()
>>> summary.frames, summary.update_ms, summary.draw_ms, summary.frame_ms
(3, 2.0, 2.5, 5.5)
>>> times.recent()
(2.0, 2.5)
"""
from dataclasses import dataclass

import numpy as np

#: Frames the on-screen figures are the median of.
RECENT = 30


@dataclass(frozen=True)
class Timing:
    """Median and 95th percentile frame times of a run, in milliseconds."""

    #: Frames measured.
    frames: int
    #: Median time of the game's update (the character's move and the crowd's step).
    update_ms: float
    #: Median time to draw a frame (not counting the display's flip).
    draw_ms: float
    #: Median of update plus draw, frame by frame.
    frame_ms: float
    #: 95th percentiles of the same.
    update_p95_ms: float
    draw_p95_ms: float
    frame_p95_ms: float
    #: Frames per second over the whole run, by the wall clock (waits for the
    #: frame rate and the display's flip included); NaN when not measured.
    fps: float = float("nan")

    def format(self):
        """One line: ``600 frames at 60.0 fps: update 0.41 ms, draw 2.10 ms, ...``."""
        rate = f" at {self.fps:.1f} fps" if self.fps == self.fps else ""
        frames = f"{self.frames} frame{'' if self.frames == 1 else 's'}"
        return (f"{frames}{rate}: update {self.update_ms:.2f} ms, draw "
                f"{self.draw_ms:.2f} ms, frame {self.frame_ms:.2f} ms median per frame (95th "
                f"percentile {self.update_p95_ms:.2f}, {self.draw_p95_ms:.2f}, "
                f"{self.frame_p95_ms:.2f} ms)")


class FrameTimes:
    """Collects each frame's update and draw times (milliseconds)."""

    def __init__(self):
        self._update = []
        self._draw = []

    def add(self, update_ms, draw_ms):
        """Record one frame."""
        self._update.append(float(update_ms))
        self._draw.append(float(draw_ms))

    def recent(self):
        """``(update, draw)``: medians over the last :data:`RECENT` frames (zeros before any)."""
        if not self._update:
            return (0.0, 0.0)
        return (float(np.median(self._update[-RECENT:])), float(np.median(self._draw[-RECENT:])))

    def summary(self, seconds=None):
        """The run's :class:`Timing` (all zeros when no frame was recorded).

        Parameters
        ----------
        seconds : float, optional
            How long the run took by the wall clock, for :attr:`Timing.fps`.
        """
        fps = len(self._update) / seconds if seconds else float("nan")
        if not self._update:
            return Timing(0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, fps)
        u, d = np.array(self._update), np.array(self._draw)
        f = u + d
        return Timing(len(u), *(float(np.median(a)) for a in (u, d, f)),
                      *(float(np.percentile(a, 95)) for a in (u, d, f)), fps)
