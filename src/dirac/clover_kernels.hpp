#pragma once
// The Sheikholeslami-Wohlert (clover) term as site kernels for host and device.
//
// Field strength F_{mu nu}: gauge/field_strength.hpp (the clover leaves).
//
// Clover term (DESIGN.md): mass form c_sw (i/4) sum_{mu,nu} sigma_{mu nu} F_{mu nu},
// sigma_{mu nu} = (i/2) [gamma_mu, gamma_nu] (Hermitian). In hopping form (times 2 kappa, with
// 2 kappa (4 + m0) = 1 and twisted mass i mu gamma_5 -> 2 i kappa mu gamma_5) the site term is
//   A(x) = 1 + 2 kappa c_sw (i/4) sum_{mu,nu} sigma_{mu nu} F_{mu nu}(x) + 2 i kappa mu gamma_5
//        = 1 + i kappa c_sw sum_{mu<nu} sigma_{mu nu} F_{mu nu}(x) + 2 i kappa mu gamma_5
// (sigma_{nu mu} F_{nu mu} = sigma_{mu nu} F_{mu nu}). i sigma_{mu nu} (x) F_{mu nu} is Hermitian.
// sigma_{mu nu} commutes with gamma_5 = diag(1, 1, -1, -1) (DeGrand-Rossi basis), so A is block
// diagonal in chirality: with v_b = (spins {2b, 2b+1}) x colour (6 components, index spin' * 3 + c),
//   A = diag(H_0 + i c, H_1 - i c),   H_b Hermitian 6x6,   c = 2 kappa mu.
// A^dag = A(mu -> -mu). Inverse: (H +- i c)^{-1} = (H -+ i c) K with K = (H^2 + c^2)^{-1}
// (H and i c commute); for c = 0, K = H^{-1}. K is Hermitian, and positive definite whenever
// c != 0 or H is. H and K are inverted / factorised by LDL^dag (Cholesky without square roots).
//
// Storage (DESIGN.md "Field storage"): per parity block 72 component vectors (one complex number,
// 16 bytes) per site, component k of checkerboard site s at block + k * stride + s:
//   k =  0..17: H_0,  18..35: H_1,  36..53: K_0,  54..71: K_1,
// each Hermitian 6x6 packed in 18 complex numbers: 3 holding the 6 real diagonal entries in pairs,
// then the 15 entries below the diagonal row by row ((1,0), (2,0), (2,1), (3,0), ...).
// 72 reals per block (QUDA's clover field holds the same 72 per site for H).

#include <cstdint>

#include "dirac/quark_time_boundary.hpp"
#include "dirac/wilson_kernels.hpp"
#include "fields/gauge_view.hpp"
#include "fields/spinor_field.hpp"
#include "gauge/field_strength.hpp"
#include "gauge/staples.hpp"
#include "math/gamma.hpp"

namespace lqcd {

// sigma_{mu nu} = (i/2) [gamma_mu, gamma_nu] = i gamma_mu gamma_nu for mu != nu: one non-zero entry
// per row, a power of i. Row r: gamma_mu maps it to column a = col_mu[r], gamma_nu to col_nu[a].
// Returns the column and the phase (entry = i^phase).
LQCD_HOST_DEVICE inline void sigma_entry(int mu, int nu, int row, int& col, int& phase) {
  const SparseGamma gm = gamma_matrix(mu), gn = gamma_matrix(nu);
  const int a = gm.col[row];
  col = gn.col[a];
  phase = (1 + gm.phase[row] + gn.phase[a]) & 3;
}

// ---------------------------------------------------------------------------------------------
// Hermitian 6x6 blocks
// ---------------------------------------------------------------------------------------------

template <typename T>
struct HermitianBlock {
  T d[6];            // real diagonal
  Complex<T> o[15];  // (i, j), i > j, at i (i - 1) / 2 + j

