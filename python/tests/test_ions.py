"""ppl.place_ions against a NumPy float64 cionize (greedy minimum of q V, the ion's own potential added, the
exclusion spheres), the counts rules and the writers."""
import numpy as np
import pytest

import ppl
from conftest import coulomb_f64


def cionize_f64(p, q, lat, charges, min_solute, min_ions):
    v = coulomb_f64(p, q, lat).ravel()
    x, y, z = lat.axes()
    gz, gy, gx = np.meshgrid(z, y, x, indexing="ij")
    pts = np.stack([gx.ravel(), gy.ravel(), gz.ravel()], axis=1)
    d2 = np.min(((pts[:, None, :] - p[None, :, :]) ** 2).sum(axis=2), axis=1)
    allowed = d2 >= min_solute**2
    out = []
    for z_ion in charges:
        score = np.where(allowed, z_ion * v, np.inf)
        i = int(np.argmin(score))
        out.append(pts[i])
        r2 = ((pts - pts[i]) ** 2).sum(axis=1)
        with np.errstate(divide="ignore"):
            v += np.where(r2 >= 1e-8, z_ion / np.sqrt(np.maximum(r2, 1e-300)), 0.0)
        allowed &= r2 >= min_ions**2
    return np.array(out)


def test_counts_against_numpy_cionize(rng):
    p = rng.uniform(4, 12, (60, 3))
    q = rng.uniform(-1, 1, 60)
    q -= q.mean() + 3.0 / 60  # net charge -3 e
    lat = ppl.Lattice((0, 0, 0), 0.5, (33, 33, 33))
    r = ppl.place_ions(p, q, lat, counts={"Na+": 4, "Cl-": 2}, min_distance_solute=3.0, min_distance_ions=4.0,
                       strategy="gather", units="e_per_angstrom", maps=True)
    assert r.species == ["Na+"] * 4 + ["Cl-"] * 2  # counter-ions of a negative solute first
    want = cionize_f64(p, q, lat, [1, 1, 1, 1, -1, -1], 3.0, 4.0)
    np.testing.assert_array_equal(r.positions, want)
    assert np.all(r.nearest_solute >= 3.0)
    # The map after is the map before plus the ions' own potentials.
    ions_map = coulomb_f64(r.positions, r.charges.astype(float), lat)
    np.testing.assert_allclose(r.map_after, r.map_before + ions_map, rtol=1e-4, atol=1e-3)


def test_neutralize_and_salt(ubiquitin):
    p, q, radii = ubiquitin
    lat = ppl.Lattice.around(p, spacing=1.0, padding=8.0)
    r = ppl.place_ions(p, q, lat, radii=radii, neutralize=True, salt_molar=0.15)
    assert r.net_charge == 0.0 and r.solute_charge == round(q.sum())
    assert r.counterions == abs(round(q.sum()))
    cells = lat.size * lat.spacing**3
    assert 0 < r.solvent_volume < cells
    assert r.salt_units == round(0.15 * 6.02214076e-4 * r.solvent_volume)
    assert len(r) == r.counterions + 2 * r.salt_units
    assert np.all(np.diff(r.seconds) > -1) and r.units == "kT_per_e"


def test_written_structures_are_read_back(tmp_path, ubiquitin):
    p, q, radii = ubiquitin
    lat = ppl.Lattice.around(p, spacing=1.0, padding=8.0)
    r = ppl.place_ions(p, q, lat, radii=radii, neutralize=True)
    r.write(str(tmp_path / "out.pqr"), p, q, radii)
    r.write(str(tmp_path / "out.pdb"), p, q, radii, convention="amber")
    pp, qq, _ = ppl.read_pqr(str(tmp_path / "out.pqr"))
    assert len(pp) == len(p) + len(r)
    np.testing.assert_allclose(pp[len(p):], r.positions, atol=1e-3)
    np.testing.assert_allclose(qq[len(p):], r.charges)
    mda = pytest.importorskip("MDAnalysis")
    u = mda.Universe(str(tmp_path / "out.pdb"))
    assert len(u.atoms) == len(p) + len(r)
    assert set(u.select_atoms("segid I or chainID I").resnames) <= {"Na+", "Cl-"}


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({}, "needs counts, neutralize=True or salt_molar"),
        ({"counts": {"Xe": 1}}, "counts: 'Xe' is not one of"),
        ({"counts": {"Na+": 1}, "neutralize": True}, "does not go with neutralize"),
        ({"neutralize": True, "cation": "Cl-"}, "'ions.cation' = Cl- is not a cation"),
        ({"counts": {"Na+": 2000000}}, "'ions.counts.Na\\+' = 2000000 is not in"),
        ({"counts": {"Na+": 200000}}, "asks for 200000 ions, more than the 100000"),
        ({"counts": {"Na+": 1}, "min_distance_ions": 0.0}, "min_distance_ions: must be > 0"),
        ({"counts": {"Na+": 1}, "min_distance_solute": 1000.0}, "exclude every point"),
        ({"counts": {"Na+": 500}}, "no allowed lattice point is left for ion"),
    ],
)
def test_bad_requests(kwargs, message):
    p = np.array([[5.0, 5.0, 5.0]])
    q = np.array([-1.0])
    lat = ppl.Lattice((0, 0, 0), 1.0, (11, 11, 11))
    with pytest.raises(ValueError, match=message):
        ppl.place_ions(p, q, lat, **kwargs)
