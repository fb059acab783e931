// ppl.Lattice, ppl.Plan, ppl.potential_map, ppl.DeviceArray, the float64 references and the map writers.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <optional>

#include "bindings.hpp"
#include "map_plan.hpp"
#include "ppl/core/device_buffers.hpp"
#include "ppl/core/error.hpp"
#include "ppl/io/mrc.hpp"
#include "ppl/io/opendx.hpp"
#include "ppl/potential/reference.hpp"
#include "ppl/potential/verification.hpp"
#include "ppl/spatial/lattice_geometry.hpp"

namespace ppl::python {
namespace {

// The default memory space is the host's (OpenMP, Serial builds): NumPy's buffers are the kernels' buffers.
constexpr bool host_memory =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, Kokkos::DefaultExecutionSpace::memory_space>::accessible;

using f32_array = py::array_t<float, py::array::c_style>;

std::vector<py::ssize_t> map_shape(const lattice& g) {
  return {g.dims[2], g.dims[1], g.dims[0]};
}

// A map on the device, for CuPy, Numba or PyTorch (__cuda_array_interface__), or the host (get(), np.asarray).
class device_array : live_object {
 public:
  device_array(cached_view<float> c, std::vector<py::ssize_t> dims)
      : view(c.view), block(std::move(c.block)), shape(std::move(dims)) {}
  potential_view view;
  std::shared_ptr<device_block> block;  // the cache's allocation under `view` (device_buffers.hpp)
  std::vector<py::ssize_t> shape;
  f32_array get() const {
    f32_array a(shape);
    Kokkos::View<float*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> h(a.mutable_data(), view.extent(0));
    py::gil_scoped_release release;
    Kokkos::deep_copy(h, view);
    return a;
  }
  py::dict interface() const {
    py::dict d;
    d["shape"] = py::tuple(py::cast(shape));
    d["typestr"] = "<f4";
    d["data"] = py::make_tuple(reinterpret_cast<std::uintptr_t>(view.data()), false);
    d["version"] = 3;
    d["strides"] = py::none();
    d["stream"] = py::none();  // computed and fenced before it is handed out
    return d;
  }
};

// Where a compute writes: the caller's array (NumPy on host builds, a CUDA array on CUDA builds) or a new one.
struct map_target {
  py::object result;                    // what the call returns
  potential_view view;                  // where the kernels write (default memory space)
  float* host = nullptr;                // NumPy memory to copy to afterwards (CUDA builds, device="cpu"), else null
  std::shared_ptr<device_block> block;  // a staging buffer from the cache (no cudaMalloc per call)
};

// n floats of device memory from the process-wide cache: a Kokkos allocation per call costs about 50 us on CUDA.
potential_view staging(map_target& t, std::size_t n) {
  auto c = make_cached_view<float>(n);
  t.block = std::move(c.block);
  return c.view;
}

potential_view cuda_array_view(const py::handle& out, std::size_t n) {
  const py::dict ai = out.attr("__cuda_array_interface__").cast<py::dict>();
  if (ai["typestr"].cast<std::string>() != "<f4") throw input_error("out: a CUDA array of float32 is needed");
  std::size_t count = 1;
  for (auto e : ai["shape"].cast<py::tuple>()) count *= e.cast<std::size_t>();
  if (count != n) throw input_error("out: " + std::to_string(count) + " values, the lattice has " + std::to_string(n));
  if (ai.contains("strides") && !ai["strides"].is_none()) {
    // C-contiguous strides are allowed as well as None.
    const auto shape = ai["shape"].cast<std::vector<py::ssize_t>>();
    const auto strides = ai["strides"].cast<std::vector<py::ssize_t>>();
    py::ssize_t expect = 4;
    for (std::size_t i = shape.size(); i-- > 0;) {
      if (shape[i] > 1 && strides[i] != expect) throw input_error("out: a C-contiguous CUDA array is needed");
      expect *= shape[i];
    }
  }
  const auto data = ai["data"].cast<py::tuple>();
  if (data[1].cast<bool>()) throw input_error("out: the CUDA array is read-only");
  return potential_view(reinterpret_cast<float*>(data[0].cast<std::uintptr_t>()), n);
}

map_target target_for(const lattice& g, const py::object& out, const std::string& device) {
  if (device != "cpu" && device != "gpu") throw input_error("device: '" + device + "' is not one of cpu, gpu");
  const std::size_t n = g.size();
  map_target t;
  if (!out.is_none()) {
    if (py::hasattr(out, "__cuda_array_interface__")) {
      if (host_memory)
        throw input_error("out: a CUDA array, but this build computes on the host (" +
                          std::string(Kokkos::DefaultExecutionSpace::name()) + ")");
      t.view = cuda_array_view(out, n);
      t.result = out;
      return t;
    }
    if (!py::isinstance<f32_array>(out) || !(out.cast<py::array>().flags() & py::array::c_style) ||
        !out.cast<py::array>().writeable())
      throw input_error("out: a writable C-contiguous float32 NumPy array is needed");
    auto a = out.cast<f32_array>();
    if (std::size_t(a.size()) != n)
      throw input_error("out: " + std::to_string(a.size()) + " values, the lattice has " + std::to_string(n));
    t.result = out;
    if (host_memory)
      t.view = potential_view(a.mutable_data(), n);
    else
      t.view = staging(t, n), t.host = a.mutable_data();
    return t;
  }
  if (device == "gpu") {
    if (host_memory)
      throw input_error("device: 'gpu', but this build computes on the host (" +
                        std::string(Kokkos::DefaultExecutionSpace::name()) + ")");
    auto c = make_cached_view<float>(n);
    t.view = c.view;
    t.result = py::cast(device_array(std::move(c), map_shape(g)));
    return t;
  }
  f32_array a(map_shape(g));
  t.result = a;
  if (host_memory)
    t.view = potential_view(a.mutable_data(), n);
  else
    t.view = staging(t, n), t.host = a.mutable_data();
  return t;
}

// The map's values to where the caller reads them, in the plan's units (exclusion radius on host arrays only).
void finish(map_plan& p, map_target& t, std::size_t* excluded = nullptr) {
  const auto& phys = p.physics();
  py::gil_scoped_release release;
  if (t.host != nullptr) {
    // CUDA build, NumPy result: the unit scale on the device (a pass at its bandwidth, not the host's one thread),
    // then the copy.
    const bool scaled = phys.exclusion_radius <= 0;
    if (scaled) scale_on_device(t.view, phys.scale());
    Kokkos::View<float*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> h(t.host, t.view.extent(0));
    Kokkos::deep_copy(h, t.view);
    if (scaled) {
      if (excluded) *excluded = 0;
      return;
    }
  }
  float* host = t.host != nullptr ? t.host : host_memory ? t.view.data() : nullptr;
  if (host != nullptr) {
    const std::size_t e = apply_physics(phys, p.input(), p.grid(), host);
    if (excluded) *excluded = e;
  } else {
    if (phys.exclusion_radius > 0)
      throw input_error("exclusion_radius: applies to maps returned on the host (device='cpu')");
    scale_on_device(t.view, phys.scale());
  }
}

py::object compute(map_plan& p, const py::object& positions, const py::object& out, const std::string& mode,
                   const std::string& device) {
  if (mode != "overwrite" && mode != "accumulate")
    throw input_error("mode: '" + mode + "' is not one of overwrite, accumulate");
  if (!positions.is_none()) p.move(positions);
  if (mode == "overwrite") {
    map_target t = target_for(p.grid(), out, device);
    p.compute_raw(t.view, write_mode::overwrite);
    finish(p, t);
    return t.result;
  }
  // accumulate: this map, in the plan's units, added to `out`.
  if (out.is_none()) throw input_error("mode: 'accumulate' adds to an array: give out=");
  if (p.physics().exclusion_radius > 0)
    throw input_error("exclusion_radius: does not go with mode='accumulate' (set the excluded points afterwards)");
  map_target t = target_for(p.grid(), out, device);
  const std::size_t n = p.grid().size();
  const auto staged = make_cached_view<float>(n);
  const potential_view frame = staged.view;
  p.compute_raw(frame, write_mode::overwrite);
  py::gil_scoped_release release;
  scale_on_device(frame, p.physics().scale());
  if (t.host != nullptr) {  // CUDA build, NumPy target: add on the host
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), frame);
    for (std::size_t i = 0; i < n; ++i) t.host[i] += h(i);
  } else {
    const auto v = t.view;
    Kokkos::parallel_for(
        "ppl::python::add", Kokkos::RangePolicy<>(0, n), KOKKOS_LAMBDA(const std::size_t i) { v(i) += frame(i); });
    Kokkos::fence();
  }
  return t.result;
}

