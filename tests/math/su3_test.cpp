// Algebra of the SU(3)/SU(2) helpers (rung 1 of the correctness ladder).
#include <gtest/gtest.h>

#include "gauge/random_links.hpp"
#include "math/su2.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

SiteRandom rng_for(int i) { return SiteRandom(12345, std::uint64_t(i), RngPurpose::Test, 0, 0); }

TEST(SU3, ProductMatchesIndexDefinitionAndAdjointForms) {
  auto rng = rng_for(1);
  const SU3<double> a = test::random_matrix(rng), b = test::random_matrix(rng);
  const SU3<double> c = a * b;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      Complex<double> s{};
      for (int k = 0; k < 3; ++k) s += a.m[i][k] * b.m[k][j];
      EXPECT_NEAR(abs(s - c.m[i][j]), 0.0, 1e-14);
    }
  EXPECT_LT(test::max_abs_diff(mul_adj(a, b), a * dagger(b)), 1e-14);
  EXPECT_LT(test::max_abs_diff(adj_mul(a, b), dagger(a) * b), 1e-14);
  EXPECT_NEAR(re_trace_mul(a, b), re_trace(a * b), 1e-13);
}

TEST(SU3, DeterminantIsMultiplicative) {
  auto rng = rng_for(2);
  const SU3<double> a = test::random_matrix(rng), b = test::random_matrix(rng);
  EXPECT_NEAR(abs(determinant(a * b) - determinant(a) * determinant(b)), 0.0, 1e-12);
}

TEST(SU3, ReunitarizeGivesSU3AndKeepsSU3Fixed) {
  auto rng = rng_for(3);
  const SU3<double> u = reunitarize(test::random_matrix(rng));
  EXPECT_LT(su3_deviation(u), 1e-14);
  EXPECT_LT(test::max_abs_diff(reunitarize(u), u), 1e-14);
  // A slightly perturbed link is pulled back to SU(3) close to where it was.
  SU3<double> v = u;
  v.m[1][2] += Complex<double>(1e-7, -2e-7);
  EXPECT_GT(su3_deviation(v), 1e-8);
  EXPECT_LT(su3_deviation(reunitarize(v)), 1e-14);
  EXPECT_LT(test::max_abs_diff(reunitarize(v), u), 1e-6);
}

TEST(SU3, RandomSU3IsHaarLike) {
  // <|U_ij|^2> = 1/3 and <U_ij> = 0 for Haar measure.
  double sum_abs2 = 0, sum_re = 0;
  const int n = 4000;
  for (int i = 0; i < n; ++i) {
    auto rng = rng_for(100 + i);
    const SU3<double> u = random_su3(rng);
    ASSERT_LT(su3_deviation(u), 1e-13);
    sum_abs2 += norm2(u.m[0][1]) + norm2(u.m[2][2]);
    sum_re += u.m[1][0].re + u.m[0][0].re;
  }
  EXPECT_NEAR(sum_abs2 / (2 * n), 1.0 / 3.0, 0.01);
  EXPECT_NEAR(sum_re / (2 * n), 0.0, 0.02);
}

TEST(SU2, ProjectionReproducesSubgroupTrace) {
  // For r in SU(2) embedded in subgroup g: Re tr(R W) - Re tr(W) depends on W only through the
  // projection, Re tr(r w) = 2 (r * a)_0.
  auto rng = rng_for(4);
  const SU3<double> w = test::random_matrix(rng);
  for (int g = 0; g < 3; ++g) {
    const SU2<double> r = su2_with_real_part(0.3, rng);
    SU3<double> rw = w;
    su2_left_multiply(rw, r, g);
    const SU2<double> a = su2_project(w, g);
    const int i = su2_row(g, 0), j = su2_row(g, 1);
    const double block_before = w.m[i][i].re + w.m[j][j].re;
    const double block_after = rw.m[i][i].re + rw.m[j][j].re;
    EXPECT_NEAR(block_before, 2 * a.a[0], 1e-14);
    EXPECT_NEAR(block_after, 2 * su2_mul(r, a).a[0], 1e-13);
    EXPECT_NEAR(re_trace(rw) - block_after, re_trace(w) - block_before, 1e-13);
  }
}

TEST(SU2, EmbeddedMultiplicationIsAGroupAction) {
  auto rng = rng_for(5);
  const SU3<double> u = random_su3(rng);
  const SU2<double> r = su2_with_real_part(-0.4, rng), s = su2_with_real_part(0.7, rng);
  for (int g = 0; g < 3; ++g) {
    SU3<double> a = u, b = u;
    su2_left_multiply(a, s, g);
    su2_left_multiply(a, r, g);
    su2_left_multiply(b, su2_mul(r, s), g);
    EXPECT_LT(test::max_abs_diff(a, b), 1e-14);
    EXPECT_LT(su3_deviation(a), 1e-13);
    su2_left_multiply(a, su2_dagger(su2_mul(r, s)), g);
    EXPECT_LT(test::max_abs_diff(a, u), 1e-14);
  }
}

TEST(SU2, HeatbathSampleHasTheRightMeanOfX0) {
  // <x0> for density sqrt(1-x0^2) exp(alpha x0) is I_2(alpha)/I_1(alpha); checked against a direct
  // numerical integral, for the small-alpha rejection branch and the Kennedy-Pendleton branch.
  for (double alpha : {0.3, 2.5, 8.0}) {
    double num = 0, den = 0;
    const int m = 200000;
    for (int k = 0; k < m; ++k) {
      const double x = -1.0 + 2.0 * (k + 0.5) / m;
      const double w = std::sqrt(1 - x * x) * std::exp(alpha * x);
      num += x * w;
      den += w;
    }
    double sum = 0;
    const int n = 40000;
    for (int i = 0; i < n; ++i) {
      auto rng = rng_for(10000 + i);
      const SU2<double> x = su2_heatbath_sample(alpha, rng);
      ASSERT_NEAR(x.a[0] * x.a[0] + x.a[1] * x.a[1] + x.a[2] * x.a[2] + x.a[3] * x.a[3], 1.0, 1e-12);
      sum += x.a[0];
    }
    EXPECT_NEAR(sum / n, num / den, 0.006) << "alpha = " << alpha;
  }
}

}  // namespace
}  // namespace lqcd
