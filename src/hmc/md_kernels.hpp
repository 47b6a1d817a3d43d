#pragma once
// Site kernels of the molecular dynamics (HMC), host and device.
//
// Conventions (the same in every monomial and integrator):
//   momenta P_mu(x) = sum_a p^a T^a in su(3): Hermitian, traceless, T^a = lambda^a / 2 (Gell-Mann),
//   tr T^a T^b = delta_ab / 2; stored like links (GaugeField layout, 9 complex entries);
//   H = (1/2) sum_{x,mu,a} (p^a)^2 + S[U] = sum_{x,mu} tr P^2 + S[U];
//   dU/dt = i P U,  dP/dt = -F,  F = sum_a F^a T^a,  F^a(x, mu) = d/dw S[e^{i w T^a} U_mu(x)] at w = 0.
// For a matrix W, sum_a Im tr(T^a W) T^a = (1/2) TA(W) with TA(W) the traceless part of
// (W - W^dag) / (2i) (traceless_hermitian_part below); forces are written with it.

#include <cstdint>

#include "core/reduction.hpp"
#include "core/site_random.hpp"
#include "fields/gauge_view.hpp"
#include "fields/random_spinor_kernels.hpp"
#include "fields/spinor_field.hpp"
#include "dirac/clover_kernels.hpp"
#include "dirac/quark_time_boundary.hpp"
#include "gauge/staples.hpp"
#include "gauge/time_boundary.hpp"
#include "math/gamma.hpp"
#include "math/su3_exp.hpp"

namespace lqcd {

// The traceless part of (W - W^dag) / (2i). FLOPs: 48.
template <typename T>
LQCD_HOST_DEVICE SU3<T> traceless_hermitian_part(const SU3<T>& w) {
  SU3<T> q;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const Complex<T> d = w.m[i][j] - conj(w.m[j][i]);  // W - W^dag
      q.m[i][j] = Complex<T>(d.im / 2, -d.re / 2);       // / (2i)
    }
  const T t = (q.m[0][0].re + q.m[1][1].re + q.m[2][2].re) / 3;
  for (int i = 0; i < 3; ++i) q.m[i][i] = Complex<T>(q.m[i][i].re - t, 0);
  return q;
}

// sum_a p^a T^a from the 8 components (Gell-Mann basis).
LQCD_HOST_DEVICE inline SU3<double> su3_algebra(const double p[8]) {
  const double s3 = 0.57735026918962576451;  // 1/sqrt(3)
  SU3<double> P{};
  P.m[0][0] = Complex<double>(0.5 * (p[2] + s3 * p[7]));
  P.m[1][1] = Complex<double>(0.5 * (-p[2] + s3 * p[7]));
  P.m[2][2] = Complex<double>(-s3 * p[7]);
  P.m[0][1] = Complex<double>(0.5 * p[0], -0.5 * p[1]);
  P.m[0][2] = Complex<double>(0.5 * p[3], -0.5 * p[4]);
  P.m[1][2] = Complex<double>(0.5 * p[5], -0.5 * p[6]);
  P.m[1][0] = conj(P.m[0][1]);
  P.m[2][0] = conj(P.m[0][2]);
  P.m[2][1] = conj(P.m[1][2]);
  return P;
}

// P_mu(x) with Gaussian components p^a (unit variance), keyed by (seed, global site, mu, counter).
struct MomentumHeatbathKernel {
  GaugeView<double> P;
  std::uint64_t seed;
  std::uint32_t counter;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    int x[4];
    P.idx.coords_lex(i, x);
    for (int mu = 0; mu < 4; ++mu) {
      SiteRandom rng(seed, P.idx.global_lex(x), RngPurpose::Momenta, std::uint32_t(mu), counter);
      double p[8];
      for (int a = 0; a < 8; ++a) p[a] = rng.gaussian();  // sequenced draws
      P.store(mu, SiteIndexer::parity(x), P.idx.cb_index(x), su3_algebra(p));
    }
  }
};

