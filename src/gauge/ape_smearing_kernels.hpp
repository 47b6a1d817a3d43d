#pragma once
// Site kernel of APE smearing (M. Albanese et al., Phys. Lett. B 192 (1987) 163), run by
// lqcd::for_each on host or device, and the SU(3) projection it needs:
//   U'_mu(x) = P_SU(3)[ (1 - alpha) U_mu(x) + (alpha / n) sum_{nu != mu, +-} S_{mu nu}(x) ],
//   S_{mu nu}(x) = U_nu(x) U_mu(x + nu) U_nu(x + mu)^dag   (+ the backward staple through x - nu),
// with n = 6 staples, or n = 4 spatial staples for spatial links when only spatial directions are
// smeared (temporal links are then copied unchanged).

#include <cstdint>

#include "gauge/staples.hpp"
#include "math/su2.hpp"

namespace lqcd {

// Sweeps and stopping rule of project_su3 (see there).
constexpr int kSu3ProjectionMaxSweeps = 200;
constexpr double kSu3ProjectionTolerance = 1e-15;

// P_SU(3)[X]: the SU(3) matrix P that maximises Re tr(P^dag X) = Re tr(P X^dag).
// Method (as in Chroma's sun_proj): start from the Gram-Schmidt reunitarisation of X, then repeat
// Cabibbo-Marinari sweeps over the three SU(2) subgroups; in each subgroup the 2x2 block of
// W = P X^dag is projected onto k V (V in SU(2), k >= 0) and P <- V^dag P, the left multiplication
// that maximises Re tr(P X^dag) within the subgroup (the zero-temperature limit of the heatbath
// step in update_kernels.hpp). No step decreases Re tr(P X^dag); the fixed point, where every
// subgroup block of W is proportional to the identity with a positive coefficient, is a maximum
// (in the tests, for APE sums of Haar-random links up to alpha = 1, the same maximum that 30
// random starts find).
// The sweeps stop when the largest subgroup rotation of a sweep, sin(angle) = |v|/k, is below
// kSu3ProjectionTolerance (for APE sums of Haar-random links: ~16 sweeps on average at alpha = 0.5,
// at most ~130 at alpha = 1 where X can be nearly singular; capped at kSu3ProjectionMaxSweeps), and
// the result is reunitarised against the rounding of the products.
// Because the maximum is found to rounding accuracy, the projection is gauge covariant,
// P[g X h^dag] = g P[X] h^dag, although the Gram-Schmidt start is not.
// FLOPs per sweep: 3 x (198 for P X^dag + 48 for the subgroup rotation) ~ 740.
// project_su3_from runs the iteration from a given SU(3) start p (the tests compare maxima with it).
LQCD_HOST_DEVICE inline SU3<double> project_su3_from(const SU3<double>& x, SU3<double> p) {
  const SU3<double> xd = dagger(x);
  for (int sweep = 0; sweep < kSu3ProjectionMaxSweeps; ++sweep) {
    double largest = 0;  // sin^2 of the largest rotation of this sweep
    LQCD_UNROLL
    for (int g = 0; g < 3; ++g) {
      const SU2<double> w = su2_project(p * xd, g);
      const double k2 = w.a[0] * w.a[0] + w.a[1] * w.a[1] + w.a[2] * w.a[2] + w.a[3] * w.a[3];
      if (!(k2 > 1e-300)) continue;  // no preferred rotation in this subgroup
      const double k = sqrt(k2);
      const double s2 = (w.a[1] * w.a[1] + w.a[2] * w.a[2] + w.a[3] * w.a[3]) / k2;
      largest = s2 > largest ? s2 : largest;
      if (w.a[0] < 0) largest = 1;  // a rotation by more than pi/2: never converged
      const SU2<double> vd{{w.a[0] / k, -w.a[1] / k, -w.a[2] / k, -w.a[3] / k}};
      su2_left_multiply(p, vd, g);
    }
    if (largest < kSu3ProjectionTolerance * kSu3ProjectionTolerance) break;
  }
  return reunitarize(p);
}
LQCD_HOST_DEVICE inline SU3<double> project_su3(const SU3<double>& x) { return project_su3_from(x, reunitarize(x)); }

// One APE step for all four links of lexicographic site i, reading `in` and writing `out` (two
// different fields: every new link is built from the old ones).
// The staples of staples.hpp, A = sum U_nu(x+mu) U_mu(x+nu)^dag U_nu(x)^dag + ..., close U_mu(x) A
// into plaquettes; the APE staples are their adjoints, sum S_{mu nu} = A^dag.
// FLOPs per smeared link: n staples x 2 x 198 + 18 n (sum) + 72 (mix) + projection (~740 per sweep,
// typically 15-20 sweeps): ~3.8k + projection for n = 6.
struct ApeSmearKernel {
  GaugeView<double> in;
  GaugeView<double> out;
  double alpha;
  int spatial_only;

  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    int x[4];
    in.idx.coords_lex(i, x);
    const int p = SiteIndexer::parity(x);
    const std::int64_t s = in.idx.cb_index(x);
    for (int mu = 0; mu < 4; ++mu) {
      const SU3<double> u = in.load(mu, p, s);
      if (spatial_only && mu == kTimeDir) {
        out.store(mu, p, s, u);
        continue;
      }
      const SU3<double> a = spatial_only ? plaquette_staple<kTimeDir>(in, x, mu) : plaquette_staple(in, x, mu);
      const double n = spatial_only ? 4.0 : 6.0;
      SU3<double> v = u * (1.0 - alpha);
      v += dagger(a) * (alpha / n);
      out.store(mu, p, s, project_su3(v));
    }
  }
};

}  // namespace lqcd
