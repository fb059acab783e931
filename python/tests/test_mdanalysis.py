"""Maps of MDAnalysis AtomGroups over a small trajectory the test writes, against per-frame maps combined in
NumPy and the float64 reference."""
import numpy as np
import pytest

import ppl
from conftest import rel_l2

mda = pytest.importorskip("MDAnalysis")
import ppl.mdanalysis  # noqa: E402


@pytest.fixture
def universe(tmp_path, rng):
    n, frames = 120, 6
    u = mda.Universe.empty(n, trajectory=True)
    u.add_TopologyAttr("charges", rng.uniform(-1, 1, n))
    base = rng.uniform(2, 14, (n, 3)).astype(np.float32)
    path = str(tmp_path / "traj.dcd")
    with mda.Writer(path, n) as w:
        for f in range(frames):
            u.atoms.positions = base + rng.normal(0, 0.4, base.shape).astype(np.float32)
            w.write(u.atoms)
    u2 = mda.Universe.empty(n, trajectory=False)
    u2.add_TopologyAttr("charges", u.atoms.charges)
    u2.load_new(path)
    return u2


def per_frame(u, lat, **kw):
    return [ppl.potential_map(u.atoms.positions, u.atoms.charges, lat, **kw).astype(np.float64)
            for _ in u.trajectory]


@pytest.mark.parametrize("combine", ["mean", "min", "max"])
def test_trajectory_combined_equals_numpy(universe, combine):
    lat = ppl.Lattice((0, 0, 0), 1.0, (16, 16, 16))
    got = ppl.mdanalysis.potential_map(universe.atoms, lat, frames=slice(None), combine=combine)
    want = getattr(np, combine)(np.stack(per_frame(universe, lat)), axis=0)
    assert rel_l2(got, want) < 2e-6


def test_trajectory_mean_against_float64(universe):
    lat = ppl.Lattice((0, 0, 0), 1.0, (16, 16, 16))
    inter = {"kind": "cutoff", "radius": 6.0, "function": "shifted"}
    got = ppl.mdanalysis.potential_map(universe.atoms, lat, frames=slice(1, None, 2), interaction=inter,
                                       units="e_per_angstrom")
    want = np.mean([ppl.reference_map(universe.atoms.positions, universe.atoms.charges, lat, inter)
                    for _ in universe.trajectory[1::2]], axis=0)
    assert rel_l2(got, want) < 1e-5


def test_per_frame_maps_and_frame_lists(universe):
    lat = ppl.Lattice((0, 0, 0), 1.0, (10, 10, 10))
    maps = ppl.mdanalysis.potential_map(universe.atoms, lat, frames=[4, 0, 2], combine=None)
    assert maps.shape == (3,) + lat.shape
    universe.trajectory[2]
    np.testing.assert_array_equal(maps[2], ppl.potential_map(universe.atoms.positions, universe.atoms.charges, lat))
    universe.trajectory[0]
    one = ppl.mdanalysis.potential_map(universe.atoms, lat)
    np.testing.assert_array_equal(one, maps[1])


def test_charges_needed(tmp_path):
    u = mda.Universe.empty(3, trajectory=True)
    lat = ppl.Lattice((0, 0, 0), 1.0, (4, 4, 4))
    with pytest.raises(ValueError, match="charges: the topology has none"):
        ppl.mdanalysis.potential_map(u.atoms, lat)
