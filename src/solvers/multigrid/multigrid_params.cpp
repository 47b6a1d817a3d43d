// The multigrid's parameters (solvers/multigrid/multigrid.hpp): their checks, the number of levels a lattice
// gets, the memory a hierarchy holds, and the one-line summary of a setup.
#include <fmt/format.h>

#include <string>

#include "core/error.hpp"
#include "solvers/multigrid/multigrid.hpp"

namespace lqcd {

void check_multigrid_params(const MultigridParams& p) {
  for (int mu = 0; mu < 4; ++mu)
    if (p.block[std::size_t(mu)] < 2) fail("block = {}: each extent must be at least 2", dims_string(p.block));
  if (p.test_vectors < 1 || p.test_vectors > 64)
    fail("test_vectors = {}: expected 1 to 64 (24 or 32 are usual)", p.test_vectors);
  if (p.setup_iterations < 0) fail("setup_iterations = {}: expected >= 0", p.setup_iterations);
  if (p.setup_sweeps < 0 || (p.setup_sweeps > 0 && p.smoother != MultigridSmoother::Schwarz))
    fail("setup_sweeps = {}: expected >= 0, and Schwarz sweeps need the Schwarz smoother", p.setup_sweeps);
  if (p.adaptive_cycles < 0) fail("adaptive_cycles = {}: expected >= 0", p.adaptive_cycles);
  if (p.pre_smoothing < 0 || p.post_smoothing < 0 || p.pre_smoothing + p.post_smoothing == 0)
    fail("{} = {} (pre_smoothing = {}, post_smoothing = {}): expected >= 0 each and at least one step",
         p.pre_smoothing < 0 ? "pre_smoothing" : "post_smoothing",
         p.pre_smoothing < 0 ? p.pre_smoothing : p.post_smoothing, p.pre_smoothing, p.post_smoothing);
  if (!(p.coarse_tolerance > 0 && p.coarse_tolerance < 1))
    fail("coarse_tolerance = {}: expected a relative residual in (0, 1)", p.coarse_tolerance);
  if (p.coarse_max_iterations < 1)
    fail("coarse_max_iterations = {}: expected >= 1", p.coarse_max_iterations);
  if (p.coarse_restart < 1 || p.coarse_restart > kCoarseGcrMaxRestart)
    fail("coarse_restart = {}: expected 1 to {}", p.coarse_restart, kCoarseGcrMaxRestart);
  if (!(p.coarse_mu_factor >= 1 && p.coarse_mu_factor <= 1000))
    fail("coarse_mu_factor = {}: expected a number in [1, 1000]", p.coarse_mu_factor);
  if (p.outer_restart < 1) fail("outer_restart = {}: expected >= 1", p.outer_restart);
  if (p.outer_double_restart < 0 || p.outer_double_restart > 64)
    fail("outer_double_restart = {}: expected 0 to 64", p.outer_double_restart);
  if (p.outer_recycle < 0 || p.outer_recycle > 64)
    fail("outer_recycle = {}: expected 0 to 64", p.outer_recycle);
  if (p.levels != 0 && (p.levels < 2 || p.levels > 3))
    fail("levels = {}: expected 2 or 3 (or 0: chosen from the lattice)", p.levels);
  if (p.coarse_distributed && (p.coarse_deflation || p.coarse_half))
    fail("coarse_distributed = true: the split coarse level has plain GCR solves; set {}",
         p.coarse_deflation ? "coarse_deflation = false" : "coarse_half = false");
  if (p.coarse_test_vectors < 1 || p.coarse_test_vectors > 64)
    fail("coarse_test_vectors = {}: expected 1 to 64", p.coarse_test_vectors);
  if (p.coarse_setup_iterations < 0)
    fail("coarse_setup_iterations = {}: expected >= 0", p.coarse_setup_iterations);
  if (p.coarse_smoothing < 0) fail("coarse_smoothing = {}: expected >= 0", p.coarse_smoothing);
  if (!(p.coarsest_tolerance > 0 && p.coarsest_tolerance < 1))
    fail("coarsest_tolerance = {}: expected a relative residual in (0, 1)", p.coarsest_tolerance);
  if (p.coarsest_max_iterations < 1)
    fail("coarsest_max_iterations = {}: expected >= 1", p.coarsest_max_iterations);
  if (p.coarsest_direct_max < 0 || p.coarsest_direct_max > 32768)
    fail("coarsest_direct_max = {}: expected 0 (never) to 32768 unknowns (the dense inverse holds their square)",
         p.coarsest_direct_max);
}

double multigrid_bytes_per_site(const MultigridParams& p, int real_bytes, int processes, int rhs) {
  const double spinor = 24.0 * real_bytes, spinor_double = 24.0 * 8;
  const double block_sites = double(p.block[0]) * p.block[1] * p.block[2] * p.block[3];
  const double dof = 2.0 * p.test_vectors;
  // The transfer's vectors and the setup's fields; with transfer_half their 16-bit copy too.
  const double vectors = (p.transfer_half ? 2.5 : 2.0) * p.test_vectors * spinor;
  const double work = 10.0 * spinor;  // the cycle's residual, smoother and precision-conversion fields
  // Per right-hand side solved together: the flexible GCR(m)'s 2 (m + recycle) + 1 fields and two more,
  // in single precision with a single-precision cycle (there inside a double GCR(outer_double_restart):
  // 2 outer_double_restart + 1 double fields, solvers/multigrid/multigrid_solve.cpp) and in double otherwise; its
  // solution and source in double; with pre-smoothing its residual kept for the block restriction. One
  // double work field.
  const double krylov = real_bytes < 8 ? spinor : spinor_double;
  const double outer_double = real_bytes < 8 ? (2.0 * p.outer_double_restart + 1) * spinor_double : 0.0;
  const double outer = rhs * ((2.0 * (p.outer_restart + p.outer_recycle) + 3) * krylov + outer_double +
                              2 * spinor_double + (p.pre_smoothing > 0 ? spinor : 0.0)) +
                       spinor_double;
  // D_c and the even-odd form's blocks (A_0^{-1} and the eight A-hat blocks, these also in 16 bits with
  // coarse_half): 18 dof^2 complex numbers per coarse site (+ 8 dof^2 x 4 bytes), whole on every process
  // (coarse_distributed: its own sites' only).
  // coarse_deflation: 2 x 2 n_v coarse fields of dof components.
  const double coarse =
      (18.0 * 2.0 * real_bytes + (p.coarse_half ? 32.0 : 0.0) + (p.coarse_deflation ? 4.0 * real_bytes : 0.0)) *
      dof * dof / block_sites * double(p.coarse_distributed ? 1 : processes);
  return vectors + work + outer + coarse;
}

std::string multigrid_memory_summary(const MultigridParams& p) {
  // The terms of multigrid_bytes_per_site that the settings change.
  const std::string recycled = p.outer_recycle > 0 ? fmt::format(" with {} recycled pairs", p.outer_recycle) : "";
  return fmt::format("2 x {} test vectors, the outer GCR({}){} per right-hand side and the coarse operator",
                     p.test_vectors, p.outer_restart, recycled);
}

std::string MultigridPreconditionerInfo::summary() const {
  const std::string third =
      levels == 3 ? fmt::format(" -> third level {} x {} components ({})", dims_string(coarsest), coarsest_dof,
                                coarsest_direct ? "direct solve" : "GCR")
                  : "";
  return fmt::format("multigrid ({} cycle, {} levels): {} lattice, blocks {} -> coarse {} x {} components ({} coarse "
                     "solves{}){}; setup {:.3f} s (test vectors {:.3f} s, coarse operators {:.3f} s)",
                     precision, levels, dims_string(fine), dims_string(block), dims_string(coarse), coarse_dof,
                     levels == 3 ? "K-cycle" : coarse_even_odd ? "even-odd" : "full-lattice",
                     coarse_distributed ? ", distributed" : "", third,
                     timings.setup(), timings.setup_vectors, timings.setup_coarse);
}

int multigrid_levels(const MultigridParams& p, const Dims& lattice, const Dims& grid) {
  if (p.levels != 0) return p.levels;
  for (std::size_t mu = 0; mu < 4; ++mu) {
    if (p.block[mu] < 1 || lattice[mu] % p.block[mu] != 0) return 2;
    const int coarse = lattice[mu] / p.block[mu];
    // A split second level: each process aggregates its own part of it.
    const int part = p.coarse_distributed ? coarse / grid[mu] : coarse;
    if (coarse < 8 || p.coarse_block[mu] < 2 || part % p.coarse_block[mu] != 0 || coarse / p.coarse_block[mu] < 2)
      return 2;
  }
  return 3;
}

}  // namespace lqcd
