#pragma once
// The finishers of the stream-resident multi-RHS CG (multi_rhs_cg.cpp; resident_loop.hpp says how a
// resident cycle works): the lock-step CG's per-rhs scalars live in memory of the fields' location
// (BlockCgScalars), where the operator's fused reductions write their per-rhs sums and the block
// kernels read their coefficients (fields/spinor_block_blas.hpp, the "_into" steps), so that the host
// queues iteration after iteration without waiting for any of them. Iteration k of a cycle:
//   t = M p with ||t_j||^2                        (BlockOperator::apply_norm2_into -> sums)
//   alpha_j = rho_j / ||t_j||^2 (0 if frozen)     (BlockCgStepKernel)
//   r_j -= alpha_j M^dag t_j with ||r_j||^2       (BlockOperator::apply_dagger_axpy_norm2_into -> sums)
//   freeze the converged rhs, beta_j, rho_j,      (BlockCgResidualFinish: reports to the host)
//   x_j += alpha_j p_j;  p_j = r_j + beta_j p_j   (axpy_xpay_each with the scalars' alpha and beta)
// A rhs that is frozen (met its target, or broke down) has alpha_j = beta_j = 0, so x_j and r_j stay;
// once none iterates the cycle has stopped. The host queues iteration k + 1 after iteration k's report
// (multi_rhs_cg.cpp, resident_cycle), so none runs past that point.
//
// The arithmetic is that of lockstep_cg's host loop, in the same order and in double: the same
// coefficients reach the same kernels (RhsCoefficients rounds them alike), so the two give the same
// iterates bit for bit.

#include <cfloat>
#include <cmath>

#include "fields/spinor_block_blas.hpp"
#include "solvers/krylov/resident_progress.hpp"

namespace lqcd::solver_detail {

// In memory of the fields' location (device memory on the device).
struct BlockCgScalars {
  double sums[kMaxBlockRhs];         // the last per-rhs reduction: ||M p_j||^2, then ||r_j||^2
  double rho[kMaxBlockRhs];          // ||r_j||^2 that p_j was built from
  double alpha[kMaxBlockRhs];        // this iteration's steps (0 for a frozen rhs) ...
  double minus_alpha[kMaxBlockRhs];  // ... negated, for the residual update
  double beta[kMaxBlockRhs];
  double target[kMaxBlockRhs];       // tol_j^2 ||b_j||^2: rhs j is frozen once ||r_j||^2 <= target_j
  double b2[kMaxBlockRhs];           // ||b_j||^2
  int active[kMaxBlockRhs];          // 1 while rhs j iterates
  int iterations[kMaxBlockRhs];      // this cycle's iterations of rhs j
  int n;                             // right-hand sides
  int iterating;                     // how many are active
  int not_finite_rhs;                // the first rhs whose residual was NaN/Inf; -1 if none
};

// What the host sets at the start of a cycle: rho_j = ||r_j||^2, the targets and which rhs iterate.
struct BlockCgStart {
  double rho[kMaxBlockRhs];
  double target[kMaxBlockRhs];
  double b2[kMaxBlockRhs];
  int active[kMaxBlockRhs];
  int n;
};

// The start of a cycle. One thread.
struct BlockCgStartKernel {
  BlockCgScalars* s;
  BlockCgStart start;
  LQCD_HOST_DEVICE void operator()(std::int64_t) const {
    s->n = start.n;
    s->iterating = 0;
    for (int j = 0; j < start.n; ++j) {
      s->rho[j] = start.rho[j];
      s->target[j] = start.target[j];
      s->b2[j] = start.b2[j];
      s->active[j] = start.active[j];
      s->iterations[j] = 0;
      s->alpha[j] = s->minus_alpha[j] = s->beta[j] = 0;
      s->iterating += start.active[j];
    }
    s->not_finite_rhs = -1;
  }
};

// alpha_j = rho_j / <p_j, A p_j> from sums = ||M p_j||^2 for the rhs that iterate; a rhs with
// <p, A p> <= 0 (or NaN) breaks down: it is frozen and waits for the cycle's true-residual check. One
// thread.
struct BlockCgStepKernel {
  BlockCgScalars* s;
  LQCD_HOST_DEVICE void operator()(std::int64_t) const {
    for (int j = 0; j < s->n; ++j) {
      double alpha = 0;
      if (s->active[j]) {
        const double pAp = s->sums[j];
        if (pAp > 0 && pAp <= DBL_MAX) {
          alpha = s->rho[j] / pAp;
        } else {
          s->active[j] = 0;
          --s->iterating;
        }
      }
      s->alpha[j] = alpha;
      s->minus_alpha[j] = -alpha;
    }
  }
};

// After the residual update of iteration k, sums = ||r_j||^2: counts the iteration of every rhs that
// took it, freezes those that met their target, sets beta_j and rho_j for the others, and reports to
// the host the largest relative residual ||r_j|| / ||b_j|| among them; status kResidentConverged
// once none iterates (the cycle's end), kResidentNotFinite at a NaN/Inf residual. One thread.
struct BlockCgResidualFinish {
  BlockCgScalars* s;
  ResidentProgress* progress;
  int k;
  LQCD_HOST_DEVICE void operator()(std::int64_t) const {
    double worst = 0;
    int status = kResidentRunning;
    for (int j = 0; j < s->n; ++j) {
      s->beta[j] = 0;
      if (!s->active[j]) continue;
      const double r2 = s->sums[j];
      if (!(r2 <= DBL_MAX)) {  // NaN or Inf
        if (s->not_finite_rhs < 0) s->not_finite_rhs = j;
        status = kResidentNotFinite;
        continue;
      }
      ++s->iterations[j];
      worst = fmax(worst, sqrt(r2 / s->b2[j]));
      if (r2 <= s->target[j]) {
        s->active[j] = 0;
        --s->iterating;
      } else {
        s->beta[j] = r2 / s->rho[j];
        s->rho[j] = r2;
      }
    }
    if (status == kResidentRunning && s->iterating == 0) status = kResidentConverged;
    if (status == kResidentNotFinite) {  // the solve fails here: x keeps the previous iteration's value
      for (int j = 0; j < s->n; ++j) s->active[j] = 0, s->alpha[j] = 0;
      s->iterating = 0;
    }
    progress->report(k, worst, status);
  }
};

}  // namespace lqcd::solver_detail
