"""Tasks on this machine's cores: a pool of worker processes, or this process alone.

Each worker is a fresh interpreter (``spawn``: nothing inherited from this
process's threads) that imports sidestep once, loads the kernels from Numba's
cache (compile them first: ``sidestep warmup``, or let the command do it
before it starts the pool) and then takes tasks until none are left. Give
each task a thread cap (``Task.threads``) so that ``jobs`` workers do not
each start a thread per core.
"""
import multiprocessing
import os
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

from .tasks import run_task


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
    pool = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"))
    try:
        pending = {pool.submit(fn, task): k for k, task in enumerate(tasks)}
        done_count = 0
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                results[pending.pop(future)] = future.result()
                done_count += 1
                if progress is not None:
                    progress(done_count, len(tasks))
    except BaseException:
        # A task that raised (a bug, not a bad level) or Ctrl-C: drop what
        # has not started rather than wait for it.
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    return results
