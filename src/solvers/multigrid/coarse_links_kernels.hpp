#pragma once
// Site kernels that build the coarse operator (solvers/multigrid/coarse_operator.hpp) from the links rather than
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

#include "dirac/fermion_boundary.hpp"
#include "fields/gauge_view.hpp"
#include "math/color_spinor.hpp"
#include "math/gamma.hpp"
#include "solvers/multigrid/coarse_operator_kernels.hpp"
#include "solvers/multigrid/transfer_kernels.hpp"

namespace lqcd {

// The entries (row, col) of A_d(Y), d = 1 .. 8, for kRows rows of one chirality at a time: one thread
// per (d, Y, col, group of rows), t = (((d - 1) * sites + Y) * dof + col) * groups + g, so that the hop
// of column col (U times the test vector at the neighbour, then 1 -+ gamma_mu) is formed once per face
// site for kRows rows. gamma_mu (mu = 0 .. 3) flips chirality in the DeGrand-Rossi basis (math/gamma.hpp):
// for a column of chirality chi_c, the rows of chirality chi_c see U psi itself and the others
// -+ gamma_mu U psi. The direction is a template parameter so that every spin index is a constant.
template <typename Real>
struct CoarseHoppingKernel {
  static constexpr int kRows = 8;
  Aggregation agg;
  TestVectors<Real> V;
  GaugeView<Real> U;
  FermionBoundary boundary;  // real phases (+-1) or complex ones
  double alpha;
  CoarseStencilView<Real> A;

  LQCD_HOST_DEVICE int groups_per_chirality() const { return (V.nv + kRows - 1) / kRows; }
  std::int64_t threads() const {
    return std::int64_t(kStencilDirections - 1) * A.lattice.sites * A.dof * 2 * groups_per_chirality();
  }

  LQCD_HOST_DEVICE void operator()(std::int64_t t) const {
    const int groups = 2 * groups_per_chirality(), dof = A.dof;
    const int g = int(t % groups);
    std::int64_t rest = t / groups;
    const int col = int(rest % dof);
    rest /= dof;
    const std::int64_t Y = rest % A.lattice.sites;
    const int d = 1 + int(rest / A.lattice.sites);
    const int chi_r = g / groups_per_chirality(), k0 = (g % groups_per_chirality()) * kRows;
    Complex<Real> acc[kRows];
    switch (d) {
      case 1: face<0, 1>(Y, chi_r, k0, col, acc); break;
      case 2: face<0, -1>(Y, chi_r, k0, col, acc); break;
      case 3: face<1, 1>(Y, chi_r, k0, col, acc); break;
      case 4: face<1, -1>(Y, chi_r, k0, col, acc); break;
      case 5: face<2, 1>(Y, chi_r, k0, col, acc); break;
      case 6: face<2, -1>(Y, chi_r, k0, col, acc); break;
      case 7: face<3, 1>(Y, chi_r, k0, col, acc); break;
      default: face<3, -1>(Y, chi_r, k0, col, acc); break;
    }
    LQCD_UNROLL
    for (int j = 0; j < kRows; ++j)
      if (k0 + j < V.nv) A.at(d, Y, chi_r * V.nv + k0 + j, col) = acc[j];
  }

  // acc[j] = A_d(Y)[chi_r * nv + k0 + j, col] for the face of Y in direction MU, DIR.
  template <int MU, int DIR>
  LQCD_HOST_DEVICE void face(std::int64_t Y, int chi_r, int k0, int col, Complex<Real> acc[kRows]) const {
    constexpr SparseGamma gm = gamma_matrix(MU);
    const int chi_c = col / V.nv, k_c = col % V.nv;
    const int n_mu = agg.fine.n[MU];
    int X[4];
    A.lattice.coords(Y, X);
    LQCD_UNROLL
    for (int j = 0; j < kRows; ++j) acc[j] = Complex<Real>();
    const int face_sites = agg.block_sites / agg.b[MU];
    for (int f = 0; f < face_sites; ++f) {
      // The face's site x: local x_MU fixed at the face, the other three coordinates running.
      int x[4], r = f;
      LQCD_UNROLL
      for (int nu = 0; nu < 4; ++nu) {
        if (nu == MU) {
          x[nu] = X[nu] * agg.b[nu] + (DIR > 0 ? agg.b[nu] - 1 : 0);
        } else {
          x[nu] = X[nu] * agg.b[nu] + r % agg.b[nu];
          r /= agg.b[nu];
        }
      }
      int y[4] = {x[0], x[1], x[2], x[3]};
      y[MU] = (x[MU] + DIR + n_mu) % n_mu;
      const bool across = DIR > 0 ? x[MU] == n_mu - 1 : x[MU] == 0;
      // h = U psi on column col's two spins (psi: vector k_c's chirality-chi_c part at y), with
      // U = U_MU(x) forwards and U_MU(y)^dag backwards.
      const std::int64_t iy = agg.fine_index(y);
      const SU3<Real> u = DIR > 0 ? U.load(MU, SiteIndexer::parity(x), agg.fine.lex(x) >> 1)
                                  : U.load(MU, SiteIndexer::parity(y), agg.fine.lex(y) >> 1);
      Complex<Real> h[2][3];
      LQCD_UNROLL
      for (int sp = 0; sp < 2; ++sp) {
        ColorVector<Real> v;
        LQCD_UNROLL
        for (int c = 0; c < 3; ++c) v.c[c] = V.at(iy, chi_c, sp * 3 + c, k_c);
        const ColorVector<Real> w = DIR > 0 ? u * v : adj_mul(u, v);
        LQCD_UNROLL
        for (int c = 0; c < 3; ++c) h[sp][c] = w.c[c];
      }
      // The rows' chirality of (1 - DIR gamma_MU) h, times alpha and the boundary phase.
      Complex<double> phase(1.0);
      if (across) phase = DIR > 0 ? boundary.phase[MU] : conj(boundary.phase[MU]);
      const Complex<Real> factor(Real(alpha * phase.re), Real(alpha * phase.im));
      Complex<Real> w[6];
      if (chi_r == chi_c) {
        LQCD_UNROLL
        for (int a = 0; a < 6; ++a) w[a] = factor * h[a / 3][a % 3];
      } else {
        // Row spin s = 2 chi_r + sp: -DIR i^phase[s] h[col[s] - 2 chi_c].
        LQCD_UNROLL
        for (int sp = 0; sp < 2; ++sp) {
          const int s0 = sp, s1 = 2 + sp;  // the row spin for chi_r = 0 and 1
          LQCD_UNROLL
          for (int c = 0; c < 3; ++c) {
            const Complex<Real> g = chi_r == 0 ? i_power(gm.phase[s0], h[gm.col[s0] - 2][c])
                                               : i_power(gm.phase[s1], h[gm.col[s1]][c]);
            w[sp * 3 + c] = factor * (DIR > 0 ? -g : g);
          }
        }
      }
      const std::int64_t ix = agg.fine_index(x);
      LQCD_UNROLL
      for (int j = 0; j < kRows; ++j) {
        if (k0 + j >= V.nv) break;
        Complex<Real> dot_x;
        LQCD_UNROLL
        for (int a = 0; a < 6; ++a) dot_x = conj_multiply_add(V.at(ix, chi_r, a, k0 + j), w[a], dot_x);
        acc[j] += dot_x;
      }
    }
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
