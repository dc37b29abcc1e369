"""Tests of the 3D kernels (a package, so test_planes here and in tests/kernels do not clash)."""
