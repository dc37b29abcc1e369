"""The game's colours (RGB, 0-255), one name per thing drawn.

Kept apart so the tests can look for them in a saved frame: the character's
colour where it stands, a wall's where the wall is.
"""
#: The floor.
BACKGROUND = (238, 234, 224)
#: Outside a level's edge (its one-sided walls): where no one can walk.
OUTSIDE = (196, 192, 184)
#: Solid obstacles: boxes, polygons, blocked grid cells.
SOLID = (72, 76, 88)
#: Walls: their surface band (points within the wall's clearance of it)...
WALL_BAND = (128, 132, 146)
#: ...and their segment.
WALL = (46, 48, 58)
#: Circles: the articles' trees.
TREE = (58, 128, 66)
#: Bodies that move (a living level's door, lift and turnstile).
BODY = (150, 92, 44)
#: Doors only the crowd passes (on a layer its mask ignores).
CROWD_DOOR = (246, 196, 120)
#: Debug drawing: where the character's centre cannot go (every obstacle
#: grown by its radius).
HALO = (247, 204, 150)
#: Debug drawing: the collision geometry (the capsules' segments and outlines).
GEOMETRY = (200, 40, 120)
#: The character.
PLAYER = (34, 102, 230)
#: Its outline.
PLAYER_EDGE = (14, 38, 110)
#: Contact points and normals of the last frame.
CONTACT = (228, 30, 36)
#: Crowd agents, a few shades so neighbours stand apart.
AGENTS = ((222, 128, 36), (232, 160, 56), (200, 104, 40), (238, 142, 90))
#: On-screen text, and the panel behind it (with its opacity, 0-255).
TEXT = (250, 250, 250)
PANEL = (24, 26, 34, 170)
