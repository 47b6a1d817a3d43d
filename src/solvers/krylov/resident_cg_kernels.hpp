#pragma once
// Site kernels and reduction finishers of the stream-resident CG (resident_cg.cpp): CG's scalars live
// in device memory (CgScalars), where the reductions' finishers write them and the update kernels read
// them, so that the host queues iteration after iteration without waiting for any of them. The host
// learns each iteration's ||r||^2 and whether the cycle has stopped from ResidentProgress, which
// the residual's finisher writes to page-locked host memory (resident_progress.hpp).
//
// Iteration k of a cycle of CG on a Hermitian A (Hestenes-Stiefel, as solve_cg_hermitian):
//   q = A p;  pAp = <p, q>                        (reduce_into, StorePAp)
//   alpha = rho_k / pAp;  r -= alpha q;  ||r||^2   (CgResidualUpdate, then CgResidualFinish: rho_k+1)
//   x += alpha p;  p = r + (rho_k+1 / rho_k) p     (CgSolutionUpdate)
// and of CGNR on M (as solve_cg), where rho is ||M^dag r||^2 and pAp is ||M p||^2:
//   q = M p;  pAp = ||q||^2                       (StorePAp)
//   alpha = rho_k / pAp;  r -= alpha q;  ||r||^2   (CgResidualUpdate, CgResidualFinish)
//   z = M^dag r;  rho_k+1 = ||z||^2                (StoreRho)
//   x += alpha p;  p = z + (rho_k+1 / rho_k) p     (CgSolutionUpdate)
// rho is double-buffered (rho_k in rho[k % 2]), so no kernel overwrites a value another still reads.
// The host may have queued an iteration or two past the one that stops the cycle; the residual and
// solution updates of those skip (they read stop_iteration), so x and r stay as the stopping
// iteration left them and only q, pAp and the operator's scratch fields see the extra work.
//
// The arithmetic is that of solve_cg_hermitian's host loop: alpha and beta in double, rounded to the
// field's arithmetic precision in the same kernels (AxpyKernel, AxpyXpayKernel), the reductions the
// same kernels with the same grid. The two give the same iterates bit for bit.

#include <cfloat>
#include <climits>

#include "core/reduction.hpp"
#include "fields/spinor_blas_kernels.hpp"
#include "solvers/krylov/resident_progress.hpp"

namespace lqcd::solver_detail {

// In device memory (host memory for host fields).
struct CgScalars {
  double rho[2];       // ||r||^2 before iteration k in rho[k % 2]
  double pAp;          // <p, A p> of the current iteration
  int stop_iteration;  // the iteration that stopped the cycle; INT_MAX while it runs
  int status;          // ResidentStatus of that iteration
};

// The start of a cycle: rho_0 = ||r||^2 of the cycle's (true) residual. One thread.
struct CgStartKernel {
  CgScalars* s;
  double r2;
  LQCD_HOST_DEVICE void operator()(std::int64_t) const {
    s->rho[0] = r2;
    s->rho[1] = 0;
    s->pAp = 0;
    s->stop_iteration = INT_MAX;
    s->status = kResidentRunning;
  }
};

// pAp = Re <a, b> from the reduction of a Norm2Kernel (Sums<1>) or a DotKernel (Sums<2>).
struct StorePAp {
  CgScalars* s;
  template <int N>
  LQCD_HOST_DEVICE void operator()(const Sums<N>& sum) const {
    s->pAp = sum[0];
  }
};

// r <- r - alpha q, alpha = rho_k / pAp, summing ||r||^2; nothing once the cycle has stopped or when
// pAp <= 0 (CgResidualFinish reports the breakdown).
template <typename Real>
struct CgResidualUpdate {
  using T = compute_t<Real>;
  const CgScalars* s;
  int k;
  SpinorView<Real> q, r;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, Sums<1>& acc) const {
    const double pAp = s->pAp;
    if (k >= s->stop_iteration || !(pAp > 0)) return;
    const AxpyKernel<Real> axpy{Complex<T>(Complex<double>(-(s->rho[k & 1] / pAp))), q, r};
    acc[0] += double(norm2(axpy.update(i)));
  }
};

// Decides whether iteration k stops the cycle (threshold: tolerance^2 ||b||^2, as Krylov::below),
// stores rho_k+1 = ||r||^2 where the residual is also the next direction's base (CG on A; not CGNR),
// and reports to the host. Stop kind 0: the breakdown pAp <= 0.
struct CgResidualFinish {
  CgScalars* s;
  ResidentProgress* progress;
  int k;
  double threshold;
  bool r2_is_rho;
  LQCD_HOST_DEVICE void operator()(const Sums<1>& sum) const {
    if (k >= s->stop_iteration) return;  // queued past the end of the cycle
    const double r2 = sum[0];
    const int status = !(s->pAp > 0)      ? kResidentMethodStop
                       : !(r2 <= DBL_MAX) ? kResidentNotFinite  // NaN or Inf
                       : r2 <= threshold  ? kResidentConverged
                                          : kResidentRunning;
    if (r2_is_rho) s->rho[(k + 1) & 1] = r2;
    if (status != kResidentRunning) {
      s->stop_iteration = k;
      s->status = status;
    }
    progress->report(k, r2, status);
  }
};

// CGNR: rho_k+1 = ||M^dag r||^2 (nothing once the cycle has stopped).
struct StoreRho {
  CgScalars* s;
  int k;
  LQCD_HOST_DEVICE void operator()(const Sums<1>& sum) const {
    if (k <= s->stop_iteration) s->rho[(k + 1) & 1] = sum[0];
  }
};

// x <- x + alpha p, then p <- z + beta p, beta = rho_k+1 / rho_k (z: r for CG on A, M^dag r for
// CGNR); also in the iteration that converged (x takes its last step), in none after.
template <typename Real>
struct CgSolutionUpdate {
  using T = compute_t<Real>;
  const CgScalars* s;
  int k;
  SpinorView<Real> p, x, z;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const int stop = s->stop_iteration;
    if (k > stop || (k == stop && s->status != kResidentConverged)) return;
    const double rho = s->rho[k & 1];
    const AxpyXpayKernel<Real> update{Complex<T>(Complex<double>(rho / s->pAp)),
                                      Complex<T>(Complex<double>(s->rho[(k + 1) & 1] / rho)), p, x, z};
    update(i);
  }
};

}  // namespace lqcd::solver_detail