// sum_mu tr P_mu(x)^2 (real for Hermitian P) per site.
struct KineticEnergyKernel {
  GaugeView<double> P;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, Sums<1>& acc) const {
    int x[4];
    P.idx.coords_lex(i, x);
    for (int mu = 0; mu < 4; ++mu) {
      const SU3<double> p = P.link(x, mu);
      acc[0] += re_trace_mul(p, p);
    }
  }
};

// U_mu(x) <- exp(i eps P_mu(x)) U_mu(x).
struct LinkUpdateKernel {
  GaugeView<double> U;
  GaugeView<double> P;
  double eps;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    int x[4];
    U.idx.coords_lex(i, x);
    const int p = SiteIndexer::parity(x);
    const std::int64_t s = U.idx.cb_index(x);
    for (int mu = 0; mu < 4; ++mu) {
      SU3<double> e = P.load(mu, p, s);
      e *= eps;
      U.store(mu, p, s, exp_i(e) * U.load(mu, p, s));
    }
  }
};

// Y <- Y + a X on every link (momenta and forces: P <- P - eps F).
struct LinkAxpyKernel {
  double a;
  GaugeView<double> X, Y;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    int x[4];
    X.idx.coords_lex(i, x);
    const int p = SiteIndexer::parity(x);
    const std::int64_t s = X.idx.cb_index(x);
    for (int mu = 0; mu < 4; ++mu) {
      SU3<double> v = X.load(mu, p, s);
      v *= a;
      Y.store(mu, p, s, Y.load(mu, p, s) + v);
    }
  }
};

// Zeros on every link (an axpy would keep NaN of fresh memory).
struct LinkZeroKernel {
  GaugeView<double> F;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    int x[4];
    F.idx.coords_lex(i, x);
    for (int mu = 0; mu < 4; ++mu) F.store(mu, SiteIndexer::parity(x), F.idx.cb_index(x), SU3<double>::zero());
  }
};

// The force kernels run one thread per link, i = mu V + (lexicographic site) for i < 4 V (launched
// over 4 V): four times the threads of a site loop, each with a quarter of its registers and work,
// which keeps the GPU busy where a thread per site with its four directions is bound by latency.
// link_direction returns mu and leaves the site in i.
LQCD_HOST_DEVICE inline int link_direction(const SiteIndexer& idx, std::int64_t& i) {
  const std::int64_t volume = 2 * idx.vh;
  const int mu = int(i / volume);
  i -= mu * volume;
  return mu;
}

// Gauge force, added to F: with S = -(beta/3) Re tr(U A) + (terms without U_mu(x)) and A the
// action's staple (gauge/staples.hpp, c0 and c1 included), F^a = (beta/3) Im tr(T^a U A), i.e.
// F = (beta / 6) TA(U A).
// Open boundaries (b): the spatial plaquettes at x0 = 0 and T weighted; a frozen (zero) link gets no force.
template <bool Rectangles>
struct GaugeForceKernel {
  GaugeView<double> U;
  GaugeView<double> F;
  double beta, c0, c1;
  TimeBoundary b;
  // One thread per link: i = mu V + (lexicographic site).
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    int x[4];
    const int mu = link_direction(U.idx, i);
    U.idx.coords_lex(i, x);
    const int p = SiteIndexer::parity(x);
    const std::int64_t s = U.idx.cb_index(x);
    const SU3<double> a = action_staple<Rectangles>(U, x, mu, c0, c1, b.staple_weight(U.idx, x, mu));
    SU3<double> f = traceless_hermitian_part(U.load(mu, p, s) * a);
    f *= beta / 6;
    F.store(mu, p, s, F.load(mu, p, s) + f);
  }
};

