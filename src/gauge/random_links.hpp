#pragma once
// Random group elements for hot starts, gauge transformations and the SU(2) heatbath.

#include "core/site_random.hpp"
#include "math/su2.hpp"

namespace lqcd {

// Haar-distributed SU(3): Gram-Schmidt of a complex Gaussian matrix (the QR construction of
// F. Mezzadri, Notices AMS 54 (2007) 592), third row fixed by det = 1.
LQCD_HOST_DEVICE inline SU3<double> random_su3(SiteRandom& rng) {
  SU3<double> m;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      // Two statements, not Complex(rng.gaussian(), rng.gaussian()): the evaluation order of
      // function arguments is unspecified, and g++ and nvcc do differ, which would give the host
      // and the device different fields from the same seed.
      m.m[i][j].re = rng.gaussian();
      m.m[i][j].im = rng.gaussian();
    }
  return reunitarize(m);
}

// x0 + i x.sigma with |x| = 1, x0 given, the direction of x uniform.
LQCD_HOST_DEVICE inline SU2<double> su2_with_real_part(double x0, SiteRandom& rng) {
  const double r = sqrt(x0 * x0 < 1.0 ? 1.0 - x0 * x0 : 0.0);
  const double cos_theta = 2.0 * rng.uniform() - 1.0;
  const double sin_theta = sqrt(1.0 - cos_theta * cos_theta);
  const double phi = 2.0 * 3.14159265358979323846 * rng.uniform();
  return SU2<double>{{x0, r * sin_theta * cos(phi), r * sin_theta * sin(phi), r * cos_theta}};
}

// An SU(2) element x distributed as dP(x) ~ exp(alpha x0) dHaar(x), i.e. x0 with density
// sqrt(1 - x0^2) exp(alpha x0) on [-1, 1]. Kennedy-Pendleton (Phys. Lett. B 156 (1985) 393) for
// alpha >= 1; for small alpha (nearly random staples) plain rejection from the Haar measure, which
// accepts with probability >= e^{-2 alpha} and stays exact.
// Out of line on the GPU: the heatbath calls it for three subgroups, and three inlined copies of the
// rejection loops cost 1.5x in speed (measured on the H100, docs/performance.md).
LQCD_DEVICE_NOINLINE LQCD_HOST_DEVICE inline SU2<double> su2_heatbath_sample(double alpha, SiteRandom& rng) {
  constexpr double two_pi = 2.0 * 3.14159265358979323846;
  if (alpha < 1.0) {
    for (;;) {
      // x0 of a Haar-random SU(2) element: density sqrt(1 - x0^2); from a uniform point on S^3.
      const double g0 = rng.gaussian(), g1 = rng.gaussian(), g2 = rng.gaussian(), g3 = rng.gaussian();
      const double x0 = g0 / sqrt(g0 * g0 + g1 * g1 + g2 * g2 + g3 * g3);
      if (rng.uniform() < exp(alpha * (x0 - 1.0))) return su2_with_real_part(x0, rng);
    }
  }
  for (;;) {
    const double r1 = rng.uniform_open0(), r2 = rng.uniform(), r3 = rng.uniform_open0(), r4 = rng.uniform();
    const double c = cos(two_pi * r2);
    const double lambda2 = -(log(r1) + c * c * log(r3)) / (2.0 * alpha);  // 1 - x0 = 2 lambda^2
    if (r4 * r4 <= 1.0 - lambda2) return su2_with_real_part(1.0 - 2.0 * lambda2, rng);
  }
}

}  // namespace lqcd
