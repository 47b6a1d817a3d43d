#pragma once
// Site kernels that change the gauge field: the Cabibbo-Marinari heatbath and overrelaxation (one
// link direction on one checkerboard subset per launch), starts, reunitarisation and random gauge
// transformations. All are run by lqcd::for_each on host or device.

#include "core/site_random.hpp"
#include "gauge/random_links.hpp"
#include "gauge/staples.hpp"
#include "gauge/time_boundary.hpp"

namespace lqcd {

// Links of direction mu that can be updated at the same time. Plaquette actions: one parity
// (the staples of U_mu(x) involve U_mu only at x +- nu, of the other parity). Rectangle actions also
// couple U_mu(x) to U_mu(x +- 2nu) and U_mu(x +- mu +- nu): within a parity, sites are further split
// by (sum_{nu != mu} x_nu) mod 4, which needs every extent to be a multiple of 4.
struct UpdateSubset {
  int mu;
  int parity;
  int colour;  // -1: the whole parity; 0..3: (sum over nu != mu of global x_nu) mod 4
};

LQCD_HOST_DEVICE inline bool in_subset(const SiteIndexer& idx, const int x[4], const UpdateSubset& sub) {
  if (sub.colour < 0) return true;
  int s = 0;
  LQCD_UNROLL
  for (int nu = 0; nu < 4; ++nu)
    if (nu != sub.mu) s += x[nu] + idx.off[nu];
  return (s & 3) == sub.colour;
}

struct GaugeUpdateParams {
  double beta;
  double c0;
  double c1;
  TimeBoundary boundary;  // open: the spatial plaquettes at x0 = 0 and T weighted, the frozen links kept at 0
};

// The part every Cabibbo-Marinari update shares: the staple A of U_mu(x), then for each of the three
// SU(2) subgroups the projection of the subgroup block of W = U A onto k V (V in SU(2)), U <- R U with
// R = step(V, k) embedded in the subgroup, and reunitarisation before the store. A vanishing block
// (k = 0) leaves U unchanged: every R is then equally likely, and keeping U is one of them.
template <bool Rectangles, typename SubgroupStep>
LQCD_HOST_DEVICE void cabibbo_marinari_update(const GaugeView<double>& U, const UpdateSubset& subset,
                                              const GaugeUpdateParams& action, std::int64_t s, const int x[4],
                                              SubgroupStep&& step) {
  if (action.boundary.frozen(x[kTimeDir] + U.idx.off[kTimeDir], subset.mu)) return;
  const SU3<double> a = action_staple<Rectangles>(U, x, subset.mu, action.c0, action.c1,
                                                  action.boundary.staple_weight(U.idx, x, subset.mu));
  SU3<double> u = U.load(subset.mu, subset.parity, s);
  LQCD_UNROLL
  for (int g = 0; g < 3; ++g) {
    const SU2<double> w = su2_project(u * a, g);
    const double k = sqrt(w.a[0] * w.a[0] + w.a[1] * w.a[1] + w.a[2] * w.a[2] + w.a[3] * w.a[3]);
    if (!(k > 1e-300)) continue;
    const SU2<double> v{{w.a[0] / k, w.a[1] / k, w.a[2] / k, w.a[3] / k}};
    su2_left_multiply(u, step(v, k), g);
  }
  U.store(subset.mu, subset.parity, s, reunitarize(u));
}

// Heatbath: the local action -(beta/3) Re tr(U A) gives the subgroup update R U the weight
// exp((2 beta k / 3) (r V)_0), so x = r V is drawn with su2_heatbath_sample(2 beta k / 3) and
// r = x V^dagger.
template <bool Rectangles>
struct HeatbathKernel {
  GaugeView<double> U;
  UpdateSubset subset;
  GaugeUpdateParams action;
  std::uint64_t seed;
  std::uint32_t sweep;

  LQCD_HOST_DEVICE void operator()(std::int64_t s) const {
    int x[4];
    U.idx.coords(subset.parity, s, x);
    if (!in_subset(U.idx, x, subset)) return;
    SiteRandom rng(seed, U.idx.global_lex(x), RngPurpose::Heatbath, std::uint32_t(subset.mu), sweep);
    const double beta = action.beta;
    cabibbo_marinari_update<Rectangles>(U, subset, action, s, x, [&](const SU2<double>& v, double k) {
      return su2_mul(su2_heatbath_sample(2.0 * beta * k / 3.0, rng), su2_dagger(v));
    });
  }
};

// Microcanonical overrelaxation (F. R. Brown, T. J. Woch, PRL 58 (1987) 2394; M. Creutz, PRD 36
// (1987) 515): r = (V^dagger)^2 reflects U about the staple direction and leaves Re tr(U A), hence
// the action, unchanged.
template <bool Rectangles>
struct OverrelaxationKernel {
  GaugeView<double> U;
  UpdateSubset subset;
  GaugeUpdateParams action;

  LQCD_HOST_DEVICE void operator()(std::int64_t s) const {
    int x[4];
    U.idx.coords(subset.parity, s, x);
    if (!in_subset(U.idx, x, subset)) return;
    cabibbo_marinari_update<Rectangles>(U, subset, action, s, x, [](const SU2<double>& v, double) {
      const SU2<double> vd = su2_dagger(v);
      return su2_mul(vd, vd);
    });
  }
};

// Every link a Haar-random SU(3) matrix (lexicographic site index i).
struct HotStartKernel {
  GaugeView<double> U;
  std::uint64_t seed;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    int x[4];
    U.idx.coords_lex(i, x);
    LQCD_UNROLL
    for (int mu = 0; mu < 4; ++mu) {
      SiteRandom rng(seed, U.idx.global_lex(x), RngPurpose::HotStart, std::uint32_t(mu), 0);
      U.store(mu, SiteIndexer::parity(x), U.idx.cb_index(x), random_su3(rng));
    }
  }
};

struct UnitStartKernel {
  GaugeView<double> U;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    int x[4];
    U.idx.coords_lex(i, x);
    for (int mu = 0; mu < 4; ++mu) U.store(mu, SiteIndexer::parity(x), U.idx.cb_index(x), SU3<double>::identity());
  }
};

struct ReunitarizeKernel {
  GaugeView<double> U;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    int x[4];
    U.idx.coords_lex(i, x);
    const int p = SiteIndexer::parity(x);
    const std::int64_t s = U.idx.cb_index(x);
    for (int mu = 0; mu < 4; ++mu) U.store(mu, p, s, reunitarize(U.load(mu, p, s)));
  }
};

// U_mu(x) -> g(x) U_mu(x) g(x + mu)^dagger with g(x) Haar-random, drawn from the site's own random
// numbers, so no field of g needs storing and every process can recompute g at its neighbours.
struct RandomGaugeTransformKernel {
  GaugeView<double> U;
  std::uint64_t seed;
  LQCD_HOST_DEVICE SU3<double> g_at(const int x[4]) const {
    SiteRandom rng(seed, U.idx.global_lex(x), RngPurpose::GaugeTransformation, 0, 0);
    return random_su3(rng);
  }
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    int x[4];
    U.idx.coords_lex(i, x);
    const SU3<double> g = g_at(x);
    const int p = SiteIndexer::parity(x);
    const std::int64_t s = U.idx.cb_index(x);
    LQCD_UNROLL
    for (int mu = 0; mu < 4; ++mu) {
      int y[4] = {x[0], x[1], x[2], x[3]};
      U.idx.shift(y, mu, +1);
      U.store(mu, p, s, mul_adj(g * U.load(mu, p, s), g_at(y)));
    }
  }
};

}  // namespace lqcd
