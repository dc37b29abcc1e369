"""Numba kernels for 3D: narrowphase per obstacle family, the BVH broadphase and the contact-plane solver."""
