// lqcd bench for the Dirac operators and the solver: the JSON record carries the figures with their
// definitions (FLOPs per site as QUDA counts, bytes, the copy bandwidth of the same run), and options
// that are not implemented are errors, not silently different benchmarks.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "core/memory.hpp"
#include "core/memory_capacity.hpp"
#include "solvers/multigrid/multigrid.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

using test::run_lqcd;

nlohmann::json bench(const std::string& args, const test::TempDir& dir) {
  const auto r = run_lqcd("bench " + args + " --device cpu --dims 4,4,4,4 --repetitions 2 --json", dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.exit_code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json::object();
}

TEST(BenchCommand, DiracBenchmarksReportTheirCountsAndTheCopyBandwidth) {
  test::TempDir dir;
  for (const char* action : {"wilson", "clover", "twisted_mass"})
    for (const char* precision : {"double", "single"}) {
      SCOPED_TRACE(std::string(action) + " " + precision);
      const auto d = bench(std::string("dslash --action ") + action + " --precision " + precision, dir);
      EXPECT_GT(d["copy_bandwidth_GBps"].get<double>(), 0);
      EXPECT_GT(d["GFLOPS"].get<double>(), 0);
      const double flops = d["flops_per_site"].get<double>();
      EXPECT_EQ(flops, std::string(action) == "wilson" ? 1320 : std::string(action) == "clover" ? 1872 : 1416);
      // GFLOPS and GB/s are the same time: their ratio is the byte count per FLOP.
      const double bytes = std::string(precision) == "double" ? 8 : 4;
      const double extra = std::string(action) == "clover" ? 96 : std::string(action) == "twisted_mass" ? 24 : 0;
      EXPECT_NEAR(d["GBps_minimal"].get<double>() / d["GFLOPS"].get<double>(), (8 * 18 + 48 + extra) * bytes / flops,
                  1e-9);
      EXPECT_NEAR(d["fraction_of_copy"].get<double>(),
                  d["GBps_minimal"].get<double>() / d["copy_bandwidth_GBps"].get<double>(), 1e-12);
      // The host times each call by its clock; nothing to rotate (no L2 to flatter), nothing to tune.
      EXPECT_EQ(d["timing"].get<std::string>(), "host clock per call");
      EXPECT_EQ(d["l2_rotation_sets"].get<int>(), 1);
      EXPECT_FALSE(d.contains("launch_blocks"));
      // Every run checks its result against the double-precision 18-real operator.
      EXPECT_LT(d["difference_to_double_18_real"].get<double>(), std::string(precision) == "double" ? 1e-13 : 1e-5);
      const auto m = bench(std::string("matpc --action ") + action + " --precision " + precision, dir);
      EXPECT_GT(m["matpc_GFLOPS"].get<double>(), 0);
      EXPECT_GT(m["mdagm_GFLOPS"].get<double>(), 0);
    }
  // 12-real links: the same hopping term (compressed links are exact for SU(3)), fewer bytes.
  for (const char* precision : {"double", "single"}) {
    const auto d = bench(std::string("dslash --reconstruct 12 --precision ") + precision, dir);
    EXPECT_EQ(d["reconstruct"].get<int>(), 12);
    EXPECT_LT(d["difference_to_double_18_real"].get<double>(), std::string(precision) == "double" ? 1e-13 : 1e-5);
    const double bytes = std::string(precision) == "double" ? 8 : 4;
    EXPECT_NEAR(d["GBps_minimal"].get<double>() / d["GFLOPS"].get<double>(), (8 * 12 + 48) * bytes / 1320, 1e-9);
    const auto t = bench(std::string("dslash --reconstruct 12 --action twisted_mass --precision ") + precision, dir);
    EXPECT_LT(t["difference_to_double_18_real"].get<double>(), std::string(precision) == "double" ? 1e-13 : 1e-5);
    // 8-real links: the rebuilt links are exact up to rounding (square roots and phases).
    const auto e = bench(std::string("dslash --reconstruct 8 --precision ") + precision, dir);
    EXPECT_EQ(e["reconstruct"].get<int>(), 8);
    EXPECT_LT(e["difference_to_double_18_real"].get<double>(), std::string(precision) == "double" ? 1e-12 : 1e-5);
    EXPECT_NEAR(e["GBps_minimal"].get<double>() / e["GFLOPS"].get<double>(), (8 * 8 + 48) * bytes / 1320, 1e-9);
  }
  // Half precision: 16-bit links and spinors with a float norm per site, 1e-3 of the double result.
  for (int reconstruct : {12, 8}) {
    const auto h = bench("dslash --precision half --reconstruct " + std::to_string(reconstruct), dir);
    EXPECT_LT(h["difference_to_double_18_real"].get<double>(), 1e-3);
    EXPECT_GT(h["difference_to_double_18_real"].get<double>(), 1e-7) << "half precision must round";
    EXPECT_EQ(h["bytes_per_site_minimal"].get<double>(), 8 * reconstruct * 2 + 2 * (24 * 2 + 4));
    EXPECT_NEAR(h["GBps_minimal"].get<double>() / h["GFLOPS"].get<double>(), (8 * reconstruct * 2 + 104) / 1320.0,
                1e-9);
    const auto m = bench("matpc --precision half --reconstruct " + std::to_string(reconstruct), dir);
    EXPECT_LT(m["difference_to_double_18_real"].get<double>(), 1e-3);
  }
  for (const char* precision : {"double", "single", "half"}) {
    const auto s = bench(std::string("solver --kappa 0.2 --reconstruct 12 --precision ") + precision, dir);
    EXPECT_EQ(s["precision"].get<std::string>(), std::string(precision) == "double" ? "double" : "double/" + std::string(precision));
    EXPECT_LE(s["true_residual"].get<double>(), 1e-10);
    EXPECT_GT(s["iterations"].get<int>(), 0);
    EXPECT_GT(s["seconds_per_solve"].get<double>(), 0);
    EXPECT_EQ(s["system"].get<std::string>().rfind("normal:", 0), 0u) << "the default is QUDA's normal-equation CG";
  }
  const auto m = bench("solver --kappa 0.2 --reconstruct 12 --system matpc", dir);
  EXPECT_EQ(m["system"].get<std::string>().rfind("matpc:", 0), 0u);
  EXPECT_EQ(m["solver"], "cg");
  EXPECT_LE(m["true_residual"].get<double>(), 1e-10);
  // BiCGStab on M_hat itself: fewer iterations than CGNR on this well-conditioned system (each takes
  // two applications of M_hat).
  const auto bi = bench("solver --kappa 0.2 --reconstruct 12 --system matpc --solver bicgstab", dir);
  EXPECT_EQ(bi["solver"], "bicgstab");
  EXPECT_NE(bi["system"].get<std::string>().find("by bicgstab"), std::string::npos);
  EXPECT_LE(bi["true_residual"].get<double>(), 1e-10);
  EXPECT_LT(bi["iterations"].get<int>(), m["iterations"].get<int>());
}

// dslash --rhs N: one kernel on N right-hand sides, the links counted once per site for all of them;
// every rhs checked against the double 18-real operator.
// The flow benchmark (issue 29): its byte count is 17 passes over the links (576 B per site) per RK3
// step, consistent with its GB/s and time; the fraction of copy follows from both.
TEST(BenchCommand, FlowBenchmarkReportsStepAndMeasurement) {
  test::TempDir dir;
  const auto d = bench("flow", dir);
  EXPECT_EQ(d["benchmark"], "flow");
  EXPECT_EQ(d["bytes_per_step_minimal"].get<double>(), 17.0 * 576 * 256);
  const double t = d["step_s"].get<double>();
  EXPECT_GT(t, 0);
  EXPECT_NEAR(d["step_GBps_minimal"].get<double>(), 17.0 * 576 * 256 / t / 1e9, 1e-9);
  EXPECT_NEAR(d["step_fraction_of_copy"].get<double>(),
              d["step_GBps_minimal"].get<double>() / d["copy_bandwidth_GBps"].get<double>(), 1e-12);
  EXPECT_GT(d["measurement_s"].get<double>(), 0);
  EXPECT_NEAR(d["flow_to_t3_s"].get<double>(), 300 * (t + d["measurement_s"].get<double>()), 1e-9);
}

// Progress (issue 31): a line per timed region on stderr (LQCD_PROGRESS=1 outside a terminal), never with
// --json; the human report on stdout is unchanged.
TEST(BenchCommand, ReportsProgressPerTimedRegionUnlessJson) {
  test::TempDir dir;
  const std::string args = "bench flow --device cpu --dims 4,4,4,4 --repetitions 2";
  const auto r = run_lqcd(args, dir.path(), "LQCD_PROGRESS=1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("[bench flow] 1 timed region (2 calls each"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("[bench flow] 2 timed regions"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("[bench"), std::string::npos) << r.out;
  const auto j = run_lqcd(args + " --json", dir.path(), "LQCD_PROGRESS=1");
  ASSERT_EQ(j.exit_code, 0) << j.err;
  EXPECT_EQ(j.err.find("[bench"), std::string::npos) << j.err;
}

// The gauge-fixing benchmark (issue 29): 2240 B per site and FFT iteration, 4464 per overrelaxation
// iteration, the fractions of copy consistent with the times; with --config it fixes that configuration to
// theta < 1e-14 in both gauges and reports the iterations.
TEST(BenchCommand, GaugefixBenchmarkReportsIterationsAndWholeFixes) {
  test::TempDir dir;
  const auto d = bench("gaugefix", dir);
  EXPECT_EQ(d["benchmark"], "gaugefix");
  EXPECT_EQ(d["fft_bytes_per_iteration_minimal"].get<double>(), 2240.0 * 256);
  EXPECT_EQ(d["overrelaxation_bytes_per_iteration_minimal"].get<double>(), 4464.0 * 256);
  const double copy = d["copy_bandwidth_GBps"].get<double>();
  for (const char* k : {"landau_fft", "coulomb_fft"})
    EXPECT_NEAR(d[std::string(k) + "_fraction_of_copy"].get<double>(),
                2240.0 * 256 / d[std::string(k) + "_iteration_s"].get<double>() / 1e9 / copy, 1e-12)
        << k;
  EXPECT_NEAR(d["overrelaxation_fraction_of_copy"].get<double>(),
              4464.0 * 256 / d["landau_overrelaxation_iteration_s"].get<double>() / 1e9 / copy, 1e-12);
  EXPECT_FALSE(d.contains("landau_fft_to_1e-14_s")) << "no --config: no whole fix";
  const std::string file = test::testdata("milc_l8888_b6.0.milc").string();
  const auto r = run_lqcd("bench gaugefix --device cpu --dims 8,8,8,8 --repetitions 1 --json --config '" + file + "'",
                          dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json c = nlohmann::json::parse(r.out);
  for (const char* g : {"landau", "coulomb"}) {
    EXPECT_TRUE(c[std::string(g) + "_fft_to_1e-14_converged"].get<bool>()) << g;
    EXPECT_LT(c[std::string(g) + "_fft_to_1e-14_theta"].get<double>(), 1e-14) << g;
    EXPECT_GT(c[std::string(g) + "_fft_to_1e-14_iterations"].get<int>(), 10) << g;
  }
}

TEST(BenchCommand, MultiRhsDslashCountsEachLinkOncePerSite) {
  test::TempDir dir;
  for (const std::string action : {"wilson", "twisted_mass"}) {
    SCOPED_TRACE(action);
    const bool twisted = action == "twisted_mass";
    const auto d = bench("dslash --rhs 3 --reconstruct 12 --precision single --action " + action, dir);
    EXPECT_EQ(d["rhs"].get<int>(), 3);
    EXPECT_LT(d["difference_to_double_18_real"].get<double>(), 1e-5);
    const double flops = 3 * (1320 + (twisted ? 96 : 0));
    EXPECT_EQ(d["flops_per_site"].get<double>(), flops);
    // 8 links of 12 floats once, then per rhs an input and an output spinor (+ the site term's input).
    const double bytes = 8 * 12 * 4 + 3 * (twisted ? 3 : 2) * 96;
    EXPECT_EQ(d["bytes_per_site_minimal"].get<double>(), bytes);
    EXPECT_NEAR(d["GBps_minimal"].get<double>() / d["GFLOPS"].get<double>(), bytes / flops, 1e-9);
    EXPECT_NEAR(d["fraction_of_copy"].get<double>(),
                d["GBps_minimal"].get<double>() / d["copy_bandwidth_GBps"].get<double>(), 1e-12);
    EXPECT_NEAR(d["seconds_per_rhs"].get<double>() * 3, d["seconds"].get<double>(), 1e-15);
  }
  const auto h = bench("dslash --rhs 2 --reconstruct 12 --precision half", dir);
  EXPECT_LT(h["difference_to_double_18_real"].get<double>(), 1e-3);
  EXPECT_GT(h["difference_to_double_18_real"].get<double>(), 1e-7) << "half precision must round";
  EXPECT_EQ(h["bytes_per_site_minimal"].get<double>(), 8 * 12 * 2 + 2 * 2 * (24 * 2 + 4));
  const auto e = bench("dslash --rhs 12 --reconstruct 18 --precision single", dir);
  EXPECT_LT(e["difference_to_double_18_real"].get<double>(), 1e-5);
  EXPECT_EQ(e["bytes_per_site_minimal"].get<double>(), 8 * 18 * 4 + 12 * 2 * 96);
  const auto g = bench("dslash --rhs 2 --reconstruct 12 --precision double --action twisted_mass", dir);
  EXPECT_LT(g["difference_to_double_18_real"].get<double>(), 1e-13);
}

// solver --rhs N: the multi-RHS CG against the same N solves one at a time: every rhs meets the
// tolerance in the iterations of its own one-field solve (+-1: the sums' rounding order), in double
// and with single and half corrections.
TEST(BenchCommand, MultiRhsSolverTakesEachRhsThroughItsOwnIterations) {
  test::TempDir dir;
  for (const std::string precision : {"double", "single", "half"}) {
    SCOPED_TRACE(precision);
    const auto s = bench("solver --rhs 3 --kappa 0.2 --reconstruct 12 --precision " + precision, dir);
    EXPECT_EQ(s["rhs"].get<int>(), 3);
    EXPECT_LE(s["true_residual"].get<double>(), 1e-10);
    const auto block = s["rhs_iterations"].get<std::vector<int>>();
    const auto one = s["one_at_a_time_iterations"].get<std::vector<int>>();
    ASSERT_EQ(block.size(), 3u);
    ASSERT_EQ(one.size(), 3u);
    for (std::size_t j = 0; j < 3; ++j) {
      EXPECT_GT(block[j], 5);
      if (precision == "double") {
        EXPECT_LE(std::abs(block[j] - one[j]), 1) << j;
      }
    }
    EXPECT_NEAR(s["seconds_per_solve"].get<double>() * 3, s["seconds_per_call"].get<double>(), 1e-12);
    EXPECT_NEAR(s["speedup_per_solve"].get<double>(),
                s["seconds_per_solve_one_at_a_time"].get<double>() / s["seconds_per_solve"].get<double>(), 1e-9);
    if (precision != "double") {
      EXPECT_GE(s["corrections"].get<int>(), 1);
    }
  }
}

// The multigrid's benchmark: the setup timed apart, the solve meeting the tolerance on the full system,
// where a solve's time goes (its parts add up to no more than the solve), the operators' rates.
TEST(BenchCommand, MultigridSolverReportsSetupSolveAndTheirParts) {
  test::TempDir dir;
  const auto s = bench("solver --solver multigrid --action clover --kappa 0.11 --precision single "
                       "--multigrid block=[2,2,2,2] --multigrid test_vectors=4",
                       dir);
  EXPECT_EQ(s["solver"], "multigrid");
  EXPECT_LE(s["true_residual"].get<double>(), 1e-10);
  EXPECT_GT(s["iterations"].get<int>(), 0);
  EXPECT_EQ(s["multigrid"]["coarse_components"].get<int>(), 8);
  EXPECT_EQ(s["multigrid"]["smoother"], "sap");
  EXPECT_GT(s["seconds_setup"].get<double>(), 0);
  EXPECT_NEAR(s["seconds_setup"].get<double>(),
              s["seconds_setup_test_vectors"].get<double>() + s["seconds_setup_coarse_operator"].get<double>(), 1e-9);
  EXPECT_NEAR(s["seconds_setup_plus_12_solves"].get<double>(),
              s["seconds_setup"].get<double>() + 12 * s["seconds_per_solve"].get<double>(), 1e-9);
  const double parts = s["seconds_per_solve_smoother"].get<double>() + s["seconds_per_solve_transfer"].get<double>() +
                       s["seconds_per_solve_coarse_solves"].get<double>();
  EXPECT_GT(parts, 0);
  EXPECT_GT(s["coarse_operator_GBps"].get<double>(), 0);
  EXPECT_GT(s["fine_operator_GBps"].get<double>(), 0);
  // The 12-RHS block of the coarse operator: 12 times the FLOPs of one application in its time.
  const double block = s["coarse_operator_block12_seconds"].get<double>();
  EXPECT_GT(block, 0);
  EXPECT_NEAR(s["coarse_operator_block12_speedup_per_rhs"].get<double>(),
              12 * s["coarse_operator_seconds"].get<double>() / block, 1e-9);
  EXPECT_NEAR(s["coarse_operator_block12_GFLOPS"].get<double>() * block,
              12 * s["coarse_operator_GFLOPS"].get<double>() * s["coarse_operator_seconds"].get<double>(), 1e-9);
}

// --rhs N with the multigrid: the N sources solved together, each to the tolerance, the block's time
// split into its parts and compared with N single solves.
TEST(BenchCommand, MultigridOnSeveralRightHandSidesSolvesThemTogether) {
  test::TempDir dir;
  const auto s = bench("solver --solver multigrid --action clover --kappa 0.11 --precision single --rhs 3 "
                       "--multigrid block=[2,2,2,2] --multigrid test_vectors=4",
                       dir);
  EXPECT_EQ(s["rhs"].get<int>(), 3);
  EXPECT_LE(s["block_true_residual_max"].get<double>(), 1e-10);
  EXPECT_GT(s["block_iterations_min"].get<int>(), 0);
  EXPECT_LE(s["block_iterations_min"].get<int>(), s["block_iterations_max"].get<int>());
  const double t = s["seconds_block_solve"].get<double>();
  EXPECT_NEAR(s["seconds_per_rhs_block"].get<double>() * 3, t, 1e-12);
  EXPECT_NEAR(s["seconds_setup_plus_rhs_block"].get<double>(), s["seconds_setup"].get<double>() + t, 1e-9);
  EXPECT_NEAR(s["block_speedup_per_rhs"].get<double>(), 3 * s["seconds_per_solve"].get<double>() / t, 1e-9);
  EXPECT_GT(s["seconds_per_block_solve_coarse_solves"].get<double>(), 0);
  EXPECT_GT(s["block_coarse_iterations_per_cycle"].get<double>(), 0);
}

// A lattice whose links and spinors fit this machine but whose multigrid (the default [multigrid], single
// precision) does not: refused before anything is allocated, the message naming the keys that shrink it.
TEST(BenchCommand, MultigridThatCannotFitIsRefusedNamingItsKeys) {
  const double have = double(memory_capacity_bytes(Location::Host));
  if (!(have > 0)) GTEST_SKIP() << "host memory unknown";
  const double base = 4 * 18 * 8 + 2 * 24 * 8, mg = multigrid_bytes_per_site(MultigridParams{}, 4, 1);
  int L = 8;
  while (std::pow(double(L), 4) * (base + mg) <= have) L += 8;
  if (std::pow(double(L), 4) * base >= have) GTEST_SKIP() << "no lattice between the two bounds on this machine";
  test::TempDir dir;
  const auto r = run_lqcd(fmt::format("bench solver --solver multigrid --device cpu --dims {0},{0},{0},{0} --action "
                                      "clover --kappa 0.11 --precision single",
                                      L),
                          dir.path());
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("--dims"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("outer_restart=8"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("the multigrid: 2 x 24 test vectors"), std::string::npos) << r.err;
}

// On the GPU: CUDA-event timing, inputs rotated over more than twice the L2 on a small lattice, and the
// block size the launch tuner chose for the hopping kernel (GPU machine only).
TEST(BenchCommand, GpuDslashIsEventTimedRotatedAndTuned) {
  if (!device_available()) GTEST_SKIP() << "no GPU";
  test::TempDir dir;
  const test::ScopedEnv cache("LQCD_TUNE_CACHE", (dir / "tuning.tsv").c_str());
  const auto r = run_lqcd("bench dslash --device gpu --dims 8,8,8,8 --precision single --reconstruct 12 --repetitions 5 "
                          "--json", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto d = nlohmann::json::parse(r.out);
  EXPECT_EQ(d["timing"].get<std::string>(), "CUDA events between back-to-back calls");
  EXPECT_EQ(d["l2_rotation_sets"].get<int>(), 16);  // 8^4 is far below the L2: the most sets
  EXPECT_LT(d["difference_to_double_18_real"].get<double>(), 1e-5);
  bool tuned = false;
  for (const auto& b : d["launch_blocks"])
    if (b["kernel"].get<std::string>() == "lqcd::WilsonHoppingKernel<float, 6>") {
      tuned = true;
      EXPECT_EQ(b["sites"].get<int>(), 8 * 8 * 8 * 4);
      EXPECT_EQ(b["block"].get<int>() % 32, 0);
      EXPECT_EQ(b["source"].get<std::string>(), "tuned");
    }
  EXPECT_TRUE(tuned) << r.out;
  const auto w = run_lqcd("bench dslash --device gpu --dims 8,8,8,8 --precision single --reconstruct 12 --repetitions 5 "
                          "--timing wall --json", dir.path());
  ASSERT_EQ(w.exit_code, 0) << w.err;
  EXPECT_EQ(nlohmann::json::parse(w.out)["timing"].get<std::string>(),
            "host clock per call, device synchronised after each");
  const test::ScopedEnv off("LQCD_TUNE", "0");
  const auto u = run_lqcd("bench dslash --device gpu --dims 8,8,8,8 --precision single --reconstruct 12 --repetitions 5 "
                          "--json", dir.path());
  ASSERT_EQ(u.exit_code, 0) << u.err;
  EXPECT_EQ(nlohmann::json::parse(u.out)["launch_tuning"].get<std::string>().rfind("off", 0), 0u);
}

// Programmatic dependent launches (core/exec_cuda.cuh: each kernel may start before the previous one
// has finished, and waits for it before reading): on by default on the GPU machine's H100, off with
// LQCD_PROGRAMMATIC_LAUNCH=0, the same result either way (M_hat and the hopping term, back to back in
// batches with no event between the calls), and a bad value is an error naming the variable.
TEST(BenchCommand, ProgrammaticLaunchIsOnByDefaultAndChangesNoResult) {
  if (!device_available()) GTEST_SKIP() << "no GPU";
  test::TempDir dir;
  const test::ScopedEnv cache("LQCD_TUNE_CACHE", (dir / "tuning.tsv").c_str());
  std::vector<double> differences;
  for (const char* setting : {"", "0", "1"}) {
    const test::ScopedEnv pdl("LQCD_PROGRAMMATIC_LAUNCH", setting);
    for (const char* kernel : {"dslash", "matpc"}) {
      const auto r = run_lqcd(std::string("bench ") + kernel +
                                  " --device gpu --dims 8,8,8,8 --precision single --reconstruct 12 --repetitions 20 "
                                  "--timing batched --json",
                              dir.path());
      ASSERT_EQ(r.exit_code, 0) << setting << " " << kernel << ": " << r.err;
      const auto d = nlohmann::json::parse(r.out);
      EXPECT_EQ(d["programmatic_launch"].get<bool>(), std::string(setting) != "0") << setting;
      EXPECT_EQ(d["timing"].get<std::string>(), "CUDA events around batches of 10 back-to-back calls");
      differences.push_back(d["difference_to_double_18_real"].get<double>());
      EXPECT_LT(differences.back(), 1e-5) << setting << " " << kernel;
    }
  }
  // The same kernels on the same inputs: the same bits whatever the launch.
  EXPECT_EQ(differences[0], differences[2]);
  EXPECT_EQ(differences[0], differences[4]);
  EXPECT_EQ(differences[1], differences[3]);
  EXPECT_EQ(differences[1], differences[5]);
  const test::ScopedEnv bad("LQCD_PROGRAMMATIC_LAUNCH", "yes");
  const auto r = run_lqcd("bench dslash --device gpu --dims 4,4,4,4 --repetitions 2 --json", dir.path());
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("LQCD_PROGRAMMATIC_LAUNCH=yes"), std::string::npos) << r.err;
}

// --rotation-sets replaces the automatic number of input copies (the host's automatic choice is 1:
// its caches are not modelled); out of range it is an error naming the option.
TEST(BenchCommand, RotationSetsAreTakenOrRefused) {
  test::TempDir dir;
  const auto r = run_lqcd("bench dslash --device cpu --dims 4,4,4,4 --rotation-sets 3 --repetitions 3 --json", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto d = nlohmann::json::parse(r.out);
  EXPECT_EQ(d["l2_rotation_sets"].get<int>(), 3);
  EXPECT_LT(d["difference_to_double_18_real"].get<double>(), 1e-12);
  EXPECT_TRUE(d["host_queue_seconds_per_call"].is_null());
  const auto bad = run_lqcd("bench dslash --device cpu --dims 4,4,4,4 --rotation-sets 65 --json", dir.path());
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.err.find("--rotation-sets"), std::string::npos) << bad.err;
}

TEST(BenchCommand, UnimplementedOptionsAreErrors) {
  test::TempDir dir;
  for (const auto& [args, key] : {std::pair<std::string, std::string>{"dslash --reconstruct 10", "--reconstruct"},
                                  {"dslash --reconstruct 8 --action clover", "--reconstruct 8"},
                                  {"dslash --reconstruct 12 --action clover", "--reconstruct 12"},
                                  {"dslash --rhs 12", "--rhs"},  // 18-real double links: not built for several
                                  {"dslash --rhs 0", "--rhs"},
                                  {"dslash --rhs 65 --reconstruct 12", "--rhs"},
                                  {"dslash --rhs 2 --action clover", "--rhs"},
                                  {"dslash --rhs 2 --reconstruct 8 --precision single", "--rhs"},
                                  {"matpc --rhs 2", "--rhs"},
                                  {"solver --rhs 2 --reconstruct 12 --system matpc", "--system normal"},
                                  {"solver --rhs 2 --reconstruct 18", "--reconstruct 12"},
                                  {"solver --rhs 33 --reconstruct 12", "2 to 32"},
                                  {"dslash --precision half", "--reconstruct 12 or 8"},
                                  {"dslash --precision quarter", "--precision"},
                                  {"solver --precision half --reconstruct 12 --action clover", "--action clover"},
                                  {"matpc --action staggered", "--action"},
                                  {"solver --system full", "--system"},
                                  {"solver --solver bicgstab", "--system matpc"},
                                  {"solver --solver minres --system matpc", "--solver"},
                                  {"dslash --timing cpu", "--timing"},
                                  {"solver --solver multigrid --rhs 65", "--rhs"},
                                  {"solver --solver multigrid --precision half --reconstruct 12", "--precision half"},
                                  {"solver --solver multigrid --multigrid vectors=3", "multigrid.vectors"},
                                  {"solver --solver multigrid --multigrid test_vectors", "KEY=VALUE"},
                                  {"dirac", "unknown benchmark"}}) {
    const auto r = run_lqcd("bench " + args + " --device cpu --dims 4,4,4,4", dir.path());
    EXPECT_NE(r.exit_code, 0) << args;
    EXPECT_NE(r.err.find(key), std::string::npos) << args << ": " << r.err;
  }
}

TEST(BenchCommand, AProcessGridLargerThanTheRunIsRefusedBeforeMeasuring) {
  test::TempDir dir;
  const auto r = run_lqcd("bench dslash --dims 8,8,8,8 --grid 1,1,1,2 --device cpu", dir.path());
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(test::program_lines(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find("--grid"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("-np 2"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("copy bandwidth"), std::string::npos) << "no measurement before the error";
}

// --config: the Dirac benchmarks on a stored configuration (MILC's quenched 8^4 at beta = 6.0) instead
// of Haar-random links. The record names the links; their dims must be --dims; a missing file is
// refused before anything is measured.
TEST(BenchCommand, DiracBenchmarksRunOnAStoredConfiguration) {
  test::TempDir dir;
  const std::string file = test::testdata("milc_l8888_b6.0.milc").string();
  const auto r = run_lqcd("bench solver --device cpu --dims 8,8,8,8 --kappa 0.155 --reconstruct 12 --precision single "
                          "--repetitions 1 --json --config " + file,
                          dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto s = nlohmann::json::parse(r.out);
  EXPECT_EQ(s["links"].get<std::string>(), file);
  EXPECT_LE(s["true_residual"].get<double>(), 1e-10);
  // The same solve on Haar-random links is a different problem: a rough field far from critical.
  const auto h = run_lqcd("bench solver --device cpu --dims 8,8,8,8 --kappa 0.155 --reconstruct 12 --precision single "
                          "--repetitions 1 --json",
                          dir.path());
  ASSERT_EQ(h.exit_code, 0) << h.err;
  const auto hs = nlohmann::json::parse(h.out);
  EXPECT_EQ(hs["links"].get<std::string>(), "Haar-random (seed 1)");
  EXPECT_GT(s["iterations"].get<int>(), hs["iterations"].get<int>()) << "beta = 6.0 is closer to critical at 0.155";

  const auto wrong = run_lqcd("bench dslash --device cpu --dims 8,8,8,16 --config " + file, dir.path());
  EXPECT_NE(wrong.exit_code, 0);
  EXPECT_NE(wrong.err.find("8x8x8x16"), std::string::npos) << wrong.err;
  const auto missing = run_lqcd("bench matpc --device cpu --dims 8,8,8,8 --config nonexistent.lime", dir.path());
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_NE(missing.err.find("nonexistent.lime"), std::string::npos) << missing.err;
  EXPECT_EQ(missing.out.find("copy bandwidth"), std::string::npos) << "no measurement before the error";
  const auto heatbath = run_lqcd("bench heatbath --device cpu --dims 8,8,8,8 --config " + file, dir.path());
  EXPECT_NE(heatbath.err.find("--config"), std::string::npos) << heatbath.err;
}

}  // namespace
}  // namespace lqcd
