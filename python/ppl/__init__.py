"""ppl: electrostatic potential maps, ion placement and sparse Krylov solves on Kokkos.

The same library as the ``ppl`` command, called with arrays instead of YAML files; the arguments are named after
the YAML keys (docs/python.md maps one to the other). Kokkos starts once per process, at the first call that needs
it (threads from OMP_NUM_THREADS) or at :func:`initialize`, and is finalized at exit.

    import numpy as np, ppl
    lat = ppl.Lattice.around(positions, spacing=0.5, padding=10.0)
    v = ppl.potential_map(positions, charges, lat)               # float32 (nz, ny, nx), kT/e
    x, info = ppl.solve(A, b, method="bicgstab", preconditioner="jacobi", rtol=1e-8)
"""
import atexit as _atexit
import os as _os
from dataclasses import dataclass as _dataclass


def _bound_openmp_spinning():
    # libgomp reads its waiting policy once, when it is loaded (with _ppl below, unless something loaded it before).
    # Unset, a waiting thread spins for 300,000 rounds at every barrier, which starves a thread that shares its core
    # with another process; the `ppl` command bounds it by starting itself again, which a library inside an
    # interpreter cannot do (docs/cli.md, docs/python.md). A value the user set is kept.
    if "OMP_WAIT_POLICY" in _os.environ or "GOMP_SPINCOUNT" in _os.environ:
        return
    try:
        threads = int(_os.environ.get("OMP_NUM_THREADS", "").split(",")[0])
    except ValueError:
        threads = len(_os.sched_getaffinity(0)) if hasattr(_os, "sched_getaffinity") else (_os.cpu_count() or 1)
    _os.environ["GOMP_SPINCOUNT"] = str(max(1000, 625 * max(1, threads)))


_bound_openmp_spinning()

from ._ppl import (  # noqa: E402, F401
    DeviceArray,
    Error,
    InputError,
    Lattice,
    Plan,
    __version__,
    cuda,
    info,
    initialize,
    ion_species,
    is_initialized,
    potential_map,
    read_pqr,
    reference_map,
    solve,
    strategies,
    write_dx,
    write_ions,
    write_mrc,
)
from . import _ppl  # noqa: E402

__all__ = [
    "DeviceArray", "Error", "InputError", "IonPlacement", "Lattice", "Plan", "__version__", "cuda", "info",
    "initialize", "ion_species", "is_initialized", "place_ions", "potential_map", "read_pqr", "reference_map", "solve",
    "strategies", "write_dx", "write_ions", "write_mrc",
]


@_dataclass
class IonPlacement:
    """The ions placed by :func:`place_ions`, in placement order, and what the placement found."""

    species: list  # chemical names ("Na+", "Cl-")
    charges: "numpy.ndarray"  # e, int
    positions: "numpy.ndarray"  # (n, 3) A: lattice points
    points: "numpy.ndarray"  # lattice indices (x fastest)
    potential: "numpy.ndarray"  # V at each ion's point just before it was placed (the call's units)
    nearest_solute: "numpy.ndarray"  # A
    seconds: "numpy.ndarray"  # each ion's step
    solute_charge: float
    net_charge: float
    counterions: int
    salt_units: int
    allowed_points: int
    solvent_volume: float  # A^3
    strategy: str
    reason: str
    units: str
    map_before: "numpy.ndarray" = None  # with maps=True: (nz, ny, nx) in the call's units
    map_after: "numpy.ndarray" = None

    def __len__(self):
        return len(self.species)

    def write(self, path, positions, charges, radii=None, convention="charmm", format=""):
        """The solute plus these ions as PQR or PDB (by the suffix, or format=)."""
        write_ions(path, positions, charges, radii, self.species, self.positions, convention, format)


def place_ions(positions, charges, lattice, radii=None, counts=None, neutralize=False, salt_molar=0.0,
               cation="Na+", anion="Cl-", min_distance_solute=6.0, min_distance_ions=10.0, min_distance_border=0.0,
               interaction=None, strategy="auto", units="kT_per_e", permittivity=1.0, temperature=None,
               tolerance=None, strategy_params=None, maps=False, **params):
    """Counter-ions and salt placed cionize-style at the extrema of the map (docs/ions.md; YAML `job: ions`).

    counts={"Na+": 10, "Cl-": 4}, or neutralize=True and/or salt_molar=0.15 with cation/anion. radii (one per atom)
    decide the solvent volume the salt concentration applies to. Returns an :class:`IonPlacement`.
    """
    r = _ppl._place_ions(positions, charges, lattice, radii, counts, neutralize, salt_molar, cation, anion,
                         min_distance_solute, min_distance_ions, min_distance_border, interaction, strategy, units,
                         permittivity, temperature, tolerance, strategy_params, maps, **params)
    return IonPlacement(**r)


_atexit.register(_ppl._finalize_at_exit)
