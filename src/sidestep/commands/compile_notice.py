"""A one-line notice on a terminal while Numba compiles the kernels for the first time.

The first run on a machine compiles sidestep's kernels (15 to 25 s for the
demo); later runs load them from Numba's cache in well under a second.
Without a word, the first ``sidestep demo`` looks hung. Numba reports each real compilation (never a cache load) as a
``numba:compile`` event; the notice listens for the first one.

>>> import io
>>> from numba import njit
>>> from sidestep.commands.compile_notice import CompileNotice
>>> class Terminal(io.StringIO):
...     def isatty(self):
...         return True
>>> screen = Terminal()
>>> with CompileNotice(stream=screen):
...     _ = njit(lambda x: x + 1)(1)
>>> screen.getvalue().startswith("sidestep: compiling")
True
"""
import sys

from numba.core import event

from .progress import _is_terminal

#: The notice, one line.
MESSAGE = ("sidestep: compiling the collision kernels for this machine; this takes a "
           "while once, later runs reuse them\n")


class CompileNotice(event.Listener):
    """Say once, on ``stream`` (stderr) if it is a terminal, that kernels are compiling.

    Use as a context manager around a command's work. The line is written
    when the first compilation starts, whole, so whatever the command prints
    next starts on a line of its own. On anything but a terminal nothing is
    written, so piped and captured runs stay quiet.
    """

    def __init__(self, stream=None):
        self.stream = sys.stderr if stream is None else stream
        self.shown = False

    def on_start(self, ev):
        if not self.shown and _is_terminal(self.stream):
            self.shown = True
            self.stream.write(MESSAGE)
            self.stream.flush()

    def on_end(self, ev):
        pass

    def __enter__(self):
        event.register("numba:compile", self)
        return self

    def __exit__(self, *exc):
        event.unregister("numba:compile", self)
        return False
