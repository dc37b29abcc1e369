"""Bounding volumes: contains, intersects, disjoint, for every pair, 2D and 3D, batched.

>>> from sidestep.volumes import Box, Sphere, Containment
>>> Box((0, 0), (2, 2)).contains(Sphere((1, 1), 0.5)) is Containment.CONTAINS
True

See :mod:`sidestep.volumes.shapes` for the volumes and
:mod:`sidestep.volumes.batch` for many items at once.
"""
from .batch import contains_boxes, contains_points, contains_spheres, distances_along
from .shapes import Box, Capsule, Containment, Frustum, Point, Ray, Segment, Sphere, Volume

__all__ = ["Box", "Capsule", "Containment", "Frustum", "Point", "Ray", "Segment", "Sphere",
           "Volume", "contains_boxes", "contains_points", "contains_spheres", "distances_along"]
