#pragma once
// Site kernels of open boundaries in time (gauge/open_boundary.hpp).

#include "core/reduction.hpp"
#include "gauge/staples.hpp"
#include "gauge/time_boundary.hpp"

namespace lqcd {

// The frozen links set to zero; one thread per site.
struct FreezeBoundaryLinksKernel {
  GaugeView<double> U;
  TimeBoundary b;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    int x[4];
    U.idx.coords_lex(i, x);
    if (b.frozen(x[kTimeDir] + U.idx.off[kTimeDir], kTimeDir))
      U.store(kTimeDir, SiteIndexer::parity(x), U.idx.cb_index(x), SU3<double>::zero());
  }
};

// The largest entry modulus of the time-like links at global x0 = last (zero on an open lattice).
struct LastTimeLinkSizeKernel {
  GaugeView<double> U;
  int last;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, Maximum& acc) const {
    int x[4];
    U.idx.coords_lex(i, x);
    if (x[kTimeDir] + U.idx.off[kTimeDir] != last) return;
    const SU3<double> u = U.load(kTimeDir, SiteIndexer::parity(x), U.idx.cb_index(x));
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) acc.take(sqrt(u.m[r][c].re * u.m[r][c].re + u.m[r][c].im * u.m[r][c].im));
  }
};

// Per site, over the plaquettes P_{mu nu}(x), mu < nu, that are in the lattice (not those through a frozen
// link): [0] w(P) (1 - Re tr P / 3), [1] Re tr P / 3, [2] 1.
struct OpenBoundaryPlaquetteKernel {
  GaugeView<double> U;
  TimeBoundary b;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, Sums<3>& acc) const {
    int x[4];
    U.idx.coords_lex(i, x);
    const int t = x[kTimeDir] + U.idx.off[kTimeDir];
    for (int mu = 0; mu < 4; ++mu)
      for (int nu = mu + 1; nu < 4; ++nu) {
        if (nu == kTimeDir && b.frozen(t, kTimeDir)) continue;  // through U_t(x) at x0 = T
        const int plaq[4] = {fwd(mu), fwd(nu), bwd(mu), bwd(nu)};
        const double p = re_trace(U.path(x, plaq)) / 3.0;
        const double w = nu == kTimeDir ? 1.0 : b.spatial_weight(t);
        acc[0] += w * (1.0 - p);
        acc[1] += p;
        acc[2] += 1.0;
      }
  }
};

}  // namespace lqcd