// The derivative of Re <a, H b> (H the Wilson hopping term with boundary phases, wilson_kernels.hpp)
// with respect to the links, times `coef`, added to F:
//   d/dw <a, H b> at U_mu(x) -> e^{i w T} U_mu(x) is i tr[T (U_mu(x) B - C U_mu(x)^dag)] with
//   B = sum_s b_s(x+mu) [(1 - g_mu) a(x)]_s^dag,  C = sum_s b_s(x) [(1 + g_mu) a(x+mu)]_s^dag
// (colour outer products, the boundary phase on b(x+mu) and its conjugate on b(x) for hops across
// the boundary), so F += coef * d/dw Re <a, H b> = -coef * (1/2) TA(U B - C U^dag) in matrix form.
// a and b are full-lattice fields.
struct HoppingForceKernel {
  GaugeView<double> U;
  GaugeView<double> F;
  SpinorView<double> a, b;
  Complex<double> phase[4];
  double coef;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    int x[4];
    const int mu = link_direction(U.idx, i);
    U.idx.coords_lex(i, x);
    const int p = SiteIndexer::parity(x);
    const std::int64_t s = U.idx.cb_index(x);
    const ColorSpinor<double> ax = a.load(p, s), bx = b.load(p, s);
    {
      int y[4] = {x[0], x[1], x[2], x[3]};
      U.idx.shift(y, mu, +1);
      const std::int64_t sy = U.idx.cb_index(y);
      ColorSpinor<double> by = b.load(1 - p, sy), bxx = bx;
      if (x[mu] + U.idx.off[mu] == U.idx.gn[mu] - 1) {  // the hop x -> x + mu crosses the boundary
        by *= phase[mu];
        bxx *= conj(phase[mu]);
      }
      const ColorSpinor<double> ay = a.load(1 - p, sy);
      const ColorSpinor<double> pa = ax - apply_gamma(mu, ax);  // (1 - g_mu) a(x)
      const ColorSpinor<double> ma = ay + apply_gamma(mu, ay);  // (1 + g_mu) a(x + mu)
      SU3<double> B{}, C{};
      for (int sp = 0; sp < 4; ++sp)
        for (int r = 0; r < 3; ++r)
          for (int c = 0; c < 3; ++c) {
            B.m[r][c] += by.s[sp].c[r] * conj(pa.s[sp].c[c]);
            C.m[r][c] += bxx.s[sp].c[r] * conj(ma.s[sp].c[c]);
          }
      const SU3<double> u = U.load(mu, p, s);
      SU3<double> f = traceless_hermitian_part(u * B - mul_adj(C, u));
      f *= -0.5 * coef;
      F.store(mu, p, s, F.load(mu, p, s) + f);
    }
  }
};

// ---------------------------------------------------------------------------------------------
// Clover force (Sheikholeslami-Wohlert term of the even-odd clover action)
// ---------------------------------------------------------------------------------------------
//
// The clover parts of a fermion force are of the form sum_x sum_{mu<nu} Re tr[dF_{mu nu}(x) L_{mu nu}(x)]
// with colour matrices L (clover_kernels.hpp: A = 1 + i kappa c_sw sum_{mu<nu} sigma_{mu nu} F_{mu nu}):
//   Re [y^dag dA z] = kappa c_sw sum_{mu<nu} Re tr[dF L(y, z)],  L(y, z) = i sum_{s s'} sigma_{s s'} z_{s'} y_s^dag,
//   Re tr_{sc}[A^{-1} dA] = kappa c_sw sum_{mu<nu} Re tr[dF L_det],  L_det_{ab} = i sum_{s s'} sigma_{s' s} (A^{-1})_{(s a),(s' b)}.
// With F the traceless part of (Q - Q^dag)/8, Re tr[dF L] = Re tr[dQ G], G = (L' - L'^dag)/8 and L' the
// traceless part of L. CloverInsertionKernel makes G for the six planes at every site; CloverForceKernel
// differentiates the leaves Q of every corner with G inserted there.

