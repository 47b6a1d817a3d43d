// lqcd flow and lqcd smear (issue 29); lqcd flow on the MILC beta = 6.0 configuration: the JSON contract, E at t = 0 from the
// plaquette the README gives (E_plaq = 36 (1 - P) for P = <Re tr U_p>/3), E falling along the flow, the
// human output, and one-line errors for bad options and files.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "io/hdf5_flow.hpp"
#include "io/hdf5_support.hpp"

namespace lqcd {
namespace {

using test::run_lqcd;

// The h5 records (io/hdf5_flow.hpp) equal the JSON-lines records: the same count, and per record the
// rows (t, steps, E_clover, Q, and Q_improved when there) and t0.
void expect_hdf5_equals_jsonl(const io::FlowHistoryFile& h5, const std::vector<nlohmann::json>& jsonl) {
  ASSERT_EQ(h5.records.size(), jsonl.size());
  for (std::size_t k = 0; k < jsonl.size(); ++k) {
    SCOPED_TRACE(k);
    const io::FlowHistoryRecord& r = h5.records[k];
    const nlohmann::json& hist = jsonl[k]["history"];
    ASSERT_EQ(r.rows.size(), hist.size());
    const bool improved = hist[0].contains("Q_improved");
    ASSERT_EQ(r.charge_improved.size(), improved ? hist.size() : 0u);
    for (std::size_t i = 0; i < hist.size(); ++i) {
      EXPECT_EQ(r.rows[i][0], hist[i]["t"].get<double>());
      EXPECT_EQ(r.rows[i][1], hist[i]["steps"].get<double>());
      EXPECT_EQ(r.rows[i][3], hist[i]["E_clover"].get<double>());
      EXPECT_EQ(r.rows[i][6], hist[i]["Q"].get<double>());
      if (improved) {
        EXPECT_EQ(r.charge_improved[i], hist[i]["Q_improved"].get<double>());
      }
    }
    if (jsonl[k]["t0"].is_null()) {
      EXPECT_TRUE(std::isnan(r.t0));
    } else {
      EXPECT_EQ(r.t0, jsonl[k]["t0"].get<double>());
    }
  }
}

TEST(FlowCommand, MilcConfigurationFlowsFromItsKnownPlaquette) {
  test::TempDir dir;
  const std::string file = test::testdata("milc_l8888_b6.0.milc").string();
  const auto r = run_lqcd("flow --json --device cpu --epsilon 0.02 --t-max 0.6 --every 5 '" + file + "'", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  for (const char* key : {"file", "epsilon", "units", "t0", "w0", "history"}) EXPECT_TRUE(j.contains(key)) << key;
  const auto& h = j["history"];
  ASSERT_EQ(h.size(), 7u) << "t = 0, 0.1, ..., 0.6";
  // ../shared/testdata/README.md: P = 0.593560240433 (float32 storage).
  EXPECT_NEAR(h[0]["E_plaquette"].get<double>(), 36 * (1 - 0.593560240433), 36 * 1e-6);
  EXPECT_EQ(h[0]["t"].get<double>(), 0.0);
  EXPECT_NEAR(h[6]["t"].get<double>(), 0.6, 1e-12);
  for (std::size_t k = 1; k < h.size(); ++k) {
    EXPECT_LT(h[k]["E_plaquette"].get<double>(), h[k - 1]["E_plaquette"].get<double>()) << k;
    EXPECT_LT(h[k]["E_clover"].get<double>(), h[k - 1]["E_clover"].get<double>()) << k;
    const double t = h[k]["t"].get<double>();
    EXPECT_NEAR(h[k]["t2E_clover"].get<double>(), t * t * h[k]["E_clover"].get<double>(), 1e-12);
  }
  EXPECT_TRUE(j["t0"].is_null()) << "t^2 E stays far below 0.3 by t = 0.6";
  const auto human = run_lqcd("flow --device cpu --epsilon 0.05 --t-max 0.1 '" + file + "'", dir.path());
  ASSERT_EQ(human.exit_code, 0) << human.err;
  EXPECT_NE(human.out.find("t0/a^2 = not reached"), std::string::npos) << human.out;
  EXPECT_NE(human.out.find("E_clover"), std::string::npos) << human.out;
}

// Progress (issue 31): over several configurations, one count per configuration on stderr (with
// LQCD_PROGRESS=1 outside a terminal); none with --json.
TEST(FlowCommand, ReportsProgressOverConfigurationsUnlessJson) {
  test::TempDir dir;
  const std::string args =
      fmt::format("--device cpu --epsilon 0.05 --t-max 0.1 '{0}' '{0}'", test::testdata("milc_l8888_b6.0.milc").string());
  const auto r = run_lqcd("flow " + args, dir.path(), "LQCD_PROGRESS=1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("[flow: configurations] 1/2"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("[flow: configurations] 2/2"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("[flow:"), std::string::npos) << "progress stays off stdout";
  const auto j = run_lqcd("flow --json " + args, dir.path(), "LQCD_PROGRESS=1");
  ASSERT_EQ(j.exit_code, 0) << j.err;
  EXPECT_EQ(j.err.find("[flow:"), std::string::npos) << j.err;
}

TEST(FlowCommand, BadOptionsAndFilesGiveOneLineErrors) {
  test::TempDir dir;
  const std::string file = test::testdata("milc_l8888_b6.0.milc").string();
  for (const auto& [args, expect] : {std::pair<std::string, std::string>{"--epsilon 0 '" + file + "'", "--epsilon"},
                                     {"--epsilon -0.01 '" + file + "'", "--epsilon"},
                                     {"--t-max -1 '" + file + "'", "--t-max"},
                                     {"--every 0 '" + file + "'", "--every"},
                                     {"no-such-file.ildg", "no-such-file.ildg"}}) {
    SCOPED_TRACE(args);
    const auto r = run_lqcd("flow --device cpu " + args, dir.path());
    EXPECT_NE(r.exit_code, 0);
    const std::string line = test::error_line(r.err);
    EXPECT_NE(line.find(expect), std::string::npos) << r.err;
    EXPECT_EQ(test::program_lines(r.err).size(), 1u) << r.err;
  }
}

// lqcd heatbath with [flow]: one record per saved configuration after thermalization in
// PREFIX.flow.jsonl, its history the same as lqcd flow's on the saved (64-bit) file.
TEST(FlowCommand, HeatbathFlowsItsSavedConfigurations) {
  test::TempDir dir;
  test::write_text(dir.path() / "in.toml", "[lattice]\ndims = [4, 4, 4, 8]\n[heatbath]\nthermalization = 5\n"
                                           "sweeps = 6\n[output]\nprefix = \"q\"\nsave_every = 2\n[flow]\n"
                                           "every = 1\nt_max = 0.3\nepsilon = 0.05\nmeasure_every = 2\n");
  const auto r = run_lqcd("heatbath in.toml --device cpu --quiet", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<nlohmann::json> flows = test::read_jsonl(dir.path() / "q.flow.jsonl");
  ASSERT_EQ(flows.size(), 3u);
  for (std::size_t k = 0; k < 3; ++k) EXPECT_EQ(flows[k]["sweep"].get<long>(), long(7 + 2 * k));
  const auto f = run_lqcd("flow --json --device cpu --epsilon 0.05 --t-max 0.3 --every 2 q.000011.ildg", dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const nlohmann::json j = nlohmann::json::parse(f.out);
  ASSERT_EQ(j["history"].size(), flows[2]["history"].size());
  for (std::size_t k = 0; k < j["history"].size(); ++k) {
    EXPECT_NEAR(j["history"][k]["E_clover"].get<double>(), flows[2]["history"][k]["E_clover"].get<double>(), 1e-12);
    EXPECT_NEAR(j["history"][k]["Q"].get<double>(), flows[2]["history"][k]["Q"].get<double>(), 1e-12);
  }
  test::write_text(dir.path() / "bad.toml", "[flow]\nepsilon = -1\n");
  const auto refused = run_lqcd("heatbath bad.toml --device cpu --quiet", dir.path());
  EXPECT_NE(refused.exit_code, 0);
  EXPECT_NE(test::error_line(refused.err).find("flow.epsilon"), std::string::npos) << refused.err;
}

// openQCD's open boundaries (issue 50): a heatbath run on an open lattice saves openQCD files and flows them
// with openQCD's flow in the run; lqcd flow finds the saved file open by its zero links (--boundary auto),
// gives the same E(x0), q(x0) and scalars as the run's record, tags the JSON "open", and refuses the flows
// it does not define there, and --boundary periodic on it.
TEST(FlowCommand, OpenBoundaryConfigurationIsFlowedAsOpenQcdDoes) {
  test::TempDir dir;
  test::write_text(dir.path() / "in.toml", "[lattice]\ndims = [4, 4, 4, 8]\n[gauge]\nboundary = \"open\"\n"
                                           "[heatbath]\nthermalization = 4\nsweeps = 2\n[output]\nprefix = \"q\"\n"
                                           "format = \"openqcd\"\nsave_every = 2\n[flow]\nevery = 1\nt_max = 0.2\n"
                                           "epsilon = 0.05\nmeasure_every = 2\nhdf5 = true\n");
  const auto r = run_lqcd("heatbath in.toml --device cpu --quiet", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<nlohmann::json> flows = test::read_jsonl(dir.path() / "q.flow.jsonl");
  ASSERT_EQ(flows.size(), 1u);
  const io::FlowHistoryFile run_h5 = io::read_flow_hdf5(dir.path() / "q.flow.h5");
  ASSERT_EQ(flows[0]["boundary"], "open");
  const std::string file = flows[0]["file"].get<std::string>();
  const auto f =
      run_lqcd("flow --json --device cpu --epsilon 0.05 --t-max 0.2 --every 2 --hdf5 f.h5 " + file, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const nlohmann::json j = nlohmann::json::parse(f.out);
  EXPECT_EQ(j["boundary"], "open");
  const io::FlowHistoryFile h5 = io::read_flow_hdf5(dir.path() / "f.h5");
  ASSERT_EQ(h5.records.size(), 1u);
  ASSERT_EQ(run_h5.records.size(), 1u);
  EXPECT_EQ(h5.records[0].boundary, "open");
  EXPECT_EQ(run_h5.records[0].boundary, "open");
  const nlohmann::json& h = j["history"];
  ASSERT_EQ(h.size(), flows[0]["history"].size());
  for (std::size_t k = 0; k < h.size(); ++k) {
    const nlohmann::json &a = h[k]["slices"], &b = flows[0]["history"][k]["slices"];
    ASSERT_EQ(a["E_clover"].size(), 8u);
    EXPECT_EQ(a["E_clover"][0].get<double>(), 0.0);  // openQCD's clover densities vanish at x0 = 0 and T
    EXPECT_EQ(a["Q"][7].get<double>(), 0.0);
    int column = 0;
    for (const char* key : {"E_plaquette", "E_clover", "Q"}) {
      for (std::size_t x0 = 0; x0 < 8; ++x0) {
        EXPECT_NEAR(a[key][x0].get<double>(), b[key][x0].get<double>(), 1e-12);
        // the HDF5 files' "slices" [n][3][N0] hold the same numbers
        EXPECT_EQ(h5.records[0].slices.at(k).at(std::size_t(column) * 8 + x0), a[key][x0].get<double>());
        EXPECT_EQ(run_h5.records[0].slices.at(k).at(std::size_t(column) * 8 + x0), b[key][x0].get<double>());
      }
      ++column;
    }
    EXPECT_NEAR(h[k]["E_clover"].get<double>(), flows[0]["history"][k]["E_clover"].get<double>(), 1e-12);
  }
  // lqcd measure reads the open file too: openQCD's plaquette (its logs' "Average plaquette" / 3) equals the one
  // from the flow's slices at t = 0, sum_x0 E_plaq(x0) = 2 sum_p w(p) Re tr(1 - P) over 6 (N0 - 1) V3 weights
  const auto m = run_lqcd("measure --json --device cpu " + file, dir.path());
  ASSERT_EQ(m.exit_code, 0) << m.err;
  const nlohmann::json mj = nlohmann::json::parse(m.out);
  EXPECT_EQ(mj["boundary"], "open");
  double e_sum = 0;
  for (const nlohmann::json& e : h[0]["slices"]["E_plaquette"]) e_sum += e.get<double>();
  EXPECT_NEAR(mj["plaquette_openqcd"].get<double>(), 1 - e_sum / (2 * 3 * 6 * 7), 1e-13);
  EXPECT_NEAR(mj["plaquette_in_lattice"].get<double>(), mj["plaquette"].get<double>() * 48 / 45, 1e-13);
  const auto periodic = run_lqcd("flow --device cpu --boundary periodic " + file, dir.path());
  EXPECT_NE(periodic.exit_code, 0);
  EXPECT_NE(test::error_line(periodic.err).find("--boundary auto or open"), std::string::npos) << periodic.err;
  const auto refused = run_lqcd("flow --device cpu --action zeuthen " + file, dir.path());
  EXPECT_NE(refused.exit_code, 0);
  EXPECT_NE(test::error_line(refused.err).find("--action wilson"), std::string::npos) << refused.err;
}

// lqcd hmc with [flow]: a record per trajectory after thermalization in PREFIX.flow.jsonl, and with
// flow.hdf5 = true the same records in PREFIX.flow.h5, named "trajectory N" (no configuration is saved);
// without flow.improved_charge no Q_improved (JSON) and seven columns (HDF5).
TEST(FlowCommand, HmcFlowsItsTrajectories) {
  test::TempDir dir;
  test::write_text(dir.path() / "in.toml", "[lattice]\ndims = [4, 4, 4, 4]\n[integrator]\nsteps = [4]\ntau = 0.5\n"
                                           "[hmc]\nthermalization = 1\ntrajectories = 2\n[output]\nprefix = \"h\"\n"
                                           "[flow]\nevery = 1\nt_max = 0.1\nepsilon = 0.05\nhdf5 = true\n"
                                           "[[monomial]]\ntype = \"gauge\"\nlevel = 0\n");
  const auto r = run_lqcd("hmc in.toml --device cpu --quiet", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<nlohmann::json> flows = test::read_jsonl(dir.path() / "h.flow.jsonl");
  ASSERT_EQ(flows.size(), 2u);
  EXPECT_EQ(flows[0]["trajectory"].get<long>(), 2);
  EXPECT_EQ(flows[1]["trajectory"].get<long>(), 3);
  EXPECT_EQ(flows[1]["history"].size(), 3u) << "t = 0, 0.05, 0.1";
  EXPECT_FALSE(flows[1]["history"][0].contains("Q_improved")) << "opt-in";
  EXPECT_FALSE(flows[1].contains("file")) << "no configuration saved";
  EXPECT_NE(test::read_text(dir.path() / "h.log").find("# flow after trajectory 3: "), std::string::npos);
  const io::FlowHistoryFile h = io::read_flow_hdf5(dir.path() / "h.flow.h5");
  expect_hdf5_equals_jsonl(h, flows);
  ASSERT_EQ(h.records.size(), 2u);
  EXPECT_EQ(h.records[0].file, "trajectory 2");
  EXPECT_EQ(h.records[1].file, "trajectory 3");
  EXPECT_TRUE(h.records[1].charge_improved.empty());
}

// --improved-charge: Q_improved in every JSON history entry (absent without it), a column of the human
// table, the eighth column of --hdf5 (named in its "columns" attribute) equal to the JSON; the clover
// values are unchanged by the option.
TEST(FlowCommand, ImprovedChargeIsOptIn) {
  test::TempDir dir;
  const std::string file = test::testdata("milc_l8888_b6.0.milc").string();
  const std::string args = "flow --json --device cpu --epsilon 0.05 --t-max 0.2 --every 2 ";
  const auto plain = run_lqcd(args + "'" + file + "'", dir.path());
  const auto improved = run_lqcd(args + "--improved-charge --hdf5 f.h5 '" + file + "'", dir.path());
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  ASSERT_EQ(improved.exit_code, 0) << improved.err;
  const nlohmann::json a = nlohmann::json::parse(plain.out), b = nlohmann::json::parse(improved.out);
  ASSERT_EQ(a["history"].size(), 3u);
  ASSERT_EQ(b["history"].size(), 3u);
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_FALSE(a["history"][k].contains("Q_improved"));
    ASSERT_TRUE(b["history"][k].contains("Q_improved"));
    EXPECT_EQ(a["history"][k]["Q"], b["history"][k]["Q"]);
    EXPECT_EQ(a["history"][k]["E_clover"], b["history"][k]["E_clover"]);
    // Different discretisations of the same charge: close on the smoothed field, not equal.
    EXPECT_NE(b["history"][k]["Q_improved"].get<double>(), b["history"][k]["Q"].get<double>());
    EXPECT_LT(std::abs(b["history"][k]["Q_improved"].get<double>()), 1.0);
  }
  expect_hdf5_equals_jsonl(io::read_flow_hdf5(dir.path() / "f.h5"), {b});
  {
    io::Handle f(H5Fopen((dir.path() / "f.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
    io::Handle ds(H5Dopen2(f, "/flow/cfg_000000/history", H5P_DEFAULT), H5Dclose);
    ASSERT_TRUE(ds.ok());
    EXPECT_EQ(io::read_string_attribute(ds, "columns", dir.path() / "f.h5"),
              "t,steps,E_plaquette,E_clover,t2E_plaquette,t2E_clover,Q,Q_improved");
  }
  const auto human = run_lqcd("flow --device cpu --epsilon 0.05 --t-max 0.1 --improved-charge '" + file + "'", dir.path());
  ASSERT_EQ(human.exit_code, 0) << human.err;
  EXPECT_NE(human.out.find("Q_imp"), std::string::npos) << human.out;
  EXPECT_NE(human.out.find("(improved "), std::string::npos) << human.out;
}

// flow.hdf5 (and flow.improved_charge) in lqcd heatbath: PREFIX.flow.h5 at the end of the run holds the
// records of PREFIX.flow.jsonl, each named by its saved configuration, with the Q_improved column; a
// resumed run rewrites it from the whole JSON-lines history (the records of both runs). The old file is
// replaced by a rename, never rewritten in place: a hard link to it keeps its bytes, and no temporary is
// left behind.
TEST(FlowCommand, HeatbathWritesTheFlowHistoryToHdf5AlsoWhenResumed) {
  test::TempDir dir;
  const std::string base = "[lattice]\ndims = [4, 4, 4, 8]\n[heatbath]\nthermalization = 5\nsweeps = 6\n"
                           "[output]\nprefix = \"q\"\nsave_every = 2\ncheckpoint_every = 1\n[flow]\n"
                           "every = 1\nt_max = 0.2\nepsilon = 0.05\nmeasure_every = 2\nhdf5 = true\n"
                           "improved_charge = true\n";
  std::string stopped = base;
  stopped.replace(stopped.find("sweeps = 6"), 10, "sweeps = 2");
  test::write_text(dir.path() / "stopped.toml", stopped);
  test::write_text(dir.path() / "full.toml", base);
  test::write_text(dir.path() / "q.flow.h5", "not an HDF5 file: a stale one, to be replaced\n");
  std::filesystem::create_hard_link(dir.path() / "q.flow.h5", dir.path() / "old.h5");

  const auto first = run_lqcd("heatbath stopped.toml --device cpu --quiet", dir.path());
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const io::FlowHistoryFile h1 = io::read_flow_hdf5(dir.path() / "q.flow.h5");
  const std::vector<nlohmann::json> j1 = test::read_jsonl(dir.path() / "q.flow.jsonl");
  ASSERT_EQ(j1.size(), 1u) << "sweep 7";
  expect_hdf5_equals_jsonl(h1, j1);
  EXPECT_EQ(h1.records[0].file, "q.000007.ildg");
  EXPECT_EQ(test::read_text(dir.path() / "old.h5"), "not an HDF5 file: a stale one, to be replaced\n");

  const auto resumed = run_lqcd("heatbath full.toml --device cpu --quiet --resume", dir.path());
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  const std::vector<nlohmann::json> flows = test::read_jsonl(dir.path() / "q.flow.jsonl");
  ASSERT_EQ(flows.size(), 3u) << "sweeps 7, 9, 11";
  const io::FlowHistoryFile h = io::read_flow_hdf5(dir.path() / "q.flow.h5");
  expect_hdf5_equals_jsonl(h, flows);
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(flows[k]["sweep"].get<long>(), long(7 + 2 * k));
    EXPECT_EQ(flows[k]["file"].get<std::string>(), fmt::format("q.{:06d}.ildg", 7 + 2 * k));
    EXPECT_EQ(h.records[k].file, fmt::format("q.{:06d}.ildg", 7 + 2 * k));
    EXPECT_EQ(h.records[k].rows.size(), 3u) << "t = 0, 0.1, 0.2";
    EXPECT_EQ(h.records[k].charge_improved.size(), 3u);
  }
  EXPECT_EQ(h.string_attributes.at("action"), "wilson");
  EXPECT_EQ(h.number_attributes.at("epsilon"), 0.05);
  EXPECT_NE(test::read_text(dir.path() / "q.log").find("written to q.flow.h5 (3 configurations)"), std::string::npos);
  for (const auto& e : std::filesystem::directory_iterator(dir.path()))
    EXPECT_EQ(e.path().filename().string().find(".tmp."), std::string::npos) << e.path();
}

// --action: the Symanzik and Zeuthen flows start from the same E(0) as the Wilson flow, flow differently,
// and are named in the JSON; a bad name is a one-line error.
TEST(FlowCommand, ImprovedFlowsAreChosenByAction) {
  test::TempDir dir;
  const std::string file = test::testdata("milc_l8888_b6.0.milc").string();
  std::vector<double> e_end;
  for (const char* action : {"wilson", "symanzik", "zeuthen"}) {
    SCOPED_TRACE(action);
    const auto r = run_lqcd(std::string("flow --json --device cpu --epsilon 0.05 --t-max 0.2 --action ") + action +
                                " '" + file + "'",
                            dir.path());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["flow"], action);
    EXPECT_NEAR(j["history"][0]["E_plaquette"].get<double>(), 36 * (1 - 0.593560240433), 36 * 1e-6);
    e_end.push_back(j["history"].back()["E_clover"].get<double>());
  }
  EXPECT_GT(std::abs(e_end[1] - e_end[0]), 1e-3);
  EXPECT_GT(std::abs(e_end[2] - e_end[1]), 1e-4);
  const auto adaptive = run_lqcd("flow --json --device cpu --tolerance 1e-5 --t-max 0.5 --action zeuthen '" + file + "'",
                                 dir.path());
  ASSERT_EQ(adaptive.exit_code, 0) << adaptive.err;
  const nlohmann::json a = nlohmann::json::parse(adaptive.out);
  EXPECT_EQ(a["tolerance"].get<double>(), 1e-5);
  EXPECT_DOUBLE_EQ(a["history"].back()["t"].get<double>(), 0.5);
  EXPECT_EQ(a["history"].back()["steps"].get<int>(), int(a["history"].size()) - 1) << "measured after every step";
  const auto bad = run_lqcd("flow --device cpu --action hyp '" + file + "'", dir.path());
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(test::error_line(bad.err).find("--action"), std::string::npos) << bad.err;
}

// --hdf5: every history of the run in one HDF5 file, equal to the JSON printed by the same run; an
// existing file is refused without --force and kept.
TEST(FlowCommand, HistoriesGoToHdf5) {
  test::TempDir dir;
  const std::string a = test::testdata("milc_l8888_b6.0.milc").string(), b = test::testdata("milc_l4448.scidac").string();
  const auto r = run_lqcd("flow --json --device cpu --epsilon 0.05 --t-max 0.3 --every 2 --action symanzik --hdf5 f.h5 '" +
                              a + "' '" + b + "'",
                          dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<nlohmann::json> json;
  for (std::size_t at = 0, end; (end = r.out.find('\n', at)) != std::string::npos; at = end + 1)
    json.push_back(nlohmann::json::parse(r.out.substr(at, end - at)));
  const io::FlowHistoryFile h = io::read_flow_hdf5(dir.path() / "f.h5");
  ASSERT_EQ(h.records.size(), 2u);
  ASSERT_EQ(json.size(), 2u);
  EXPECT_EQ(h.string_attributes.at("action"), "symanzik");
  EXPECT_EQ(h.number_attributes.at("epsilon"), 0.05);
  for (std::size_t k = 0; k < 2; ++k) {
    EXPECT_EQ(h.records[k].file, json[k]["file"].get<std::string>());
    const auto& hist = json[k]["history"];
    ASSERT_EQ(h.records[k].rows.size(), hist.size());
    for (std::size_t i = 0; i < hist.size(); ++i) {
      const auto& row = h.records[k].rows[i];
      EXPECT_EQ(row[0], hist[i]["t"].get<double>());
      EXPECT_EQ(row[1], hist[i]["steps"].get<double>());
      EXPECT_EQ(row[3], hist[i]["E_clover"].get<double>());
      EXPECT_EQ(row[6], hist[i]["Q"].get<double>());
    }
    EXPECT_TRUE(std::isnan(h.records[k].t0)) << "t = 0.3 is far from t0";
  }
  const auto again = run_lqcd("flow --device cpu --t-max 0.1 --hdf5 f.h5 '" + a + "'", dir.path());
  EXPECT_NE(again.exit_code, 0);
  EXPECT_NE(test::error_line(again.err).find("--hdf5"), std::string::npos) << again.err;
  EXPECT_EQ(io::read_flow_hdf5(dir.path() / "f.h5").records.size(), 2u) << "the old file kept";
}

// lqcd smear (issue 29): zero steps or rho = 0 / alpha = 0 write the input's field (its plaquette);
// stout and APE smoothing raise the plaquette; the written file measures as printed; bad options and an
// existing output are one-line errors.
TEST(SmearCommand, SmearsAndWritesAVerifiedConfiguration) {
  test::TempDir dir;
  const std::string file = test::testdata("milc_l8888_b6.0.milc").string();
  const double p0 = 0.593560240433;  // ../shared/testdata/README.md
  const auto plaquette_of = [&](const std::string& out) {
    const auto m = run_lqcd("measure --json " + out, dir.path());
    EXPECT_EQ(m.exit_code, 0) << m.err;
    return m.exit_code == 0 ? nlohmann::json::parse(m.out)["plaquette"].get<double>() : 0.0;
  };
  for (const char* args : {"--method stout --rho 0 --steps 3", "--method ape --alpha 0 --steps 2 --spatial",
                           "--method stout --steps 0"}) {
    SCOPED_TRACE(args);
    const auto r = run_lqcd(std::string("smear --device cpu --force ") + args + " '" + file + "' same.ildg", dir.path());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NEAR(plaquette_of("same.ildg"), p0, 1e-7);
  }
  double last = p0;
  for (const char* args : {"--method stout --rho 0.1 --steps 1", "--method stout --rho 0.1 --steps 3",
                           "--method ape --alpha 0.5 --steps 3", "--method hyp --steps 1",
                           "--method hyp --spatial --steps 1"}) {
    SCOPED_TRACE(args);
    const auto r = run_lqcd(std::string("smear --device cpu --force ") + args + " '" + file + "' s.ildg", dir.path());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const double p = plaquette_of("s.ildg");
    EXPECT_GT(p, p0 + 0.05);
    EXPECT_NE(r.out.find(fmt::format("{:.12f}", p).substr(0, 10)), std::string::npos) << r.out;
    if (std::string(args).find("stout --rho 0.1 --steps 3") != std::string::npos) {
      EXPECT_GT(p, last) << "three steps smooth more than one";
    }
    last = p;
  }
  for (const auto& [args, expect] : {std::pair<std::string, std::string>{"--rho -0.1", "--rho"},
                                     {"--steps -1", "--steps"},
                                     {"--method ape --alpha 1.5", "--alpha"},
                                     {"--method hex", "--method"},
                                     {"--method hyp --alpha2 2", "--alpha2"},
                                     {"--method hyp --spatial --alpha1 -1", "--alpha1"},
                                     {"", "s.ildg"}}) {
    SCOPED_TRACE(args);
    const auto r = run_lqcd("smear --device cpu " + args + " '" + file + "' s.ildg", dir.path());
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(test::error_line(r.err).find(expect), std::string::npos) << r.err;
    EXPECT_EQ(test::program_lines(r.err).size(), 1u) << r.err;
  }
}

}  // namespace
}  // namespace lqcd
