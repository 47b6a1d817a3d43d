// lqcd spectrum's pion three-point functions (spectrum.three_point_sink_times; measure/pion_three_point.hpp)
// end to end: the conserved current's charge on the free field and on the MILC configuration, the ratios
// in the JSON equal to the HDF5 datasets over the pion, and the inputs refused with one line.
#include <gtest/gtest.h>

#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "test_support.hpp"
#include "io/hdf5_correlators.hpp"

namespace lqcd {
namespace {

using test::run_lqcd;

std::string input(const std::string& gauge, const std::string& fermion, const std::string& extra) {
  return fmt::format("{}[fermion]\n{}boundary = [\"periodic\", \"periodic\", \"periodic\", \"antiperiodic\"]\n"
                     "[solver]\ntype = \"bicgstab\"\ntolerance = 1e-12\n[spectrum]\n{}[output]\nprefix = \"out/tp\"\n",
                     gauge, fermion, extra);
}

const std::string kFree = "[lattice]\ndims = [4, 4, 4, 8]\n[gauge]\nconfig = \"unit\"\n";
const std::string kThreePoint =
    "three_point_sink_times = [3, 5]\nthree_point_currents = [\"gt\", \"conserved_vector\"]\n"
    "momentum_transfers = [[0, 0, 0], [0, 1, 0]]\n";

// The Ward identity: C3 / C2(t_s) of the conserved current jumps by exactly 1 between the links inside
// (tau < t_s) and outside, on the free field and on the quenched MILC configuration with clover quarks.
// The local gt current's jump is not 1 (measured 3.27 on the free field at m0 = 0.3: 1/(2 kappa) at
// leading order, in hopping form).
TEST(SpectrumThreePoint, ConservedCurrentChargeIsOne) {
  test::TempDir dir;
  const std::string milc = fmt::format("[gauge]\nconfig = \"{}\"\n", test::testdata("milc_l8888_b6.0.milc").string());
  for (const auto& [gauge, fermion, T] :
       {std::tuple<std::string, std::string, int>{kFree, "action = \"wilson\"\nkappa = 0.11627906976744186\n", 8},
        {milc, "action = \"clover\"\nkappa = 0.1330\ncsw = 1.769\n", 8}}) {
    test::write_text(dir / "in.toml", input(gauge, fermion, kThreePoint));
    const auto r = run_lqcd("spectrum in.toml --json", dir.path());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    for (int ts : {3, 5}) {
      const auto& c = j["three_point_ratios"][fmt::format("pion_3pt_conserved_vector_ts{}", ts)];
      const auto& g = j["three_point_ratios"][fmt::format("pion_3pt_gt_ts{}", ts)];
      ASSERT_EQ(c.size(), std::size_t(T));
      for (int tau = 0; tau < T; ++tau) {
        const double jump = c[std::size_t(tau < ts ? tau : 0)].get<double>() - c[std::size_t(tau < ts ? ts : tau)].get<double>();
        EXPECT_NEAR(jump, 1.0, 1e-8) << fermion << " t_s " << ts << " tau " << tau;
      }
      // The local current is not conserved: its jump is 3.27 on the free field and 1.153 on MILC's field.
      EXPECT_GT(std::abs(g[1].get<double>() - g[std::size_t(ts)].get<double>() - 1), 0.1);
    }
    // The JSON's ratio is the HDF5 dataset over the pion at t_s.
    const io::CorrelatorFile f = io::read_correlators_hdf5(dir / "out/tp.h5");
    EXPECT_EQ(f.datasets.size(), 17u + 4u + 2u * 2u * 2u);  // mesons, nucleon and Delta, 2 t_s x 2 currents x 2 q
    for (const auto& d : f.datasets)
      if (d.name == "pion_3pt_gt_ts3" && d.momentum == std::array<int, 3>{0, 0, 0}) {
        EXPECT_NEAR(d.values[1].re / j["correlators"]["pion"][3].get<double>(),
                    j["three_point_ratios"]["pion_3pt_gt_ts3"][1].get<double>(), 1e-10);
      }
  }
}

// The nucleon's three-point functions end to end (spectrum.three_point_hadrons = ["nucleon"]) on heavy
// free Wilson quarks (unit field, kappa = 0.08: m0 = 2.25), 4^3 x 32 with t_s = 10 so that nothing runs
// round the time boundary. The proton is then three quarks at rest: the conserved current counts its u
// quarks 2 and its d quark 1 (the Ward identity: exact, here to 1e-6, as C2(t_s) ~ e^{-3 m t_s} is small
// against the solver's 1e-12), and the local axial current, in units of the local vector current's
// charge per quark (its normalisation), gives the quark model's axial charges g_A^u = 4/3, g_A^d = -1/3
// (SU(6) spin-flavour wavefunction), up to the quarks' relative motion: measured 1.33271 and -0.33313,
// checked to 2e-3 (the local vector u/d ratio: 2.00014). A wrong Wick pairing, projector or sign moves
// them by O(1).
TEST(SpectrumThreePoint, HeavyFreeQuarksGiveTheQuarkModelsAxialCharges) {
  test::TempDir dir;
  test::write_text(dir / "in.toml",
                   input("[lattice]\ndims = [4, 4, 4, 32]\n[gauge]\nconfig = \"unit\"\n", "action = \"wilson\"\nkappa = 0.08\n",
                         "three_point_sink_times = [10]\nthree_point_hadrons = [\"nucleon\"]\n"
                         "three_point_currents = [\"gt\", \"gxgygt\", \"conserved_vector\"]\n"));
  const auto r = run_lqcd("spectrum in.toml --json", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto ratios = nlohmann::json::parse(r.out)["three_point_ratios"];
  // inside (tau = 5, between source and sink) minus outside (tau = 20)
  const auto jump = [&](const std::string& name) {
    const auto& v = ratios[name + "_ts10"];
    return v[5].get<double>() - v[20].get<double>();
  };
  EXPECT_NEAR(jump("nucleon_3pt_unpolarised_u_conserved_vector"), 2.0, 1e-6);
  EXPECT_NEAR(jump("nucleon_3pt_unpolarised_d_conserved_vector"), 1.0, 1e-6);
  const double per_quark = jump("nucleon_3pt_unpolarised_d_gt");
  EXPECT_NEAR(jump("nucleon_3pt_unpolarised_u_gt") / per_quark, 2.0, 1e-3);
  EXPECT_NEAR(jump("nucleon_3pt_polarised_z_u_gxgygt") / per_quark, 4.0 / 3.0, 2e-3);  // gamma_z gamma_5 = gx gy gt
  EXPECT_NEAR(jump("nucleon_3pt_polarised_z_d_gxgygt") / per_quark, -1.0 / 3.0, 2e-3);
  EXPECT_EQ(ratios.size(), 2u * 2u * 3u);  // projections x flavours x currents; no pion (not asked for)
}

TEST(SpectrumThreePoint, BadInputsGiveOneLine) {
  test::TempDir dir;
  for (const auto& [extra, fermion] :
       {std::pair<std::string, std::string>{"three_point_sink_times = [8]\n", "action = \"wilson\"\nkappa = 0.12\n"},
        {"three_point_sink_times = [0]\n", "action = \"wilson\"\nkappa = 0.12\n"},
        {"three_point_sink_times = [2]\nthree_point_currents = [\"vector\"]\n", "action = \"wilson\"\nkappa = 0.12\n"},
        {"three_point_sink_times = [2]\nthree_point_currents = []\n", "action = \"wilson\"\nkappa = 0.12\n"},
        {"three_point_sink_times = [2]\n", "action = \"twisted_mass\"\nkappa = 0.12\nmu = 0.01\n"},
        {"three_point_sink_times = [2, 2]\n", "action = \"wilson\"\nkappa = 0.12\n"},
        {"three_point_sink_times = [2]\nthree_point_currents = [\"gt\", \"gt\"]\n", "action = \"wilson\"\nkappa = 0.12\n"},
        {"three_point_sink_times = [2]\nmomentum_transfers = [[1, 0, 0], [1, 0, 0]]\n", "action = \"wilson\"\nkappa = 0.12\n"},
        {"three_point_sink_times = [2]\nthree_point_hadrons = [\"delta\"]\n", "action = \"wilson\"\nkappa = 0.12\n"},
        {"three_point_sink_times = [2]\nthree_point_hadrons = [\"nucleon\", \"nucleon\"]\n", "action = \"wilson\"\nkappa = 0.12\n"},
        {"three_point_sink_times = [2]\nthree_point_hadrons = []\n", "action = \"wilson\"\nkappa = 0.12\n"},
        {"three_point_sink_times = [2]\n[sink]\nsmearing = \"gaussian\"\n[source]\nsmearing_iterations = 2\n",
         "action = \"wilson\"\nkappa = 0.12\n"}}) {
    SCOPED_TRACE(extra + fermion);
    test::write_text(dir / "bad.toml", input(kFree, fermion, extra));
    const auto r = run_lqcd("spectrum bad.toml", dir.path());
    EXPECT_NE(r.exit_code, 0);
    EXPECT_EQ(test::program_lines(r.err).size(), 1u) << r.err;
    EXPECT_TRUE(r.err.find("spectrum.three_point") != std::string::npos ||
                r.err.find("spectrum.momentum_transfers") != std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "out/tp.h5"));
  }
  // A sink time beyond the configuration's T (lattice.dims unset: known once the file is read), refused
  // before any solve.
  test::write_text(dir / "bad.toml", input(fmt::format("[gauge]\nconfig = \"{}\"\n", test::testdata("milc_l8888_b6.0.milc").string()),
                                           "action = \"wilson\"\nkappa = 0.12\n", "three_point_sink_times = [8]\n"));
  const auto r = run_lqcd("spectrum bad.toml", dir.path());
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(test::program_lines(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find("spectrum.three_point_sink_times"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "out/tp.h5"));
}

}  // namespace
}  // namespace lqcd