// Six colour matrices per site (the planes mu < nu), in the gauge-field layout with six "directions".
struct PlaneFieldView {
  Complex<double>* data;
  std::int64_t stride;
  LQCD_HOST_DEVICE static constexpr int plane(int mu, int nu) {  // mu < nu
    return mu == 0 ? nu - 1 : mu == 1 ? nu + 1 : 5;
  }
  LQCD_HOST_DEVICE SU3<double> load(int p, int parity, std::int64_t s) const {
    const Complex<double>* b = data + std::int64_t((p * 2 + parity) * 9) * stride + s;
    SU3<double> u;
    for (int c = 0; c < 9; ++c) u.m[c / 3][c % 3] = b[c * stride];
    return u;
  }
  LQCD_HOST_DEVICE void store(int p, int parity, std::int64_t s, const SU3<double>& u) const {
    Complex<double>* b = data + std::int64_t((p * 2 + parity) * 9) * stride + s;
    for (int c = 0; c < 9; ++c) b[c * stride] = u.m[c / 3][c % 3];
  }
};

// G_{mu nu}(x) from L(x) = c_parity L(a(x), b(x)) (+ c_det L_det(x) on odd sites), a and b full fields.
// With open boundaries G = 0 on the boundary slices, whose site term is the identity (no links in it).
struct CloverInsertionKernel {
  CloverView<double> clover;
  SpinorView<double> a, b;
  PlaneFieldView out;
  double c_even, c_odd, c_det;
  QuarkTimeBoundary boundary{};
  // The clover term's F with its trace kept (trace_kept in dirac/clover_kernels.hpp): d tr[F L] = d tr[(Q - Q^dag) L] / 8
  // with L as it is; for the traceless F only L's traceless part pairs with Q.
  bool keep_trace = false;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const int p = a.parity_of(i);
    const std::int64_t s = a.cb_of(i);
    if (boundary.open) {
      int x[4];
      a.idx.coords(p, s, x);
      if (boundary.boundary_slice(x[kTimeDir] + a.idx.off[kTimeDir])) {
        for (int plane = 0; plane < 6; ++plane) out.store(plane, p, s, SU3<double>::zero());
        return;
      }
    }
    const ColorSpinor<double> y = a.load(p, s), z = b.load(p, s);
    const double c = p == 0 ? c_even : c_odd;
    const bool det = p == 1 && c_det != 0.0;
    // A^{-1} is block diagonal in chirality (spins 0, 1 and 2, 3; sigma_{mu nu} keeps the blocks too):
    // A_b^{-1} = (H_b - i t_b) K_b with K_b = (H_b^2 + t_b^2)^{-1} stored and t_b = chi_b c
    // (CloverView::apply_inverse). Its entries are read from the stored blocks where they are needed,
    // instead of all 12 columns kept per thread (2.3 kB of local memory).
    const auto inverse_entry = [&](int b, int i, int j) {
      if (clover.twist == 0.0) return clover.entry(p, s, 2 + b, i, j);
      const double t = CloverView<double>::chirality(b) * clover.twist;
      Complex<double> e = -t * times_i(clover.entry(p, s, 2 + b, i, j));
      for (int k = 0; k < 6; ++k) e += clover.entry(p, s, b, i, k) * clover.entry(p, s, 2 + b, k, j);
      return e;
    };
    for (int mu = 0; mu < 4; ++mu)
      for (int nu = mu + 1; nu < 4; ++nu) {
        SU3<double> l{};
        for (int row = 0; row < 4; ++row) {
          int col, phase;
          sigma_entry(mu, nu, row, col, phase);  // sigma_{row col} = i^phase
          for (int r = 0; r < 3; ++r)
            for (int q = 0; q < 3; ++q) {
              // L(y, z)_{rq} += i sigma_{row col} z_{col, r} conj(y_{row, q})
              l.m[r][q] += i_power(phase + 1, Complex<double>(c)) * z.s[col].c[r] * conj(y.s[row].c[q]);
              // L_det_{rq} += i sigma_{row col} (A^{-1})_{(col r), (row q)}: block row / 2 at (3 (col % 2) + r,
              // 3 (row % 2) + q) (zero across the blocks)
              if (det && col / 2 == row / 2)
                l.m[r][q] += i_power(phase + 1, Complex<double>(c_det)) *
                             inverse_entry(row / 2, 3 * (col % 2) + r, 3 * (row % 2) + q);
            }
        }
        // G = (L' - L'^dag) / 8 with L' traceless (L' = L with keep_trace).
        if (!keep_trace) {
          const Complex<double> t = trace(l) * (1.0 / 3);
          for (int r = 0; r < 3; ++r) l.m[r][r] -= t;
        }
        SU3<double> g;
        for (int r = 0; r < 3; ++r)
          for (int q = 0; q < 3; ++q) g.m[r][q] = (l.m[r][q] - conj(l.m[q][r])) * 0.125;
        out.store(PlaneFieldView::plane(mu, nu), p, s, g);
      }
  }
};

