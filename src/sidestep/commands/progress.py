"""A small progress bar for long runs, drawn on a terminal and silent otherwise.

Written here rather than taken from tqdm so the command line needs nothing
beyond NumPy, Numba and (for pictures) matplotlib.

>>> import io
>>> from sidestep.commands.progress import Progress
>>> quiet = io.StringIO()                       # not a terminal: nothing is drawn
>>> with Progress(100, "walk", stream=quiet) as bar:
...     for _ in range(100):
...         bar.advance()
>>> quiet.getvalue()
''
"""
import sys
import time

#: Seconds between redraws: about ten a second, enough to look alive without
#: spending the run writing to the terminal.
REDRAW_INTERVAL = 0.1
#: Characters of the bar itself.
_WIDTH = 30


class Progress:
    """A one-line progress bar on ``stream`` (stderr), only when it is a terminal.

    Parameters
    ----------
    total : int >= 0
        Steps in the whole run.
    label : str
        A word or two shown before the bar (``"walk"``, ``"check"``).
    stream : file-like, optional
        Where to draw; ``sys.stderr`` by default. Nothing is ever written
        unless ``stream.isatty()`` is true, so piped and captured runs stay
        quiet.
    interval : float
        Smallest time in seconds between redraws.

    Examples
    --------
    >>> import io
    >>> class Terminal(io.StringIO):
    ...     def isatty(self):
    ...         return True
    >>> screen = Terminal()
    >>> with Progress(4, "frames", stream=screen, interval=0.0) as bar:
    ...     bar.advance(4)
    >>> screen.getvalue().splitlines()[-1].strip().split("]")[1].split()[:2]
    ['100%', '4/4']
    """

    def __init__(self, total, label, stream=None, interval=REDRAW_INTERVAL):
        self.total = max(int(total), 0)
        self.label = label
        self.stream = sys.stderr if stream is None else stream
        self.interval = interval
        self.done = 0
        self._shown = _is_terminal(self.stream)
        self._started = time.monotonic()
        self._drawn_at = -float("inf")

    def advance(self, steps=1):
        """Count ``steps`` more steps done; redraw if the last redraw is old enough."""
        self.done = min(self.done + steps, self.total)
        if self._shown:
            now = time.monotonic()
            if now - self._drawn_at >= self.interval or self.done == self.total:
                self._draw(now)

    def __call__(self, done, total=None):
        """Set the steps done (and the total, if it changed): the ``progress(done, total)`` callback."""
        if total is not None:
            self.total = max(int(total), 0)
        self.advance(done - self.done)

    def close(self):
        """Draw the final state and end the line (only if anything was drawn)."""
        if self._shown:
            self._draw(time.monotonic())
            self.stream.write("\n")
            self.stream.flush()
            self._shown = False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def _draw(self, now):
        share = self.done / self.total if self.total else 1.0
        filled = int(round(share * _WIDTH))
        elapsed = now - self._started
        # The carriage return redraws the same line; the trailing spaces wipe
        # what a longer previous line left behind.
        self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (_WIDTH - filled)}] "
                          f"{share:4.0%} {self.done}/{self.total} {elapsed:5.1f}s  ")
        self.stream.flush()
        self._drawn_at = now


def _is_terminal(stream):
    """Whether ``stream`` is an interactive terminal (False for files, pipes, closed streams)."""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False
