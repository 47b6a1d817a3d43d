// lqcd loops end to end (issue 49): on the free field, with every index in its own dilution piece, each
// noise vector gives the exact loops, which momentum space gives in closed form; the file holds every
// vector's estimate, and a vector's estimate does not depend on how many are drawn.
#include <gtest/gtest.h>

#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "io/hdf5_correlators.hpp"

namespace lqcd {
namespace {

using test::run_lqcd;

std::string free_loops_input(int vectors, const std::string& dilution, int stride, int expansion = 0) {
  return fmt::format(
      "[lattice]\ndims = [2, 2, 2, 4]\n[gauge]\nconfig = \"unit\"\n[fermion]\naction = \"wilson\"\nkappa = 0.11627906976744186\n"
      "boundary = [\"periodic\", \"periodic\", \"periodic\", \"antiperiodic\"]\n[solver]\ntype = \"bicgstab\"\ntolerance = 1e-13\n"
      "[loops]\nnoise = \"u1\"\nvectors = {}\ndilution = {}\nspace_stride = {}\ngammas = [\"1\", \"g5\", \"gt\", \"gxgy\"]\n"
      "momenta = [[0, 0, 0], [1, 0, 0]]\nhopping_expansion = {}\n[output]\nprefix = \"out/loops\"\n",
      vectors, dilution, stride, expansion);
}

// tr[M^-1(x, x)] of the free Wilson quark (m0 = 0.3, antiperiodic in time) from momentum space:
// M = 2 kappa D, tr D(p)^-1 = 12 A / (A^2 + sum sin^2 p), A = m0 + sum (1 - cos p), so per time slice
// L_1(t, p = 0) = V_s (1/V) sum_p 12 A / (2 kappa (A^2 + s^2)), the same on every slice; every other
// Gamma's trace vanishes (tr gamma_mu D^-1 is odd in p), and so does every loop at p != 0
// (translation invariance).
double free_scalar_loop(const int n[4], double m0) {
  const double kappa = 1 / (2 * (4 + m0));
  double sum = 0;
  for (int a = 0; a < n[0]; ++a)
    for (int b = 0; b < n[1]; ++b)
      for (int c = 0; c < n[2]; ++c)
        for (int d = 0; d < n[3]; ++d) {
          const double p[4] = {2 * M_PI * a / n[0], 2 * M_PI * b / n[1], 2 * M_PI * c / n[2], (2 * M_PI * d + M_PI) / n[3]};
          double A = m0, s2 = 0;
          for (double q : p) A += 1 - std::cos(q), s2 += std::sin(q) * std::sin(q);
          sum += 12 * A / (2 * kappa * (A * A + s2));
        }
  return sum / n[3];  // V_s / V
}

TEST(LoopsCommand, FullyDilutedFreeLoopsAreExact) {
  test::TempDir dir;
  test::write_text(dir / "in.toml", free_loops_input(2, "[\"time\", \"spin\", \"colour\"]", 2));
  const auto r = run_lqcd("loops in.toml --json", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["noise"]["solves_per_vector"], 4 * 12 * 8);
  const int n[4] = {2, 2, 2, 4};
  const double want = free_scalar_loop(n, 0.3);
  const io::CorrelatorFile f = io::read_correlators_hdf5(dir / "out/loops.h5");
  EXPECT_EQ(f.datasets.size(), 2u * 4u * 2u);  // vectors x Gammas x momenta
  EXPECT_EQ(f.string_attributes.at("noise"), "u1");
  for (const auto& d : f.datasets) {
    ASSERT_EQ(d.values.size(), 4u) << d.name;
    const bool scalar = d.name.rfind("loop_1_noise", 0) == 0 && d.momentum == std::array<int, 3>{0, 0, 0};
    for (const auto& z : d.values) {
      EXPECT_NEAR(z.re, scalar ? want : 0.0, 1e-10 * want) << d.name;
      EXPECT_NEAR(z.im, 0.0, 1e-10 * want) << d.name;
    }
  }
  for (int t = 0; t < 4; ++t) {
    EXPECT_NEAR(j["loops"]["1"]["re"][t].get<double>(), want, 1e-10 * want);
    EXPECT_LT(j["loops"]["1"]["re_error"][t].get<double>(), 1e-10 * want);  // no noise left
  }
}

// Noise vector i is drawn from (seed, i) alone: the second of two vectors is the second of three. With
// less dilution the estimate carries noise: its standard error is no longer zero.
TEST(LoopsCommand, EachNoiseVectorIsReproducible) {
  test::TempDir dir;
  std::vector<Complex<double>> second[2];
  for (int k = 0; k < 2; ++k) {
    test::write_text(dir / "in.toml", free_loops_input(2 + k, "[\"spin\"]", 1));
    const auto r = run_lqcd("loops in.toml --json", dir.path());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    if (k == 0) {
      EXPECT_GT(nlohmann::json::parse(r.out)["loops"]["1"]["re_error"][0].get<double>(), 1e-3);
    }
    for (const auto& d : io::read_correlators_hdf5(dir / "out/loops.h5").datasets)
      if (d.name == "loop_g5_noise1" && d.momentum == std::array<int, 3>{1, 0, 0}) second[k] = d.values;
  }
  ASSERT_EQ(second[0].size(), 4u);
  ASSERT_EQ(second[1].size(), 4u);
  for (std::size_t t = 0; t < 4; ++t) {
    EXPECT_EQ(second[0][t].re, second[1][t].re);
    EXPECT_EQ(second[0][t].im, second[1][t].im);
  }
}

// loops.hopping_expansion = 4: fully diluted, the free loops stay exact (the expansion's exact part plus the
// remainder's estimate), and the files record the order; with spin dilution only, 8 vectors' standard error
// of L_1(t = 0) is below a quarter of the same vectors' without the expansion (measured: 0.283 against 2.64).
TEST(LoopsCommand, HoppingExpansionKeepsTheLoopsAndCutsTheirNoise) {
  test::TempDir dir;
  const int n[4] = {2, 2, 2, 4};
  const double want = free_scalar_loop(n, 0.3);
  test::write_text(dir / "in.toml", free_loops_input(1, "[\"time\", \"spin\", \"colour\"]", 2, 4));
  const auto r = run_lqcd("loops in.toml --json", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["noise"]["hopping_expansion_order"], 4);
  for (int t = 0; t < 4; ++t) EXPECT_NEAR(j["loops"]["1"]["re"][t].get<double>(), want, 1e-10 * want);
  EXPECT_EQ(io::read_correlators_hdf5(dir / "out/loops.h5").number_attributes.at("hopping_expansion_order"), 4);
  double error[2];
  for (int k = 0; k < 2; ++k) {
    test::write_text(dir / "in.toml", free_loops_input(8, "[\"spin\"]", 1, 4 * k));
    const auto rk = run_lqcd("loops in.toml --json", dir.path());
    ASSERT_EQ(rk.exit_code, 0) << rk.err;
    error[k] = nlohmann::json::parse(rk.out)["loops"]["1"]["re_error"][0].get<double>();
  }
  std::printf("    standard error of L_1(0) from 8 vectors: %.4e without, %.4e with the expansion\n", error[0], error[1]);
  EXPECT_LT(error[1], 0.25 * error[0]);
}

}  // namespace
}  // namespace lqcd
