"""Numba kernels: all of sidestep's geometry, once, on plain floats and arrays.

One module per obstacle family (``circle``, ``segment``, ``box``, ``polygon``,
``grid``) holds that family's functions, named ``<query>_<agent>_<family>``.
``index`` is the uniform-grid broadphase (``query`` reads it for the
obstacles under a bounding volume's box), ``world`` the packed world and the
queries over it, ``planes`` the contact-plane solver, ``moves`` the four
movement modes (``slide`` is collide-and-slide) and their batch driver,
``pairs`` obstacle-to-obstacle distances (for level checks), ``borrow``
the reference-count-free array views the hot kernels read through,
``row_queue`` the shared counter batch threads take rows from,
``prefetch`` the memory hints batch moves give a few agents ahead, and
``astar`` and ``corridor`` the path finding of :mod:`sidestep.paths` (A* on
grids and navmeshes, the funnel).

Compile time: the first call of an entry kernel compiles it and everything it
calls (Numba caches the result; see :mod:`sidestep.kernel_cache`). The hot
path's big pieces (``slide``, its ``_gather`` and ``_sweep`` passes, and the
mode switch ``move_agent``) are inlined by LLVM (``forceinline=True``), not
by Numba (``inline="always"``, which types and lowers the inlined body again
in every caller: it made the batch move recompile the whole slide, 8 s more
for a first ``move_many``); LLVM still inlines them into each caller. Numba hands a
caller's ``forceinline`` on to every kernel first compiled from inside it,
so every other kernel says ``forceinline=False``. ``inline="always"`` stays
on the small accessors only.
"""