// F += the derivative of sum_x sum_{mu<nu} Re tr[Q_{mu nu}(x) G_{mu nu}(x)] (G held fixed): for the link
// U_r(x) and each plaquette through it, the loop [+r, s, -r, -s] from x (s = +-sigma) visits the corners
// c0..c3 = x, x+r, x+r+s, x+s with links U, L1, L2, L3; it is a leaf of Q at every corner, with sign
// e = +1 where it runs counter-clockwise in the (mu, nu) = (min, max) plane and -1 where Q holds its
// reverse (Re tr[P^dag G] = -Re tr[P G] for anti-Hermitian G). d/dw Re tr[U M] = -Im tr[T U M] with
//   M = L1 L2 L3 G(c0) + G(c1) L1 L2 L3 + L1 G(c2) L2 L3 + L1 L2 G(c3) L3,
// so F += -(1/2) TA(sum e U M).
struct CloverForceKernel {
  GaugeView<double> U;
  GaugeView<double> F;
  PlaneFieldView G;
  LQCD_HOST_DEVICE SU3<double> g_at(const int y[4], int r, int sg) const {
    const int mu = r < sg ? r : sg, nu = r < sg ? sg : r;
    return G.load(PlaneFieldView::plane(mu, nu), SiteIndexer::parity(y), U.idx.cb_index(y));
  }
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    int x[4];
    const int r = link_direction(U.idx, i);
    U.idx.coords_lex(i, x);
    const int p = SiteIndexer::parity(x);
    const std::int64_t s = U.idx.cb_index(x);
    {
      const SU3<double> u = U.load(r, p, s);
      SU3<double> w{};
      for (int sg = 0; sg < 4; ++sg) {
        if (sg == r) continue;
        for (int dir = -1; dir <= 1; dir += 2) {
          const int sd = dir > 0 ? fwd(sg) : bwd(sg);
          int c[4][4];
          for (int k = 0; k < 4; ++k) c[0][k] = c[1][k] = x[k];
          U.idx.shift(c[1], r, +1);
          int y[4] = {c[1][0], c[1][1], c[1][2], c[1][3]};
          const SU3<double> l1 = U.step(y, sd);
          for (int k = 0; k < 4; ++k) c[2][k] = y[k];
          const SU3<double> l2 = U.step(y, bwd(r));
          for (int k = 0; k < 4; ++k) c[3][k] = y[k];
          const SU3<double> l3 = U.step(y, -sd);
          const SU3<double> l23 = l2 * l3, l12 = l1 * l2;
          SU3<double> m = (l1 * l23) * g_at(c[0], r, sg);
          m += g_at(c[1], r, sg) * (l1 * l23);
          m += (l1 * g_at(c[2], r, sg)) * l23;
          m += (l12 * g_at(c[3], r, sg)) * l3;
          const double e = (r < sg ? 1.0 : -1.0) * double(dir);
          m *= e;
          w += m;
        }
      }
      SU3<double> f = traceless_hermitian_part(u * w);
      f *= -0.5;
      F.store(r, p, s, F.load(r, p, s) + f);
    }
  }
};

// psi <- gamma_5 psi (the Hermitian Q = gamma_5 M of the RHMC heatbath).
struct Gamma5Kernel {
  SpinorView<double> psi;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const int p = psi.parity_of(i);
    const std::int64_t s = psi.cb_of(i);
    psi.store(p, s, apply_gamma(kGamma5, psi.load(p, s)));
  }
};

}  // namespace lqcd
