"""Every tolerance sidestep uses, with its unit and the failure it prevents.

Lengths are in world units (metres in the examples). The values assume
coordinates below about 1e8 in magnitude, where a float64 step is below 1e-8,
so the skin below stays a hundred times larger than one rounding step.

Kernels never read these globals (Numba freezes globals at compile time);
the Python API passes them in as arguments.
"""

#: Gap (world units) that ``slide`` keeps between the agent's disc and every
#: obstacle surface. A move that ends exactly on the surface would be one
#: rounding step from being inside it; with the skin, a contact leaves the agent
#: between ``SKIN / 2`` and ``SKIN`` outside the surface. A move gliding on
#: along a surface it already touches is swept against it grown by only
#: ``SKIN / 4`` (the safety net under its contact plane), and in 3D a core
#: that stays ``SKIN / 4`` over a face glides over the face's seams: such a
#: move may end as close as ``SKIN / 4`` (less a rounding step), never closer,
#: so the promise ``clearance(position) >= radius - PROMISE`` holds with room
#: to spare. Numerically significant, visually insignificant.
SKIN = 1e-6

#: Obstacles closer than this (world units, beyond the agent's radius) are
#: treated as current contacts: ``slide`` keeps their planes as constraints and
#: does not sweep against them. Twice the skin, so a swept contact that stopped
#: at ``SKIN`` is a constraint on the next iteration and never a zero-length hit.
CONTACT_MARGIN = 2.0 * SKIN

#: Slack (world units) when checking a motion against contact planes. Covers the
#: rounding of a dot product of unit normals with displacements of up to 1e4.
PLANE_SLACK = 1e-3 * SKIN

#: Motions shorter than this (world units) count as no motion: the move is
#: finished ("done"/"slid") or cannot go on ("blocked").
MIN_MOTION = 1e-3 * SKIN

#: Largest magnitude (world units) accepted for a coordinate or a length
#: (positions, displacements, radii, clearances, cell sizes). The tolerances
#: are meant for coordinates below about 1e8; beyond 1e12 a float64 step is
#: above 1e-4, a hundred skins, and squared distances of far larger numbers
#: overflow to inf: the answers would be garbage, so the input is refused.
MAX_COORDINATE = 1e12

#: Collide-and-slide passes per move. Each pass either finishes the move or
#: adds a contact; a wedge between two walls needs three, a crowded corner of
#: trees a few more.
MAX_ITERATIONS = 8

#: What the non-penetration promise allows (world units):
#: after a ``slide`` move, ``clearance(position) >= radius - PROMISE``.
PROMISE = 1e-9

#: How far (as a fraction of a panel's size, its largest extent along an axis,
#: and never less than this in world units) a panel's corner may lie from the
#: panel's plane before ``World3D.add_panels`` refuses it as not planar. Panels
#: made by hand or exported as floats are planar only to rounding; a corner
#: further off than this bends the panel visibly, and the flat-panel math
#: would put its surface where it is not.
PANEL_FLATNESS = 1e-6

#: Largest bend (radians) between two mesh triangles sharing an edge for which
#: the edge counts as inside one smooth surface (see
#: :func:`sidestep.kernels3d.mesh.active_edges`): contacts on it take the
#: face's normal, so an agent sliding over a flat or gently curved mesh never
#: bumps on its seams. Real creases (a stair's nosing, a wall's foot) bend far
#: more. Jolt and Bullet use a few degrees for the same purpose; 10 degrees
#: covers terrain sampled at a metre with slopes changing by 15 % per metre.
SMOOTH_EDGE_ANGLE = 0.17453292519943295

#: Bounding volumes (:mod:`sidestep.volumes`): two volumes closer than this
#: (in length units) touch; a point this far outside a volume's boundary is
#: still on it. Volumes are closed, so touching counts as intersecting.
VOLUME_TOLERANCE = 1e-9
