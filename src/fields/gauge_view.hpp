#pragma once
// The kernels' window onto a gauge field: trivially copyable, passed by value to host and device
// kernels. It hides the storage layout (DESIGN.md "Field storage"): per direction mu and parity p a
// block of 9 component vectors (one complex number, 16 bytes in double precision) per site, component
// c of checkerboard site s at block + c * stride + s, so that consecutive threads read consecutive
// 16-byte words. Kernels only call load/store and link(x, mu).

#include <cstdint>
#include <type_traits>

#include "core/geometry.hpp"
#include "math/precision.hpp"
#include "math/su3.hpp"

namespace lqcd {

// Components = 9: the full matrix (18 reals per link). Components = 6: the first two rows (12 reals);
// load() rebuilds the third row as (row0 x row1)^*, exact for SU(3) links (det = 1), so the Dirac
// operators read a third fewer link bytes (the "12-real reconstruction" of QUDA and CL2QCD).
// Components = 4: 8 reals, the minimal parametrisation of M. A. Clark et al., Comput. Phys. Commun.
// 181 (2010) 1517, Sec. 5: u01, u02, u10 and the phases of u00 and u20 (reconstruct8() says how the
// rest follows). Valid where |u00| < 1; a link that is diagonal in its first row (a cold start)
// cannot be rebuilt, which compress_links<4> checks.
// P is the storage precision (math/precision.hpp): double, float, or Half (16-bit fixed point, unit
// scale; the 8-real phases scaled by pi; components in pairs, load_components); links are returned in
// compute_t<P>.
template <typename P, int Components = 9>
struct GaugeView {
  static_assert(Components == 9 || Components == 6 || Components == 4, "links are stored with 18, 12 or 8 reals");
  static_assert(!is_fixed_point_v<P> || Components != 9, "half-precision links are stored with 12 or 8 reals");
  using Real = compute_t<P>;
  Complex<stored_t<P>>* data;
  std::int64_t stride;  // >= sites per parity (+ halo), a multiple of 16 vectors (256 bytes)
  SiteIndexer idx;

  // Fixed point: the scale of the 8-real form's phases (the other entries have unit scale).
  static constexpr Real kPhaseScale = Real(3.14159265358979323846);

