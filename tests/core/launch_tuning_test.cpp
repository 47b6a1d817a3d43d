// The launch tuner's cache file (core/launch_tuning.hpp): what is recorded is read back, other
// processes' choices are kept when a process writes, a malformed line is an error naming the file and
// line, an unwritable file costs only a warning, and the file's place follows the environment.
#include <gtest/gtest.h>

#include <fstream>

#include "core/launch_tuning.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

const LaunchKey kKey{"Some GPU", "lqcd::WilsonHoppingKernel<float, 6>", 80, 524288};
const LaunchKey kOtherKey{"Some GPU", "lqcd::WilsonHoppingKernel<double, 6>", 148, 524288};

TEST(LaunchTuningCache, RecordedChoicesAreReadBackByTheNextProcess) {
  const test::TempDir dir;
  const std::string path = (dir / "sub" / "tuning.tsv").string();  // the directory is created
  {
    LaunchTuningCache cache(path);
    EXPECT_EQ(cache.size(), 0u);
    EXPECT_FALSE(cache.find(kKey));
    cache.record(kKey, {128, 231.5});
    ASSERT_EQ(cache.used().size(), 1u);
    EXPECT_EQ(cache.used()[0].source, "tuned");
  }
  LaunchTuningCache again(path);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_TRUE(again.used().empty());
  const auto choice = again.find(kKey);
  ASSERT_TRUE(choice);
  EXPECT_EQ(choice->block, 128);
  EXPECT_DOUBLE_EQ(choice->microseconds, 231.5);
  ASSERT_EQ(again.used().size(), 1u);
  EXPECT_EQ(again.used()[0].source, "file");
  // Another key of the same kernel (another volume, another register count) is not that choice.
  EXPECT_FALSE(again.find(LaunchKey{kKey.device, kKey.kernel, kKey.registers, 65536}));
  EXPECT_FALSE(again.find(LaunchKey{kKey.device, kKey.kernel, 96, kKey.sites}));
  EXPECT_FALSE(again.find(LaunchKey{"Another GPU", kKey.kernel, kKey.registers, kKey.sites}));
}

TEST(LaunchTuningCache, WritingKeepsWhatAnotherProcessStoredMeanwhile) {
  const test::TempDir dir;
  const std::string path = (dir / "tuning.tsv").string();
  LaunchTuningCache first(path), second(path);  // both opened before either wrote
  first.record(kKey, {96, 10});
  second.record(kOtherKey, {128, 20});
  const auto stored = read_launch_tuning_file(path);
  ASSERT_EQ(stored.size(), 2u);
  EXPECT_EQ(stored.at(kKey).block, 96);
  EXPECT_EQ(stored.at(kOtherKey).block, 128);
}

TEST(LaunchTuningCache, AMalformedLineIsAnErrorNamingTheFileAndLine) {
  const test::TempDir dir;
  const std::string path = (dir / "tuning.tsv").string();
  const std::string good = "GPU\tkernel\t80\t1024\t128\t3.5\n";
  for (const std::string bad : {"GPU\tkernel\t80\t1024\tmany\t3.5", "GPU\tkernel\t80\t1024\t128", "GPU\tkernel\t80\t0\t128\t3",
                                "GPU\tkernel\t80\t1024\t2048\t3", "\tkernel\t80\t1024\t128\t3", "GPU kernel 80 1024 128 3"}) {
    std::ofstream(path) << "# comment\n" << good << bad << "\n";
    const std::string e = test::error_of([&] { LaunchTuningCache cache(path); });
    EXPECT_NE(e.find(path + ":3:"), std::string::npos) << bad << " -> " << e;
    EXPECT_NE(e.find("delete the file"), std::string::npos) << e;
  }
  std::ofstream(path) << good;
  EXPECT_EQ(read_launch_tuning_file(path).size(), 1u);
}

TEST(LaunchTuningCache, AnUnwritableFileKeepsTheChoiceForThisRun) {
  const test::TempDir dir;
  const std::string blocker = (dir / "file").string();
  std::ofstream(blocker) << "not a directory\n";
  LaunchTuningCache cache(blocker + "/tuning.tsv");  // its directory cannot be created
  EXPECT_NO_THROW(cache.record(kKey, {64, 1}));
  const auto choice = cache.find(kKey);
  ASSERT_TRUE(choice);
  EXPECT_EQ(choice->block, 64);
}

TEST(LaunchTuningCache, TheFilesPlaceFollowsTheEnvironment) {
  const test::ScopedEnv home("HOME", "/home/someone");
  {
    const test::ScopedEnv xdg("XDG_CACHE_HOME", "");
    const test::ScopedEnv file("LQCD_TUNE_CACHE", "");
    EXPECT_EQ(launch_tuning_path_from_environment(), "/home/someone/.cache/lqcd/launch_tuning.tsv");
  }
  {
    const test::ScopedEnv xdg("XDG_CACHE_HOME", "/var/cache/me");
    const test::ScopedEnv file("LQCD_TUNE_CACHE", "");
    EXPECT_EQ(launch_tuning_path_from_environment(), "/var/cache/me/lqcd/launch_tuning.tsv");
    const test::ScopedEnv named("LQCD_TUNE_CACHE", "/tmp/x.tsv");
    EXPECT_EQ(launch_tuning_path_from_environment(), "/tmp/x.tsv");
  }
}

TEST(LaunchTuningCache, TypeNamesAreDemangled) {
  EXPECT_EQ(readable_type_name(typeid(LaunchKey).name()), "lqcd::LaunchKey");
}

}  // namespace
}  // namespace lqcd
