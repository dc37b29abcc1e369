"""Numba kernels: all of sidestep's geometry, once, on plain floats and arrays.

One module per obstacle family (``circle``, ``segment``, ``box``, ``polygon``,
``grid``) holds that family's functions, named ``<query>_<agent>_<family>``.
``index`` is the uniform-grid broadphase, ``world`` the queries over a whole
world, ``planes`` the contact-plane solver, and ``moves`` the four movement
modes (``slide`` is collide-and-slide) and their batch driver.
"""
