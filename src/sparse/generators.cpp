// Q1 convection-diffusion generator: the CSR structure comes straight from the structured mesh (a row's columns
// are its 3x3x3 node neighbourhood, already sorted), and each value is the sum of the element matrices of the
// elements that hold both nodes, gathered row by row in parallel (no atomics, no COO sort, deterministic).
#include "ppl/sparse/generators.hpp"

#include <KokkosSparse_spmv.hpp>
#include <cmath>
#include <limits>
#include <string>

#include "ppl/core/error.hpp"
#include "ppl/core/huge_pages.hpp"

namespace ppl {
namespace {

using size_type = crs_matrix::size_type;
using row_map_view = crs_matrix::row_map_type::non_const_type;
using entries_view = crs_matrix::index_type::non_const_type;
using values_view = crs_matrix::values_type::non_const_type;

constexpr double pi = 3.14159265358979323846;

void velocity(const convection_diffusion_params& p, double beta[3]) {
  const double dir[3] = {1.0, 0.6, 0.3};
  const double norm = std::sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
  const double speed = p.peclet;  // eps = 1, L = 1
  for (int d = 0; d < 3; ++d) beta[d] = speed * dir[d] / norm;
}

void validate(const convection_diffusion_params& p) {
  const std::string what = "convection_diffusion generator: ";
  if (p.n < 2) throw input_error(what + "n must be >= 2 (got " + std::to_string(p.n) + ")");
  if (p.components != 1 && p.components != 3)
    throw input_error(what + "components must be 1 or 3 (got " + std::to_string(p.components) + ")");
  if (!(p.peclet >= 0) || !std::isfinite(p.peclet)) throw input_error(what + "peclet must be finite and >= 0");
  if (!(p.coupling >= 0) || !std::isfinite(p.coupling)) throw input_error(what + "coupling must be finite and >= 0");
  if (convection_diffusion_rows(p) > std::numeric_limits<int>::max())
    throw input_error(what + "n = " + std::to_string(p.n) + " gives more than 2^31 - 1 rows");
  if (static_cast<unsigned long long>(convection_diffusion_nnz(p)) > std::numeric_limits<size_type>::max())
    throw input_error(what + "n = " + std::to_string(p.n) + " gives more nonzeros than the row map type holds");
}

// Row-wise assembly. All elements are the same cube, so "the element matrix of element e" is one 8x8 table and
// an element only decides which local indices the two nodes have in it.
struct assemble_values {
  row_map_view row_map;
  entries_view entries;
  values_view values;
  int m = 0;  // interior nodes per direction (n - 1)
  int comps = 1;
  double coupling = 0;
  double element[8][8];  // (eps K + C) / h
  double mass[8][8];     // M / h^3
  double q[3][3];

  KOKKOS_INLINE_FUNCTION void operator()(const int row) const {
    const int node = row / comps, c = row % comps;
    const int i = node % m, j = (node / m) % m, k = node / (m * m);
    size_type pos = row_map(row);
    for (int dk = -1; dk <= 1; ++dk) {
      if (k + dk < 0 || k + dk >= m) continue;
      for (int dj = -1; dj <= 1; ++dj) {
        if (j + dj < 0 || j + dj >= m) continue;
        for (int di = -1; di <= 1; ++di) {
          if (i + di < 0 || i + di >= m) continue;
          double a = 0, mm = 0;
          // Elements around the row's node: element index e = node - 1 + s per axis (s in {0, 1}); the row node
          // has local coordinate 1 - s, the column node 1 - s + d, which must be 0 or 1.
          for (int sz = 0; sz < 2; ++sz) {
            const int az = 1 - sz, bz = az + dk;
            if (bz < 0 || bz > 1) continue;
            for (int sy = 0; sy < 2; ++sy) {
              const int ay = 1 - sy, by = ay + dj;
              if (by < 0 || by > 1) continue;
              for (int sx = 0; sx < 2; ++sx) {
                const int ax = 1 - sx, bx = ax + di;
                if (bx < 0 || bx > 1) continue;
                const int la = ax + 2 * ay + 4 * az, lb = bx + 2 * by + 4 * bz;
                a += element[la][lb];
                mm += mass[la][lb];
              }
            }
          }
          const int col_node = (i + di) + m * ((j + dj) + m * (k + dk));
          for (int c2 = 0; c2 < comps; ++c2) {
            entries(pos) = col_node * comps + c2;
            values(pos) = (c == c2 ? a : 0.0) + (comps > 1 ? coupling * q[c][c2] * mm : 0.0);
            ++pos;
          }
        }
      }
    }
  }
};

KOKKOS_INLINE_FUNCTION int axis_count(int i, int m) {
  return 1 + (i > 0) + (i < m - 1);
}

}  // namespace

std::int64_t convection_diffusion_rows(const convection_diffusion_params& p) {
  const std::int64_t m = p.n - 1;
  return m * m * m * p.components;
}

std::int64_t convection_diffusion_nnz(const convection_diffusion_params& p) {
  // Per axis, the neighbour counts of the m interior nodes sum to 3m - 2; the stencil is their product.
  const std::int64_t m = p.n - 1, per_axis = 3 * m - 2;
  return per_axis * per_axis * per_axis * p.components * p.components;
}

int convection_diffusion_n_for_rows(std::int64_t rows, int components) {
  int n = 2;
  while (static_cast<std::int64_t>(n - 1) * (n - 1) * (n - 1) * components < rows) ++n;
  return n;
}

q1_element_matrices q1_element(double h, const double beta[3]) {
  // Exact 1D integrals on [0, h] with N0 = 1 - x/h, N1 = x/h; the trilinear element matrices are their tensor
  // products (the integrands separate by axis).
  const double m1[2][2] = {{h / 3, h / 6}, {h / 6, h / 3}};    // int Na Nb
  const double s1[2][2] = {{1 / h, -1 / h}, {-1 / h, 1 / h}};  // int Na' Nb'
  const double d1[2][2] = {{-0.5, 0.5}, {-0.5, 0.5}};          // int Na Nb'
  q1_element_matrices e{};
  for (int a = 0; a < 8; ++a) {
    const int ax = a & 1, ay = (a >> 1) & 1, az = (a >> 2) & 1;
    for (int b = 0; b < 8; ++b) {
      const int bx = b & 1, by = (b >> 1) & 1, bz = (b >> 2) & 1;
      const double mx = m1[ax][bx], my = m1[ay][by], mz = m1[az][bz];
      e.mass[a][b] = mx * my * mz;
      e.stiffness[a][b] = s1[ax][bx] * my * mz + mx * s1[ay][by] * mz + mx * my * s1[az][bz];
      e.convection[a][b] =
          beta[0] * d1[ax][bx] * my * mz + beta[1] * mx * d1[ay][by] * mz + beta[2] * mx * my * d1[az][bz];
    }
  }
  return e;
}

void component_coupling_matrix(double q[3][3]) {
  // Symmetric part 0.5 I (positive definite) plus a skew part: keeps the coupled system positive real.
  const double v[3][3] = {{0.5, 0.3, -0.2}, {-0.3, 0.5, 0.25}, {0.2, -0.25, 0.5}};
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) q[a][b] = v[a][b];
}

