// MILC's clover_invert2 regression sample (milc_qcd, clover_invert2/test/su3_clov.clov.1.sample-in and
// .1.corrfile.sample-out), reproduced end to end by `lqcd spectrum` (issue 49): the configuration is MILC's
// binary_samples/lat.sample.l4444 (../shared/testdata/milc_l4444.ildg), fixed to the Coulomb gauge, clover
// quarks at kappa = 0.1, c_sw = 1.2 with MILC's field strength (trace kept), periodic in every direction,
// MILC's analytic Gaussian source exp(-r^2 / r0^2), r0 = 1.5, at the origin, point sinks (the sample's quark
// pair (0, 0)). MILC ran in single precision to a residual of 1e-6 and prints 7 digits.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "io/hdf5_correlators.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

std::string milc_input(const std::string& field_strength) {
  return fmt::format(
      "[gauge]\nconfig = \"{}\"\n[gauge_fixing]\ngauge = \"coulomb\"\n"
      "[fermion]\naction = \"clover\"\nkappa = 0.1\ncsw = 1.2\nclover_field_strength = \"{}\"\n"
      "boundary = [\"periodic\", \"periodic\", \"periodic\", \"periodic\"]\n"
      "[solver]\ntype = \"bicgstab\"\ntolerance = 1e-12\n"
      "[source]\ntype = \"gaussian_wavefunction\"\nposition = [0, 0, 0, 0]\nradius = 1.5\n"
      "[spectrum]\nmomenta = [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]\nrotated_sink_d1 = 0.1\n"
      "wavefunction_sink_radius = 1.5\n[output]\nprefix = \"out/milc\"\n",
      test::testdata("milc_l4444.ildg").string(), field_strength);
}

struct Expected {
  const char* name;                                            // MILC's
  std::vector<std::pair<std::string, std::array<int, 3>>> of;  // lqcd's datasets, averaged
  std::array<double, 4> milc;                                  // the sample's C(t), t = 0..3 (real parts)
  double tolerance;  // relative: MILC's single-precision propagators (residual 1e-6) limit the agreement
};

// From su3_clov.clov.1.corrfile.sample-out: PION_1S_1S_d_d (G5-G5) at p000 and p100, RHO at p000. The
// sample's input lists each correlator once per direction with weight 1/3 under one label, so its p100
// is the mean over the three axes and its RHO the mean over GX, GY, GZ. MILC's normalisation is lqcd's:
// the same source, the same M = A - kappa H, no factor.
const std::vector<Expected> kMilc = {
    {"PION p000", {{"g5_g5", {0, 0, 0}}}, {282.1280, 17.83301, 3.974405, 16.84037}, 3e-5},
    {"PION p100", {{"g5_g5", {1, 0, 0}}, {"g5_g5", {0, 1, 0}}, {"g5_g5", {0, 0, 1}}}, {113.2146, 5.398233, 0.8120558, 4.695981}, 3e-5},
    {"RHO p000", {{"gx_gx", {0, 0, 0}}, {"gy_gy", {0, 0, 0}}, {"gz_gz", {0, 0, 0}}}, {267.8359, 16.26791, 3.620223, 15.37598}, 3e-5},
    // quark pair (1, 1): both sinks rotate_3D d1 = 0.1 (spectrum.rotated_sink_d1)
    {"rot_rot PION p000", {{"g5_g5_rotated", {0, 0, 0}}}, {283.6138, 17.94002, 3.996448, 16.94290}, 3e-5},
    // quark pair (0, 2): one sink convolved with the wavefunction r0 = 1.5 (spectrum.wavefunction_sink_radius);
    // the slice sum of single-precision propagators: 1e-4 (the sample's errtol allows 2e-4)
    {"PION (0, 2) p000", {{"g5_g5_wavefunction_sink", {0, 0, 0}}}, {3248.960, 193.5460, 44.37035, 179.8698}, 1e-4}};

// The largest relative distance of lqcd's correlators from the sample's, in units of each entry's tolerance.
double worst_relative_distance(const std::string& field_strength) {
  test::TempDir dir;
  test::write_text(dir / "milc.toml", milc_input(field_strength));
  const auto r = test::run_lqcd("spectrum milc.toml", dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const io::CorrelatorFile f = io::read_correlators_hdf5(dir / "out/milc.h5");
  // The file records the sinks and the gauge that the correlators depend on.
  EXPECT_EQ(f.number_attributes.at("rotated_sink_d1"), 0.1);
  EXPECT_EQ(f.number_attributes.at("wavefunction_sink_radius"), 1.5);
  EXPECT_EQ(f.string_attributes.at("gauge_fixing"), "coulomb");
  double worst = 0;
  for (const Expected& e : kMilc) {
    std::array<double, 4> mean{};
    for (const auto& [name, momentum] : e.of) {
      bool found = false;
      for (const auto& d : f.datasets)
        if (d.name == name && d.momentum == momentum) {
          found = true;
          for (int t = 0; t < 4; ++t) mean[std::size_t(t)] += d.values[std::size_t(t)].re / double(e.of.size());
        }
      EXPECT_TRUE(found) << name;
    }
    for (int t = 0; t < 4; ++t) {
      const double got = mean[std::size_t(t)], want = e.milc[std::size_t(t)];
      std::printf("    %s, %s, t = %d: lqcd %.7g, MILC %.7g\n", field_strength.c_str(), e.name, t, got, want);
      worst = std::max(worst, std::abs(got - want) / std::abs(want) / e.tolerance);
    }
  }
  return worst;
}

// Acceptance of issue 49 (other codes' regression data): with MILC's field strength every entry agrees to
// its tolerance (measured: 8e-6 relative at worst, 3.1e-5 for the convolved sink), inside the sample's own
// (su3_clov.clov.1.errtol: 0.06, 0.004, 0.0008, 0.003 for the pion at rest). With lqcd's default, the
// traceless field strength, the same c_sw is another action: the pion at rest is then 281.969 at t = 0,
// 6e-4 away (20 tolerances).
TEST(MilcRegression, CloverInvert2SampleWithTheTraceKept) {
  EXPECT_LT(worst_relative_distance("trace_kept"), 1.0);
  EXPECT_GT(worst_relative_distance("traceless"), 10.0);
}

}  // namespace
}  // namespace lqcd
