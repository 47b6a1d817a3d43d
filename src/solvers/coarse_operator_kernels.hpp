#pragma once
// Site kernels of the coarse operator (solvers/coarse_operator.hpp): its storage, and its application
// as a 9-point stencil of dense dof x dof blocks.

#include <cstdint>

#include "fields/coarse_block_field.hpp"
#include "fields/coarse_field.hpp"

namespace lqcd {

// The stencil's coupling blocks: direction d = 0 the site itself, d = 1 + 2 mu the neighbour
// Y + mu-hat, d = 2 + 2 mu the neighbour Y - mu-hat; (D_c psi)(Y) = sum_d A_d(Y) psi(neighbour_d(Y)).
// Block d of site Y is stored column-major, element (row, col) at ((d * sites + Y) * dof + col) * dof + row:
// the threads of one site, one row each, read consecutive words.
constexpr int kStencilDirections = 9;

LQCD_HOST_DEVICE inline int stencil_direction(int mu, int dir) { return dir > 0 ? 1 + 2 * mu : 2 + 2 * mu; }

template <typename Real>
struct CoarseStencilView {
  Complex<Real>* a;
  CoarseLattice lattice;
  int dof;
  LQCD_HOST_DEVICE Complex<Real>& at(int d, std::int64_t Y, int row, int col) const {
    return a[((std::int64_t(d) * lattice.sites + Y) * dof + col) * dof + row];
  }
  LQCD_HOST_DEVICE std::int64_t neighbour(std::int64_t Y, int d) const {
    return d == 0 ? Y : lattice.neighbour(Y, (d - 1) / 2, (d - 1) % 2 == 0 ? 1 : -1);
  }
};

// sum_{d in [d_first, d_end)} sum_col A_d(Y)[row, col] in(neighbour_d(Y), col): one row of the stencil.
// On a block of n right-hand sides (fields/coarse_block_field.hpp) `in` holds component (Z, col) of
// right-hand side j at (Z * dof + col) * n + j; single fields are n = 1, j = 0.
template <typename Real>
LQCD_HOST_DEVICE Complex<Real> stencil_row(const CoarseStencilView<Real>& A, const Complex<Real>* in, std::int64_t Y,
                                           int row, int d_first, int d_end, int j = 0, int n = 1) {
  const int dof = A.dof;
  Complex<Real> acc;
  for (int d = d_first; d < d_end; ++d) {
    const Complex<Real>* v = in + A.neighbour(Y, d) * dof * n + j;
    const Complex<Real>* m = &A.at(d, Y, row, 0);
    for (int col = 0; col < dof; ++col) acc = multiply_add(m[std::int64_t(col) * dof], v[std::int64_t(col) * n], acc);
  }
  return acc;
}

// out(Y, row) = sum_d sum_col A_d(Y)[row, col] in(neighbour_d(Y), col), one element per thread; with
// dagger the adjoint: (D_c^dag)[Y, Z] = D_c[Z, Y]^dag, i.e. block A_{d'}(Z)^dag with d' the opposite
// direction (FLOPs per element: 9 * dof * 8).
template <typename Real>
struct CoarseApplyKernel {
  CoarseStencilView<Real> A;
  CoarseView<Real> in, out;
  int dagger;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const int dof = A.dof;
    const std::int64_t Y = i / dof;
    const int row = int(i - Y * dof);
    if (!dagger) {
      out.data[i] = stencil_row(A, in.data, Y, row, 0, kStencilDirections);
      return;
    }
    Complex<Real> acc;
    for (int d = 0; d < kStencilDirections; ++d) {
      const std::int64_t Z = A.neighbour(Y, d);
      const Complex<Real>* v = in.data + Z * dof;
      const int opposite = d == 0 ? 0 : (d % 2 == 1 ? d + 1 : d - 1);
      const Complex<Real>* m = &A.at(opposite, Z, 0, row);  // column `row` of A_{d'}(Z)
      for (int col = 0; col < dof; ++col) acc = conj_multiply_add(m[col], v[col], acc);
    }
    out.data[i] = acc;
  }
};

// The same stencil on N right-hand sides at once (fields/coarse_block_field.hpp, issue 46): thread
// i = (Y * dof + row) * N + j computes out(Y, row, j). The N threads of one (Y, row) read the same block
// elements, so each link word comes from memory once for all N (the others hit the cache), and they
// read consecutive words of `in`. The sum runs in stencil_row's order, so each right-hand side equals
// its single application bit for bit. FLOPs per element: 9 * dof * 8.
template <typename Real>
struct CoarseApplyBlockKernel {
  CoarseStencilView<Real> A;
  CoarseBlockView<Real> in, out;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const int n = in.rhs;
    const std::int64_t site_row = i / n;
    const std::int64_t Y = site_row / A.dof;
    out.data[i] = stencil_row(A, in.data, Y, int(site_row - Y * A.dof), 0, kStencilDirections, int(i - site_row * n), n);
  }
};

// The twisted mass on the coarse grid scaled by `factor` (QUDA's coarse "mu factor"; DD-alphaAMG for
// twisted mass likewise raises the coarse mu): for a fine operator D = H + i m gamma_5 with H
// gamma_5-hermitian (Wilson, clover; m = 2 kappa mu in hopping form), A_0(Y) = H_c + i m G with
// G = diag(+1 on the first dof/2 components, -1 on the rest) and G H_c Hermitian, so
// m = sum_r G_r Im A_0(Y)[r, r] / dof exactly; A_0 gets i (factor - 1) m G added. With mu = 0 this adds
// nothing. One thread per coarse site.
template <typename Real>
struct CoarseTwistScaleKernel {
  CoarseStencilView<Real> A;
  double factor;
  LQCD_HOST_DEVICE void operator()(std::int64_t Y) const {
    const int dof = A.dof, half = dof / 2;
    double m = 0;
    for (int r = 0; r < dof; ++r) m += (r < half ? 1.0 : -1.0) * double(A.at(0, Y, r, r).im);
    m /= dof;
    const Real add = Real((factor - 1.0) * m);
    for (int r = 0; r < dof; ++r) A.at(0, Y, r, r).im += r < half ? add : -add;
  }
};

}  // namespace lqcd
