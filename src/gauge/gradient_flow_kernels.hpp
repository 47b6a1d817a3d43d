#pragma once
// Site kernels of the Wilson flow (gauge/gradient_flow.hpp) and of its observables.

#include "core/reduction.hpp"
#include "fields/gauge_view.hpp"
#include "gauge/field_strength.hpp"
#include "gauge/staples.hpp"
#include "gauge/stout_smearing_kernels.hpp"
#include "gauge/time_boundary.hpp"
#include "math/su3_exp.hpp"

namespace lqcd {

// The Luscher-Weisz (tree-level Symanzik) coefficients of the Symanzik and Zeuthen flows.
inline constexpr double kLuscherWeiszC1 = -1.0 / 12.0;
inline constexpr double kLuscherWeiszC0 = 1.0 - 8.0 * kLuscherWeiszC1;  // 5/3

// X_mu(x) <- a q + b X_mu(x). With b = 0 (the first stage of a step) X is not read: it may hold anything.
LQCD_HOST_DEVICE inline void accumulate_link(const GaugeView<double>& X, int mu, int p, std::int64_t s,
                                             const SU3<double>& q, double a, double b) {
  SU3<double> next = b != 0 ? X.load(mu, p, s) : SU3<double>::zero();
  next *= b;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) next.m[r][c] += q.m[r][c] * a;
  X.store(mu, p, s, next);
}

// One stage of the low-storage Runge-Kutta scheme (gradient_flow.hpp). The flow's generator is
// Z(V)_mu(x) = i q_mu(x) with q = stout smearing's Q at rho = 1 (stout_smearing_kernels.hpp:
// Omega = (V_mu(x) A_mu(x))^dag with the staples A of the action, c0 plaquettes + c1 rectangles),
// since a stout step of rho = epsilon is the Euler step of the Wilson flow (M. Luscher, JHEP 1008
// (2010) 071, section 2.1), and the staples of c0 + 8 c1 = 1 actions keep that normalisation. For every
// link X <- a q(V) + b X (X Hermitian: the next update is exp(i X) V). Reads V with its halo; writes X.
template <bool Rectangles>
struct FlowStageKernel {
  GaugeView<double> V;
  GaugeView<double> X;
  double a, b;
  double c0, c1;
  // Open boundaries (gradient_flow.hpp, openQCD's wflow.c): the spatial plaquettes at x0 = 0 and T weighted
  // c_G / 2 = 1/2 in the staples, the generator of the spatial links there doubled, the frozen links' zero.
  TimeBoundary boundary{};
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    int x[4];
    V.idx.coords_lex(i, x);
    const int p = SiteIndexer::parity(x);
    const std::int64_t s = V.idx.cb_index(x);
    const int t = x[kTimeDir] + V.idx.off[kTimeDir];
    for (int mu = 0; mu < 4; ++mu) {
      if (boundary.frozen(t, mu)) {
        accumulate_link(X, mu, p, s, SU3<double>::zero(), a, b);
        continue;
      }
      const double w = boundary.staple_weight(V.idx, x, mu);
      SU3<double> q = stout_q(dagger(V.load(mu, p, s) * action_staple<Rectangles>(V, x, mu, c0, c1, w)));
      if (w != 1.0) q *= 2.0;  // a spatial link at x0 = 0 or T of an open lattice
      accumulate_link(X, mu, p, s, q, a, b);
    }
  }
};

// The Zeuthen flow's generator from the Symanzik one q (gradient_flow.hpp):
// q' = q + (1/12) [V_mu(x) q_mu(x+mu) V_mu(x)^dag + V_mu(x-mu)^dag q_mu(x-mu) V_mu(x-mu) - 2 q_mu(x)],
// and X <- a q' + b X. Reads V and q with their halos.
struct ZeuthenSmoothingKernel {
  GaugeView<double> V;
  GaugeView<double> q;
  GaugeView<double> X;
  double a, b;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    int x[4];
    V.idx.coords_lex(i, x);
    const int p = SiteIndexer::parity(x);
    const std::int64_t s = V.idx.cb_index(x);
    for (int mu = 0; mu < 4; ++mu) {
      int up[4] = {x[0], x[1], x[2], x[3]}, down[4] = {x[0], x[1], x[2], x[3]};
      V.idx.shift(up, mu, +1);
      V.idx.shift(down, mu, -1);
      const SU3<double> here = q.load(mu, p, s), v = V.load(mu, p, s), w = V.link(down, mu);
      SU3<double> lap = mul_adj(v * q.link(up, mu), v) + adj_mul(w, q.link(down, mu) * w);
      SU3<double> twice = here;
      twice *= 2.0;
      lap -= twice;
      lap *= 1.0 / 12.0;
      lap += here;
      accumulate_link(X, mu, p, s, lap, a, b);
    }
  }
};

