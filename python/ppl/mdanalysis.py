"""Potential maps of MDAnalysis AtomGroups, one frame or combined over a trajectory.

    import MDAnalysis as mda, ppl, ppl.mdanalysis
    u = mda.Universe("system.pqr", "traj.dcd")
    lat = ppl.Lattice.around(u.atoms.positions, spacing=1.0, padding=5.0)
    mean = ppl.mdanalysis.potential_map(u.atoms, lat, frames=slice(None), combine="mean",
                                        interaction={"kind": "cutoff", "radius": 12.0})
    ppl.write_dx("mean.dx", mean, lat)

One :class:`ppl.Plan` serves every frame: per frame only the positions go to the device, and the frames are
combined there (VMD's `volmap coulomb -allframes -combine avg`).
"""
import numpy as np

from . import Plan


def charges_of(atomgroup, charges=None):
    """The charges (e): given, or the topology's (PQR, PSF, PRMTOP, TPR, ... carry them)."""
    if charges is not None:
        q = np.asarray(charges, dtype=np.float64)
        if q.shape != (len(atomgroup),):
            raise ValueError(f"charges: expected shape ({len(atomgroup)},), one per atom")
        return q
    try:
        return np.asarray(atomgroup.charges, dtype=np.float64)
    except Exception as e:  # MDAnalysis' NoDataError: the topology has no charges
        raise ValueError("charges: the topology has none (read a PQR, PSF or PRMTOP, or pass charges=)") from e


def potential_map(atomgroup, lattice, frames=None, combine="mean", charges=None, progress=None, **options):
    """The map of `atomgroup` on `lattice`: of the current frame (frames=None), or of each of `frames` (a slice or
    frame indices) combined by "mean", "sum", "min" or "max" on the device; combine=None returns one map per frame
    (an array (frames, nz, ny, nx)). `options` are those of :class:`ppl.Plan` (interaction, strategy, units, ...).
    progress(i, n) is called after each frame."""
    q = charges_of(atomgroup, charges)
    if combine not in (None, "mean", "sum", "min", "max"):
        raise ValueError(f"combine: '{combine}' is not one of mean, sum, min, max, None")
    traj = atomgroup.universe.trajectory
    if frames is None:
        plan = Plan(atomgroup.positions, q, lattice, **options)
        return plan.compute()
    # Sequential reading where the frames allow it (a slice); MDAnalysis seeks for a list of indices.
    selected = traj[frames] if isinstance(frames, slice) else traj[[int(f) for f in frames]]
    n = len(selected)
    if n == 0:
        raise ValueError("frames: selects no frame")
    plan = None
    maps = []
    for i, _ in enumerate(selected):
        if plan is None:
            plan = Plan(atomgroup.positions, q, lattice, **options)
            positions = None
        else:
            positions = atomgroup.positions
        if combine is None:
            maps.append(plan.compute(positions))
        else:
            plan.add_frame(positions, combine=combine)
        if progress is not None:
            progress(i + 1, n)
    return np.stack(maps) if combine is None else plan.combined()
