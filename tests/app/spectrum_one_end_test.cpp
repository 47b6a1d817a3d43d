// lqcd spectrum's one-end-trick pion (spectrum.one_end_vectors; measure/stochastic_estimates.hpp) end to
// end: on the free field every point source gives the same pion, so the noise vectors' mean must agree
// with the point-source pion within its standard error; every vector is written on its own.
#include <gtest/gtest.h>

#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "io/hdf5_correlators.hpp"

namespace lqcd {
namespace {

using test::run_lqcd;

TEST(SpectrumOneEnd, FreePionEqualsThePointPionWithinErrors) {
  test::TempDir dir;
  test::write_text(dir / "in.toml",
                   "[lattice]\ndims = [4, 4, 4, 8]\n[gauge]\nconfig = \"unit\"\n[fermion]\naction = \"wilson\"\n"
                   "kappa = 0.11627906976744186\nboundary = [\"periodic\", \"periodic\", \"periodic\", \"antiperiodic\"]\n"
                   "[solver]\ntype = \"bicgstab\"\ntolerance = 1e-12\n[source]\nposition = [1, 2, 3, 5]\n"
                   "[spectrum]\none_end_vectors = 16\none_end_noise = \"z4\"\n[output]\nprefix = \"out/oe\"\n");
  const auto r = run_lqcd("spectrum in.toml --json", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const auto& mean = j["correlators"]["pion_one_end"];
  const auto& error = j["correlators"]["pion_one_end_error"];
  const auto& point = j["correlators"]["pion"];
  ASSERT_EQ(mean.size(), 8u);
  for (std::size_t t = 0; t < 8; ++t) {
    EXPECT_GT(error[t].get<double>(), 0) << t;
    EXPECT_NEAR(mean[t].get<double>(), point[t].get<double>(), 4 * error[t].get<double>()) << "t " << t;
  }
  int vectors = 0;
  const io::CorrelatorFile f = io::read_correlators_hdf5(dir / "out/oe.h5");
  for (const auto& d : f.datasets) vectors += d.name.rfind("pion_one_end_noise", 0) == 0;
  EXPECT_EQ(vectors, 16);
  EXPECT_EQ(f.number_attributes.at("one_end_vectors"), 16);
  EXPECT_EQ(f.string_attributes.at("one_end_noise"), "z4");
  EXPECT_EQ(f.string_attributes.at("gauge_fixing"), "none");
}

}  // namespace
}  // namespace lqcd
