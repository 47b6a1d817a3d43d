// lqcd gaugefix (issue 29) on the MILC beta = 6.0 configuration: Landau and Coulomb gauge reached
// (theta < 1e-14, and the written file, fixed again, needs no iteration), the plaquette unchanged, the
// JSON contract; a run that does not converge writes nothing and exits non-zero; bad options are one-line
// errors naming the option.
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"

namespace lqcd {
namespace {

using test::run_lqcd;

TEST(GaugefixCommand, FixesTheMilcConfigurationAndWritesIt) {
  test::TempDir dir;
  const std::string file = test::testdata("milc_l8888_b6.0.milc").string();
  const double p0 = 0.593560240433;  // ../shared/testdata/README.md
  for (const char* args : {"--gauge landau", "--gauge coulomb", "--gauge landau --method overrelaxation"}) {
    SCOPED_TRACE(args);
    const auto r = run_lqcd(std::string("gaugefix --json --force --device cpu ") + args + " '" + file + "' g.ildg",
                            dir.path());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    for (const char* key : {"iterations", "theta", "functional", "theta_initial", "functional_initial",
                            "plaquette_before", "plaquette_after", "seconds", "method", "gauge"})
      EXPECT_TRUE(j.contains(key)) << key;
    EXPECT_LT(j["theta"].get<double>(), 1e-14);
    EXPECT_GT(j["theta_initial"].get<double>(), 0.1) << "a configuration in no particular gauge";
    EXPECT_GT(j["functional"].get<double>(), j["functional_initial"].get<double>() + 0.5);
    EXPECT_TRUE(j["input_projected_to_su3"].get<bool>()) << "32-bit input";
    EXPECT_NEAR(j["plaquette_before"].get<double>(), p0, 1e-7);
    EXPECT_NEAR(j["plaquette_after"].get<double>(), j["plaquette_before"].get<double>(), 1e-12);
    // The written file: its plaquette, and it is already in the gauge (64-bit storage keeps theta).
    const auto m = run_lqcd("measure --json g.ildg", dir.path());
    ASSERT_EQ(m.exit_code, 0) << m.err;
    EXPECT_NEAR(nlohmann::json::parse(m.out)["plaquette"].get<double>(), j["plaquette_after"].get<double>(), 1e-13);
    const std::string gauge = std::string(args).find("coulomb") != std::string::npos ? "coulomb" : "landau";
    const auto again = run_lqcd("gaugefix --json --force --device cpu --gauge " + gauge + " g.ildg g2.ildg", dir.path());
    ASSERT_EQ(again.exit_code, 0) << again.err;
    EXPECT_EQ(nlohmann::json::parse(again.out)["iterations"].get<int>(), 0);
  }
  const auto human = run_lqcd("gaugefix --device cpu --every 50 --force '" + file + "' g.ildg", dir.path());
  ASSERT_EQ(human.exit_code, 0) << human.err;
  for (const char* text : {"landau gauge by Fourier-accelerated steepest descent", "converged: theta = ", "plaquette "})
    EXPECT_NE(human.out.find(text), std::string::npos) << text << "\n" << human.out;
}

TEST(GaugefixCommand, NotConvergingWritesNothing) {
  test::TempDir dir;
  const std::string file = test::testdata("milc_l8888_b6.0.milc").string();
  const auto r = run_lqcd("gaugefix --device cpu --max-iterations 3 '" + file + "' g.ildg", dir.path());
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(test::error_line(r.err).find("--max-iterations"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "g.ildg"));
}

TEST(GaugefixCommand, BadOptionsAreOneLineErrors) {
  test::TempDir dir;
  const std::string file = test::testdata("milc_l8888_b6.0.milc").string();
  test::write_text(dir.path() / "exists.ildg", "keep");
  for (const auto& [args, out, expect] :
       {std::tuple<std::string, std::string, std::string>{"--gauge axial", "g.ildg", "--gauge"},
        {"--method cg", "g.ildg", "--method"},
        {"--precision 0", "g.ildg", "--precision"},
        {"--precision 2", "g.ildg", "--precision"},
        {"--alpha -1", "g.ildg", "--alpha"},
        {"--omega 2.5", "g.ildg", "--omega"},
        {"--max-iterations 0", "g.ildg", "--max-iterations"},
        {"--bits 16", "g.ildg", "--bits"},
        {"", "exists.ildg", "exists.ildg"}}) {
    SCOPED_TRACE(args);
    const auto r = run_lqcd("gaugefix --device cpu " + args + " '" + file + "' " + out, dir.path());
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(test::error_line(r.err).find(expect), std::string::npos) << r.err;
    EXPECT_EQ(test::program_lines(r.err).size(), 1u) << r.err;
  }
  EXPECT_EQ(test::read_text(dir.path() / "exists.ildg"), "keep");
}

}  // namespace
}  // namespace lqcd
