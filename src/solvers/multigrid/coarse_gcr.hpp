#pragma once
// GCR(m) for coarse-grid systems A x = b (the multigrid's coarse solves, solvers/multigrid/multigrid.hpp), with the
// method's scalars on the device: the same iteration as solvers/krylov/flexible_gcr.hpp with an identity
// preconditioner (z_k = r, q_k = A z_k, q_k orthogonalised against the earlier q_j by batched classical
// Gram-Schmidt twice, normalised; x += alpha z_k, r -= alpha q_k with alpha = <q_k, r>), but every
// coefficient goes from a reduction's finisher to the next kernel in device memory
// (solvers/multigrid/coarse_gcr_kernels.hpp). On a coarse lattice the vectors are small and an iteration of the
// host-driven loop was bound by its round trips (five per iteration, about half the time of a coarse
// solve on the H100); here the host waits once per iteration, for the residual norm. (Waiting only every
// fourth iteration, the others queued, saved no time and, by overshooting the coarse tolerance, raised
// the outer iterations at kappa = 0.1352 on 32^4 from 44 to 72: docs/performance.md, nineteenth
// session.) On the host the finishers run in place: the same arithmetic, the same iteration counts.

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/dispatch.hpp"
#include "solvers/multigrid/coarse_field.hpp"
#include "solvers/multigrid/coarse_deflation.hpp"
#include "solvers/multigrid/coarse_gcr_kernels.hpp"
#include "solvers/krylov/flexible_gcr.hpp"

namespace lqcd {

template <typename Real>
class CoarseGcr {
 public:
  // Work fields like `like`, restart length m (at most kCoarseGcrMaxRestart).
  CoarseGcr(const CoarseField<Real>& like, int m);
  int restart() const { return int(z_.size()); }
  // Deflates the solves with d (solvers/multigrid/coarse_deflation.hpp; its A must be the solves' A; null: none).
  // d must outlive its use here.
  void set_deflation(CoarseDeflation<Real>* d) { deflation_ = d; }

  // Solves A x = b from x = 0 to c.tolerance on ||b - A x|| / ||b|| (deflated: / ||r_0||, the residual
  // after the start's projection; c.restart <= restart(); zero_guess only). apply(out, in): out = A in. The residual is recomputed at each restart and at the end.
  template <typename Apply>
  GcrOutcome solve(const Apply& apply, CoarseField<Real>& x, const CoarseField<Real>& b, const GcrControl& c);

 private:
  void orthogonalise(int k);
  const CoarseGcrScalars& read_scalars();  // waits for the device's scalars
  void reset_scalars();
  std::vector<CoarseField<Real>> z_, q_;
  CoarseField<Real> r_;
  Buffer<CoarseGcrScalars> scalars_, host_;
  CoarseDeflation<Real>* deflation_ = nullptr;
};

template <typename Real>
template <typename Apply>
GcrOutcome CoarseGcr<Real>::solve(const Apply& apply, CoarseField<Real>& x, const CoarseField<Real>& b,
                                  const GcrControl& c) {
  GcrOutcome out;
  const int m = std::min(c.restart, restart());
  const Location loc = b.location();
  set_zero(x);
  const double bn = std::sqrt(norm2(b));
  out.true_residual = true;
  if (!(bn > 0)) {
    out.converged = true;
    return out;
  }
  r_.copy_from(b);
  reset_scalars();
  double r2 = bn * bn;
  if (deflation_) {
    // The tolerance is relative to what the projection leaves: the residual near b's deflated part
    // is solved exactly, and tolerance x ||b|| would let the rest go unsolved.
    deflation_->project(x.view().data, r_.view().data, r_.size(), 1);
    r2 = norm2(r_);
    if (!(r2 > 0)) {
      out.converged = true;
      out.relative_residual = 0;
      return out;
    }
  }
  const double target2 = c.tolerance * c.tolerance * r2;
  out.relative_residual = 1.0;
  while (out.iterations < c.max_iterations) {
    int k = 0;
    for (; k < m && out.iterations < c.max_iterations; ++k) {
      CoarseField<Real>& zk = z_[std::size_t(k)];
      CoarseField<Real>& qk = q_[std::size_t(k)];
      zk.copy_from(r_);
      apply(qk, zk);
      if (deflation_) deflation_->orthogonalise(qk.view().data, zk.view().data, qk.size(), 1);
      orthogonalise(k);
      reduce_into<Sums<1>>(loc, qk.size(), CoarseNorm2Kernel<Real>{qk.view().data}, StoreGcrInverseNorm{scalars_.data()});
      for_each(loc, qk.size(), CoarseGcrNormaliseKernel<Real>{qk.view().data, zk.view().data, scalars_.data()});
      reduce_into<Sums<2>>(loc, qk.size(), CoarseDotKernel<Real>{qk.view().data, r_.view().data},
                           StoreGcrAlpha{scalars_.data()});
      reduce_into<Sums<1>>(loc, qk.size(),
                           CoarseGcrUpdateKernel<Real>{x.view().data, zk.view().data, r_.view().data, qk.view().data,
                                                       scalars_.data()},
                           StoreGcrResidual{scalars_.data()});
      ++out.iterations;
      const CoarseGcrScalars& h = read_scalars();  // the one wait of the iteration
      if (h.breakdown) {
        out.breakdown = true;
        break;
      }
      r2 = h.r2;
      out.relative_residual = std::sqrt(r2) / bn;
      out.true_residual = false;
      if (r2 <= target2) {
        ++k;
        break;
      }
    }
    if (out.breakdown && k == 0) break;
    // The true residual, at each restart and at the end: r = b - A x.
    apply(q_[0], x);
    reduce_into<Sums<1>>(loc, r_.size(), CoarseGcrResidualKernel<Real>{b.view().data, q_[0].view().data, r_.view().data},
                         StoreGcrResidual{scalars_.data()});
    if (deflation_) {  // r stays b - A x
      deflation_->project(x.view().data, r_.view().data, r_.size(), 1);
      reduce_into<Sums<1>>(loc, r_.size(), CoarseNorm2Kernel<Real>{r_.view().data}, StoreGcrResidual{scalars_.data()});
    }
    r2 = read_scalars().r2;
    out.true_residual = true;
    out.relative_residual = std::sqrt(r2) / bn;
    if (!std::isfinite(r2)) {
      out.breakdown = true;
      break;
    }
    if (r2 <= target2) {
      out.converged = true;
      break;
    }
    if (out.breakdown) break;
  }
  return out;
}

}  // namespace lqcd
