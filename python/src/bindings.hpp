#pragma once
// The `ppl._ppl` extension module (pybind11): one file per family of the library it binds, sharing what is here.
// Kokkos starts once per process, at the first call that needs it (or at ppl.initialize), and is finalized at exit
// when nothing ppl allocated is still alive (docs/python.md).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <string>

#include "ppl/core/parameters.hpp"
#include "ppl/io/atoms.hpp"
#include "ppl/potential/interaction.hpp"
#include "ppl/potential/physics.hpp"

namespace py = pybind11;

namespace ppl::python {

// Starts Kokkos with the build's defaults (threads: OMP_NUM_THREADS, else every CPU) unless it runs already.
void ensure_kokkos();
// Objects holding Kokkos allocations (plans, device arrays): Kokkos is finalized at exit only when none is alive.
extern std::atomic<long> live_objects;
struct live_object {
  live_object() { ++live_objects; }
  live_object(const live_object&) { ++live_objects; }
  ~live_object() { --live_objects; }
};

// Values by parameter name from a dict (int, float, str, or a sequence of three ints); `what` names the argument
// in errors ("strategy_params").
parameter_values values_from(const py::dict& d, const std::string& what);
py::object to_python(const parameter_value& v);

// The interaction of `physics.interaction`: "coulomb" / "msm", or a dict with the YAML keys (kind, radius,
// function; cutoff, spacing, order, splitting, levels for msm).
interaction interaction_from(const py::handle& h);
py::dict interaction_to_python(const interaction& in);

// units, permittivity, temperature, exclusion_radius as the YAML's physics block checks them.
physics_options physics_from(const std::string& units, double permittivity, const py::object& temperature,
                             double exclusion_radius);

// Atoms from positions (N, 3), charges (N,) and optional radii (N,): anything NumPy converts (float64 copies; a
// CUDA array is copied to the host first).
atoms atoms_from(const py::handle& positions, const py::handle& charges, const py::handle& radii);
// Positions (N, 3) into existing atoms (same N), float64.
void set_positions(atoms& a, const py::handle& positions);

// A host array from anything that exposes __cuda_array_interface__ (copied), else the object itself.
py::object host_array(const py::handle& h);

void bind_session(py::module_& m);
void bind_potential(py::module_& m);
void bind_ions(py::module_& m);
void bind_sparse(py::module_& m);
void bind_registry(py::module_& m);

}  // namespace ppl::python
