// ppl.solve: a Krylov solve of a SciPy sparse matrix (its CSR arrays) with ppl's methods, preconditioners and SpMV.
#include <Kokkos_Core.hpp>
#include <limits>

#include "bindings.hpp"
#include "ppl/core/error.hpp"
#include "ppl/sparse/csr.hpp"
#include "ppl/sparse/krylov.hpp"
#include "ppl/sparse/preconditioner.hpp"
#include "ppl/sparse/spmv_strategy.hpp"

namespace ppl::python {
namespace {

constexpr bool host_memory =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, Kokkos::DefaultExecutionSpace::memory_space>::accessible;
using size_type = crs_matrix::size_type;

// The matrix from CSR arrays. On host builds the column indices (int32) and values (float64) are used where they
// are, without a copy; the row offsets are converted to the row-map type (64-bit unsigned) unless they are int64.
// The arrays must outlive the solve (the caller holds them).
crs_matrix matrix_from(const py::array& indptr, const py::array& indices, const py::array& data, int rows, int cols,
                       std::vector<size_type>& row_map_storage, bool& copied) {
  const std::size_t nnz = std::size_t(data.size());
  copied = false;
  if (!host_memory) {
    host_csr h;
    h.rows = rows, h.cols = cols;
    const auto rm = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(indptr);
    const auto en = py::array_t<int, py::array::c_style | py::array::forcecast>::ensure(indices);
    const auto va = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(data);
    h.row_map.assign(rm.data(), rm.data() + rm.size());
    h.entries.assign(en.data(), en.data() + en.size());
    h.values.assign(va.data(), va.data() + va.size());
    copied = true;
    return to_device(h, "ppl::python::A");
  }
  using rm_view = crs_matrix::row_map_type::non_const_type;
  using en_view = crs_matrix::index_type::non_const_type;
  using va_view = crs_matrix::values_type::non_const_type;
  rm_view rm;
  if (py::isinstance<py::array_t<std::int64_t>>(indptr) && sizeof(size_type) == 8) {
    rm = rm_view(reinterpret_cast<size_type*>(const_cast<void*>(indptr.data())), std::size_t(rows) + 1);
  } else {
    const auto p = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(indptr);
    row_map_storage.assign(p.data(), p.data() + p.size());
    rm = rm_view(row_map_storage.data(), row_map_storage.size());
    copied = true;
  }
  en_view en(static_cast<int*>(const_cast<void*>(indices.data())), nnz);
  va_view va(static_cast<double*>(const_cast<void*>(data.data())), nnz);
  return crs_matrix("ppl::python::A", rows, cols, static_cast<size_type>(nnz), va, rm, en);
}

py::tuple solve(const py::object& A_in, const py::object& b_in, const std::string& method,
                const std::string& preconditioner, double rtol, double atol, int max_iters, const py::object& x0,
                const std::string& spmv, const py::object& preconditioner_params, const py::object& spmv_params,
                double dtol, bool history, const py::kwargs& method_params) {
  ensure_kokkos();
  // Any SciPy sparse matrix: CSR as it is when its indices are sorted and duplicate-free, else a canonical copy.
  if (!py::hasattr(A_in, "tocsr") || !py::hasattr(A_in, "shape"))
    throw input_error("A: a scipy.sparse matrix is needed (csr_matrix, csr_array, coo, csc, ...)");
  py::object A = A_in.attr("tocsr")();
  if (!A.attr("has_canonical_format").cast<bool>()) {
    A = A.attr("copy")();
    A.attr("sum_duplicates")();
  }
  const auto shape = A.attr("shape").cast<std::pair<long long, long long>>();
  if (shape.first != shape.second)
    throw input_error("A: a square matrix is needed, got " + std::to_string(shape.first) + " x " +
                      std::to_string(shape.second));
  if (shape.first < 1 || shape.first > std::numeric_limits<int>::max())
    throw input_error("A: rows must be in [1, 2^31 - 1]");
  const int n = int(shape.first);
  py::array data = A.attr("data");
  py::array indices = A.attr("indices");
  py::array indptr = A.attr("indptr");
  bool values_converted = false, indices_converted = false;
  if (!py::isinstance<py::array_t<double>>(data) || !(data.flags() & py::array::c_style)) {
    data = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(data);
    values_converted = true;
  }
  if (!py::isinstance<py::array_t<int>>(indices) || !(indices.flags() & py::array::c_style)) {
    indices = py::array_t<int, py::array::c_style | py::array::forcecast>::ensure(indices);
    indices_converted = true;
  }
  if (!indptr.dtype().is(py::dtype::of<std::int64_t>()) && !indptr.dtype().is(py::dtype::of<int>()))
    indptr = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(indptr);
  const double* vals = static_cast<const double*>(data.data());
  for (py::ssize_t i = 0; i < data.size(); ++i)
    if (!std::isfinite(vals[i])) throw input_error("A: entry " + std::to_string(i) + " is not finite");

  const auto b = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(host_array(b_in));
  if (!b || b.ndim() != 1 || b.shape(0) != n)
    throw input_error("b: expected shape (" + std::to_string(n) + ",), one value per row");
  py::array_t<double> x(n);
  if (!x0.is_none()) {
    const auto g = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(host_array(x0));
    if (!g || g.ndim() != 1 || g.shape(0) != n) throw input_error("x0: expected shape (" + std::to_string(n) + ",)");
    std::copy(g.data(), g.data() + n, x.mutable_data());
  } else {
    std::fill(x.mutable_data(), x.mutable_data() + n, 0.0);
  }

  solver_options o;
  o.rtol = rtol, o.atol = atol, o.max_iters = max_iters, o.dtol = dtol, o.record_history = history;
  if (!(rtol >= 0 && rtol < 1)) throw input_error("rtol: must be in [0, 1)");
  if (!(atol >= 0)) throw input_error("atol: must be >= 0");
  if (!(dtol > 1)) throw input_error("dtol: must exceed 1");
  if (max_iters < 1) throw input_error("max_iters: must be >= 1");
  o.preconditioner = preconditioner;
  const auto dict_of = [](const py::object& d, const char* what) {
    if (d.is_none()) return py::dict();
    if (!py::isinstance<py::dict>(d)) throw input_error(std::string(what) + ": must be a dict");
    return d.cast<py::dict>();
  };
  o.preconditioner_params =
      values_from(dict_of(preconditioner_params, "preconditioner_params"), "preconditioner_params");
  preconditioners().get(preconditioner, "preconditioner");
  const auto& entry = solvers().get(method, "method");
  if (entry.can(krylov_uses_transpose) && !preconditioners().get(preconditioner, "preconditioner").can("transpose"))
    throw input_error("preconditioner: '" + preconditioner + "' has no transpose, which method '" + method +
                      "' applies");
  std::unique_ptr<spmv_strategy> op;
  try {
    op = make_spmv_strategy(spmv, values_from(dict_of(spmv_params, "spmv_params"), "spmv_params"));
  } catch (const parameter_error& e) {
    throw input_error(std::string("spmv_params: ") + e.what());
  }
  std::unique_ptr<krylov_solver> solver;
  try {
    solver = make_solver(method, o, values_from(method_params, "method parameters"));
  } catch (const parameter_error& e) {
    throw input_error(std::string("method parameters: ") + e.what());
  }

  std::vector<size_type> row_map_storage;
  bool row_map_copied = false;
  solver_result r;
  const crs_matrix M = matrix_from(indptr, indices, data, n, n, row_map_storage, row_map_copied);
  {
    py::gil_scoped_release release;
    vector_view bv, xv;
    if (host_memory) {
      bv = vector_view(const_cast<double*>(b.data()), std::size_t(n));
      xv = vector_view(x.mutable_data(), std::size_t(n));
    } else {
      bv = to_device(std::vector<double>(b.data(), b.data() + n), "ppl::python::b");
      xv = to_device(std::vector<double>(x.data(), x.data() + n), "ppl::python::x");
    }
    op->prepare(M);
    r = solver->solve(execution(), M, *op, bv, xv);
    if (!host_memory) {
      auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), xv);
      std::copy(h.data(), h.data() + n, x.mutable_data());
    }
  }
  py::dict info;
  info["outcome"] = to_string(r.outcome);
  info["converged"] = is_converged(r.outcome);
  info["breakdown"] = r.breakdown;
  info["iterations"] = r.iterations;
  info["restarts"] = r.restarts;
  info["breakdown_restarts"] = r.breakdown_restarts;
  info["b_norm"] = r.b_norm;
  info["residual_norm"] = r.residual_norm;
  info["true_residual_norm"] = r.true_residual_norm;
  info["true_residual"] = r.true_residual;
  info["history"] = py::array_t<double>(py::ssize_t(r.history.size()), r.history.data());
  info["seconds"] = r.times.total;
  info["setup_seconds"] = r.times.setup;
  info["iterate_seconds"] = r.times.iterate;
  info["method"] = method;
  info["preconditioner"] = preconditioner;
  info["spmv"] = op->describe();
  // What was copied to make ppl's matrix: on host builds SciPy's float64 values and int32 column indices are used in
  // place; the row offsets (rows + 1 of them) become 64-bit unless they are int64 already, which SciPy only makes
  // together with int64 column indices, and those are converted to int32.
  info["values_copied"] = !host_memory || values_converted;
  info["indices_copied"] = !host_memory || indices_converted;
  info["row_offsets_copied"] = !host_memory || row_map_copied;
  return py::make_tuple(x, info);
}

}  // namespace

void bind_sparse(py::module_& m) {
  m.def("solve", &solve, py::arg("A"), py::arg("b"), py::arg("method") = "bicgstab",
        py::arg("preconditioner") = "jacobi", py::arg("rtol") = 1e-8, py::arg("atol") = 0.0,
        py::arg("max_iters") = 1000, py::arg("x0") = py::none(), py::arg("spmv") = "auto",
        py::arg("preconditioner_params") = py::none(), py::arg("spmv_params") = py::none(), py::arg("dtol") = 1e5,
        py::arg("history") = true,
        "Solves A x = b (A any scipy.sparse matrix) with a Krylov method; returns (x, info).");
}

}  // namespace ppl::python