// V <- exp(i X) V on every link.
struct FlowUpdateKernel {
  GaugeView<double> V;
  GaugeView<double> X;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    int x[4];
    V.idx.coords_lex(i, x);
    const int p = SiteIndexer::parity(x);
    const std::int64_t s = V.idx.cb_index(x);
    for (int mu = 0; mu < 4; ++mu) V.store(mu, p, s, exp_i(X.load(mu, p, s)) * V.load(mu, p, s));
  }
};

// The embedded second-order step of the adaptive flow (gradient_flow.hpp), at the second stage: with
// Z1 = eps q(W1) in Y and X = Z0/4 from the first stage, Y <- 2 Z1 - 5 X (the exponent that takes W1 to
// the second-order result exp(2 Z1 - 5/4 Z0) exp(Z0/4) V_t = exp(2 Z1 - Z0) V_t + O(eps^3)) and
// X <- 8/9 Z1 - 17/9 X (Luscher's stage).
struct FlowEmbeddedStageKernel {
  GaugeView<double> X;
  GaugeView<double> Y;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    int x[4];
    X.idx.coords_lex(i, x);
    const int p = SiteIndexer::parity(x);
    const std::int64_t s = X.idx.cb_index(x);
    for (int mu = 0; mu < 4; ++mu) {
      const SU3<double> z1 = Y.load(mu, p, s), x0 = X.load(mu, p, s);
      SU3<double> y = z1, xn = z1, t = x0;
      y *= 2.0;
      t *= 5.0;
      y -= t;
      xn *= 8.0 / 9.0;
      t = x0;
      t *= 17.0 / 9.0;
      xn -= t;
      Y.store(mu, p, s, y);
      X.store(mu, p, s, xn);
    }
  }
};

// The largest entry modulus of V - W over all links (the adaptive step's error estimate).
struct LinkDistanceKernel {
  GaugeView<double> V;
  GaugeView<double> W;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, Maximum& acc) const {
    int x[4];
    V.idx.coords_lex(i, x);
    const int p = SiteIndexer::parity(x);
    const std::int64_t s = V.idx.cb_index(x);
    for (int mu = 0; mu < 4; ++mu) {
      const SU3<double> d = V.load(mu, p, s) - W.load(mu, p, s);
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) {
          acc.take(sqrt(d.m[r][c].re * d.m[r][c].re + d.m[r][c].im * d.m[r][c].im));
        }
    }
  }
};

// At x: the clover energy density -sum_{mu<nu} tr(G_{mu nu}(x)^2) = (1/4) G^a G^a summed over all mu, nu
// (G the anti-Hermitian clover field strength, gauge/field_strength.hpp) and the clover topological charge
// density q(x) = -(1/(32 pi^2)) eps_{mu nu rho sigma} tr(G_{mu nu} G_{rho sigma})
//              = -(1/(4 pi^2)) [tr(G_01 G_23) - tr(G_02 G_13) + tr(G_03 G_12)]
// (M. Luscher, JHEP 1008 (2010) 071, eqs. 2.1, 3.1-3.3; eps_0123 = +1 in lqcd's x, y, z, t order).
LQCD_HOST_DEVICE inline void clover_energy_and_charge(const GaugeView<double>& V, const int x[4], double& energy,
                                                      double& charge) {
  SU3<double> G[6];  // (0,1) (0,2) (0,3) (1,2) (1,3) (2,3)
  int k = 0;
  energy = 0;
  for (int mu = 0; mu < 4; ++mu)
    for (int nu = mu + 1; nu < 4; ++nu, ++k) {
      G[k] = clover_field_strength(V, x, mu, nu);
      energy -= re_trace(G[k] * G[k]);
    }
  const double pi = 3.14159265358979323846;
  charge = -(re_trace(G[0] * G[5]) - re_trace(G[1] * G[4]) + re_trace(G[2] * G[3])) / (4 * pi * pi);
}

