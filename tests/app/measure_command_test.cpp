// lqcd measure and lqcd convert on the reference configurations of other codes (rung 4 of the
// ladder): the JSON contract, the README's values, corrupted inputs, conversions.
#include <gtest/gtest.h>

#include <cmath>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "comm/communicator.hpp"

namespace lqcd {
namespace {

using test::run_lqcd;

nlohmann::json measure_json(const std::string& file, const std::filesystem::path& dir) {
  const auto r = run_lqcd("measure --json '" + file + "'", dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

struct Reference {
  const char* file;
  const char* format;
  const char* precision;
  std::array<int, 4> dims;
  double plaquette;
  double tolerance;  // relative
  bool has_checksum;
};

// Values from ../shared/testdata/README.md (computed independently of this project).
const Reference kReferences[] = {
    {"cl2qcd_conf.00200.ildg", "ildg", "double", {4, 4, 4, 4}, 0.57107711169452713, 1e-9, true},
    {"tmlqcd_4x4x4x4.ildg", "ildg", "double", {4, 4, 4, 4}, 0.628065051764, 1e-9, true},
    {"milc_l4444.ildg", "ildg", "single", {4, 4, 4, 4}, 0.594850158947, 1e-6, true},
    {"milc_l4444.scidac", "scidac", "single", {4, 4, 4, 4}, 0.594850158947, 1e-6, true},
    {"milc_l4448.scidac", "scidac", "single", {4, 4, 4, 8}, 0.56905572, 1e-6, true},
    {"milc_l4448_foreign_records.lime", "ildg", "single", {4, 4, 4, 8}, 0.56905572, 1e-6, false},
    {"chroma_weak_field_4x4x4x8.lime", "ildg", "double", {4, 4, 4, 8}, 0.994804132267, 1e-9, true},
    {"milc_l8888_b6.0.milc", "milc", "single", {8, 8, 8, 8}, 0.593560240433, 1e-6, true},
};

TEST(MeasureCommand, ReferenceConfigurationsGiveTheirKnownValues) {
  test::TempDir dir;
  for (const Reference& ref : kReferences) {
    const auto j = measure_json(test::testdata(ref.file).string(), dir.path());
    SCOPED_TRACE(ref.file);
    for (const char* key : {"dims", "precision", "format", "checksum_ok", "plaquette", "plaquette_spatial",
                            "plaquette_temporal", "rectangle", "polyakov_loop", "link_trace"})
      EXPECT_TRUE(j.contains(key)) << key;
    EXPECT_EQ(j["format"], ref.format);
    EXPECT_EQ(j["precision"], ref.precision);
    EXPECT_EQ((j["dims"].get<std::array<int, 4>>()), ref.dims);
    EXPECT_NEAR(j["plaquette"].get<double>(), ref.plaquette, ref.tolerance * ref.plaquette);
    if (ref.has_checksum) EXPECT_EQ(j["checksum_ok"], true);
    else EXPECT_TRUE(j["checksum_ok"].is_null());
    // The total plaquette is the mean of the spatial and temporal ones.
    EXPECT_NEAR(j["plaquette"].get<double>(),
                (j["plaquette_spatial"].get<double>() + j["plaquette_temporal"].get<double>()) / 2, 1e-14);
  }
}

TEST(MeasureCommand, MilcInfoFileValues) {
  // milc_l8888_b6.0.milc.info: ssplaq 1.779002, stplaq 1.782359 (3x the normalised values),
  // link trace -0.000646.
  test::TempDir dir;
  const auto j = measure_json(test::testdata("milc_l8888_b6.0.milc").string(), dir.path());
  EXPECT_NEAR(3 * j["plaquette_spatial"].get<double>(), 1.779002, 2e-6);
  EXPECT_NEAR(3 * j["plaquette_temporal"].get<double>(), 1.782359, 2e-6);
  EXPECT_NEAR(j["link_trace"].get<double>(), -0.000646, 1e-6);
}

TEST(MeasureCommand, CorruptedAndMissingFilesAreErrorsNamingTheFile) {
  test::TempDir dir;
  // One byte flipped in the binary data of a copy.
  std::filesystem::copy_file(test::testdata("milc_l4444.ildg"), dir / "flipped.ildg");
  {
    std::fstream f(dir / "flipped.ildg", std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(-2000, std::ios::end);
    char c;
    f.get(c);
    f.seekp(-2000, std::ios::end);
    f.put(char(c ^ 0x10));
  }
  const auto r = run_lqcd("measure flipped.ildg", dir.path());
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("flipped.ildg"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("checksum"), std::string::npos) << r.err;
  const auto nv = run_lqcd("measure --json --no-verify flipped.ildg", dir.path());
  ASSERT_EQ(nv.exit_code, 0) << nv.err;
  EXPECT_EQ(nlohmann::json::parse(nv.out)["checksum_ok"], false);

  const auto missing = run_lqcd("measure nothing-here.ildg", dir.path());
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_NE(missing.err.find("nothing-here.ildg"), std::string::npos);

  // Truncated: half of the file.
  const std::string whole = test::read_text(test::testdata("milc_l8888_b6.0.milc"));
  test::write_text(dir / "truncated.milc", whole.substr(0, whole.size() / 2));
  const auto t = run_lqcd("measure truncated.milc", dir.path());
  EXPECT_NE(t.exit_code, 0);
  EXPECT_EQ(test::program_lines(t.err).size(), 1u) << t.err;
  EXPECT_NE(t.err.find("truncated.milc"), std::string::npos) << t.err;
}

// A serial run (no MPI launcher, no --grid) never initialises MPI, so it neither pays for MPI's start-up
// nor prints what the MPI library may print then. Shown with OpenMPI told to load a component that
// does not exist: MPI_Init then fails, as the --grid run shows, while the serial run is untouched.
TEST(MeasureCommand, SerialRunsDoNotInitialiseMpi) {
  if (!comm::built_with_mpi()) GTEST_SKIP() << "built without MPI";
  test::TempDir dir;
  const std::string file = test::testdata("milc_l4444.ildg").string();
  const std::string broken_mpi = "OMPI_MCA_pml=no_such_component";
  const auto serial = run_lqcd("measure --json '" + file + "'", dir.path(), broken_mpi);
  EXPECT_EQ(serial.exit_code, 0) << serial.err;
  EXPECT_EQ(serial.err, "");
  EXPECT_NE(serial.out.find("\"plaquette\""), std::string::npos) << serial.out;
  const auto grid = run_lqcd("measure --json '" + file + "' --grid 1,1,1,1", dir.path(), broken_mpi);
  EXPECT_NE(grid.exit_code, 0) << "with --grid MPI is initialised, and fails here: " << grid.err;
}

TEST(ConvertCommand, ConversionsKeepTheFieldAndNeverClobber) {
  test::TempDir dir;
  const std::string src = test::testdata("cl2qcd_conf.00200.ildg").string();
  const double p = measure_json(src, dir.path())["plaquette"].get<double>();
  for (const char* fmt : {"nersc", "openqcd", "ildg"}) {
    const std::string out = std::string("converted.") + fmt;
    const auto r = run_lqcd("convert '" + src + "' " + out + " --format " + fmt, dir.path());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = measure_json(out, dir.path());
    EXPECT_EQ(j["format"], fmt);
    EXPECT_EQ(j["plaquette"].get<double>(), p) << fmt;  // 64-bit all the way: bit-exact
  }
  // An existing output is not replaced without --force, and is left intact.
  const std::string before = test::read_text(dir / "converted.nersc");
  const auto again = run_lqcd("convert '" + src + "' converted.nersc --format nersc --precision 32", dir.path());
  EXPECT_NE(again.exit_code, 0);
  EXPECT_EQ(test::read_text(dir / "converted.nersc"), before);
  const auto forced = run_lqcd("convert '" + src + "' converted.nersc --format nersc --precision 32 --force", dir.path());
  ASSERT_EQ(forced.exit_code, 0) << forced.err;
  const auto j32 = measure_json("converted.nersc", dir.path());
  EXPECT_EQ(j32["precision"], "single");
  EXPECT_NEAR(j32["plaquette"].get<double>(), p, 1e-6);
  // A corrupted input is refused and produces no output.
  const auto bad = run_lqcd("convert nothing.ildg out.ildg", dir.path());
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_FALSE(std::filesystem::exists(dir / "out.ildg"));
}

// Widening 32-bit links to 64-bit storage (--precision 64, or the openqcd format) projects them to SU(3):
// copied as read they are unitary only to ~1e-7, and every 64-bit reader (lqcd's checks 1e-10) refused
// the file. The projection moves the plaquette by ~1e-8, and the header carries the projected value.
TEST(ConvertCommand, WideningSinglePrecisionLinksProjectsThemToSu3) {
  test::TempDir dir;
  const std::string src = test::testdata("cl2qcd_conf.00200.ildg").string();
  ASSERT_EQ(run_lqcd("convert '" + src + "' single.ildg --precision 32", dir.path()).exit_code, 0);
  const double p32 = measure_json("single.ildg", dir.path())["plaquette"].get<double>();
  for (const std::string& args : {std::string("double.ildg --precision 64"), std::string("double.nersc --format nersc --precision 64"),
                                  std::string("double.openqcd --format openqcd")}) {
    const auto r = run_lqcd("convert single.ildg " + args, dir.path());
    ASSERT_EQ(r.exit_code, 0) << args << ": " << r.err;
    EXPECT_NE(r.out.find("projected to SU(3)"), std::string::npos) << r.out;
    const std::string out = args.substr(0, args.find(' '));
    const auto m = run_lqcd("measure --json " + out, dir.path());
    ASSERT_EQ(m.exit_code, 0) << out << ": " << m.err;
    const auto j = nlohmann::json::parse(m.out);
    EXPECT_EQ(j["precision"], "double") << out;
    EXPECT_NEAR(j["plaquette"].get<double>(), p32, 1e-6) << out;
    EXPECT_NE(j["plaquette"].get<double>(), p32) << out << ": the links were not projected";
  }
}

TEST(ConvertCommand, TilingRepeatsTheLatticeAndKeepsLocalObservables) {
  test::TempDir dir;
  const std::string src = test::testdata("milc_l8888_b6.0.milc").string();
  const auto j = measure_json(src, dir.path());
  const auto r = run_lqcd("convert '" + src + "' tiled.ildg --tile 1,2,1,2", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto t = measure_json("tiled.ildg", dir.path());
  EXPECT_EQ((t["dims"].get<std::array<int, 4>>()), (std::array<int, 4>{8, 16, 8, 16}));
  // Plaquette and rectangle are averages of local loops: a periodic repetition leaves them as they were.
  EXPECT_NEAR(t["plaquette"].get<double>(), j["plaquette"].get<double>(), 1e-14);
  EXPECT_NEAR(t["rectangle"].get<double>(), j["rectangle"].get<double>(), 1e-14);
  // The Polyakov loop in the doubled time direction is the square of each original line, not the same value.
  EXPECT_GT(std::abs(t["polyakov_loop"][0].get<double>() - j["polyakov_loop"][0].get<double>()), 1e-8);
  for (const char* bad : {"0,1,1,1", "2,2,2", "2,x,2,2"}) {
    const auto b = run_lqcd("convert '" + src + "' bad.ildg --tile " + bad, dir.path());
    EXPECT_NE(b.exit_code, 0) << bad;
    EXPECT_NE(b.err.find("--tile"), std::string::npos) << b.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "bad.ildg"));
  }
}

// --loops: W(1, 1) is the temporal plaquette of the same JSON object; W(R, T) falls with the area on the
// MILC beta = 6.0 field; the human output has one row per R; bad values are one-line errors; --ape-steps.
TEST(MeasureCommand, WilsonLoopsOnRequest) {
  test::TempDir dir;
  const std::string file = test::testdata("milc_l8888_b6.0.milc").string();
  const auto r = run_lqcd("measure --json --device cpu --loops 3,4 '" + file + "'", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["wilson_loops"].size(), 3u);
  ASSERT_EQ(j["wilson_loops"][0].size(), 4u);
  EXPECT_NEAR(j["wilson_loops"][0][0].get<double>(), j["plaquette_temporal"].get<double>(), 1e-12);
  EXPECT_GT(j["wilson_loops"][0][0].get<double>(), j["wilson_loops"][0][1].get<double>());
  EXPECT_GT(j["wilson_loops"][0][1].get<double>(), j["wilson_loops"][1][1].get<double>());
  const auto human = run_lqcd("measure --device cpu --loops 2,2 '" + file + "'", dir.path());
  ASSERT_EQ(human.exit_code, 0) << human.err;
  EXPECT_NE(human.out.find("W(R = 2, T = 1..2)"), std::string::npos) << human.out;
  for (const char* bad : {"0,2", "9,2", "2", "2,x", "2,2,2"}) {
    const auto e = run_lqcd(std::string("measure --device cpu --loops ") + bad + " '" + file + "'", dir.path());
    EXPECT_NE(e.exit_code, 0) << bad;
    EXPECT_NE(test::error_line(e.err).find("--loops"), std::string::npos) << bad << ": " << e.err;
  }
  EXPECT_FALSE(nlohmann::json::parse(run_lqcd("measure --json --device cpu '" + file + "'", dir.path()).out)
                   .contains("wilson_loops"));
  // --ape-steps: the spatial lines smeared (the temporal ones not): W(R, 1) of the smeared lines is larger
  // (better overlap with the flux tube); the smearing is recorded; without --loops, or out of range, an error.
  const auto s = run_lqcd("measure --json --device cpu --loops 3,4 --ape-steps 10 '" + file + "'", dir.path());
  ASSERT_EQ(s.exit_code, 0) << s.err;
  const nlohmann::json k = nlohmann::json::parse(s.out);
  EXPECT_EQ(k["wilson_loops_smearing"]["steps"].get<int>(), 10);
  for (int r = 0; r < 3; ++r)
    EXPECT_GT(k["wilson_loops"][r][1].get<double>(), j["wilson_loops"][r][1].get<double>()) << "R = " << r + 1;
  for (const auto& [args, key] : {std::pair<std::string, std::string>{"--ape-steps 5", "--ape-steps"},
                                  {"--loops 2,2 --ape-steps -1", "--ape-steps"},
                                  {"--loops 2,2 --ape-steps 2 --ape-alpha 1.5", "--ape-alpha"}}) {
    const auto e = run_lqcd("measure --device cpu " + args + " '" + file + "'", dir.path());
    EXPECT_NE(e.exit_code, 0) << args;
    EXPECT_NE(test::error_line(e.err).find(key), std::string::npos) << args << ": " << e.err;
  }
}

// --off-axis: the separations a >= b >= 1 with |r| <= RMAX, in increasing |r|, each with T_max values;
// on the MILC beta = 6.0 field the potential V(r) = log W(r, 2)/W(r, 3) (the time ratio cancels the
// spatial lines' self-energy) rises with |r|: V(1) < V(sqrt 2) < V(sqrt 3), V(sqrt 2) < V(2); --hyp-steps
// smooths the spatial links (W(R, 2) rises) and is recorded; bad combinations are one-line errors.
TEST(MeasureCommand, OffAxisLoopsAndHypSmearing) {
  test::TempDir dir;
  const std::string file = test::testdata("milc_l8888_b6.0.milc").string();
  const auto r = run_lqcd("measure --json --device cpu --loops 2,3 --off-axis '" + file + "'", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  const nlohmann::json& off = j["wilson_loops_off_axis"];
  ASSERT_EQ(off.size(), 2u) << "(1,1,0) and (1,1,1)";
  EXPECT_EQ(off[0]["r"], nlohmann::json({1, 1, 0}));
  EXPECT_NEAR(off[1]["distance"].get<double>(), std::sqrt(3.0), 1e-12);
  ASSERT_EQ(off[0]["W"].size(), 3u);
  const auto v = [](const nlohmann::json& w) { return std::log(w[1].get<double>() / w[2].get<double>()); };
  const double v1 = v(j["wilson_loops"][0]), v2 = v(j["wilson_loops"][1]), v_sqrt2 = v(off[0]["W"]), v_sqrt3 = v(off[1]["W"]);
  EXPECT_LT(v1, v_sqrt2);
  EXPECT_LT(v_sqrt2, v_sqrt3);
  EXPECT_LT(v_sqrt2, v2);
  const auto human = run_lqcd("measure --device cpu --loops 2,2 --off-axis '" + file + "'", dir.path());
  ASSERT_EQ(human.exit_code, 0) << human.err;
  EXPECT_NE(human.out.find("W(r = (1,1,1), |r| = 1.7321, T = 1..2)"), std::string::npos) << human.out;
  const auto h = run_lqcd("measure --json --device cpu --loops 2,3 --hyp-steps 2 '" + file + "'", dir.path());
  ASSERT_EQ(h.exit_code, 0) << h.err;
  const nlohmann::json k = nlohmann::json::parse(h.out);
  EXPECT_EQ(k["wilson_loops_smearing"]["method"], "hyp");
  EXPECT_EQ(k["wilson_loops_smearing"]["steps"].get<int>(), 2);
  for (int R = 0; R < 2; ++R) EXPECT_GT(k["wilson_loops"][R][1].get<double>(), j["wilson_loops"][R][1].get<double>());
  for (const auto& [args, key] : {std::pair<std::string, std::string>{"--off-axis", "--off-axis"},
                                  {"--hyp-steps 2", "--hyp-steps"},
                                  {"--loops 2,2 --hyp-steps -1", "--hyp-steps"},
                                  {"--loops 2,2 --hyp-steps 1 --ape-steps 1", "--hyp-steps"}}) {
    const auto e = run_lqcd("measure --device cpu " + args + " '" + file + "'", dir.path());
    EXPECT_NE(e.exit_code, 0) << args;
    EXPECT_NE(test::error_line(e.err).find(key), std::string::npos) << args << ": " << e.err;
  }
}

}  // namespace
}  // namespace lqcd
