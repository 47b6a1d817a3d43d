// lqcd hmc with stout-smeared fermions ([fermion_smearing], issue 28): bad values are refused in one line
// naming the key; a run states the smearing in its log and reports a reversible trajectory; and the
// smearing changes the fermion action (another trajectory than the run without it).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "cli_support.hpp"

namespace lqcd {
namespace {

using test::read_jsonl;
using test::run_lqcd;

constexpr const char* kInput = R"([lattice]
dims = [4, 4, 4, 4]
[integrator]
tau = 0.5
steps = [4, 2]
[hmc]
seed = 41
thermalization = 0
trajectories = 1
reversibility_check = true
[solver]
tolerance = 1e-14
[[monomial]]
type = "gauge"
level = 1
[[monomial]]
type = "clover"
kappa = 0.12
csw = 1.5
level = 0
)";

TEST(HmcSmearing, BadValuesGiveOneLineNamingTheKey) {
  test::TempDir dir;
  const std::pair<std::string, std::string> cases[] = {
      {"[fermion_smearing]\nrho = -0.1\nsteps = 1\n", "fermion_smearing.rho"},
      {"[fermion_smearing]\nrho = nan\nsteps = 1\n", "fermion_smearing.rho"},
      {"[fermion_smearing]\nsteps = -1\n", "fermion_smearing.steps"},
      {"[fermion_smearing]\nsteps = 4294967297\n", "fermion_smearing.steps"},
      {"[fermion_smearing]\nstep = 2\n", "fermion_smearing.step"},
  };
  for (const auto& [text, key] : cases) {
    test::write_text(dir / "bad.toml", "[output]\nprefix = \"bad/run\"\n" + text);
    const auto r = run_lqcd("hmc bad.toml -q", dir.path());
    EXPECT_NE(r.exit_code, 0) << text;
    EXPECT_EQ(test::program_lines(r.err).size(), 1u) << r.err;
    EXPECT_NE(r.err.find(key), std::string::npos) << "want " << key << " in: " << r.err;
    EXPECT_NE(r.err.find("bad.toml"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "bad/run.jsonl")) << text;
  }
}

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(HmcSmearing, RunStatesTheSmearingAndIsReversible) {
  test::TempDir dir;
  test::write_text(dir / "smeared.toml", std::string(kInput) +
                                             "[fermion_smearing]\nsteps = 2\nrho = 0.1\n[output]\nprefix = \"smeared\"\n");
  test::write_text(dir / "thin.toml", std::string(kInput) + "[output]\nprefix = \"thin\"\n");
  for (const char* name : {"smeared", "thin"}) {
    const auto r = run_lqcd(std::string("hmc ") + name + ".toml -q", dir.path());
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  const std::string log = read_file(dir / "smeared.log");
  EXPECT_NE(log.find("on 2 stout steps (rho 0.1)"), std::string::npos) << log;
  EXPECT_EQ(read_file(dir / "thin.log").find("stout"), std::string::npos);
  const auto smeared = read_jsonl(dir / "smeared.jsonl"), thin = read_jsonl(dir / "thin.jsonl");
  ASSERT_EQ(smeared.size(), 1u);
  ASSERT_EQ(thin.size(), 1u);
  EXPECT_LT(std::abs(smeared[0]["reversibility_dH"].get<double>()), 1e-7);
  EXPECT_LT(smeared[0]["reversibility_max_link_diff"].get<double>(), 1e-12);
  EXPECT_LT(std::abs(smeared[0]["dH"].get<double>()), 1.0);
  EXPECT_GT(std::abs(smeared[0]["dH"].get<double>() - thin[0]["dH"].get<double>()), 1e-9)
      << "the smeared fermion action is another action";
}

}  // namespace
}  // namespace lqcd
