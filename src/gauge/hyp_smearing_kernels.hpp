#pragma once
// Site kernels of HYP smearing (gauge/hyp_smearing.hpp). The decorated links of a level are kept in
// three fields: for link direction mu and the one "other" direction d != mu that labels it (level 1: the
// staple direction eta; level 2: the excluded direction nu), field index other_index(mu, d) holds it in
// its direction-mu block.

#include <cstdint>

#include "gauge/ape_smearing_kernels.hpp"

namespace lqcd {

LQCD_HOST_DEVICE constexpr int other_index(int mu, int d) { return d < mu ? d : d - 1; }

// Three fields of decorated links, read as link(x, mu, d).
struct DecoratedLinks {
  GaugeView<double> f[3];
  LQCD_HOST_DEVICE SU3<double> link(const int x[4], int mu, int d) const { return f[other_index(mu, d)].link(x, mu); }
};

// The APE staple sum in the +-rho directions for the link mu at x, built from `side` links in direction
// rho and `along` links in direction mu:
//   side(x) along(x + rho) side(x + mu)^dag + side(x - rho)^dag along(x - rho) side(x - rho + mu).
// side(y) = S.link(y, rho, s_label), along(y) = A.link(y, mu, a_label).
template <typename Side, typename Along>
LQCD_HOST_DEVICE SU3<double> hyp_staples(const SiteIndexer& idx, const int x[4], int mu, int rho, const Side& side,
                                         const Along& along) {
  int xr[4] = {x[0], x[1], x[2], x[3]}, xm[4] = {x[0], x[1], x[2], x[3]};
  idx.shift(xr, rho, +1);
  idx.shift(xm, mu, +1);
  SU3<double> a = mul_adj(side(x) * along(xr), side(xm));
  int yd[4] = {x[0], x[1], x[2], x[3]};
  idx.shift(yd, rho, -1);
  int ydm[4] = {yd[0], yd[1], yd[2], yd[3]};
  idx.shift(ydm, mu, +1);
  a += adj_mul(side(yd), along(yd) * side(ydm));
  return a;
}

LQCD_HOST_DEVICE inline SU3<double> hyp_mix(const SU3<double>& u, const SU3<double>& staples, double alpha, double n) {
  SU3<double> v = u * (1.0 - alpha);
  v += staples * (alpha / n);
  return project_su3(v);
}

// Level 1: Vbar for every mu and staple direction eta != mu, from U.
struct HypLevel1Kernel {
  GaugeView<double> U;
  DecoratedLinks out;
  double alpha3;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    int x[4];
    U.idx.coords_lex(i, x);
    const int p = SiteIndexer::parity(x);
    const std::int64_t s = U.idx.cb_index(x);
    for (int mu = 0; mu < 4; ++mu) {
      const SU3<double> u = U.load(mu, p, s);
      for (int eta = 0; eta < 4; ++eta) {
        if (eta == mu) continue;
        const auto side = [&](const int y[4]) { return U.link(y, eta); };
        const auto along = [&](const int y[4]) { return U.link(y, mu); };
        out.f[other_index(mu, eta)].store(mu, p, s, hyp_mix(u, hyp_staples(U.idx, x, mu, eta, side, along), alpha3, 2));
      }
    }
  }
};

// Level 2: Vtilde_{mu;nu} for every mu and excluded nu != mu, from U and level 1 (halo exchanged). The
// staple in direction rho (not mu, nu) uses Vbar_{rho;nu mu} and Vbar_{mu;rho nu}, both labelled by the
// remaining direction sigma (their staple direction at level 1).
// Spatial (3D) HYP: the cube attached to a spatial link has no level 1 (there is no fourth direction to
// exclude); Vtilde_{i;j} = P[(1 - a2) U_i + a2/2 sum_{+-k, k != i, j} U_k U_i U_k^dag], k the one spatial
// direction left, built from U, for spatial i, j only.
struct HypLevel2Kernel {
  GaugeView<double> U;
  DecoratedLinks level1;
  DecoratedLinks out;
  double alpha2;
  bool spatial = false;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    int x[4];
    U.idx.coords_lex(i, x);
    const int p = SiteIndexer::parity(x);
    const std::int64_t s = U.idx.cb_index(x);
    const int dims = spatial ? 3 : 4;
    for (int mu = 0; mu < dims; ++mu) {
      const SU3<double> u = U.load(mu, p, s);
      for (int nu = 0; nu < dims; ++nu) {
        if (nu == mu) continue;
        SU3<double> staples = SU3<double>::zero();
        for (int rho = 0; rho < dims; ++rho) {
          if (rho == mu || rho == nu) continue;
          if (spatial) {
            const auto side = [&](const int y[4]) { return U.link(y, rho); };
            const auto along = [&](const int y[4]) { return U.link(y, mu); };
            staples += hyp_staples(U.idx, x, mu, rho, side, along);
            continue;
          }
          const int sigma = 6 - mu - nu - rho;
          const auto side = [&](const int y[4]) { return level1.link(y, rho, sigma); };
          const auto along = [&](const int y[4]) { return level1.link(y, mu, sigma); };
          staples += hyp_staples(U.idx, x, mu, rho, side, along);
        }
        out.f[other_index(mu, nu)].store(mu, p, s, hyp_mix(u, staples, alpha2, spatial ? 2 : 4));
      }
    }
  }
};

// Level 3: V_mu from U and level 2 (halo exchanged): the staple in direction nu uses Vtilde_{nu;mu} and
// Vtilde_{mu;nu}. Spatial (3D) HYP: spatial mu and nu only (4 staples); the time links are copied.
struct HypLevel3Kernel {
  GaugeView<double> U;
  DecoratedLinks level2;
  GaugeView<double> out;
  double alpha1;
  bool spatial = false;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    int x[4];
    U.idx.coords_lex(i, x);
    const int p = SiteIndexer::parity(x);
    const std::int64_t s = U.idx.cb_index(x);
    const int dims = spatial ? 3 : 4;
    for (int mu = 0; mu < 4; ++mu) {
      if (mu >= dims) {
        out.store(mu, p, s, U.load(mu, p, s));
        continue;
      }
      SU3<double> staples = SU3<double>::zero();
      for (int nu = 0; nu < dims; ++nu) {
        if (nu == mu) continue;
        const auto side = [&](const int y[4]) { return level2.link(y, nu, mu); };
        const auto along = [&](const int y[4]) { return level2.link(y, mu, nu); };
        staples += hyp_staples(U.idx, x, mu, nu, side, along);
      }
      out.store(mu, p, s, hyp_mix(U.load(mu, p, s), staples, alpha1, 2 * (dims - 1)));
    }
  }
};

}  // namespace lqcd
