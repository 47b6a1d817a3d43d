// lqcd bench's energy fields on the CPU: present, null, and a note that says why (the GPU figures
// come from NVML's counter; see core/energy_meter and docs/performance.md).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"

namespace lqcd {
namespace {

using test::run_lqcd;

void expect_null_energy(const nlohmann::json& d, const std::string& prefix, bool with_gflops) {
  std::vector<std::string> keys = {"energy_joules", "average_watts", "energy_seconds", "energy_calls"};
  if (with_gflops) keys.push_back("gflops_per_watt");
  for (const std::string& key : keys) {
    ASSERT_TRUE(d.contains(prefix + key)) << prefix + key;
    EXPECT_TRUE(d[prefix + key].is_null()) << prefix + key;
  }
}

TEST(BenchEnergy, ACpuRunHasNullEnergyFieldsAndSaysWhy) {
  test::TempDir dir;
  const auto r = run_lqcd("bench dslash --device cpu --dims 4,4,4,8 --repetitions 2 --json", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto d = nlohmann::json::parse(r.out);
  EXPECT_GT(d["GFLOPS"].get<double>(), 0);
  expect_null_energy(d, "", true);
  ASSERT_TRUE(d["energy_note"].is_string());
  EXPECT_EQ(d["energy_note"].get<std::string>().rfind("not measured (", 0), 0u) << d["energy_note"];

  const auto m = run_lqcd("bench matpc --device cpu --dims 4,4,4,8 --repetitions 2 --json", dir.path());
  ASSERT_EQ(m.exit_code, 0) << m.err;
  const auto dm = nlohmann::json::parse(m.out);
  expect_null_energy(dm, "matpc_", true);
  expect_null_energy(dm, "mdagm_", true);

  const auto s = run_lqcd("bench solver --device cpu --dims 4,4,4,4 --kappa 0.1 --repetitions 1 --json", dir.path());
  ASSERT_EQ(s.exit_code, 0) << s.err;
  expect_null_energy(nlohmann::json::parse(s.out), "", true);

  const auto h = run_lqcd("bench heatbath --device cpu --dims 4,4,4,4 --repetitions 2 --json", dir.path());
  ASSERT_EQ(h.exit_code, 0) << h.err;
  const auto dh = nlohmann::json::parse(h.out);
  expect_null_energy(dh, "heatbath_", false);
  expect_null_energy(dh, "overrelaxation_", false);

  // The human-readable output says it in one line.
  const auto t = run_lqcd("bench dslash --device cpu --dims 4,4,4,8 --repetitions 2", dir.path());
  ASSERT_EQ(t.exit_code, 0) << t.err;
  EXPECT_NE(t.out.find("# energy: not measured ("), std::string::npos) << t.out;
}

}  // namespace
}  // namespace lqcd
