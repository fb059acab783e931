"""Maps from arrays: every strategy of this build against float64 oracles (ppl's C++ reference and NumPy's own
sums), units, zero copy, plans over moving atoms, frames combined on the device."""
import numpy as np
import pytest

import ppl
from conftest import coulomb_f64, rel_l2

# The tolerance of every direct map in the C++ tests (relative L2 against float64); the cutoff and MSM ones too.
DIRECT_TOL = 1e-5
MSM_TOL = 1e-3


def system(rng, n=300, box=12.0):
    p = rng.uniform(0, box, (n, 3))
    q = rng.uniform(-1, 1, n)
    return p, q


def strategies_for(kind):
    return [e["name"] for e in ppl.strategies("potential") if e["available"] and kind in e["capabilities"]]


@pytest.mark.parametrize("name", strategies_for("coulomb"))
def test_every_coulomb_strategy_against_float64(rng, name):
    p, q = system(rng)
    lat = ppl.Lattice((-1.0, -0.5, 0.25), 0.6, (23, 21, 19))
    v = ppl.potential_map(p, q, lat, strategy=name, units="e_per_angstrom")
    assert v.shape == (19, 21, 23) and v.dtype == np.float32
    want = coulomb_f64(p, q, lat)
    assert rel_l2(v, want) < DIRECT_TOL
    assert rel_l2(ppl.reference_map(p, q, lat), want) < 1e-12


@pytest.mark.parametrize("function", ["truncated", "cutcp", "shifted"])
@pytest.mark.parametrize("name", strategies_for("cutoff"))
def test_every_cutoff_strategy_against_float64(rng, name, function):
    p, q = system(rng, n=400, box=20.0)
    lat = ppl.Lattice((0.0, 0.0, 0.0), 0.7, (30, 29, 28))
    inter = {"kind": "cutoff", "radius": 5.0, "function": function}
    v = ppl.potential_map(p, q, lat, interaction=inter, strategy=name, units="e_per_angstrom")
    want = coulomb_f64(p, q, lat, radius=5.0, function=function)
    assert rel_l2(v, want) < DIRECT_TOL


@pytest.mark.parametrize("name", strategies_for("msm"))
def test_msm_against_coulomb(rng, name):
    # MSM approximates Coulomb: its oracle is exact Coulomb at MSM's default tolerance.
    p, q = system(rng, n=500, box=20.0)
    q -= q.mean()
    lat = ppl.Lattice((0.0, 0.0, 0.0), 1.0, (21, 21, 21))
    v = ppl.potential_map(p, q, lat, interaction="msm", strategy=name, units="e_per_angstrom")
    assert rel_l2(v, coulomb_f64(p, q, lat)) < MSM_TOL


def test_auto_is_a_registered_strategy_and_exact_by_default(rng):
    p, q = system(rng)
    lat = ppl.Lattice.around(p, spacing=0.8, padding=2.0)
    plan = ppl.Plan(p, q, lat, units="e_per_angstrom")
    assert plan.strategy in strategies_for("coulomb") and plan.reason
    assert plan.interaction == {"kind": "coulomb"}
    assert rel_l2(plan.compute(), coulomb_f64(p, q, lat)) < DIRECT_TOL


def test_ubiquitin_in_kT_per_e_matches_the_reference(ubiquitin):
    p, q, _ = ubiquitin
    lat = ppl.Lattice.around(p, spacing=1.0, padding=5.0)
    v = ppl.potential_map(p, q, lat)  # the YAML's default units: kT/e at 298.15 K
    want = ppl.reference_map(p, q, lat) * 560.47254
    assert rel_l2(v, want) < DIRECT_TOL
    v310 = ppl.potential_map(p, q, lat, temperature=310.0, permittivity=2.0)
    assert rel_l2(v310, want * 298.15 / 310.0 / 2.0) < DIRECT_TOL


def test_lattice_around_follows_parboil(rng):
    p, _ = system(rng)
    lat = ppl.Lattice.around(p, spacing=0.5, padding=3.0)
    lo, hi = p.min(axis=0) - 3.0, p.max(axis=0) + 3.0
    np.testing.assert_allclose(lat.origin, lo)
    assert lat.dims == tuple(int(np.floor((hi[d] - lo[d]) / 0.5)) + 1 for d in range(3))
    assert lat.size == np.prod(lat.dims) and lat.shape == lat.dims[::-1]


def test_out_is_written_in_place_without_a_copy(rng):
    p, q = system(rng, n=50)
    lat = ppl.Lattice((0, 0, 0), 1.0, (10, 9, 8))
    out = np.full(lat.shape, 7.0, dtype=np.float32)
    address = out.__array_interface__["data"][0]
    got = ppl.potential_map(p, q, lat, out=out, units="e_per_angstrom")
    assert got is out and got.__array_interface__["data"][0] == address
    assert rel_l2(out, coulomb_f64(p, q, lat)) < DIRECT_TOL
    fresh = ppl.potential_map(p, q, lat)
    assert fresh.flags["OWNDATA"] and fresh.flags["C_CONTIGUOUS"]
    with pytest.raises(ValueError, match="out: a writable C-contiguous float32"):
        ppl.potential_map(p, q, lat, out=np.zeros(lat.shape))