  LQCD_HOST_DEVICE static constexpr int tri(int i, int j) { return i * (i - 1) / 2 + j; }
  LQCD_HOST_DEVICE Complex<T> at(int i, int j) const {
    if (i == j) return Complex<T>(d[i]);
    return i > j ? o[tri(i, j)] : conj(o[tri(j, i)]);
  }
  // r = M v. FLOPs: 6 x 2 (diagonal) + 30 x 8 (each off-diagonal entry used twice, multiply-add) = 252.
  LQCD_HOST_DEVICE void mul(const Complex<T> v[6], Complex<T> r[6]) const {
    LQCD_UNROLL
    for (int i = 0; i < 6; ++i) r[i] = d[i] * v[i];
    LQCD_UNROLL
    for (int i = 1; i < 6; ++i)
      LQCD_UNROLL
      for (int j = 0; j < i; ++j) {
        const Complex<T> e = o[tri(i, j)];
        r[i] += e * v[j];
        r[j] += conj_mul(e, v[i]);
      }
  }
};

// LDL^dag factorisation of a Hermitian 6x6 matrix M (full storage, only the lower triangle and the
// real part of the diagonal are read): M = L D L^dag with L unit lower triangular, D real.
// Needs non-vanishing leading minors (true for positive-definite M). Returns false when a pivot is
// zero or not finite.
struct LdlFactor {
  Complex<double> l[6][6];  // strictly lower part used
  double d[6];

  LQCD_HOST_DEVICE bool factor(const Complex<double> m[6][6]) {
    bool ok = true;
    for (int j = 0; j < 6; ++j) {
      double dj = m[j][j].re;
      for (int k = 0; k < j; ++k) dj -= norm2(l[j][k]) * d[k];
      d[j] = dj;
      if (!(dj != 0.0 && dj - dj == 0.0)) ok = false;  // zero, infinite or NaN
      const double inv = 1.0 / dj;
      for (int i = j + 1; i < 6; ++i) {
        Complex<double> s = m[i][j];
        for (int k = 0; k < j; ++k) s -= (l[i][k] * conj(l[j][k])) * d[k];
        l[i][j] = s * inv;
      }
    }
    return ok;
  }
  // x = M^{-1} b: L y = b, z = D^{-1} y, L^dag x = z.
  LQCD_HOST_DEVICE void solve(const Complex<double> b[6], Complex<double> x[6]) const {
    Complex<double> y[6];
    for (int i = 0; i < 6; ++i) {
      Complex<double> s = b[i];
      for (int k = 0; k < i; ++k) s -= l[i][k] * y[k];
      y[i] = s;
    }
    for (int i = 5; i >= 0; --i) {
      Complex<double> s = y[i] * (1.0 / d[i]);
      for (int k = i + 1; k < 6; ++k) s -= conj_mul(l[k][i], x[k]);
      x[i] = s;
    }
  }
  // M^{-1}, Hermitian: solve for the unit vectors, keep the lower triangle (and the real diagonal).
  LQCD_HOST_DEVICE HermitianBlock<double> inverse() const {
    HermitianBlock<double> r;
    for (int c = 0; c < 6; ++c) {
      Complex<double> e[6], x[6];
      for (int i = 0; i < 6; ++i) e[i] = Complex<double>(i == c ? 1.0 : 0.0);
      solve(e, x);
      r.d[c] = x[c].re;
      for (int i = c + 1; i < 6; ++i) r.o[HermitianBlock<double>::tri(i, c)] = x[i];
    }
    return r;
  }
  LQCD_HOST_DEVICE double min_pivot() const {
    double m = d[0];
    for (int i = 1; i < 6; ++i) m = d[i] < m ? d[i] : m;
    return m;
  }
  // log |det M| = sum_i log |d_i|.
  LQCD_HOST_DEVICE double log_abs_det() const {
    double s = 0;
    for (int i = 0; i < 6; ++i) s += log(d[i] < 0 ? -d[i] : d[i]);
    return s;
  }
};

// Full storage of H (c = 0) or of H^2 + c^2 (the matrix whose inverse is K).
LQCD_HOST_DEVICE inline void clover_k_source(const HermitianBlock<double>& h, double c, Complex<double> m[6][6]) {
  if (c == 0.0) {
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) m[i][j] = h.at(i, j);
    return;
  }
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j <= i; ++j) {
      Complex<double> s{};
      for (int k = 0; k < 6; ++k) s += h.at(i, k) * h.at(k, j);
      if (i == j) s = Complex<double>(s.re + c * c);
      m[i][j] = s;
      m[j][i] = conj(s);
    }
}

