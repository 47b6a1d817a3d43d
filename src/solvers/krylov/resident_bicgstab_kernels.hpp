#pragma once
// Site kernels and reduction finishers of the stream-resident BiCGStab (resident_bicgstab.cpp): its
// scalars live in device memory (BiCgStabScalars), written by the reductions' finishers and read by
// the update kernels, as in the resident CG (resident_cg_kernels.hpp).
//
// Iteration k of a cycle (the host loop's, bicgstab.cpp), with the kernels that do it:
//   k > 0: p = r + beta (p - omega v)                      (BiCgStabDirection)
//   v = M p;  <r0, v>, ||v||^2 -> alpha = rho_k / <r0, v>    (DotNorm2Kernel, FinishAlpha)
//   s = r - alpha v (in r);  ||s||^2                        (BiCgStabHalfStep, FinishHalfStep)
//   t = M s;  <t, s>, ||t||^2 -> omega                      (DotNorm2Kernel, FinishOmega)
//   x += alpha p + omega s;  r = s - omega t;              (BiCgStabUpdate, FinishIteration)
//     ||r||^2, rho_k+1 = <r0, r> -> beta
// An iteration may stop at any of the finishers: a breakdown of <r0, v> (kind 0: nothing of the
// iteration done, as the host loop), convergence of ||s|| (kind 3: x takes the half step), a
// breakdown of omega (kind 1: x takes the half step, the iteration counts with ||s||^2), convergence
// of ||r||, or a breakdown of the next rho (kind 2, found at the start of the next iteration in the
// host loop). The
// finisher sets stop_iteration; the kernels after it in the iteration (and in any queued later one)
// do nothing, and the last finisher of the iteration reports it to the host. rho is double-buffered as
// CG's; alpha, omega and beta of iteration k are read only by iteration k and k + 1's direction, each
// after the finisher that writes it.

#include <cfloat>
#include <climits>

#include "core/reduction.hpp"
#include "fields/spinor_blas_kernels.hpp"
#include "solvers/krylov/krylov_scalars.hpp"
#include "solvers/krylov/resident_progress.hpp"

namespace lqcd::solver_detail {

// In device memory (host memory for host fields).
struct BiCgStabScalars {
  Complex<double> rho[2];  // <r0, r> before iteration k in rho[k % 2]
  // The coefficients as the host loop passes them to the same kernels: a negation inside a kernel
  // would let the compiler fuse other products into FMAs (exact, but rounded differently).
  Complex<double> alpha, minus_alpha, omega, minus_omega, beta;
  double r02;              // ||r0||^2
  double s2;               // ||s||^2 of the current iteration
  int stop_iteration;      // the iteration that stopped the cycle; INT_MAX while it runs
  int status;              // ResidentStatus of that iteration
};

// The statuses of the method's own stops (kinds 0 to 3: resident_bicgstab.cpp describes them for the
// host): three breakdowns, and convergence at the half step, which the host counts as less work than
// a whole iteration.
inline constexpr int kR0vBreakdown = kResidentMethodStop, kOmegaBreakdown = kResidentMethodStop + 1,
                     kRhoBreakdown = kResidentMethodStop + 2, kHalfStepConverged = kResidentMethodStop + 3;

// The start of a cycle: rho_0 = <r0, r> = rho0, ||r0||^2 = r02. One thread.
struct BiCgStabStart {
  BiCgStabScalars* s;
  Complex<double> rho0;
  double r02;
  LQCD_HOST_DEVICE void operator()(std::int64_t) const {
    *s = BiCgStabScalars{};
    s->rho[0] = rho0;
    s->r02 = r02;
    s->stop_iteration = INT_MAX;
    s->status = kResidentRunning;
  }
};

// Iteration k stops the cycle with `status`.
LQCD_HOST_DEVICE inline void stop_at(BiCgStabScalars* s, int k, int status) {
  s->stop_iteration = k;
  s->status = status;
}

// p = r + beta (p - omega v), with beta and omega of iteration k - 1 (k > 0).
template <typename Real>
struct BiCgStabDirection {
  using T = compute_t<Real>;
  const BiCgStabScalars* s;
  int k;
  SpinorView<Real> v, p, r;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    if (k > s->stop_iteration) return;
    const AxpyThenXpayKernel<Real> update{Complex<T>(s->minus_omega), Complex<T>(s->beta), v, p, r};
    update(i);
  }
};

