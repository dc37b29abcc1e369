"""Compiling sidestep's kernels ahead of time, several at once, into Numba's cache.

The first call of each kernel on a machine compiles it (seconds each; all of
them take about a minute of one core), and Numba caches the result on disk
(``__pycache__`` beside the sources, or ``NUMBA_CACHE_DIR``), so later
processes load it in milliseconds. :func:`warmup` compiles the kernels the
Python API and the commands call, each in a worker process of its own, as
many at once as there are cores, and returns once the cache holds them all;
the calling process then loads them instead of compiling. A deployment runs
it once (``sidestep warmup``, or ``python -m sidestep warmup``) when it
installs sidestep, with the cache where the program will look for it.

Each entry kernel is compiled for the one signature the API passes it
(:data:`KERNELS`), the same one a call would ask for, so a warmed cache
leaves nothing to compile.

>>> from sidestep.kernel_cache import KERNELS, COMMANDS
>>> sorted(COMMANDS["demo"]) == sorted(set(COMMANDS["demo"]) & set(KERNELS))
True
"""
import importlib
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass

#: Entry kernels (called from Python), by ``module:function``, with their
#: argument types (``f`` float64, ``i`` int64, ``F1``/``F2`` C-contiguous
#: float64 arrays of 1 and 2 dimensions, ``I1`` int64, ``B1``/``B2`` bool,
#: ``U2`` uint8) and a rough weight (seconds of one core) to start the
#: longest first.
KERNELS = {
    "moves:move_packed": ("F1 F1 f f f f", 20),
    "moves:move_agents": ("F1 F2 F2 F1 i f f f f i F2 I1", 18),
    "pairs:close_pairs_capsules": ("F2 I1 B1 f f", 10),
    "world:nearest_points": ("F1 F2 I1 F1 F2 F2 I1", 8),
    "world:raycast_points": ("F1 F2 F2 F1 I1 F1 F2 F2 I1", 8),
    "world:overlapping_owners": ("F1 f f f", 7),
    "index:fill_index_capsules": ("f f f i i F2 f", 2),
    "index:fill_index_boxes": ("f f f i i F2", 1),
    "grid:pyramid_grid": ("U2", 1),
    "grid:boundary_edges_grid": ("B2 f f f", 1),
    "polygon:first_crossing_polygon": ("F2", 1),
    "polygon:signed_area_polygon": ("F2", 0.5),
}

#: Kernels each command calls (the demo's world has circles and walls only;
#: the level commands read any family).
_BUILD = ["index:fill_index_capsules", "index:fill_index_boxes", "grid:pyramid_grid"]
_LEVEL = _BUILD + ["grid:boundary_edges_grid", "polygon:first_crossing_polygon",
                   "polygon:signed_area_polygon"]
COMMANDS = {
    "demo": _BUILD + ["moves:move_packed", "world:nearest_points"],
    "render": _LEVEL + ["world:nearest_points"],
    "walk": _LEVEL + ["moves:move_agents", "world:nearest_points"],
    "check": _LEVEL + ["pairs:close_pairs_capsules", "world:overlapping_owners",
                       "world:nearest_points"],
    "warmup": list(KERNELS),
}


@dataclass(frozen=True)
class Warmup:
    """What :func:`warmup` did.

    Attributes
    ----------
    compiled : tuple of str
        Kernels compiled (``module:function``), in the order they finished.
    cached : tuple of str
        Kernels the cache already held.
    processes : int
        Worker processes used (0: none, everything was cached or compiled here).
    seconds : float
        Wall time.
    """
    compiled: tuple
    cached: tuple
    processes: int
    seconds: float


def _types():
    from numba import types

    def array(dtype, ndim):
        return types.Array(dtype, ndim, "C")

    return {"f": types.float64, "i": types.int64,
            "F1": array(types.float64, 1), "F2": array(types.float64, 2),
            "I1": array(types.int64, 1), "B1": array(types.boolean, 1),
            "B2": array(types.boolean, 2), "U2": array(types.uint8, 2)}


def kernel(name):
    """The dispatcher and argument types of entry kernel ``name`` (``module:function``)."""
    module, function = name.split(":")
    dispatcher = getattr(importlib.import_module(f"sidestep.kernels.{module}"), function)
    names = _types()
    return dispatcher, tuple(names[t] for t in KERNELS[name][0].split())


def is_cached(name):
    """Whether Numba's cache holds entry kernel ``name`` for its signature (False if unknown).

    Reads the kernel's cache index only; loads nothing.
    """
    dispatcher, signature = kernel(name)
    if signature in dispatcher.overloads:
        return True
    try:
        cache = dispatcher._cache
        key = cache._index_key(signature, dispatcher.targetctx.codegen())
        return key in cache._cache_file._load_index()
    except (AttributeError, OSError, TypeError, ValueError, EOFError):
        return False


def _compile(name):
    # In a worker: compile one kernel (Numba saves it, and every kernel it
    # calls, in the cache); return its name.
    dispatcher, signature = kernel(name)
    dispatcher.compile(signature)
    return name


def _cores():
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def warmup(kernels=None, processes=None, on_start=None):
    """Fill Numba's cache with sidestep's kernels, compiling the missing ones in parallel.

    Parameters
    ----------
    kernels : iterable of str, optional
        Entry kernels (keys of :data:`KERNELS`); all of them by default. A
        command's list is ``COMMANDS[command]``.
    processes : int, optional
        Worker processes at most; the number of cores by default. With 1,
        or one kernel to compile, it is compiled in this process.
    on_start : callable, optional
        Called as ``on_start(missing, processes)`` before compiling anything,
        e.g. to tell the user; not called when everything is cached.

    Returns
    -------
    Warmup

    Notes
    -----
    The workers write the cache where this process reads it
    (``NUMBA_CACHE_DIR`` if set, else ``__pycache__`` beside sidestep's
    sources), so that place must be writable. This process loads each
    kernel from there on its first call, as any other would.
    """
    start = time.perf_counter()
    names = list(KERNELS) if kernels is None else list(dict.fromkeys(kernels))
    unknown = [n for n in names if n not in KERNELS]
    if unknown:
        raise ValueError(f"kernels: unknown kernel {unknown[0]!r}; known: {', '.join(KERNELS)}")
    if processes is not None and (not isinstance(processes, int) or processes < 1):
        raise ValueError(f"processes must be a whole number >= 1, got {processes!r}")
    missing = sorted((n for n in names if not is_cached(n)), key=lambda n: -KERNELS[n][1])
    cached = tuple(n for n in names if n not in missing)
    workers = min(len(missing), processes or _cores())
    if missing and on_start is not None:
        on_start(missing, workers)
    done = []
    if workers > 1:
        import multiprocessing

        # spawn: a fresh interpreter per worker, whatever threads this one runs.
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) \
                as pool:
            for future in as_completed([pool.submit(_compile, n) for n in missing]):
                done.append(future.result())
    else:
        done = [_compile(n) for n in missing]
    return Warmup(tuple(done), cached, workers if workers > 1 else 0,
                  time.perf_counter() - start)
