"""Tasks on this machine's cores: a pool of worker processes, or this process alone.

Each worker is a fresh interpreter (``spawn``: nothing inherited from this
process's threads) that imports sidestep once, loads the kernels from Numba's
cache (compile them first: ``sidestep warmup``, or let the command do it
before it starts the pool) and then takes tasks until none are left. Give
each task a thread cap (``Task.threads``) so that ``jobs`` workers do not
each start a thread per core.

A worker process that dies (killed, out of memory, a crash) breaks the whole
pool (``BrokenProcessPool``): the tasks that had not finished are run once
more, in a fresh pool; if a worker dies again, the run stops with a
``RuntimeError``. A level that fails to load is no such death: its task
returns a result with the error.
"""
import multiprocessing
import os
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool

from .tasks import run_task

#: Times the unfinished tasks of a pool whose worker died are run again, in a fresh pool.
RETRIES = 1

#: Test only, never set in use: names a file; the first pool task to find it
#: missing makes it (holding its process id) and ends its worker process at
#: once (``os._exit``), as a crash would, so that the tests see a task
#: retried after its worker died.
_DIE_ONCE = "SIDESTEP_TEST_DIE_ONCE"


def cores():
    """Cores this process may run on."""
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
               else (os.cpu_count() or 1))


def run_local(tasks, jobs=None, *, fn=run_task, progress=None):
    """Run ``tasks`` on ``jobs`` worker processes; their results, in the tasks' order.

    Parameters
    ----------
    tasks : sequence of Task
    jobs : int >= 1, optional
        Worker processes (default: one per core, at most one per task). With
        1 the tasks run in this process, one after the other.
    fn : callable
        What runs a task (default :func:`~sidestep.distributed.tasks.run_task`);
        it must be importable by name in a fresh interpreter.
    progress : callable, optional
        Called as ``progress(done, total)`` as tasks finish.

    Returns
    -------
    list of TaskResult
    """
    tasks = list(tasks)
    if jobs is None:
        jobs = cores()
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a whole number >= 1, got {jobs!r}")
    jobs = min(jobs, max(1, len(tasks)))
    results = [None] * len(tasks)
    if jobs == 1:
        for k, task in enumerate(tasks):
            results[k] = fn(task)
            if progress is not None:
                progress(k + 1, len(tasks))
        return results
    left = list(range(len(tasks)))
    for attempt in range(RETRIES + 1):
        try:
            _in_pool(tasks, left, jobs, fn, results, progress)
            break
        except BrokenProcessPool as exc:
            left = [k for k in left if results[k] is None]
            if attempt == RETRIES:
                raise RuntimeError(
                    f"a worker process died running {len(left)} of {len(tasks)} tasks, "
                    f"again after {RETRIES} retr{'y' if RETRIES == 1 else 'ies'} in a fresh "
                    "pool (out of memory? killed?)") from exc
    return results


def _in_pool(tasks, indices, jobs, fn, results, progress):
    """Run ``tasks[k]`` for ``k`` in ``indices`` in a fresh pool, filling ``results``.

    Raises ``BrokenProcessPool`` when a worker dies; the results of the tasks
    finished before that are kept.
    """
    pool = ProcessPoolExecutor(min(jobs, len(indices)),
                               mp_context=multiprocessing.get_context("spawn"))
    try:
        pending = {pool.submit(_call, fn, tasks[k]): k for k in indices}
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                k = pending.pop(future)
                results[k] = future.result()
                if progress is not None:
                    progress(sum(r is not None for r in results), len(tasks))
    except BaseException:
        # A task that raised (a bug, not a bad level), a dead worker or Ctrl-C:
        # drop what has not started rather than wait for it.
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()


def _call(fn, task):
    """``fn(task)`` in a pool worker (with the test-only :data:`_DIE_ONCE` hook)."""
    flag = os.environ.get(_DIE_ONCE)
    if flag:
        try:
            handle = os.open(flag, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            pass
        else:
            os.write(handle, str(os.getpid()).encode())
            os.close(handle)
            os._exit(70)
    return fn(task)