def test_plan_over_moving_atoms_equals_fresh_maps(rng):
    p, q = system(rng, n=200)
    lat = ppl.Lattice((0, 0, 0), 0.8, (16, 16, 16))
    for strategy, inter in [("auto", None), ("cutoff_binned", {"kind": "cutoff", "radius": 4.0})]:
        plan = ppl.Plan(p, q, lat, interaction=inter, strategy=strategy)
        for step in range(3):
            moved = p + rng.normal(0, 0.3, p.shape)
            got = plan.compute(moved)
            want = ppl.potential_map(moved, q, lat, interaction=inter, strategy=plan.strategy)
            np.testing.assert_array_equal(got, want)
    with pytest.raises(ValueError, match="positions: 199 atoms, the plan has 200"):
        plan.compute(p[:-1])


def test_accumulate_adds_in_the_plan_units(rng):
    p, q = system(rng, n=100)
    lat = ppl.Lattice((0, 0, 0), 1.0, (12, 12, 12))
    plan = ppl.Plan(p, q, lat)
    out = plan.compute()
    first = out.copy()
    p2 = p + 0.5
    plan.compute(p2, out=out, mode="accumulate")
    want = first + ppl.potential_map(p2, q, lat)
    np.testing.assert_allclose(out, want, rtol=2e-6, atol=1e-4)
    with pytest.raises(ValueError, match="accumulate.*out="):
        plan.compute(mode="accumulate")


@pytest.mark.parametrize("combine", ["mean", "sum", "min", "max"])
def test_frames_combined_on_the_device(rng, combine):
    p, q = system(rng, n=150)
    lat = ppl.Lattice((0, 0, 0), 1.0, (14, 13, 12))
    frames = [p + rng.normal(0, 0.5, p.shape) for _ in range(5)]
    plan = ppl.Plan(frames[0], q, lat)
    maps = []
    for f in frames:
        plan.add_frame(f, combine=combine)
        maps.append(ppl.potential_map(f, q, lat, strategy=plan.strategy).astype(np.float64))
    want = {"mean": np.mean, "sum": np.sum, "min": np.min, "max": np.max}[combine](np.stack(maps), axis=0)
    got = plan.combined()
    assert plan.frames == 5 and got.shape == lat.shape
    assert rel_l2(got, want) < 2e-6
    plan.reset()
    assert plan.frames == 0
    with pytest.raises(ValueError, match="no frame"):
        plan.combined()


def test_device_gpu_needs_a_gpu_build(rng):
    p, q = system(rng, n=10)
    lat = ppl.Lattice((0, 0, 0), 1.0, (4, 4, 4))
    if ppl.cuda:
        d = ppl.potential_map(p, q, lat, device="gpu")
        ai = d.__cuda_array_interface__
        assert ai["shape"] == lat.shape and ai["typestr"] == "<f4"
        np.testing.assert_array_equal(d.get(), ppl.potential_map(p, q, lat))
        out = ppl.potential_map(p, q, lat, out=d)  # a CUDA array as out: written where it is
        assert out is d
    else:
        with pytest.raises(ValueError, match="computes on the host"):
            ppl.potential_map(p, q, lat, device="gpu")


def test_maps_written_for_vmd(tmp_path, rng):
    gdf = pytest.importorskip("gridData")
    p, q = system(rng, n=20)
    lat = ppl.Lattice((1.0, 2.0, 3.0), 0.5, (6, 5, 4))
    v = ppl.potential_map(p, q, lat)
    ppl.write_dx(str(tmp_path / "m.dx"), v, lat)
    g = gdf.Grid(str(tmp_path / "m.dx"))
    np.testing.assert_allclose(g.origin, lat.origin)
    np.testing.assert_allclose(g.grid, v.transpose(2, 1, 0), rtol=1e-6)  # gridData: x, y, z axes


def test_cupy_arrays_in_and_out(rng):
    if not ppl.cuda:
        pytest.skip("a CUDA build")
    cp = pytest.importorskip("cupy")
    p, q = system(rng, n=60)
    lat = ppl.Lattice((0, 0, 0), 1.0, (9, 8, 7))
    want = ppl.potential_map(p, q, lat)
    got = ppl.potential_map(cp.asarray(p), cp.asarray(q), lat)  # CUDA inputs
    np.testing.assert_array_equal(got, want)
    d = ppl.potential_map(p, q, lat, device="gpu")
    view = cp.asarray(d)  # no copy: the same device memory
    assert view.data.ptr == d.__cuda_array_interface__["data"][0]
    np.testing.assert_array_equal(cp.asnumpy(view), want)
    out = cp.zeros(lat.shape, dtype=cp.float32)
    assert ppl.potential_map(p, q, lat, out=out) is out  # written in place on the device
    np.testing.assert_array_equal(cp.asnumpy(out), want)
    plan = ppl.Plan(p, q, lat)
    plan.add_frame()
    plan.add_frame(p + 0.1)
    mean = plan.combined(device="gpu")
    np.testing.assert_allclose(cp.asnumpy(cp.asarray(mean)), plan.combined(), rtol=0, atol=0)
