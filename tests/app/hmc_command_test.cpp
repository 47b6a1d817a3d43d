// lqcd hmc as a user runs it: the built-in default input, the JSON-lines contract, exact resume from a
// checkpoint, the reversibility check, and one-line errors for bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include <fmt/format.h>

#include "cli_support.hpp"

namespace lqcd {
namespace {

using test::read_jsonl;
using test::run_lqcd;

// A small Nf = 2 run on 4^4 (fast on two cores).
constexpr const char* kSmallInput = R"([lattice]
dims = [4, 4, 4, 4]
[gauge]
beta = 5.6
[integrator]
type = "omelyan2"
tau = 0.5
steps = [4, 2]
[hmc]
seed = 77
thermalization = 2
trajectories = 4
[output]
prefix = "out/run"
checkpoint_every = 3
[[monomial]]
type = "gauge"
level = 1
[[monomial]]
type = "twisted_mass"
kappa = 0.12
mu = 0.05
level = 0
)";

TEST(HmcCommand, WritesOneRecordPerTrajectoryWithTheContractKeys) {
  test::TempDir dir;
  test::write_text(dir / "in.toml", kSmallInput);
  const auto r = run_lqcd("hmc in.toml --quiet", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto recs = read_jsonl(dir / "out/run.jsonl");
  ASSERT_EQ(recs.size(), 6u);
  for (std::size_t i = 0; i < recs.size(); ++i) {
    const auto& j = recs[i];
    EXPECT_EQ(j["trajectory"].get<int>(), int(i) + 1);
    for (const char* key : {"dH", "accepted", "acceptance_probability", "plaquette", "seconds"})
      EXPECT_TRUE(j.contains(key)) << key;
    const double dh = j["dH"].get<double>(), p = j["acceptance_probability"].get<double>();
    EXPECT_NEAR(p, std::min(1.0, std::exp(-dh)), 1e-12);
    EXPECT_GT(j["plaquette"].get<double>(), 0.3);
    EXPECT_LT(j["plaquette"].get<double>(), 1.0);
    // The time split: solves and forces (without their solves) are disjoint parts of the trajectory.
    const double solver = j["solver_seconds"].get<double>(), force = j["force_seconds"].get<double>();
    EXPECT_GT(solver, 0.0);
    EXPECT_GT(force, 0.0);
    EXPECT_LE(solver + force, j["seconds"].get<double>());
    // ... and the solves split by monomial: the fermion monomials that solved, summing to solver_seconds.
    double by_monomial = 0;
    for (const auto& [name, s] : j["solver_seconds_by_monomial"].items()) {
      EXPECT_TRUE(j["solver_iterations"].contains(name)) << name;
      by_monomial += s.get<double>();
    }
    EXPECT_EQ(j["solver_seconds_by_monomial"].size(), j["solver_iterations"].size());
    EXPECT_NEAR(by_monomial, solver, 1e-9 * solver);
    // The GPU's energy where NVML reads it (a GPU run), else null and the log says why (a CPU run).
    ASSERT_TRUE(j.contains("energy_joules"));
    if (!j["energy_joules"].is_null()) {
      // NVML advances the counter in steps of tens of milliseconds: a trajectory of this tiny lattice
      // may read 0 J, never less (a counter read backwards or garbage would).
      EXPECT_GE(j["energy_joules"].get<double>(), 0.0);
      EXPECT_LT(j["energy_joules"].get<double>(), 1e3 * (j["seconds"].get<double>() + 0.1));  // < 1 kW
    } else {
      EXPECT_NE(test::read_text(dir / "out/run.log").find("# energy per trajectory: not measured ("), std::string::npos);
    }
    if (i < 2) {
      EXPECT_TRUE(j["accepted"].get<bool>()) << "thermalization trajectories are accepted";
    }
  }
  const std::string log = test::read_text(dir / "out/run.log");
  EXPECT_NE(log.find("acceptance"), std::string::npos);
  EXPECT_NE(log.find("twisted mass"), std::string::npos);
}

TEST(HmcCommand, ResumeContinuesTheChainExactly) {
  test::TempDir dir;
  test::write_text(dir / "full.toml", kSmallInput);
  std::string stopped = kSmallInput;
  stopped.replace(stopped.find("trajectories = 4"), 16, "trajectories = 1");  // stops after the checkpoint at 3
  test::write_text(dir / "stopped.toml", stopped);
  ASSERT_EQ(run_lqcd("hmc full.toml -q", dir.path()).exit_code, 0);
  const auto full = read_jsonl(dir / "out/run.jsonl");
  std::filesystem::rename(dir / "out", dir / "full-out");
  ASSERT_EQ(run_lqcd("hmc stopped.toml -q", dir.path()).exit_code, 0);
  std::ofstream(dir / "out/run.jsonl", std::ios::app) << "{\"trajectory\": 4, \"dH\": 0.0}\n";  // written after it
  const auto resumed_run = run_lqcd("hmc full.toml --resume -q", dir.path());
  ASSERT_EQ(resumed_run.exit_code, 0) << resumed_run.err;
  const auto resumed = read_jsonl(dir / "out/run.jsonl");
  ASSERT_EQ(resumed.size(), full.size());
  for (std::size_t i = 0; i < full.size(); ++i) {
    EXPECT_EQ(resumed[i]["trajectory"], full[i]["trajectory"]);
    EXPECT_EQ(resumed[i]["dH"].get<double>(), full[i]["dH"].get<double>()) << "trajectory " << i + 1;
    EXPECT_EQ(resumed[i]["plaquette"].get<double>(), full[i]["plaquette"].get<double>()) << "trajectory " << i + 1;
    EXPECT_EQ(resumed[i]["accepted"], full[i]["accepted"]);
  }
  // Other physics: refused, unless forced.
  std::string other = kSmallInput;
  other.replace(other.find("mu = 0.05"), 9, "mu = 0.06");
  test::write_text(dir / "other.toml", other);
  const auto refused = run_lqcd("hmc other.toml --resume -q", dir.path());
  EXPECT_NE(refused.exit_code, 0);
  EXPECT_NE(refused.err.find("lqcd.physics"), std::string::npos) << refused.err;
  EXPECT_EQ(run_lqcd("hmc other.toml --resume --force -q", dir.path()).exit_code, 0);
}

TEST(HmcCommand, ReversibilityCheckIsReported) {
  test::TempDir dir;
  std::string input = kSmallInput;
  input.replace(input.find("trajectories = 4"), 16, "trajectories = 1");
  input.replace(input.find("thermalization = 2"), 18, "thermalization = 0\nreversibility_check = true");
  input += "[solver]\ntolerance = 1e-14\n";
  test::write_text(dir / "in.toml", input);
  const auto r = run_lqcd("hmc in.toml -q", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto recs = read_jsonl(dir / "out/run.jsonl");
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_LT(std::abs(recs[0]["reversibility_dH"].get<double>()), 1e-7);
  EXPECT_LT(recs[0]["reversibility_max_link_diff"].get<double>(), 1e-12);
}

TEST(HmcCommand, BadInputsGiveOneLineErrors) {
  test::TempDir dir;
  const std::pair<std::string, std::string> cases[] = {
      {"[[monomial]]\ntype = \"gauge\"\n[[monomial]]\ntype = \"staggered\"\n", "monomial.type"},
      {"[[monomial]]\ntype = \"gauge\"\n[[monomial]]\ntype = \"rational\"\nlambda_min = 2.0\nlambda_max = 1.0\n",
       "monomial.lambda_max"},
      {"[[monomial]]\ntype = \"gauge\"\n[[monomial]]\ntype = \"rational\"\nmu = 0.1\n", "monomial.mu"},
      {"[[monomial]]\ntype = \"gauge\"\n[[monomial]]\ntype = \"hasenbusch_ratio\"\n", "monomial.kappa2"},
      {"[[monomial]]\ntype = \"gauge\"\nlevel = 3\n", "monomial.level"},
      {"[[monomial]]\ntype = \"wilson\"\n", "type = \"gauge\""},
      {"[[monomial]]\ntype = \"gauge\"\n[[monomial]]\ntype = \"wilson\"\nkappa = -0.1\n", "monomial.kappa"},
      {"[[monomial]]\ntype = \"gauge\"\ncolour = 3\n", "monomial.colour"},
      {"[integrator]\ntype = \"euler\"\n", "integrator.type"},
      {"[integrator]\nsteps = [4, 0]\n", "integrator.steps"},
      {"[hmc]\nstart = \"warm\"\n", "hmc.start"},
      {"monomial = 3\n", "monomial"},
      {"[gauge]\nbeta = -1.0\n", "gauge.beta"},
      {"[[monomial]]\ntype = \"gauge\"\nlevel = 4294967296\n", "monomial.level"},
      {"[[monomial]]\ntype = \"gauge\"\n[[monomial]]\ntype = \"rational\"\ndegree = 4294967308\n", "monomial.degree"},
  };
  for (const auto& [text, key] : cases) {
    test::write_text(dir / "bad.toml", "[output]\nprefix = \"bad/run\"\n" + text);
    const auto r = run_lqcd("hmc bad.toml -q", dir.path());
    EXPECT_NE(r.exit_code, 0) << text;
    EXPECT_EQ(test::program_lines(r.err).size(), 1u) << r.err;
    EXPECT_NE(r.err.find(key), std::string::npos) << "want " << key << " in: " << r.err;
    EXPECT_NE(r.err.find("bad.toml"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("bad.toml"), r.err.rfind("bad.toml")) << "the file is named once: " << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "bad/run.jsonl")) << text;
  }
}

// Unusual but valid (issue 26: refuse only what is wrong): a Hasenbusch ratio whose denominator is the
// numerator's quark is det M / det M = 1, an action that is constant and a force that vanishes, so the
// trajectory is the pure-gauge one (both accepted: thermalization); one whose denominator is lighter (kappa2 > kappa) is another well-defined
// weight and runs.
TEST(HmcCommand, UnusualHasenbuschRatiosRun) {
  test::TempDir dir;
  const std::string base = "[lattice]\ndims = [4, 4, 4, 4]\n[integrator]\ntau = 0.5\nsteps = [4]\n[hmc]\nseed = 5\n"
                           "thermalization = 1\ntrajectories = 0\n[solver]\ntolerance = 1e-12\n"
                           "[[monomial]]\ntype = \"gauge\"\nlevel = 0\n";
  const auto plaquette = [&](const std::string& name, const std::string& extra) {
    test::write_text(dir / (name + ".toml"), base + extra + "[output]\nprefix = \"" + name + "\"\n");
    const auto r = run_lqcd("hmc " + name + ".toml -q", dir.path());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const auto recs = read_jsonl(dir / (name + ".jsonl"));
    return recs.size() == 1 ? recs[0]["plaquette"].get<double>() : std::nan("");
  };
  const double gauge_only = plaquette("gauge", "");
  const double unit_ratio =
      plaquette("same", "[[monomial]]\ntype = \"hasenbusch_ratio\"\nkappa = 0.12\nkappa2 = 0.12\nlevel = 0\n");
  EXPECT_NEAR(unit_ratio, gauge_only, 1e-9) << "det M / det M = 1 changes nothing";
  const double lighter =
      plaquette("lighter", "[[monomial]]\ntype = \"hasenbusch_ratio\"\nkappa = 0.12\nkappa2 = 0.13\nlevel = 0\n");
  EXPECT_TRUE(std::isfinite(lighter));
  EXPECT_GT(std::abs(lighter - gauge_only), 1e-9) << "a lighter denominator is another weight";
}

TEST(HmcCommand, PrintConfigListsEveryKeyAndReadsBack) {
  test::TempDir dir;
  const auto r = run_lqcd("hmc --print-config", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* key : {"dims", "beta", "tau", "steps", "trajectories", "seed", "reversibility_check", "[[monomial]]",
                          "kappa", "level", "checkpoint_every"})
    EXPECT_NE(r.out.find(key), std::string::npos) << key;
  test::write_text(dir / "printed.toml", r.out);
  const auto again = run_lqcd("hmc printed.toml --print-config", dir.path());
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.out, r.out);
}

}  // namespace
}  // namespace lqcd