// Per site: [0] the plaquette energy density 2 sum_{mu<nu} Re tr(1 - P_{mu nu}(x)); [1] the clover energy
// density and [2] the clover charge density (clover_energy_and_charge).
struct FlowObservablesKernel {
  GaugeView<double> V;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, Sums<3>& acc) const {
    int x[4];
    V.idx.coords_lex(i, x);
    for (int mu = 0; mu < 4; ++mu)
      for (int nu = mu + 1; nu < 4; ++nu) {
        const int plaq[4] = {fwd(mu), fwd(nu), bwd(mu), bwd(nu)};
        acc[0] += 2 * (3 - re_trace(V.path(x, plaq)));
      }
    double e, q;
    clover_energy_and_charge(V, x, e, q);
    acc[1] += e;
    acc[2] += q;
  }
};

// The sites of one local time slice (i from 0 to its spatial volume; first_site = the slice's first
// lexicographic index, t being the slowest coordinate): [0] sum of Re tr(1 - P) over the spatial plaquettes,
// [1] over the time-like plaquettes from x0 to x0 + 1 (none through a frozen link), [2] the clover energy
// density and [3] the clover charge density, both left out at open boundaries' x0 = 0 and T (openQCD's ms3;
// gradient_flow.hpp, FlowSlices).
struct FlowSliceKernel {
  GaugeView<double> V;
  TimeBoundary boundary;
  std::int64_t first_site;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, Sums<4>& acc) const {
    int x[4];
    V.idx.coords_lex(first_site + i, x);
    const int t = x[kTimeDir] + V.idx.off[kTimeDir];
    for (int mu = 0; mu < 4; ++mu)
      for (int nu = mu + 1; nu < 4; ++nu) {
        if (nu == kTimeDir && boundary.frozen(t, kTimeDir)) continue;
        const int plaq[4] = {fwd(mu), fwd(nu), bwd(mu), bwd(nu)};
        acc[nu == kTimeDir ? 1 : 0] += 3 - re_trace(V.path(x, plaq));
      }
    if (boundary.open && (t == 0 || t == boundary.last)) return;
    double e, q;
    clover_energy_and_charge(V, x, e, q);
    acc[2] += e;
    acc[3] += q;
  }
};

// Per site the O(a^2)-improved topological charge density (opt-in, FlowParams::improved_charge): q(x)
// of FlowObservablesKernel, same normalisation and sign, from the improved field strength
// F = 5/3 F^{1x1} - 1/3 (F^{1x2} + F^{2x1}) (gauge/field_strength.hpp; S. Bilson-Thompson,
// D. Leinweber, A. Williams, Ann. Phys. 304 (2003) 1). A kernel of its own so that the default
// measurement does not pay for the rectangles (52 SU(3) products per plane against the clover's 12). The pairs
// (G_01, G_23), (G_02, G_13), (G_03, G_12) are formed one after the other: two field strengths live at a
// time, not six. Reads links two sites away: V's halo (depth 2) exchanged.
struct ImprovedChargeKernel {
  GaugeView<double> V;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, Sums<1>& acc) const {
    int x[4];
    V.idx.coords_lex(i, x);
    // eps_{mu nu rho sigma} over the pairs: +(01)(23), -(02)(13), +(03)(12).
    const double sum = pair(x, 0, 1, 2, 3) - pair(x, 0, 2, 1, 3) + pair(x, 0, 3, 1, 2);
    const double pi = 3.14159265358979323846;
    acc[0] -= sum / (4 * pi * pi);
  }
  // Re tr(F_{mu nu}(x) F_{rho sigma}(x)), improved F.
  LQCD_HOST_DEVICE double pair(const int x[4], int mu, int nu, int rho, int sigma) const {
    return re_trace(improved_field_strength(V, x, mu, nu) * improved_field_strength(V, x, rho, sigma));
  }
};

}  // namespace lqcd
