#pragma once
// The kernels' window onto a gauge field: trivially copyable, passed by value to host and device
// kernels. It hides the storage layout (DESIGN.md "Field storage"): per direction mu and parity p a
// block of 9 component vectors (one complex number, 16 bytes in double precision) per site, component
// c of checkerboard site s at block + c * stride + s, so that consecutive threads read consecutive
// 16-byte words. Kernels only call load/store and link(x, mu).

#include <cstdint>

#include "core/geometry.hpp"
#include "math/su3.hpp"

namespace lqcd {

// Components = 9: the full matrix (18 reals per link). Components = 6: the first two rows (12 reals);
// load() rebuilds the third row as (row0 x row1)^*, exact for SU(3) links (det = 1), so the Dirac
// operators read a third fewer link bytes (the "12-real reconstruction" of QUDA and CL2QCD).
template <typename Real, int Components = 9>
struct GaugeView {
  static_assert(Components == 9 || Components == 6, "links are stored with 18 or 12 reals");
  Complex<Real>* data;
  std::int64_t stride;  // >= sites per parity (+ halo), a multiple of 16 vectors (256 bytes)
  SiteIndexer idx;

  LQCD_HOST_DEVICE Complex<Real>* block(int mu, int parity) const {
    return data + std::int64_t((mu * 2 + parity) * Components) * stride;
  }
  LQCD_HOST_DEVICE SU3<Real> load(int mu, int parity, std::int64_t s) const {
    const Complex<Real>* b = block(mu, parity) + s;
    SU3<Real> u;
    LQCD_UNROLL
    for (int c = 0; c < Components; ++c) u.m[c / 3][c % 3] = b[c * stride];
    if constexpr (Components == 6) {
      u.m[2][0] = conj(u.m[0][1] * u.m[1][2] - u.m[0][2] * u.m[1][1]);
      u.m[2][1] = conj(u.m[0][2] * u.m[1][0] - u.m[0][0] * u.m[1][2]);
      u.m[2][2] = conj(u.m[0][0] * u.m[1][1] - u.m[0][1] * u.m[1][0]);
    }
    return u;
  }
  // Stores the link (Components = 6: its first two rows).
  LQCD_HOST_DEVICE void store(int mu, int parity, std::int64_t s, const SU3<Real>& u) const {
    Complex<Real>* b = block(mu, parity) + s;
    LQCD_UNROLL
    for (int c = 0; c < Components; ++c) b[c * stride] = u.m[c / 3][c % 3];
  }
  // U_mu(x) at local coordinates x.
  LQCD_HOST_DEVICE SU3<Real> link(const int x[4], int mu) const {
    return load(mu, SiteIndexer::parity(x), idx.cb_index(x));
  }
  // The link leaving x in the signed direction d (d = mu+1 forward, -(mu+1) backward):
  // U_mu(x) forward, U_mu(x - mu)^dagger backward. Moves x to the end point of the link.
  LQCD_HOST_DEVICE SU3<Real> step(int x[4], int d) const {
    if (d > 0) {
      const SU3<Real> u = link(x, d - 1);
      idx.shift(x, d - 1, +1);
      return u;
    }
    idx.shift(x, -d - 1, -1);
    return dagger(link(x, -d - 1));
  }
  // Ordered product of links along a path of signed directions starting at x.
  template <int N>
  LQCD_HOST_DEVICE SU3<Real> path(const int x0[4], const int (&dirs)[N]) const {
    int x[4] = {x0[0], x0[1], x0[2], x0[3]};
    SU3<Real> p = step(x, dirs[0]);
    LQCD_UNROLL
    for (int i = 1; i < N; ++i) p = p * step(x, dirs[i]);
    return p;
  }
};

}  // namespace lqcd