// ---------------------------------------------------------------------------------------------
// The clover field's window for kernels
// ---------------------------------------------------------------------------------------------

template <typename Real>
struct CloverView {
  Complex<Real>* data;
  std::int64_t stride;  // >= sites per parity, a multiple of 16 vectors (256 bytes)
  std::int64_t vh;      // sites per parity
  double twist;         // c = 2 kappa mu (in double; rounded at use)

  static constexpr int kComponents = 72;      // per site
  static constexpr int kBlockComponents = 18;  // per packed Hermitian 6x6

  LQCD_HOST_DEVICE Complex<Real>* block(int parity) const {
    return data + std::int64_t(parity) * kComponents * stride;
  }
  // which = 0, 1: H_0, H_1; 2, 3: K_0, K_1.
  LQCD_HOST_DEVICE HermitianBlock<Real> load(int parity, std::int64_t s, int which) const {
    const Complex<Real>* b = block(parity) + std::int64_t(which) * kBlockComponents * stride + s;
    HermitianBlock<Real> h;
    LQCD_UNROLL
    for (int k = 0; k < 3; ++k) {
      const Complex<Real> z = b[k * stride];
      h.d[2 * k] = z.re;
      h.d[2 * k + 1] = z.im;
    }
    LQCD_UNROLL
    for (int k = 0; k < 15; ++k) h.o[k] = b[(k + 3) * stride];
    return h;
  }
  // Entry (i, j) of block `which` as load() would give it, read alone (kernels that need a few entries at
  // run-time indices keep no block in local memory).
  LQCD_HOST_DEVICE Complex<Real> entry(int parity, std::int64_t s, int which, int i, int j) const {
    const Complex<Real>* b = block(parity) + std::int64_t(which) * kBlockComponents * stride + s;
    if (i == j) {
      const Complex<Real> z = b[(i / 2) * stride];
      return Complex<Real>(i % 2 ? z.im : z.re);
    }
    return i > j ? b[(3 + HermitianBlock<Real>::tri(i, j)) * stride] : conj(b[(3 + HermitianBlock<Real>::tri(j, i)) * stride]);
  }
  LQCD_HOST_DEVICE void store(int parity, std::int64_t s, int which, const HermitianBlock<Real>& h) const {
    Complex<Real>* b = block(parity) + std::int64_t(which) * kBlockComponents * stride + s;
    LQCD_UNROLL
    for (int k = 0; k < 3; ++k) b[k * stride] = Complex<Real>(h.d[2 * k], h.d[2 * k + 1]);
    LQCD_UNROLL
    for (int k = 0; k < 15; ++k) b[(k + 3) * stride] = h.o[k];
  }

  // gamma_5 eigenvalue of chiral block b: +1 (spins 0, 1) or -1 (spins 2, 3).
  LQCD_HOST_DEVICE static double chirality(int b) { return b == 0 ? 1.0 : -1.0; }

  // A psi (dagger = 0) or A^dag psi (dagger = 1) at checkerboard site s of parity `parity`.
  // A_b v = H_b v + i chi_b c v. FLOPs: 2 x 252 = 504 (+ 2 x 24 with twisted mass; QUDA counts 552).
  LQCD_HOST_DEVICE ColorSpinor<Real> apply(int parity, std::int64_t s, const ColorSpinor<Real>& psi,
                                             int dagger) const {
    ColorSpinor<Real> r;
    LQCD_UNROLL
    for (int b = 0; b < 2; ++b) {
      Complex<Real> v[6], w[6];
      LQCD_UNROLL
      for (int k = 0; k < 6; ++k) v[k] = psi.s[2 * b + k / 3].c[k % 3];
      load(parity, s, b).mul(v, w);
      const Real t = Real((dagger ? -twist : twist) * chirality(b));
      if (t != Real(0)) {
        LQCD_UNROLL
        for (int k = 0; k < 6; ++k) w[k] += t * times_i(v[k]);
      }
      LQCD_UNROLL
      for (int k = 0; k < 6; ++k) r.s[2 * b + k / 3].c[k % 3] = w[k];
    }
    return r;
  }

