#pragma once
// Private to src/solvers: the bookkeeping every Krylov method shares (FLOP count, timing, residual
// history, the true-residual check with reliable updates, the errors) and the driver loop around a
// method's "cycle". A cycle starts the method afresh from the current (x, r) with r = b - M x and
// iterates until its residual estimate falls below the tolerance, the iteration limit is reached,
// it breaks down, or (GCR) its restart length is used up.

#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "fields/spinor_blas.hpp"
#include "solvers/krylov/krylov_scalars.hpp"
#include "solvers/solver.hpp"

namespace lqcd::solver_detail {

// FLOPs per site of the BLAS-1 calls (spinor_blas.hpp; 12 complex components per site):
// axpy / xpay 48, dot 48, norm2 24, scale by a complex number 72 (12 complex products), copy 0.
inline constexpr double kAxpyFlops = 48, kDotFlops = 48, kNorm2Flops = 24, kScaleFlops = 72;

// How many restarts after breakdowns without progress a solver makes before giving up (the breakdown
// test: krylov_scalars.hpp).
inline constexpr int kMaxBreakdownRestarts = 2;
// Failed true-residual checks with less than a factor 2 of progress before "stagnation".
inline constexpr int kMaxStalls = 3;

enum class Stop { Estimate, Limit, Restart, Breakdown };

// The parameters every solve checks (an Error naming the input key).
inline void check_params(const SolverParams& p) {
  if (!(p.tolerance > 0) || !std::isfinite(p.tolerance))
    fail("solver.tolerance: expected a positive number (got {})", p.tolerance);
  if (p.max_iterations < 0) fail("solver.max_iterations: expected a non-negative integer (got {})", p.max_iterations);
  if (p.type == SolverType::GCR && p.gcr_restart < 1)
    fail("solver.gcr_restart: expected a positive integer (got {})", p.gcr_restart);
}

// Whether f has the shape M acts on (sites, location, lattice).
template <typename Real, typename Field>
bool fits(const LinearOperator<Real>& M, const Field& f) {
  return f.subset() == M.subset() && f.location() == M.location() && f.geometry() == M.geometry();
}

// Real: the precision of the operator and the fields (scalars and reductions are double).
template <typename Real>
class Krylov {
 public:
  Krylov(SolverType type, const LinearOperator<Real>& M, const SpinorField<Real>& b, const SolverParams& p)
      : type_(type),
        name_(solver_type_name(type)),
        M_(M),
        b_(b),
        p_(p),
        // All processes' sites: the reported GFLOPS are those of the whole solve.
        sites_(double(M.subset() == Subset::Full ? M.geometry().volume() : M.geometry().half_volume()) *
               M.geometry().processes()),
        start_(std::chrono::steady_clock::now()) {
    tol2_ = p.tolerance * p.tolerance;
    b2_ = norm2(b);  // counted, like every reduction of the solve
    if (!std::isfinite(b2_)) fail_nan();
  }

  bool zero_source() const { return b2_ == 0; }
  // ||r||^2 at or below which the iterated residual meets the tolerance.
  double threshold() const { return tol2_ * b2_; }
  bool below(double r2) const { return r2 <= threshold(); }
  bool at_limit() const { return iterations_ >= p_.max_iterations; }
  int iterations_left() const { return p_.max_iterations - iterations_; }

