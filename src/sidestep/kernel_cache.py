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
leaves nothing to compile. The biggest entry kernels are split: a few large
parts of them (:data:`PARTS`) are compiled first, in parallel, and the
entry kernel after them, loading those parts from the cache instead of
compiling them itself (a cached kernel keeps its LLVM bitcode beside its
machine code, so its callers still inline it as before). On two cores this
takes the first demo's compile from one kernel's 14 s to about 10 s.

A worker exits as soon as the process that started it is gone, even killed
with SIGKILL mid-compile (a test runner's timeout, an IDE's stop button),
instead of living on, orphaned, with a compiler's memory
(:func:`_exit_with_parent`).

>>> from sidestep.kernel_cache import KERNELS, COMMANDS
>>> sorted(COMMANDS["demo"]) == sorted(set(COMMANDS["demo"]) & set(KERNELS))
True
"""
import ctypes
import importlib
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

#: Entry kernels (called from Python), by ``module:function``, with their
#: argument types (``f`` float64, ``i`` int64, ``F1``/``F2`` C-contiguous
#: float64 arrays of 1 and 2 dimensions (``F3``: 3), ``R1`` a read-only ``F1`` (a
#: volume's packed row), ``I1`` int64, ``J1`` int32, ``C1`` int8, ``B1``/``B2``
#: bool, ``U1``/``U2`` uint8, ``I2`` int64 2D, ``b`` a bool, ``W`` the packed 2D world that
#: ``world:unpack_world`` makes, ``P3`` the packed 3D world (a ``Packed3D``),
#: ``K3`` a character's frame state (``kernels3d.character.FrameState``), ``T3`` the
#: bodies' table a frame's characters share (``kernels3d.carry.BodyTableState``),
#: ``L0`` the literal integer 0) and a rough weight (seconds of one core) to
#: start the longest first. Parts of entry kernels (:data:`PARTS`) are listed
#: too, with the types their caller passes them. A bare module is one of
#: ``sidestep.kernels``; a dotted one is under ``sidestep``
#: (``kernels3d.moves``).
KERNELS: dict[str, tuple[str, float]] = {
    "moves:move_packed": ("F1 U1 F1 f f f f", 6),
    "carry:carry_packed": ("F1 U1 F1 f f f", 3),
    "carry:carry_agents": ("F1 U1 F2 F1 f f f f f i U1 F2 U1 I1", 3),
    "carry:hot_cells": ("F1 U1 f f f f U1", 0.4),
    "moves:move_agents": ("F1 U1 F2 F2 F1 i f f f f i F2 I1", 5),
    "pairs:close_pairs_capsules": ("F2 I1 B1 f f", 10),
    "world:nearest_points": ("F1 U1 F2 I1 F1 F2 F2 I1", 3),
    "world:raycast_points": ("F1 U1 F2 F2 F1 I1 F1 F2 F2 I1", 8),
    "world:overlapping_owners": ("F1 U1 f f f", 7),
    "cast:cast_points": ("F1 U1 F2 F2 F1 f I1 F1 F2 F2 I1", 4.5),
    "index:fill_index_capsules": ("f f f i i F2 f", 2),
    "index:frame_capsules": ("F2 F2 f", 0.3),
    "index:fill_index_boxes": ("f f f i i F2", 1),
    "grid:pyramid_grid": ("U2", 1),
    "grid:boundary_edges_grid": ("B2 f f f", 1),
    "polygon:first_crossing_polygon": ("F2", 1),
    "polygon:signed_area_polygon": ("F2", 0.5),
    "moves:recover": ("W f f f f f F1 I1", 2),
    "world:inside_areas": ("W f f I1 L0", 2.2),
    "moves:_gather": ("W f f f f f f f F1 I1", 1.9),
    "moves:_seams": ("W f f f f i F1 I1", 0.6),
    "moves:_seam_row": ("W i f f f i F1 I1", 0.5),
    "moves:_separation_far": ("W f f I1", 1.4),
    "world:penetrations": ("W f f f f F1 I1", 0.7),
    "world:probe_point": ("W f f f I1", 0.6),
    "moves:_sweep": ("W f f f f f f i I1", 0.7),
    "moves:_pressed": ("W f f f f f f F1 I1 i i", 0.5),
    "moves:push": ("W f f f f f F1 I1 F2", 0.7),
    "moves:block": ("W f f f f f F1 I1 F2", 0.6),
    "world:separation_item": ("W i f f", 0.4),
    # Crowds (2D): the step calls a move per agent, as move_agents does.
    "crowd:crowd_step": ("F1 U1 F2 F1 F1 F2 F2 F2 F2 I1 I1 f f f i i f f i f f f f f i i F2 F2 F2 "
                         "F2 I1 I1 U1 U1 U1 F2 I1 I1 F2 F2 I1 F3 I2 I1 I1", 5),
    "crowd:redo_rows": ("F1 U1 F2 F2 I1 I1 f f f i i f f i f f f f f i U1 U1 U1 F2 I1 I1 F2 "
                        "F2 I1 F3 I1 I1 I1", 3),
    "follow:failing_follows": ("F2 F2 I1 F3 f f I1", 0.5),
    "push:push_plans": ("F2 F1 F1 F2 f f f f i i I1 I1 F2 F1 F1 b F2 F1", 0.5),
    "push:pushed_rows": ("F2", 0.1),
    "crowd:grid_agents": ("F2 f", 0.2),
    "crowd:grid_frame": ("F2 f", 0.1),
    "crowd:open_to_bodies": ("F1 U1 U1 f f f i i f f f f f", 0.5),
    "crowd:step_figures": ("F2 F2 F1", 0.2),
    "crowd:longest": ("F2", 0.1),
    "crowd:touching_pairs": ("F2 F1 f f f i i I1 I1 f", 0.8),
    "avoid:avoid_rows": ("F2 F1 F1 F2 F2 f f f i i I1 I1 F2 f f f i i f f i f F2 I1", 1.5),
    "avoid:flow_bins": ("F2 F2 f f f i i", 0.2),
    # 3D: building a world, moving, casting, the character.
    "kernels3d.mesh:face_normals": ("F2 I2", 0.6),
    "kernels3d.mesh:active_edges": ("F2 I2 f", 1.3),
    "kernels3d.world:primitive_boxes": ("I1 F2 F2 I1", 0.3),
    "kernels3d.bvh:_build": ("F2 i", 7.4),
    "kernels3d.world:translate_primitives": ("F2 F2 I1 I1 I2 F1", 0.1),
    # 3D bodies: a pose's rotations, the store's parts, the packed world's.
    "poses:check_poses": ("I1 i F2 f U1", 0.2),
    "poses:record_poses_2d": ("I1 F2 F1 f i F2 F2 F1 F2 F3 F2 F3 F1 I1 F1 i b", 0.4),
    "poses:pose_bodies_2d": ("I1 F2 I1 F2 I1 I1 I1 F2 I1 I1 F2 I1 I1 I1 I1 I2 I1 F2 F2 F2 F2 F2 "
                             "F1 i i i i i b", 0.6),
    "kernels3d.poses:quaternion_matrices": ("F2 f F3", 0.2),
    "kernels3d.poses:pose_bodies_3d": ("I1 F3 F2 I1 I1 I1 I1 F2 I1 I1 F2 F2 F2", 0.5),
    "kernels3d.poses:drift": ("I1 F3 F2 F2 F2", 0.2),
    "kernels3d.poses:turns": ("F3 F3", 0.3),
    "kernels3d.poses:pose_packed": ("I1 F3 F2 I1 I1 I1 I1 F2 I1 I1 F2 P3 F2 I1", 1.5),
    "kernels3d.world:separation_prim": ("P3 i f f f f f f", 6),
    "kernels3d.world:sweep_prim": ("P3 i f f f f f f f f f f f f", 5.5),
    "kernels3d.moves:_gather": ("P3 f f f f i f f f f f f F1 I1 I1 i", 1.5),
    "kernels3d.moves:recover": ("P3 f f f f i f f f F1 I1 I1", 2),
    "kernels3d.moves:slide": ("P3 f f f f f f f i f f f f f i F1 I1 I1 F2", 3),
    "kernels3d.moves:push": ("P3 f f f f f f f i f F1 I1 I1 F2", 1),
    "kernels3d.moves:move_agent": ("P3 f f f f f f f f i i f f f f i F1 I1 F2", 1.5),
    "kernels3d.moves:move_agents": ("P3 F2 F2 F1 F1 i i f f f f i F2 I1", 1.5),
    # Crowds (3D): the 2D grid (crowd:grid_agents) over the horizontal axes.
    "kernels3d.crowd:crowd_step": ("P3 F2 F1 F1 F1 F2 F2 F2 F2 I1 I1 f f f i i i f f i f f f f "
                                   "f i f i F2 F2 F2 F2 I1 I1 F2 F2 U1 U1 F2 I1 I1 F2 F2 I1 F3 "
                                   "I2 I1 I1", 3),
    "kernels3d.crowd:redo_rows": ("P3 F2 F2 I1 I1 f f f i i i f f i f f f f f i f U1 U1 F2 I1 "
                                  "I1 F2 F2 I1 F3 I1 I1 I1", 2),
    "kernels3d.crowd:touching_pairs": ("F2 F1 F1 i f f f i i I1 I1 f", 0.8),
    "kernels3d.world:raycast_points": ("P3 F2 F2 F1 I1 i I1 I1 I1 F1 F2 F2 I1", 4),
    "kernels3d.world:raycast_points_triangles": ("P3 F2 F2 F1 I1 i I1 I1 I1 F1 F2 F2 I1", 2),
    "kernels3d.world:ray_order": ("F2", 0.6),
    "kernels3d.cast:cast_rows": ("P3 F2 F2 F1 F1 I1 i f F1 I1 I1 F2 F2 I1", 2),
    "kernels3d.world:nearest_points": ("P3 F2 I1 I1 F1 F2 F2 I1", 1.6),
    "kernels3d.world:overlapping_owners": ("P3 f f f f f i", 0.5),
    "kernels3d.character:classify": ("P3 F1 f f f f i f F1 I1 I1 F2", 0.5),
    "kernels3d.character:update_character": ("P3 U1 I1 F1 f f f f F1 I1 F2", 4),
    "kernels3d.character:frame_state": ("P3 F1 F1 I1 F2", 0.3),
    "kernels3d.character:update_frame": ("K3 f f f f", 0.5),
    "kernels3d.character:update_characters": ("P3 T3 F2 F3 I1 F2 I1 I1 i f I1 F2 I1 I1",
                                              5),
    "kernels3d.character:unsqueeze": ("P3 F1 F1 I1 I1", 0.5),
    "kernels3d.carry:bodies_near": ("I1 F2 F1 I1 I1 i i f f f f", 0.2),
    "kernels3d.carry:reach_cells": ("F2", 0.3),
    "kernels3d.carry:reach_boxes": ("I1 F2 F2 I1 I1 I1 F2 F2 F1", 0.3),
    "kernels3d.carry:body_table_state": ("U1 I1 I1 F2 F1 I1 I1 U1 F1 F2 F3 F2 F2 I1 I1 I1 I1 F2 "
                                         "I1", 0.3),
    "kernels3d.carry:push_character": ("K3 T3 i i b f f f f f f i f f f f i", 4),
    "kernels3d.carry:ride_of": ("T3 i F1 i i i", 0.2),
    # Bounding volumes: one pair, many items (culling), world queries.
    "kernels3d.volumes:contains_pair": ("R1 R1 f F2", 3),
    "kernels3d.volumes:intersects_pair": ("R1 R1 f F2", 2.5),
    "kernels3d.volumes:distance_along": ("R1 R1 f", 1.5),
    "kernels3d.volumes:distances_rows": ("R1 F2 F2 F1 f F1 I1", 1.5),
    "kernels3d.volumes:unit_direction": ("f f f", 0.2),
    "kernels3d.volumes:contains_rows": ("R1 F2 f C1 I1", 3),
    "kernels3d.volumes:enclosing_sphere": ("F2 b", 0.5),
    "kernels3d.culling:prepare_polytope": ("R1 i", 0.3),
    "kernels3d.culling:boxes_polytope": ("F1 R1 F2 F2 f f C1 I1", 2.5),
    "kernels3d.culling:spheres_polytope": ("F1 R1 F2 F1 f f C1 I1", 2),
    "kernels3d.culling:spheres_rounded": ("R1 F2 F1 f f C1 I1", 1),
    "kernels3d.culling:boxes_generic": ("R1 f F2 F2 f f C1 I1", 3),
    "kernels3d.culling:spheres_generic": ("R1 f F2 F1 f f C1 I1", 3),
    "query:owners_in_box": ("F1 U1 f f f f U1 I1", 0.3),
    "kernels3d.query:query_tree": ("P3 R1 F1 F1 F1 f f C1 J1 I1", 4),
}

#: Parts compiled before the entry kernels that call them (which then load
#: them from the cache): the big branches of a 2D move's compile.
_MOVE_PARTS = ("moves:recover", "world:inside_areas", "moves:_gather", "moves:_sweep",
               "moves:_pressed", "moves:_seam_row", "moves:push", "moves:block")
PARTS: dict[str, tuple[str, ...]] = {
    "moves:move_packed": _MOVE_PARTS,
    "moves:move_agents": _MOVE_PARTS,
    "moves:recover": ("moves:_separation_far", "world:penetrations", "world:probe_point"),
    "world:penetrations": ("world:inside_areas", "world:separation_item"),
    "world:probe_point": ("world:inside_areas", "world:separation_item"),
    "moves:_gather": ("world:separation_item", "moves:_seams"),
    "moves:_seams": ("world:separation_item",),
    "moves:_seam_row": ("world:separation_item",),
    "world:nearest_points": ("world:probe_point",),
    "cast:cast_points": ("world:inside_areas", "world:separation_item"),
    "crowd:crowd_step": _MOVE_PARTS,
    "crowd:redo_rows": _MOVE_PARTS,
    "kernels3d.moves:_gather": ("kernels3d.world:separation_prim", "kernels3d.world:sweep_prim"),
    "kernels3d.moves:recover": ("kernels3d.world:separation_prim",),
    "kernels3d.moves:slide": ("kernels3d.moves:_gather", "kernels3d.moves:recover"),
    "kernels3d.moves:push": ("kernels3d.world:separation_prim",),
    "kernels3d.moves:move_agent": ("kernels3d.moves:slide", "kernels3d.moves:push"),
    "kernels3d.moves:move_agents": ("kernels3d.moves:slide", "kernels3d.moves:push"),
    "kernels3d.crowd:crowd_step": ("kernels3d.moves:slide", "kernels3d.moves:push"),
    "kernels3d.crowd:redo_rows": ("kernels3d.moves:slide", "kernels3d.moves:push"),
    "kernels3d.world:overlapping_owners": ("kernels3d.world:separation_prim",),
    "kernels3d.cast:cast_rows": ("kernels3d.world:separation_prim", "kernels3d.world:sweep_prim"),
    "kernels3d.character:classify": ("kernels3d.world:separation_prim",),
    "kernels3d.character:update_character": ("kernels3d.moves:slide",
                                             "kernels3d.character:classify"),
    "kernels3d.character:update_frame": ("kernels3d.character:update_character",),
    "kernels3d.character:update_characters": ("kernels3d.character:update_character",),
    "kernels3d.character:unsqueeze": ("kernels3d.moves:recover",),
}

#: Kernels each command calls (the demo's world has circles and walls only,
#: so it fills the index but builds no grid pyramid; the level commands read
#: any family).
_INDEX = ["index:frame_capsules", "index:fill_index_capsules", "index:fill_index_boxes"]
_BUILD = _INDEX + ["grid:pyramid_grid"]
_LEVEL = _BUILD + ["grid:boundary_edges_grid", "polygon:first_crossing_polygon",
                   "polygon:signed_area_polygon"]
COMMANDS: dict[str, list[str]] = {
    "demo": _INDEX + ["moves:move_packed", "world:nearest_points"],
    "render": _LEVEL + ["world:nearest_points"],
    "walk": _LEVEL + ["moves:move_agents", "world:nearest_points"],
    "check": _LEVEL + ["pairs:close_pairs_capsules", "world:overlapping_owners",
                       "world:nearest_points"],
    "play": _LEVEL + ["moves:move_packed", "world:nearest_points", "crowd:crowd_step",
                      "crowd:redo_rows", "follow:failing_follows", "push:push_plans",
                      "push:pushed_rows", "moves:move_agents",
                      "crowd:grid_agents", "crowd:step_figures", "crowd:open_to_bodies",
                      "carry:carry_packed", "carry:carry_agents", "carry:hot_cells"],
    "demo3d": ["kernels3d.mesh:face_normals", "kernels3d.mesh:active_edges",
               "kernels3d.world:primitive_boxes", "kernels3d.bvh:_build",
               "kernels3d.moves:move_agent", "kernels3d.world:raycast_points",
               "kernels3d.world:raycast_points_triangles",
               "kernels3d.world:nearest_points", "kernels3d.world:overlapping_owners",
               "kernels3d.character:update_character", "kernels3d.character:frame_state",
               "kernels3d.character:update_frame"],
    "warmup": list(KERNELS),
}
#: ``check`` of a 3D level: floors cast down, capsules tested, characters swept.
COMMANDS["check3d"] = list(COMMANDS["demo3d"])
#: ``walk`` of a 3D level: batched moves under gravity.
COMMANDS["walk3d"] = [k for k in COMMANDS["demo3d"]
                      if not k.startswith("kernels3d.character:")] + \
    ["kernels3d.moves:move_agents"]
#: The corridor's spring-arm camera (``demo --3d --corridor``) casts a sphere.
COMMANDS["demo3d"].append("kernels3d.cast:cast_rows")


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
    compiled: tuple[str, ...]
    cached: tuple[str, ...]
    processes: int
    seconds: float


def _types() -> dict[str, Any]:
    from numba import types

    def array(dtype: Any, ndim: int) -> Any:
        return types.Array(dtype, ndim, "C")

    return {"f": types.float64, "i": types.int64, "b": types.boolean,
            "F1": array(types.float64, 1), "F2": array(types.float64, 2),
            "F3": array(types.float64, 3),
            "R1": types.Array(types.float64, 1, "C", readonly=True),
            "I1": array(types.int64, 1), "J1": array(types.int32, 1),
            "C1": array(types.int8, 1), "B1": array(types.boolean, 1),
            "B2": array(types.boolean, 2), "U1": array(types.uint8, 1),
            "U2": array(types.uint8, 2),
            "I2": array(types.int64, 2), "L0": types.literal(0)}


def packed3d_type() -> Any:
    """The Numba type of a :class:`~sidestep.kernels3d.world.Packed3D` (any world's: it
    holds only arrays and whole numbers), made without packing one (which compiles)."""
    from numba import types

    from .kernels3d.bvh import BVH
    from .kernels3d.world import Packed3D

    def array(dtype: Any, ndim: int) -> Any:
        return types.Array(dtype, ndim, "C")

    i64, f64, i32 = types.int64, types.float64, types.int32
    tree = types.NamedTuple([array(f64, 2), array(i32, 2), array(i32, 1), array(i32, 1),
                             array(i32, 1), i64, i64], BVH)
    return types.NamedTuple([array(i64, 1), array(i64, 1), array(i64, 1), array(f64, 2),
                             array(f64, 2), array(i64, 1), array(types.uint8, 1),
                             array(i64, 1), tree, array(f64, 2)], Packed3D)


def _world_type(compile: bool) -> Any:
    # The packed 2D world's Numba type: the return type of unpack_world,
    # loaded from the cache, or compiled if ``compile`` (None if neither).
    from .kernels.world import unpack_world

    signature = (_types()["F1"], _types()["U1"])
    if signature not in unpack_world.overloads:
        if not (compile or _in_cache(unpack_world, signature)):
            return None
        unpack_world.compile(signature)
    return unpack_world.overloads[signature].signature.return_type


def kernel(name: str, compile: bool = True) -> tuple[Any, tuple[Any, ...] | None]:
    """The dispatcher and argument types of kernel ``name`` (``module:function``).

    A kernel taking the packed world (``W``) needs that type, which this
    compiles (``unpack_world``, half a second) unless the cache holds it;
    with ``compile=False`` the types are None instead.
    """
    module, function = name.split(":")
    package = "sidestep." if "." in module else "sidestep.kernels."
    dispatcher = getattr(importlib.import_module(package + module), function)
    names = _types()
    codes = KERNELS[name][0].split()
    if "P3" in codes or "K3" in codes:
        names["P3"] = packed3d_type()
    if "K3" in codes:
        from .kernels3d.character import frame_state_type
        names["K3"] = frame_state_type(names["P3"])
    if "T3" in codes:
        from .kernels3d.carry import body_table_type
        names["T3"] = body_table_type()
    if "W" in codes:
        names["W"] = _world_type(compile)
        if names["W"] is None:
            return dispatcher, None
    return dispatcher, tuple(names[t] for t in codes)


def _in_cache(dispatcher: Any, signature: tuple[Any, ...]) -> bool:
    try:
        cache = dispatcher._cache
        key = cache._index_key(signature, dispatcher.targetctx.codegen())
        return key in cache._cache_file._load_index()
    except (AttributeError, OSError, TypeError, ValueError, EOFError):
        return False


def is_cached(name: str) -> bool:
    """Whether Numba's cache holds entry kernel ``name`` for its signature (False if unknown).

    Reads the kernel's cache index only (and, for a kernel taking the packed
    world, loads ``unpack_world`` from the cache); compiles nothing.
    """
    dispatcher, signature = kernel(name, compile=False)
    if signature is None:
        return False
    return signature in dispatcher.overloads or _in_cache(dispatcher, signature)


def _compile(name: str) -> str:
    # In a worker: compile one kernel (Numba saves it, and every kernel it
    # calls, in the cache); return its name.
    dispatcher, signature = kernel(name)
    dispatcher.compile(signature)
    return name


#: ``prctl`` option (``<linux/prctl.h>``): the signal a process gets when its parent dies.
_PR_SET_PDEATHSIG = 1
#: Seconds between a worker's checks that its parent lives (where no signal tells it).
PARENT_POLL = 0.5


def _exit_with_parent(parent: int, signal_on_linux: bool = True) -> None:
    """Make this process (a compile worker) exit once process ``parent`` is gone.

    The pool's worker processes wait for work on a queue whose write end
    each of them holds too, so nothing wakes them when the parent dies: a
    parent killed by SIGKILL would leave them running, then waiting, for as
    long as the machine runs. Two guards, the first where the system has it:

    - Linux: ``prctl(PR_SET_PDEATHSIG, SIGKILL)``, so the kernel kills this
      process the moment its parent exits; then a check that the parent is
      still ``parent``, for a parent that died before the ``prctl`` (this
      process then belongs to init or a subreaper already and no signal
      would come);
    - anywhere (macOS, Windows, and Linux without ``prctl``): a daemon
      thread that wakes when the parent's sentinel says it is gone (the
      pipe or handle :mod:`multiprocessing` gives a child it spawned), and
      at least every :data:`PARENT_POLL` seconds checks
      ``os.getppid()``, and ends this process with ``os._exit``.

    ``PR_SET_PDEATHSIG`` fires when the *thread* that started this process
    ends: :func:`warmup` starts its workers from the thread that waits for
    them, so that is the parent's lifetime here.

    Parameters
    ----------
    parent : int
        The process id of the parent, as it gave it (``os.getpid()`` there).
    signal_on_linux : bool
        Ask Linux for the signal (the tests turn it off to try the thread alone).
    """
    if signal_on_linux and sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):
            pass    # no prctl: the thread below still watches
    if os.getppid() != parent:
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), name="sidestep-parent-watch",
                     daemon=True).start()


def _watch_parent(parent: int) -> None:
    # A worker's watchdog: end the process once its parent is gone.
    import multiprocessing

    sentinel = multiprocessing.parent_process()   # None unless started by multiprocessing
    while os.getppid() == parent and (sentinel is None or sentinel.is_alive()):
        if sentinel is None:
            time.sleep(PARENT_POLL)
        else:
            sentinel.join(PARENT_POLL)    # returns at once when the parent goes
    os._exit(1)


def _cores() -> int:
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def warmup(kernels: Iterable[str] | None = None, processes: int | None = None,
           on_start: Callable[[list[str], int], object] | None = None) -> Warmup:
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
    names = _with_parts(names)
    missing = [n for n in names if not is_cached(n)]
    cached = tuple(n for n in names if n not in missing)
    workers = min(len(missing), processes or _cores())
    if missing and on_start is not None:
        on_start(missing, workers)
    order = _schedule(missing)
    done: list[str] = []
    if workers > 1:
        import multiprocessing

        # spawn: a fresh interpreter per worker, whatever threads this one runs;
        # each exits when this process is gone, however it ends.
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                                 initializer=_exit_with_parent,
                                 initargs=(os.getpid(),)) as pool:
            running: set[Future[str]] = set()
            while order or running:
                # Keep every worker busy with the most urgent kernel whose parts are done.
                for name in [n for n in order if _ready(n, done, missing)]:
                    if len(running) == workers:
                        break
                    order.remove(name)
                    running.add(pool.submit(_compile, name))
                finished, running = wait(running, return_when=FIRST_COMPLETED)
                done.extend(future.result() for future in finished)
    else:
        done = [_compile(n) for n in order]
    return Warmup(tuple(done), cached, workers if workers > 1 else 0,
                  time.perf_counter() - start)


def _with_parts(names: Iterable[str], out: list[str] | None = None) -> list[str]:
    # The names, each kernel's parts (and theirs) before it.
    out = [] if out is None else out
    for name in names:
        _with_parts(PARTS.get(name, ()), out)
        if name not in out:
            out.append(name)
    return out


def _ready(name: str, done: list[str], missing: list[str]) -> bool:
    return all(part in done or part not in missing for part in PARTS.get(name, ()))


def _schedule(missing: list[str]) -> list[str]:
    # Most urgent first: the longest chain of compiling that starts with the
    # kernel (its own weight plus that of the heaviest kernel waiting for it).
    def chain(name: str) -> float:
        after = [k for k in missing if name in PARTS.get(k, ())]
        return KERNELS[name][1] + max((chain(k) for k in after), default=0.0)

    return sorted(missing, key=lambda n: -chain(n))
