#pragma once
// Gaussian random spinor fields, keyed by (seed, global site, purpose, stream, counter) (DESIGN.md: the
// same numbers on any device, thread count and process grid): the pseudofermion heatbath's noise and the
// multigrid's random start.

#include <cstdint>

#include "core/site_random.hpp"
#include "fields/spinor_field.hpp"

namespace lqcd {

// Each real part Gaussian with standard deviation `scale` (1/sqrt(2): density exp(-|eta|^2) per complex
// component, the pseudofermions'), drawn in double and rounded to the field's precision.
template <typename Real>
struct GaussianSpinorKernel {
  SpinorView<Real> out;
  std::uint64_t seed;
  RngPurpose purpose;
  std::uint32_t stream, counter;
  double scale;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const int p = out.parity_of(i);
    const std::int64_t s = out.cb_of(i);
    int x[4];
    out.idx.coords(p, s, x);
    SiteRandom rng(seed, out.idx.global_lex(x), purpose, stream, counter);
    ColorSpinor<compute_t<Real>> v;
    for (int sp = 0; sp < 4; ++sp)
      for (int c = 0; c < 3; ++c) {
        const double re = rng.gaussian();
        const double im = rng.gaussian();
        v.s[sp].c[c] = Complex<compute_t<Real>>(compute_t<Real>(re * scale), compute_t<Real>(im * scale));
      }
    out.store(p, s, v);
  }
};

// 1/sqrt(2): the pseudofermions' scale.
inline constexpr double kUnitComplexVariance = 0.70710678118654752440;

}  // namespace lqcd
