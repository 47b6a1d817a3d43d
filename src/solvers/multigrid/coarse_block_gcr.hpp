#pragma once
// GCR(m) on N coarse-grid systems A x_j = b_j at once (issue 46): the right-hand sides of a block
// (solvers/multigrid/coarse_block_field.hpp) iterate in lockstep, so that each application of A reads the coarse
// operator once for all of them (solvers/multigrid/coarse_operator.hpp, solvers/multigrid/coarse_schur.hpp), and every
// vector operation is one launch for the block. Each right-hand side has its own Krylov space and
// coefficients (the iteration of solvers/multigrid/coarse_gcr.hpp per column: z_k = r, q_k = A z_k, batched
// classical Gram-Schmidt twice, x += alpha z_k, r -= alpha q_k), kept in device memory
// (solvers/multigrid/coarse_block_gcr_kernels.hpp). A right-hand side that reaches its tolerance stops being
// updated (its x and r are frozen while the others go on); the true residual is recomputed at each
// restart, where a column whose estimate had converged but whose true residual had not starts again.
// The host waits once per iteration, for the N residual norms.

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "solvers/multigrid/coarse_block_field.hpp"
#include "solvers/multigrid/coarse_block_gcr_kernels.hpp"
#include "solvers/multigrid/coarse_deflation.hpp"
#include "solvers/krylov/flexible_gcr.hpp"

namespace lqcd {

template <typename Real>
class CoarseBlockGcr {
 public:
  // Work fields like `like` (its lattice, dof, width and location), restart length m (1 to 64).
  CoarseBlockGcr(const CoarseBlockField<Real>& like, int m);
  int restart() const { return int(z_.size()); }
  int rhs() const { return r_.rhs(); }
  // Deflates the solves with d (solvers/multigrid/coarse_deflation.hpp; its A must be the solves' A; null: none).
  void set_deflation(CoarseDeflation<Real>* d) { deflation_ = d; }

  // Solves A x_j = b_j from x = 0 to c.tolerance on ||b_j - A x_j|| / ||b_j|| (deflated: / the residual
  // after the start's projection) for every column j
  // (c.restart <= restart(); zero_guess only; a column with b_j = 0 gets x_j = 0). apply(out, in):
  // out = A in on blocks. c.max_iterations bounds the lockstep iterations. One outcome per column.
  template <typename Apply>
  std::vector<GcrOutcome> solve(const Apply& apply, CoarseBlockField<Real>& x, const CoarseBlockField<Real>& b,
                                const GcrControl& c) {
    return solve(apply, [](CoarseBlockField<Real>& z, const CoarseBlockField<Real>& r) { z.copy_from(r); }, x, b, c);
  }
  // Flexible GCR: each direction z_k = precondition(r) (precondition(z, r) on blocks; it may change from
  // one iteration to the next, e.g. a multigrid cycle of the level below), otherwise as solve() above.
  template <typename Apply, typename Precondition>
  std::vector<GcrOutcome> solve(const Apply& apply, const Precondition& precondition, CoarseBlockField<Real>& x,
                                const CoarseBlockField<Real>& b, const GcrControl& c) {
    return solve_with_images(
        apply,
        [&](CoarseBlockField<Real>& z, CoarseBlockField<Real>& q, const CoarseBlockField<Real>& r) {
          precondition(z, r);
          apply(q, z);
        },
        x, b, c);
  }
  // Flexible GCR whose preconditioner also gives the image of its direction: direction(z, q, r) sets
  // z_k from r and q_k = A z_k. A preconditioner that ends in minimal-residual steps knows A z from
  // its residual (residual() below), which saves an application of A per iteration. apply serves the
  // true residuals at the restarts.
  template <typename Apply, typename Direction>
  std::vector<GcrOutcome> solve_with_images(const Apply& apply, const Direction& direction, CoarseBlockField<Real>& x,
                                            const CoarseBlockField<Real>& b, const GcrControl& c);
  // `steps` minimal-residual steps on A x_j = b_j from the x given (x_j += alpha r_j with alpha
  // = <A r_j, r_j> / ||A r_j||^2), for every column; the multigrid's smoothing of a coarse level. Per
  // step one application of A, one reduction and one update: no waits for the host. A column whose
  // A r vanishes stays as it is. residual() holds b - A x after it (updated with each step: to rounding).
  template <typename Apply>
  void minimal_residual_steps(const Apply& apply, CoarseBlockField<Real>& x, const CoarseBlockField<Real>& b, int steps);
  const CoarseBlockField<Real>& residual() const { return r_; }

