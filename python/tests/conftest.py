import os

import numpy as np
import pytest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


@pytest.fixture
def rng():
    return np.random.default_rng(20261202)


@pytest.fixture(scope="session")
def ubiquitin():
    import ppl
    return ppl.read_pqr(os.path.join(REPO, "data", "molecules", "ubq.pqr"))


def coulomb_f64(positions, charges, lattice, radius=None, function="truncated"):
    """An oracle independent of ppl: float64 NumPy sums over every pair, the singularity rule (r^2 < 1e-8 A^2
    contributes nothing) and, with a radius, a cutoff function."""
    x, y, z = lattice.axes()
    gz, gy, gx = np.meshgrid(z, y, x, indexing="ij")
    pts = np.stack([gx.ravel(), gy.ravel(), gz.ravel()], axis=1)
    out = np.zeros(len(pts))
    for p, q in zip(positions, charges):
        r2 = np.sum((pts - p) ** 2, axis=1)
        ok = r2 >= 1e-8
        r = np.sqrt(np.where(ok, r2, 1.0))
        term = q / r
        if radius is not None:
            inside = r2 < radius * radius
            if function == "cutcp":
                term = q / r * (1 - r2 / radius**2) ** 2
            elif function == "shifted":
                term = q * (1 / r - 1 / radius)
            ok &= inside
        out += np.where(ok, term, 0.0)
    return out.reshape(lattice.shape)


def rel_l2(a, b):
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    return np.linalg.norm(a - b) / np.linalg.norm(b)
