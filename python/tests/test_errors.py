"""Bad input: a ValueError (ppl.InputError) with the CLI's one-line message, naming the argument or YAML key."""
import numpy as np
import pytest

import ppl

P = np.zeros((2, 3))
Q = np.array([1.0, -1.0])
LAT = ppl.Lattice((0, 0, 0), 1.0, (4, 4, 4))


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: ppl.potential_map(np.zeros((2, 2)), Q, LAT), r"positions: expected shape \(N, 3\)"),
        (lambda: ppl.potential_map(P, Q[:1], LAT), r"charges: expected shape \(2,\)"),
        (lambda: ppl.potential_map(P + np.nan, Q, LAT), "positions: atom 0 has a coordinate that is not finite"),
        (lambda: ppl.potential_map(P, Q, LAT, strategy="gather_fast"), "unknown potential strategy 'gather_fast'"),
        (lambda: ppl.potential_map(P, Q, LAT, strategy="gather_coarsened", coarsening=3),
         "strategy_params: 'coarsening' = 3 is not one of 1, 2, 4, 8, 16"),
        (lambda: ppl.potential_map(P, Q, LAT, coarsening=4), "strategy_params: need a named strategy"),
        (lambda: ppl.potential_map(P, Q, LAT, interaction={"kind": "cutoff"}), "kind cutoff needs 'radius'"),
        (lambda: ppl.potential_map(P, Q, LAT, interaction={"kind": "cutoff", "radius": 5, "radious": 1}),
         "unknown key 'radious'"),
        (lambda: ppl.potential_map(P, Q, LAT, interaction={"kind": "msm", "spacing": -1.0}), "interaction: 'spacing'"),
        (lambda: ppl.potential_map(P, Q, LAT, interaction="ewald"), "'kind' = ewald is not one of coulomb, cutoff, msm"),
        (lambda: ppl.potential_map(P, Q, LAT, units="volts"), "units: 'volts' is not one of"),
        (lambda: ppl.potential_map(P, Q, LAT, units="kcal_per_mol_e", temperature=300.0),
         "temperature: applies only to units='kT_per_e'"),
        (lambda: ppl.Lattice((0, 0, 0), -1.0, (4, 4, 4)), "lattice: 'spacing' must be in"),
        (lambda: ppl.Lattice((0, 0, 0), 1.0, (0, 4, 4)), "lattice: 'dims' values must be in"),
        (lambda: ppl.Lattice((0, 0, 0), 1e-3, (1000000, 1000000, 4)), "lattice: "),
        (lambda: ppl.Lattice.around(np.zeros((0, 3))), "positions: expected shape"),
        (lambda: ppl.read_pqr("/nonexistent.pqr"), "/nonexistent.pqr"),
        (lambda: ppl.strategies("solvers"), "family: 'solvers' is not one of"),
    ],
)
def test_bad_input_is_a_value_error_with_one_line(call, message):
    with pytest.raises(ValueError, match=message) as e:
        call()
    assert isinstance(e.value, ppl.InputError)
    assert "\n" not in str(e.value)


def test_pqr_errors_name_file_and_line(tmp_path):
    f = tmp_path / "bad.pqr"
    f.write_text("ATOM      1  N   MET     1       1.000   2.000   3.000  0.1000 1.8000\nATOM 2 CA MET 1 x y z 0 0\n")
    with pytest.raises(ValueError, match=r"bad\.pqr:2"):
        ppl.read_pqr(str(f))


def test_initialize_after_start_with_other_settings_is_refused():
    ppl.info()  # Kokkos runs from here on
    with pytest.raises(ValueError, match="Kokkos already runs"):
        ppl.initialize(threads=3)
    ppl.initialize()  # nothing asked: nothing to refuse
