#pragma once
// The HMC tests' check that a monomial's force is the derivative of its action (central differences
// at a few links and generators; hmc_test.cpp, smeared_fermion_monomial_test.cpp).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

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

// The force is in su(3) (Hermitian and traceless, in the F = sum_a F^a T^a convention) at every link:
// |F - F^dag|_max and |tr F| below 1e-12 of the largest entry of the whole field.
inline void expect_every_link_in_algebra(const LexicographicGauge& f, const std::string& name) {
  double largest = 0;
  for (const SU3<double>& F : f.links)
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) largest = std::max(largest, std::abs(F(r, c).re) + std::abs(F(r, c).im));
  ASSERT_GT(largest, 0) << name << ": the force is zero everywhere";
  int bad = 0;
  for (std::int64_t site = 0; site < f.volume(); ++site)
    for (int mu = 0; mu < 4; ++mu) {
      const SU3<double>& F = f(site, mu);
      const SU3<double> anti = F - dagger(F);
      double off = std::abs(trace(F).re) + std::abs(trace(F).im);
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) off = std::max(off, std::abs(anti(r, c).re) + std::abs(anti(r, c).im));
      if (off > 1e-12 * largest && bad++ < 5)
        ADD_FAILURE() << name << ": force not Hermitian traceless at site " << site << " mu " << mu << " (deviation "
                      << off << ", largest entry " << largest << ")";
    }
  EXPECT_EQ(bad, 0) << name << ": links whose force is not in su(3)";
}

// A link to check: lexicographic site, direction, generator.
struct ForceProbe {
  std::int64_t site;
  int mu, a;
};

// d/dw S[e^{i w T^a} U_mu(x)] by central differences, against the monomial's force, at a few links
// (six random ones, and `probes`).
inline void expect_force_is_derivative(Monomial& m, const GaugeField<double>& U, double tol,
                                       const std::vector<ForceProbe>& probes = {}) {
  const Geometry& g = U.geometry();
  MomentumField F(g, U.location());
  set_zero(F);
  m.add_force(U, F);
  const LexicographicGauge lex = to_lexicographic(U), f = to_lexicographic(F);
  const double eps = 1e-5;
  SiteRandom pick(5, 0, RngPurpose::Test, 3, 0);
  std::vector<ForceProbe> links = probes;
  for (int n = 0; n < 6; ++n) {
    const std::int64_t site = std::int64_t(pick.uniform() * double(g.volume()));
    const int mu = int(pick.uniform() * 4), a = int(pick.uniform() * 8);
    links.push_back({site, mu, a});
  }
  for (const auto& [site, mu, a] : links) {
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
  }
  expect_every_link_in_algebra(f, m.name());
}

}  // namespace lqcd::test
