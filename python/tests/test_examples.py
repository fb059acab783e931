"""examples/python runs as documented and writes what VMD reads."""
import os
import subprocess
import sys

import numpy as np
import pytest

from conftest import REPO

mda = pytest.importorskip("MDAnalysis")
gdf = pytest.importorskip("gridData")


def test_trajectory_mean_writes_the_mean_as_dx(tmp_path, ubiquitin):
    import ppl

    pqr = os.path.join(REPO, "data", "molecules", "ubq.pqr")
    u = mda.Universe(pqr)
    rng = np.random.default_rng(4)
    frames = [u.atoms.positions + rng.normal(0, 0.2, u.atoms.positions.shape).astype(np.float32) for _ in range(3)]
    with mda.Writer(str(tmp_path / "t.dcd"), len(u.atoms)) as w:
        for f in frames:
            u.atoms.positions = f
            w.write(u.atoms)
    out = tmp_path / "mean.dx"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    subprocess.run([sys.executable, os.path.join(REPO, "examples", "python", "trajectory_mean.py"), pqr,
                    str(tmp_path / "t.dcd"), str(out), "--cutoff", "8", "--spacing", "2.0"], check=True, env=env,
                   capture_output=True)
    g = gdf.Grid(str(out))
    frames_read = mda.Universe(pqr, str(tmp_path / "t.dcd"))
    lat = ppl.Lattice.around(frames_read.atoms.positions, spacing=2.0, padding=5.0)
    want = np.mean([ppl.potential_map(frames_read.atoms.positions, ubiquitin[1], lat,
                                      interaction={"kind": "cutoff", "radius": 8.0}).astype(np.float64)
                    for _ in frames_read.trajectory], axis=0)
    np.testing.assert_allclose(g.origin, lat.origin, atol=1e-4)
    np.testing.assert_allclose(g.grid, want.transpose(2, 1, 0), rtol=1e-5, atol=1e-3)