  // A^{-1} psi (dagger = 0) or (A^dag)^{-1} psi (dagger = 1):
  //   (H_b + i t)^{-1} v = (H_b - i t) K_b v,  t = chi_b c (or -chi_b c for the adjoint);  c = 0: K_b v.
  LQCD_HOST_DEVICE ColorSpinor<Real> apply_inverse(int parity, std::int64_t s, const ColorSpinor<Real>& psi,
                                                     int dagger) const {
    ColorSpinor<Real> r;
    LQCD_UNROLL
    for (int b = 0; b < 2; ++b) {
      Complex<Real> v[6], w[6];
      LQCD_UNROLL
      for (int k = 0; k < 6; ++k) v[k] = psi.s[2 * b + k / 3].c[k % 3];
      load(parity, s, 2 + b).mul(v, w);
      const Real t = Real((dagger ? -twist : twist) * chirality(b));
      if (t != Real(0)) {
        load(parity, s, b).mul(w, v);  // v = H K psi_b
        LQCD_UNROLL
        for (int k = 0; k < 6; ++k) w[k] = v[k] - t * times_i(w[k]);
      }
      LQCD_UNROLL
      for (int k = 0; k < 6; ++k) r.s[2 * b + k / 3].c[k % 3] = w[k];
    }
    return r;
  }
};

// ---------------------------------------------------------------------------------------------
// Kernels
// ---------------------------------------------------------------------------------------------

// The Hermitian blocks H_0, H_1 of 1 + i kappa c_sw sum_{mu<nu} sigma_{mu nu} F_{mu nu}(x) at x.
// kappa_csw = kappa * c_sw. F is the traceless clover field strength (gauge/field_strength.hpp), as
// QUDA and Chroma define it, or with trace_kept (1/8)(Q - Q^dag) as it is: MILC's clover term
// (clover_invert2) and openQCD's (tcharge/ftensor.c, "in the Lie algebra of U(3)"), a different action at
// the same c_sw (the trace is small on smooth fields, not zero).
template <typename Real>
LQCD_HOST_DEVICE void clover_hermitian_blocks(const GaugeView<Real>& U, const int x[4], double kappa_csw,
                                              HermitianBlock<double> h[2], bool trace_kept = false) {
  LQCD_UNROLL
  for (int b = 0; b < 2; ++b) {
    LQCD_UNROLL
    for (int i = 0; i < 6; ++i) h[b].d[i] = 1.0;
    LQCD_UNROLL
    for (int k = 0; k < 15; ++k) h[b].o[k] = Complex<double>();
  }
  for (int mu = 0; mu < 4; ++mu)
    for (int nu = mu + 1; nu < 4; ++nu) {
      const SU3<Real> f = trace_kept ? antihermitian_part(clover_leaves(U, x, mu, nu), Real(0.125))
                                     : clover_field_strength(U, x, mu, nu);
      for (int row = 0; row < 4; ++row) {
        int col, phase;
        sigma_entry(mu, nu, row, col, phase);
        // Entry of i kappa c_sw sigma_{mu nu}[row][col] F[a][b'] in the block of row (col is in the
        // same chiral block). Only the lower triangle (and the diagonal) of each block is kept.
        const Complex<double> coef = i_power(phase + 1, Complex<double>(kappa_csw));
        const int b = row / 2, sr = row % 2, sc = col % 2;
        for (int a = 0; a < 3; ++a)
          for (int c = 0; c < 3; ++c) {
            const int i = sr * 3 + a, j = sc * 3 + c;
            if (i < j) continue;
            const Complex<double> e = coef * Complex<double>(f.m[a][c]);
            if (i == j) h[b].d[i] += e.re;
            else h[b].o[HermitianBlock<double>::tri(i, j)] += e;
          }
      }
    }
}