double tolerance_or_default(const py::object& tolerance, const interaction& pair) {
  if (tolerance.is_none()) return pair.is_msm() ? msm_default_tolerance : verification_options{}.tolerance;
  const double t = tolerance.cast<double>();
  if (!(t >= 0 && t <= 1)) throw input_error("tolerance: must be in [0, 1]");
  return t;
}

parameter_values strategy_values(const py::object& strategy_params, const py::kwargs& params) {
  py::dict all;
  if (!strategy_params.is_none()) {
    if (!py::isinstance<py::dict>(strategy_params)) throw input_error("strategy_params: must be a dict");
    for (const auto& [k, v] : strategy_params.cast<py::dict>()) all[k] = v;
  }
  for (const auto& [k, v] : params) {
    if (all.contains(k)) throw input_error("strategy_params: '" + std::string(py::str(k)) + "' given twice");
    all[k] = v;
  }
  return values_from(all, "strategy_params");
}

std::unique_ptr<map_plan> make_plan(const py::object& positions, const py::object& charges, const lattice& g,
                                    const py::object& interaction_arg, const std::string& strategy,
                                    const std::string& units, double permittivity, const py::object& temperature,
                                    double exclusion_radius, const py::object& tolerance,
                                    const py::object& strategy_params, const py::kwargs& params) {
  ensure_kokkos();
  atoms a = atoms_from(positions, charges, py::none());
  const interaction pair = interaction_from(interaction_arg);
  const physics_options phys = physics_from(units, permittivity, temperature, exclusion_radius);
  return std::make_unique<map_plan>(std::move(a), g, pair, strategy, strategy_values(strategy_params, params), phys,
                                    tolerance_or_default(tolerance, pair));
}

