// lqcd heatbath as a user runs it: inputs, errors, outputs, checkpoints and exact resumption.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "app/heatbath_command.hpp"
#include "cli_support.hpp"

namespace lqcd {
namespace {

using test::run_lqcd;

const char* kSmallInput = R"([lattice]
dims = [4, 4, 4, 4]
[gauge]
beta = 5.7
[heatbath]
thermalization = 2
sweeps = 4
overrelaxation = 1
seed = 99
[output]
prefix = "out/run"
)";

using test::read_jsonl;

TEST(HeatbathCommand, PrintConfigShowsEveryKeyAndReadsBack) {
  test::TempDir dir;
  const auto r = run_lqcd("heatbath --print-config", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const app::KeySpec& k : app::heatbath_schema()) {
    const std::string key = k.path.substr(k.path.find('.') + 1);
    EXPECT_NE(r.out.find("\n" + key + " = "), std::string::npos) << k.path;
  }
  // The printed configuration is a valid input that reproduces itself.
  test::write_text(dir / "printed.toml", r.out);
  const auto again = run_lqcd("heatbath printed.toml --print-config", dir.path());
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.out, r.out);
}

TEST(HeatbathCommand, BadInputsGiveOneLineErrorsNamingFileAndKey) {
  test::TempDir dir;
  const std::pair<std::string, std::string> cases[] = {
      {"[heatbath]\nsweep = 3\n", "heatbath.sweep"},                       // unknown key (typo)
      {"[heatbath]\nsweeps = \"ten\"\n", "heatbath.sweeps"},               // wrong type
      {"[lattice]\ndims = [4, 4, 5, 4]\n", "lattice.dims"},                // odd extent
      {"[lattice]\ndims = [4, 4, 4]\n", "lattice.dims"},                   // three extents
      {"[gauge]\nbeta = -1.0\n", "gauge.beta"},                            // unphysical
      {"[gauge]\naction = \"wilsn\"\n", "gauge.action"},                   // unknown action
      {"[gauge]\naction = \"iwasaki\"\n[lattice]\ndims = [6, 6, 6, 6]\n", "lattice.dims"},  // rectangle subsets
      {"[heatbath]\nstart = \"warm\"\n", "heatbath.start"},
      {"[output]\nformat = \"hdf5\"\n", "output.format"},
      {"[output]\nprecision = 16\n", "output.precision"},
      {"[heatbath\nsweeps = 3\n", "bad.toml:1"},                           // syntax error: file:line
      {"[mystery]\nx = 1\n", "mystery"},                                   // unknown section
  };
  for (const auto& [text, key] : cases) {
    test::write_text(dir / "bad.toml", text);
    const auto r = run_lqcd("heatbath bad.toml", dir.path());
    EXPECT_NE(r.exit_code, 0) << text;
    EXPECT_EQ(test::program_lines(r.err).size(), 1u) << r.err;
    EXPECT_NE(r.err.find("bad.toml"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(key), std::string::npos) << "expected \"" << key << "\" in: " << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "lqcd-heatbath.jsonl")) << "nothing is written for a bad input";
  }
  const auto missing = run_lqcd("heatbath no-such-file.toml", dir.path());
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_NE(missing.err.find("no-such-file.toml"), std::string::npos);
}

