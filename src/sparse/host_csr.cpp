// Host <-> device copies of CSR matrices and vectors.
#include <limits>

#include "ppl/core/error.hpp"
#include "ppl/core/huge_pages.hpp"
#include "ppl/sparse/csr.hpp"

namespace ppl {

host_csr to_host(const crs_matrix& A) {
  host_csr h;
  h.rows = A.numRows();
  h.cols = A.numCols();
  auto rm = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.graph.row_map);
  auto en = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.graph.entries);
  auto va = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.values);
  h.row_map.assign(rm.data(), rm.data() + rm.extent(0));
  if (h.row_map.empty()) h.row_map.push_back(0);
  h.entries.assign(en.data(), en.data() + en.extent(0));
  h.values.assign(va.data(), va.data() + va.extent(0));
  return h;
}

crs_matrix to_device(const host_csr& A, const std::string& label) {
  using size_type = crs_matrix::size_type;
  const std::size_t nnz = A.values.size();
  if (A.rows < 0 || A.cols < 0 || A.row_map.size() != static_cast<std::size_t>(A.rows) + 1 || A.entries.size() != nnz ||
      A.row_map.front() != 0 || static_cast<std::size_t>(A.row_map.back()) != nnz)
    throw input_error(label + ": inconsistent CSR arrays");
  if (nnz > std::numeric_limits<size_type>::max())
    throw input_error(label + ": " + std::to_string(nnz) + " nonzeros exceed the row-map type of this build");
  crs_matrix::row_map_type::non_const_type rm(Kokkos::ViewAllocateWithoutInitializing(label + "::row_map"),
                                              A.row_map.size());
  crs_matrix::index_type::non_const_type en(Kokkos::ViewAllocateWithoutInitializing(label + "::entries"), nnz);
  crs_matrix::values_type::non_const_type va(Kokkos::ViewAllocateWithoutInitializing(label + "::values"), nnz);
  advise_huge_pages(rm);
  advise_huge_pages(en);
  advise_huge_pages(va);
  auto hrm = Kokkos::create_mirror_view(rm);
  for (std::size_t i = 0; i < A.row_map.size(); ++i) hrm(i) = static_cast<size_type>(A.row_map[i]);
  Kokkos::deep_copy(rm, hrm);
  Kokkos::deep_copy(en, Kokkos::View<const int*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(A.entries.data(), nnz));
  Kokkos::deep_copy(va, Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(A.values.data(), nnz));
  return crs_matrix(label, A.rows, A.cols, static_cast<size_type>(nnz), va, rm, en);
}

std::vector<double> to_host(const_vector_view x) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
  return std::vector<double>(h.data(), h.data() + h.extent(0));
}

vector_view to_device(const std::vector<double>& x, const std::string& label) {
  vector_view v(Kokkos::ViewAllocateWithoutInitializing(label), x.size());
  advise_huge_pages(v);
  Kokkos::deep_copy(v, Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(x.data(), x.size()));
  return v;
}

}  // namespace ppl
