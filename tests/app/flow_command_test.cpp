// lqcd flow and lqcd smear (issue 29); lqcd flow on the MILC beta = 6.0 configuration: the JSON contract, E at t = 0 from the
// plaquette the README gives (E_plaq = 36 (1 - P) for P = <Re tr U_p>/3), E falling along the flow, the
// human output, and one-line errors for bad options and files.
#include <gtest/gtest.h>

#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "io/hdf5_flow.hpp"

namespace lqcd {
namespace {

using test::run_lqcd;

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

// lqcd hmc with [flow]: a record per trajectory after thermalization in PREFIX.flow.jsonl.
TEST(FlowCommand, HmcFlowsItsTrajectories) {
  test::TempDir dir;
  test::write_text(dir.path() / "in.toml", "[lattice]\ndims = [4, 4, 4, 4]\n[integrator]\nsteps = [4]\ntau = 0.5\n"
                                           "[hmc]\nthermalization = 1\ntrajectories = 2\n[output]\nprefix = \"h\"\n"
                                           "[flow]\nevery = 1\nt_max = 0.1\nepsilon = 0.05\n"
                                           "[[monomial]]\ntype = \"gauge\"\nlevel = 0\n");
  const auto r = run_lqcd("hmc in.toml --device cpu --quiet", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<nlohmann::json> flows = test::read_jsonl(dir.path() / "h.flow.jsonl");
  ASSERT_EQ(flows.size(), 2u);
  EXPECT_EQ(flows[0]["trajectory"].get<long>(), 2);
  EXPECT_EQ(flows[1]["trajectory"].get<long>(), 3);
  EXPECT_EQ(flows[1]["history"].size(), 3u) << "t = 0, 0.05, 0.1";
  EXPECT_NE(test::read_text(dir.path() / "h.log").find("# flow after trajectory 3: "), std::string::npos);
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
                           "--method ape --alpha 0.5 --steps 3", "--method hyp --steps 1"}) {
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
                                     {"--method hyp --spatial", "--spatial"},
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