  // Counted operations.
  void apply(SpinorField<Real>& out, const SpinorField<Real>& in) {
    M_.apply(out, in);
    ++applications_;
  }
  // out = M in and Re <in, M in> (LinearOperator::apply_and_inner; counted as an application and a dot).
  double apply_and_inner(SpinorField<Real>& out, const SpinorField<Real>& in) {
    count(1, kDotFlops);
    return M_.apply_and_inner(out, in);
  }
  // Work done outside the counted calls (the stream-resident cycles' own kernels).
  void count(double applications, double blas_flops_per_site) {
    applications_ += applications;
    blas_flops_ += blas_flops_per_site;
  }
  void apply_dagger(SpinorField<Real>& out, const SpinorField<Real>& in) {
    M_.apply_dagger(out, in);
    ++applications_;
  }
  void axpy(Complex<double> a, const SpinorField<Real>& x, SpinorField<Real>& y) {
    lqcd::axpy(a, x, y);
    blas_flops_ += kAxpyFlops;
  }
  void xpay(const SpinorField<Real>& x, Complex<double> a, SpinorField<Real>& y) {
    lqcd::xpay(x, a, y);
    blas_flops_ += kAxpyFlops;
  }
  void scale(Complex<double> a, SpinorField<Real>& x) {
    lqcd::scale(a, x);
    blas_flops_ += kScaleFlops;
  }
  Complex<double> dot(const SpinorField<Real>& x, const SpinorField<Real>& y) {
    blas_flops_ += kDotFlops;
    return lqcd::dot(x, y);
  }
  double norm2(const SpinorField<Real>& x) {
    blas_flops_ += kNorm2Flops;
    return lqcd::norm2(x);
  }
  // x <- x + a p, then p <- z + b p, in one pass (counted as the two axpys).
  void axpy_xpay(Complex<double> a, SpinorField<Real>& p, SpinorField<Real>& x, const SpinorField<Real>& z,
                 Complex<double> b) {
    lqcd::axpy_xpay(a, p, x, z, b);
    blas_flops_ += 2 * kAxpyFlops;
  }
  // y <- a x + y and ||y||^2 in one pass (counted as the axpy and the norm it replaces).
  double axpy_norm2(Complex<double> a, const SpinorField<Real>& x, SpinorField<Real>& y) {
    blas_flops_ += kAxpyFlops + kNorm2Flops;
    return lqcd::axpy_norm2(a, x, y);
  }
  // BiCGStab's fused operations (spinor_blas.hpp), each counted as the operations it replaces.
  DotAndNorm2 dot_norm2(const SpinorField<Real>& x, const SpinorField<Real>& y) {
    blas_flops_ += kDotFlops + kNorm2Flops;
    return lqcd::dot_norm2(x, y);
  }
  Norm2AndDot axpbypz_axpy_norm2_dot(Complex<double> a, const SpinorField<Real>& x, Complex<double> b,
                                     SpinorField<Real>& y, SpinorField<Real>& z, Complex<double> c,
                                     const SpinorField<Real>& w, const SpinorField<Real>& v) {
    blas_flops_ += 3 * kAxpyFlops + kNorm2Flops + kDotFlops;
    return lqcd::axpbypz_axpy_norm2_dot(a, x, b, y, z, c, w, v);
  }
  void axpy_then_xpay(Complex<double> a, const SpinorField<Real>& z, SpinorField<Real>& y, const SpinorField<Real>& x,
                      Complex<double> b) {
    blas_flops_ += 2 * kAxpyFlops;
    lqcd::axpy_then_xpay(a, z, y, x, b);
  }

  // r <- b - M x; returns ||r||^2 (the true residual; throws on NaN/Inf).
  double true_residual(SpinorField<Real>& r, const SpinorField<Real>& x) {
    apply(r, x);
    xpay(b_, Complex<double>(-1.0), r);
    const double r2 = norm2(r);
    if (!std::isfinite(r2)) fail_nan();
    true_rel_ = std::sqrt(r2 / b2_);
    return r2;
  }
  // Records the first residual (iteration 0).
  void start_history(double r2) { history_.push_back(b2_ > 0 ? std::sqrt(r2 / b2_) : 0.0); }
  // One iteration done with iterated residual ||r||^2 = r2.
  void iterate(double r2) {
    ++iterations_;
    history_.push_back(std::sqrt(r2 / b2_));
    if (!std::isfinite(r2)) fail_nan();
  }