  LQCD_HOST_DEVICE Complex<stored_t<P>>* block(int mu, int parity) const {
    return data + std::int64_t((mu * 2 + parity) * Components) * stride;
  }
  LQCD_HOST_DEVICE SU3<Real> load(int mu, int parity, std::int64_t s) const {
    Complex<stored_t<P>> b[Components];
    load_components<P>(block(mu, parity), stride, s, b);
    if constexpr (Components == 4) {
      return reconstruct8(decode<P>(b[0], Real(1)), decode<P>(b[1], Real(1)), decode<P>(b[2], Real(1)),
                          decode<P>(b[3], kPhaseScale));
    } else {
      SU3<Real> u;
      LQCD_UNROLL
      for (int c = 0; c < Components; ++c) u.m[c / 3][c % 3] = decode<P>(b[c], Real(1));
      if constexpr (Components == 6) rebuild_third_row(u, Real(1));
      return u;
    }
  }
  // The link as load() gives it divided by `scale`, which it sets. For fixed point with 12 reals the
  // stored integers of the first two rows (exact in float; no multiplication by 1/32767 per real),
  // the third row rebuilt from them and scaled once (6 multiplications instead of 12), and
  // scale = 1/32767, which the hopping term folds into the scale it applies anyway (wilson_hop);
  // otherwise load() and scale = 1.
  LQCD_HOST_DEVICE SU3<Real> load_unscaled(int mu, int parity, std::int64_t s, Real& scale) const {
    if constexpr (is_fixed_point_v<P> && Components == 6) {
      Complex<stored_t<P>> b[Components];
      load_components<P>(block(mu, parity), stride, s, b);
      SU3<Real> u;
      LQCD_UNROLL
      for (int c = 0; c < Components; ++c) u.m[c / 3][c % 3] = fixed_values(b[c]);
      scale = Real(1) / kFixedPointMax;
      rebuild_third_row(u, scale);
      return u;
    } else {
      scale = Real(1);
      return load(mu, parity, s);
    }
  }
  // The third row of an SU(3) matrix from its first two, (row0 x row1)^*, times `factor`.
  LQCD_HOST_DEVICE static void rebuild_third_row(SU3<Real>& u, Real factor) {
    u.m[2][0] = factor * conj(multiply_subtract(u.m[0][2], u.m[1][1], u.m[0][1] * u.m[1][2]));
    u.m[2][1] = factor * conj(multiply_subtract(u.m[0][0], u.m[1][2], u.m[0][2] * u.m[1][0]));
    u.m[2][2] = factor * conj(multiply_subtract(u.m[0][1], u.m[1][0], u.m[0][0] * u.m[1][1]));
  }
  // Stores the link (Components = 6: its first two rows; 4: its 8-real form).
  LQCD_HOST_DEVICE void store(int mu, int parity, std::int64_t s, const SU3<Real>& u) const {
    Complex<stored_t<P>> b[Components];
    if constexpr (Components == 4) {
      b[0] = encode<P>(u.m[0][1], Real(1));
      b[1] = encode<P>(u.m[0][2], Real(1));
      b[2] = encode<P>(u.m[1][0], Real(1));
      b[3] = encode<P>(Complex<Real>(atan2(u.m[0][0].im, u.m[0][0].re), atan2(u.m[2][0].im, u.m[2][0].re)),
                       Real(1) / kPhaseScale);
    } else {
      LQCD_UNROLL
      for (int c = 0; c < Components; ++c) b[c] = encode<P>(u.m[c / 3][c % 3], Real(1));
    }
    store_components<P>(block(mu, parity), stride, s, b);
  }
  // The SU(3) matrix with rows a, b, c from a2 = u01, a3 = u02, b1 = u10 and phases = (arg u00, arg u20).
  // Unitarity of row a and of column 1 gives |a1| and |c1|. The rows of an SU(3) matrix satisfy
  // c = (a x b)^* and b = (c x a)^*. Each of these, together with the orthogonality of that row to a,
  // is a 2x2 linear system with determinant -+N, N = |a2|^2 + |a3|^2 = 1 - |a1|^2:
  //   b2 = -(a1^* b1 a2 + c1^* a3^*) / N,   b3 = -(a1^* b1 a3 - c1^* a2^*) / N,
  //   c2 =  (b1^* a3^* - a1^* c1 a2) / N,   c3 = -(a1^* c1 a3 + b1^* a2^*) / N.
  LQCD_HOST_DEVICE static SU3<Real> reconstruct8(const Complex<Real>& a2, const Complex<Real>& a3,
                                                 const Complex<Real>& b1, const Complex<Real>& phases) {
    const Real n = norm2(a2) + norm2(a3);
    const Real a1_abs2 = Real(fmax(Real(0), Real(1) - n)), c1_abs2 = Real(fmax(Real(0), n - norm2(b1)));  // 1 - |a1|^2 - |b1|^2
    Complex<Real> a1, c1;
    Real inv;
#ifdef __CUDA_ARCH__
    if constexpr (std::is_same_v<Real, float>) {
      // Single and half precision on the GPU: the hardware's approximate sine, cosine (absolute error
      // below 2^-21.4 on [-pi, pi], where the stored phases lie) and reciprocal (2 ulp), in a few
      // instructions instead of sincospif's range reduction and an IEEE division: the 8-real kernels
      // are bound as much by instruction issue as by memory (docs/performance.md). Half precision also
      // takes the approximate square root (MUFU.SQRT, relative error ~2^-22, far below its 2^-15
      // steps) instead of the IEEE one's iteration and slow path; single precision keeps the IEEE
      // root, with which its kernel fits in 128 registers without spilling.
      float a1_abs, c1_abs;
      if constexpr (is_fixed_point_v<P>) {
        asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(a1_abs) : "f"(a1_abs2));
        asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(c1_abs) : "f"(c1_abs2));
      } else {
        a1_abs = sqrtf(a1_abs2);
        c1_abs = sqrtf(c1_abs2);
      }
      float s, c;
      __sincosf(phases.re, &s, &c);
      a1 = a1_abs * Complex<Real>(c, s);
      __sincosf(phases.im, &s, &c);
      c1 = c1_abs * Complex<Real>(c, s);
      inv = __fdividef(1.0f, n);
    } else
#endif
    {
      a1 = Real(sqrt(a1_abs2)) * unit_phase(phases.re);
      c1 = Real(sqrt(c1_abs2)) * unit_phase(phases.im);
      inv = Real(1) / n;
    }
    const Complex<Real> a1b1 = conj(a1) * b1, a1c1 = conj(a1) * c1;
    SU3<Real> u;
    u.m[0][0] = a1;
    u.m[0][1] = a2;
    u.m[0][2] = a3;
    u.m[1][0] = b1;
    u.m[1][1] = -inv * (a1b1 * a2 + conj(c1) * conj(a3));
    u.m[1][2] = -inv * (a1b1 * a3 - conj(c1) * conj(a2));
    u.m[2][0] = c1;
    u.m[2][1] = inv * (conj(b1) * conj(a3) - a1c1 * a2);
    u.m[2][2] = -inv * (a1c1 * a3 + conj(b1) * conj(a2));
    return u;
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
