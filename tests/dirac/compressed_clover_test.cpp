// The clover operator of the inner solves (compressed_clover_even_odd.hpp): single precision with 12-
// and 18-real links and half precision with 12-real links equal the double-precision even-odd
// Wilson-clover operator to their rounding (single 1e-5, half 2e-3: 16-bit spinors keep each site to
// 2^-15 of its largest component, the links to 2^-15), for apply, apply_dagger, the prepared source
// and the reconstruction, with and without twisted mass; on a lattice with a halo (where A_oo^{-1} is
// not fused into the hopping kernel) the same; host and device agree; and a double/half mixed CG on
// its normal operator reaches 1e-10.
#include <gtest/gtest.h>

#include <cstdio>

#include <cmath>
#include <string>

#include "clover_test_support.hpp"
#include "dirac/compressed_clover_even_odd.hpp"
#include "field_test_support.hpp"
#include "fields/spinor_blas.hpp"
#include "solvers/solver.hpp"

namespace lqcd {
namespace {

// ||a - b|| / ||b|| in double.
template <typename A>
double relative_to(const SpinorField<A>& a, const SpinorField<double>& b) {
  return test::relative_difference(test::converted<double>(a), b);
}

WilsonParams params(double kappa, double mu) {
  WilsonParams p;
  p.kappa = kappa;
  p.mu = mu;
  return p;
}

template <typename Real, int LC>
void expect_close_to_double(const Geometry& g, Location loc, double mu, double tol, const std::string& what) {
  // Links and fields built on a halo-free lattice and copied onto g (which may have a halo).
  const Geometry plain = Geometry::single_process(g.global);
  const LexicographicGauge lex = to_lexicographic(test::rough_gauge(plain, Location::Host, 21));
  const GaugeField<double> U = to_gauge_field(lex, g, loc);
  const WilsonCloverEvenOddOperator<double> M(U, params(0.128, mu), 1.7);
  const CompressedCloverEvenOddOperator<Real, LC> Ms(M);
  const SpinorField<double> full = to_spinor_field(test::random_spinor(plain, 5), g, loc);
  const SpinorField<double> even = full.parity_part(0);
  const SpinorField<Real> even_s = test::converted<Real>(even), full_s = test::converted<Real>(full);
  SpinorField<double> ref = M.make_field();
  SpinorField<Real> out = Ms.make_field();
  M.apply(ref, even);
  Ms.apply(out, even_s);
  EXPECT_LT(relative_to(out, ref), tol) << what << ": apply";
  M.apply_dagger(ref, even);
  Ms.apply_dagger(out, even_s);
  EXPECT_LT(relative_to(out, ref), tol) << what << ": apply_dagger";
  EXPECT_LT(relative_to(Ms.prepare_source(full_s), M.prepare_source(full)), tol) << what << ": prepare_source";
  EXPECT_LT(relative_to(Ms.reconstruct(even_s, full_s), M.reconstruct(even, full)), tol) << what << ": reconstruct";
}

class CompressedCloverTest : public ::testing::TestWithParam<Location> {};

TEST_P(CompressedCloverTest, EqualsTheDoubleOperatorToRounding) {
  const Location loc = GetParam();
  const Geometry g = Geometry::single_process({4, 4, 4, 8});
  for (double mu : {0.0, 0.03}) {
    const std::string m = " mu " + std::to_string(mu);
    expect_close_to_double<float, 6>(g, loc, mu, 1e-5, "single/12" + m);
    expect_close_to_double<float, 9>(g, loc, mu, 1e-5, "single/18" + m);
    expect_close_to_double<Half, 6>(g, loc, mu, 2e-3, "half/12" + m);
  }
}

TEST_P(CompressedCloverTest, UnfusedOnALatticeWithAHalo) {
  Geometry g = Geometry::single_process({4, 4, 4, 8});
  g.halo = {0, 0, 0, 1};  // the t faces go through the face exchange (one process: its own opposite face)
  expect_close_to_double<float, 6>(g, GetParam(), 0.03, 1e-5, "single/12 with a halo");
  expect_close_to_double<Half, 6>(g, GetParam(), 0.0, 2e-3, "half/12 with a halo");
}

TEST_P(CompressedCloverTest, MixedHalfPrecisionCgReachesDoubleTolerance) {
  const Location loc = GetParam();
  const Geometry g = Geometry::single_process({4, 4, 4, 8});
  const GaugeField<double> U = test::rough_gauge(g, loc, 21);
  const WilsonCloverEvenOddOperator<double> M(U, params(0.128, 0.0), 1.7);
  const CompressedCloverEvenOddOperator<Half, 6> Mh(M);
  const NormalOperator<double> A(M);
  const NormalOperator<Half> Ah(Mh);
  const SpinorField<double> b = to_spinor_field(test::random_spinor(g, 8), g, loc).parity_part(0);
  SpinorField<double> x = M.make_field();
  set_zero(x);
  SolverParams p;
  p.type = SolverType::CG;
  p.hermitian = true;
  p.tolerance = 1e-10;
  p.max_iterations = 5000;
  const SolverResult r = solve_mixed<Half>(A, Ah, x, b, p);
  EXPECT_TRUE(r.converged);
  EXPECT_LT(test::relative_residual(A, x, b), 1e-10);
}

INSTANTIATE_TEST_SUITE_P(Backends, CompressedCloverTest, ::testing::ValuesIn(test::locations()),
                         [](const auto& info) { return std::string(to_string(info.param)); });

TEST(CompressedClover, HostAndDeviceAgree) {
  if (!device_available()) GTEST_SKIP() << "no CUDA device: " << device_description();
  const Geometry g = Geometry::single_process({8, 8, 8, 8});
  const GaugeField<double> Uh = test::rough_gauge(g, Location::Host, 3), Ud = Uh.clone(Location::Device);
  const WilsonCloverEvenOddOperator<double> Mh(Uh, params(0.125, 0.02), 1.9), Md(Ud, params(0.125, 0.02), 1.9);
  const CompressedCloverEvenOddOperator<Half, 6> Sh(Mh), Sd(Md);
  const SpinorField<double> in = to_spinor_field(test::random_spinor(g, 4), g, Location::Host).parity_part(0);
  const SpinorField<Half> ih = test::converted<Half>(in), id = test::converted<Half>(in.clone(Location::Device));
  SpinorField<Half> oh = Sh.make_field(), od = Sd.make_field();
  Sh.apply(oh, ih);
  Sd.apply(od, id);
  // The same rounding on both sides up to the order of the float sums: host and device differ where a
  // sum rounds to the other side of a half-precision step (2^-15 of a site's largest component), at few
  // sites, so the relative norm of the difference stays below one step, 3e-5.
  const SpinorField<double> dh = test::converted<double>(oh);
  const double difference = relative_to(test::converted<double>(od).clone(Location::Host), dh);
  std::printf("    |device - host| / |host| = %.3g\n", difference);
  EXPECT_LT(difference, 3e-5);
}

}  // namespace
}  // namespace lqcd
