// The device hopping kernel with four threads per site (dirac/split_hopping.cuh) computes what the
// kernel with one thread per site computes, up to the order in which the four directions are summed:
// M_hat and M_hat^dag (Wilson and twisted mass) agree between LQCD_HOPPING_SPLIT=1 and =0 to rounding,
// for every link storage and precision, on a lattice whose sites do not fill the last block, in
// storage order and with a t-tile, and both agree with the host operator to issue 4's tolerances.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "dirac/hopping_launch.hpp"
#include "dirac/wilson_even_odd.hpp"
#include "field_test_support.hpp"
#include "fields/spinor_blas.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

// ||a - b|| / ||b||, compared in double.
template <typename A, typename B>
double relative_difference_of(const SpinorField<A>& a, const SpinorField<B>& b) {
  SpinorField<double> d = test::converted<double>(a).clone(Location::Host);
  const SpinorField<double> r = test::converted<double>(b).clone(Location::Host);
  axpy(Complex<double>(-1.0), r, d);
  return std::sqrt(norm2(d) / norm2(r));
}

// M_hat^dag M_hat in (twisted: M_hat^dag and M_hat differ beyond gamma_5 conjugation) at `loc`, with
// the hopping kernel's threads per site forced by LQCD_HOPPING_SPLIT (ignored on the host).
template <typename Real, int LC>
SpinorField<Real> normal_operator_on(const GaugeField<double>& U, const SpinorField<double>& in, Location loc,
                                     double mu, const char* split, const char* tile) {
  const test::ScopedEnv forced_split("LQCD_HOPPING_SPLIT", split);
  const test::ScopedEnv forced_tile("LQCD_HOPPING_T_TILE", tile);
  const GaugeField<Real, LC> Uc = convert_links<Real, LC>(U.clone(loc));
  WilsonParams prm;
  prm.kappa = 0.13;
  prm.mu = mu;
  const WilsonEvenOddOperator<Real, LC> M(Uc, prm);
  SpinorField<Real> x(in.geometry(), loc, Subset::Even), y = x.like(), z = x.like();
  convert_precision(x, in.clone(loc));
  M.apply(y, x);
  M.apply_dagger(z, y);
  if (loc == Location::Device) {
    EXPECT_EQ(hopping_threads_per_site(loc, x.sites()), split[0] == '1' ? 4 : 1);
  }
  return z;
}

template <typename Real, int LC>
void expect_split_equals_unsplit(const GaugeField<double>& U, const SpinorField<double>& in, double split_tolerance,
                                 double host_tolerance) {
  for (double mu : {0.0, 0.07})
    for (const char* tile : {"1", "2"}) {
      const std::string what = std::string(precision_name<Real>()) + "/" + std::to_string(2 * LC) +
                               ", mu = " + std::to_string(mu) + ", tile " + tile;
      const SpinorField<Real> four = normal_operator_on<Real, LC>(U, in, Location::Device, mu, "1", tile);
      const SpinorField<Real> one = normal_operator_on<Real, LC>(U, in, Location::Device, mu, "0", tile);
      const SpinorField<double> host = normal_operator_on<double, 9>(U, in, Location::Host, mu, "0", tile);
      EXPECT_GT(norm2(test::converted<double>(four)), 0.0) << what;
      EXPECT_LT(relative_difference_of(four, one), split_tolerance) << what;
      EXPECT_LT(relative_difference_of(four, host), host_tolerance) << what;
      EXPECT_LT(relative_difference_of(one, host), host_tolerance) << what;
    }
}

TEST(SplitHopping, FourThreadsPerSiteEqualOne) {
  if (!device_available()) GTEST_SKIP() << "no GPU";
  // 6 x 6 x 6 x 4: 432 sites per parity, not a multiple of the 32 sites of a block.
  const Geometry g = Geometry::single_process({6, 6, 6, 4});
  GaugeField<double> U(g, Location::Host);
  set_hot_gauge(U, 41);
  const SpinorField<double> full = to_spinor_field(test::random_spinor(g, 42, 2), g, Location::Host);
  const SpinorField<double> in = full.parity_part(0);
  expect_split_equals_unsplit<double, 9>(U, in, 1e-14, 1e-12);
  expect_split_equals_unsplit<double, 6>(U, in, 1e-14, 1e-12);
  expect_split_equals_unsplit<double, 4>(U, in, 1e-14, 1e-12);
  expect_split_equals_unsplit<float, 9>(U, in, 1e-6, 1e-5);
  expect_split_equals_unsplit<float, 6>(U, in, 1e-6, 1e-5);
  expect_split_equals_unsplit<float, 4>(U, in, 1e-6, 1e-5);
  // Half: each result is stored to 2^-15 of its site's largest component, so a sum in another order
  // may round a component to the neighbouring 16-bit value.
  expect_split_equals_unsplit<Half, 6>(U, in, 2e-4, 1e-3);
  expect_split_equals_unsplit<Half, 4>(U, in, 2e-4, 1e-3);
}

TEST(SplitHopping, ForcedChoiceIsCheckedAndUnsetIsAutomatic) {
  {
    const test::ScopedEnv bad("LQCD_HOPPING_SPLIT", "4");
    EXPECT_NE(test::error_of([] { hopping_split_forced(); }).find("LQCD_HOPPING_SPLIT=4"), std::string::npos);
  }
  unsetenv("LQCD_HOPPING_SPLIT");
  EXPECT_EQ(hopping_split_forced(), -1);
  EXPECT_EQ(hopping_threads_per_site(Location::Host, 16), 1);
  if (device_available()) {
    // A parity of 16^4 (32768 sites) leaves an SM of any current GPU far short of 1024 threads; one of
    // 64^4 (8.4 million) fills every one.
    EXPECT_EQ(hopping_threads_per_site(Location::Device, 32768), 4);
    EXPECT_EQ(hopping_threads_per_site(Location::Device, std::int64_t(8) << 20), 1);
  }
}

}  // namespace
}  // namespace lqcd
