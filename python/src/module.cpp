// ppl._ppl: the module, Kokkos' lifetime in the interpreter, the exceptions and the conversions every family uses.
#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <optional>
#include <vector>

#include "bindings.hpp"
#include "ppl/core/error.hpp"
#include "ppl/core/kokkos_session.hpp"
#include "ppl/core/registry.hpp"
#include "ppl/core/system_info.hpp"

namespace ppl::python {

std::atomic<long> live_objects{0};

namespace {

std::unique_ptr<kokkos_session> session;
std::vector<std::string> session_flags;

void start(const std::vector<std::string>& flags) {
  std::vector<std::string> args{"ppl-python"};
  args.insert(args.end(), flags.begin(), flags.end());
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  int argc = int(args.size());
  // Never restart the interpreter (the command's bound on OpenMP's spinning): ppl/__init__.py sets GOMP_SPINCOUNT
  // before libgomp loads instead.
  session = std::make_unique<kokkos_session>(argc, argv.data(), process_restart::forbidden);
  session_flags = flags;
}

// ppl.initialize(threads=None, device=None, kokkos_args=()): the first start wins; asking for other settings later
// is an error (Kokkos starts once per process).
void initialize(std::optional<int> threads, std::optional<int> device, const std::vector<std::string>& kokkos_args) {
  std::vector<std::string> flags;
  if (threads) {
    if (*threads < 1) throw input_error("initialize: 'threads' must be >= 1");
    flags.push_back("--kokkos-threads=" + std::to_string(*threads));
  }
  if (device) {
    if (*device < 0) throw input_error("initialize: 'device' must be >= 0");
    flags.push_back("--kokkos-device-id=" + std::to_string(*device));
  }
  for (const auto& a : kokkos_args) {
    if (a.rfind("--kokkos-", 0) != 0) throw input_error("initialize: '" + a + "' is not a Kokkos flag (--kokkos-...)");
    flags.push_back(a);
  }
  if (Kokkos::is_initialized()) {
    if (!flags.empty() && flags != session_flags)
      throw input_error("initialize: Kokkos already runs in this process (with " +
                        std::to_string(Kokkos::DefaultHostExecutionSpace().concurrency()) +
                        " host threads); it starts once, at the first ppl call or ppl.initialize: call "
                        "ppl.initialize(...) before anything else, or set OMP_NUM_THREADS");
    return;
  }
  py::gil_scoped_release release;
  start(flags);
}

// At exit: Kokkos is finalized when no ppl object holds an allocation any more (else the process ends with it
// running, which frees everything anyway, rather than freeing those allocations after Kokkos has gone).
void finalize_at_exit() {
  py::module_::import("gc").attr("collect")();
  if (!session) return;
  if (live_objects.load() == 0)
    session.reset();
  else
    (void)session.release();  // not finalized at static destruction either, after the objects' own teardown
}

}  // namespace

void ensure_kokkos() {
  if (Kokkos::is_initialized()) return;
  py::gil_scoped_release release;
  start({});
}

parameter_values values_from(const py::dict& d, const std::string& what) {
  parameter_values out;
  for (const auto& [k, v] : d) {
    const std::string key = py::str(k);
    if (py::isinstance<py::bool_>(v))
      throw input_error(what + ": '" + key + "' = " + std::string(py::str(v)) + ": a number or a name, not a bool");
    if (py::isinstance<py::int_>(v))
      out[key] = v.cast<int>();
    else if (py::isinstance<py::float_>(v))
      out[key] = v.cast<double>();
    else if (py::isinstance<py::str>(v))
      out[key] = v.cast<std::string>();
    else if (py::isinstance<py::sequence>(v) && py::len(v) == 3) {
      std::array<int, 3> a{};
      for (int i = 0; i < 3; ++i) a[i] = v.cast<py::sequence>()[i].cast<int>();
      out[key] = a;
    } else {
      throw input_error(what + ": '" + key + "' = " + std::string(py::repr(v)) +
                        ": expected an int, a float, a name or three ints");
    }
  }
  return out;
}

py::object to_python(const parameter_value& v) {
  return std::visit([](const auto& x) -> py::object { return py::cast(x); }, v);
}

namespace {

std::string kind_text(const py::handle& h) {
  if (!py::isinstance<py::str>(h)) throw input_error("interaction: 'kind' must be a name (coulomb, cutoff, msm)");
  return h.cast<std::string>();
}

}  // namespace

interaction interaction_from(const py::handle& h) {
  if (h.is_none()) return coulomb_interaction();
  auto kind_of = [](const std::string& name) {
    try {
      return parse_interaction_kind(name);
    } catch (const input_error&) {
      std::string names;
      for (const auto& n : interaction_kind_names()) names += (names.empty() ? "" : ", ") + n;
      throw input_error("interaction: 'kind' = " + name + " is not one of " + names);
    }
  };
  if (py::isinstance<py::str>(h)) {
    const auto kind = kind_of(h.cast<std::string>());
    if (kind == interaction_kind::cutoff)
      throw input_error("interaction: 'cutoff' needs a radius: interaction={'kind': 'cutoff', 'radius': 12.0}");
    return kind == interaction_kind::msm ? msm_interaction() : coulomb_interaction();
  }
  if (!py::isinstance<py::dict>(h))
    throw input_error("interaction: expected 'coulomb', 'msm' or a dict of physics.interaction's keys");
  py::dict d = h.cast<py::dict>();
  const auto kind = kind_of(d.contains("kind") ? kind_text(d["kind"]) : std::string("coulomb"));
  std::vector<std::string> allowed{"kind"};
  interaction out = coulomb_interaction();
  if (kind == interaction_kind::cutoff) {
    allowed.insert(allowed.end(), {"radius", "function"});
    if (!d.contains("radius")) throw input_error("interaction: kind cutoff needs 'radius' (A)");
    const double r = d["radius"].cast<double>();
    if (!(r >= 1e-3 && r <= 1000.0))
      throw input_error("interaction: 'radius' = " + std::string(py::str(d["radius"])) + " is not in [0.001, 1000]");
    std::string f = d.contains("function") ? d["function"].cast<std::string>() : std::string("cutcp");
    cutoff_function fn;
    try {
      fn = parse_cutoff_function(f);
    } catch (const input_error&) {
      std::string names;
      for (const auto& n : cutoff_function_names()) names += (names.empty() ? "" : ", ") + n;
      throw input_error("interaction: 'function' = " + f + " is not one of " + names);
    }
    out = cutoff_interaction(r, fn);
  } else if (kind == interaction_kind::msm) {
    py::dict rest;
    for (const auto& spec : msm_parameters::fields().space()) {
      allowed.push_back(spec.name);
      if (d.contains(spec.name.c_str())) rest[spec.name.c_str()] = d[spec.name.c_str()];
    }
    try {
      out = msm_interaction(msm_parameters::fields().from(values_from(rest, "interaction")));
    } catch (const parameter_error& e) {
      throw input_error(std::string("interaction: ") + e.what());
    }
  }
  for (const auto& [k, v] : d) {
    const std::string key = py::str(k);
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      std::string names;
      for (const auto& n : allowed) names += (names.empty() ? "" : ", ") + n;
      throw input_error("interaction: unknown key '" + key + "' for kind " + config_name(kind) + " (keys: " + names +
                        ")");
    }
  }
  return out;
}