// Fills the clover field from the gauge field: H_b and K_b at every site (i over both parities,
// even block first). kappa_csw = kappa * c_sw; clover.twist = 2 kappa mu.
// FLOPs per site: 6 x (2430 + 36) field strengths + the block assembly and two 6x6 inversions.
// With open boundaries in time (dirac/quark_time_boundary.hpp): the identity on x0 = 0 and T, and
// boundary_shift = 2 kappa (c_F - 1) added to the diagonal at x0 = 1 and T - 1.
struct CloverComputeKernel {
  GaugeView<double> U;
  CloverView<double> clover;
  double kappa_csw;
  bool trace_kept = false;  // MILC's field strength (clover_hermitian_blocks)
  QuarkTimeBoundary boundary{};
  double boundary_shift = 0;

  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const int p = int(i / clover.vh);
    const std::int64_t s = i % clover.vh;
    int x[4];
    U.idx.coords(p, s, x);
    HermitianBlock<double> h[2];
    clover_hermitian_blocks(U, x, kappa_csw, h, trace_kept);
    const int t = x[kTimeDir] + U.idx.off[kTimeDir];
    if (boundary.boundary_slice(t)) {
      for (int b = 0; b < 2; ++b) h[b] = HermitianBlock<double>{{1, 1, 1, 1, 1, 1}, {}};
    } else if (boundary.next_to_boundary(t)) {
      for (int b = 0; b < 2; ++b)
        for (int k = 0; k < 6; ++k) h[b].d[k] += boundary_shift;
    }
    for (int b = 0; b < 2; ++b) {
      clover.store(p, s, b, h[b]);
      Complex<double> m[6][6];
      clover_k_source(h[b], clover.twist, m);
      LdlFactor f;
      f.factor(m);  // a zero pivot gives inf / NaN entries, reported by CloverStatsKernel
      clover.store(p, s, 2 + b, f.inverse());
    }
  }
};

// Per-site diagnostics of the stored blocks, merged by + (sums) and min: the smallest LDL pivot of
// the Hermitian parts H_b (> 0 for all sites <=> every H_b positive definite), the number of blocks
// with a non-positive or non-finite pivot, and sum_x log |det A(x)| with
//   log |det (H_b +- i c)| = (1/2) log det (H_b^2 + c^2)   (= log |det H_b| for c = 0),
// the site-term contribution to the fermion action (tr log A in even-odd preconditioning).
struct CloverStats {
  double log_det = 0;
  double min_pivot = 1e300;
  double bad_blocks = 0;
  LQCD_HOST_DEVICE CloverStats& operator+=(const CloverStats& o) {
    log_det += o.log_det;
    min_pivot = o.min_pivot < min_pivot ? o.min_pivot : min_pivot;
    bad_blocks += o.bad_blocks;
    return *this;
  }
};

// Over the sites of one parity (parity = 0, 1) or of both (parity = -1, even block first).
struct CloverStatsKernel {
  CloverView<double> clover;
  int parity;

  LQCD_HOST_DEVICE void operator()(std::int64_t i, CloverStats& acc) const {
    const int p = parity < 0 ? int(i / clover.vh) : parity;
    const std::int64_t s = parity < 0 ? i % clover.vh : i;
    for (int b = 0; b < 2; ++b) {
      const HermitianBlock<double> h = clover.load(p, s, b);
      Complex<double> m[6][6];
      clover_k_source(h, 0.0, m);
      LdlFactor f;
      const bool ok = f.factor(m);
      const double mp = f.min_pivot();
      if (!ok || !(mp > 0)) acc.bad_blocks += 1;
      if (mp < acc.min_pivot || mp != mp) acc.min_pivot = mp;
      if (clover.twist == 0.0) {
        acc.log_det += f.log_abs_det();
      } else {
        clover_k_source(h, clover.twist, m);
        LdlFactor g;
        g.factor(m);
        acc.log_det += 0.5 * g.log_abs_det();
      }
    }
  }
};

