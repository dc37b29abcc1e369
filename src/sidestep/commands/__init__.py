"""What the ``sidestep`` command does, one module per subcommand, on loaded levels.

Each module works on a :class:`~sidestep.level.Level` (or a
:class:`~sidestep.World2D`) and returns plain results, so notebooks and tests
call it without files; :mod:`sidestep.cli` reads the level, parses arguments
and prints. ``render`` draws a level, ``walk`` walks agents through it,
``check`` lists what a level designer should fix, ``pictures`` shapes and
saves their pictures, and ``progress`` is the progress bar that long runs
show on a terminal.
"""
