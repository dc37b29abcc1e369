"""The same tasks as Ray remote tasks: a cluster's workers do them, a dying one is retried.

Needs Ray (``pip install "sidestep[distributed]"``); this module imports it
when called, and nothing else in sidestep imports it. Each task becomes one
Ray task of one CPU that runs :func:`~sidestep.distributed.tasks.run_task`
on a worker: the worker imports sidestep once and keeps it (Ray reuses its
worker processes), so the kernels are loaded from Numba's cache once per
worker, not per task; each task caps the worker's threads to its CPUs
(``Task.threads``, 1 by default here) so that a node's workers do not each
start a thread per core. A task whose worker dies (killed, out of memory, a
lost node) is run again, up to ``max_retries`` times, by Ray; a level that
fails to load is not retried: it is a result with an error, like any other.

Every worker needs sidestep installed at the same version (and the level
files at the same path, or a shared folder): see docs/cli.md, "Many levels,
many machines: Ray".
"""
import dataclasses

from .tasks import run_task

#: Times Ray runs a task again when its worker dies.
MAX_RETRIES = 3


def connect(address):
    """Join (or start) a Ray cluster: ``"auto"`` finds a running one, ``"local"`` starts one here.

    Anything else is an address, ``"ray://host:10001"`` (Ray Client) or
    ``"host:6379"``. Does nothing when this process is connected already.

    Returns
    -------
    dict
        ``ray.cluster_resources()``.
    """
    import ray

    if not ray.is_initialized():
        if address == "local":
            # A new instance on this machine, even where a cluster address is
            # recorded (``ray start`` writes one that outlives its cluster).
            ray.init(address="local", include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
    return ray.cluster_resources()


def warm_nodes(commands=("check", "walk")):
    """Compile the kernels of ``commands`` into each live node's Numba cache, once per node.

    One Ray task pinned to each node (``NodeAffinitySchedulingStrategy``) runs
    :func:`sidestep.warmup` there, on that node's cores: the kernels a node
    lacks are compiled once, in parallel, instead of by every worker that
    meets them first. Where the cache is filled already (``sidestep warmup``
    at install time, or a cache folder the nodes share) it returns at once.

    Returns
    -------
    dict
        ``{node id: number of kernels compiled there}``.
    """
    import ray
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    from ..kernel_cache import COMMANDS

    names = sorted({k for c in commands for k in COMMANDS[c]})
    nodes = [n["NodeID"] for n in ray.nodes() if n.get("Alive")]
    warm = ray.remote(num_cpus=0)(_warm)
    refs = [warm.options(scheduling_strategy=NodeAffinitySchedulingStrategy(node, soft=False))
            .remote(names) for node in nodes]
    return dict(zip(nodes, ray.get(refs)))


def _warm(names):
    """:func:`sidestep.warmup` of ``names`` in this process; how many it compiled."""
    from ..kernel_cache import warmup

    return len(warmup(names).compiled)


def run_ray(tasks, address=None, *, threads=1, max_retries=MAX_RETRIES, fn=run_task,
            progress=None):
    """Run ``tasks`` as Ray remote tasks; their results, in the tasks' order.

    Parameters
    ----------
    tasks : sequence of Task
    address : str, optional
        Passed to :func:`connect` unless this process is connected already.
    threads : int >= 1
        Thread cap of each task that has none (``Task.threads``): the CPUs a
        Ray task reserves.
    max_retries : int >= 0
        Times a task is run again when its worker process dies.
    fn : callable
        What runs a task (default :func:`~sidestep.distributed.tasks.run_task`);
        workers must be able to import it, or it must be registered with
        ``cloudpickle.register_pickle_by_value``.
    progress : callable, optional
        Called as ``progress(done, total)`` as tasks finish.

    Returns
    -------
    list of TaskResult
    """
    import ray

    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be a whole number >= 1, got {threads!r}")
    if isinstance(max_retries, bool) or not isinstance(max_retries, int) or max_retries < 0:
        raise ValueError(f"max_retries must be a whole number >= 0, got {max_retries!r}")
    if not ray.is_initialized():
        connect(address or "auto")
    remote = ray.remote(num_cpus=threads, max_retries=max_retries,
                        retry_exceptions=False)(fn)
    tasks = [t if t.threads is not None else dataclasses.replace(t, threads=threads)
             for t in tasks]
    refs = [remote.remote(task) for task in tasks]
    index = {ref: k for k, ref in enumerate(refs)}
    results = [None] * len(refs)
    pending = list(refs)
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                results[index[ref]] = ray.get(ref)
            if progress is not None:
                progress(len(refs) - len(pending), len(refs))
    except BaseException:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise
    return results
