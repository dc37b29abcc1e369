"""Numba kernels for 3D: the narrowphase of every World3D family, once.

The 3D half mirrors :mod:`sidestep.kernels`: one module per obstacle family,
functions named ``<query>_<agent>_<family>``, plain floats in and tuples
out, tolerances passed in as arguments. The agent is a capsule, a core
segment ``ab`` (``a == b`` for a sphere) and a radius; every family answers
three queries:

* ``separation_capsule_<family>``: signed distance from the core to the
  surface (negative inside a solid; panels are thin, >= 0), the unit normal
  from the obstacle towards the agent and the obstacle's nearest point;
* ``ray_<family>``: first hit of a ray (origin, unit direction, maximum
  distance): distance and normal;
* ``sweep_capsule_<family>``: first contact of the translating agent:
  the fraction of the displacement, the normal and the touched point.

Modules: ``vector`` (3-vector tuple arithmetic), ``segment`` (closest
points of segments; a point or the core against a segment or capsule: the
events every sweep is made of), ``polygon`` (planar panels, convex or
concave, either winding, front-only culling; triangles are 3-vertex panels;
Newell normals, planarity and self-crossing checks), ``box`` (solid
axis-aligned boxes), ``sphere``, ``cylinder`` (upright, flat caps; its
sweep is a safe first-root search on the convex separation), ``mesh``
(face normals and active-edge flags against internal-edge bumps); then, as
in 2D, ``bvh`` the broadphase (a bounding volume hierarchy with cursor
queries), ``world`` the packed world and the queries over it, ``planes`` the
contact-plane solver and ``moves`` the four movement modes and their batch
driver; for bounding volumes, ``volumes`` (every pair of packed volumes),
``culling`` (one volume against many boxes or spheres), ``pieces`` (world
primitives as packed volumes) and ``query`` (a volume against a world).

Panels and triangles share one layout: vertex ``i`` of a panel is
``vertices[loop[first + i]]`` (a mesh passes its triangle array flattened),
with the unit normal computed once (``polygon.newell_normal_polygon``),
``edge_flags`` (``polygon.ALL_EDGES`` for a lone panel, ``mesh.active_edges``
for a mesh) and ``front_only`` (the article's back-face culling).

Precision (what the tests hold them to): separations are exact up to float64
rounding; sweeps are closed-form events (the cylinder's a first-root search
to a ``tolerance`` passed in) and never report a fraction past a contact.
Translating everything by 1e5 changes separations by less than 1e-9 and
contact positions by less than 1e-6 (world units); only grazing approaches,
where the contact time itself is ill-conditioned, may move further, and
then both answers still touch within 1e-6.
"""
