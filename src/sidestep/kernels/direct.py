"""Calling a compiled kernel for one signature without Numba's dispatcher.

The dispatcher works out the type of every argument on every call, in
Python; for a per-frame call that is a large part of the cost (a quarter of
a 2D step, more for a 3D world, a named tuple of arrays whose type it builds
field by field). The Python API always passes an entry kernel the same
argument types (the one :data:`sidestep.kernel_cache.KERNELS` registers), so it
can call the machine code compiled for them directly. Both halves use this:
:func:`sidestep.kernels.moves.move_packed_direct` and
:func:`sidestep.kernels3d.character.update_frame_direct`.
"""
from collections.abc import Callable
from typing import Any


def entry_point(dispatcher: Any, signature: tuple[Any, ...]) -> Callable[..., Any]:
    """The compiled ``dispatcher`` for ``signature`` (Numba types), as a plain callable.

    Compiles it (or loads it from the cache) first. The callable takes
    exactly those types and checks nothing: a caller passing anything else
    gets garbage or a crash, so only the API's own fixed calls use it. Falls
    back to the dispatcher itself if this Numba keeps its compiled functions
    elsewhere.
    """
    try:
        dispatcher.compile(signature)
        return dispatcher.overloads[signature].entry_point  # type: ignore[no-any-return]
    except (AttributeError, KeyError, TypeError):
        return dispatcher  # type: ignore[no-any-return]


def registered(name: str) -> Callable[..., Any]:
    """:func:`entry_point` of entry kernel ``name`` (``module:function``) for the signature
    :data:`sidestep.kernel_cache.KERNELS` registers for it (the one the API passes)."""
    from ..kernel_cache import kernel

    return entry_point(*kernel(name))