 private:
  void start(const CoarseBlockField<Real>& b, double tolerance);  // x = 0, r = b, the states
  void iterate(int k);                                    // one GCR iteration on every active column
  void true_residual(const CoarseBlockField<Real>& b);    // r = b - A x (q_[0] holds A x), columns restarted
  const std::vector<CoarseBlockGcrState>& read_states();  // waits for the device
  void orthogonalise(int k);
  std::vector<CoarseBlockField<Real>> z_, q_;
  CoarseBlockField<Real> r_;
  CoarseBlockField<Real>* x_ = nullptr;  // during a solve
  Buffer<double> sums_;                  // reductions' results
  Buffer<CoarseBlockGcrState> state_, state_host_;
  std::vector<CoarseBlockGcrState> states_;
  CoarseDeflation<Real>* deflation_ = nullptr;
};

template <typename Real>
template <typename Apply>
void CoarseBlockGcr<Real>::minimal_residual_steps(const Apply& apply, CoarseBlockField<Real>& x,
                                                  const CoarseBlockField<Real>& b, int steps) {
  const Location loc = b.location();
  const int n = rhs();
  if (b.rhs() != n || x.rhs() != n || b.size() != r_.size())
    fail("internal: coarse block MR steps for {} right-hand sides given a block of {}", n, b.rhs());
  CoarseBlockField<Real>& Ar = q_[0];
  apply(Ar, x);
  for_each(loc, r_.size(), CoarseBlockDifferenceKernel<Real>{r_.view().data, b.view().data, Ar.view().data});
  for (int s = 0; s < steps; ++s) {
    apply(Ar, r_);
    reduce_each_into(loc, 3 * r_.size(), 3 * n, CoarseBlockMrSumsKernel<Real>{Ar.view().data, r_.view().data},
                     sums_.data());
    for_each(loc, r_.size(), CoarseBlockMrUpdateKernel<Real>{x.view().data, r_.view().data, Ar.view().data, sums_.data(), n});
  }
}

template <typename Real>
template <typename Apply, typename Direction>
std::vector<GcrOutcome> CoarseBlockGcr<Real>::solve_with_images(const Apply& apply, const Direction& direction,
                                                                CoarseBlockField<Real>& x,
                                                                const CoarseBlockField<Real>& b, const GcrControl& c) {
  const int n = rhs();
  const int m = std::min(c.restart, restart());
  x_ = &x;
  start(b, c.tolerance);
  std::vector<GcrOutcome> out(static_cast<std::size_t>(n));
  std::vector<double> b2(static_cast<std::size_t>(n));
  for (int j = 0; j < n; ++j) {
    b2[std::size_t(j)] = states_[std::size_t(j)].r2;
    out[std::size_t(j)].true_residual = true;
    out[std::size_t(j)].relative_residual = b2[std::size_t(j)] > 0 ? 1.0 : 0.0;
  }
  const auto any_active = [this] {
    for (const CoarseBlockGcrState& s : states_)
      if (s.active) return true;
    return false;
  };
  int iterations = 0;
  while (any_active() && iterations < c.max_iterations) {
    for (int k = 0; k < m && iterations < c.max_iterations && any_active(); ++k) {
      for (int j = 0; j < n; ++j) out[std::size_t(j)].iterations += states_[std::size_t(j)].active;
      direction(z_[std::size_t(k)], q_[std::size_t(k)], r_);
      iterate(k);
      read_states();
      ++iterations;
    }
    apply(q_[0], x);
    true_residual(b);
    read_states();
  }
  for (int j = 0; j < n; ++j) {
    const CoarseBlockGcrState& s = states_[std::size_t(j)];
    GcrOutcome& o = out[std::size_t(j)];
    const double bj2 = b2[std::size_t(j)];
    o.relative_residual = bj2 > 0 ? std::sqrt(s.r2 / bj2) : 0.0;
    o.true_residual = true;
    o.converged = s.r2 <= s.target2;
    o.breakdown = s.breakdown != 0 || !std::isfinite(s.r2);
  }
  x_ = nullptr;
  return out;
}

}  // namespace lqcd
