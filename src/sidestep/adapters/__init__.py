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

The Gymnasium environments are :mod:`sidestep.gym` (extra ``gym``).
"""
