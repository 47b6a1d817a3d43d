#pragma once
// Site kernels that build the coarse operator (solvers/coarse_operator.hpp) from the links rather than
// by probing, for fine operators whose couplings between sites are alpha H, H the Wilson hopping term
// (dirac/hopping_part.hpp):
//   A_{+mu}(Y)[row, col] = sum over x on Y's upper mu-face of V_Y(x, row)^dag alpha (1 - gamma_mu) U_mu(x) V_{Y+mu}(x + mu, col),
//   A_{-mu}(Y)[row, col] = sum over x on Y's lower mu-face of V_Y(x, row)^dag alpha (1 + gamma_mu) U_mu(x - mu)^dag V_{Y-mu}(x - mu, col),
// with the boundary phase (its conjugate backwards) on hops across the lattice's edge: only the hops
// that leave a block couple it to a neighbour (blocks are at least 2 wide, so the two faces are
// apart and a coarse extent of 2 gives two distinct blocks A_{+mu}, A_{-mu} to one neighbour). The
// block of the site itself then follows from one probe with every block at once (ProbeKernel with
// colour kAllColours): (P^dag D P e_col)(Y) = A_0(Y) e_col + sum_{d > 0} A_d(Y) e_col
// (CoarseSelfBlockKernel). dof applications of D instead of colours x dof.

#include <cstdint>

#include "dirac/wilson_kernels.hpp"
#include "fields/gauge_view.hpp"
#include "solvers/coarse_operator_kernels.hpp"
#include "solvers/transfer_kernels.hpp"

namespace lqcd {

// Block (row, col) of A_d(Y), d = 1 .. 8, one thread each: t = ((d - 1) * sites + Y) * dof^2 + col * dof + row,
// the blocks' own (column-major) order.
template <typename Real>
struct CoarseHoppingKernel {
  Aggregation agg;
  TestVectors<Real> V;
  GaugeView<Real> U;
  FermionBoundary boundary;  // real phases (+-1) or complex ones
  double alpha;
  CoarseStencilView<Real> A;
  LQCD_HOST_DEVICE void operator()(std::int64_t t) const {
    const int dof = A.dof;
    const std::int64_t per_direction = A.lattice.sites * dof * dof;
    const int d = 1 + int(t / per_direction);
    const std::int64_t rest = t - (d - 1) * per_direction;
    const std::int64_t Y = rest / (std::int64_t(dof) * dof);
    const int col = int(rest / dof % dof), row = int(rest % dof);
    const int mu = (d - 1) / 2, dir = (d - 1) % 2 == 0 ? 1 : -1;
    const int chi_r = row / V.nv, k_r = row % V.nv, chi_c = col / V.nv, k_c = col % V.nv;
    const int n_mu = agg.fine.n[mu];
    int X[4];
    A.lattice.coords(Y, X);
    // The face's sites: the block's local coordinates with x_mu fixed, the other three running.
    int other[3], m = 0;
    for (int nu = 0; nu < 4; ++nu)
      if (nu != mu) other[m++] = nu;
    const int face_sites = agg.block_sites / agg.b[mu];
    Complex<Real> acc;
    for (int f = 0; f < face_sites; ++f) {
      int x[4], r = f;
      x[mu] = X[mu] * agg.b[mu] + (dir > 0 ? agg.b[mu] - 1 : 0);
      for (int j = 0; j < 3; ++j) {
        const int nu = other[j];
        x[nu] = X[nu] * agg.b[nu] + r % agg.b[nu];
        r /= agg.b[nu];
      }
      int y[4] = {x[0], x[1], x[2], x[3]};
      y[mu] = (x[mu] + dir + n_mu) % n_mu;
      const bool across = dir > 0 ? x[mu] == n_mu - 1 : x[mu] == 0;
      const std::int64_t iy = agg.fine_index(y);
      // psi = column col of P at y: vector k_c's chirality-chi_c components, the others zero.
      ColorSpinor<Real> psi{};
      for (int a = 0; a < 6; ++a) psi.s[2 * chi_c + a / 3].c[a % 3] = V.at(iy, chi_c, a, k_c);
      // h = (1 -+ gamma_mu) U psi, U = U_mu(x) forwards, U_mu(x - mu)^dag backwards.
      ColorSpinor<Real> h;
      if (dir > 0) {
        h = color_multiply(U.load(mu, SiteIndexer::parity(x), agg.fine.lex(x) >> 1), psi);
      } else {
        h = color_adj_multiply(U.load(mu, SiteIndexer::parity(y), agg.fine.lex(y) >> 1), psi);
      }
      const ColorSpinor<Real> gh = apply_gamma(mu, h);
      Complex<double> phase(1.0);
      if (across) phase = dir > 0 ? boundary.phase[mu] : conj(boundary.phase[mu]);
      const Complex<Real> factor(Real(alpha * phase.re), Real(alpha * phase.im));
      const std::int64_t ix = agg.fine_index(x);
      Complex<Real> dot_x;
      for (int a = 0; a < 6; ++a) {
        const int s = 2 * chi_r + a / 3, c = a % 3;
        const Complex<Real> w = dir > 0 ? h.s[s].c[c] - gh.s[s].c[c] : h.s[s].c[c] + gh.s[s].c[c];
        dot_x = conj_multiply_add(V.at(ix, chi_r, a, k_r), w, dot_x);
      }
      acc = multiply_add(factor, dot_x, acc);
    }
    A.at(d, Y, row, col) = acc;
  }
};

// A_0(Y)[row, col] = c(Y, row) - sum_{d > 0} A_d(Y)[row, col], c = P^dag D (probe of every block,
// column col); one thread per coarse component (Y, row).
template <typename Real>
struct CoarseSelfBlockKernel {
  CoarseStencilView<Real> A;
  const Complex<Real>* c;
  int col;
  LQCD_HOST_DEVICE void operator()(std::int64_t t) const {
    const std::int64_t Y = t / A.dof;
    const int row = int(t - Y * A.dof);
    Complex<Real> self = c[t];
    for (int d = 1; d < kStencilDirections; ++d) self -= A.at(d, Y, row, col);
    A.at(0, Y, row, col) = self;
  }
};

}  // namespace lqcd
