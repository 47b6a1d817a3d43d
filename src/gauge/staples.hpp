#pragma once
// Staples: for the link U_mu(x), the sum A of the open paths that close each plaquette (and
// rectangle) through it, so that the local action is -(beta/3) Re tr(U_mu(x) A) (up to constants).
// A loop through U_mu(x) is written starting with the step +mu at x; the staple is the rest of the
// loop from x + mu. Signed directions: +(nu+1) forward, -(nu+1) backward along nu.

#include "fields/gauge_view.hpp"

namespace lqcd {

LQCD_HOST_DEVICE constexpr int fwd(int mu) { return mu + 1; }
LQCD_HOST_DEVICE constexpr int bwd(int mu) { return -(mu + 1); }

// Plaquette staples: sum over nu != mu and both orientations of U_nu U_mu^dag U_nu^dag paths, for the
// directions nu < Directions (4: all planes; 3: the spatial planes, as APE smearing of spatial links).
// spatial_weight multiplies the plaquettes of spatial planes (mu and nu spatial: they lie in the link's
// time slice): open boundaries' c_G / 2 at x0 = 0 and T (gauge/time_boundary.hpp), else 1.
template <int Directions = 4, typename Real>
LQCD_HOST_DEVICE SU3<Real> plaquette_staple(const GaugeView<Real>& U, const int x[4], int mu,
                                            Real spatial_weight = Real(1)) {
  int y[4] = {x[0], x[1], x[2], x[3]};
  U.idx.shift(y, mu, +1);
  SU3<Real> a = SU3<Real>::zero();
  LQCD_UNROLL
  for (int nu = 0; nu < Directions; ++nu) {
    if (nu == mu) continue;
    const Real w = mu != kTimeDir && nu != kTimeDir ? spatial_weight : Real(1);
    LQCD_UNROLL
    for (int s = -1; s <= 1; s += 2) {
      const int n = s > 0 ? fwd(nu) : bwd(nu), m = -n;
      const int upper[3] = {n, bwd(mu), m};
      SU3<Real> p = U.path(y, upper);
      if (w != Real(1)) p *= w;  // only at open boundaries: the common case stays one add
      a += p;
    }
  }
  return a;
}

// Rectangle staples: the 18 1x2 rectangles through U_mu(x) (6 orientations x 3 positions of the link).
template <typename Real>
LQCD_HOST_DEVICE SU3<Real> rectangle_staple(const GaugeView<Real>& U, const int x[4], int mu) {
  int y[4] = {x[0], x[1], x[2], x[3]};
  U.idx.shift(y, mu, +1);
  SU3<Real> a = SU3<Real>::zero();
  const int f = fwd(mu), b = bwd(mu);
  for (int nu = 0; nu < 4; ++nu) {
    if (nu == mu) continue;
    for (int s = -1; s <= 1; s += 2) {
      const int n = s > 0 ? fwd(nu) : bwd(nu), m = -n;
      const int first_long[5] = {f, n, b, b, m};   // U_mu(x) is the first of the two long links
      const int second_long[5] = {n, b, b, m, f};  // U_mu(x) is the second
      const int short_side[5] = {n, n, b, m, m};   // U_mu(x) is a short side of a 2-long rectangle in nu
      a += U.path(y, first_long);
      a += U.path(y, second_long);
      a += U.path(y, short_side);
    }
  }
  return a;
}

// c0 * plaquette staples + c1 * rectangle staples (the staple of the improved actions). The
// rectangle term is a template parameter so that Wilson-action kernels do not carry its code (and
// its registers).
// spatial_weight: as plaquette_staple's (open boundaries: Wilson plaquettes only).
template <bool Rectangles, typename Real>
LQCD_HOST_DEVICE SU3<Real> action_staple(const GaugeView<Real>& U, const int x[4], int mu, Real c0, Real c1,
                                         Real spatial_weight = Real(1)) {
  SU3<Real> a = plaquette_staple(U, x, mu, spatial_weight);
  if constexpr (Rectangles) {
    a *= c0;
    SU3<Real> r = rectangle_staple(U, x, mu);
    r *= c1;
    a += r;
  }
  return a;
}

}  // namespace lqcd
