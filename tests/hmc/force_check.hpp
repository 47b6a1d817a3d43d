#pragma once
// The HMC tests' check that a monomial's force is the derivative of its action (central differences
// at a few links and generators; hmc_test.cpp, smeared_fermion_monomial_test.cpp).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/site_random.hpp"
#include "hmc/md_kernels.hpp"
#include "hmc/momentum_field.hpp"
#include "hmc/monomial.hpp"

namespace lqcd::test {

inline SU3<double> generator(int a) {
  double p[8] = {};
  p[a] = 1;
  return su3_algebra(p);
}

// F^a = 2 Re tr(T^a F) for F = sum_b F^b T^b.
inline double component(const SU3<double>& F, int a) { return 2 * re_trace_mul(generator(a), F); }

// d/dw S[e^{i w T^a} U_mu(x)] by central differences, against the monomial's force, at a few links.
inline void expect_force_is_derivative(Monomial& m, const GaugeField<double>& U, double tol) {
  const Geometry& g = U.geometry();
  MomentumField F(g, U.location());
  set_zero(F);
  m.add_force(U, F);
  const LexicographicGauge lex = to_lexicographic(U), f = to_lexicographic(F);
  const double eps = 1e-5;
  SiteRandom pick(5, 0, RngPurpose::Test, 3, 0);
  for (int n = 0; n < 6; ++n) {
    const std::int64_t site = std::int64_t(pick.uniform() * double(g.volume()));
    const int mu = int(pick.uniform() * 4), a = int(pick.uniform() * 8);
    double s[2];
    for (int sign = 0; sign < 2; ++sign) {
      LexicographicGauge v = lex;
      SU3<double> t = generator(a);
      t *= sign ? -eps : eps;
      v(site, mu) = exp_i(t) * v(site, mu);
      s[sign] = m.action(to_gauge_field(v, g, U.location()));
    }
    const double numeric = (s[0] - s[1]) / (2 * eps), analytic = component(f(site, mu), a);
    EXPECT_NEAR(analytic, numeric, tol * std::max(1.0, std::abs(numeric)))
        << m.name() << ": site " << site << " mu " << mu << " generator " << a;
    // The force is in su(3): Hermitian and traceless.
    EXPECT_LT(std::abs(trace(f(site, mu)).re) + std::abs(trace(f(site, mu)).im), 1e-13);
  }
}

}  // namespace lqcd::test