py::dict interaction_to_python(const interaction& in) {
  py::dict d;
  d["kind"] = config_name(in.kind);
  if (in.is_cutoff()) {
    d["radius"] = in.radius;
    d["function"] = config_name(in.function);
  }
  if (in.is_msm()) {
    d["cutoff"] = in.msm.cutoff;
    d["spacing"] = in.msm.spacing;
    d["order"] = in.msm.order;
    d["splitting"] = in.msm.splitting;
    d["levels"] = in.msm.levels;
  }
  return d;
}

physics_options physics_from(const std::string& units, double permittivity, const py::object& temperature,
                             double exclusion_radius) {
  physics_options p;
  try {
    p.units = parse_potential_units(units);
  } catch (const input_error&) {
    std::string names;
    for (const auto& n : potential_unit_names()) names += (names.empty() ? "" : ", ") + n;
    throw input_error("units: '" + units + "' is not one of " + names);
  }
  if (!temperature.is_none()) {
    if (p.units != potential_units::kT_per_e)
      throw input_error(std::string("temperature: applies only to units='kT_per_e' (units ") + config_name(p.units) +
                        " do not depend on it)");
    p.temperature = temperature.cast<double>();
    if (!(p.temperature >= 1.0 && p.temperature <= 1e6)) throw input_error("temperature: must be in [1, 1e6] K");
  }
  if (!(permittivity >= 1e-6 && permittivity <= 1e6)) throw input_error("permittivity: must be in [1e-6, 1e6]");
  p.permittivity = permittivity;
  if (!(exclusion_radius >= 0 && exclusion_radius <= 1000.0))
    throw input_error("exclusion_radius: must be in [0, 1000] A");
  p.exclusion_radius = exclusion_radius;
  return p;
}

py::object host_array(const py::handle& h) {
  if (py::hasattr(h, "__cuda_array_interface__")) {
    // CuPy's, Numba's and ppl's own device arrays all know how to come to the host.
    if (py::hasattr(h, "get")) return h.attr("get")();
    if (py::hasattr(h, "copy_to_host")) return h.attr("copy_to_host")();
    throw input_error("a CUDA array without get() or copy_to_host(): pass a NumPy array");
  }
  return py::reinterpret_borrow<py::object>(h);
}

