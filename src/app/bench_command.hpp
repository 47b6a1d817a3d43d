#pragma once
// lqcd bench: the performance harness. Every figure comes with the copy bandwidth measured in the
// same process, the byte counts (naive and minimal) and the median of many timed repetitions.

#include <string>
#include <vector>

#include "app/command.hpp"

namespace lqcd::app {

// --timing batched: CUDA events around batches of this many back-to-back calls.
inline constexpr int kTimingBatch = 10;

struct BenchCommandOptions {
  std::string kernel = "heatbath";  // heatbath | copy | dslash | matpc | solver
  std::string dims = "16,16,16,16";
  std::string grid;  // processes per direction; empty: ProcessGrid::default_grid
  std::string device = "auto";
  std::string action = "wilson";    // heatbath: gauge action; dslash, matpc, solver: wilson | clover | twisted_mass
  std::string precision = "double";  // dslash, matpc: double | single | half; solver: the inner precision
  int reconstruct = 18;             // reals stored per link: 18 | 12 | 8
  int rhs = 1;                      // right-hand sides per call (dslash: 1 to 64; solver: 1 to 32; matpc: 1)
  double kappa = 0.12;
  double mu = 0.01;                 // twisted_mass
  double csw = 1.0;                 // clover
  double tolerance = 1e-10;         // solver
  int max_iterations = 1000;        // solver --solver multigrid: outer iterations before it gives up
  double inner_tolerance = 1e-5;    // solver, mixed precision: each correction's residual reduction
  std::string system = "normal";    // solver: normal (CG on M^dag M x = M^dag b) | matpc (--solver on M x = b)
  std::string solver = "cg";        // solver, --system matpc: cg (CGNR) | bicgstab | gcr
  std::string config;               // dslash, matpc, solver: a gauge configuration instead of Haar-random links
  std::vector<std::string> multigrid;  // solver --solver multigrid: KEY=VALUE settings of the [multigrid] table
  int nv = 64;                      // distill: Laplacian eigenvectors per time slice
  int repetitions = 10;
  std::string timing = "events";    // device calls: events (back to back, CUDA events) | batched | wall (host clock, synchronised)
  int rotation_sets = 0;            // dslash: copies of the inputs the timed calls rotate through (0: automatic)
  bool json = false;
};

int run_bench(const BenchCommandOptions& options);

// lqcd bench: its options on the command line, and what runs it (app/command.hpp).
Command add_bench_command(CLI::App& lqcd);

}  // namespace lqcd::app
