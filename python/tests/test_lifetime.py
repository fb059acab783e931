"""Reference counting and memory: no Python object or Kokkos allocation left behind over 1,000 calls."""
import gc
import sys
import tracemalloc

import numpy as np

import ppl


def test_no_leak_over_a_thousand_calls():
    rng = np.random.default_rng(5)
    p = rng.uniform(0, 8, (40, 3))
    q = rng.uniform(-1, 1, 40)
    lat = ppl.Lattice((0, 0, 0), 1.0, (10, 10, 10))
    counts = (sys.getrefcount(p), sys.getrefcount(q), sys.getrefcount(lat))
    out = ppl.potential_map(p, q, lat)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    for _ in range(1000):
        out = ppl.potential_map(p, q, lat)
        plan = ppl.Plan(p, q, lat)
        plan.add_frame()
        m = plan.combined()
        del plan, m
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(s.size_diff for s in after.compare_to(before, "filename"))
    assert grown < 64 * 1024, grown
    assert (sys.getrefcount(p), sys.getrefcount(q), sys.getrefcount(lat)) == counts
    assert ppl._ppl._live_objects() == 0
    assert out.shape == lat.shape


def test_strategies_as_data():
    s = ppl.strategies()
    assert set(s) == {"potential", "spmv", "solver", "preconditioner"}
    names = {e["name"] for e in s["potential"]}
    assert {"gather_coalesced", "cutoff_binned", "msm", "reference"} <= names
    gc_ = next(e for e in s["potential"] if e["name"] == "gather_coarsened")
    c = next(p for p in gc_["parameters"] if p["name"] == "coarsening")
    assert c["default"] == "8" and c["allowed"] == ["1", "2", "4", "8", "16"]
    cuda_only = [e for e in s["potential"] if e["name"].endswith("_cuda")]
    assert cuda_only and all(e["available"] == ppl.cuda for e in cuda_only)
