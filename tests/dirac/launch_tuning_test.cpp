// The launch tuner on the device (core/exec_cuda.cuh): the hopping term tuned, read back from the cache
// file, or forced to another block size gives the untuned result bit for bit; the first launch tunes
// and records the choice, a later process takes it from the file. Device only.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "core/launch_tuning.hpp"
#include "dirac/wilson_even_odd.hpp"
#include "field_test_support.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

// The hopping term H_eo on a rough 6^3x8 field, as a host lexicographic field (odd sites zero).
LexicographicSpinor hop_even(const GaugeField<double>& U, const SpinorField<double>& in_odd) {
  const WilsonEvenOddOperator<double> W(U, WilsonParams{});
  SpinorField<double> out(U.geometry(), U.location(), Subset::Even);
  W.hop(out, in_odd, nullptr, 1.0, 0.0, 0);
  SpinorField<double> full =
      to_spinor_field(LexicographicSpinor(std::size_t(U.geometry().volume())), U.geometry(), U.location());
  full.set_parity_part(0, out);
  return to_lexicographic(full);
}

// Restores the environment's tuning (LQCD_TUNE, the cache file) when the test ends.
struct RestoreTuning {
  ~RestoreTuning() {
    const char* v = std::getenv("LQCD_TUNE");
    configure_launch_tuning(!(v && std::string(v) == "0"), launch_tuning_path_from_environment());
  }
};

TEST(LaunchTuningDevice, TunedCachedAndForcedBlocksGiveTheUntunedResult) {
  if (!device_available()) GTEST_SKIP() << "no GPU";
  const RestoreTuning restore;
  const Geometry g = Geometry::single_process({6, 6, 6, 8});
  const GaugeField<double> U = test::rough_gauge(g, Location::Device);
  const SpinorField<double> in = to_spinor_field(test::random_spinor(g, 5), g, Location::Device).parity_part(1);
  std::vector<LexicographicSpinor> results;
  auto equal = [](const LexicographicSpinor& a, const LexicographicSpinor& b) {
    for (std::size_t i = 0; i < a.size(); ++i)
      for (int s = 0; s < 4; ++s)
        for (int c = 0; c < 3; ++c)
          if (a[i].s[s].c[c].re != b[i].s[s].c[c].re || a[i].s[s].c[c].im != b[i].s[s].c[c].im) return false;
    return true;
  };

  configure_launch_tuning(false, "");
  const LexicographicSpinor untuned = hop_even(U, in);

  const test::TempDir dir;
  const std::string path = (dir / "tuning.tsv").string();
  configure_launch_tuning(true, path);
  EXPECT_TRUE(equal(hop_even(U, in), untuned));
  std::vector<LaunchRecord> used = launch_tuning()->used();
  ASSERT_EQ(used.size(), 1u);
  EXPECT_EQ(used[0].key.kernel, "lqcd::WilsonHoppingKernel<double, 9>");
  EXPECT_EQ(used[0].key.sites, g.half_volume());
  EXPECT_GT(used[0].key.registers, 0);
  EXPECT_EQ(used[0].source, "tuned");
  EXPECT_EQ(used[0].choice.block % 32, 0);
  EXPECT_GE(used[0].choice.block, 32);
  EXPECT_LE(used[0].choice.block, 256);
  EXPECT_GT(used[0].choice.microseconds, 0);
  const auto stored = read_launch_tuning_file(path);
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_EQ(stored.begin()->first, used[0].key);

  // The next process reads the choice instead of tuning.
  configure_launch_tuning(true, path);
  EXPECT_TRUE(equal(hop_even(U, in), untuned));
  used = launch_tuning()->used();
  ASSERT_EQ(used.size(), 1u);
  EXPECT_EQ(used[0].source, "file");

  // Every block size the tuner may choose gives the same bits.
  for (int block : {32, 96, 160}) {
    LaunchKey key = used[0].key;
    { LaunchTuningCache forced(path); forced.record(key, {block, 1.0}); }
    configure_launch_tuning(true, path);
    EXPECT_TRUE(equal(hop_even(U, in), untuned)) << block;
    ASSERT_EQ(launch_tuning()->used().size(), 1u);
    EXPECT_EQ(launch_tuning()->used()[0].choice.block, block);
  }
}

}  // namespace
}  // namespace lqcd