// From the sums {Re <v, r0>, Im <v, r0>, ||v||^2}: alpha = rho_k / <r0, v>, or breakdown kind 0.
struct FinishAlpha {
  BiCgStabScalars* s;
  int k;
  LQCD_HOST_DEVICE void operator()(const Sums<3>& sum) const {
    if (k > s->stop_iteration) return;
    const Complex<double> r0v{sum[0], -sum[1]};
    if (negligible(r0v, s->r02, sum[2])) return stop_at(s, k, kR0vBreakdown);
    s->alpha = divide_rn(s->rho[k & 1], r0v);
    s->minus_alpha = -s->alpha;
  }
};

// r <- r - alpha v (s, the residual of x + alpha p), summing ||s||^2.
template <typename Real>
struct BiCgStabHalfStep {
  using T = compute_t<Real>;
  const BiCgStabScalars* s;
  int k;
  SpinorView<Real> v, r;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, Sums<1>& acc) const {
    if (k >= s->stop_iteration) return;
    const AxpyKernel<Real> axpy{Complex<T>(s->minus_alpha), v, r};
    acc[0] += double(norm2(axpy.update(i)));
  }
};

// Stores ||s||^2; converged if it meets the threshold.
struct FinishHalfStep {
  BiCgStabScalars* s;
  int k;
  double threshold;
  LQCD_HOST_DEVICE void operator()(const Sums<1>& sum) const {
    if (k >= s->stop_iteration) return;
    s->s2 = sum[0];
    if (sum[0] <= threshold) stop_at(s, k, kHalfStepConverged);
  }
};

// From the sums {Re <t, s>, Im <t, s>, ||t||^2}: omega, or breakdown kind 1.
struct FinishOmega {
  BiCgStabScalars* s;
  int k;
  LQCD_HOST_DEVICE void operator()(const Sums<3>& sum) const {
    if (k >= s->stop_iteration) return;
    const Complex<double> ts{sum[0], sum[1]};
    if (negligible(ts, sum[2], s->s2)) return stop_at(s, k, kOmegaBreakdown);
    s->omega = bicgstab_omega(ts, sum[2]);
    s->minus_omega = -s->omega;
  }
};

// x += alpha p + omega s, then r <- s - omega t, summing {||r||^2, Re <r0, r>, Im <r0, r>}; only
// x += alpha p where the iteration stopped at the half step (converged, or omega broke down); nothing
// where <r0, v> broke down or an earlier iteration stopped.
template <typename Real>
struct BiCgStabUpdate {
  using T = compute_t<Real>;
  const BiCgStabScalars* s;
  int k;
  SpinorView<Real> p, r, x, t, r0;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, Sums<3>& acc) const {
    const int stop = s->stop_iteration;
    if (k > stop) return;
    if (k < stop) {
      const AxpbypzAxpyNorm2DotKernel<Real> update{
          AxpbypzKernel<Real>{Complex<T>(s->alpha), Complex<T>(s->omega), p, r, x},
          AxpyNorm2DotKernel<Real>{AxpyKernel<Real>{Complex<T>(s->minus_omega), t, r}, r0}};
      return update(i, acc);
    }
    if (s->status != kR0vBreakdown) AxpyKernel<Real>{Complex<T>(s->alpha), p, x}(i);
  }
};

// The end of iteration k: reports it to the host (||r||^2, or ||s||^2 where it stopped at the half
// step) and, if it goes on, stores rho_k+1 and beta; stops the cycle where ||r|| meets the threshold,
// is not finite, or rho_k+1 breaks down (kind 2).
struct FinishIteration {
  BiCgStabScalars* s;
  ResidentProgress* progress;
  int k;
  double threshold;
  LQCD_HOST_DEVICE void operator()(const Sums<3>& sum) const {
    if (k > s->stop_iteration) return;  // queued past the end of the cycle
    if (k == s->stop_iteration) return progress->report(k, s->s2, s->status);
    const double r2 = sum[0];
    const Complex<double> rho_new{sum[1], sum[2]};
    const int status = r2 <= threshold                      ? kResidentConverged
                       : !(r2 <= DBL_MAX)                   ? kResidentNotFinite  // NaN or Inf
                       : negligible(rho_new, s->r02, r2)    ? kRhoBreakdown
                                                            : kResidentRunning;
    if (status == kResidentRunning) {
      s->rho[(k + 1) & 1] = rho_new;
      s->beta = bicgstab_beta(rho_new, s->rho[k & 1], s->alpha, s->omega);
    } else {
      stop_at(s, k, status);
    }
    progress->report(k, r2, status);
  }
};

}  // namespace lqcd::solver_detail
