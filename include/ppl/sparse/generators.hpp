#pragma once
// Generated sparse systems for studies at scale: 3D convection-diffusion on a structured mesh of trilinear
// hexahedral (Q1) elements, assembled element by element straight into CSR (no COO sort), with a manufactured
// solution x* and b = A x*.
//
// Problem: -eps Laplace(u) + beta . grad(u) (+ a coupling between components) on the unit cube, u = 0 on the
// boundary, eps = 1. The mesh has n x n x n elements of size h = 1/n; boundary nodes are eliminated, so the
// unknowns are the (n-1)^3 interior nodes (times `components`), numbered x fastest, then y, then z (and the
// component fastest of all). The system is scaled by 1/h so that entries are O(1) for every n.
//
// beta is fixed in direction (1, 0.6, 0.3)/|.| with |beta| = peclet * eps / L (L = 1, the side of the domain):
// `peclet` is the global Peclet number; the mesh (cell) Peclet number is peclet * h / 2, and Galerkin stays
// oscillation-free while that is below 1. Galerkin convection with homogeneous Dirichlet conditions is
// skew-symmetric and the Q1 stiffness is SPD, so A is positive real (x^T A x > 0 for x != 0) and nonsingular for
// every peclet. docs/solver.md lists Jacobi-BiCGSTAB iteration counts against peclet.
//
// components = 3: A3 = A (x) I3 + coupling * M (x) Q, with M the Q1 mass matrix (scaled by 1/h^3) and Q a fixed
// 3x3 matrix with a positive-definite symmetric part, so A3 stays positive real. Every node-node block is full:
// 81 nonzeros per interior row (27 for components = 1).
#include <cstdint>
#include <string>

#include "ppl/sparse/csr.hpp"

namespace ppl {

struct convection_diffusion_params {
  int n = 32;             // elements per direction; (n-1)^3 * components rows; n >= 2
  int components = 1;     // 1 (27 nonzeros per interior row) or 3 (81)
  double peclet = 1.0;    // global Peclet number |beta| L / eps (L = 1), >= 0
  double coupling = 1.0;  // strength of the component coupling (components = 3 only), >= 0
};

struct generated_system {
  crs_matrix A;
  vector_view x_exact;  // manufactured solution: a smooth function of the node coordinates
  vector_view b;        // A x_exact, computed with KokkosSparse::spmv
  std::string description;
};

// Throws ppl::input_error for n < 2, components not in {1, 3}, negative peclet/coupling, or more than 2^31 - 1
// rows or 2^32 - 1 nonzeros.
generated_system make_convection_diffusion(const convection_diffusion_params& p);

// The matrix alone (no x*, no b).
crs_matrix make_convection_diffusion_matrix(const convection_diffusion_params& p);

// Rows and nonzeros a call would produce (without building anything), e.g. to choose n for a target size.
std::int64_t convection_diffusion_rows(const convection_diffusion_params& p);
std::int64_t convection_diffusion_nnz(const convection_diffusion_params& p);

// The smallest n whose system has at least `rows` rows.
int convection_diffusion_n_for_rows(std::int64_t rows, int components);

// The 8x8 element matrices the assembly uses, for tests: node l of the element sits at local offsets
// (l & 1, (l >> 1) & 1, (l >> 2) & 1). Row a, column b: stiffness int grad phi_a . grad phi_b, convection
// int phi_a (beta . grad phi_b), mass int phi_a phi_b, all for an element of size h (unscaled).
struct q1_element_matrices {
  double stiffness[8][8];
  double convection[8][8];
  double mass[8][8];
};
q1_element_matrices q1_element(double h, const double beta[3]);

// The 3x3 coupling matrix Q of the components = 3 system (row = component of the equation).
void component_coupling_matrix(double q[3][3]);

}  // namespace ppl