lattice make_lattice(const std::array<double, 3>& origin, double spacing, const std::array<int, 3>& dims,
                     bool periodic) {
  lattice g;
  g.origin = origin, g.spacing = spacing, g.dims = dims, g.periodic = periodic;
  for (int d = 0; d < 3; ++d)
    if (dims[d] < 1 || dims[d] > 1000000) throw input_error("lattice: 'dims' values must be in [1, 1000000]");
  if (!(spacing >= 1e-3 && spacing <= 100.0)) throw input_error("lattice: 'spacing' must be in [0.001, 100] A");
  try {
    check_lattice(g);
  } catch (const input_error& e) {
    throw input_error(std::string("lattice: ") + e.what());
  }
  return g;
}

const float* map_values(const f32_array& values, const lattice& g) {
  if (std::size_t(values.size()) != g.size())
    throw input_error("values: " + std::to_string(values.size()) + " values, the lattice has " +
                      std::to_string(g.size()));
  return values.data();
}

std::vector<double> reference(const py::object& positions, const py::object& charges, const lattice& g,
                              const py::object& interaction_arg) {
  ensure_kokkos();
  const atoms a = atoms_from(positions, charges, py::none());
  const interaction pair = interaction_from(interaction_arg);
  py::gil_scoped_release release;
  return pair.is_cutoff() ? cutoff_reference_potential(a, g, pair) : reference_potential(a, g, pair);
}

}  // namespace

