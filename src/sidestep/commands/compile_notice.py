"""A one-line notice on stderr when the command starts compiling kernels.

The first run on a machine compiles sidestep's kernels (see
:mod:`sidestep.kernel_cache`); later runs load them from Numba's cache in
well under a second. Without a word, a first command looks hung, on a
terminal and in a CI log alike, so the notice is written wherever stderr
goes, once per command, before the first compilation: either when the
command hands the missing kernels to worker processes
(:meth:`CompileNotice.parallel`), or when Numba reports a compilation in
this process (a ``numba:compile`` event; a cache load is never one).
Library calls print nothing: :func:`sidestep.warmup` is how a program
compiles ahead of time.

>>> import io
>>> from numba import njit
>>> from sidestep.commands.compile_notice import CompileNotice
>>> log = io.StringIO()
>>> with CompileNotice(stream=log):
...     _ = njit(lambda x: x + 1)(1)
>>> print(log.getvalue(), end="")
sidestep: compiling the collision kernels for this machine, once (later runs reuse them)...
"""
import sys

from numba.core import event

#: The notice, one line.
MESSAGE = "sidestep: compiling the collision kernels for this machine, once (later runs reuse them)"


class CompileNotice(event.Listener):
    """Say once, on ``stream`` (stderr), that kernels are compiling.

    Use as a context manager around a command's work. The line is written
    whole, when the first compilation starts, so whatever the command prints
    next starts on a line of its own.
    """

    def __init__(self, stream=None):
        self.stream = sys.stderr if stream is None else stream
        self.shown = False

    def _say(self, detail=""):
        if not self.shown:
            self.shown = True
            self.stream.write(f"{MESSAGE}{detail}...\n")
            self.stream.flush()

    def parallel(self, kernels, processes):
        """The notice for ``kernels`` (a list) compiled by ``processes`` worker processes."""
        way = f" on {processes} cores" if processes > 1 else ""
        self._say(f": {len(kernels)} kernel{'' if len(kernels) == 1 else 's'}{way}")

    def on_start(self, ev):
        self._say()

    def on_end(self, ev):
        pass

    def __enter__(self):
        event.register("numba:compile", self)
        return self

    def __exit__(self, *exc):
        event.unregister("numba:compile", self)
        return False
