"""Numba kernels: all of sidestep's geometry, once, on plain floats and arrays.

One module per obstacle family (``circle``, ``segment``, ``box``, ``polygon``,
``grid``) holds that family's functions, named ``<query>_<agent>_<family>``.
``index`` is the uniform-grid broadphase, ``world`` the packed world and the
queries over it, ``planes`` the contact-plane solver, ``moves`` the four
movement modes (``slide`` is collide-and-slide) and their batch driver,
``pairs`` obstacle-to-obstacle distances (for level checks), ``borrow``
the reference-count-free array views the hot kernels read through,
``row_queue`` the shared counter batch threads take rows from,
``prefetch`` the memory hints batch moves give a few agents ahead, and
``astar`` and ``corridor`` the path finding of :mod:`sidestep.paths` (A* on
grids and navmeshes, the funnel).
"""