  // A cycle broke down; `what` names the quantity.
  void breakdown(const std::string& what) { breakdown_what_ = what; }
  // After a breakdown, with the true residual ||r||^2 = r2: the method may restart, but throws after
  // kMaxBreakdownRestarts restarts in a row that did not gain a factor 2 in the residual.
  void count_breakdown(double r2, const std::string& hint) {
    breakdowns_ = r2 < 0.25 * last_breakdown_r2_ ? 1 : breakdowns_ + 1;
    last_breakdown_r2_ = r2;
    if (breakdowns_ > kMaxBreakdownRestarts) throw_error(fmt_breakdown(hint));
  }
  // The true residual ||r||^2 = r2 missed the tolerance although the iterated one had met it: throws
  // once kMaxStalls such checks in a row gained less than a factor 2 (the floating-point limit).
  void note_drift(double r2) {
    stalls_ = (r2 > 0.25 * last_failed_true2_) ? stalls_ + 1 : 0;
    last_failed_true2_ = r2;
    if (stalls_ >= kMaxStalls) throw_error(fmt_stagnation());
  }

  SolverResult result(bool converged) const {
    SolverResult res;
    res.type = type_;
    res.converged = converged;
    res.iterations = iterations_;
    res.true_residual = true_rel_;
    res.residual_history = history_;
    res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    res.set_flops((applications_ * M_.flops_per_site() + blas_flops_) * sites_);
    return res;
  }
  [[noreturn]] void fail_limit() const;
  [[noreturn]] void fail_nan();  // reports true_residual = NaN

 private:
  [[noreturn]] void throw_error(const std::string& message) const { throw SolverError(message, result(false)); }
  std::string fmt_breakdown(const std::string& hint) const;
  std::string fmt_stagnation() const;

  SolverType type_;
  std::string name_;
  const LinearOperator<Real>& M_;
  const SpinorField<Real>& b_;
  const SolverParams& p_;
  double sites_;
  std::chrono::steady_clock::time_point start_;
  double tol2_ = 0, b2_ = 0;
  double true_rel_ = 0;
  int iterations_ = 0;
  double applications_ = 0, blas_flops_ = 0;
  std::vector<double> history_;
  std::string breakdown_what_;
  int breakdowns_ = 0;
  double last_breakdown_r2_ = HUGE_VAL;
  int stalls_ = 0;
  double last_failed_true2_ = HUGE_VAL;
};

// The double-precision side of the mixed-precision solves (solve_mixed, solve_cg_reliable): the result
// with its time and FLOPs, the errors naming the method ("cg (double/half, reliable updates): ..."),
// the source's norm and the true residual r = b - M x in double, which every correction is measured by.
class MixedPrecisionSolve {
 public:
  MixedPrecisionSolve(std::string method, SolverType type, SolverPrecision precision, const LinearOperator<double>& M,
                      SpinorField<double>& x, const SpinorField<double>& b, double sites)
      : r(M.make_field()), method_(std::move(method)), M_(M), x_(x), b_(b), sites_(sites),
        start_(std::chrono::steady_clock::now()) {
    res.type = type;
    res.precision = precision;
    b2_ = norm2(b);
    if (!std::isfinite(b2_)) fail_with("NaN/Inf in the source");
  }

  // b = 0: x is set to zero (then return finish(true)).
  bool zero_source() {
    if (b2_ != 0) return false;
    set_zero(x_);
    res.residual_history = {0.0};
    return true;
  }
  double b2() const { return b2_; }
  // r = b - M x; sets res.true_residual and returns ||r||^2. `after` names the progress for the NaN error.
  double true_residual(const std::string& after) {
    M_.apply(r, x_);
    xpay(b_, Complex<double>(-1.0), r);
    flops += (M_.flops_per_site() + kAxpyFlops + kNorm2Flops) * sites_;
    const double r2 = norm2(r);
    if (!std::isfinite(r2)) fail_with("NaN/Inf in the residual after " + after);
    res.true_residual = std::sqrt(r2 / b2_);
    return r2;
  }
  SolverResult finish(bool converged) {
    res.converged = converged;
    res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    res.set_flops(flops);
    return res;
  }
  // A SolverError naming the method, with the result so far.
  [[noreturn]] void fail_with(const std::string& message) {
    throw SolverError(method_ + ": " + message, finish(false));
  }

