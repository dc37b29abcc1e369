"""A shared queue of rows that several threads take chunks from.

Batch kernels (``move_agents``, ``nearest_points``, ``raycast_points``) run on
every core at once. Splitting the rows into one fixed range per thread leaves
the others idle while the slowest finishes (a core shared with another
process can run at half speed); instead each thread repeatedly takes the next
``chunk`` rows from a counter it increments atomically, so a fast thread
simply takes more chunks. Rows are independent: the result does not depend
on which thread moved which row.

A queue is an int64 array ``[next, stop, chunk]`` (see :func:`row_queue`).
"""
import numpy as np
from numba import njit
from numba.core import cgutils, types
from numba.extending import intrinsic

Q_NEXT, Q_STOP, Q_CHUNK = 0, 1, 2


def row_queue(first, stop, chunk):
    """A queue handing out rows ``[first, stop)`` in chunks of ``chunk`` (>= 1)."""
    return np.array([first, stop, max(1, chunk)], dtype=np.int64)


def _atomic_add(ordering):
    """An intrinsic that atomically adds ``value`` to ``array[index]`` (int64) and returns
    the old value, with the memory ``ordering`` given (LLVM's)."""

    def typer(typingctx, array, index, value):
        if not (isinstance(array, types.Array) and array.dtype == types.int64
                and isinstance(index, types.Integer) and isinstance(value, types.Integer)):
            return None

        def codegen(context, builder, signature, args):
            arr_type = signature.args[0]
            arr = context.make_array(arr_type)(context, builder, args[0])
            i = context.cast(builder, args[1], signature.args[1], types.intp)
            v = context.cast(builder, args[2], signature.args[2], types.int64)
            ptr = cgutils.get_item_pointer(context, builder, arr_type, arr, [i])
            return builder.atomic_rmw("add", ptr, v, ordering)

        return types.int64(array, index, value), codegen

    return intrinsic(typer)


#: Taking rows: only the counter itself must be atomic.
_fetch_add = _atomic_add("monotonic")
#: Counting rows done: what a thread wrote before is seen by any thread that sees the count.
_fetch_add_ordered = _atomic_add("seq_cst")


@njit(cache=True, forceinline=False, inline="always")
def next_rows(queue):
    """Take the next chunk: ``(first, stop)`` rows, empty (``first >= stop``) when done."""
    first = _fetch_add(queue, Q_NEXT, queue[Q_CHUNK])
    return first, min(first + queue[Q_CHUNK], queue[Q_STOP])


@njit(cache=True, forceinline=False, inline="always")
def resume_rows(pending, queue):
    """The rows ``pending [first, stop)`` a kernel left undone last call (and clears them),
    else the next chunk of ``queue``: ``(first, stop)``, empty when done. For a kernel
    that stops mid-chunk to have its buffers grown (the crowd steps)."""
    if pending[0] < pending[1]:
        first = pending[0]
        stop = pending[1]
        pending[0] = 0
        pending[1] = 0
        return first, stop
    return next_rows(queue)


@njit(cache=True, forceinline=False, inline="always")
def rows_done(done, count):
    """Count ``count`` more rows of a first phase done in ``done[0]``, once they are
    written (see :func:`wait_rows`)."""
    _fetch_add_ordered(done, 0, count)


@njit(cache=True, forceinline=False, inline="always")
def wait_rows(done, total):
    """Wait until ``done[0]`` counts ``total`` rows (:func:`rows_done`): a kernel whose
    threads first share the rows of one queue and then need all of them (the crowd steps
    order the agents' cells, then step the agents) goes on only when all are written.
    Every thread takes rows only while it runs and finishes those it took before it
    waits, so a thread that never started is never waited for; a thread waits at most
    for the chunk another is finishing."""
    while _fetch_add_ordered(done, 0, 0) < total:
        pass
