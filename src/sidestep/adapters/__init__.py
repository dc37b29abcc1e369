"""Drop-in glue between sidestep and the game engines people use.

Each adapter is its own module and its own extra, so the core keeps depending on
NumPy and Numba only; importing ``sidestep`` never imports an engine.

``sidestep.adapters.pygame``
    A :class:`~sidestep.World2D` from pygame ``Rect``/``FRect`` lists and Tiled maps,
    and a per-frame ``move(rect, dx, dy)`` (extra ``pygame``).
``sidestep.adapters.arcade``
    Replacements for arcade's ``PhysicsEngineSimple`` and ``PhysicsEnginePlatformer``
    with the same constructor and ``update()`` contract (extra ``arcade``).
``sidestep.adapters.panda3d``
    A :class:`~sidestep.World3D` from a NodePath's collision solids or visible
    geometry, and a first-person controller as a Panda3D task, for Panda3D and
    ursina (extra ``panda3d``).
``sidestep.adapters.first_person``
    The first-person controller itself, engine-free: WASD, mouse-look and jump
    on :class:`~sidestep.Character`, one ``update(dt, keys, mouse_delta)`` a frame.

The 2D adapters share an engine-free core for players that are rectangles:

``sidestep.adapters.rects``
    :class:`~sidestep.adapters.rects.RectWorld`: axis-aligned rects moving through a
    ``World2D`` as their centre in the world grown by the rect (any mode; the
    caller's obstacle ids in every answer).
``sidestep.adapters.minkowski``
    Each family of obstacles grown by a rect (boxes, grids, convex and concave
    polygons exactly; circles and rounded walls by polygons that contain them).
``sidestep.adapters.outline``
    The outline of a union of boxes as one-sided walls, so a rect sliding over a
    floor of tiles meets no seam.
``sidestep.adapters.grown``
    One rect size's grown worlds (where the centre moves, and the solid pieces)
    and whose pieces are whose.

The Gymnasium environments are :mod:`sidestep.gym` (extra ``gym``).
"""