crs_matrix make_convection_diffusion_matrix(const convection_diffusion_params& p) {
  validate(p);
  const int m = p.n - 1, comps = p.components;
  const int rows = static_cast<int>(convection_diffusion_rows(p));
  const size_type nnz = static_cast<size_type>(convection_diffusion_nnz(p));

  auto row_map = make_large_view<row_map_view>("ppl::cd::row_map", static_cast<size_t>(rows) + 1);
  Kokkos::parallel_scan(
      "ppl::cd::row_map", Kokkos::RangePolicy<sparse_space>(0, rows),
      KOKKOS_LAMBDA(const int row, size_type& offset, const bool final) {
        const int node = row / comps, i = node % m, j = (node / m) % m, k = node / (m * m);
        offset += static_cast<size_type>(axis_count(i, m) * axis_count(j, m) * axis_count(k, m) * comps);
        if (final) row_map(row + 1) = offset;
      });

  const double h = 1.0 / p.n;
  double beta[3];
  velocity(p, beta);
  const q1_element_matrices e = q1_element(h, beta);
  assemble_values f;
  f.row_map = row_map;
  f.entries = entries_view(Kokkos::ViewAllocateWithoutInitializing("ppl::cd::entries"), nnz);
  f.values = values_view(Kokkos::ViewAllocateWithoutInitializing("ppl::cd::values"), nnz);
  advise_huge_pages(f.entries);
  advise_huge_pages(f.values);
  f.m = m;
  f.comps = comps;
  f.coupling = p.coupling;
  component_coupling_matrix(f.q);
  for (int a = 0; a < 8; ++a)
    for (int b = 0; b < 8; ++b) {
      f.element[a][b] = (e.stiffness[a][b] + e.convection[a][b]) / h;  // eps = 1
      f.mass[a][b] = e.mass[a][b] / (h * h * h);
    }
  Kokkos::parallel_for("ppl::cd::assemble", Kokkos::RangePolicy<sparse_space>(0, rows), f);
  return crs_matrix("ppl::convection_diffusion", rows, rows, nnz, f.values, row_map, f.entries);
}

generated_system make_convection_diffusion(const convection_diffusion_params& p) {
  generated_system s;
  s.A = make_convection_diffusion_matrix(p);
  const int rows = s.A.numRows(), m = p.n - 1, comps = p.components;
  const double h = 1.0 / p.n;
  s.x_exact = vector_view(Kokkos::ViewAllocateWithoutInitializing("ppl::cd::x_exact"), rows);
  s.b = vector_view(Kokkos::ViewAllocateWithoutInitializing("ppl::cd::b"), rows);
  advise_huge_pages(s.x_exact);
  advise_huge_pages(s.b);
  auto x = s.x_exact;
  Kokkos::parallel_for(
      "ppl::cd::x_exact", Kokkos::RangePolicy<sparse_space>(0, rows), KOKKOS_LAMBDA(const int row) {
        const int node = row / comps, c = row % comps;
        const double px = h * (node % m + 1), py = h * ((node / m) % m + 1), pz = h * (node / (m * m) + 1);
        x(row) = 1.0 + 0.5 * px - 0.25 * py + sin(pi * (px + 0.5 * c)) * cos(2.0 * pi * py) * (1.0 + pz * pz);
      });
  KokkosSparse::spmv("N", 1.0, s.A, const_vector_view(s.x_exact), 0.0, s.b);
  s.description = "Q1 convection-diffusion, n = " + std::to_string(p.n) + " elements per side, " +
                  std::to_string(comps) + " component(s), Peclet " + std::to_string(p.peclet) + " (cell Peclet " +
                  std::to_string(p.peclet * h / 2) + "), " + std::to_string(rows) + " rows, " +
                  std::to_string(s.A.nnz()) + " nonzeros";
  return s;
}

}  // namespace ppl
