"""The game's keys, by pygame's key names, and scripts of key presses for headless runs.

A frame's input is the set of key names held during it (``pygame.key.name``:
``"up"``, ``"w"``, ``"1"``, ``"left shift"``...). Arrow keys and WASD move
the character while held; the command keys (modes, debug drawing, zoom)
act on the frame they go down. A script lists frames the same way, so a
test or a screenshot drives the game exactly as a player would:

>>> frames = parse_script("right*3 up+right*2 g 4")
>>> len(frames), sorted(frames[3]), frames[6] == {"4"}
(7, ['right', 'up'], True)
>>> heading({"up", "right"})
(0.7071067811865475, 0.7071067811865475)
>>> heading({"left", "right"}), heading(set())
((0.0, 0.0), (0.0, 0.0))
"""
import math

from .. import MODES

#: Movement keys: each one's direction on screen, ``(right, up)``.
MOVE_KEYS = {"up": (0, 1), "w": (0, 1), "down": (0, -1), "s": (0, -1),
             "left": (-1, 0), "a": (-1, 0), "right": (1, 0), "d": (1, 0)}
#: Keys 1 to 4 pick the move mode, in the order of :data:`sidestep.MODES`
#: (slide, push, block, ghost): the wall article's ghost switch and its peers.
MODE_KEYS = {str(k + 1): mode for k, mode in enumerate(MODES)}
#: Keys that turn the debug drawing (collision geometry and halos) on and off.
DEBUG_KEYS = frozenset({"g", "f1"})
#: Keys that zoom the camera in and out by :data:`ZOOM_STEP`.
ZOOM_IN_KEYS = frozenset({"=", "+", "[+]"})
ZOOM_OUT_KEYS = frozenset({"-", "[-]"})
#: Keys held to run at :data:`RUN_FACTOR` times the walking speed.
RUN_KEYS = frozenset({"left shift", "right shift", "shift"})
#: Every key the game reads (the event loop polls these).
KEYS = frozenset(MOVE_KEYS) | frozenset(MODE_KEYS) | DEBUG_KEYS | ZOOM_IN_KEYS \
    | ZOOM_OUT_KEYS | RUN_KEYS
#: Zoom factor of one press of a zoom key.
ZOOM_STEP = 1.25
#: Running speed over walking speed.
RUN_FACTOR = 2.5
#: In a script, the name of a frame with no key held.
IDLE = "idle"
#: Frames one script item lasts at most (a typo such as ``right*6000000`` is refused).
MAX_REPEAT = 1_000_000


def heading(keys):
    """The unit direction on screen the held movement keys ask for.

    Parameters
    ----------
    keys : set of str
        Key names held this frame.

    Returns
    -------
    (float, float)
        ``(right, up)`` components, of length 1, or ``(0.0, 0.0)`` when no
        movement key is held or opposite keys cancel.
    """
    x = y = 0
    for key in keys:
        step = MOVE_KEYS.get(key)
        if step is not None:
            x += step[0]
            y += step[1]
    x, y = max(-1, min(1, x)), max(-1, min(1, y))   # "up" and "w" together: one up
    if x == 0 and y == 0:
        return (0.0, 0.0)
    length = math.hypot(x, y)
    return (x / length, y / length)


def parse_script(text):
    """The frames a script of key presses describes, one set of held keys per frame.

    Items are separated by spaces or commas. An item is key names joined by
    ``+`` (held together), optionally followed by ``*N``: held for N frames
    (1 by default). ``idle*N`` holds nothing for N frames. Key names are
    pygame's, lower case; ``shift`` runs.

    Parameters
    ----------
    text : str
        For example ``"right*120 up+right*60 g 4 left*90"``.

    Returns
    -------
    list of frozenset of str

    Raises
    ------
    ValueError
        For an empty script, an unknown key name or a bad repeat count,
        naming ``script`` and the item.
    """
    if not isinstance(text, str):
        raise TypeError(f"script must be a string of key presses, got {type(text).__name__}")
    frames = []
    for item in text.replace(",", " ").split():
        names, star, count = item.partition("*")
        repeat = 1
        if star:
            try:
                repeat = int(count)
            except ValueError:
                raise ValueError(f"script: bad repeat count in {item!r}: expected KEYS*N "
                                 "with N a whole number") from None
            if not 1 <= repeat <= MAX_REPEAT:
                raise ValueError(f"script: repeat count in {item!r} must be between 1 and "
                                 f"{MAX_REPEAT}")
        keys = frozenset() if names == IDLE else frozenset(_key_names(names, item))
        frames.extend([keys] * repeat)
    if not frames:
        raise ValueError("script: no key presses in it (write e.g. 'right*60 up*30')")
    return frames


def _key_names(names, item):
    # "+" alone (or "++") is the plus key, not an empty pair of names.
    parts = ["+"] if names.strip("+") == "" else [p for p in names.split("+") if p]
    for name in parts:
        name = name.lower()
        if name not in KEYS:
            raise ValueError(f"script: unknown key {name!r} in {item!r}; keys: "
                             f"{', '.join(sorted(k for k in KEYS if ' ' not in k))}")
        yield name