TEST(HeatbathCommand, WritesLogJsonLinesAndConfigurations) {
  test::TempDir dir;
  test::write_text(dir / "in.toml", std::string(kSmallInput) + "format = \"nersc\"\nsave_every = 2\n");
  const auto r = run_lqcd("heatbath in.toml", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto records = read_jsonl(dir / "out/run.jsonl");
  ASSERT_EQ(records.size(), 6u);
  for (std::size_t i = 0; i < records.size(); ++i) {
    EXPECT_EQ(records[i]["sweep"].get<int>(), int(i) + 1);
    const double p = records[i]["plaquette"].get<double>();
    EXPECT_GT(p, 0.3);
    EXPECT_LT(p, 0.7);
  }
  EXPECT_NE(test::read_text(dir / "out/run.log").find("average plaquette"), std::string::npos);
  // Saved after thermalization at sweeps 4 and 6, readable with a verified header plaquette.
  EXPECT_FALSE(std::filesystem::exists(dir / "out/run.000002.nersc"));
  for (const char* f : {"out/run.000004.nersc", "out/run.000006.nersc"}) {
    const auto m = run_lqcd(std::string("measure --json ") + f, dir.path());
    ASSERT_EQ(m.exit_code, 0) << m.err;
    const auto j = nlohmann::json::parse(m.out);
    EXPECT_EQ(j["format"], "nersc");
    EXPECT_EQ(j["checksum_ok"], true);
  }
  const auto last = nlohmann::json::parse(run_lqcd("measure --json out/run.000006.nersc", dir.path()).out);
  EXPECT_NEAR(last["plaquette"].get<double>(), records.back()["plaquette"].get<double>(), 1e-14);
}

TEST(HeatbathCommand, ResumeContinuesTheChainExactly) {
  test::TempDir dir;
  const std::string base = std::string(kSmallInput) + "checkpoint_every = 3\n";
  test::write_text(dir / "full.toml", base);
  // The same run stopped after 3 of its 6 sweeps (as if killed after the checkpoint) ...
  std::string stopped = base;
  stopped.replace(stopped.find("sweeps = 4"), 10, "sweeps = 1");
  test::write_text(dir / "stopped.toml", stopped);
  ASSERT_EQ(run_lqcd("heatbath full.toml", dir.path()).exit_code, 0);
  const auto full = read_jsonl(dir / "out/run.jsonl");
  std::filesystem::rename(dir / "out", dir / "full-out");

  ASSERT_EQ(run_lqcd("heatbath stopped.toml", dir.path()).exit_code, 0);
  // ... with a stray record written after the checkpoint, which resuming must drop:
  std::ofstream(dir / "out/run.jsonl", std::ios::app) << "{\"sweep\": 4, \"plaquette\": 0.0}\n";
  const auto resumed_run = run_lqcd("heatbath full.toml --resume", dir.path());
  ASSERT_EQ(resumed_run.exit_code, 0) << resumed_run.err;
  const auto resumed = read_jsonl(dir / "out/run.jsonl");
  ASSERT_EQ(resumed.size(), full.size());
  for (std::size_t i = 0; i < full.size(); ++i) {
    EXPECT_EQ(resumed[i]["sweep"], full[i]["sweep"]);
    EXPECT_EQ(resumed[i]["plaquette"].get<double>(), full[i]["plaquette"].get<double>()) << "sweep " << i + 1;
  }
  // Resuming with other physics is refused.
  std::string other = base;
  other.replace(other.find("seed = 99"), 9, "seed = 98");
  test::write_text(dir / "other.toml", other);
  const auto refused = run_lqcd("heatbath other.toml --resume", dir.path());
  EXPECT_NE(refused.exit_code, 0);
  EXPECT_NE(refused.err.find("lqcd.seed"), std::string::npos) << refused.err;
}

TEST(Cli, VersionAndHelp) {
  test::TempDir dir;
  const auto v = run_lqcd("--version", dir.path());
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_NE(v.out.find("lqcd " LQCD_VERSION), std::string::npos);
  for (const char* sub : {"heatbath", "hmc", "measure", "convert", "propagator", "spectrum", "bench"}) {
    const auto h = run_lqcd(std::string(sub) + " --help", dir.path());
    EXPECT_EQ(h.exit_code, 0) << sub;
    EXPECT_NE(h.out.find("Usage"), std::string::npos) << sub;
  }
  EXPECT_NE(run_lqcd("", dir.path()).exit_code, 0);
  EXPECT_NE(run_lqcd("frobnicate", dir.path()).exit_code, 0);
}

}  // namespace
}  // namespace lqcd