namespace {

using f64_array = py::array_t<double, py::array::c_style | py::array::forcecast>;

f64_array as_f64(const py::handle& h, const char* what) {
  try {
    return f64_array::ensure(host_array(h));
  } catch (const py::error_already_set&) {
    throw input_error(std::string(what) + ": not convertible to a float64 array");
  }
}

void check_positions(const f64_array& p, std::size_t n_expected, bool check_n) {
  if (!p) throw input_error("positions: not convertible to a float64 array of shape (N, 3)");
  if (p.ndim() != 2 || p.shape(1) != 3)
    throw input_error(
        "positions: expected shape (N, 3), got " +
        std::string(py::str(py::tuple(py::cast(std::vector<py::ssize_t>(p.shape(), p.shape() + p.ndim()))))));
  if (check_n && std::size_t(p.shape(0)) != n_expected)
    throw input_error("positions: " + std::to_string(p.shape(0)) + " atoms, the plan has " +
                      std::to_string(n_expected) + " (a plan keeps its atoms; make a new one for another system)");
  const double* d = p.data();
  for (py::ssize_t i = 0; i < p.shape(0) * 3; ++i)
    if (!(std::abs(d[i]) <= 1e6))
      throw input_error("positions: atom " + std::to_string(i / 3) +
                        " has a coordinate that is not finite or beyond "
                        "1e6 A");
}

}  // namespace

atoms atoms_from(const py::handle& positions, const py::handle& charges, const py::handle& radii) {
  const auto p = as_f64(positions, "positions");
  check_positions(p, 0, false);
  const auto q = as_f64(charges, "charges");
  const std::size_t n = std::size_t(p.shape(0));
  if (!q || q.ndim() != 1 || std::size_t(q.shape(0)) != n)
    throw input_error("charges: expected shape (" + std::to_string(n) + ",), one per position");
  f64_array r;
  if (!radii.is_none()) {
    r = as_f64(radii, "radii");
    if (!r || r.ndim() != 1 || std::size_t(r.shape(0)) != n)
      throw input_error("radii: expected shape (" + std::to_string(n) + ",), one per position");
  }
  atoms a;
  a.x.resize(n), a.y.resize(n), a.z.resize(n), a.q.resize(n), a.radius.assign(n, 0.0);
  const double* pd = p.data();
  for (std::size_t i = 0; i < n; ++i) {
    a.x[i] = pd[3 * i], a.y[i] = pd[3 * i + 1], a.z[i] = pd[3 * i + 2];
    a.q[i] = q.data()[i];
    if (!std::isfinite(a.q[i])) throw input_error("charges: atom " + std::to_string(i) + " has a non-finite charge");
    if (r) a.radius[i] = r.data()[i];
  }
  a.source = "Python arrays";
  return a;
}

void set_positions(atoms& a, const py::handle& positions) {
  const auto p = as_f64(positions, "positions");
  check_positions(p, a.size(), true);
  const double* pd = p.data();
  for (std::size_t i = 0; i < a.size(); ++i) a.x[i] = pd[3 * i], a.y[i] = pd[3 * i + 1], a.z[i] = pd[3 * i + 2];
}

void bind_session(py::module_& m) {
  m.def("initialize", &initialize, py::arg("threads") = py::none(), py::arg("device") = py::none(),
        py::arg("kokkos_args") = std::vector<std::string>{},
        "Starts Kokkos (once per process; otherwise the first call that needs it does, with OMP_NUM_THREADS).");
  m.def("is_initialized", [] { return Kokkos::is_initialized(); });
  m.def("_finalize_at_exit", &finalize_at_exit);
  m.def("_live_objects", [] { return live_objects.load(); });
  m.def("info", [] {
    ensure_kokkos();
    const system_info s = query_system_info();
    py::dict d;
    d["version"] = PPL_VERSION;
    d["backends"] = build_backends_text();
    d["default_space"] = Kokkos::DefaultExecutionSpace::name();
    d["cuda"] = build_satisfies(build_requirement::cuda);
    d["host_threads"] = Kokkos::DefaultHostExecutionSpace().concurrency();
    d["device"] = s.device_name;
    d["device_memory_gib"] = s.device_memory_gib;
    d["multiprocessors"] = s.multiprocessors;
    return d;
  });
}

}  // namespace ppl::python

namespace {

// pybind11 2.12 replaced calling the exception object with py::set_error (Debian 12 has 2.10, pip 3.x).
template <class E>
void raise(py::exception<E>& type, const char* message) {
#if PYBIND11_VERSION_HEX >= 0x020C0000
  py::set_error(type, message);
#else
  type(message);
#endif
}

}  // namespace

PYBIND11_MODULE(_ppl, m) {
  using namespace ppl::python;
  m.doc() = "ppl: electrostatic potential maps, ion placement and sparse Krylov solves on Kokkos (docs/python.md)";
  m.attr("__version__") = PPL_VERSION;
  m.attr("cuda") = ppl::build_satisfies(ppl::build_requirement::cuda);
  // ppl::error -> ppl.Error (a RuntimeError); ppl::input_error -> ppl.InputError (a ValueError), the CLI's exit 2.
  // Registered base first: pybind11 tries the most recent translator first.
  static py::exception<ppl::error> error(m, "Error", PyExc_RuntimeError);
  static py::exception<ppl::input_error> input(m, "InputError", PyExc_ValueError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ppl::input_error& e) {
      raise(input, e.what());
    } catch (const ppl::error& e) {
      raise(error, ppl::one_line_failure(e).c_str());
    }
  });
  bind_session(m);
  bind_potential(m);
  bind_ions(m);
  bind_sparse(m);
  bind_registry(m);
}