  SolverResult res;
  double flops = 0;
  SpinorField<double> r;  // b - M x as of the last true_residual()

 private:
  std::string method_;
  const LinearOperator<double>& M_;
  SpinorField<double>& x_;
  const SpinorField<double>& b_;
  double sites_;
  double b2_ = 0;
  std::chrono::steady_clock::time_point start_;
};

// The loop shared by the methods. `cycle(r2)` runs the method afresh from (x, r), r = b - M x with
// ||r||^2 = r2 on entry, and returns why it stopped, with r2 the iterated ||r||^2. On Estimate, Limit
// and Breakdown the true residual replaces r (reliable update) before the method starts again.
template <typename Real, typename Cycle>
SolverResult drive(Krylov<Real>& k, SpinorField<Real>& x, SpinorField<Real>& r, const std::string& breakdown_hint,
                   Cycle&& cycle) {
  if (k.zero_source()) {  // b = 0: x = 0 exactly, whatever the guess
    set_zero(x);
    k.start_history(0);
    return k.result(true);
  }
  double r2 = k.true_residual(r, x);
  k.start_history(r2);
  for (;;) {
    if (k.below(r2)) return k.result(true);
    if (k.at_limit()) k.fail_limit();
    const Stop stop = cycle(r2);
    // GCR: the iterated residual carries over to the next cycle (at the limit it is checked below).
    if (stop == Stop::Restart && !k.at_limit()) continue;
    r2 = k.true_residual(r, x);
    if (k.below(r2)) continue;
    if (stop == Stop::Breakdown)
      k.count_breakdown(r2, breakdown_hint);
    else if (stop == Stop::Estimate)
      k.note_drift(r2);
  }
}

// Each instantiated for Real = double, float and Half.
template <typename Real>
SolverResult solve_cg(const LinearOperator<Real>& M, SpinorField<Real>& x, const SpinorField<Real>& b,
                      const SolverParams& p);
template <typename Real>
SolverResult solve_cg_hermitian(const LinearOperator<Real>& A, SpinorField<Real>& x, const SpinorField<Real>& b,
                                const SolverParams& p);
// One cycle of CG on the Hermitian positive-definite A (drive()'s contract; r = b - A x with
// ||r||^2 = r2 on entry, p and q scratch fields), with CG's scalars on the device: the host queues
// the iterations ahead and follows their residuals as the device publishes them.
template <typename Real>
Stop resident_cg_cycle(Krylov<Real>& k, const LinearOperator<Real>& A, SpinorField<Real>& x, SpinorField<Real>& r,
                       SpinorField<Real>& p, SpinorField<Real>& q, double& r2);
// The same for CGNR on M (solve_cg's iteration; z, p and q scratch fields).
template <typename Real>
Stop resident_cgnr_cycle(Krylov<Real>& k, const LinearOperator<Real>& M, SpinorField<Real>& x, SpinorField<Real>& r,
                         SpinorField<Real>& z, SpinorField<Real>& p, SpinorField<Real>& q, double& r2);

template <typename Real>
SolverResult solve_bicgstab(const LinearOperator<Real>& M, SpinorField<Real>& x, const SpinorField<Real>& b,
                            const SolverParams& p);
// One cycle of BiCGStab (drive()'s contract; r0, p, v, t scratch fields) with its scalars on the device
// (resident_bicgstab.cpp).
template <typename Real>
Stop resident_bicgstab_cycle(Krylov<Real>& k, const LinearOperator<Real>& M, SpinorField<Real>& x,
                             SpinorField<Real>& r, SpinorField<Real>& r0, SpinorField<Real>& p, SpinorField<Real>& v,
                             SpinorField<Real>& t, double& r2);
template <typename Real>
SolverResult solve_gcr(const LinearOperator<Real>& M, SpinorField<Real>& x, const SpinorField<Real>& b,
                       const SolverParams& p);

}  // namespace lqcd::solver_detail
