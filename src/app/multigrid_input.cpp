#include "app/multigrid_input.hpp"

#include <cmath>
#include <limits>

#include "app/input_values.hpp"
#include "core/error.hpp"
#include "solvers/multigrid/aggregation.hpp"

namespace lqcd::app {

std::vector<KeySpec> multigrid_schema() {
  const MultigridParams d;
  return {
      {"multigrid.block", "[4, 4, 4, 4]",
       "fine sites per aggregate (x, y, z, t): each extent >= 2, dividing the lattice extent at least twice"},
      {"multigrid.test_vectors", std::to_string(d.test_vectors),
       "near-null vectors n_v; the coarse operator has 2 n_v components per site (one set per chirality)"},
      {"multigrid.setup_iterations", std::to_string(d.setup_iterations),
       "GCR(8) iterations on D x = 0 from a random start, for each test vector (inverse iteration)"},
      {"multigrid.setup_sweeps", std::to_string(d.setup_sweeps),
       "sap: Schwarz sweeps x <- x - S D x (SAP iterations on D x = 0) on every test vector before the GCR "
       "iterations, all vectors together; 0: none"},
      {"multigrid.adaptive_cycles", std::to_string(d.adaptive_cycles),
       "bootstrap passes improving every test vector with the two-level cycle itself"},
      {"multigrid.smoother", "\"sap\"",
       "sap (Schwarz alternating procedure over the blocks, red then black; needs an even number of blocks in "
       "every direction) | mr (minimal-residual steps on the whole lattice)"},
      {"multigrid.pre_smoothing", std::to_string(d.pre_smoothing),
       "smoother sweeps (sap) or steps (mr) before the coarse correction"},
      {"multigrid.post_smoothing", std::to_string(d.post_smoothing),
       "smoother sweeps (sap) or steps (mr) after the coarse correction"},
      {"multigrid.block_iterations", std::to_string(d.block_iterations),
       "sap: minimal-residual steps on each block system per sweep"},
      {"multigrid.coarse_tolerance", "0.1", "relative residual of each coarse-grid solve (GCR)"},
      {"multigrid.coarse_max_iterations", std::to_string(d.coarse_max_iterations), "iteration limit of a coarse solve"},
      {"multigrid.coarse_restart", std::to_string(d.coarse_restart), "GCR restart length on the coarse grid"},
      {"multigrid.coarse_even_odd", "true",
       "solve the coarse system in even-odd (Schur) form where every coarse extent is even (else on the whole "
       "coarse lattice)"},
      {"multigrid.coarse_half", d.coarse_half ? "true" : "false",
       "even-odd coarse solves read the coarse operator's hopping blocks in 16-bit fixed point (half the bytes)"},
      {"multigrid.transfer_half", d.transfer_half ? "true" : "false",
       "restriction and prolongation read a 16-bit copy of the test vectors (half the bytes; single-precision "
       "cycle only)"},
      {"multigrid.coarse_deflation", d.coarse_deflation ? "true" : "false",
       "deflate the coarse solves (the third level's with levels = 3) by the restricted test vectors of the level "
       "above, split by chirality: GCR on the complement of their near-null space"},
      {"multigrid.coarse_distributed", d.coarse_distributed ? "true" : "false",
       "--grid: the coarse level split over the processes as the fine one (each its own coarse sites, face "
       "exchanges and global sums in the coarse GCR, even-odd as coarse_even_odd says) instead of whole on every "
       "process; a third level gathered whole onto every process; without coarse_deflation and coarse_half"},
      {"multigrid.outer_restart", std::to_string(d.outer_restart), "flexible GCR restart length on the fine grid"},
      {"multigrid.outer_recycle", std::to_string(d.outer_recycle),
       "restart cycles' corrections kept as search directions of the fine-grid GCR across restarts (LGMRES "
       "augmentation; 0: plain restarts)"},
      {"multigrid.outer_double_restart", std::to_string(d.outer_double_restart),
       "single-precision cycle: restart length of the double-precision flexible GCR around the single-precision "
       "GCR cycles (0: plain defect correction, which stalls near the critical mass; for comparison)"},
      {"multigrid.coarse_mu_factor", "1.0",
       "twisted mass: the coarse operator's mu times this (>= 1; QUDA's coarse mu factor); the solution is "
       "unchanged, only the preconditioner"},
      {"multigrid.levels", std::to_string(d.levels),
       "2 or 3; with 3 the coarse lattice is aggregated again and each coarse solve is preconditioned by the third "
       "level (K-cycle); 0: 3 where the coarse lattice is at least 8 sites in every direction and coarse_block "
       "tiles it, else 2"},
      {"multigrid.coarse_block", "[2, 2, 2, 2]",
       "levels = 3: coarse sites per third-level aggregate (each extent >= 2, dividing the coarse extent at least "
       "twice)"},
      {"multigrid.coarse_test_vectors", std::to_string(d.coarse_test_vectors),
       "levels = 3: test vectors on the coarse level (the third level has twice as many components per site)"},
      {"multigrid.coarse_setup_iterations", std::to_string(d.coarse_setup_iterations),
       "levels = 3: GCR(8) iterations on D_c x = 0 for each coarse-level test vector"},
      {"multigrid.coarse_smoothing", std::to_string(d.coarse_smoothing),
       "levels = 3: minimal-residual steps on the coarse operator after each third-level correction"},
      {"multigrid.coarsest_tolerance", "0.1", "levels = 3: relative residual of each third-level solve (GCR)"},
      {"multigrid.coarsest_max_iterations", std::to_string(d.coarsest_max_iterations),
       "levels = 3: iteration limit of a third-level solve"},
      {"multigrid.coarsest_direct_max", std::to_string(d.coarsest_direct_max),
       "levels = 3: the third level solved exactly by its dense inverse where its even-odd system has at most "
       "this many unknowns (memory: their square in complex numbers, 5 times that while it is made), else by GCR; "
       "0: always GCR"},
      {"multigrid.seed", "1", "seed of the test vectors' random start"},
  };
}

MultigridParams read_multigrid_params(const Config& c) {
  MultigridParams p;
  const std::vector<std::int64_t> b = c.integers("multigrid.block");
  if (b.size() != 4) c.fail_key("multigrid.block", fmt::format("expected 4 extents (x, y, z, t), got {}", b.size()));
  for (int mu = 0; mu < 4; ++mu) {
    if (b[std::size_t(mu)] < 2 || b[std::size_t(mu)] > (1 << 20))
      c.fail_key("multigrid.block", fmt::format("expected extents >= 2, got {} in direction {}", b[std::size_t(mu)],
                                                "xyzt"[mu]));
    p.block[std::size_t(mu)] = int(b[std::size_t(mu)]);
  }
  p.test_vectors = int(read_integer(c, "multigrid.test_vectors", 1, 64));
  p.setup_iterations = int(read_integer(c, "multigrid.setup_iterations", 0, 100000));
  p.adaptive_cycles = int(read_integer(c, "multigrid.adaptive_cycles", 0, 100));
  const std::string smoother = c.string("multigrid.smoother");
  if (smoother != "sap" && smoother != "mr")
    c.fail_key("multigrid.smoother", fmt::format("expected \"sap\" or \"mr\", got \"{}\"", smoother));
  p.smoother = smoother == "sap" ? MultigridSmoother::Schwarz : MultigridSmoother::MR;
  p.setup_sweeps = int(read_integer(c, "multigrid.setup_sweeps", 0, 1000));
  if (p.setup_sweeps > 0 && p.smoother != MultigridSmoother::Schwarz)
    c.fail_key("multigrid.setup_sweeps", "Schwarz sweeps need multigrid.smoother = \"sap\"; set it to 0 with \"mr\"");
  p.block_iterations = int(read_integer(c, "multigrid.block_iterations", 1, 1000));
  p.pre_smoothing = int(read_integer(c, "multigrid.pre_smoothing", 0, 1000));
  p.post_smoothing = int(read_integer(c, "multigrid.post_smoothing", 0, 1000));
  p.coarse_tolerance = c.real("multigrid.coarse_tolerance");
  p.coarse_max_iterations = int(read_integer(c, "multigrid.coarse_max_iterations", 1, 100000));
  p.coarse_restart = int(read_integer(c, "multigrid.coarse_restart", 1, kCoarseGcrMaxRestart));
  p.coarse_even_odd = c.boolean("multigrid.coarse_even_odd");
  p.coarse_half = c.boolean("multigrid.coarse_half");
  p.transfer_half = c.boolean("multigrid.transfer_half");
  p.coarse_deflation = c.boolean("multigrid.coarse_deflation");
  p.coarse_distributed = c.boolean("multigrid.coarse_distributed");
  p.outer_restart = int(read_integer(c, "multigrid.outer_restart", 1, 1000));
  p.outer_recycle = int(read_integer(c, "multigrid.outer_recycle", 0, 64));
  p.outer_double_restart = int(read_integer(c, "multigrid.outer_double_restart", 0, 64));
  p.coarse_mu_factor = c.real("multigrid.coarse_mu_factor");
  p.levels = int(read_integer(c, "multigrid.levels", 0, 3));
  if (p.levels == 1) c.fail_key("multigrid.levels", "expected 2 or 3, or 0 to choose from the lattice; got 1");
  const std::vector<std::int64_t> cb = c.integers("multigrid.coarse_block");
  if (cb.size() != 4)
    c.fail_key("multigrid.coarse_block", fmt::format("expected 4 extents (x, y, z, t), got {}", cb.size()));
  for (int mu = 0; mu < 4; ++mu) {
    if (cb[std::size_t(mu)] < 2 || cb[std::size_t(mu)] > 255)
      c.fail_key("multigrid.coarse_block", fmt::format("expected extents 2 to 255, got {} in direction {}",
                                                       cb[std::size_t(mu)], "xyzt"[mu]));
    p.coarse_block[std::size_t(mu)] = int(cb[std::size_t(mu)]);
  }
  p.coarse_test_vectors = int(read_integer(c, "multigrid.coarse_test_vectors", 1, 64));
  p.coarse_setup_iterations = int(read_integer(c, "multigrid.coarse_setup_iterations", 0, 100000));
  p.coarse_smoothing = int(read_integer(c, "multigrid.coarse_smoothing", 0, 1000));
  p.coarsest_tolerance = c.real("multigrid.coarsest_tolerance");
  p.coarsest_max_iterations = int(read_integer(c, "multigrid.coarsest_max_iterations", 1, 100000));
  p.coarsest_direct_max = int(read_integer(c, "multigrid.coarsest_direct_max", 0, 32768));
  p.seed = std::uint64_t(read_integer(c, "multigrid.seed", 0, std::numeric_limits<std::int64_t>::max()));
  // The ranges of the real values and the smoothing steps, as the solver checks them (one place).
  try {
    check_multigrid_params(p);
  } catch (const Error& e) {
    c.fail_in_table("multigrid", e.what());
  }
  return p;
}

void check_multigrid_blocks(const Config& c, const Dims& dims, const MultigridParams& p) {
  try {
    check_aggregation_block(dims, p.block, "multigrid.block");
    if (multigrid_levels(p, dims) == 3) {
      Dims coarse{};
      for (std::size_t mu = 0; mu < 4; ++mu) coarse[mu] = dims[mu] / p.block[mu];
      check_aggregation_block(coarse, p.coarse_block, "multigrid.coarse_block", "the coarse lattice");
    }
  } catch (const Error& e) {
    fail("{}: {}", c.source(), e.what());
  }
}

}  // namespace lqcd::app
