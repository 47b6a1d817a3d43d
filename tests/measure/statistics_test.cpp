// The binned jackknife against exact results.
#include <gtest/gtest.h>

#include <cmath>

#include "core/site_random.hpp"
#include "measure/statistics.hpp"

namespace lqcd {
namespace {

TEST(BinnedJackknife, MeanAndErrorOfIndependentData) {
  // For independent data the jackknife error of the mean equals the standard error s / sqrt(n).
  std::vector<double> x;
  SiteRandom rng(4, 0, RngPurpose::Test, 0, 0);
  for (int i = 0; i < 1000; ++i) x.push_back(2.0 + 0.5 * rng.gaussian());
  double mean = 0;
  for (double v : x) mean += v;
  mean /= double(x.size());
  double var = 0;
  for (double v : x) var += (v - mean) * (v - mean);
  const double standard_error = std::sqrt(var / double(x.size() - 1) / double(x.size()));
  const Estimate e = binned_jackknife(x, 1);
  EXPECT_NEAR(e.mean, mean, 1e-12);
  EXPECT_NEAR(e.error, standard_error, 1e-12);
  EXPECT_EQ(e.bins, 1000);
}

TEST(BinnedJackknife, BinningCapturesAutocorrelation) {
  // Each value repeated 10 times: unbinned errors are too small by ~sqrt(10); bins of 10 are exact.
  std::vector<double> x;
  SiteRandom rng(5, 0, RngPurpose::Test, 0, 0);
  for (int i = 0; i < 200; ++i) {
    const double v = rng.gaussian();
    for (int k = 0; k < 10; ++k) x.push_back(v);
  }
  const Estimate naive = binned_jackknife(x, 1), binned = binned_jackknife(x, 10);
  EXPECT_NEAR(binned.error / naive.error, std::sqrt(10.0), 0.2);
  EXPECT_EQ(binned.bins, 200);
  EXPECT_NEAR(binned.mean, naive.mean, 1e-12);
}

TEST(BinnedJackknife, TooFewBinsGiveNoError) {
  const Estimate e = binned_jackknife({1.0, 2.0, 3.0}, 2);
  EXPECT_EQ(e.bins, 1);
  EXPECT_EQ(e.error, 0.0);
  EXPECT_EQ(default_bin_size(10), 1);
  EXPECT_EQ(default_bin_size(2000), 100);
}

}  // namespace
}  // namespace lqcd