void bind_potential(py::module_& m) {
  py::class_<lattice>(m, "Lattice", "A regular 3D lattice: point (i, j, k) at origin + spacing * (i, j, k).")
      .def(py::init(&make_lattice), py::arg("origin"), py::arg("spacing"), py::arg("dims"), py::arg("periodic") = false)
      .def_static(
          "around",
          [](const py::object& positions, double spacing, double padding) {
            if (!(spacing >= 1e-3 && spacing <= 100.0))
              throw input_error("lattice: 'spacing' must be in [0.001, 100] A");
            if (!(padding >= 0 && padding <= 1000.0)) throw input_error("lattice: 'padding' must be in [0, 1000] A");
            const auto p =
                py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(host_array(positions));
            if (!p || p.ndim() != 2 || p.shape(1) != 3 || p.shape(0) == 0)
              throw input_error("positions: expected shape (N, 3) with N >= 1");
            py::array_t<double> zeros(p.shape(0));
            std::fill(zeros.mutable_data(), zeros.mutable_data() + p.shape(0), 0.0);
            const atoms a = atoms_from(p, zeros, py::none());
            try {
              lattice g = lattice_around(a, spacing, padding);
              check_lattice(g);
              return g;
            } catch (const input_error& e) {
              throw input_error(std::string("lattice (spacing, padding around the atoms): ") + e.what());
            }
          },
          py::arg("positions"), py::arg("spacing") = 0.5, py::arg("padding") = 10.0,
          "Parboil's convention: min - padding to max + padding, floor(extent / spacing) + 1 points per axis.")
      .def_property_readonly("origin",
                             [](const lattice& g) { return py::make_tuple(g.origin[0], g.origin[1], g.origin[2]); })
      .def_property_readonly("spacing", [](const lattice& g) { return g.spacing; })
      .def_property_readonly(
          "dims", [](const lattice& g) { return py::make_tuple(g.dims[0], g.dims[1], g.dims[2]); }, "(nx, ny, nz)")
      .def_property_readonly("periodic", [](const lattice& g) { return g.periodic; })
      .def_property_readonly(
          "shape", [](const lattice& g) { return py::tuple(py::cast(map_shape(g))); },
          "(nz, ny, nx): the shape of its maps (x fastest)")
      .def_property_readonly("size", &lattice::size)
      .def(
          "axes",
          [](const lattice& g) {
            py::list out;
            for (int d = 0; d < 3; ++d) {
              py::array_t<double> a(g.dims[d]);
              for (int i = 0; i < g.dims[d]; ++i) a.mutable_data()[i] = g.coord(d, i);
              out.append(a);
            }
            return py::tuple(out);
          },
          "(x, y, z): the points' coordinates along each axis")
      .def("__eq__",
           [](const lattice& a, const lattice& b) {
             return a.origin == b.origin && a.spacing == b.spacing && a.dims == b.dims && a.periodic == b.periodic;
           })
      .def("__repr__", [](const lattice& g) {
        return "Lattice(origin=(" + std::to_string(g.origin[0]) + ", " + std::to_string(g.origin[1]) + ", " +
               std::to_string(g.origin[2]) + "), spacing=" + std::to_string(g.spacing) + ", dims=(" +
               std::to_string(g.dims[0]) + ", " + std::to_string(g.dims[1]) + ", " + std::to_string(g.dims[2]) + ")" +
               (g.periodic ? ", periodic=True)" : ")");
      });

  py::class_<device_array>(m, "DeviceArray", "A float32 map in GPU memory (__cuda_array_interface__ v3).")
      .def_property_readonly("shape", [](const device_array& a) { return py::tuple(py::cast(a.shape)); })
      .def_property_readonly("dtype", [](const device_array&) { return py::dtype::of<float>(); })
      .def_property_readonly("size", [](const device_array& a) { return a.view.extent(0); })
      .def_property_readonly("__cuda_array_interface__", &device_array::interface)
      .def("get", &device_array::get, "A NumPy copy on the host.")
      .def("__array__", [](const device_array& a, py::args) { return a.get(); })
      .def("__repr__", [](const device_array& a) {
        return "DeviceArray(shape=" + std::string(py::str(py::tuple(py::cast(a.shape)))) + ", dtype=float32)";
      });

  py::class_<map_plan>(m, "Plan",
                       "A map prepared once and computed many times (new positions per frame, same charges).")
      .def(py::init(&make_plan), py::arg("positions"), py::arg("charges"), py::arg("lattice"),
           py::arg("interaction") = py::none(), py::arg("strategy") = "auto", py::arg("units") = "kT_per_e",
           py::arg("permittivity") = 1.0, py::arg("temperature") = py::none(), py::arg("exclusion_radius") = 0.0,
           py::arg("tolerance") = py::none(), py::arg("strategy_params") = py::none())
      .def("compute", &compute, py::arg("positions") = py::none(), py::arg("out") = py::none(),
           py::arg("mode") = "overwrite", py::arg("device") = "cpu",
           "The map (nz, ny, nx) in the plan's units; with positions, of the atoms moved there first. mode "
           "'accumulate' adds it to out.")
      .def(
          "add_frame",
          [](map_plan& p, const py::object& positions, const std::string& combine) {
            if (!positions.is_none()) p.move(positions);
            if (p.physics().exclusion_radius > 0)
              throw input_error("exclusion_radius: does not go with frames combined on the device");
            p.add_frame(combine);
          },
          py::arg("positions") = py::none(), py::arg("combine") = "mean",
          "This frame's map combined on the device with the frames before (mean, sum, min, max).")
      .def(
          "combined",
          [](map_plan& p, const std::string& device) {
            map_target t = target_for(p.grid(), py::none(), device);
            p.combined(t.view);
            if (t.host != nullptr) {
              Kokkos::View<float*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> h(t.host, t.view.extent(0));
              Kokkos::deep_copy(h, t.view);
            }
            return t.result;
          },
          py::arg("device") = "cpu", "The frames combined so far, in the plan's units.")
      .def("reset", &map_plan::reset_frames, "Forgets the frames added so far.")
      .def_readonly("frames", &map_plan::frames)
      .def_readonly("combine", &map_plan::combine)
      .def_readonly("setup_seconds", &map_plan::setup_seconds, "The last prepare (staging, binning).")
      .def_readonly("compute_seconds", &map_plan::compute_seconds, "The last compute's kernels.")
      .def_property_readonly("strategy", [](const map_plan& p) { return p.strategy().name; })
      .def_property_readonly("strategy_params", [](const map_plan& p) { return p.strategy().parameters_yaml; })
      .def_property_readonly("reason", [](const map_plan& p) { return p.strategy().reason; })
      .def_property_readonly("interaction", [](const map_plan& p) { return interaction_to_python(p.strategy().pair); })
      .def_property_readonly("lattice", &map_plan::grid)
      .def_property_readonly("atoms", [](const map_plan& p) { return p.input().size(); })
      .def_property_readonly("units", [](const map_plan& p) { return config_name(p.physics().units); })
      .def_property_readonly("pairs_examined", [](const map_plan& p) { return p.plan().pairs_examined(); });

  m.def(
      "potential_map",
      [](const py::object& positions, const py::object& charges, const lattice& g, const py::object& interaction_arg,
         const std::string& strategy, const std::string& units, double permittivity, const py::object& temperature,
         double exclusion_radius, const py::object& tolerance, const py::object& strategy_params,
         const std::string& device, const py::object& out, const py::kwargs& params) {
        auto p = make_plan(positions, charges, g, interaction_arg, strategy, units, permittivity, temperature,
                           exclusion_radius, tolerance, strategy_params, params);
        return compute(*p, py::none(), out, "overwrite", device);
      },
      py::arg("positions"), py::arg("charges"), py::arg("lattice"), py::arg("interaction") = py::none(),
      py::arg("strategy") = "auto", py::arg("units") = "kT_per_e", py::arg("permittivity") = 1.0,
      py::arg("temperature") = py::none(), py::arg("exclusion_radius") = 0.0, py::arg("tolerance") = py::none(),
      py::arg("strategy_params") = py::none(), py::arg("device") = "cpu", py::arg("out") = py::none(),
      "The electrostatic potential map of point charges on a lattice: a float32 array (nz, ny, nx).");

  m.def(
      "reference_map",
      [](const py::object& positions, const py::object& charges, const lattice& g, const py::object& interaction_arg) {
        std::vector<double> v = reference(positions, charges, g, interaction_arg);
        py::array_t<double> a(map_shape(g));
        std::copy(v.begin(), v.end(), a.mutable_data());
        return a;
      },
      py::arg("positions"), py::arg("charges"), py::arg("lattice"), py::arg("interaction") = py::none(),
      "ppl's float64 host reference (raw e/A, every pair; a cell list for cutoffs): the oracle of the tests.");

  m.def(
      "read_pqr",
      [](const std::string& path) {
        const atoms a = [&] {
          py::gil_scoped_release release;
          return ppl::read_pqr(path);
        }();
        const std::size_t n = a.size();
        py::array_t<double> pos(std::vector<py::ssize_t>{py::ssize_t(n), 3}), q(n), r(n);
        for (std::size_t i = 0; i < n; ++i) {
          pos.mutable_data()[3 * i] = a.x[i], pos.mutable_data()[3 * i + 1] = a.y[i];
          pos.mutable_data()[3 * i + 2] = a.z[i];
          q.mutable_data()[i] = a.q[i], r.mutable_data()[i] = a.radius[i];
        }
        return py::make_tuple(pos, q, r);
      },
      py::arg("path"), "(positions (N, 3), charges (N,), radii (N,)) of a PQR file; errors name path:line.");

  m.def(
      "write_dx",
      [](const std::string& path, const f32_array& values, const lattice& g, const std::string& comment) {
        const float* v = map_values(values, g);
        py::gil_scoped_release release;
        write_opendx(path, geometry_of(g), v, {comment});
      },
      py::arg("path"), py::arg("values"), py::arg("lattice"), py::arg("comment") = "written by ppl (Python)",
      "OpenDX (VMD, PyMOL, ChimeraX, APBS); '.gz' compresses.");
  m.def(
      "write_mrc",
      [](const std::string& path, const f32_array& values, const lattice& g, const std::string& label) {
        const float* v = map_values(values, g);
        py::gil_scoped_release release;
        write_mrc(path, geometry_of(g), v, {label});
      },
      py::arg("path"), py::arg("values"), py::arg("lattice"), py::arg("label") = "written by ppl (Python)",
      "MRC2014 / CCP4; '.gz' compresses.");
}

}  // namespace ppl::python