// The Wilson-clover operator's sites: out = alpha H in + A x (A^dag x and H^dag with dagger), on the
// sites of `out` (full lattice or one parity), with the hopping term of WilsonHoppingKernel (its
// U, in, out, boundary, alpha and dagger are used; its own site term is not). With alpha = -kappa
// and x = in this is M = A - kappa H. has_x = 0: out = alpha H in.
// FLOPs per site: 1320 (hopping) + 552 (clover, QUDA's count) + 48 (the sum and the scaling).
// alpha H in (H^dag with dagger) alone, as the clover kernels use the hopping kernel: its own site term
// is replaced by the clover term (out stands in for the unused site-term input).
template <typename Real, int LinkComponents>
WilsonHoppingKernel<Real, LinkComponents> bare_hopping_kernel(const GaugeView<Real, LinkComponents>& U,
                                                              const SpinorField<Real>& in, SpinorField<Real>& out,
                                                              const FermionBoundary& boundary, double alpha,
                                                              int dagger, int t_tile = 1) {
  return {.U = U,
          .in = in.view(),
          .out = out.view(),
          .x = out.view(),
          .boundary = boundary,
          .alpha = alpha,
          .c0 = 0.0,
          .c5 = 0.0,
          .has_x = 0,
          .dagger = dagger,
          .t_tile = t_tile};
}

// Real: the storage precision of links and spinors (double, float or Half); the clover field is in
// the arithmetic precision T (single for Half: a 16-bit clover term would cost its own norms for what is
// a third of the operator's traffic). LinkComponents: 9, 6 or 4 reals pairs per link (gauge_view.hpp).
// inverse_after = 1 applies A^{-1} (A^dag^{-1}) to the result at the output site, so that
// A_oo^{-1} H_oe in of even-odd preconditioning is one pass over memory instead of two (one process
// only: with split faces the face hops are added after the kernel, outside A^{-1}).
template <typename Real, int LinkComponents = 9>
struct WilsonCloverKernel {
  using T = compute_t<Real>;
  WilsonHoppingKernel<Real, LinkComponents> hopping;
  CloverView<T> clover;
  SpinorView<Real> x;
  int has_x;
  int inverse_after = 0;

  // As WilsonHoppingKernel's: repeatable unless x is updated in place.
  bool tunable() const { return hopping.in.data != hopping.out.data && !(has_x && x.data == hopping.out.data); }

  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const int p = hopping.out.parity_of(i);
    int xc[4];
    const std::int64_t s = hopping.U.idx.tiled_site(p, hopping.out.cb_of(i), hopping.t_tile, xc);
    ColorSpinor<T> r = hopping.alpha_hop(p, s, xc);
    if (has_x) r += clover.apply(p, s, x.load(p, s), hopping.dagger);
    if (inverse_after) r = clover.apply_inverse(p, s, r, hopping.dagger);
    hopping.out.store(p, s, r);
  }
};

// out = A in, A^dag in, A^{-1} in or (A^dag)^{-1} in on the sites of `out` (in has the same sites;
// site-local, so in may be out). FLOPs per site: 552 (A), about 2 x 552 with twisted mass (A^{-1}).
// The clover field is in the arithmetic precision of Real (as WilsonCloverKernel's).
template <typename Real>
struct CloverSiteKernel {
  using T = compute_t<Real>;
  CloverView<T> clover;
  SpinorView<Real> in;
  SpinorView<Real> out;
  int inverse;
  int dagger;

  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const int p = out.parity_of(i);
    const std::int64_t s = out.cb_of(i);
    const ColorSpinor<T> v = in.load(p, s);
    out.store(p, s, inverse ? clover.apply_inverse(p, s, v, dagger) : clover.apply(p, s, v, dagger));
  }
};

}  // namespace lqcd
