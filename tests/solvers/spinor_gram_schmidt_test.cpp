// Flexible GCR's Gram-Schmidt on spinor fields in batches (solvers/krylov/flexible_gcr.hpp, the overload
// for fields with multi_dot and multi_axpy; fields/spinor_blas.hpp):
//   - multi_dot and multi_axpy over 11 fields (two batches of at most 8) equal the one-field dot and
//     axpy field by field;
//   - gcr_orthogonalise leaves q_k orthogonal to the q_j to rounding even where q_k is nearly one of them
//     (one classical pass would leave ~1e-9 of it: the second pass is what removes it), and updates z_k
//     with q_k's coefficients;
//   - multi_axpy's factor c (y <- c (y + sum_j a_j x_j)) over two batches and with no x_j;
//   - gcr_orthonormalise (the flexible GCR's step in fewer passes) gives the one-field form's q_k, z_k,
//     ||q_k||^2 and alpha = <q_k, r> for r orthogonal to the q_j, with one pass and with two.
// Host and device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "field_test_support.hpp"
#include "fields/spinor_blas.hpp"
#include "solvers/krylov/flexible_gcr.hpp"

namespace lqcd {
namespace {

class SpinorGramSchmidtTest : public ::testing::TestWithParam<Location> {};

TEST_P(SpinorGramSchmidtTest, BatchedDotsAndUpdatesAreTheOneFieldOnes) {
  const Geometry g = Geometry::single_process({4, 4, 4, 6});
  const Location loc = GetParam();
  const int n = 11;
  const std::vector<SpinorField<double>> x = test::random_fields<double>(g, loc, Subset::Full, n, 10);
  std::vector<const SpinorField<double>*> xs;
  for (const SpinorField<double>& f : x) xs.push_back(&f);
  std::vector<SpinorField<double>> ys = test::random_fields<double>(g, loc, Subset::Full, 1, 50);
  const SpinorField<double>& y = ys[0];

  double y2 = -1;
  const std::vector<Complex<double>> d = multi_dot(xs, y, &y2);
  ASSERT_EQ(d.size(), std::size_t(n));
  EXPECT_NEAR(y2, norm2(y), 1e-12 * norm2(y));
  for (int j = 0; j < n; ++j) {
    const Complex<double> want = dot(x[std::size_t(j)], y);
    EXPECT_NEAR(d[std::size_t(j)].re, want.re, 1e-12 * std::sqrt(norm2(y) * norm2(x[std::size_t(j)]))) << j;
    EXPECT_NEAR(d[std::size_t(j)].im, want.im, 1e-12 * std::sqrt(norm2(y) * norm2(x[std::size_t(j)]))) << j;
  }

  std::vector<Complex<double>> a;
  for (int j = 0; j < n; ++j) a.emplace_back(0.3 * j - 1.0, 0.1 * (j % 3) - 0.05);
  SpinorField<double> got = y.like(), want = y.like();
  got.copy_from(y);
  want.copy_from(y);
  multi_axpy(a, xs, got);
  for (int j = 0; j < n; ++j) axpy(a[std::size_t(j)], x[std::size_t(j)], want);
  EXPECT_LE(test::relative_difference(got, want), 1e-14);

  // with the factor: the earlier batch's terms scaled too
  got.copy_from(y);
  multi_axpy(a, xs, got, 0.7);
  scale(Complex<double>(0.7), want);
  EXPECT_LE(test::relative_difference(got, want), 1e-14);
  // no x_j: the factor alone
  got.copy_from(y);
  multi_axpy({}, std::vector<const SpinorField<double>*>{}, got, -0.5);
  want.copy_from(y);
  scale(Complex<double>(-0.5), want);
  EXPECT_LE(test::relative_difference(got, want), 1e-15);
}

// q_0 .. q_{k-1} orthonormal (with z_j), r orthogonal to them, q_k and z_k random (or q_k nearly q_3).
struct GcrStepFields {
  std::vector<SpinorField<double>> q, z;
  SpinorField<double> r;
};
GcrStepFields gcr_step_fields(Location loc, int k, bool nearly_dependent) {
  const Geometry g = Geometry::single_process({4, 4, 4, 6});
  GcrStepFields f{test::random_fields<double>(g, loc, Subset::Full, k + 1, 30),
                  test::random_fields<double>(g, loc, Subset::Full, k + 1, 40),
                  std::move(test::random_fields<double>(g, loc, Subset::Full, 1, 60)[0])};
  for (int j = 0; j < k; ++j) {
    gcr_orthogonalise(f.q, f.z, j);
    const double inv = 1.0 / std::sqrt(norm2(f.q[std::size_t(j)]));
    scale(Complex<double>(inv), f.q[std::size_t(j)]);
    scale(Complex<double>(inv), f.z[std::size_t(j)]);
  }
  for (int j = 0; j < k; ++j) axpy(-dot(f.q[std::size_t(j)], f.r), f.q[std::size_t(j)], f.r);
  if (nearly_dependent) {
    SpinorField<double>& qk = f.q[std::size_t(k)];
    scale(Complex<double>(1e-6), qk);
    axpy(Complex<double>(0.6, 0.8), f.q[3], qk);
  }
  return f;
}

TEST_P(SpinorGramSchmidtTest, GcrStepInFewerPassesIsTheOneFieldForm) {
  const int k = 9;  // with r: ten fields, two batches of the dot pass
  for (const bool nearly_dependent : {false, true}) {
    SCOPED_TRACE(nearly_dependent ? "q_k nearly q_3 (two passes)" : "q_k random (one pass)");
    GcrStepFields got = gcr_step_fields(GetParam(), k, nearly_dependent);
    GcrStepFields want = gcr_step_fields(GetParam(), k, nearly_dependent);
    const GcrDirection d = gcr_orthonormalise(got.q, got.z, k, got.r);
    // the one-field form: orthogonalise, normalise, then alpha from the normalised q_k
    gcr_orthogonalise(want.q, want.z, k);
    const double n2 = norm2(want.q[std::size_t(k)]);
    scale(Complex<double>(1.0 / std::sqrt(n2)), want.q[std::size_t(k)]);
    scale(Complex<double>(1.0 / std::sqrt(n2)), want.z[std::size_t(k)]);
    const Complex<double> alpha = dot(want.q[std::size_t(k)], want.r);
    // (q_k's rounding relative to its remaining part: 1e-6 of it where nearly dependent)
    const double tol = nearly_dependent ? 1e-9 : 1e-13;
    EXPECT_NEAR(d.norm2, n2, tol * n2);
    EXPECT_LE(test::relative_difference(got.q[std::size_t(k)], want.q[std::size_t(k)]), tol);
    EXPECT_LE(test::relative_difference(got.z[std::size_t(k)], want.z[std::size_t(k)]), tol);
    const double an = std::sqrt(norm2(alpha));
    EXPECT_NEAR(d.alpha.re, alpha.re, tol * an);
    EXPECT_NEAR(d.alpha.im, alpha.im, tol * an);
  }
}

TEST_P(SpinorGramSchmidtTest, NearlyDependentDirectionIsOrthogonalisedToRounding) {
  const Geometry g = Geometry::single_process({4, 4, 4, 6});
  const Location loc = GetParam();
  const int k = 10;  // q_0 .. q_9 orthonormal, then q_10 = q_3 + 1e-7 r
  std::vector<SpinorField<double>> q = test::random_fields<double>(g, loc, Subset::Full, k + 1, 70);
  std::vector<SpinorField<double>> z = test::random_fields<double>(g, loc, Subset::Full, k + 1, 90);
  for (int j = 0; j < k; ++j) {
    gcr_orthogonalise(q, z, j);
    scale(Complex<double>(1.0 / std::sqrt(norm2(q[std::size_t(j)]))), q[std::size_t(j)]);
  }
  SpinorField<double>& qk = q[std::size_t(k)];
  const double rn = std::sqrt(norm2(qk));
  scale(Complex<double>(1e-7), qk);
  axpy(Complex<double>(0.6, 0.8), q[3], qk);
  // z_j = 2 q_j and z_k = 2 q_k: then z_k must come out as 2 q_k, whatever the coefficients were
  for (int j = 0; j <= k; ++j) {
    z[std::size_t(j)].copy_from(q[std::size_t(j)]);
    scale(Complex<double>(2.0), z[std::size_t(j)]);
  }
  gcr_orthogonalise(q, z, k);

  const double qn = std::sqrt(norm2(qk));
  // what is left is the 1e-7 r part less its (small) components along the 10 q_j
  EXPECT_GT(qn, 0.9e-7 * rn);
  EXPECT_LE(qn, 1.0000001e-7 * rn);
  double worst = 0;
  for (int j = 0; j < k; ++j) worst = std::max(worst, std::sqrt(norm2(dot(q[std::size_t(j)], qk))) / qn);
  EXPECT_LT(worst, 1e-12) << "largest |<q_j, q_k>| / ||q_k|| after the orthogonalisation";
  SpinorField<double> twice = qk.like();
  twice.copy_from(qk);
  scale(Complex<double>(2.0), twice);
  EXPECT_LE(test::relative_difference(z[std::size_t(k)], twice), 1e-8) << "z_k updated with q_k's coefficients";
}

INSTANTIATE_TEST_SUITE_P(Locations, SpinorGramSchmidtTest, ::testing::ValuesIn(test::locations()),
                         [](const auto& info) { return info.param == Location::Host ? "Host" : "Device"; });

}  // namespace
}  // namespace lqcd
